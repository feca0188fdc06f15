"""What the harness measures besides the clients: CPU, memory, the database, Redis, profiles.

- CPU: psutil `cpu_times` (user + system) of each process class, before and after a window.
  Postgres backends are the ones connected to the bench database (pg_stat_activity);
  Redis is the redis-server process listening on the bench port (shared with other users
  of that server unless the harness started a private one).
- The database: runs queued / in_progress sampled every 0.5 s (tasks in flight), runs left
  unfinished after a grace period (stuck), and `pg_stat_database` transaction and tuple
  counters of the bench database.
- Profiles: `py-spy record --nonblocking` on chosen pids, summarised to top frames.
"""

import asyncio
import contextlib
import shutil
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import environ
import psutil
import psycopg
import psycopg.sql
import redis

# --- CPU and memory --------------------------------------------------------------------------


def cpu_seconds(pids: list[int]) -> dict[int, float]:
    """user + system CPU seconds of each live pid (dead ones are skipped)."""
    out = {}
    for pid in pids:
        with contextlib.suppress(psutil.NoSuchProcess, psutil.AccessDenied):
            times = psutil.Process(pid).cpu_times()
            out[pid] = times.user + times.system
    return out


def cpu_delta(before: dict[int, float], after: dict[int, float]) -> float:
    """CPU seconds spent between two snapshots; a pid new in `after` counts from zero."""
    return sum(value - before.get(pid, 0.0) for pid, value in after.items())


def rss_bytes(pids: list[int]) -> int:
    total = 0
    for pid in pids:
        with contextlib.suppress(psutil.NoSuchProcess, psutil.AccessDenied):
            total += psutil.Process(pid).memory_info().rss
    return total


def redis_server_pids(port: int) -> list[int]:
    pids = []
    for process in psutil.process_iter(["name", "cmdline"]):
        with contextlib.suppress(psutil.NoSuchProcess, psutil.AccessDenied):
            if process.info["name"] == "redis-server" and any(
                f":{port}" in part or part == str(port) for part in process.info["cmdline"] or []
            ):
                pids.append(process.pid)
    return pids


# --- The database ------------------------------------------------------------------------------


def pg_conninfo(database_url: str) -> dict:
    db = environ.Env.db_url_config(database_url)
    return {
        "host": db["HOST"] or "127.0.0.1",
        "port": db["PORT"] or 5432,
        "user": db["USER"] or "postgres",
        "password": db["PASSWORD"] or None,
        "dbname": db["NAME"],
    }


def database_ensure(database_url: str) -> bool:
    """Create the bench database if it is missing (only names with 'bench' or 'test'); True if created."""
    info = pg_conninfo(database_url)
    name = info["dbname"]
    try:
        psycopg.connect(**info, connect_timeout=5).close()
        return False
    except psycopg.OperationalError as error:
        if "does not exist" not in str(error) or not any(word in name for word in ("bench", "test")):
            raise
    with psycopg.connect(**{**info, "dbname": "postgres"}, autocommit=True, connect_timeout=5) as admin:
        admin.execute(psycopg.sql.SQL("CREATE DATABASE {}").format(psycopg.sql.Identifier(name)))
    return True


class Database:
    """A direct psycopg connection to the bench database for the harness's own reads."""

    def __init__(self, database_url: str) -> None:
        self.info = pg_conninfo(database_url)
        self.name = self.info["dbname"]
        self.conn = psycopg.connect(**self.info, autocommit=True, connect_timeout=5)

    def close(self) -> None:
        self.conn.close()

    def scalar(self, sql: str, params: tuple = ()):
        return self.conn.execute(sql, params).fetchone()[0]

    def reset(self) -> None:
        """Empty the chat tables and sessions (the bench database only)."""
        self.conn.execute(
            "TRUNCATE chat_toolcall, chat_modelcall, chat_run, chat_message, chat_thread, django_session CASCADE"
        )

    def backend_pids(self) -> list[int]:
        rows = self.conn.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()", (self.name,)
        ).fetchall()
        return [row[0] for row in rows]

    def connections(self) -> int:
        return self.scalar("SELECT count(*) FROM pg_stat_activity WHERE datname = %s", (self.name,))

    def connections_total(self) -> tuple[int, int]:
        used = self.scalar("SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend'")
        return used, int(self.scalar("SHOW max_connections"))

    def run_counts(self, since) -> dict[str, int]:
        rows = self.conn.execute(
            "SELECT status, count(*) FROM chat_run WHERE status IN ('queued', 'in_progress') AND created_at >= %s "
            "GROUP BY status",
            (since,),
        ).fetchall()
        return dict(rows)

    def now(self):
        return self.scalar("SELECT clock_timestamp()")

    def xact_stats(self) -> dict[str, int]:
        """Cumulative counters of the bench database (flushed by backends within ~1 s)."""
        row = self.conn.execute(
            "SELECT xact_commit, xact_rollback, tup_returned, tup_fetched, tup_inserted, tup_updated, tup_deleted "
            "FROM pg_stat_database WHERE datname = %s",
            (self.name,),
        ).fetchone()
        keys = (
            "xact_commit",
            "xact_rollback",
            "tup_returned",
            "tup_fetched",
            "tup_inserted",
            "tup_updated",
            "tup_deleted",
        )
        return dict(zip(keys, row, strict=True))

    def settle(self, since, grace: float) -> dict[str, int]:
        """Wait up to `grace` s for runs created since `since` to finish; return those left unfinished."""
        deadline = time.monotonic() + grace
        while True:
            counts = self.run_counts(since)
            if not counts or time.monotonic() > deadline:
                return counts
            time.sleep(0.5)

    def run_outcomes(self, since) -> list[tuple[str, str, float | None]]:
        """(status, error_code, seconds from created to completed) of every run created since `since`."""
        return self.conn.execute(
            "SELECT status, error_code, EXTRACT(EPOCH FROM completed_at - created_at)::float FROM chat_run "
            "WHERE created_at >= %s",
            (since,),
        ).fetchall()

    def cancel_unfinished(self, since) -> int:
        """End a backlog left by an open-loop scenario so the next scenario starts clean."""
        return self.conn.execute(
            "UPDATE chat_run SET status = 'cancelled', error_code = 'bench_cancelled', completed_at = now() "
            "WHERE status IN ('queued', 'in_progress') AND created_at >= %s",
            (since,),
        ).rowcount


@dataclass
class Samples:
    in_progress: list[int] = field(default_factory=list)
    queued: list[int] = field(default_factory=list)
    broker_queue: list[int] = field(default_factory=list)
    worker_rss: list[int] = field(default_factory=list)
    db_connections: list[int] = field(default_factory=list)

    def summary(self) -> dict:
        def stats(values: list[int]) -> dict:
            return {"max": max(values), "mean": round(sum(values) / len(values), 1)} if values else {}

        return {
            "in_progress": stats(self.in_progress),
            "queued": stats(self.queued),
            "broker_queue": stats(self.broker_queue),
            "db_connections": stats(self.db_connections),
            "worker_rss_peak_mb": round(max(self.worker_rss, default=0) / 2**20, 1),
            "samples": len(self.queued),
        }


async def sample(
    db: Database, broker: redis.Redis, worker_pids, since, stop: asyncio.Event, samples: Samples, interval: float = 0.5
) -> None:
    """Every `interval` s until `stop`: runs in flight and queued, broker queue length, worker RSS."""
    while not stop.is_set():
        counts = await asyncio.to_thread(db.run_counts, since)
        samples.in_progress.append(counts.get("in_progress", 0))
        samples.queued.append(counts.get("queued", 0))
        with contextlib.suppress(redis.RedisError):
            samples.broker_queue.append(await asyncio.to_thread(broker.llen, "celery"))
        samples.worker_rss.append(rss_bytes(worker_pids()))
        samples.db_connections.append(await asyncio.to_thread(db.connections))
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), timeout=interval)


# --- Redis --------------------------------------------------------------------------------------


def redis_commands(client: redis.Redis) -> dict[str, int]:
    """Per-command call counts of the server (all databases)."""
    stats = client.info("commandstats")
    return {name.removeprefix("cmdstat_"): value["calls"] for name, value in stats.items()}


def counter_delta(before: dict[str, int], after: dict[str, int]) -> dict[str, int]:
    return {key: after[key] - before.get(key, 0) for key in after if after[key] - before.get(key, 0)}


# --- Profiles -----------------------------------------------------------------------------------


def py_spy_available() -> str | None:
    beside = Path(sys.executable).parent / "py-spy"
    return str(beside) if beside.exists() else shutil.which("py-spy")


PY_SPY_RATE = 50  # samples per second


def py_spy_start(pid: int, seconds: float, out: Path, rate: int = PY_SPY_RATE) -> subprocess.Popen | None:
    """`py-spy record --nonblocking --gil` for `seconds`: raw (collapsed) stacks of the GIL holder to `out`.

    --gil samples only the thread holding the GIL, so the profile shows where the process's
    Python CPU goes, not where its threads wait (sockets, locks, the pool's queue).
    """
    binary = py_spy_available()
    if binary is None:
        return None
    return subprocess.Popen(  # noqa: S603
        [
            binary,
            "record",
            "--nonblocking",
            "--gil",
            "--format",
            "raw",
            "--rate",
            str(rate),
            "--duration",
            str(max(1, int(seconds))),
            "--pid",
            str(pid),
            "--output",
            str(out),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )


def _frame_name(frame: str) -> str:
    """'func (path/to/file.py:12)' → 'func (file.py)' stays readable and groups by function."""
    name, _, where = frame.partition(" (")
    where = where.rstrip(")")
    path = where.rsplit(":", 1)[0]
    for marker in ("site-packages/", "lib/python3.11/", "/work/main/"):
        if marker in path:
            path = path.split(marker, 1)[1]
            break
    return f"{name} ({path})"


def collapsed_summary(path: Path, top: int = 15) -> dict:
    """Top frames of a collapsed-stack file: self time and inclusive time, as % of samples."""
    self_time: Counter = Counter()
    total_time: Counter = Counter()
    modules: Counter = Counter()
    samples = 0
    try:
        lines = path.read_text(errors="replace").splitlines()
    except OSError:
        return {"samples": 0}
    for line in lines:
        stack, _, count_raw = line.rpartition(" ")
        if not stack or not count_raw.isdigit():
            continue
        count = int(count_raw)
        frames = [
            _frame_name(frame)
            for frame in stack.split(";")
            if frame and not frame.startswith("process ") and not frame.startswith("thread ")
        ]
        if not frames:
            continue
        samples += count
        self_time[frames[-1]] += count
        for frame in set(frames):
            total_time[frame] += count
        leaf_path = frames[-1].rsplit("(", 1)[-1].rstrip(")")
        modules[leaf_path.split("/")[0]] += count

    project = Counter(
        {
            name: value
            for name, value in total_time.items()
            if name.rsplit("(", 1)[-1].startswith(("chat/", "bookly_project/", "guardrails/", "orders/"))
        }
    )

    def pct(counter: Counter) -> list[tuple[str, float]]:
        return [(name, round(100 * value / samples, 1)) for name, value in counter.most_common(top)] if samples else []

    return {
        "samples": samples,
        "self": pct(self_time),
        "total": pct(total_time),
        "self_by_package": pct(modules),
        "project_total": pct(project),
    }
