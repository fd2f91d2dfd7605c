"""Undo a mistake in a stage's data (docs/operations.md, "Restore").

    # 1. a table as it was at a moment, into a new table beside it (the stage keeps running on the old one)
    .venv/bin/python scripts/restore.py table --stage prod --table events --time 2026-11-26T08:00:00Z
    # 2. after checking the copy: put it in place of the damaged table, under the name the stage uses
    .venv/bin/python scripts/restore.py swap --stage prod --table events --from invites-prod-events-restored-...
    # an avatar object deleted or overwritten within the bucket's noncurrent-version days
    .venv/bin/python scripts/restore.py avatar --stage prod --bucket invites-prod-avatars-<account> --key <key>

``table`` uses point-in-time recovery (RestoreTableToPointInTime: any second of the last 35 days, or the
retention the table has). ``swap`` backs the damaged table up first (on-demand backup, kept until deleted), lifts
its deletion protection, deletes it, restores the checked copy under its name from a backup of the copy, and puts
back what a restore does not carry: deletion protection, point-in-time recovery, TTL, encryption (AWS KMS key).
Requests that need that table fail while it is away (minutes, growing with its size): announce a maintenance window.
"""

from __future__ import annotations

import argparse
import sys
from datetime import UTC, datetime

APP_NAME = "invites"
TABLES = ("users", "auth", "events")
# Tables with a TTL attribute (infra/template.yaml TimeToLiveSpecification): a restore drops the setting.
TTL_ATTRIBUTES = {"users": "expires_at", "auth": "expires_at"}
WAIT = {"Delay": 5, "MaxAttempts": 720}


def say(text: str) -> None:
    print(f"restore: {text}", flush=True)


def table_name(stage: str, table: str) -> str:
    return f"{APP_NAME}-{stage}-{table}"


def _stamp() -> str:
    return datetime.now(UTC).strftime("%Y%m%d%H%M%S")


def restore_table(dynamodb, stage: str, table: str, moment: datetime | None) -> str:
    """The table as it was at ``moment`` (None: the latest restorable time) in a new table; returns its name."""
    source = table_name(stage, table)
    target = f"{source}-restored-{_stamp()}"
    arguments = {"SourceTableName": source, "TargetTableName": target}
    if moment is None:
        arguments["UseLatestRestorableTime"] = True
    else:
        arguments["RestoreDateTime"] = moment
    dynamodb.restore_table_to_point_in_time(**arguments)
    dynamodb.get_waiter("table_exists").wait(TableName=target, WaiterConfig=WAIT)
    say(f"{source} as of {moment or 'the latest restorable time'} is in {target}: check it, then `swap`")
    return target


def swap(dynamodb, stage: str, table: str, restored: str) -> str:
    """Put ``restored`` in place of the stage's table; returns the ARN of the damaged table's backup."""
    name = table_name(stage, table)
    if not restored.startswith(f"{name}-restored-"):
        raise SystemExit(f"restore: {restored} is not a copy of {name} made by `restore.py table`")
    damaged = dynamodb.create_backup(TableName=name, BackupName=f"{name}-before-swap-{_stamp()}")["BackupDetails"]
    say(f"backup of the damaged {name}: {damaged['BackupArn']}")
    copy = dynamodb.create_backup(TableName=restored, BackupName=f"{restored}-swap")["BackupDetails"]
    _wait_backup(dynamodb, copy["BackupArn"])
    dynamodb.update_table(TableName=name, DeletionProtectionEnabled=False)
    dynamodb.get_waiter("table_exists").wait(TableName=name, WaiterConfig=WAIT)  # ACTIVE again: deletable
    dynamodb.delete_table(TableName=name)
    dynamodb.get_waiter("table_not_exists").wait(TableName=name, WaiterConfig=WAIT)
    say(f"{name} deleted; restoring it from {restored}")
    dynamodb.restore_table_from_backup(
        TargetTableName=name,
        BackupArn=copy["BackupArn"],
        SSESpecificationOverride={"Enabled": True, "SSEType": "KMS"},
    )
    dynamodb.get_waiter("table_exists").wait(TableName=name, WaiterConfig=WAIT)
    dynamodb.update_table(TableName=name, DeletionProtectionEnabled=True)
    dynamodb.get_waiter("table_exists").wait(TableName=name, WaiterConfig=WAIT)
    _enable_point_in_time_recovery(dynamodb, name)
    if table in TTL_ATTRIBUTES:
        dynamodb.update_time_to_live(
            TableName=name, TimeToLiveSpecification={"Enabled": True, "AttributeName": TTL_ATTRIBUTES[table]}
        )
    say(f"{name} is back, protected, with point-in-time recovery; delete {restored} once you are done with it")
    return damaged["BackupArn"]


def _enable_point_in_time_recovery(dynamodb, name: str) -> None:
    """PITR of a table just restored; DynamoDB refuses it while the table's backups are still being set up."""
    import time

    for _ in range(WAIT["MaxAttempts"]):
        try:
            dynamodb.update_continuous_backups(
                TableName=name, PointInTimeRecoverySpecification={"PointInTimeRecoveryEnabled": True}
            )
            return
        except dynamodb.exceptions.ContinuousBackupsUnavailableException:
            time.sleep(WAIT["Delay"])
    raise SystemExit(f"restore: point-in-time recovery of {name} could not be turned on: do it by hand")


def _wait_backup(dynamodb, backup_arn: str) -> None:
    import time

    for _ in range(WAIT["MaxAttempts"]):
        status = dynamodb.describe_backup(BackupArn=backup_arn)["BackupDescription"]["BackupDetails"]["BackupStatus"]
        if status == "AVAILABLE":
            return
        time.sleep(WAIT["Delay"])
    raise SystemExit(f"restore: backup {backup_arn} did not become available")


def restore_avatar(s3, bucket: str, key: str) -> str:
    """The avatar object as it was before its last delete or overwrite; returns the version now current."""
    versions = s3.list_object_versions(Bucket=bucket, Prefix=key)
    entries = [v for v in versions.get("Versions", []) if v["Key"] == key]
    markers = [m for m in versions.get("DeleteMarkers", []) if m["Key"] == key]
    latest_marker = next((m for m in markers if m["IsLatest"]), None)
    if latest_marker:  # deleted: removing the delete marker brings the last version back
        s3.delete_object(Bucket=bucket, Key=key, VersionId=latest_marker["VersionId"])
        say(f"s3://{bucket}/{key}: delete marker removed")
        return s3.head_object(Bucket=bucket, Key=key)["VersionId"]
    older = sorted((v for v in entries if not v["IsLatest"]), key=lambda v: v["LastModified"], reverse=True)
    if not older:
        raise SystemExit(f"restore: s3://{bucket}/{key} has no earlier version (expired, or never replaced)")
    copied = s3.copy_object(
        Bucket=bucket, Key=key, CopySource={"Bucket": bucket, "Key": key, "VersionId": older[0]["VersionId"]}
    )
    say(f"s3://{bucket}/{key}: version {older[0]['VersionId']} is current again")
    return copied["VersionId"]


def main(argv: list[str] | None = None) -> int:
    import boto3

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("action", choices=["table", "swap", "avatar"])
    parser.add_argument("--stage", required=True)
    parser.add_argument("--region")
    parser.add_argument("--table", choices=TABLES)
    parser.add_argument("--time", help="ISO 8601 UTC moment for `table` (default: the latest restorable time)")
    parser.add_argument("--from", dest="restored", help="the checked copy, for `swap`")
    parser.add_argument("--bucket")
    parser.add_argument("--key")
    args = parser.parse_args(argv)
    session = boto3.session.Session(region_name=args.region)
    if args.action == "avatar":
        if not (args.bucket and args.key):
            parser.error("avatar needs --bucket and --key")
        restore_avatar(session.client("s3"), args.bucket, args.key)
        return 0
    if not args.table:
        parser.error(f"{args.action} needs --table")
    dynamodb = session.client("dynamodb")
    if args.action == "table":
        moment = datetime.fromisoformat(args.time.replace("Z", "+00:00")) if args.time else None
        restore_table(dynamodb, args.stage, args.table, moment)
    else:
        if not args.restored:
            parser.error("swap needs --from <the restored table>")
        swap(dynamodb, args.stage, args.table, args.restored)
    return 0


if __name__ == "__main__":
    sys.exit(main())
