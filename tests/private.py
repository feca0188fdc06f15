"""Private Redis and Postgres servers on free ports, for tests that break them.

The machine's shared servers are never stopped or flushed: a test that needs Redis or
Postgres to go away starts its own here, in a temporary directory, and always stops it.
"""

import contextlib
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import psycopg
import redis
from celery import Celery

from bench.stack import free_port


def _wait(predicate, what: str, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise RuntimeError(f"{what} did not come up in {timeout:.0f} s")
        time.sleep(0.05)


class PrivateRedis:
    """`redis-server` on a free port, no persistence: stopping it loses everything, as a restart would."""

    def __init__(self) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self._process: subprocess.Popen | None = None

    def start(self) -> "PrivateRedis":
        self._process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        _wait(self.answers, "redis-server")
        return self

    def stop(self) -> None:
        if self._process is not None and self._process.poll() is None:
            self._process.kill()
            self._process.wait()
        self._process = None

    def answers(self) -> bool:
        try:
            return redis.Redis(port=self.port, socket_timeout=0.5, socket_connect_timeout=0.5).ping()
        except redis.RedisError:
            return False

    def client(self) -> redis.Redis:
        return redis.Redis.from_url(self.url, socket_timeout=2)


@contextlib.contextmanager
def private_redis() -> Iterator[PrivateRedis]:
    server = PrivateRedis().start()
    try:
        yield server
    finally:
        server.stop()


def _postgres_program(name: str) -> str:
    """initdb and pg_ctl: on PATH, or where Debian's postgresql packages keep them."""
    found = shutil.which(name) or next(
        iter(sorted(Path("/usr/lib/postgresql").glob(f"*/bin/{name}"), reverse=True)), None
    )
    if found is None:
        raise RuntimeError(f"{name} not found: install the Postgres server programs (Debian: postgresql)")
    return str(found)


def _as_postgres_user() -> list[str]:
    """initdb and postgres refuse to run as root: run them as the `postgres` user then."""
    return ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []


class PrivatePostgres:
    """A throw-away Postgres cluster (`initdb` + `pg_ctl`) in a temporary directory, on a free port."""

    def __init__(self) -> None:
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="bookly-pg-"))
        self.data = self.dir / "data"
        self.url = f"postgres://postgres@127.0.0.1:{self.port}/bookly"
        self.log = self.dir / "postgres.log"

    def _run(self, program: str, *args: str) -> None:
        command = [*_as_postgres_user(), _postgres_program(program), *args]
        subprocess.run(command, check=True, capture_output=True, timeout=120)

    def start(self) -> "PrivatePostgres":
        if os.geteuid() == 0:
            shutil.chown(self.dir, "postgres", "postgres")
        if not self.data.exists():
            self._run("initdb", "-D", str(self.data), "-U", "postgres", "-A", "trust", "--no-sync")
            with open(self.data / "postgresql.conf", "a") as conf:
                conf.write("fsync = off\nsynchronous_commit = off\nfull_page_writes = off\nmax_connections = 200\n")
        self._run(
            "pg_ctl", "-D", str(self.data), "-l", str(self.log), "-w", "-o", f"-p {self.port} -k {self.dir}", "start"
        )
        _wait(self.answers, "postgres")
        with (
            contextlib.suppress(psycopg.errors.DuplicateDatabase),
            psycopg.connect(self.url.replace("/bookly", "/postgres"), autocommit=True) as conn,
        ):
            conn.execute("CREATE DATABASE bookly")
        return self

    def stop(self, mode: str = "fast") -> None:
        """`fast` closes every connection (a restart), `immediate` is a crash."""
        with contextlib.suppress(subprocess.CalledProcessError):
            self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop")

    def answers(self) -> bool:
        try:
            with psycopg.connect(self.url.replace("/bookly", "/postgres"), connect_timeout=1):
                return True
        except psycopg.Error:
            return False

    def remove(self) -> None:
        self.stop("immediate")
        shutil.rmtree(self.dir, ignore_errors=True)


@contextlib.contextmanager
def private_postgres() -> Iterator[PrivatePostgres]:
    server = PrivatePostgres().start()
    try:
        yield server
    finally:
        server.remove()


def celery_app_for(broker_url: str) -> Celery:
    """A Celery app configured like Bookly's (settings' CELERY_*), on another broker."""
    app = Celery("bookly-private-broker")
    app.config_from_object("django.conf:settings", namespace="CELERY")
    app.conf.broker_url = broker_url
    return app
