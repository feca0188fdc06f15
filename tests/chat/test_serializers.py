"""The plain renderers the API answers with render exactly what the documented serializers say."""

import json

import pytest
from django.utils import timezone
from rest_framework.renderers import JSONRenderer

from chat import selectors, services
from chat.models import Message, Run, Thread
from chat.serializers import (
    MessageSerializer,
    RunSerializer,
    ThreadSerializer,
    message_data,
    run_data,
    thread_data,
)


def as_json(data) -> dict:
    return json.loads(JSONRenderer().render(data))


def a_run(**changes) -> Run:
    thread = Thread.objects.create(owner="customer-1")
    posted = services.message_post(owner=thread.owner, thread_id=thread.id, content="Where is BK-10042?")
    Run.objects.filter(id=posted.run.id).update(**changes)
    return selectors.run_get(owner="customer-1", run_id=posted.run.id)


@pytest.mark.django_db
@pytest.mark.parametrize(
    "changes",
    [
        {},
        {"status": Run.Status.IN_PROGRESS, "started_at": timezone.now()},
        {"status": Run.Status.FAILED, "error_code": "model_unavailable", "error_message": "Try again."},
        {"status": Run.Status.CANCELLED, "error_code": "cancelled", "error_message": "You cancelled it."},
        {"status": Run.Status.EXPIRED, "error_code": "", "error_message": ""},
    ],
    ids=["queued", "in_progress", "failed", "cancelled", "expired-without-code"],
)
def test_run_data_matches_the_run_serializer(changes):
    run = a_run(**changes)
    assert json.loads(json.dumps(run_data(run))) == as_json(RunSerializer(run).data)


@pytest.mark.django_db
def test_a_completed_run_with_its_reply_renders_the_same():
    run = a_run()
    reply = Message.objects.create(
        thread_id=run.thread_id, seq=2, role=Message.Role.ASSISTANT, content='Shipped <b>"today"</b> ✓'
    )
    Run.objects.filter(id=run.id).update(
        status=Run.Status.COMPLETED, assistant_message=reply, completed_at=timezone.now()
    )
    run = selectors.run_get(owner="customer-1", run_id=run.id)
    shown = run_data(run)
    assert shown == as_json(RunSerializer(run).data)
    assert shown["assistant_message"]["content"] == 'Shipped <b>"today"</b> ✓'
    assert shown["completed_at"].endswith("Z") and shown["poll_after_ms"] is None


@pytest.mark.django_db
def test_threads_and_messages_render_the_same():
    thread = Thread.objects.create(owner="customer-1")
    message = services.message_post(owner=thread.owner, thread_id=thread.id, content="hello").message
    thread.refresh_from_db()
    assert thread_data(thread) == as_json(ThreadSerializer(thread).data)
    assert message_data(message) == as_json(MessageSerializer(message).data)
    assert message_data(None) is None
