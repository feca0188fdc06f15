"""Hostile input through the ASGI stack: every case is a 4xx in the one error shape, never a 500.

Each row is one request a careless or malicious client can send. The test asserts the status,
the error code, the shape, that nothing of what was sent is echoed back, and that nothing
was stored. The cases come from attacks that used to answer 500 (or 503) and their cousins.
"""

import json
import uuid
from dataclasses import dataclass, field

import pytest
from asgiref.sync import async_to_sync
from django.test import AsyncClient

from chat.models import Message, Run, Thread

pytestmark = pytest.mark.django_db

DEEP_JSON = ("[" * 1000 + "]" * 1000).encode()
DEEPISH_JSON = ('{"content": ' + "[" * 40 + '"hi"' + "]" * 40 + "}").encode()
MULTIPART = (
    b'--xyz\r\nContent-Disposition: form-data; name="content"\r\n\r\nhello\r\n--xyz--\r\n',
    "multipart/form-data; boundary=xyz",
)
BROKEN_MULTIPART = (b"--xyz\r\nnot a part at all", "multipart/form-data; boundary=xyz")
JSON_UTF16 = "application/json; charset=utf-16"
MANY_FIELDS = "&".join(f"f{i}=1" for i in range(1001))


@dataclass
class Case:
    name: str
    method: str
    path: str  # {thread}, {run}, {message} are filled in
    status: int
    code: str
    body: bytes = b""
    content_type: str = "application/json"
    headers: dict = field(default_factory=dict)
    csrf: bool = True


def json_body(text: str) -> bytes:
    return text.encode("utf-8", "surrogatepass")


MESSAGES = "/api/v1/threads/{thread}/messages"
ACTION = "/api/v1/runs/{run}/actions/" + str(uuid.uuid4())

CASES = [
    # Bodies that are not JSON, or not readable.
    Case("multipart message", "POST", MESSAGES, 415, "unsupported_media_type", *MULTIPART),
    Case("broken multipart message", "POST", MESSAGES, 415, "unsupported_media_type", *BROKEN_MULTIPART),
    Case("multipart thread", "POST", "/api/v1/threads", 415, "unsupported_media_type", *MULTIPART),
    Case(
        "form-encoded message",
        "POST",
        MESSAGES,
        415,
        "unsupported_media_type",
        b"content=hello",
        "application/x-www-form-urlencoded",
    ),
    Case(
        "1,001 form fields",
        "POST",
        MESSAGES,
        415,
        "unsupported_media_type",
        MANY_FIELDS.encode(),
        "application/x-www-form-urlencoded",
    ),
    Case("text/plain JSON", "POST", MESSAGES, 415, "unsupported_media_type", b'{"content": "hi"}', "text/plain"),
    Case("no content type", "POST", MESSAGES, 415, "unsupported_media_type", b'{"content": "hi"}', ""),
    Case("wrong charset", "POST", MESSAGES, 400, "invalid_json", b'{"content": "hi"}', JSON_UTF16),
    Case("JSON nested 1,000 deep", "POST", MESSAGES, 400, "invalid_json", DEEP_JSON),
    Case("JSON nested 40 deep", "POST", MESSAGES, 400, "invalid_json", DEEPISH_JSON),
    Case("JSON nested 1,000 deep in an action", "POST", ACTION, 400, "invalid_json", DEEP_JSON),
    Case("invalid UTF-8", "POST", MESSAGES, 400, "invalid_json", b'{"content": "\xff\xfe\xfd"}'),
    Case("raw NUL byte in a string", "POST", MESSAGES, 400, "invalid_json", b'{"content": "a\x00b"}'),
    Case("NUL escape", "POST", MESSAGES, 400, "invalid_input", b'{"content": "a\\u0000b"}'),
    Case("lone surrogate in content", "POST", MESSAGES, 400, "invalid_input", json_body('{"content": "\\ud800"}')),
    Case("lone surrogate in decision", "POST", ACTION, 400, "invalid_input", json_body('{"decision": "\\udfff"}')),
    Case("raw surrogate bytes", "POST", MESSAGES, 400, "invalid_json", b'{"content": "\xed\xa0\x80"}'),
    Case("NaN", "POST", MESSAGES, 400, "invalid_json", b'{"content": NaN}'),
    Case("5,000-digit number", "POST", MESSAGES, 400, "invalid_json", b'{"content": ' + b"9" * 5000 + b"}"),
    Case("number as content", "POST", MESSAGES, 400, "invalid_input", b'{"content": 1e999}'),
    Case("object as content", "POST", MESSAGES, 400, "invalid_input", b'{"content": {"a": 1}}'),
    Case("list body", "POST", MESSAGES, 400, "invalid_input", b"[]"),
    Case("null body", "POST", MESSAGES, 400, "invalid_input", b"null"),
    Case("empty object", "POST", MESSAGES, 400, "invalid_input", b"{}"),
    Case("truncated JSON", "POST", MESSAGES, 400, "invalid_json", b'{"content": "hi'),
    Case("blank content", "POST", MESSAGES, 400, "invalid_input", b'{"content": "   "}'),
    Case("content too long", "POST", MESSAGES, 400, "invalid_input", b'{"content": "' + b"a" * 4001 + b'"}'),
    Case("body over 64 KiB", "POST", MESSAGES, 413, "payload_too_large", b'{"content": "' + b"a" * 70_000 + b'"}'),
    Case("unknown decision", "POST", ACTION, 400, "invalid_input", b'{"decision": "yes please"}'),
    # Headers.
    Case(
        "Idempotency-Key too long",
        "POST",
        MESSAGES,
        400,
        "invalid_idempotency_key",
        b'{"content": "hi"}',
        headers={"Idempotency-Key": "k" * 256},
    ),
    Case(
        "Idempotency-Key with a control character",
        "POST",
        MESSAGES,
        400,
        "invalid_idempotency_key",
        b'{"content": "hi"}',
        headers={"Idempotency-Key": "a\x01b"},
    ),
    Case(
        "Content-Length not a number",
        "POST",
        MESSAGES,
        400,
        "invalid_content_length",
        b'{"content": "hi"}',
        headers={"Content-Length": "ten"},
    ),
    Case("40 KB of headers", "GET", "/api/v1/threads", 431, "headers_too_large", headers={"X-Big": "a" * 40_000}),
    Case("a 40 KB cookie", "POST", MESSAGES, 431, "headers_too_large", b"{}", headers={"Cookie": "c=" + "a" * 40_000}),
    Case(
        "a 40 KB Idempotency-Key",
        "POST",
        MESSAGES,
        431,
        "headers_too_large",
        b'{"content": "hi"}',
        headers={"Idempotency-Key": "k" * 40_000},
    ),
    Case("no CSRF token", "POST", MESSAGES, 403, "csrf_failed", b'{"content": "hi"}', csrf=False),
    Case("a foreign Host", "GET", "/api/v1/threads", 400, "bad_request", headers={"Host": "evil.example"}),
    # Query strings.
    *[
        Case(f"limit={value}", "GET", f"/api/v1/threads?limit={value}", 400, "invalid_input")
        for value in ("%C2%B9", "%E2%91%A0", "9" * 5000, "-1", "1.5", "0", "101", "", "%00", "1e2")
    ],
    *[
        Case(f"offset={value}", "GET", f"/api/v1/threads?offset={value}", 400, "invalid_input")
        for value in ("9223372036854775808", "1000001", "-1", "%C2%B2", "0x10")
    ],
    Case("messages limit=①", "GET", MESSAGES + "?limit=%E2%91%A0", 400, "invalid_input"),
    Case("after is not a UUID", "GET", MESSAGES + "?after=nope", 400, "invalid_input"),
    Case("after is NUL", "GET", MESSAGES + "?after=%00", 400, "invalid_input"),
    Case("after is someone else's id", "GET", MESSAGES + f"?after={uuid.uuid4()}", 404, "not_found"),
    *[
        Case(f"wait={value}", "GET", f"/api/v1/runs/{{run}}?wait={value}", 400, "invalid_input")
        for value in ("abc", "nan", "inf", "1e309", "-1", "31", "%C2%B9")
    ],
    Case("1,001 query fields on a list", "GET", "/api/v1/threads?" + MANY_FIELDS, 400, "too_many_fields"),
    Case("1,001 query fields on messages", "GET", MESSAGES + "?" + MANY_FIELDS, 400, "too_many_fields"),
    Case("1,001 query fields on the long-poll", "GET", "/api/v1/runs/{run}?" + MANY_FIELDS, 400, "too_many_fields"),
    Case(
        "1,001 query fields on a POST",
        "POST",
        MESSAGES + "?" + MANY_FIELDS,
        400,
        "too_many_fields",
        b'{"content": "hi"}',
    ),
    # Paths and methods.
    Case("thread id not a UUID", "GET", "/api/v1/threads/not-a-uuid", 404, "not_found"),
    Case("run id not a UUID", "GET", "/api/v1/runs/123", 404, "not_found"),
    Case("NUL in the path", "GET", "/api/v1/threads/%00", 404, "not_found"),
    Case("unknown thread", "GET", f"/api/v1/threads/{uuid.uuid4()}", 404, "not_found"),
    Case("cancel an unknown run", "POST", f"/api/v1/runs/{uuid.uuid4()}/cancel", 404, "not_found"),
    Case("PUT a message", "PUT", MESSAGES, 405, "method_not_allowed", b'{"content": "hi"}'),
    Case("DELETE a thread", "DELETE", "/api/v1/threads/{thread}", 405, "method_not_allowed"),
    Case("POST to the long-poll", "POST", "/api/v1/runs/{run}", 405, "method_not_allowed", b"{}"),
]

ECHO_MARKERS = ("\ud800", "\udfff", "evil.example", "yes please", "text/plain", "xyz", "nope", "k" * 256)


class Session:
    """A customer driving the ASGI handler (as uvicorn does) with raw bodies and headers."""

    def __init__(self) -> None:
        self.client = AsyncClient(enforce_csrf_checks=True)
        self.csrf = async_to_sync(self.client.get)("/api/v1/session").json()["csrf_token"]

    def send(self, method: str, path: str, body: bytes = b"", content_type: str = "application/json", **headers):
        async def request():
            return await self.client.generic(method, path, data=body, content_type=content_type, headers=headers)

        return async_to_sync(request)()


@pytest.fixture
def customer() -> tuple[Session, dict]:
    session = Session()
    thread = session.send("POST", "/api/v1/threads", b"{}", **{"X-CSRFToken": session.csrf}).json()["id"]
    posted = session.send(
        "POST", f"/api/v1/threads/{thread}/messages", b'{"content": "hello"}', **{"X-CSRFToken": session.csrf}
    )
    assert posted.status_code == 202, posted.content
    ids = {"thread": thread, "run": posted.json()["run"]["id"], "message": posted.json()["message"]["id"]}
    return session, ids


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_hostile_input_gets_a_client_error_in_the_error_shape(customer, case):
    session, ids = customer
    before = (Message.objects.count(), Thread.objects.count(), Run.objects.count())
    headers = {**case.headers, **({"X-CSRFToken": session.csrf} if case.csrf else {})}

    response = session.send(case.method, case.path.format(**ids), case.body, case.content_type, **headers)

    assert response.status_code == case.status, response.content[:300]
    text = response.content.decode("utf-8")  # strict: the answer is always valid UTF-8
    body = json.loads(text)
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message", "details"}, body
    assert body["error"]["code"] == case.code, body
    assert body["error"]["message"]
    assert not any(marker in text for marker in ECHO_MARKERS), text
    assert (Message.objects.count(), Thread.objects.count(), Run.objects.count()) == before


def test_the_corpus_covers_each_kind_of_hostile_input():
    """The issue's list, by kind: a guard against the table silently losing a row."""
    names = " ".join(case.name for case in CASES)
    for kind in (
        "multipart",
        "form-encoded",
        "1,000 deep",
        "limit=¹",
        "limit=①",
        "offset=922",
        "1,001 query",
        "surrogate",
        "invalid UTF-8",
        "NUL",
        "text/plain",
        "64 KiB",
        "not a UUID",
    ):
        assert kind in names.replace("%C2%B9", "¹").replace("%E2%91%A0", "①"), kind
    assert len(CASES) >= 70
