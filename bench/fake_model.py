"""A fake Anthropic Messages API for load tests: aiohttp, one event loop, latency is a parameter.

Started by bench/run.py as its own process; the real `anthropic` SDK in the worker talks
real HTTP to it (ANTHROPIC_BASE_URL). Every answer uses the wire format of
tests/fakes.py `message_body`. What it answers is a *script*:

- `single`: one model call per turn, a plain text reply;
- `tools`:  three calls per turn: lookup_policy(shipping) → lookup_policy(returns_overview) → text;
- `orders`: three calls per turn: lookup_order → check_return_eligibility → text (needs the
  order tools and a demo order; pass --order-id / --order-email).

Which step a request is at is decided from the request alone (the number of tool_result
blocks after the customer's latest text), so the server holds no per-conversation state.

Usage is honest: bench/prompt_cache.py emulates the API's prompt caching (breakpoints, the
minimum cacheable length, the 5-minute lifetime) and counts tokens approximately (chars / 4);
/stats sums it for a thread's first model call and for the later ones.

Control endpoints (loopback only): GET /stats, POST /reset, POST /control {"latency", "script"}.
"""

import argparse
import asyncio
import itertools
import json
import time
from dataclasses import dataclass, field

from aiohttp import web

from bench.prompt_cache import PromptCache, TooManyBreakpoints, approx_tokens
from tests.fakes import message_body as fake_message_body

SCRIPTS = ("single", "tools", "orders")
REPLY_TEXT = "Thanks for getting in touch. Is there anything else about your order or our policies I can help with?"
_ids = itertools.count(1)


def message_body(content: list[dict], *, stop_reason: str, model: str) -> dict:
    """The Messages API response shape (the tests' fake server's); `usage` is filled in by the server."""
    return fake_message_body(content, stop_reason=stop_reason, model=model)


TOKEN_FIELDS = ("input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens", "output_tokens")


def call_kind(body: dict) -> str:
    """'first' for a thread's first model call (one message: the customer's first), else 'later'."""
    return "first" if len(body.get("messages") or []) <= 1 else "later"


def tool_results_this_turn(messages: list[dict]) -> int:
    """How many tool_result blocks follow the customer's latest text block (this turn's progress)."""
    count = 0
    for message in reversed(messages):
        if message.get("role") != "user":
            continue
        content = message.get("content")
        if isinstance(content, str):
            return count
        for block in reversed(content or []):
            if block.get("type") == "text":
                return count
            if block.get("type") == "tool_result":
                count += 1
    return count


@dataclass
class Config:
    latency: float = 2.0
    script: str = "single"
    order_id: str = "BK-10042"
    order_email: str = "alice@example.com"


@dataclass
class Stats:
    requests: int = 0
    by_step: dict = field(default_factory=dict)
    in_flight: int = 0
    max_in_flight: int = 0
    request_bytes: int = 0
    bad_requests: int = 0
    started: float = field(default_factory=time.time)
    # Usage summed over the answers, for a thread's first model call and for the later ones.
    tokens: dict = field(
        default_factory=lambda: {kind: dict.fromkeys(("calls", *TOKEN_FIELDS), 0) for kind in ("first", "later")}
    )


def _tool_use(name: str, tool_input: dict) -> dict:
    return {"type": "tool_use", "id": f"toolu_bench_{next(_ids)}", "name": name, "input": tool_input}


def reply_for(config: Config, body: dict) -> dict:
    """The scripted answer to one request."""
    model = body.get("model") or "claude-sonnet-4-6"
    step = tool_results_this_turn(body.get("messages") or [])
    if config.script == "tools" and step < 2:
        topic = ("shipping", "returns_overview")[step]
        return message_body([_tool_use("lookup_policy", {"topic": topic})], stop_reason="tool_use", model=model)
    if config.script == "orders" and step < 2:
        name = ("lookup_order", "check_return_eligibility")[step]
        tool_input = {"order_id": config.order_id, "customer_email": config.order_email}
        return message_body([_tool_use(name, tool_input)], stop_reason="tool_use", model=model)
    return message_body([{"type": "text", "text": REPLY_TEXT}], stop_reason="end_turn", model=model)


def make_app(config: Config) -> web.Application:
    stats = Stats()
    cache = PromptCache()

    async def messages(request: web.Request) -> web.Response:
        raw = await request.read()
        stats.requests += 1
        stats.request_bytes += len(raw)
        stats.in_flight += 1
        stats.max_in_flight = max(stats.max_in_flight, stats.in_flight)
        try:
            try:
                body = json.loads(raw)
            except ValueError:
                stats.bad_requests += 1
                return web.json_response(
                    {"type": "error", "error": {"type": "invalid_request_error", "message": "body is not JSON"}},
                    status=400,
                )
            try:
                usage = cache.usage(body).as_dict()
            except TooManyBreakpoints as error:
                stats.bad_requests += 1
                return web.json_response(
                    {"type": "error", "error": {"type": "invalid_request_error", "message": str(error)}}, status=400
                )
            answer = reply_for(config, body)
            usage["output_tokens"] = approx_tokens(answer["content"])
            answer["usage"] = usage
            totals = stats.tokens[call_kind(body)]
            totals["calls"] += 1
            for name in TOKEN_FIELDS:
                totals[name] += usage[name]
            step = str(tool_results_this_turn(body.get("messages") or []))
            stats.by_step[step] = stats.by_step.get(step, 0) + 1
            if config.latency > 0:
                await asyncio.sleep(config.latency)
            return web.json_response(answer, headers={"request-id": f"req_bench_{next(_ids)}"})
        finally:
            stats.in_flight -= 1

    async def get_stats(request: web.Request) -> web.Response:
        return web.json_response({**vars(stats), "latency": config.latency, "script": config.script})

    async def reset(request: web.Request) -> web.Response:
        stats.requests = stats.request_bytes = stats.bad_requests = stats.max_in_flight = 0
        stats.by_step = {}
        stats.tokens = Stats().tokens
        stats.started = time.time()
        return web.json_response({"ok": True})

    async def control(request: web.Request) -> web.Response:
        changes = await request.json()
        if "latency" in changes:
            config.latency = max(0.0, float(changes["latency"]))
        if changes.get("script") in SCRIPTS:
            config.script = changes["script"]
        return web.json_response(vars(config))

    app = web.Application(client_max_size=8 * 1024 * 1024)
    app.router.add_post("/v1/messages", messages)
    app.router.add_get("/stats", get_stats)
    app.router.add_post("/reset", reset)
    app.router.add_post("/control", control)
    return app


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--latency", type=float, default=2.0, help="seconds each answer takes")
    parser.add_argument("--script", choices=SCRIPTS, default="single")
    parser.add_argument("--order-id", default="BK-10042")
    parser.add_argument("--order-email", default="alice@example.com")
    args = parser.parse_args()
    config = Config(latency=args.latency, script=args.script, order_id=args.order_id, order_email=args.order_email)
    web.run_app(
        make_app(config),
        host="127.0.0.1",
        port=args.port,
        access_log=None,
        print=None,
        backlog=4096,
        handle_signals=True,
    )


if __name__ == "__main__":
    main()
