"""Progress steps: fixed, server-written labels on the run as tools start, and long-pollers hear of them."""

import threading
import time

import pytest
from django.db import connection

from chat import notify, services
from chat.models import Run
from chat.progress import TOOL_STEPS
from chat.tools import TOOLS
from tests.fakes import ScriptedModel, multi_tool_use_reply, text_reply, tool_use_reply

SARAH = "sarah.chen@example.com"
pytestmark = pytest.mark.django_db


class ProgressSpy(ScriptedModel):
    """A scripted model that notes the run's progress step each time it is called."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[str] = []

    def complete(self, request: dict, *, deadline: float | None = None) -> dict:
        self.seen.append(Run.objects.get(status=Run.Status.IN_PROGRESS).progress)
        return super().complete(request, deadline=deadline)


@pytest.fixture
def spy(monkeypatch) -> ProgressSpy:
    model = ProgressSpy()
    monkeypatch.setattr("chat.agent.get_model", lambda: model)
    return model


def test_each_tool_shows_its_fixed_step_while_the_model_works_on_its_result(alice, spy):
    spy.script(
        tool_use_reply("lookup_order", {"order_id": "BK-10042", "customer_email": SARAH}),
        tool_use_reply("check_return_eligibility", {"order_id": "BK-10042", "customer_email": SARAH}),
        text_reply("I could not find that order."),
    )
    thread_id = alice.new_thread()
    run_id = alice.say(thread_id, "Can I return BK-10042?").json()["run"]["id"]
    assert alice.get(f"/api/v1/runs/{run_id}").json()["progress"] is None

    services.run_execute(run_id=run_id)

    assert spy.seen == ["", "Looking up your order", "Checking return eligibility"]
    assert alice.get(f"/api/v1/runs/{run_id}").json()["progress"] == "Checking return eligibility"


def test_only_registered_tools_have_steps_and_the_first_labelled_one_is_shown(alice, spy):
    spy.script(
        tool_use_reply("delete_all_orders", {}),
        multi_tool_use_reply([("made_up_tool", {}), ("lookup_policy", {"topic": "shipping"})]),
        text_reply("Standard shipping takes 3 to 5 business days."),
    )
    thread_id = alice.new_thread()
    run_id = alice.say(thread_id, "Shipping?").json()["run"]["id"]

    services.run_execute(run_id=run_id)

    assert spy.seen == ["", "", "Looking up our policy"]
    assert set(TOOL_STEPS) <= set(TOOLS)  # every label belongs to a registered tool


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("send_etag", [True, False], ids=["with-if-none-match", "without"])
def test_a_long_poll_returns_as_soon_as_a_new_step_is_set(alice, send_etag):
    thread_id = alice.new_thread()
    run_id = alice.say(thread_id, "Where is BK-10042?").json()["run"]["id"]
    Run.objects.filter(id=run_id).update(status=Run.Status.IN_PROGRESS)
    first = alice.get(f"/api/v1/runs/{run_id}")
    etag = first.headers["ETag"]

    def step() -> None:
        try:
            Run.objects.filter(id=run_id).update(progress="Looking up your order")
            notify.run_changed(run_id)
        finally:
            connection.close()

    timer = threading.Timer(0.5, step)
    timer.start()
    started = time.monotonic()
    headers = {"If-None-Match": etag} if send_etag else {}
    response = alice.get(f"/api/v1/runs/{run_id}?wait=20", **headers)
    timer.join()

    assert response.status_code == 200
    body = response.json()
    assert (body["status"], body["progress"]) == ("in_progress", "Looking up your order")
    assert response.headers["ETag"] != etag
    assert time.monotonic() - started < 15  # it did not hold for the whole wait


def test_a_long_poll_with_an_unchanged_etag_ends_in_304_after_the_wait(alice):
    thread_id = alice.new_thread()
    run_id = alice.say(thread_id, "Where is BK-10042?").json()["run"]["id"]
    etag = alice.get(f"/api/v1/runs/{run_id}").headers["ETag"]

    response = alice.get(f"/api/v1/runs/{run_id}?wait=0.3", **{"If-None-Match": etag})

    assert response.status_code == 304
