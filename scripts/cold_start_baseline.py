"""The cold-start baseline of scripts/cold_start.py: the least a Chalice + PynamoDB + boto3 handler does
to answer ``GET /events/{event_id}`` from the app's tables.

One boto3 client; three reads, as the app makes them: the token and the profile (one BatchGetItem,
consistent), the event's partition before the time suggestions (one Query, consistent), the people
(one BatchGetItem). Items are read into PynamoDB models, and the answer is JSON.
"""

import hashlib
import json
import os

import boto3
from chalice import Chalice, UnauthorizedError
from pynamodb.attributes import NumberAttribute, UnicodeAttribute
from pynamodb.models import Model

app = Chalice(app_name="cold-start-baseline")
_client = None


class Person(Model):
    class Meta:
        table_name = os.environ["USERS_TABLE"]

    pk = UnicodeAttribute(hash_key=True)
    sk = UnicodeAttribute(range_key=True)
    id = NumberAttribute(null=True)
    full_name = UnicodeAttribute(null=True)
    phone_number = UnicodeAttribute(null=True)


class Item(Model):
    class Meta:
        table_name = os.environ["EVENTS_TABLE"]

    pk = UnicodeAttribute(hash_key=True)
    sk = UnicodeAttribute(range_key=True)
    kind = UnicodeAttribute()
    title = UnicodeAttribute(null=True)
    user_id = NumberAttribute(null=True)
    owner_id = NumberAttribute(null=True)


def dynamodb():
    global _client
    if _client is None:
        _client = boto3.client("dynamodb", endpoint_url=os.environ.get("AWS_ENDPOINT_URL") or None)
    return _client


@app.route("/events/{event_id}")
def event_detail(event_id):
    token = app.current_request.headers.get("authorization", "").partition(" ")[2]
    user_id = token.partition(".")[0]
    token_hash = hashlib.sha256(token.encode()).hexdigest()
    users = os.environ["USERS_TABLE"]
    keys = [{"pk": {"S": f"USER#{user_id}"}, "sk": {"S": sk}} for sk in ("PROFILE", f"TOKEN#{token_hash}")]
    found = dynamodb().batch_get_item(RequestItems={users: {"Keys": keys, "ConsistentRead": True}})
    if len(found["Responses"][users]) != 2:
        raise UnauthorizedError("Invalid token.")

    page = dynamodb().query(
        TableName=os.environ["EVENTS_TABLE"],
        KeyConditionExpression="pk = :pk AND sk < :ts",
        ExpressionAttributeValues={":pk": {"S": f"EVENT#{event_id}"}, ":ts": {"S": "TS#"}},
        ConsistentRead=True,
    )
    items = [Item.from_raw_data(raw) for raw in page["Items"]]
    people = {item.user_id for item in items if item.user_id is not None}
    keys = [{"pk": {"S": f"USER#{uid}"}, "sk": {"S": "PROFILE"}} for uid in sorted(people)]
    found = dynamodb().batch_get_item(RequestItems={users: {"Keys": keys}})
    persons = {person.id: person for person in map(Person.from_raw_data, found["Responses"][users])}
    event = next(item for item in items if item.kind == "event")
    return json.loads(
        json.dumps(
            {
                "id": int(event_id),
                "title": event.title,
                "owner": event.owner_id,
                "invitations": [
                    {"user": {"id": uid, "full_name": persons[uid].full_name if uid in persons else None}}
                    for uid in sorted(people)
                ],
            }
        )
    )
