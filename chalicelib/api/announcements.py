"""POST/GET /events/{id}/announcements and POST /events/{id}/nudge: the host speaks to the guests."""

from __future__ import annotations

from chalicelib.api.request import RequestContext
from chalicelib.api.responses import HandlerResult
from chalicelib.errors import NotFound, ValidationError
from chalicelib.services.conversation import announcements
from chalicelib.timeutil import format_datetime
from chalicelib.validation import Fields

TEXT_MAX_LENGTH = 320
AUDIENCES = ("going", "waiting", "no_reply", "declined")
DEFAULT_AUDIENCE = ["going", "waiting", "no_reply"]
PER_PAGE, MAX_PER_PAGE = 30, 100


def announcement_json(announcement) -> dict:
    return {
        "id": announcement.id,
        "text": announcement.text,
        "to": list(announcement.audience),
        "created_at": format_datetime(announcement.created),
    }


def _audience(fields: Fields) -> list[str]:
    if not fields.present("to"):
        return list(DEFAULT_AUDIENCE)
    raw = fields.data.get("to")
    if not isinstance(raw, list) or not raw:
        fields.error("to", f"Choose one or more of: {', '.join(AUDIENCES)}.")
        return []
    unknown = [value for value in raw if value not in AUDIENCES]
    if unknown:
        fields.error(
            "to", f'"{unknown[0]}" is not a valid choice.' if isinstance(unknown[0], str) else "Not a valid choice."
        )
        return []
    return [value for value in AUDIENCES if value in raw]


def post_announcement(ctx: RequestContext):
    event_id = ctx.path_id("event_id")
    fields = Fields(ctx.json_object())
    text = fields.string("text", required=True, max_length=TEXT_MAX_LENGTH)
    audience = _audience(fields)
    fields.raise_if_errors()
    announcement = announcements.announce(ctx.user, event_id, text, audience)
    return HandlerResult(announcement_json(announcement), status=201)


def _positive(ctx: RequestContext, name: str, default: int, errors: dict, most: int | None = None) -> int:
    raw = ctx.query(name)
    if raw is None or raw == "":
        return default
    if not raw.isascii() or not raw.isdigit() or int(raw) < 1:
        errors[name] = ["A valid integer is required."] if name == "per_page" else []
        return default
    value = int(raw)
    if most is not None and value > most:
        errors[name] = [f"Ensure this value is less than or equal to {most}."]
    return value


def list_announcements(ctx: RequestContext):
    event_id = ctx.path_id("event_id")
    errors: dict = {}
    per_page = _positive(ctx, "per_page", PER_PAGE, errors, MAX_PER_PAGE)
    page = _positive(ctx, "page", 1, errors)
    if errors.pop("page", None) is not None:
        raise NotFound("Invalid page.")
    if errors:
        raise ValidationError(errors)
    found = announcements.list_announcements(ctx.user, event_id)
    start = (page - 1) * per_page
    if page > 1 and start >= len(found):
        raise NotFound("Invalid page.")

    def link(number: int) -> str:
        query = {name: value for name, value in (ctx.request.query_params or {}).items() if name != "page"}
        if number > 1:
            query["page"] = number
        return ctx.absolute_url(**query)

    return {
        "count": len(found),
        "next": link(page + 1) if start + per_page < len(found) else None,
        "previous": link(page - 1) if page > 1 else None,
        "results": [announcement_json(item) for item in found[start : start + per_page]],
    }


def nudge(ctx: RequestContext):
    event_id = ctx.path_id("event_id")
    if ctx.request.raw_body:
        ctx.json_object()  # a body, when sent, must be a JSON object like any other
    return {"nudged": announcements.nudge(ctx.user, event_id)}
