"""The plain `celery -A bookly_project worker` runs turns with the pool and concurrency of the settings."""

import re
import socket
import sys
import time
from pathlib import Path

import pytest

from bookly_project.celery import app as celery_app
from tests.conftest import managed_process, server_env

pytestmark = pytest.mark.worker

DEFAULT_CONCURRENCY = 200  # CELERY_WORKER_CONCURRENCY's default (docs/performance.md §12.2)


def _worker_stats(hostname: str) -> dict:
    """`inspect stats` of one worker, by node name, once it answers (the banner comes before it consumes)."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        replies = celery_app.control.inspect(destination=[hostname], timeout=2).stats() or {}
        if hostname in replies:
            return replies[hostname]
    raise AssertionError(f"{hostname} did not answer inspect stats")


def _banner_printed(log: Path) -> bool:
    return "[queues]" in log.read_text()


@pytest.mark.parametrize("extra", [[], ["--loglevel", "INFO"]], ids=["plain", "loglevel-info"])
def test_the_plain_worker_command_runs_the_threads_pool_at_the_configured_concurrency(
    django_db_setup, _clean_broker, extra
):
    # No WORKER_* variable: what someone typing the command gets from the settings' defaults.
    env = {key: value for key, value in server_env().items() if not key.startswith("WORKER_")}
    args = [sys.executable, "-m", "celery", "-A", "bookly_project", "worker", *extra]
    with managed_process(args, env=env, name="plain-worker", ready=_banner_printed) as log:
        stats = _worker_stats(f"celery@{socket.gethostname()}")
        banner = log.read_text()

    assert re.search(rf"concurrency:\s+{DEFAULT_CONCURRENCY} \(thread\)", banner), banner[:2000]
    assert stats["pool"]["max-concurrency"] == DEFAULT_CONCURRENCY
    assert stats["pool"]["implementation"] == "celery.concurrency.thread:TaskPool"
    # one task reserved per thread (WORKER_PREFETCH_MULTIPLIER=1)
    assert stats["prefetch_count"] == DEFAULT_CONCURRENCY


def test_worker_concurrency_is_read_from_the_environment(django_db_setup, _clean_broker):
    env = {**server_env(), "WORKER_CONCURRENCY": "7"}
    args = [sys.executable, "-m", "celery", "-A", "bookly_project", "worker", "--hostname", "env-worker@%h"]
    with managed_process(args, env=env, name="env-worker", ready=_banner_printed):
        stats = _worker_stats(f"env-worker@{socket.gethostname()}")
    assert stats["pool"]["max-concurrency"] == 7
