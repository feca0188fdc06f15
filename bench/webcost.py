"""Web CPU per request, by endpoint: one uvicorn worker, no Celery, concurrent aiohttp clients.

    .venv/bin/python -m bench.webcost [--clients 20] [--requests 1500] [--kinds healthz,post,poll]

It measures CPU time of the uvicorn process (psutil user + system) over a batch of one
kind of request, divided by the requests answered. CPU time, unlike throughput, barely
moves when other processes share the machine, so it compares request-path changes A/B.

Kinds: `healthz` (the middleware floor: a view that touches nothing), `session`
(`GET /api/v1/session`), `post` (`POST …/messages`; the runs stay queued, nothing
consumes them, the broker db is flushed at the end), `poll` (`GET /api/v1/runs/{id}`
of a finished run, no wait: the long-poll's read path).
"""

import argparse
import asyncio
import json
import os
import sys
import time

import aiohttp
import psutil
import redis

from bench.measure import Database, collapsed_summary, database_ensure, py_spy_start
from bench.stack import ROOT, Stack, StackConfig

KINDS = ("healthz", "session", "post", "poll")


async def _client(base: str) -> tuple[aiohttp.ClientSession, str]:
    session = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
    async with session.get(f"{base}/api/v1/session") as response:
        csrf = (await response.json())["csrf_token"]
    return session, csrf


async def _new_thread(session: aiohttp.ClientSession, base: str, csrf: str) -> str:
    async with session.post(f"{base}/api/v1/threads", json={}, headers={"X-CSRFToken": csrf}) as response:
        return (await response.json())["id"]


async def _batch(
    kind: str, base: str, clients: list, per_client: int, run_ids: dict[int, list[str]]
) -> tuple[int, dict]:
    statuses: dict[int, int] = {}

    async def one(index: int, session: aiohttp.ClientSession, csrf: str) -> None:
        thread_id = await _new_thread(session, base, csrf) if kind == "post" else None
        for turn in range(per_client):
            if kind == "healthz":
                request = session.get(f"{base}/healthz")
            elif kind == "session":
                request = session.get(f"{base}/api/v1/session")
            elif kind == "post":
                request = session.post(
                    f"{base}/api/v1/threads/{thread_id}/messages",
                    json={"content": f"Where is my order? ({turn})"},
                    headers={"X-CSRFToken": csrf},
                )
            else:
                own = run_ids[index]
                request = session.get(f"{base}/api/v1/runs/{own[turn % len(own)]}")
            async with request as response:
                body = await response.read()
                statuses[response.status] = statuses.get(response.status, 0) + 1
                if kind == "post" and response.status == 202:
                    run_ids.setdefault(index, []).append(json.loads(body)["run"]["id"])

    await asyncio.gather(*(one(index, session, csrf) for index, (session, csrf) in enumerate(clients)))
    return sum(statuses.values()), statuses


async def measure(args: argparse.Namespace) -> dict:
    stack = Stack(
        StackConfig(database_url=args.database_url, redis_url=args.redis_url, web_workers=1, db_pool_web=args.db_pool)
    )
    database_ensure(args.database_url)
    stack.migrate()
    database = Database(args.database_url)
    database.reset()
    stack.start_web()
    results: dict = {"clients": args.clients, "requests": args.requests, "kinds": {}}
    try:
        stack._wait_http(f"{stack.web_url}/healthz", "web")
        server = psutil.Process(stack.by_role("web")[0].pid)
        workers = server.children(recursive=True) or [server]
        clients = [await _client(stack.web_url) for _ in range(args.clients)]
        per_client = max(1, args.requests // args.clients)
        own_runs: dict[int, list[str]] = {}  # filled by the post batch; the poll batch reads them once finished
        kinds = [kind for kind in KINDS if kind in args.kinds.split(",")]
        if "poll" in kinds and "post" not in kinds:
            kinds.insert(kinds.index("poll"), "post")
        for kind in kinds:
            if kind == "poll":
                database.conn.execute("UPDATE chat_run SET status = 'completed', completed_at = now()")
            # Warm-up: imports, URL resolver, pools.
            await _batch(kind, stack.web_url, clients, 5, own_runs)
            spy = None
            if kind == args.profile:
                profile_path = ROOT / "var" / "bench" / f"webcost-{kind}.txt"
                spy = py_spy_start(workers[0].pid, args.profile_seconds, profile_path, rate=200)
            before = sum(p.cpu_times().user + p.cpu_times().system for p in workers)
            started = time.perf_counter()
            answered, statuses = await _batch(kind, stack.web_url, clients, per_client, own_runs)
            wall = time.perf_counter() - started
            cpu = sum(p.cpu_times().user + p.cpu_times().system for p in workers) - before
            if spy is not None:
                spy.wait()
                results["profile"] = collapsed_summary(profile_path, top=40)
                print(json.dumps(results["profile"], indent=1))
            results["kinds"][kind] = {
                "requests": answered,
                "statuses": statuses,
                "cpu_ms_per_request": round(cpu * 1000 / answered, 2),
                "requests_per_s": round(answered / wall, 1),
            }
            print(
                f"{kind:8} {answered:6} req  {cpu * 1000 / answered:6.2f} ms CPU/request  "
                f"{answered / wall:7.1f} req/s  {statuses}",
                flush=True,
            )
        for session, _ in clients:
            await session.close()
    finally:
        stack.stop()
        database.reset()
        database.close()
        redis.Redis.from_url(args.redis_url).flushdb()
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--requests", type=int, default=1500, help="per kind")
    parser.add_argument("--kinds", default=",".join(KINDS))
    parser.add_argument("--db-pool", type=int, default=20)
    parser.add_argument(
        "--database-url",
        default=os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/bookly_bench"),
    )
    parser.add_argument("--redis-url", default=os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/5"))
    parser.add_argument("--profile", choices=KINDS, help="py-spy (--gil) the server during this kind's batch")
    parser.add_argument("--profile-seconds", type=float, default=8.0)
    parser.add_argument("--json", help="write the figures to this file")
    args = parser.parse_args()
    results = asyncio.run(measure(args))
    if args.json:
        with open(args.json, "w") as out:
            json.dump(results, out, indent=2)
    sys.exit(0 if all(set(k["statuses"]) <= {200, 201, 202} for k in results["kinds"].values()) else 1)


if __name__ == "__main__":
    main()
