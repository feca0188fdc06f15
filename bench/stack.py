"""The processes under test, started and always stopped by the harness.

Each process gets its own process group (so its children are stopped with it) and a
parent-death signal (so it is stopped even if the harness is killed). `Stack.stop()` is
idempotent and runs from `finally`, atexit and the SIGINT/SIGTERM handlers of bench/run.py.
"""

import contextlib
import ctypes
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parent.parent
_PR_SET_PDEATHSIG = 1


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def http_json(url: str, body: dict | None = None, timeout: float = 5.0) -> dict:
    """GET (or POST `body` to) one of our own loopback endpoints; the JSON answer."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})  # noqa: S310
    with urllib.request.urlopen(request, timeout=timeout) as response:  # noqa: S310 - http://127.0.0.1 only
        return json.loads(response.read())


def die_with_parent() -> None:  # runs in the child between fork and exec
    with contextlib.suppress(Exception):
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)


def _is_resource_tracker(process: psutil.Process) -> bool:
    with contextlib.suppress(psutil.Error):
        return "resource_tracker" in " ".join(process.cmdline())
    return False


@dataclass
class Proc:
    role: str  # web | worker | model | redis | in_request
    name: str
    popen: subprocess.Popen
    log_path: Path

    @property
    def pid(self) -> int:
        return self.popen.pid

    def processes(self) -> list[psutil.Process]:
        """The process and its live descendants (uvicorn workers, prefork children)."""
        try:
            top = psutil.Process(self.pid)
            return [top, *top.children(recursive=True)]
        except psutil.NoSuchProcess:
            return []

    def log_tail(self, chars: int = 3000) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-chars:]
        except OSError:
            return ""


@dataclass
class StackConfig:
    database_url: str
    redis_url: str
    web_workers: int = 2
    worker_count: int = 1
    worker_pool: str = "threads"
    worker_concurrency: int = 100
    worker_loglevel: str = "INFO"
    db_pool_web: int = 20
    db_pool_worker: int = 20
    model_latency: float = 2.0
    model_script: str = "single"
    order_id: str = "BK-10042"
    order_email: str = "alice@example.com"
    uvicorn_args: list[str] = field(default_factory=list)
    extra_env: dict[str, str] = field(default_factory=dict)
    log_dir: Path = ROOT / "var" / "bench"


class Stack:
    def __init__(self, config: StackConfig) -> None:
        self.config = config
        self.procs: list[Proc] = []
        self.web_port = free_port()
        self.model_port = free_port()
        self.web_url = f"http://127.0.0.1:{self.web_port}"
        self.model_url = f"http://127.0.0.1:{self.model_port}"
        self.worker_names: list[str] = []
        config.log_dir.mkdir(parents=True, exist_ok=True)

    # --- environment ---------------------------------------------------------------------

    def env(self, *, db_pool: int) -> dict[str, str]:
        """What every Bookly process of the bench sees: bench DB and Redis, the fake model."""
        env = {
            **os.environ,
            "DATABASE_URL": self.config.database_url,
            "REDIS_URL": self.config.redis_url,
            "BOOKLY_LLM": "anthropic",
            "ANTHROPIC_BASE_URL": self.model_url,
            "ANTHROPIC_API_KEY": "bench",
            "ANTHROPIC_TIMEOUT_SECONDS": "30",
            # Every simulated customer comes from 127.0.0.1: limits off, per session and per address.
            "THROTTLE_MESSAGES": "100000/min",
            "THROTTLE_THREADS": "100000/min",
            "THROTTLE_MESSAGES_PER_ADDRESS": "100000/min",
            "THROTTLE_THREADS_PER_ADDRESS": "100000/min",
            "THROTTLE_SESSIONS_PER_ADDRESS": "100000/min",
            "DB_POOL_MAX_SIZE": str(db_pool),
            "DEBUG": "false",
            "LOG_LEVEL": "WARNING",
            "PYTHONUNBUFFERED": "1",
            "DJANGO_SETTINGS_MODULE": "bookly_project.settings",
        }
        env.update(self.config.extra_env)
        return env

    def _spawn(self, role: str, name: str, argv: list[str], env: dict[str, str]) -> Proc:
        log_path = self.config.log_dir / f"{name}.log"
        with open(log_path, "w") as log:
            popen = subprocess.Popen(  # noqa: S603 - argv built here from our own options
                argv,
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
                preexec_fn=die_with_parent,
            )
        proc = Proc(role=role, name=name, popen=popen, log_path=log_path)
        self.procs.append(proc)
        return proc

    # --- start -------------------------------------------------------------------------------

    def migrate(self) -> None:
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "-v0", "--no-input"],
            cwd=ROOT,
            env=self.env(db_pool=0),
            check=True,
            timeout=120,
        )

    def start_model(self) -> None:
        self._spawn(
            "model",
            "fake-model",
            [
                sys.executable,
                "-m",
                "bench.fake_model",
                "--port",
                str(self.model_port),
                "--latency",
                str(self.config.model_latency),
                "--script",
                self.config.model_script,
                "--order-id",
                self.config.order_id,
                "--order-email",
                self.config.order_email,
            ],
            {**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        self._wait_http(f"{self.model_url}/stats", "fake-model")

    def start_web(self) -> None:
        argv = [
            sys.executable,
            "-m",
            "uvicorn",
            "bookly_project.asgi:application",
            "--host",
            "127.0.0.1",
            "--port",
            str(self.web_port),
            "--workers",
            str(self.config.web_workers),
            "--no-access-log",
            "--log-level",
            "warning",
            "--lifespan",
            "off",
            "--backlog",
            "4096",
            "--timeout-keep-alive",
            "60",
            *self.config.uvicorn_args,
        ]
        self._spawn("web", "web", argv, {**self.env(db_pool=self.config.db_pool_web), "BENCH_ROLE": "web"})

    def start_in_request(self) -> str:
        """The in-request baseline (bench/in_request.py) against the same fake model; its URL."""
        port = free_port()
        argv = [sys.executable, "-m", "bench.in_request", "--port", str(port), "--model-url", self.model_url]
        self._spawn("in_request", "in-request", argv, {**self.env(db_pool=0), "BENCH_ROLE": "in_request"})
        url = f"http://127.0.0.1:{port}"
        self._wait_http(f"{url}/healthz", "in-request")
        return url

    def stop_role(self, role: str) -> None:
        """Stop the processes of one role (the baseline, once measured) and forget them."""
        for proc in self.by_role(role):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.popen.wait(timeout=10)
        self.procs = [proc for proc in self.procs if proc.role != role]

    def restart_workers(self, *, pool: str, count: int) -> None:
        """Stop the workers and start `count` new ones with `pool` ("settings": the plain command)."""
        self.stop_role("worker")
        self.worker_names = []
        self.config.worker_pool, self.config.worker_count = pool, count
        self.start_workers()
        self._wait_workers(timeout=60.0)

    def start_workers(self) -> None:
        host = socket.gethostname()
        for index in range(self.config.worker_count):
            name = f"bench{index + 1}"
            self.worker_names.append(f"{name}@{host}")
            self._spawn(
                "worker",
                f"worker-{index + 1}",
                [
                    sys.executable,
                    "-m",
                    "celery",
                    "-A",
                    "bookly_project",
                    "worker",
                    *self._pool_args(),
                    "--loglevel",
                    self.config.worker_loglevel,
                    "--without-mingle",
                    "--without-gossip",
                    "--hostname",
                    f"{name}@%h",
                ],
                {**self.env(db_pool=self.config.db_pool_worker), "BENCH_ROLE": "worker"},
            )

    def _pool_args(self) -> list[str]:
        """--pool/--concurrency, unless the worker runs as plainly started (pool "settings")."""
        if self.config.worker_pool == "settings":
            return []
        return ["--pool", self.config.worker_pool, "--concurrency", str(self.config.worker_concurrency)]

    def wait_ready(self, timeout: float = 60.0) -> None:
        self._wait_http(f"{self.web_url}/healthz", "web", timeout=timeout)
        self._wait_workers(timeout=timeout)

    def _wait_http(self, url: str, name: str, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while True:
            self._check_alive()
            try:
                with urllib.request.urlopen(url, timeout=2) as response:  # noqa: S310 - loopback URL we built
                    if response.status == 200:
                        return
            except (urllib.error.URLError, OSError):
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"{name} did not become ready at {url}")
            time.sleep(0.2)

    def _wait_workers(self, timeout: float) -> None:
        """Every worker answers a broadcast ping (so it consumes from the queue)."""
        from celery import Celery

        app = Celery(broker=self.config.redis_url)
        try:
            deadline = time.monotonic() + timeout
            while True:
                self._check_alive()
                replies = app.control.ping(timeout=1.0) or []
                seen = {name for reply in replies for name in reply}
                if set(self.worker_names) <= seen:
                    return
                if time.monotonic() > deadline:
                    raise RuntimeError(f"workers not ready: {sorted(set(self.worker_names) - seen)}")
                time.sleep(0.3)
        finally:
            app.close()

    def _check_alive(self) -> None:
        for proc in self.procs:
            if proc.popen.poll() is not None:
                raise RuntimeError(f"{proc.name} exited with {proc.popen.returncode}; log tail:\n{proc.log_tail()}")

    def pin(self, role: str, cpus: list[int]) -> int:
        """Pin every process of a role (children included) to `cpus`; how many processes were pinned.

        An experiment switch (`bench.run --pin web=0 --pin worker=1`): does a tier answer faster with a
        core of its own than when it shares both cores with the others?"""
        pinned = 0
        for proc in self.by_role(role):
            for process in proc.processes():
                try:
                    process.cpu_affinity(cpus)
                    pinned += 1
                except psutil.NoSuchProcess:
                    continue
        return pinned

    def by_role(self, role: str) -> list[Proc]:
        return [proc for proc in self.procs if proc.role == role]

    def pids(self, role: str) -> list[int]:
        return [process.pid for proc in self.by_role(role) for process in proc.processes()]

    def busy_pids(self, role: str) -> list[int]:
        """The processes that do the work: uvicorn's workers (not its supervisor), each celery worker."""
        pids = []
        for proc in self.by_role(role):
            processes = proc.processes()
            children = [process for process in processes[1:] if not _is_resource_tracker(process)]
            if role == "web" and children:
                pids.extend(process.pid for process in children)
            elif processes:
                pids.append(processes[0].pid)
        return pids

    # --- stop --------------------------------------------------------------------------------

    def stop(self, grace: float = 10.0) -> None:
        """SIGTERM every process group, then SIGKILL whatever is left after `grace` seconds."""
        running = [proc for proc in self.procs if proc.popen.poll() is None]
        for proc in running:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, signal.SIGTERM)
        deadline = time.monotonic() + grace
        for proc in running:
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.popen.wait(timeout=max(0.1, deadline - time.monotonic()))
        for proc in self.procs:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, signal.SIGKILL)
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.popen.wait(timeout=5)
        self.procs.clear()
