"""The in-request design, as a baseline measured beside Bookly in the same `make bench`.

The prototype Bookly replaced ran the whole turn inside one HTTP request on a 40-thread
pool. This is the minimum of that design: one POST runs the same model call Bookly's worker
makes (the real `anthropic` SDK, Bookly's system prompt, reminder, tools and cache
breakpoints, against the same fake model) on a 40-thread pool and answers with the reply.
No database, no guardrails: everything it leaves out only flatters the baseline.

Server: `python -m bench.in_request --port P --model-url URL` (started by bench/run.py).
Client: `drive()`, a closed loop of customers that POST and wait for the answer.
"""

import argparse
import asyncio
import concurrent.futures
import os
import time
from dataclasses import dataclass, field

import aiohttp
from aiohttp import web

THREADS = 40


def _model_call_factory(model_url: str):
    """A function running one Bookly-shaped model call with the real SDK; built once per process."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bookly_project.settings")
    import anthropic
    import django

    django.setup()
    from django.conf import settings

    from chat import prompts
    from chat.llm import with_cache_breakpoints
    from chat.tools import tool_schemas

    client = anthropic.Anthropic(base_url=model_url, api_key="bench", max_retries=0, timeout=60)
    system = [*prompts.system_blocks(), {**prompts.reminder_block(reanchor=False), "bookly_uncached": True}]
    tools = tool_schemas()

    def call(content: str) -> str:
        request = with_cache_breakpoints(
            {
                "model": settings.ANTHROPIC_MODEL,
                "max_tokens": settings.MODEL_MAX_TOKENS,
                "system": system,
                "tools": tools,
                "messages": [{"role": "user", "content": content}],
            }
        )
        response = client.messages.create(**request)
        return "".join(block.text for block in response.content if block.type == "text")

    return call


def make_app(model_url: str) -> web.Application:
    call = _model_call_factory(model_url)
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=THREADS)

    async def turn(request: web.Request) -> web.Response:
        body = await request.json()
        reply = await asyncio.get_running_loop().run_in_executor(pool, call, str(body.get("content", "")))
        return web.json_response({"reply": reply})

    async def health(request: web.Request) -> web.Response:
        return web.json_response({"status": "ok"})

    app = web.Application()
    app.router.add_post("/turn", turn)
    app.router.add_get("/healthz", health)
    return app


@dataclass
class Result:
    latencies: list[float] = field(default_factory=list)  # seconds, turns that ended in the window
    errors: int = 0


async def drive(url: str, *, customers: int, duration: float, warmup: float, timeout: float) -> Result:
    """`customers` closed-loop clients POST a turn and wait for its answer, for warmup + duration seconds."""
    result = Result()
    start = time.monotonic()
    window_start, stop_at = start + warmup, start + warmup + duration
    connector = aiohttp.TCPConnector(limit=customers + 10)
    async with aiohttp.ClientSession(connector=connector, timeout=aiohttp.ClientTimeout(total=timeout)) as session:

        async def customer(index: int) -> None:
            await asyncio.sleep(min(2.0, warmup) * index / customers)
            while time.monotonic() < stop_at:
                sent = time.monotonic()
                try:
                    async with session.post(f"{url}/turn", json={"content": "How long does shipping take?"}) as answer:
                        await answer.read()
                        ok = answer.status == 200
                except (aiohttp.ClientError, TimeoutError):
                    ok = False
                ended = time.monotonic()
                if window_start <= ended < stop_at:
                    if ok:
                        result.latencies.append(ended - sent)
                    else:
                        result.errors += 1
                if not ok:
                    await asyncio.sleep(0.5)

        await asyncio.gather(*(customer(index) for index in range(customers)))
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--model-url", required=True)
    args = parser.parse_args()
    web.run_app(make_app(args.model_url), host="127.0.0.1", port=args.port, access_log=None, print=None, backlog=4096)


if __name__ == "__main__":
    main()
