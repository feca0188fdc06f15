"""The turn task tells Celery's monitoring how the turn ended: a failure for the customer is a
failed task (TurnFailed, the error code only), recorded on the run first; anything else succeeds."""

import pytest

from chat import services, tasks
from chat.models import Run
from chat.tasks import TurnFailed
from tests.fakes import text_reply

pytestmark = pytest.mark.django_db

SECRET = "my email is sarah.chen@example.com"


@pytest.fixture
def run() -> Run:
    thread = services.thread_create(owner="alice-session")
    return services.message_post(owner=thread.owner, thread_id=thread.id, content=SECRET).run


def test_a_turn_that_crashed_fails_the_task_after_the_run_is_recorded(run, scripted):
    scripted.script(RuntimeError(f"boom while handling {SECRET}"))

    with pytest.raises(TurnFailed) as failure:
        tasks.run_execute(str(run.id))

    assert failure.value.code == "internal_error"
    assert failure.value.args == ("internal_error",)  # what Flower shows: no customer data
    run.refresh_from_db()
    assert (run.status, run.error_code) == (Run.Status.FAILED, "internal_error")


def test_an_answered_turn_and_a_redelivered_task_succeed(run, scripted):
    scripted.script(text_reply("Happy to help."))
    assert tasks.run_execute(str(run.id)) is None
    assert tasks.run_execute(str(run.id)) is None  # delivered again: the run is already finished
    run.refresh_from_db()
    assert run.status == Run.Status.COMPLETED


def test_a_redelivered_task_of_a_failed_turn_does_not_fail_again(run, scripted):
    scripted.script(RuntimeError("boom"))
    with pytest.raises(TurnFailed):
        tasks.run_execute(str(run.id))
    assert tasks.run_execute(str(run.id)) is None  # nothing claimed, nothing recorded, nothing to report
    assert Run.objects.get(id=run.id).attempts == 1
