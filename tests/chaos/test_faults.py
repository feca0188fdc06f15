"""Faults injected under load, each checked over Postgres afterwards (`make chaos`; README "Reliability").

About 20 customers post and long-poll against the real web, two real workers and beat on a
private Postgres and Redis while one fault is injected. Afterwards: every 202 has exactly one
run and one stored message, every run is terminal within the stated bound, no run has two
replies or more model calls than attempts, and no request got a 500 (a 503 in the documented
error shape is a fine answer during an outage). Each test prints one JSON line of figures.
"""

import os
import re
import signal
import time

import pytest

from tests.chaos.customers import Outcome, Traffic, check_invariants, drive, settle
from tests.chaos.stack import ChaosStack, slow_reply
from tests.fakes import error_reply, hang

pytestmark = pytest.mark.chaos

CUSTOMERS = int(os.environ.get("CHAOS_CUSTOMERS", "20"))
REDIS_OUTAGE_SECONDS = float(os.environ.get("CHAOS_REDIS_OUTAGE_SECONDS", "30"))
POSTGRES_OUTAGE_SECONDS = float(os.environ.get("CHAOS_POSTGRES_OUTAGE_SECONDS", "10"))
STORM_SECONDS = float(os.environ.get("CHAOS_STORM_SECONDS", "60"))
# Every run must be terminal this long after its fault ends: the longest path is a run whose
# task was lost, found by the sweep (RUN_REDISPATCH_AFTER_SECONDS or RUN_STALE_AFTER_SECONDS,
# plus the sweep interval) and then waiting behind the runs queued before it in its thread.
SETTLE_BOUND_SECONDS = 90.0


def _interrupt(signum, frame):
    raise KeyboardInterrupt  # so the stack's private servers are stopped on SIGTERM too


@pytest.fixture(scope="session")
def stack():
    previous = signal.signal(signal.SIGTERM, _interrupt)
    chaos = ChaosStack()
    try:
        yield chaos.start()
    finally:
        chaos.stop()
        signal.signal(signal.SIGTERM, previous)


@pytest.fixture(autouse=True)
def _steady_stack(stack):
    """Each fault starts from a healthy stack with a model that answers in one second."""
    stack.model_behaviour = lambda body: slow_reply(1.0)
    for name, worker in stack.workers.items():
        if not worker.alive():
            stack.start_worker(name)
            stack.wait_worker_ready(name)
    yield
    stack.model_behaviour = lambda body: slow_reply(1.0)


def _deliveries(stack: ChaosStack) -> int:
    """run_turn tasks received by any worker so far (every start of every worker)."""
    return sum(
        len(re.findall(r"Task chat\.tasks\.run_turn\[[0-9a-f-]+\] received", log.read_text(errors="replace")))
        for log in stack.workers["w1"].log.parent.glob("worker-*.log")
    )


def run_fault(stack: ChaosStack, name: str, fault, **drive_options) -> tuple[Traffic, Outcome]:
    delivered_before = _deliveries(stack)
    traffic = drive(stack, fault, customers=CUSTOMERS, **drive_options)
    settle_seconds = settle(stack, traffic, bound=SETTLE_BOUND_SECONDS)
    outcome = check_invariants(stack, traffic, deliveries=_deliveries(stack) - delivered_before)
    outcome.settle_seconds = settle_seconds
    print(outcome.line(name, traffic))
    return traffic, outcome


def _wait_for(predicate, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.1)


def _runs_in_progress(stack: ChaosStack) -> int:
    return stack.sql("SELECT count(*) FROM chat_run WHERE status = 'in_progress'")[0][0]


# --- Redis ----------------------------------------------------------------------------------


def test_redis_stopped_while_customers_post(stack):
    """POSTs answer 202 (the run is stored; the sweep dispatches it when Redis is back); workers reconnect."""
    worker_pids = {name: worker.popen.pid for name, worker in stack.workers.items()}
    accepted_during = {}

    def fault():
        stack.redis.stop()
        time.sleep(REDIS_OUTAGE_SECONDS)
        accepted_during["runs"] = stack.sql("SELECT count(*) FROM chat_run WHERE dispatched_at IS NULL")[0][0]
        stack.redis.start()

    traffic, outcome = run_fault(stack, "redis_stopped", fault, before=3, after=5, think=1.0)
    assert accepted_during["runs"] > 0  # messages were accepted while Redis was away
    assert traffic.server_errors == 0
    assert outcome.by_status == {"completed": outcome.runs}
    for name, worker in stack.workers.items():
        assert worker.alive() and worker.popen.pid == worker_pids[name], f"worker {name} did not survive"


def test_redis_wiped_while_runs_are_queued_and_in_progress(stack):
    """FLUSHALL loses the queued tasks; the sweep sends them again, everything completes."""
    stack.model_behaviour = lambda body: slow_reply(3.0)

    def fault():
        _wait_for(lambda: _runs_in_progress(stack) > 0)
        stack.redis.client().flushall()

    _, outcome = run_fault(stack, "redis_flushall", fault, before=2, after=4, think=0.3)
    assert outcome.by_status == {"completed": outcome.runs}
    assert outcome.deliveries <= 2 * outcome.runs  # see README "Reliability": deliveries per run


def test_redis_restarted_empty_while_runs_are_queued_and_in_progress(stack):
    stack.model_behaviour = lambda body: slow_reply(3.0)
    worker_pids = {name: worker.popen.pid for name, worker in stack.workers.items()}

    def fault():
        _wait_for(lambda: _runs_in_progress(stack) > 0)
        stack.redis.stop()
        stack.redis.start()

    traffic, outcome = run_fault(stack, "redis_restarted_empty", fault, before=2, after=4, think=0.3)
    assert traffic.server_errors == 0
    assert outcome.by_status == {"completed": outcome.runs}
    assert outcome.deliveries <= 2 * outcome.runs  # see README "Reliability": deliveries per run
    for name, worker in stack.workers.items():
        assert worker.alive() and worker.popen.pid == worker_pids[name], f"worker {name} did not survive"


# --- Postgres -------------------------------------------------------------------------------


def test_postgres_restarted_under_load(stack):
    """Requests answer 503 meanwhile; runs hit by the restart are retried, not failed."""
    stack.model_behaviour = lambda body: slow_reply(1.5)

    def fault():
        _wait_for(lambda: _runs_in_progress(stack) > 0)
        stack.postgres.stop("fast")
        time.sleep(POSTGRES_OUTAGE_SECONDS)
        stack.postgres.start()

    traffic, outcome = run_fault(stack, "postgres_restarted", fault, before=3, after=6, think=1.0)
    assert traffic.statuses[503] > 0  # the outage was seen, and answered in the documented shape
    assert "internal_error" not in outcome.error_codes
    assert outcome.by_status == {"completed": outcome.runs}
    assert outcome.retried > 0  # turns cut by the restart were queued again, not failed


# --- Workers --------------------------------------------------------------------------------


@pytest.mark.ci
def test_worker_killed_mid_turn_with_a_second_worker_alive(stack):
    """SIGKILL (the OOM killer): the sweep takes the dead worker's runs over; the other worker finishes them."""
    stack.model_behaviour = lambda body: slow_reply(4.0)

    def fault():
        _wait_for(lambda: _runs_in_progress(stack) >= 4)
        stack.workers["w1"].signal(signal.SIGKILL)

    _, outcome = run_fault(stack, "worker_sigkill", fault, before=1, after=3, think=1.0)
    assert outcome.by_status == {"completed": outcome.runs}
    assert outcome.retried > 0  # some runs really were cut off and taken over


def test_worker_stopped_mid_turn_for_a_deploy(stack):
    """SIGTERM is Celery's warm shutdown: turns in progress finish before the worker exits."""
    stack.model_behaviour = lambda body: slow_reply(3.0)

    def fault():
        _wait_for(lambda: _runs_in_progress(stack) >= 4)
        stack.workers["w1"].signal(signal.SIGTERM)
        stack.workers["w1"].popen.wait(timeout=60)
        stack.start_worker("w1")  # the new version comes up

    _, outcome = run_fault(stack, "worker_sigterm", fault, before=1, after=3, think=1.0)
    assert outcome.by_status == {"completed": outcome.runs}
    assert outcome.retried == 0  # nothing was cut off or redone


@pytest.mark.ci
def test_the_same_run_delivered_twice_at_once_runs_once(stack):
    stack.model_behaviour = lambda body: slow_reply(1.0)
    app = stack.celery()

    def fault():
        deadline = time.monotonic() + 4
        while time.monotonic() < deadline:
            for (run_id,) in stack.sql("SELECT id::text FROM chat_run WHERE status = 'queued'"):
                for _ in range(2):
                    app.send_task("chat.tasks.run_turn", args=[run_id], ignore_result=True)
            time.sleep(0.3)

    _, outcome = run_fault(stack, "duplicate_delivery", fault, before=1, after=1, think=0.5)
    app.close()
    assert outcome.by_status == {"completed": outcome.runs}
    assert outcome.deliveries > outcome.runs  # the duplicates were really delivered
    assert outcome.model_calls == outcome.runs  # and executed once


# --- The model ------------------------------------------------------------------------------


def test_a_turn_past_its_time_limit_ends_with_a_clear_code(stack):
    """A model that never answers: the turn ends itself at RUN_DEADLINE_SECONDS, failed/timeout."""
    hanging_until = {}

    def behaviour(body):
        return hang(60) if time.monotonic() < hanging_until.get("t", 0) else slow_reply(0.5)

    stack.model_behaviour = behaviour

    def fault():
        hanging_until["t"] = time.monotonic() + 5

    _, outcome = run_fault(stack, "time_limit", fault, before=2, after=8, think=1.0)
    assert outcome.error_codes.get("timeout", 0) > 0
    assert set(outcome.error_codes) == {"timeout"}
    assert set(outcome.by_status) <= {"completed", "failed"}


def test_a_model_overload_storm_opens_the_breaker_and_nothing_is_stuck(stack):
    storm_until = {}

    def behaviour(body):
        return error_reply(529) if time.monotonic() < storm_until.get("t", 0) else slow_reply(0.5)

    stack.model_behaviour = behaviour
    requests_before = len(stack.model.requests)
    refusals_before = sum(w.log.read_text().count("breaker open") for w in stack.workers.values())

    def fault():
        storm_until["t"] = time.monotonic() + STORM_SECONDS
        time.sleep(STORM_SECONDS)

    _, outcome = run_fault(stack, "overload_storm", fault, before=2, after=10, think=1.0)
    refusals = sum(w.log.read_text().count("breaker open") for w in stack.workers.values()) - refusals_before
    assert refusals > 0  # the breaker opened and refused calls instead of hammering the service
    assert set(outcome.error_codes) <= {"model_unavailable"}
    assert outcome.by_status.get("completed", 0) > 0  # runs after the storm are answered
    print(f"overload_storm: {len(stack.model.requests) - requests_before} model requests, {refusals} refused")
