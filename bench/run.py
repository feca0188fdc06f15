"""`python -m bench.run`: start the real stack, drive it with virtual customers, print one table.

Starts (and always stops) a fake Messages API (bench/fake_model.py), uvicorn serving
`bookly_project.asgi:application` and Celery worker(s), all against the bench Postgres
database and Redis db. Scenarios (see docs/performance.md for the method):

  single    closed loop, 1 model call per turn, at each --customers value
  tools     closed loop, 3 model calls per turn (lookup_policy x2 → text; --tools-script orders later)
  accept    open loop: POSTs at --rate per second, replies not awaited; POST→202 latency
  delivery  worker commit → long-poll return (reported for every closed-loop run; this one at low load)
  cost      CPU ms per turn by process, SQL per POST/poll/turn, requests per turn, worker RSS
  inflight  runs in progress vs configured concurrency (sampled every 0.5 s in every run)
  compare   the in-request design (bench/in_request.py) and Bookly, both at --compare-customers
  overload  open loop at --overload-factors x capacity (--capacity, or the best closed-loop
            turns/s of this invocation): accepted, refused, answer latency, turn latency, lost, stuck
  plain     last: the workers restarted as ONE plain `celery -A bookly_project worker` (no --pool or
            --concurrency: Celery settings decide), at --compare-customers, against the run of the
            same load with --workers x --pool/--concurrency (make run: two plain commands)

Every closed-loop run also reports the model bill: input tokens per turn, the share read from
the prompt cache from a thread's second model call on, and an estimated cost (MODEL_PRICES).

Targets are printed next to the figures, not enforced (unless --enforce).
"""

import argparse
import asyncio
import atexit
import contextlib
import json
import os
import platform
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

import psutil
import redis

from bench import in_request, measure
from bench.client import Counters, Customer, customers_open, open_loop_posts
from bench.stack import ROOT, Stack, StackConfig, die_with_parent, http_json

SCENARIOS = ("single", "tools", "accept", "delivery", "cost", "inflight", "compare", "overload", "plain")
IN_REQUEST_TARGET_RATIO = 4.0  # issue 13: Bookly's turns/s at 400 customers vs the in-request design's
OVERLOAD_ANSWER_P95_MS = 50.0  # issue 13: 202-or-refusal p95 at 4x capacity
CACHE_SHARE_TARGET = 0.8  # issue 13: share of input tokens read from the cache, 2nd model call on
PLAIN_COMMAND_TARGET_SHARE = 0.9  # issue 13: one plain worker command within 10 % of make run's turns/s

# The targets of issue 6, checked against the run named in `run`.
TARGETS = [
    {"metric": "turns_per_s", "run": "single-400", "op": ">=", "value": 90.0, "label": "turns/s @400, 2 s model"},
    {"metric": "turn_p95_s", "run": "single-400", "op": "<=", "value": 2.25, "label": "p95 turn @400 (s)"},
    {"metric": "errors", "run": "single-400", "op": "<=", "value": 0, "label": "errors @400"},
    {"metric": "stuck_runs", "run": "single-400", "op": "<=", "value": 0, "label": "stuck runs @400"},
    {"metric": "accept_p95_ms", "run": "accept-200", "op": "<=", "value": 20.0, "label": "POST→202 p95 @200 POST/s"},
    {"metric": "delivery_p95_ms", "run": "delivery", "op": "<=", "value": 50.0, "label": "delivery p95 (ms)"},
    {"metric": "polls_per_turn", "run": "single-400", "op": "<=", "value": 1.0, "label": "long-polls per turn @400"},
    {
        "metric": "cache_read_share_later",
        "scenario": "tools",
        "op": ">=",
        "value": CACHE_SHARE_TARGET,
        "label": "cache-read share, 2nd call on",
    },
]


def percentile(values: list[float], q: float) -> float | None:
    """Nearest-rank percentile (q in 0..100); None for no values."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, min(len(ordered), round(q / 100 * len(ordered) + 0.5)))
    return ordered[rank - 1]


def _r(value, digits: int = 1):
    return None if value is None else round(value, digits)


@dataclass
class RunSpec:
    name: str  # e.g. single-400, tools-200, accept-200, delivery
    kind: str  # closed | open
    script: str  # single | tools | orders
    customers: int
    duration: float
    rate: float = 0.0
    think: float = 0.0
    scenarios: list[str] = field(default_factory=list)


def plan(args: argparse.Namespace) -> list[RunSpec]:
    """Turn the scenario names into runs; a run two scenarios ask for is made once."""
    runs: dict[tuple, RunSpec] = {}

    def add(scenario: str, name: str, kind: str, script: str, customers: int, rate: float = 0.0) -> None:
        key = (kind, script, customers, rate)
        spec = runs.get(key)
        if spec is None:
            spec = runs[key] = RunSpec(
                name=name,
                kind=kind,
                script=script,
                customers=customers,
                duration=args.duration,
                rate=rate,
                think=args.think,
            )
        spec.scenarios.append(scenario)

    for scenario in args.scenarios:
        if scenario == "single":
            for count in args.customers:
                add("single", f"single-{count}", "closed", "single", count)
        elif scenario == "tools":
            add("tools", f"tools-{args.tools_customers}", "closed", args.tools_script, args.tools_customers)
        elif scenario == "accept":
            for rate in args.rate:
                add("accept", f"accept-{rate:g}", "open", "single", args.accept_customers, rate)
        elif scenario == "delivery":
            add("delivery", f"single-{args.delivery_customers}", "closed", "single", args.delivery_customers)
        elif scenario == "cost":
            add("cost", f"single-{args.cost_customers}", "closed", "single", args.cost_customers)
        elif scenario == "inflight":
            add("inflight", f"single-{args.inflight_customers}", "closed", "single", args.inflight_customers)
        elif scenario == "compare":
            add("compare", f"single-{args.compare_customers}", "closed", "single", args.compare_customers)
            add("compare", f"in-request-{args.compare_customers}", "in_request", "single", args.compare_customers)
    # overload runs are planned once the capacity is known (see _amain)
    return list(runs.values())


def _bookly_settings():
    """Bookly's Django settings as its processes read them, from the bench's own environment."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bookly_project.settings")
    from django.conf import settings

    return settings


def _settings_concurrency(extra_env: dict[str, str]) -> int:
    """CELERY_WORKER_CONCURRENCY as a plain worker command reads it: the bench's env and its --env values."""
    if "WORKER_CONCURRENCY" in extra_env:
        return int(extra_env["WORKER_CONCURRENCY"])
    return _bookly_settings().CELERY_WORKER_CONCURRENCY


def model_prices() -> tuple[str, dict | None]:
    """The model the workers use and its prices (bookly_project/settings.py MODEL_PRICES), from the same env."""
    settings = _bookly_settings()
    return settings.ANTHROPIC_MODEL, settings.MODEL_PRICES.get(settings.ANTHROPIC_MODEL)


TOKEN_FIELDS = ("input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens", "output_tokens")


def token_bill(before: dict, after: dict, turns: int, turns_per_thread: int) -> dict:
    """Tokens and estimated cost over a window, from the fake model's usage totals (first and later calls)."""
    delta = {
        kind: {name: after[kind][name] - before[kind][name] for name in ("calls", *TOKEN_FIELDS)}
        for kind in ("first", "later")
    }
    both = {name: delta["first"][name] + delta["later"][name] for name in ("calls", *TOKEN_FIELDS)}

    def prompt(tokens: dict) -> int:
        return tokens["input_tokens"] + tokens["cache_creation_input_tokens"] + tokens["cache_read_input_tokens"]

    model, prices = model_prices()
    cost = uncached = None
    if prices:
        cost = (
            both["input_tokens"] * prices["input"]
            + both["cache_creation_input_tokens"] * prices["cache_write"]
            + both["cache_read_input_tokens"] * prices["cache_read"]
            + both["output_tokens"] * prices["output"]
        ) / 1e6
        uncached = (prompt(both) * prices["input"] + both["output_tokens"] * prices["output"]) / 1e6
    later = prompt(delta["later"])
    return {
        "model": model,
        "model_calls": both["calls"],
        "tokens": delta,
        "input_tokens_per_turn": _r(prompt(both) / turns, 0) if turns else None,
        "output_tokens_per_turn": _r(both["output_tokens"] / turns, 0) if turns else None,
        "cache_read_share_later": _r(delta["later"]["cache_read_input_tokens"] / later, 3) if later else None,
        "cache_read_share_all": _r(both["cache_read_input_tokens"] / prompt(both), 3) if prompt(both) else None,
        "usd_per_turn": _r(cost / turns, 5) if cost is not None and turns else None,
        # A conversation = --turns-per-thread turns of this script (the customers' thread length).
        "usd_per_conversation": _r(cost / turns * turns_per_thread, 4) if cost is not None and turns else None,
        "usd_per_conversation_without_cache": _r(uncached / turns * turns_per_thread, 4)
        if uncached is not None and turns
        else None,
    }


def overload_plan(args: argparse.Namespace, bench: "Bench", runs: list[dict]) -> list[RunSpec]:
    """Open-loop runs at each factor x capacity: --capacity, else the best single-script closed run here."""
    if bench.capacity is None:
        measured = [run["turns_per_s"] for run in runs if run["kind"] == "closed" and run["script"] == "single"]
        bench.capacity = max(measured, default=0.0) or None
    if not bench.capacity:
        return []
    return [
        RunSpec(
            name=f"overload-x{factor:g}",
            kind="overload",
            script="single",
            customers=args.overload_customers,
            duration=args.duration,
            rate=round(factor * bench.capacity, 1),
            scenarios=["overload"],
        )
        for factor in args.overload_factors
    ]


@dataclass
class Window:
    """What `Bench.measured` collects over a run's measured window."""

    samples: measure.Samples
    before: dict = field(default_factory=dict)
    after: dict = field(default_factory=dict)
    profile: dict = field(default_factory=dict)


class Bench:
    def __init__(self, args: argparse.Namespace, stack: Stack) -> None:
        self.args = args
        self.stack = stack
        self.db = measure.Database(args.database_url)
        self.broker = redis.Redis.from_url(stack.config.redis_url)
        redis_port = int(stack.config.redis_url.split("://", 1)[1].split("/")[0].rsplit(":", 1)[1])
        self.redis_pids = measure.redis_server_pids(redis_port)
        self.counters = Counters()
        self.customers: list[Customer] = []
        self.me = psutil.Process()
        self.profile_dir = Path(args.log_dir) / "profiles"
        self.capacity: float | None = args.capacity

    def close(self) -> None:
        self.db.close()
        self.broker.close()

    # --- the fake model's control endpoints -------------------------------------------------

    def model(self, path: str, body: dict | None = None) -> dict:
        return http_json(f"{self.stack.model_url}{path}", body)

    # --- snapshots ------------------------------------------------------------------------------

    def snapshot(self) -> dict:
        pg_pids = self.db.backend_pids()
        return {
            "at": time.monotonic(),
            "web": measure.cpu_seconds(self.stack.pids("web")),
            "worker": measure.cpu_seconds(self.stack.pids("worker")),
            "postgres": measure.cpu_seconds(pg_pids),
            "redis": measure.cpu_seconds(self.redis_pids),
            "model": measure.cpu_seconds(self.stack.pids("model")),
            "harness": measure.cpu_seconds([self.me.pid]),
            "machine": psutil.cpu_times(),
            "xact": self.db.xact_stats(),
            "redis_calls": measure.redis_commands(self.broker),
            "model_stats": self.model("/stats"),
            "pg_pids": pg_pids,
        }

    def cost(self, before: dict, after: dict, turns: int) -> dict:
        elapsed = after["at"] - before["at"]
        cpu = {
            role: measure.cpu_delta(before[role], after[role])
            for role in ("web", "worker", "postgres", "redis", "model", "harness")
        }
        machine_busy = (sum(after["machine"]) - after["machine"].idle - after["machine"].iowait) - (
            sum(before["machine"]) - before["machine"].idle - before["machine"].iowait
        )
        per_turn = {role: _r(1000 * seconds / turns, 2) if turns else None for role, seconds in cpu.items()}
        xact = {key: after["xact"][key] - before["xact"][key] for key in after["xact"]}
        calls = measure.counter_delta(before["redis_calls"], after["redis_calls"])
        ours = sum(cpu.values())
        system = sum(per_turn[role] or 0 for role in ("web", "worker", "postgres", "redis"))
        return {
            "cpu_seconds": {role: round(seconds, 2) for role, seconds in cpu.items()},
            "system_cpu_ms_per_turn": _r(system, 1),
            # If CPU were the only limit and the whole machine were ours: cores / CPU per turn.
            "cpu_ceiling_turns_per_s": _r(psutil.cpu_count() * 1000 / system, 1) if system else None,
            "other_users_cores": round(max(0.0, machine_busy - ours) / elapsed, 2),
            "cpu_ms_per_turn": per_turn,
            "cores_used": {role: round(seconds / elapsed, 2) for role, seconds in cpu.items()},
            "machine_cores_busy": round(machine_busy / elapsed, 2),
            "machine_cores": psutil.cpu_count(),
            "pg_backends_lost": len(set(before["pg_pids"]) - set(after["pg_pids"])),
            "db_per_turn": {key: _r(value / turns, 1) for key, value in xact.items()} if turns else {},
            "redis_commands_per_turn": (
                {name: _r(count / turns, 2) for name, count in sorted(calls.items(), key=lambda item: -item[1])[:12]}
                if turns
                else {}
            ),
            "redis_commands_per_turn_total": _r(sum(calls.values()) / turns, 1) if turns else None,
            "model_requests": after["model_stats"]["requests"] - before["model_stats"]["requests"],
        }

    # --- customers ------------------------------------------------------------------------------

    async def customers_for(self, count: int) -> list[Customer]:
        """The first `count` customers of a pool kept across runs, each with a fresh thread."""
        if len(self.customers) < count:
            more = await customers_open(
                self.stack.web_url,
                count - len(self.customers),
                self.counters,
                turns_per_thread=self.args.turns_per_thread,
                poll_wait=self.args.poll_wait,
                turn_timeout=self.args.turn_timeout,
            )
            for offset, customer in enumerate(more):
                customer.index = len(self.customers) + offset
            self.customers.extend(more)
        chosen = self.customers[:count]
        gate = asyncio.Semaphore(50)

        async def fresh(customer: Customer) -> None:
            async with gate:
                await customer.new_thread()
                customer.turns = []

        await asyncio.gather(*(fresh(customer) for customer in chosen))
        return chosen

    async def close_customers(self) -> None:
        await asyncio.gather(*(customer.close() for customer in self.customers), return_exceptions=True)

    # --- profiles -----------------------------------------------------------------------------------

    def profile_start(self, spec: RunSpec) -> list[tuple[str, Path, subprocess.Popen]]:
        if not (set(self.args.profile) & {"all", spec.name, *spec.scenarios}):
            return []
        self.profile_dir.mkdir(parents=True, exist_ok=True)
        started = []
        for role in ("web", "worker"):
            for pid in self.stack.busy_pids(role):
                out = self.profile_dir / f"{spec.name}-{role}-{pid}.txt"
                process = measure.py_spy_start(pid, spec.duration, out)
                if process is not None:
                    started.append((role, out, process))
        return started

    def profile_finish(self, started: list, seconds: float) -> dict:
        summaries: dict = {}
        for role, out, process in started:
            try:
                _, stderr = process.communicate(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                stderr = b"timeout"
            summary = measure.collapsed_summary(out)
            # --gil samples only while some thread holds the GIL: samples / (rate x seconds) ~ GIL busy.
            summary["gil_held_fraction"] = round(summary["samples"] / (measure.PY_SPY_RATE * seconds), 2)
            summary["file"] = str(out.relative_to(ROOT)) if out.is_relative_to(ROOT) else str(out)
            if not summary["samples"]:
                summary["py_spy_error"] = stderr.decode(errors="replace")[-300:]
            summaries.setdefault(role, []).append(summary)
        return summaries

    # --- runs -------------------------------------------------------------------------------------

    async def run(self, spec: RunSpec) -> dict:
        self.model("/control", {"script": spec.script, "latency": self.args.model_latency})
        errors_before = dict(self.counters.errors)
        if spec.kind == "open":
            result = await self.run_open(spec)
        elif spec.kind == "overload":
            result = await self.run_overload(spec)
        elif spec.kind == "in_request":
            result = await self.run_in_request(spec)
        else:
            result = await self.run_closed(spec)
        result["errors_by_code"] = {
            code: count - errors_before.get(code, 0)
            for code, count in self.counters.errors.items()
            if count - errors_before.get(code, 0)
        }
        return result

    @contextlib.asynccontextmanager
    async def measured(self, spec: RunSpec, since) -> AsyncIterator[Window]:
        """The measured window: in-flight sampling, CPU and counter snapshots, and profiles around it."""
        window = Window(samples=measure.Samples())
        stop = asyncio.Event()
        sampler = asyncio.create_task(
            measure.sample(self.db, self.broker, lambda: self.stack.pids("worker"), since, stop, window.samples)
        )
        window.before = await asyncio.to_thread(self.snapshot)
        profiles = self.profile_start(spec)
        yield window
        window.after = await asyncio.to_thread(self.snapshot)
        stop.set()
        await sampler
        window.profile = await asyncio.to_thread(self.profile_finish, profiles, spec.duration)

    async def run_closed(self, spec: RunSpec) -> dict:
        customers = await self.customers_for(spec.customers)
        since = self.db.now()
        model_before = self.model("/stats")["requests"]
        warmup = self.args.warmup
        start = time.monotonic()
        window_start = start + warmup
        stop_at = window_start + spec.duration
        ramp = min(self.args.ramp, warmup)
        tasks = [
            asyncio.create_task(
                customer.converse(stop_at, think=spec.think, start_delay=ramp * index / max(1, len(customers)))
            )
            for index, customer in enumerate(customers)
        ]
        await asyncio.sleep(max(0.0, window_start - time.monotonic()))
        async with self.measured(spec, since) as measured:
            await asyncio.sleep(max(0.0, stop_at - time.monotonic()))
        done, pending = await asyncio.wait(tasks, timeout=self.args.turn_timeout + 10)
        for task in pending:
            task.cancel()
        for task in done:
            if task.exception() is not None:
                raise task.exception()
        model_requests = self.model("/stats")["requests"] - model_before
        stuck = await asyncio.to_thread(self.db.settle, since, self.args.grace)

        turns = [turn for customer in customers for turn in customer.turns]
        window = [turn for turn in turns if window_start <= turn.ended < stop_at]
        ok = [turn for turn in window if not turn.error]
        all_ok = sum(1 for turn in turns if not turn.error)
        reply = [turn.reply_s for turn in ok]
        accepted = [turn.accepted_ms for turn in window if turn.accepted_ms is not None]
        delivery = [turn.delivery_ms for turn in ok if turn.delivery_ms is not None]
        cost = self.cost(measured.before, measured.after, len(ok))
        posts = len(window)
        polls = sum(turn.polls for turn in window)
        return {
            "name": spec.name,
            "scenarios": spec.scenarios,
            "kind": spec.kind,
            "script": spec.script,
            "customers": spec.customers,
            "think_s": spec.think,
            "duration_s": spec.duration,
            "turns": len(ok),
            "turns_per_s": _r(len(ok) / spec.duration, 1),
            "turn_p50_s": _r(percentile(reply, 50), 3),
            "turn_p95_s": _r(percentile(reply, 95), 3),
            "turn_p99_s": _r(percentile(reply, 99), 3),
            "accept_p50_ms": _r(percentile(accepted, 50)),
            "accept_p95_ms": _r(percentile(accepted, 95)),
            "accept_p99_ms": _r(percentile(accepted, 99)),
            "polls_per_turn": _r(polls / len(window), 2) if window else None,
            # POSTs refused (503/429) and sent again after Retry-After; the wait is in the turn time.
            "refusals_per_turn": _r(sum(turn.refusals for turn in window) / len(window), 2) if window else None,
            "delivery_p50_ms": _r(percentile(delivery, 50)),
            "delivery_p95_ms": _r(percentile(delivery, 95)),
            "delivery_max_ms": _r(max(delivery, default=None)),
            "errors": sum(1 for turn in turns if turn.error),
            "stuck_runs": sum(stuck.values()),
            "stuck_by_status": stuck,
            "http_requests_per_turn": _r((posts + polls) / len(ok), 2) if ok else None,
            # Over the whole run (warm-up and drain too): every request belongs to a turn that ended.
            "model_requests_per_turn": _r(model_requests / all_ok, 2) if all_ok else None,
            "web_cpu_ms_per_request": _r(1000 * cost["cpu_seconds"]["web"] / (posts + polls), 2)
            if posts + polls
            else None,
            "inflight": measured.samples.summary(),
            "cost": cost,
            "bill": token_bill(
                measured.before["model_stats"]["tokens"],
                measured.after["model_stats"]["tokens"],
                len(ok),
                self.args.turns_per_thread,
            ),
            "profile": measured.profile,
        }

    async def run_in_request(self, spec: RunSpec) -> dict:
        """The in-request baseline at the same load and model latency, measured now, beside Bookly."""
        url = await asyncio.to_thread(self.stack.start_in_request)
        try:
            result = await in_request.drive(
                url,
                customers=spec.customers,
                duration=spec.duration,
                warmup=self.args.warmup,
                timeout=self.args.turn_timeout,
            )
        finally:
            await asyncio.to_thread(self.stack.stop_role, "in_request")
        return {
            "name": spec.name,
            "scenarios": spec.scenarios,
            "kind": spec.kind,
            "script": spec.script,
            "customers": spec.customers,
            "duration_s": spec.duration,
            "turns": len(result.latencies),
            "turns_per_s": _r(len(result.latencies) / spec.duration, 1),
            "turn_p50_s": _r(percentile(result.latencies, 50), 3),
            "turn_p95_s": _r(percentile(result.latencies, 95), 3),
            "turn_p99_s": _r(percentile(result.latencies, 99), 3),
            "errors": result.errors,
        }

    async def run_overload(self, spec: RunSpec) -> dict:
        """Open loop above capacity: every POST answered at once (202 or a refusal), no run lost or stuck."""
        customers = await self.customers_for(spec.customers)
        since = self.db.now()
        async with self.measured(spec, since) as measured:
            accepts = await open_loop_posts(customers, rate=spec.rate, duration=spec.duration, rotate_threads=True)
        left = await asyncio.to_thread(self.db.settle, since, self.args.overload_drain)
        outcomes = await asyncio.to_thread(self.db.run_outcomes, since)
        if left:
            await asyncio.to_thread(self.db.cancel_unfinished, since)
            self.broker.delete("celery")
        accepted = [accept for accept in accepts if accept.status == 202]
        refused = [accept for accept in accepts if accept.status in (429, 503)]
        answered = [accept.answered_ms for accept in accepts if accept.answered_ms is not None]
        turn_s = [seconds for status, _, seconds in outcomes if status == "completed" and seconds is not None]
        by_status: dict[str, int] = {}
        for status, code, _ in outcomes:
            key = f"{status}:{code}" if code else status
            by_status[key] = by_status.get(key, 0) + 1
        cost = self.cost(measured.before, measured.after, len(turn_s))
        return {
            "name": spec.name,
            "scenarios": spec.scenarios,
            "kind": spec.kind,
            "script": spec.script,
            "customers": spec.customers,
            "rate_per_s": spec.rate,
            "capacity_per_s": self.capacity,
            "duration_s": spec.duration,
            "posts": len(accepts),
            "accepted": len(accepted),
            "refused": len(refused),
            "other_answers": sum(1 for accept in accepts if accept.status not in (None, 202, 429, 503)),
            "no_answer": sum(
                1 for accept in accepts if accept.status is None and accept.error != "thread_create_failed"
            ),
            # The harness's own new threads (customers rotate threads): not message POSTs.
            "thread_create_failed": sum(1 for accept in accepts if accept.error == "thread_create_failed"),
            "answer_p50_ms": _r(percentile(answered, 50)),
            "answer_p95_ms": _r(percentile(answered, 95)),
            "answer_max_ms": _r(max(answered, default=None)),
            "accepted_turn_p50_s": _r(percentile(turn_s, 50), 2),
            "accepted_turn_p95_s": _r(percentile(turn_s, 95), 2),
            "runs_by_outcome": by_status,
            # A 202 whose run is not in the database; runs still unfinished after the drain.
            "lost": max(0, len(accepted) - len(outcomes)),
            "stuck_runs": sum(left.values()),
            "errors": sum(1 for accept in accepts if accept.error and accept.status not in (429, 503)),
            "cost": cost,
            "inflight": measured.samples.summary(),
            "profile": measured.profile,
        }

    async def run_open(self, spec: RunSpec) -> dict:
        customers = await self.customers_for(spec.customers)
        since = self.db.now()
        async with self.measured(spec, since) as measured:
            accepts = await open_loop_posts(customers, rate=spec.rate, duration=spec.duration)
        drain_started = time.monotonic()
        left = await asyncio.to_thread(self.db.settle, since, self.args.drain_timeout)
        drain_s = time.monotonic() - drain_started
        cancelled = await asyncio.to_thread(self.db.cancel_unfinished, since) if left else 0
        if left:
            self.broker.delete("celery")
        ok = [accept for accept in accepts if accept.latency_ms is not None]
        answered = sum(1 for accept in accepts if accept.latency_ms is not None or accept.error.startswith("post_"))
        latency = [accept.latency_ms for accept in ok]
        from_schedule = [accept.latency_ms + accept.sent_lag_ms for accept in ok]
        cost = self.cost(measured.before, measured.after, len(ok))
        return {
            "name": spec.name,
            "scenarios": spec.scenarios,
            "kind": spec.kind,
            "script": spec.script,
            "customers": spec.customers,
            "rate_per_s": spec.rate,
            "duration_s": spec.duration,
            "posts": len(accepts),
            "accepted": len(ok),
            "accepted_per_s": _r(len(ok) / spec.duration, 1),
            "accept_p50_ms": _r(percentile(latency, 50)),
            "accept_p95_ms": _r(percentile(latency, 95)),
            "accept_p99_ms": _r(percentile(latency, 99)),
            "accept_from_schedule_p95_ms": _r(percentile(from_schedule, 95)),
            "client_send_lag_p95_ms": _r(percentile([accept.sent_lag_ms for accept in accepts], 95)),
            "errors": sum(1 for accept in accepts if accept.error),
            "backlog_after_drain": sum(left.values()),
            "drain_s": _r(drain_s, 1),
            "backlog_cancelled": cancelled,
            # Per answered POST (202 or an error status): what one POST costs the web, whatever its outcome.
            "web_cpu_ms_per_post": _r(1000 * cost["cpu_seconds"]["web"] / answered, 2) if answered else None,
            "inflight": measured.samples.summary(),
            "cost": cost,
            "profile": measured.profile,
        }


# --- Output --------------------------------------------------------------------------------------

ROWS = [
    ("load", lambda r: f"{r['customers']} cust" if r["kind"] == "closed" else f"{r['rate_per_s']:g} POST/s"),
    ("model calls/turn (script)", lambda r: f"{r.get('model_requests_per_turn') or '-'} ({r['script']})"),
    ("turns/s (accept: POSTs/s)", lambda r: r.get("turns_per_s", r.get("accepted_per_s"))),
    ("turn p50 / p95 / p99 (s)", lambda r: _triple(r, "turn", "s")),
    ("POST→202 p50 / p95 / p99 (ms)", lambda r: _triple(r, "accept", "ms")),
    ("long-polls per turn", lambda r: r.get("polls_per_turn")),
    ("POSTs refused + retried per turn", lambda r: r.get("refusals_per_turn")),
    ("delivery p50 / p95 (ms)", lambda r: _pair(r.get("delivery_p50_ms"), r.get("delivery_p95_ms"))),
    ("errors", lambda r: r["errors"]),
    ("stuck runs (backlog)", lambda r: r["stuck_runs"] if "stuck_runs" in r else f"({r['backlog_after_drain']})"),
    ("in flight max / mean (of cfg)", lambda r: _inflight(r)),
    (
        "queued in DB max / broker max",
        lambda r: _pair(r["inflight"].get("queued", {}).get("max"), r["inflight"].get("broker_queue", {}).get("max")),
    ),
    ("CPU ms/turn web", lambda r: r["cost"]["cpu_ms_per_turn"]["web"]),
    ("CPU ms/turn worker", lambda r: r["cost"]["cpu_ms_per_turn"]["worker"]),
    ("CPU ms/turn postgres", lambda r: r["cost"]["cpu_ms_per_turn"]["postgres"]),
    ("CPU ms/turn redis", lambda r: r["cost"]["cpu_ms_per_turn"]["redis"]),
    ("CPU ms/turn web+worker+pg+redis", lambda r: r["cost"]["system_cpu_ms_per_turn"]),
    ("CPU-bound ceiling, 2 cores (turns/s)", lambda r: r["cost"]["cpu_ceiling_turns_per_s"]),
    ("web CPU ms per HTTP request", lambda r: r.get("web_cpu_ms_per_request", r.get("web_cpu_ms_per_post"))),
    ("HTTP requests per turn", lambda r: r.get("http_requests_per_turn")),
    ("DB transactions per turn", lambda r: r["cost"]["db_per_turn"].get("xact_commit")),
    ("Redis commands per turn", lambda r: r["cost"].get("redis_commands_per_turn_total")),
    (
        "cores used web / worker / pg",
        lambda r: "/".join(str(r["cost"]["cores_used"][k]) for k in ("web", "worker", "postgres")),
    ),
    (
        "machine cores busy / by others",
        lambda r: f"{r['cost']['machine_cores_busy']}/{r['cost']['machine_cores']} / {r['cost']['other_users_cores']}",
    ),
    ("input tokens per turn", lambda r: r["bill"]["input_tokens_per_turn"]),
    (
        "cache-read share, 2nd call on / all",
        lambda r: _pair(r["bill"]["cache_read_share_later"], r["bill"]["cache_read_share_all"]),
    ),
    (
        "est. US$ per conversation (no cache)",
        lambda r: (
            f"{_fmt(r['bill']['usd_per_conversation'])} ({_fmt(r['bill']['usd_per_conversation_without_cache'])})"
        ),
    ),
    ("worker RSS peak (MB)", lambda r: r["inflight"].get("worker_rss_peak_mb")),
    ("DB connections max", lambda r: r["inflight"].get("db_connections", {}).get("max")),
]


def _fmt(value) -> str:
    return "-" if value is None or value == "" else str(value)


def _pair(a, b) -> str:
    return f"{_fmt(a)} / {_fmt(b)}"


def _triple(r: dict, prefix: str, unit: str) -> str:
    return " / ".join(_fmt(r.get(f"{prefix}_{q}_{unit}")) for q in ("p50", "p95", "p99"))


def _inflight(r: dict) -> str:
    stats = r["inflight"].get("in_progress", {})
    return f"{_fmt(stats.get('max'))} / {_fmt(stats.get('mean'))} ({r['configured_concurrency']})"


def _sql_cell(queries: dict, run: dict) -> str:
    turn = queries.get("worker_turn_" + run["script"])
    if turn is None or run["kind"] != "closed":
        return "-"
    return (
        f"{queries['post_message_single']['statements']} / {queries['poll_woken']['statements']} / {turn['statements']}"
    )


def table(results: dict) -> str:
    runs = [run for run in results["runs"] if run["kind"] in ("closed", "open")]
    header = ["metric", *[run["name"] for run in runs]]
    rows = [header]
    for label, getter in ROWS:
        cells = [label]
        for run in runs:
            try:
                cells.append(_fmt(getter(run)))
            except (KeyError, TypeError):
                cells.append("-")
        rows.append(cells)
    queries = results.get("sql_statements")
    if queries:
        rows.append(["SQL statements POST / poll / worker turn", *[_sql_cell(queries, run) for run in runs]])
    widths = [max(len(row[index]) for row in rows) for index in range(len(header))]
    lines = []
    for number, row in enumerate(rows):
        lines.append(" | ".join(cell.ljust(widths[index]) for index, cell in enumerate(row)))
        if number == 0:
            lines.append("-+-".join("-" * width for width in widths))
    return "\n".join(lines)


def targets(results: dict) -> list[dict]:
    by_name = {run["name"]: run for run in results["runs"]}
    for run in results["runs"]:
        for scenario in run["scenarios"]:
            by_name.setdefault(f"scenario:{scenario}", run)
    for run in results["runs"]:
        if "delivery" in run["scenarios"]:
            by_name["delivery"] = run
    checked = []
    for target in TARGETS:
        run = by_name.get(target["run"] if "run" in target else f"scenario:{target['scenario']}")
        value = None if run is None else run.get(target["metric"], (run.get("bill") or {}).get(target["metric"]))
        met = None
        if value is not None:
            met = value >= target["value"] if target["op"] == ">=" else value <= target["value"]
        checked.append({**target, "measured": value, "met": met, "measured_in": run["name"] if run else None})
    return checked


def targets_text(checked: list[dict], runs: list[dict]) -> str:
    lines = ["targets (measured vs target):"]
    for target in checked:
        mark = {True: "met", False: "MISSED", None: "not run"}[target["met"]]
        where = f" [{target['measured_in']}]" if target["measured_in"] else ""
        lines.append(
            f"  {target['label']:<32} {_fmt(target['measured']):>8} {target['op']} {target['value']:<6g} {mark}{where}"
        )
    lines.extend(compare_lines(runs))
    lines.extend(overload_lines(runs))
    lines.extend(plain_lines(runs))
    return "\n".join(lines)


def compare_lines(runs: list[dict]) -> list[str]:
    """Bookly against the in-request design, both measured in this invocation at the same load."""
    lines = []
    for baseline in (run for run in runs if run["kind"] == "in_request"):
        bookly = next(
            (
                r
                for r in runs
                if r["kind"] == "closed" and r["script"] == "single" and r["customers"] == baseline["customers"]
            ),
            None,
        )
        lines.append(
            f"  in-request design @{baseline['customers']}: {baseline['turns_per_s']} turns/s, "
            f"p50/p95 {_fmt(baseline['turn_p50_s'])}/{_fmt(baseline['turn_p95_s'])} s, errors {baseline['errors']}"
        )
        if bookly and baseline["turns_per_s"]:
            ratio = bookly["turns_per_s"] / baseline["turns_per_s"]
            mark = "met" if ratio >= IN_REQUEST_TARGET_RATIO else "MISSED"
            lines.append(
                f"  Bookly @{bookly['customers']}: {bookly['turns_per_s']} turns/s, p95 {_fmt(bookly['turn_p95_s'])} s"
                f" -> x{ratio:.2f} the in-request design (target >= x{IN_REQUEST_TARGET_RATIO:g}) {mark}"
            )
    return lines


def plain_lines(runs: list[dict]) -> list[str]:
    """One plain worker command against the configured workers, at the same load in this invocation."""
    lines = []
    for plain in (run for run in runs if "plain" in run["scenarios"]):
        configured = next(
            (
                r
                for r in runs
                if r["kind"] == "closed"
                and r["script"] == "single"
                and r["customers"] == plain["customers"]
                and "plain" not in r["scenarios"]
            ),
            None,
        )
        line = (
            f"  plain command (1 x `celery -A bookly_project worker`) @{plain['customers']}: "
            f"{plain['turns_per_s']} turns/s, p95 {_fmt(plain['turn_p95_s'])} s, errors {plain['errors']}"
        )
        if configured and configured["turns_per_s"]:
            share = plain["turns_per_s"] / configured["turns_per_s"]
            mark = "met" if share >= PLAIN_COMMAND_TARGET_SHARE else "MISSED"
            line += (
                f" -> {share:.0%} of {configured['name']} ({configured['turns_per_s']} turns/s; "
                f"target >= {PLAIN_COMMAND_TARGET_SHARE:.0%}) {mark}"
            )
        lines.append(line)
    return lines


def overload_lines(runs: list[dict]) -> list[str]:
    lines = []
    for run in (run for run in runs if run["kind"] == "overload"):
        ok = (run["answer_p95_ms"] or 0) <= OVERLOAD_ANSWER_P95_MS and run["lost"] == run["stuck_runs"] == run[
            "no_answer"
        ] == 0
        lines.append(
            f"  {run['name']} ({run['rate_per_s']:g} POST/s = x{run['rate_per_s'] / run['capacity_per_s']:.0f} of "
            f"{run['capacity_per_s']}/s): accepted {run['accepted']}, refused {run['refused']}, "
            f"other {run['other_answers']}, no answer {run['no_answer']}; "
            f"202-or-refusal p50/p95 {_fmt(run['answer_p50_ms'])}/{_fmt(run['answer_p95_ms'])} ms "
            f"(target p95 <= {OVERLOAD_ANSWER_P95_MS:g}); accepted turns p50/p95 "
            f"{_fmt(run['accepted_turn_p50_s'])}/{_fmt(run['accepted_turn_p95_s'])} s; lost {run['lost']}, "
            f"stuck {run['stuck_runs']}; runs {run['runs_by_outcome']} {'met' if ok else 'MISSED'}"
        )
    return lines


# --- CLI -------------------------------------------------------------------------------------------


def _int_list(raw: str) -> list[int]:
    return [int(part) for part in raw.split(",") if part.strip()]


def _float_list(raw: str) -> list[float]:
    return [float(part) for part in raw.split(",") if part.strip()]


def _scenarios(raw: str) -> list[str]:
    names = [part.strip() for part in raw.split(",") if part.strip()]
    if names == ["all"]:
        return list(SCENARIOS)
    unknown = set(names) - set(SCENARIOS)
    if unknown:
        raise argparse.ArgumentTypeError(f"unknown scenario(s): {', '.join(sorted(unknown))}")
    return names


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bench.run",
        description=__doc__.split("\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="\n".join(__doc__.split("\n")[2:]),
    )
    parser.add_argument(
        "--scenario",
        dest="scenarios",
        type=_scenarios,
        default=list(SCENARIOS),
        help="comma-separated, or 'all' (default)",
    )
    parser.add_argument("--customers", type=_int_list, default=[50, 200, 400], help="single: e.g. 50,200,400")
    parser.add_argument("--tools-customers", type=int, default=200)
    parser.add_argument(
        "--tools-script",
        choices=("tools", "orders"),
        default="tools",
        help="tools: lookup_policy x2 → text; orders: lookup_order → check_return_eligibility → text",
    )
    parser.add_argument("--accept-customers", type=int, default=400)
    parser.add_argument("--rate", type=_float_list, default=[200.0], help="accept: POSTs per second, e.g. 50,200")
    parser.add_argument("--delivery-customers", type=int, default=50)
    parser.add_argument("--cost-customers", type=int, default=50)
    parser.add_argument("--inflight-customers", type=int, default=400)
    parser.add_argument("--compare-customers", type=int, default=400, help="compare: customers of both designs")
    parser.add_argument("--capacity", type=float, help="overload: turns/s to overload (default: measured here)")
    parser.add_argument("--overload-factors", type=_float_list, default=[2.0, 4.0], help="overload: x capacity")
    parser.add_argument("--overload-customers", type=int, default=400)
    parser.add_argument(
        "--overload-drain", type=float, default=120.0, help="overload: seconds for accepted runs to end"
    )
    parser.add_argument("--duration", type=float, default=20.0, help="measured seconds per run (after warm-up)")
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--ramp", type=float, default=2.0, help="customers start spread over this many seconds")
    parser.add_argument("--think", type=float, default=0.0, help="seconds a customer waits between turns")
    parser.add_argument("--turns-per-thread", type=int, default=10)
    parser.add_argument("--poll-wait", type=float, default=25.0)
    parser.add_argument("--turn-timeout", type=float, default=60.0)
    parser.add_argument("--grace", type=float, default=10.0, help="seconds runs get to settle before 'stuck'")
    parser.add_argument("--drain-timeout", type=float, default=20.0, help="accept: seconds for the backlog to drain")
    parser.add_argument("--model-latency", type=float, default=2.0)
    parser.add_argument("--order-id", default="BK-10042")
    parser.add_argument("--order-email", default="alice@example.com")
    parser.add_argument("--web-workers", type=int, default=2, help="uvicorn --workers (make run: 2)")
    parser.add_argument(
        "--uvicorn-arg",
        dest="uvicorn_args",
        action="append",
        default=[],
        help="extra uvicorn option, e.g. --uvicorn-arg=--loop=uvloop",
    )
    parser.add_argument("--workers", type=int, default=2, help="Celery worker processes (make run: WORKER_PROCESSES=2)")
    parser.add_argument(
        "--pool",
        default="threads",
        help="Celery pool: threads, prefork, gevent, solo, or 'settings' (no --pool/--concurrency: the plain command)",
    )
    parser.add_argument("--concurrency", type=int, default=200, help="threads per worker (WORKER_CONCURRENCY: 200)")
    parser.add_argument("--worker-loglevel", default="INFO", help="make run: INFO")
    parser.add_argument("--celery-app", default="bookly_project")
    parser.add_argument("--db-pool-web", type=int, default=20, help="DB_POOL_MAX_SIZE of each web worker")
    parser.add_argument("--db-pool-worker", type=int, default=20, help="DB_POOL_MAX_SIZE of each Celery worker")
    parser.add_argument("--env", action="append", default=[], help="KEY=VALUE for every Bookly process")
    parser.add_argument(
        "--pin",
        action="append",
        default=[],
        metavar="ROLE=CPUS",
        help="pin a role's processes to CPUs once the stack is up, e.g. web=0 or worker=1 (an experiment: "
        "does a tier with a core of its own answer faster?)",
    )
    parser.add_argument(
        "--database-url",
        default=os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/bookly_bench"),
    )
    parser.add_argument("--redis-url", default=os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/5"))
    parser.add_argument(
        "--private-redis",
        action="store_true",
        help="start a redis-server of our own (exact Redis CPU and command counts)",
    )
    parser.add_argument(
        "--no-reset",
        dest="reset",
        action="store_false",
        help="keep old rows and the Redis db (default: empty the chat tables and the Redis db)",
    )
    parser.add_argument(
        "--profile",
        action="append",
        default=[],
        help="py-spy the web and worker processes during these runs/scenarios ('all', 'single-400')",
    )
    parser.add_argument("--json", dest="json_out", help="write all results here")
    parser.add_argument("--log-dir", default=str(ROOT / "var" / "bench"))
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="a few customers for a few seconds, 0.05 s model; checks the harness, not the targets",
    )
    parser.add_argument("--enforce", action="store_true", help="exit 1 when a target is missed")
    args = parser.parse_args(argv)
    if args.smoke:
        args.scenarios = ["single", "tools", "accept", "cost", "compare", "overload", "plain"]
        args.customers, args.tools_customers, args.cost_customers = [4], 4, 4
        args.compare_customers, args.overload_customers, args.overload_drain = 4, 8, 20.0
        args.accept_customers, args.rate = 4, [10.0]
        args.duration, args.warmup, args.ramp, args.grace, args.drain_timeout = 3.0, 1.0, 0.5, 5.0, 5.0
        args.model_latency, args.concurrency, args.db_pool_web, args.db_pool_worker = 0.05, 8, 8, 4
        args.web_workers, args.workers = 1, 1
    return args


def _guard_reset(args: argparse.Namespace) -> None:
    """Only ever empty a database / Redis db that is obviously a bench or test one."""
    name = measure.pg_conninfo(args.database_url)["dbname"]
    if args.reset and not any(word in name for word in ("bench", "test")):
        raise SystemExit(
            f"refusing to empty database {name!r}: its name has neither 'bench' nor 'test' (use --no-reset)"
        )
    if args.reset and not args.private_redis and args.redis_url.rstrip("/").endswith(("/0", ":6379")):
        raise SystemExit("refusing to flush Redis db 0: pass a bench db (e.g. redis://127.0.0.1:6379/5) or --no-reset")


async def _amain(args: argparse.Namespace, stack: Stack, results: dict) -> None:
    bench = Bench(args, stack)
    try:
        specs = plan(args)
        if (
            "overload" in args.scenarios
            and bench.capacity is None
            and not any(spec.kind == "closed" and spec.script == "single" for spec in specs)
        ):
            specs.append(
                RunSpec("capacity", "closed", "single", args.overload_customers, args.duration, think=args.think)
            )
        if not specs and "overload" in args.scenarios:
            # --scenario overload --capacity N: nothing to measure first, so the loop below would not start.
            specs.extend(overload_plan(args, bench, results["runs"]))
        index = 0
        while index < len(specs):
            spec = specs[index]
            index += 1
            print(f"bench: {spec.name} ({', '.join(spec.scenarios) or 'capacity'}) ...", flush=True)
            run = await bench.run(spec)
            run["configured_concurrency"] = args.workers * args.concurrency
            results["runs"].append(run)
            print(
                f"bench: {spec.name}: {run.get('turns_per_s', run.get('accepted_per_s'))}/s, errors {run['errors']}",
                flush=True,
            )
            if index == len(specs) and "overload" in args.scenarios and not any(s.kind == "overload" for s in specs):
                specs.extend(overload_plan(args, bench, results["runs"]))
        if "plain" in args.scenarios:
            # Last, because it replaces the workers: one process, its pool and concurrency from Celery settings.
            spec = RunSpec(
                f"plain-{args.compare_customers}",
                "closed",
                "single",
                args.compare_customers,
                args.duration,
                think=args.think,
                scenarios=["plain"],
            )
            print(f"bench: {spec.name} (plain worker command) ...", flush=True)
            stack.restart_workers(pool="settings", count=1)
            run = await bench.run(spec)
            run["configured_concurrency"] = _settings_concurrency(stack.config.extra_env)
            results["runs"].append(run)
            print(f"bench: {spec.name}: {run['turns_per_s']}/s, errors {run['errors']}", flush=True)
    finally:
        await bench.close_customers()
        bench.close()


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    _guard_reset(args)
    log_dir = Path(args.log_dir)
    extra_env = dict(item.split("=", 1) for item in args.env)
    redis_proc = None
    if args.private_redis:
        from bench.stack import free_port

        port = free_port()
        log_dir.mkdir(parents=True, exist_ok=True)
        argv = ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
        with open(log_dir / "redis.log", "w") as redis_log:
            redis_proc = subprocess.Popen(  # noqa: S603
                argv,
                cwd=log_dir,
                stdout=redis_log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                preexec_fn=die_with_parent,
            )
        args.redis_url = f"redis://127.0.0.1:{port}/0"
    config = StackConfig(
        database_url=args.database_url,
        redis_url=args.redis_url,
        web_workers=args.web_workers,
        worker_count=args.workers,
        worker_pool=args.pool,
        worker_concurrency=args.concurrency,
        worker_loglevel=args.worker_loglevel,
        db_pool_web=args.db_pool_web,
        db_pool_worker=args.db_pool_worker,
        model_latency=args.model_latency,
        order_id=args.order_id,
        order_email=args.order_email,
        uvicorn_args=args.uvicorn_args,
        extra_env=extra_env,
        log_dir=log_dir,
    )
    stack = Stack(config)

    def stop_everything() -> None:
        stack.stop()
        if redis_proc is not None and redis_proc.poll() is None:
            redis_proc.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                redis_proc.wait(timeout=5)

    def on_signal(signum, frame) -> None:
        raise KeyboardInterrupt(f"signal {signum}")

    atexit.register(stop_everything)
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)  # also when started in the background with SIGINT ignored
    results: dict = {
        "meta": {
            "started": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
            "host": platform.node(),
            "cpus": psutil.cpu_count(),
            "load_average_at_start": [round(x, 2) for x in os.getloadavg()],
            "python": platform.python_version(),
            "git": _git_revision(),
            "git_dirty_files": _git_dirty(),
            "argv": sys.argv[1:],
            "smoke": args.smoke,
        },
        "config": {key: value for key, value in vars(args).items() if key not in ("json_out",)},
        "runs": [],
        "harness_errors": [],
    }
    started = time.monotonic()
    try:
        if redis_proc is not None:
            _wait_redis(args.redis_url)
        if measure.database_ensure(args.database_url):
            print(f"bench: created database {measure.pg_conninfo(args.database_url)['dbname']}", flush=True)
        db = measure.Database(args.database_url)
        try:
            used, limit = db.connections_total()
            results["meta"]["postgres_connections_at_start"] = f"{used}/{limit}"
            stack.migrate()
            if args.reset:
                db.reset()
                redis.Redis.from_url(args.redis_url).flushdb()
        finally:
            db.close()
        stack.start_model()
        if "cost" in args.scenarios:
            results["sql_statements"] = _query_counts(stack, log_dir)
            redis.Redis.from_url(args.redis_url).delete("celery")
        stack.start_web()
        stack.start_workers()
        stack.wait_ready()
        for item in args.pin:
            role, cpus = item.split("=", 1)
            count = stack.pin(role, [int(cpu) for cpu in cpus.split(",")])
            results["meta"].setdefault("pinned", {})[role] = f"{count} processes on CPU {cpus}"
        results["meta"]["stack_ready_s"] = round(time.monotonic() - started, 1)
        asyncio.run(_amain(args, stack, results))
    except KeyboardInterrupt:
        results["harness_errors"].append("interrupted")
    except Exception as error:
        results["harness_errors"].append(f"{type(error).__name__}: {error}")
        import traceback

        traceback.print_exc()
    finally:
        results["meta"]["model_server"] = _safe(lambda: http_json(f"{stack.model_url}/stats"))
        stop_everything()
        results["meta"]["elapsed_s"] = round(time.monotonic() - started, 1)
    results["targets"] = targets(results)
    if results["runs"]:
        print()
        print(table(results))
        print()
        print(targets_text(results["targets"], results["runs"]))
    if args.json_out:
        Path(args.json_out).write_text(json.dumps(results, indent=2, default=str))
        print(f"\nbench: results written to {args.json_out}")
    for error in results["harness_errors"]:
        print(f"bench: harness error: {error}", file=sys.stderr)
    if results["harness_errors"]:
        return 2
    if args.smoke and not any(run.get("turns") or run.get("accepted") for run in results["runs"]):
        return 1
    if args.enforce and any(target["met"] is False for target in results["targets"]):
        return 1
    return 0


def _safe(function):
    try:
        return function()
    except Exception as error:
        return {"error": str(error)}


def _git_revision() -> str:
    with contextlib.suppress(Exception):
        argv = ["git", "rev-parse", "--short", "HEAD"]
        return subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=5).stdout.strip()  # noqa: S603
    return ""


def _git_dirty() -> int:
    """How many files differ from HEAD: the tree is shared and changes while we measure."""
    with contextlib.suppress(Exception):
        argv = ["git", "status", "--short"]
        return len(subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=5).stdout.splitlines())  # noqa: S603
    return -1


def _wait_redis(url: str) -> None:
    deadline = time.monotonic() + 10
    while True:
        try:
            redis.Redis.from_url(url, socket_connect_timeout=1).ping()
            return
        except redis.RedisError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def _query_counts(stack: Stack, log_dir: Path) -> dict:
    out = log_dir / "sql-statements.json"
    subprocess.run(  # noqa: S603
        [sys.executable, "-m", "bench.querycount", "--fake-model-url", stack.model_url, "--json", str(out)],
        cwd=ROOT,
        env=stack.env(db_pool=4),
        check=True,
        timeout=120,
    )
    return json.loads(out.read_text())


if __name__ == "__main__":
    sys.exit(main())
