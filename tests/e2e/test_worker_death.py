"""DESIGN §8: a worker that dies mid-turn loses nothing; the sweep hands the run to another worker."""

import os
import signal
import subprocess
import time

import pytest

from chat import runs
from chat.models import Message, Run
from tests.conftest import celery_worker
from tests.fakes import FakeReply, message_body

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def _kill_worker(name: str) -> None:
    """SIGKILL, as the OOM killer or a lost machine would: no clean shutdown, no ack."""
    pids = subprocess.run(["pgrep", "-f", "--", f"--hostname {name}@"], capture_output=True, text=True).stdout.split()
    assert pids, "the worker to kill is not running"
    for pid in pids:
        os.killpg(os.getpgid(int(pid)), signal.SIGKILL)


def _wait_for(predicate, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.1)


def test_a_run_whose_worker_was_killed_is_finished_by_another_worker(
    alice, fake_anthropic_server, _clean_broker, settings
):
    fake_anthropic_server.reset()
    slow = FakeReply(body=message_body([{"type": "text", "text": "never delivered"}]), delay=30)
    fake_anthropic_server.responder = lambda body: slow
    env = {
        "BOOKLY_LLM": "anthropic",
        "ANTHROPIC_BASE_URL": fake_anthropic_server.url,
        "ANTHROPIC_API_KEY": "sk-ant-test-key",
        "MODEL_BREAKER_THRESHOLD": "0",
    }
    thread = alice.new_thread()

    with celery_worker(env, name="doomed-worker"):
        run_id = alice.say(thread, "Where is my order?").json()["run"]["id"]
        _wait_for(lambda: len(fake_anthropic_server.message_requests) == 1)  # mid-turn, waiting on the model
        _kill_worker("doomed-worker")
    run = Run.objects.get(id=run_id)
    assert run.status == Run.Status.IN_PROGRESS  # nobody is executing it any more

    settings.RUN_STALE_AFTER_SECONDS = 0
    report = runs.runs_sweep()
    assert report.requeued == 1

    fake_anthropic_server.responder = lambda body: FakeReply(
        body=message_body([{"type": "text", "text": "Happy to help: what is your order number?"}])
    )
    with celery_worker(env, name="rescue-worker"):
        finished = alice.wait_run(run_id)
    assert finished["status"] == "completed"
    assert finished["assistant_message"]["content"] == "Happy to help: what is your order number?"
    run.refresh_from_db()
    assert run.attempts == 2
    assert Message.objects.filter(thread_id=thread, role=Message.Role.ASSISTANT).count() == 1
    assert Message.objects.get(id=run.user_message_id).content == "Where is my order?"
