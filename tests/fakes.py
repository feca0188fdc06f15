"""Test doubles for what lives outside the machine: a fake Anthropic Messages API server.

The real `anthropic` SDK talks real HTTP to it. Replies are scripted (a queue) or
computed by a responder function; every request body and header is recorded.
"""

import itertools
import json
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

_ids = itertools.count(1)


@dataclass
class FakeReply:
    status: int = 200
    body: dict = field(default_factory=dict)
    headers: dict = field(default_factory=dict)
    delay: float = 0.0


def message_body(
    content: list[dict], *, stop_reason: str = "end_turn", usage: dict | None = None, model: str = "claude-sonnet-4-6"
) -> dict:
    return {
        "id": f"msg_fake_{next(_ids)}",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": content,
        "stop_reason": stop_reason,
        "stop_sequence": None,
        "usage": usage
        or {"input_tokens": 100, "output_tokens": 20, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0},
    }


def text_reply(text: str, **kwargs) -> FakeReply:
    return FakeReply(body=message_body([{"type": "text", "text": text}], **kwargs))


def tool_use_reply(
    name: str, tool_input: dict, *, text: str | None = None, tool_use_id: str | None = None
) -> FakeReply:
    content = [{"type": "text", "text": text}] if text else []
    content.append(
        {"type": "tool_use", "id": tool_use_id or f"toolu_fake_{next(_ids)}", "name": name, "input": tool_input}
    )
    return FakeReply(body=message_body(content, stop_reason="tool_use"))


def multi_tool_use_reply(calls: list[tuple[str, dict]]) -> FakeReply:
    content = [
        {"type": "tool_use", "id": f"toolu_fake_{next(_ids)}", "name": name, "input": tool_input}
        for name, tool_input in calls
    ]
    return FakeReply(body=message_body(content, stop_reason="tool_use"))


_ERROR_TYPES = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    429: "rate_limit_error",
    500: "api_error",
    529: "overloaded_error",
}


def error_reply(status: int, *, retry_after: float | None = None, message: str = "fake error") -> FakeReply:
    headers = {"retry-after": str(retry_after)} if retry_after is not None else {}
    return FakeReply(
        status=status,
        body={"type": "error", "error": {"type": _ERROR_TYPES.get(status, "api_error"), "message": message}},
        headers=headers,
    )


def hang(seconds: float) -> FakeReply:
    """A reply that arrives only after `seconds` (longer than the client's timeout)."""
    return FakeReply(body=message_body([{"type": "text", "text": "too late"}]), delay=seconds)


@dataclass
class ReceivedRequest:
    path: str
    headers: dict
    body: dict
    at: float


class FakeAnthropicServer:
    """A local Messages API. Use `script(...)` for fixed replies or `responder` for computed ones."""

    def __init__(self) -> None:
        self.requests: list[ReceivedRequest] = []
        self._script: deque[FakeReply] = deque()
        self.responder: Callable[[dict], FakeReply] | None = None
        self._lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            disable_nagle_algorithm = True  # else every reply waits ~40 ms on delayed ACKs

            def log_message(self, *args) -> None:
                pass

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                reply = server._next(self.path, dict(self.headers), body)
                if reply.delay:
                    time.sleep(reply.delay)
                payload = json.dumps(reply.body).encode()
                try:
                    self.send_response(reply.status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(payload)))
                    self.send_header("request-id", f"req_fake_{next(_ids)}")
                    for name, value in reply.headers.items():
                        self.send_header(name, value)
                    self.end_headers()
                    self.wfile.write(payload)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (timeout test)

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self._httpd.server_address[1]}"
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)

    def start(self) -> "FakeAnthropicServer":
        self._thread.start()
        return self

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    def script(self, *replies: FakeReply) -> None:
        with self._lock:
            self._script.extend(replies)

    def reset(self) -> None:
        with self._lock:
            self._script.clear()
            self.requests.clear()
            self.responder = None

    def _next(self, path: str, headers: dict, body: dict) -> FakeReply:
        with self._lock:
            self.requests.append(ReceivedRequest(path=path, headers=headers, body=body, at=time.monotonic()))
            if self._script:
                return self._script.popleft()
        if self.responder is not None:
            return self.responder(body)
        return error_reply(500, message="the fake server has no scripted reply left")

    @property
    def message_requests(self) -> list[dict]:
        return [request.body for request in self.requests if request.path.endswith("/v1/messages")]


def echo_responder(body: dict) -> FakeReply:
    """Replies with what it saw: the last user text and how many turns the history had."""
    last = body["messages"][-1]["content"]
    text = last if isinstance(last, str) else " ".join(b.get("text", "") for b in last if b.get("type") == "text")
    return text_reply(f"echo[{len(body['messages'])}]: {text}")


class ScriptedModel:
    """An in-process model for agent tests: pops scripted responses, records every request.

    Responses are Messages API response dicts, or FakeReply objects (their body is used), or an
    exception instance, which is raised instead of answering (a crash at that moment). Patch it in
    with `monkeypatch.setattr("chat.agent.loop.get_model", lambda: model)`.
    """

    def __init__(self, *responses: "dict | FakeReply | BaseException", name: str = "scripted-model") -> None:
        self.name = name
        self.requests: list[dict] = []
        self._responses: deque = deque()
        self._lock = threading.Lock()
        self.script(*responses)

    def script(self, *responses: "dict | FakeReply | BaseException") -> None:
        with self._lock:
            self._responses.extend(responses)

    @property
    def remaining(self) -> int:
        return len(self._responses)

    def complete(self, request: dict, *, deadline: float | None = None) -> dict:
        with self._lock:
            # A copy: the agent keeps appending to its `messages` list after the call.
            self.requests.append(json.loads(json.dumps(request)))
            if not self._responses:
                raise AssertionError("the scripted model has no response left")
            response = self._responses.popleft()
        if isinstance(response, BaseException):
            raise response
        body = response.body if isinstance(response, FakeReply) else response
        return json.loads(json.dumps(body))
