"""Every route of the API, by area: its path, its methods, the handler that answers it ("module:function" in
chalicelib/api) and what the shared plumbing does around it (chalicelib/api/blueprint.py, ``declare``).

Nothing here imports a handler: a route's module is loaded on its first call (chalicelib/loading.py), so a cold
start loads only the handler its first request needs. tests/api/test_routes.py loads every handler named here.
"""

from __future__ import annotations

from chalicelib.api.blueprint import ApiBlueprint
from chalicelib.api.request import FORM_BODY, MULTIPART_BODY, NO_BODY

AUTH = ApiBlueprint("auth")
AUTH.declare("/auth", ["POST"], "auth:request_pin", auth=False)
AUTH.declare("/auth/verify_pin", ["POST"], "auth:verify_pin", auth=False)
AUTH.declare("/auth/register", ["POST"], "auth:register")
AUTH.declare("/auth/logout", ["POST"], "auth:logout", body=NO_BODY)

USERS = ApiBlueprint("users")
USERS.declare("/users/me", ["GET"], "users:me")
USERS.declare("/users/me", ["PATCH"], "users:edit_me")
USERS.declare("/users/me", ["DELETE"], "account_close:delete_me", body=NO_BODY)
USERS.declare("/users/change_avatar", ["POST"], "avatars:change_avatar", body=MULTIPART_BODY)
USERS.declare("/users/remove_avatar", ["POST"], "avatars:remove_avatar", body=NO_BODY)
USERS.declare("/users/fb_token", ["POST"], "users:link_fb_token")

CONTACTS = ApiBlueprint("contacts")
CONTACTS.declare("/users/favorite_contacts", ["GET"], "contacts:list_favorites")
CONTACTS.declare("/users/favorite_contacts", ["POST"], "contacts:save_favorites")
CONTACTS.declare("/users/favorite_contacts", ["DELETE"], "contacts:delete_favorites")
CONTACTS.declare("/users/from_phone_numbers", ["POST"], "contacts:from_phone_numbers")
CONTACTS.declare("/users/who_has_invited_me", ["GET"], "contacts:who_has_invited_me")
CONTACTS.declare("/users/fb_friends", ["GET"], "contacts:fb_friends")

EVENTS = ApiBlueprint("events")
EVENTS.declare("/events", ["GET"], "events:list_events")
EVENTS.declare("/events", ["POST"], "event_writes:create_event", idempotent=True)
EVENTS.declare("/events/timeline", ["GET"], "events:timeline")
EVENTS.declare("/events/stats", ["GET"], "events:stats")
EVENTS.declare("/events/sample_rsvp_replies", ["GET"], "events:sample_rsvp_replies")
EVENTS.declare("/events/{event_id}", ["GET"], "events:event_detail")
EVENTS.declare("/events/{event_id}", ["PATCH"], "event_writes:edit_event")
EVENTS.declare("/events/{event_id}/cancel_event", ["PUT"], "event_writes:cancel_event", body=NO_BODY)
EVENTS.declare("/events/{event_id}/accept", ["POST"], "event_replies:accept")
EVENTS.declare("/events/{event_id}/reject", ["POST"], "event_replies:reject")
EVENTS.declare("/events/{event_id}/maybe", ["POST"], "event_replies:maybe", idempotent=True)
EVENTS.declare("/events/{event_id}/attendance", ["POST"], "event_attendance:answer_attendance", idempotent=True)
EVENTS.declare("/events/{event_id}/invitees/{user_id}/reply", ["PUT"], "event_replies:reply_for_guest", idempotent=True)
EVENTS.declare(
    "/events/{event_id}/invitees/{user_id}", ["DELETE"], "guest_removal:remove_invitee", body=NO_BODY, idempotent=True
)
EVENTS.declare("/events/{event_id}/offline_guests", ["POST"], "event_hosting:add_offline_guest", idempotent=True)
EVENTS.declare(
    "/events/{event_id}/offline_guests/{guest_id}", ["DELETE"], "event_hosting:remove_offline_guest", body=NO_BODY
)
EVENTS.declare(
    "/events/{event_id}/invitations/{invitation_id}/mark_seen", ["PUT"], "event_replies:mark_seen", body=NO_BODY
)
EVENTS.declare(
    "/events/{event_id}/cohosts/{user_id}", ["PUT"], "event_hosting:appoint_cohost", body=NO_BODY, idempotent=True
)
EVENTS.declare("/events/{event_id}/cohosts/{user_id}", ["DELETE"], "event_hosting:end_cohost", body=NO_BODY)
EVENTS.declare("/events/{event_id}/guests.csv", ["GET"], "event_hosting:guest_list_csv", body=NO_BODY)
EVENTS.declare("/events/{event_id}/clone", ["POST"], "event_writes:clone_event", idempotent=True)
EVENTS.declare("/events/{event_id}/cover", ["PUT"], "event_hosting:change_cover", body=MULTIPART_BODY)
EVENTS.declare("/events/{event_id}/cover", ["DELETE"], "event_hosting:remove_cover", body=NO_BODY)

CONVERSATION = ApiBlueprint("conversation")
CONVERSATION.declare("/events/{event_id}/messages", ["POST"], "conversation:post_message", idempotent=True)
CONVERSATION.declare("/events/{event_id}/polls", ["POST"], "conversation:post_poll", idempotent=True)
CONVERSATION.declare("/events/{event_id}/time_suggestions", ["POST"], "conversation:suggest_time", idempotent=True)
CONVERSATION.declare("/events/{event_id}/time_suggestions", ["GET"], "conversation:list_time_suggestions")
CONVERSATION.declare("/events/{event_id}/messages/{message_id}", ["DELETE"], "moderation:remove_message", body=NO_BODY)
CONVERSATION.declare("/events/{event_id}/polls/{poll_id}", ["DELETE"], "moderation:remove_poll", body=NO_BODY)
CONVERSATION.declare(
    "/events/{event_id}/time_suggestions/{suggestion_id}", ["DELETE"], "moderation:remove_time_suggestion", body=NO_BODY
)

ANNOUNCEMENTS = ApiBlueprint("announcements")
ANNOUNCEMENTS.declare("/events/{event_id}/announcements", ["POST"], "announcements:post_announcement", idempotent=True)
ANNOUNCEMENTS.declare("/events/{event_id}/announcements", ["GET"], "announcements:list_announcements")
ANNOUNCEMENTS.declare("/events/{event_id}/nudge", ["POST"], "announcements:nudge", idempotent=True)

JOIN_LINKS = ApiBlueprint("join_links")
JOIN_LINKS.declare("/events/{event_id}/join_link", ["POST"], "join_links:new_join_link", idempotent=True)
JOIN_LINKS.declare("/events/join", ["POST"], "join_links:join", idempotent=True)
JOIN_LINKS.declare("/events/{event_id}/join_requests", ["GET"], "join_links:join_requests")
JOIN_LINKS.declare(
    "/events/{event_id}/join_requests/{user_id}/approve", ["POST"], "join_links:approve", body=NO_BODY, idempotent=True
)
JOIN_LINKS.declare(
    "/events/{event_id}/join_requests/{user_id}/decline", ["POST"], "join_links:decline", body=NO_BODY, idempotent=True
)

DEVICES = ApiBlueprint("devices")
DEVICES.declare("/notifications/add_ios_device", ["POST"], "devices:add_ios_device")
DEVICES.declare("/notifications/remove_ios_device", ["POST"], "devices:remove_ios_device")
DEVICES.declare("/notifications/add_android_device", ["POST"], "devices:add_android_device")
DEVICES.declare("/notifications/remove_android_device", ["POST"], "devices:remove_android_device")

GUEST_PAGE = ApiBlueprint("guest_page", error_page="guest_page:error_page")
GUEST_PAGE.declare("/i/{code}", ["GET"], "guest_page:event_page", auth=False, body=NO_BODY)
GUEST_PAGE.declare("/i/{code}/rsvp", ["POST"], "guest_page:answer", auth=False, body=FORM_BODY)
GUEST_PAGE.declare("/i/{code}/stop", ["POST"], "guest_page:stop_texts", auth=False, body=FORM_BODY)
GUEST_PAGE.declare("/i/{code}/start", ["POST"], "guest_page:start_texts", auth=False, body=FORM_BODY)
GUEST_PAGE.declare("/i/{code}/event.ics", ["GET"], "guest_page:calendar_entry", auth=False, body=NO_BODY)

GUEST_PAGE.declare("/i/{code}/calendar.ics", ["GET"], "calendar_feeds:guest_calendar", auth=False, body=NO_BODY)
GUEST_PAGE.declare("/i/{code}/dates/{date_id}/rsvp", ["POST"], "series_page:answer_date", auth=False, body=FORM_BODY)

GUEST_PAGE.declare("/i/{code}/photos", ["POST"], "guest_album:add_photo", auth=False, body=FORM_BODY)

THE_DAY = ApiBlueprint("the_day")
THE_DAY.declare("/events/{event_id}/photos", ["POST"], "the_day:add_photo", idempotent=True)
THE_DAY.declare("/events/{event_id}/photos", ["GET"], "the_day:album")
THE_DAY.declare("/events/{event_id}/photos/{photo_id}", ["DELETE"], "the_day:remove_photo", body=NO_BODY)
THE_DAY.declare("/events/{event_id}/pass", ["GET"], "the_day:my_pass")
THE_DAY.declare("/events/{event_id}/check_ins", ["POST"], "the_day:check_in", idempotent=True)
THE_DAY.declare("/events/{event_id}/check_ins", ["DELETE"], "the_day:undo_check_in", body=NO_BODY)

SERIES = ApiBlueprint("series")
SERIES.declare("/series/{series_id}", ["DELETE"], "series:cancel_series", body=NO_BODY)

CALENDAR_FEEDS = ApiBlueprint("calendar_feeds")
CALENDAR_FEEDS.declare(
    "/users/me/calendar_feed", ["POST"], "calendar_feeds:new_calendar_feed", body=NO_BODY, idempotent=True
)
CALENDAR_FEEDS.declare("/c/{feed}", ["GET"], "calendar_feeds:person_calendar", auth=False, body=NO_BODY)

JOIN_PAGE = ApiBlueprint("join_page", error_page="guest_page:error_page")  # the guest page's error pages
JOIN_PAGE.declare("/j/{code}", ["GET"], "join_page:join_page", auth=False, body=NO_BODY)
JOIN_PAGE.declare("/j/{code}/pin", ["POST"], "join_page:send_pin", auth=False, body=FORM_BODY)
JOIN_PAGE.declare("/j/{code}/verify", ["POST"], "join_page:verify", auth=False, body=FORM_BODY)

PLANS = ApiBlueprint("plans")
PLANS.declare("/plans", ["POST"], "plans:create_plan", idempotent=True)
PLANS.declare("/plans/{plan_id}", ["GET"], "plans:plan_detail")
PLANS.declare("/plans/{plan_id}", ["DELETE"], "plans:drop_plan", body=NO_BODY)
PLANS.declare("/plans/{plan_id}/votes", ["PUT"], "plans:vote")
PLANS.declare("/plans/{plan_id}/decide", ["POST"], "plans:decide", idempotent=True)

PLAN_PAGE = ApiBlueprint("plan_page", error_page="guest_page:error_page")  # the guest page's error pages
PLAN_PAGE.declare("/p/{code}", ["GET"], "plan_page:plan_view", auth=False, body=NO_BODY)
PLAN_PAGE.declare("/p/{code}/votes", ["POST"], "plan_page:vote", auth=False, body=FORM_BODY)

ACCOUNT_EXPORT = ApiBlueprint("account_export")
ACCOUNT_EXPORT.declare("/users/me/export", ["POST"], "account_export:request_export", body=NO_BODY, idempotent=True)
ACCOUNT_EXPORT.declare("/users/me/export", ["GET"], "account_export:export_status")
ACCOUNT_EXPORT.declare("/users/me/export/{token}", ["GET"], "account_export:download_export", auth=False, body=NO_BODY)
ACCOUNT_EXPORT.declare(
    "/users/me/export/photos/{token}", ["GET"], "account_export:download_export_photo", auth=False, body=NO_BODY
)

ACCOUNT_WEB = ApiBlueprint("account_web", error_page="account_web:error_page")
ACCOUNT_WEB.declare("/account/delete", ["GET"], "account_web:start", auth=False, body=NO_BODY)
ACCOUNT_WEB.declare("/account/delete/pin", ["POST"], "account_web:send_pin", auth=False, body=FORM_BODY)
ACCOUNT_WEB.declare("/account/delete/verify", ["POST"], "account_web:verify", auth=False, body=FORM_BODY)
ACCOUNT_WEB.declare("/account/delete/confirm", ["POST"], "account_web:confirm", auth=False, body=FORM_BODY)

DOCS = ApiBlueprint("docs")
DOCS.declare("/openapi.json", ["GET"], "docs:openapi_document", auth=False, body=NO_BODY)
DOCS.declare("/docs", ["GET"], "docs:docs_page", auth=False, body=NO_BODY)
DOCS.declare("/docs/assets/{name}", ["GET"], "docs:docs_asset", auth=False, body=NO_BODY)

# In the order app registration has always used; a path belongs to exactly one of them.
API_BLUEPRINTS = (
    AUTH,
    USERS,
    CONTACTS,
    EVENTS,
    THE_DAY,
    SERIES,
    CALENDAR_FEEDS,
    CONVERSATION,
    ANNOUNCEMENTS,
    JOIN_LINKS,
    DEVICES,
    GUEST_PAGE,
    JOIN_PAGE,
    PLANS,
    PLAN_PAGE,
    ACCOUNT_EXPORT,
    ACCOUNT_WEB,
    DOCS,
)
