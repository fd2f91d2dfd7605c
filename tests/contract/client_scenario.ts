// A web or React Native app's flow with openapi-fetch over the types openapi-typescript makes of
// openapi.yaml (`invites.d.ts` beside this file; docs/api.md, "Quickest start"). The contract tests
// type-check it under strict tsc (tests/contract/test_generated_clients.py).
//
// openapi-fetch answers `{ data, error, response }`: `data` is the documented success body, `error`
// the union of the documented error bodies; a 204 has neither, so it is told by `response.status`.
import createClient from "openapi-fetch";
import type { components, paths } from "./invites";

type Schemas = components["schemas"];
export type PinOf = (phone: string) => Promise<string>;

export class ScenarioFailed extends Error {}

export function attending(invitee: Schemas["Invitee"]): boolean | null {
  // The v1 quirk: the owner's answer is the string "true".
  return invitee.is_attending === "true" ? true : invitee.is_attending;
}

async function logIn(baseUrl: string, phone: string, pinOf: PinOf): Promise<Schemas["UserWithToken"]> {
  const anonymous = createClient<paths>({ baseUrl });
  const asked = await anonymous.POST("/auth", { body: { phone_number: phone } });
  if (asked.response.status !== 204) {
    throw new ScenarioFailed(`request pin: ${asked.response.status} ${JSON.stringify(asked.error)}`);
  }
  const pin = await pinOf(phone);
  const verified = await anonymous.POST("/auth/verify_pin", { body: { phone_number: phone, pin } });
  if (verified.data === undefined) {
    throw new ScenarioFailed(`verify pin: ${JSON.stringify(verified.error)}`);
  }
  return verified.data;
}

export async function dinner(
  baseUrl: string,
  pinOf: PinOf,
  guestPhone: string,
): Promise<{ event: Schemas["EventDetail"]; limit: Schemas["MessageLimitReached"] | null }> {
  const owner = await logIn(baseUrl, "+14155550141", pinOf);
  const api = createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${owner.auth_token}` } });

  // Sent with an Idempotency-Key, so that a retry (the same key and body) cannot make a second event.
  const createOnce = {
    params: { header: { "Idempotency-Key": `create-${Date.now()}` } },
    body: {
      title: "Dinner at ours",
      event_date: "2031-05-01T19:00:00Z",
      total_spots: 5,
      invite_phone_numbers: [guestPhone],
      location: { latitude: 48.8566, longitude: 2.3522 },
    },
  };
  const created = await api.POST("/events", createOnce);
  if (created.data === undefined) {
    throw new ScenarioFailed(`create: ${JSON.stringify(created.error)}`);
  }
  const retried = await api.POST("/events", createOnce);
  if (retried.data?.id !== created.data.id) {
    throw new ScenarioFailed(`a retried create answered ${JSON.stringify(retried.data ?? retried.error)}`);
  }
  const path = { event_id: created.data.id };

  const poll = await api.POST("/events/{event_id}/polls", {
    params: { path },
    body: { suggested_date: "2031-05-02T19:00:00Z", suggested_venue: "The park" },
  });
  if (poll.error !== undefined) {
    // Field errors, the poll limit and malformed JSON have bodies of their own.
    const reason = "_error_message" in poll.error ? poll.error._error_message : JSON.stringify(poll.error);
    throw new ScenarioFailed(`poll: ${reason}`);
  }

  let limit: Schemas["MessageLimitReached"] | null = null;
  const posted = await api.POST("/events/{event_id}/messages", { params: { path }, body: { body: "Welcome!" } });
  if (posted.error !== undefined) {
    if ("error_message" in posted.error) {
      limit = posted.error; // the 409 of a full conversation: nothing stored
    } else {
      throw new ScenarioFailed(`message: ${JSON.stringify(posted.error)}`);
    }
  } else {
    if (posted.data.error) throw new ScenarioFailed("a stored message with error true");
    // The host takes it down: it stays in place, its body null and removed true.
    const message_id = posted.data.id;
    const taken = await api.DELETE("/events/{event_id}/messages/{message_id}", {
      params: { path: { ...path, message_id } },
    });
    if (taken.response.status !== 204) throw new ScenarioFailed(`remove message: ${taken.response.status}`);
    const shown = await api.GET("/events/{event_id}", { params: { path } });
    const kept = shown.data?.messages.find((message) => message.id === message_id);
    if (kept === undefined || kept.body !== null || kept.removed !== true) {
      throw new ScenarioFailed(`removed message: ${JSON.stringify(kept)}`);
    }
  }

  const suggested = await api.POST("/events/{event_id}/time_suggestions", {
    params: { path },
    body: { suggested_time: "2031-05-03T19:00:00Z" },
  });
  if (suggested.response.status !== 204) {
    throw new ScenarioFailed(`time suggestion: ${JSON.stringify(suggested.error)}`);
  }

  // The host announces to everyone who has not declined, then reads the announcements back.
  const announced = await api.POST("/events/{event_id}/announcements", {
    params: { path },
    body: { text: "Bring a jumper", to: ["going", "no_reply"] },
  });
  if (announced.data === undefined) {
    throw new ScenarioFailed(`announce: ${announced.response.status} ${JSON.stringify(announced.error)}`);
  }
  const announcements = await api.GET("/events/{event_id}/announcements", { params: { path } });
  if (announcements.data === undefined || announcements.data.results[0]?.id !== announced.data.id) {
    throw new ScenarioFailed(`announcements: ${JSON.stringify(announcements.error)}`);
  }

  // The host makes the join link; the event is invite-only (the default), so the code opens nothing (404).
  const link = await api.POST("/events/{event_id}/join_link", { params: { path } });
  if (link.data === undefined || link.data.join_mode !== "invite_only") {
    throw new ScenarioFailed(`join link: ${link.response.status}`);
  }
  const code = link.data.url.split("/j/")[1] ?? "";
  const joined = await api.POST("/events/join", { body: { code } });
  if (joined.response.status !== 404) throw new ScenarioFailed(`join: ${joined.response.status}`);
  const requests = await api.GET("/events/{event_id}/join_requests", { params: { path } });
  if (requests.data === undefined || requests.data.length !== 0) {
    throw new ScenarioFailed(`join requests: ${JSON.stringify(requests.error)}`);
  }

  const detail = await api.GET("/events/{event_id}", { params: { path } });
  if (detail.data === undefined) {
    throw new ScenarioFailed(`detail: ${detail.error.detail}`);
  }
  const answers = detail.data.invitees.map(attending);
  if (answers[0] !== true) throw new ScenarioFailed("the owner attends their own event");

  // The owner makes the guest a co-host, then ends the role: 204, no body.
  const guestId = detail.data.invitees[1]?.user_id;
  if (guestId === undefined) throw new ScenarioFailed("the guest's row is missing");
  const cohost = { event_id: created.data.id, user_id: guestId };
  const hosted = await api.PUT("/events/{event_id}/cohosts/{user_id}", { params: { path: cohost } });
  if (hosted.data === undefined || !hosted.data.cohost_ids.includes(guestId)) {
    throw new ScenarioFailed(`co-host: ${hosted.response.status} ${JSON.stringify(hosted.error)}`);
  }
  const ended = await api.DELETE("/events/{event_id}/cohosts/{user_id}", { params: { path: cohost } });
  if (ended.response.status !== 204) throw new ScenarioFailed(`end co-host: ${ended.response.status}`);
  // The host's tools: the guest list as a spreadsheet (a text body, parsed as text), the cover (multipart,
  // the image in "photo"), and a second edition a week later with the same guests invited again.
  const sheet = await api.GET("/events/{event_id}/guests.csv", { params: { path }, parseAs: "text" });
  if (sheet.data === undefined || !sheet.data.replace(/^\uFEFF/, "").startsWith('"name","phone","answer",')) {
    throw new ScenarioFailed(`guest list: ${sheet.response.status} ${JSON.stringify(sheet.error)}`);
  }
  const cover = await api.PUT("/events/{event_id}/cover", {
    params: { path },
    body: { photo: "" },
    bodySerializer: () => {
      const form = new FormData();
      form.append("photo", new Blob([coverJpeg()], { type: "image/jpeg" }), "cover.jpg");
      return form;
    },
  });
  if (cover.data === undefined || cover.data.cover_url === null) {
    throw new ScenarioFailed(`cover: ${cover.response.status} ${JSON.stringify(cover.error)}`);
  }
  const uncovered = await api.DELETE("/events/{event_id}/cover", { params: { path } });
  if (uncovered.data?.cover_url !== null) throw new ScenarioFailed(`cover removed: ${uncovered.response.status}`);
  const second = await api.POST("/events/{event_id}/clone", {
    params: { path },
    body: { event_date: "2031-05-08T19:00:00Z", invite_same_guests: true },
  });
  if (second.data === undefined || second.data.invitees.length !== created.data.invitees.length) {
    throw new ScenarioFailed(`clone: ${second.response.status} ${JSON.stringify(second.error)}`);
  }
  // A monthly book club of three dates: one event per date; the later ones move to the library; the owner's
  // live calendar; then the series is called off.
  const club = await api.POST("/events", {
    body: {
      title: "Book club",
      event_date: "2031-05-31T19:00:00Z",
      repeat: { freq: "monthly", interval: 1, count: 3 },
      invite_phone_numbers: [guestPhone],
    },
  });
  const series = club.data?.series;
  if (series === undefined || series.dates.length !== 3) {
    throw new ScenarioFailed(`series: ${club.response.status} ${JSON.stringify(club.error)}`);
  }
  const later = series.dates[1];
  if (later === undefined) throw new ScenarioFailed("the series has no second date");
  const moved = await api.PATCH("/events/{event_id}", {
    params: { path: { event_id: later.id } },
    body: { venue_name: "Library", scope: "following" },
  });
  if (moved.data === undefined || moved.data.series_id !== series.id) {
    throw new ScenarioFailed(`series edit: ${moved.response.status} ${JSON.stringify(moved.error)}`);
  }
  const feed = await api.POST("/users/me/calendar_feed", {});
  if (feed.data === undefined || !feed.data.webcal.startsWith("webcal://")) {
    throw new ScenarioFailed(`calendar feed: ${feed.response.status} ${JSON.stringify(feed.error)}`);
  }
  const calledOff = await api.DELETE("/series/{series_id}", { params: { path: { series_id: series.id } } });
  if (calledOff.response.status !== 204) throw new ScenarioFailed(`cancel series: ${calledOff.response.status}`);
  // The guest said yes by voice: the owner records it for them, and the row says a host replied.
  const guestRow = detail.data.invitees[1];
  if (guestRow === undefined) throw new ScenarioFailed("the guest is not among the invitees");
  const marked = await api.PUT("/events/{event_id}/invitees/{user_id}/reply", {
    params: { path: { event_id: created.data.id, user_id: guestRow.user_id } },
    body: { accept: true },
  });
  if (marked.data === undefined || !marked.data.replied_by_host) {
    throw new ScenarioFailed(`reply for the guest: ${marked.response.status} ${JSON.stringify(marked.error)}`);
  }

  const guest = await logIn(baseUrl, guestPhone, pinOf);
  await exportThenDelete(baseUrl, guest);
  return { event: detail.data, limit };
}

// The day itself, on an event that has started with its album on: the guest uploads a photo straight to S3 with
// the presigned form (its fields first, the file last), reads the album and shows their pass; the owner checks
// them in by the pass's code, then undoes it (the party's code in the query).
export async function theDay(
  baseUrl: string,
  owner: Schemas["UserWithToken"],
  guest: Schemas["UserWithToken"],
  eventId: number,
): Promise<Schemas["CheckedInParty"]> {
  const asOwner = createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${owner.auth_token}` } });
  const asGuest = createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${guest.auth_token}` } });
  const path = { event_id: eventId };
  const grant = await asGuest.POST("/events/{event_id}/photos", { params: { path }, body: { content_type: "image/jpeg" } });
  if (grant.data === undefined) throw new ScenarioFailed(`add a photo: ${JSON.stringify(grant.error)}`);
  const form = new FormData();
  for (const [name, value] of Object.entries(grant.data.upload_fields)) form.append(name, value);
  form.append("file", new Blob([coverJpeg()], { type: "image/jpeg" }), "me.jpg");
  const sent = await fetch(grant.data.upload_url, { method: "POST", body: form });
  if (!sent.ok) throw new ScenarioFailed(`the upload: ${sent.status}`);
  const album = await asGuest.GET("/events/{event_id}/photos", { params: { path } });
  if (album.data === undefined) throw new ScenarioFailed(`the album: ${JSON.stringify(album.error)}`);
  const pass = await asGuest.GET("/events/{event_id}/pass", { params: { path } });
  if (pass.data === undefined) throw new ScenarioFailed(`the pass: ${JSON.stringify(pass.error)}`);
  const code = pass.data.code;
  const checked = await asOwner.POST("/events/{event_id}/check_ins", { params: { path }, body: { code } });
  if (checked.data === undefined) throw new ScenarioFailed(`check-in: ${JSON.stringify(checked.error)}`);
  const undone = await asOwner.DELETE("/events/{event_id}/check_ins", { params: { path, query: { code } } });
  if (undone.data?.checked_in_at !== null) throw new ScenarioFailed(`undo: ${undone.response.status}`);
  return checked.data;
}

// "Still coming?": the going guest confirms from the app; the owner sees it counted.
export async function stillComing(
  baseUrl: string,
  owner: Schemas["UserWithToken"],
  guest: Schemas["UserWithToken"],
  eventId: number,
): Promise<Schemas["Attendance"]> {
  const asOwner = createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${owner.auth_token}` } });
  const asGuest = createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${guest.auth_token}` } });
  const path = { event_id: eventId };
  const answered = await asGuest.POST("/events/{event_id}/attendance", { params: { path }, body: { confirmed: true } });
  if (answered.data === undefined) throw new ScenarioFailed(`still coming: ${JSON.stringify(answered.error)}`);
  const seen = await asOwner.GET("/events/{event_id}", { params: { path } });
  if (seen.data?.confirmed_count !== 1) throw new ScenarioFailed(`confirmed: ${seen.response.status}`);
  return answered.data;
}

// An 8x8 JPEG, the cover the host sets.
const COVER_JPEG_BASE64 =
  "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDABALDA4MChAODQ4SERATGCgaGBYWGDEjJR0oOjM9PDkzODdASFxOQERXRTc4UG1RV19iZ2hnPk1xeXBkeFxlZ2P/" +
  "2wBDARESEhgVGC8aGi9jQjhCY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2P/wAARCAAIAAgDASIAAhEBAxEB/8QA" +
  "HwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAtRAAAgEDAwIEAwUFBAQAAAF9AQIDAAQRBRIhMUEGE1FhByJxFDKBkaEII0KxwRVS0fAkM2JyggkK" +
  "FhcYGRolJicoKSo0NTY3ODk6Q0RFRkdISUpTVFVWV1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKTlJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXG" +
  "x8jJytLT1NXW19jZ2uHi4+Tl5ufo6erx8vP09fb3+Pn6/8QAHwEAAwEBAQEBAQEBAQAAAAAAAAECAwQFBgcICQoL/8QAtREAAgECBAQDBAcFBAQAAQJ3AAEC" +
  "AxEEBSExBhJBUQdhcRMiMoEIFEKRobHBCSMzUvAVYnLRChYkNOEl8RcYGRomJygpKjU2Nzg5OkNERUZHSElKU1RVVldYWVpjZGVmZ2hpanN0dXZ3eHl6goOE" +
  "hYaHiImKkpOUlZaXmJmaoqOkpaanqKmqsrO0tba3uLm6wsPExcbHyMnK0tPU1dbX2Nna4uPk5ebn6Onq8vP09fb3+Pn6/9oADAMBAAIRAxEAPwDMooorqPBP/9k=";

function coverJpeg(): ArrayBuffer {
  const bytes = new Uint8Array(new ArrayBuffer(atob(COVER_JPEG_BASE64).length));
  bytes.set(Array.from(atob(COVER_JPEG_BASE64), (char) => char.charCodeAt(0)));
  return bytes.buffer;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

// A copy of the caller's data (202 pending, then GET until ready), then the account deleted: a 204
// told by its status, after which the same token is refused with a 401.
export async function exportThenDelete(
  baseUrl: string,
  user: Schemas["UserWithToken"],
): Promise<Schemas["ExportStatus"]> {
  const api = createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${user.auth_token}` } });
  const asked = await api.POST("/users/me/export");
  if (asked.data === undefined) {
    throw new ScenarioFailed(`export: ${asked.response.status} ${JSON.stringify(asked.error)}`);
  }
  let ready: Schemas["ExportStatus"] | null = null;
  for (let attempt = 0; attempt < 30 && ready === null; attempt += 1) {
    const status = await api.GET("/users/me/export");
    if (status.data === undefined) throw new ScenarioFailed(`export status: ${status.error.detail}`);
    if (status.data.status === "ready") ready = status.data;
    else await sleep(2000);
  }
  if (ready === null || ready.url === undefined) throw new ScenarioFailed("the export was never ready");

  const deleted = await api.DELETE("/users/me");
  if (deleted.response.status !== 204) {
    throw new ScenarioFailed(`delete: ${deleted.response.status} ${JSON.stringify(deleted.error)}`);
  }
  const after = await api.GET("/users/me");
  if (after.response.status !== 401) throw new ScenarioFailed(`a deleted account's token: ${after.response.status}`);
  return ready;
}

// A plan: three dates offered to a number, votes by option id, then the event made on the chosen date.
export async function pickADate(
  baseUrl: string,
  ownerToken: string,
  guestToken: string,
  guestPhone: string,
): Promise<Schemas["PlanDecided"]> {
  const asOwner = createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${ownerToken}` } });
  const asGuest = createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${guestToken}` } });
  const made = await asOwner.POST("/plans", {
    body: {
      title: "Game night",
      time_zone: "Europe/Paris",
      options: ["2031-06-05T18:00:00Z", "2031-06-06T18:00:00Z", { starts_at: "2031-06-07T18:00:00Z", label: "Late" }],
      invite_phone_numbers: [guestPhone],
    },
  });
  if (made.data === undefined) {
    throw new ScenarioFailed(`create plan: ${JSON.stringify(made.error)}`);
  }
  const plan_id = made.data.id;
  const voted = await asGuest.PUT("/plans/{plan_id}/votes", {
    params: { path: { plan_id } },
    body: { "1": "no", "2": "yes", "3": "if_need_be" },
  });
  if (voted.data?.my_votes?.["2"] !== "yes") {
    throw new ScenarioFailed(`vote: ${JSON.stringify(voted.data ?? voted.error)}`);
  }
  const seen = await asOwner.GET("/plans/{plan_id}", { params: { path: { plan_id } } });
  if (seen.data?.options[1]?.tally.yes !== 1) {
    throw new ScenarioFailed(`tallies: ${JSON.stringify(seen.data ?? seen.error)}`);
  }
  const decided = await asOwner.POST("/plans/{plan_id}/decide", {
    params: { path: { plan_id }, header: { "Idempotency-Key": `decide-${plan_id}` } },
    body: { option: 2 },
  });
  if (decided.data === undefined || decided.data.status !== "decided") {
    throw new ScenarioFailed(`decide: ${JSON.stringify(decided.error)}`);
  }
  return decided.data;
}
