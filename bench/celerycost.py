"""Celery's own CPU per task: a worker as `make run` starts it, fed tasks that do nothing.

    .venv/bin/python -m bench.celerycost [--tasks 3000] [--events on|off|both]

The figure is the floor under every agent turn: receiving, acking (acks_late), the
threads pool and, when Flower watches, the three task events. It publishes the built-in
`celery.accumulate` task (returns its argument) from this process and measures the
worker's CPU (psutil) from the first task received to the last one done.
"""

import argparse
import os
import sys
import time

import psutil
import redis

from bench.stack import ROOT, Stack, StackConfig


def _worker_cpu(processes: list[psutil.Process]) -> float:
    return sum(p.cpu_times().user + p.cpu_times().system for p in processes)


def measure(redis_url: str, tasks: int, events: bool, concurrency: int) -> dict:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bookly_project.settings")
    os.environ["REDIS_URL"] = redis_url
    from bookly_project.celery import app

    broker = redis.Redis.from_url(redis_url)
    broker.flushdb()
    database_url = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/bookly_bench")
    config = StackConfig(
        database_url=database_url, redis_url=redis_url, worker_concurrency=concurrency, worker_loglevel="WARNING"
    )
    stack = Stack(config)
    stack.start_workers()
    try:
        deadline = time.monotonic() + 60
        while not app.control.ping(timeout=0.5, destination=stack.worker_names):
            if time.monotonic() > deadline:
                raise RuntimeError(stack.procs[0].log_tail())
        if events:  # what Flower does while it runs
            app.control.enable_events(destination=stack.worker_names)
        processes = [p for proc in stack.by_role("worker") for p in proc.processes()]
        with app.producer_or_acquire() as producer:
            for index in range(50):  # warm-up
                app.send_task("celery.accumulate", args=[index], ignore_result=True, producer=producer)
        while broker.llen("celery"):
            time.sleep(0.05)
        time.sleep(0.5)
        before = _worker_cpu(processes)
        started = time.perf_counter()
        with app.producer_or_acquire() as producer:
            for index in range(tasks):
                app.send_task("celery.accumulate", args=[index], ignore_result=True, producer=producer)
        while broker.llen("celery") or broker.hlen("unacked"):
            time.sleep(0.02)
        wall = time.perf_counter() - started
        cpu = _worker_cpu(processes) - before
    finally:
        stack.stop()
        broker.flushdb()
    return {
        "events": events,
        "tasks": tasks,
        "cpu_ms_per_task": round(cpu * 1000 / tasks, 2),
        "tasks_per_s": tasks / wall,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tasks", type=int, default=3000)
    parser.add_argument("--concurrency", type=int, default=100)
    parser.add_argument("--events", choices=["on", "off", "both"], default="both")
    parser.add_argument("--redis-url", default=None, help="default: a db of the local Redis")
    args = parser.parse_args()
    redis_url = args.redis_url or os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/6")
    for events in {"on": [True], "off": [False], "both": [False, True]}[args.events]:
        result = measure(redis_url, args.tasks, events, args.concurrency)
        print(
            f"events {'on ' if events else 'off'}  {result['tasks']} tasks  "
            f"{result['cpu_ms_per_task']:.2f} ms worker CPU/task  {result['tasks_per_s']:.0f} tasks/s",
            flush=True,
        )


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    main()
