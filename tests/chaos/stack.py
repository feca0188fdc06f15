"""The whole product on private servers, for breaking: Postgres, Redis, web, workers, beat.

Everything runs as in production (uvicorn, `celery -A bookly_project worker` with its default
options, `celery beat`), against a private Postgres cluster and a private Redis that the
fault tests stop, wipe and restart. The model is the fake Messages API server (tests/fakes.py)
in the test process, so a test decides what the model does at each moment.
"""

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import psycopg
from celery import Celery

from bench.stack import die_with_parent, free_port
from tests.fakes import FakeAnthropicServer, FakeReply, text_reply
from tests.private import PrivatePostgres, PrivateRedis, celery_app_for

ROOT = Path(__file__).resolve().parents[2]
LOGS = ROOT / "artifacts" / "chaos"

# Short clocks so faults resolve in seconds, not minutes; each is an ordinary setting.
CHAOS_SETTINGS = {
    "RUN_STALE_AFTER_SECONDS": "12",  # a silent run (dead worker) is taken over after this
    "RUN_REDISPATCH_AFTER_SECONDS": "10",  # a queued run whose task went missing is sent again
    "RUN_DEADLINE_SECONDS": "10",  # a turn ends itself (failed/timeout) after this
    "RUN_EXPIRE_AFTER_SECONDS": "600",
    "SWEEP_INTERVAL_SECONDS": "2",
    "MODEL_BREAKER_THRESHOLD": "5",
    "MODEL_BREAKER_COOLDOWN_SECONDS": "3",
    "MODEL_RETRY_BASE_SECONDS": "0.2",
    "MODEL_RETRY_MAX_SECONDS": "1",
    "ANTHROPIC_TIMEOUT_SECONDS": "30",
    "THROTTLE_MESSAGES": "100000/min",
    "THROTTLE_THREADS": "100000/min",
    # Every simulated customer comes from 127.0.0.1: the per-address limits would count them as one.
    "THROTTLE_MESSAGES_PER_ADDRESS": "100000/min",
    "THROTTLE_THREADS_PER_ADDRESS": "100000/min",
    "THROTTLE_SESSIONS_PER_ADDRESS": "100000/min",
    "DB_POOL_MAX_SIZE": "10",
    "DB_POOL_TIMEOUT": "3",
}


@dataclass
class Process:
    name: str
    popen: subprocess.Popen
    log: Path
    log_start: int = 0  # where this start's output begins in the (appended) log

    def alive(self) -> bool:
        return self.popen.poll() is None

    def signal(self, signum: int) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.popen.pid, signum)

    def stop(self, timeout: float = 20.0) -> None:
        self.signal(signal.SIGTERM)
        try:
            self.popen.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.signal(signal.SIGKILL)
            self.popen.wait()

    def log_text(self) -> str:
        """What this start of the process has logged."""
        with open(self.log, "rb") as log:
            log.seek(self.log_start)
            return log.read().decode(errors="replace")


class ChaosStack:
    def __init__(self) -> None:
        self.postgres = PrivatePostgres()
        self.redis = PrivateRedis()
        self.model = FakeAnthropicServer()
        self.model_behaviour: callable = lambda body: text_reply("Happy to help with that.")
        self.web_port = free_port()
        self.web_url = f"http://127.0.0.1:{self.web_port}"
        self.workers: dict[str, Process] = {}
        self.others: list[Process] = []
        self.tmp = Path(tempfile.mkdtemp(prefix="bookly-chaos-"))
        LOGS.mkdir(parents=True, exist_ok=True)
        for old in LOGS.glob("*.log"):
            old.unlink()

    # --- start and stop ---------------------------------------------------------------------

    def env(self) -> dict[str, str]:
        return {
            **os.environ,
            "DATABASE_URL": self.postgres.url,
            "REDIS_URL": self.redis.url,
            "BOOKLY_LLM": "anthropic",
            "ANTHROPIC_BASE_URL": self.model.url,
            "ANTHROPIC_API_KEY": "sk-ant-chaos",
            "DEBUG": "false",
            "LOG_LEVEL": "INFO",
            "PYTHONUNBUFFERED": "1",
            **CHAOS_SETTINGS,
        }

    def start(self) -> "ChaosStack":
        self.postgres.start()
        self.redis.start()
        self.model.responder = lambda body: self.model_behaviour(body)
        self.model.start()
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "-v0", "--no-input"], cwd=ROOT, env=self.env(), check=True
        )
        self.others.append(
            self._spawn(
                "web",
                [
                    sys.executable,
                    "-m",
                    "uvicorn",
                    "bookly_project.asgi:application",
                    "--port",
                    str(self.web_port),
                    "--workers",
                    "1",
                    "--no-access-log",
                    "--lifespan",
                    "off",
                ],
            )
        )
        self.others.append(
            self._spawn(
                "beat",
                [
                    sys.executable,
                    "-m",
                    "celery",
                    "-A",
                    "bookly_project",
                    "beat",
                    "--loglevel",
                    "INFO",
                    "--schedule",
                    str(self.tmp / "celerybeat-schedule"),
                ],
            )
        )
        for name in ("w1", "w2"):
            self.start_worker(name)
        self._wait(lambda: self._http_ok("/healthz"), "web")
        for name in self.workers:
            self.wait_worker_ready(name)
        return self

    def stop(self) -> None:
        for process in [*self.workers.values(), *self.others]:
            process.stop()
        self.model.stop()
        self.redis.stop()
        self.postgres.remove()
        shutil.rmtree(self.tmp, ignore_errors=True)

    def _spawn(self, name: str, argv: list[str]) -> Process:
        log = LOGS / f"{name}.log"
        log_start = log.stat().st_size if log.exists() else 0
        with open(log, "a") as out:
            popen = subprocess.Popen(
                argv,
                cwd=ROOT,
                env=self.env(),
                stdout=out,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
                preexec_fn=die_with_parent,
            )
        return Process(name=name, popen=popen, log=log, log_start=log_start)

    def start_worker(self, name: str, concurrency: int = 50) -> Process:
        """`celery -A bookly_project worker` as people type it, plus the pool, a name and a log level."""
        argv = [sys.executable, "-m", "celery", "-A", "bookly_project", "worker", "--pool", "threads"]
        argv += ["--concurrency", str(concurrency), "--hostname", f"{name}@%h", "--loglevel", "INFO"]
        process = self.workers[name] = self._spawn(f"worker-{name}", argv)
        return process

    def wait_worker_ready(self, name: str, timeout: float = 60.0) -> None:
        process = self.workers[name]
        self._wait(lambda: " ready." in process.log_text(), name, timeout)

    def _http_ok(self, path: str) -> bool:
        import httpx2

        try:
            return httpx2.get(self.web_url + path, timeout=2).status_code == 200
        except httpx2.HTTPError:
            return False

    @staticmethod
    def _wait(predicate, what: str, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while not predicate():
            if time.monotonic() > deadline:
                raise RuntimeError(f"{what} not ready after {timeout:.0f} s; logs in {LOGS}")
            time.sleep(0.2)

    # --- looking at it ------------------------------------------------------------------------

    def sql(self, query: str, params: tuple = ()) -> list[tuple]:
        with psycopg.connect(self.postgres.url, connect_timeout=5) as conn:
            return conn.execute(query, params).fetchall()

    def celery(self) -> Celery:
        """A Celery app on the private broker, for publishing tasks as the web does."""
        return celery_app_for(self.redis.url)


def slow_reply(seconds: float, text: str = "Happy to help with that.") -> FakeReply:
    reply = text_reply(text)
    reply.delay = seconds
    return reply
