"""The questions a host asks guests who accept, and the answers a guest gives: checked here, once.

A question is ``{"id", "text", "kind": "text" | "choice", "choices", "required"}``. At most
``MAX_QUESTIONS`` of them, every string bounded, so a request holding them stays small. Ids are the
service's: an id sent back on an edit that names a question the event holds keeps it (and the answers
given to it); any other question gets a new id, never one the event used before. Answers to a question
that was removed stay stored but are no longer shown or checked (the question is gone, so is its answer).
Errors are nested as DRF's nested serializers give them: ``{"questions": [{}, {"text": [...]}]}``.
"""

from __future__ import annotations

from chalicelib.validation import (
    BLANK,
    NOT_BOOLEAN,
    NOT_LIST,
    NOT_STRING,
    REQUIRED,
    comparable_text,
    max_length_message,
    text_error,
)

MAX_QUESTIONS = 5
MAX_TEXT = 140  # a question
MAX_CHOICE = 60  # one choice
MIN_CHOICES, MAX_CHOICES = 2, 6
MAX_ANSWER = 280  # a written answer
MAX_ID = 20
KINDS = ("text", "choice")
NOT_A_CHOICE = '"{value}" is not a valid choice.'
NOT_AN_OBJECT = "Invalid data. Expected a dictionary, but got {kind}."


def _string(value: object, most: int) -> tuple[str | None, str | None]:
    """The trimmed string, or the error a person reads."""
    if not isinstance(value, str):
        return None, NOT_STRING
    problem = text_error(value)
    if problem:
        return None, problem
    value = value.strip()
    if not value:
        return None, BLANK
    if len(value) > most:
        return None, max_length_message(most)
    return value, None


def _question(raw: object) -> tuple[dict | None, dict]:
    if not isinstance(raw, dict):
        return None, {"non_field_errors": [NOT_AN_OBJECT.format(kind=type(raw).__name__)]}
    errors: dict = {}
    text, problem = _string(raw.get("text"), MAX_TEXT) if "text" in raw else (None, REQUIRED)
    if problem:
        errors["text"] = [problem]
    kind = raw.get("kind", "text")
    if kind not in KINDS:
        errors["kind"] = [NOT_A_CHOICE.format(value=kind)]
    required = raw.get("required", False)
    if not isinstance(required, bool):
        errors["required"] = [NOT_BOOLEAN]
    choices: list[str] = []
    sent = raw.get("choices")
    if kind == "choice":
        if not isinstance(sent, list):
            errors["choices"] = [REQUIRED if sent is None else NOT_LIST.format(kind=type(sent).__name__)]
        elif not MIN_CHOICES <= len(sent) <= MAX_CHOICES:
            errors["choices"] = [f"Give between {MIN_CHOICES} and {MAX_CHOICES} choices."]
        else:
            item_errors, seen = {}, set()
            for index, item in enumerate(sent):
                choice, problem = _string(item, MAX_CHOICE)
                if problem:
                    item_errors[str(index)] = [problem]
                elif comparable_text(choice) in seen:  # as people read them: "Yes" and " yes" are one choice
                    item_errors[str(index)] = ["Each choice may be given once."]
                else:
                    seen.add(comparable_text(choice))
                    choices.append(choice)
            if item_errors:
                errors["choices"] = item_errors
    elif sent not in (None, []):
        errors["choices"] = ["Only a choice question has choices."]
    asked_id = raw.get("id")
    if asked_id is not None and not (isinstance(asked_id, str) and 0 < len(asked_id) <= MAX_ID):
        errors["id"] = [NOT_STRING if not isinstance(asked_id, str) else max_length_message(MAX_ID)]
    if errors:
        return None, errors
    question = {"id": asked_id, "text": text, "kind": kind, "required": required}
    if kind == "choice":
        question["choices"] = choices
    return question, {}


def parse(raw: object) -> tuple[list[dict] | None, list | dict | None]:
    """The questions sent (ids as sent, not yet assigned), or the errors of the field."""
    if raw is None:
        return [], None  # null: no questions
    if not isinstance(raw, list):
        return None, [NOT_LIST.format(kind=type(raw).__name__)]
    if len(raw) > MAX_QUESTIONS:
        return None, [f"Ensure this field has no more than {MAX_QUESTIONS} elements."]
    parsed, errors = [], []
    for item in raw:
        question, problems = _question(item)
        parsed.append(question)
        errors.append(problems)
    if any(errors):
        return None, errors
    return parsed, None


def _number(question_id: str) -> int:
    digits = question_id[1:]
    return int(digits) if question_id.startswith("q") and digits.isdigit() else 0


def assign_ids(sent: list[dict], held: list[dict], last_id: int) -> tuple[list[dict], int]:
    """The questions with the service's ids, and the last id number used. An id the event holds, sent once,
    keeps its question; every other question gets ``q<n>`` past every number used before."""
    held_ids = {question["id"] for question in held}
    kept: set[str] = set()
    assigned = []
    for question in sent:
        question = dict(question)
        if question["id"] in held_ids and question["id"] not in kept:
            kept.add(question["id"])
        else:
            last_id += 1
            question["id"] = f"q{last_id}"
        assigned.append(question)
    return assigned, last_id


def last_id_of(questions: list[dict]) -> int:
    return max((_number(question["id"]) for question in questions), default=0)


def checked_answers(questions: list[dict], sent: object, held: dict | None) -> dict:
    """The answers to keep for an accept: those sent (a string per question id), checked against the
    questions, over the ones held; a required question without an answer, an answer too long, not one
    of the choices or to no question: {"<id>": [...]} errors (raised by the caller under ``answers``)."""
    answers = {key: value for key, value in (held or {}).items() if any(q["id"] == key for q in questions)}
    errors: dict[str, list[str]] = {}
    if sent is not None and not isinstance(sent, dict):
        raise AnswersInvalid({"non_field_errors": [NOT_AN_OBJECT.format(kind=type(sent).__name__)]})
    by_id = {question["id"]: question for question in questions}
    for key, value in (sent or {}).items():
        question = by_id.get(key)
        if question is None:
            errors[key] = ["No such question."]
            continue
        if value is None or value == "":
            answers.pop(key, None)
            continue
        answer, problem = _string(value, MAX_ANSWER)
        if problem:
            errors[key] = [problem]
        elif question["kind"] == "choice" and answer not in question["choices"]:
            errors[key] = [NOT_A_CHOICE.format(value=answer)]
        else:
            answers[key] = answer
    for question in questions:
        if question["required"] and question["id"] not in answers and question["id"] not in errors:
            errors[question["id"]] = [REQUIRED]
    if errors:
        raise AnswersInvalid(errors)
    return answers


def shown_answers(questions: list[dict], held: dict | None) -> dict:
    """The answers to the event's current questions (answers to removed questions are not shown)."""
    ids = {question["id"] for question in questions}
    return {key: value for key, value in (held or {}).items() if key in ids}


class AnswersInvalid(Exception):
    def __init__(self, errors: dict):
        super().__init__("answers")
        self.errors = errors
