"""Retention: old conversations go, the dashboard's figures and the returns ledger stay."""

from datetime import timedelta
from io import StringIO

import pytest
from django.conf import settings as django_settings
from django.core.management import CommandError, call_command
from django.utils import timezone

from chat.models import Message, Run, Thread, ToolCall
from orders.models import Return
from staff import tasks
from staff.dashboard import dashboard_figures
from staff.models import DailyFigures
from staff.retention import retention_apply
from tests.fakes import text_reply
from tests.staff.conftest import OFF_TOPIC, ORDER_STATUS, SHIPPING, age, bot_return

pytestmark = pytest.mark.django_db


def test_old_conversations_are_deleted_and_recent_ones_kept(conversation):
    old = conversation(ORDER_STATUS, OFF_TOPIC, owner="old")
    recent = conversation(SHIPPING, owner="recent")
    age(old, 40)

    report = retention_apply(days=30)

    assert report.threads_deleted == 1
    assert list(Thread.objects.all()) == [recent]
    assert not Run.objects.filter(thread_id=old.pk).exists()
    assert not ToolCall.objects.filter(run__thread_id=old.pk).exists()
    assert not Message.objects.filter(thread_id=old.pk).exists()


def test_the_dashboard_keeps_the_figures_of_deleted_conversations(conversation):
    old = conversation(ORDER_STATUS, OFF_TOPIC, owner="old")
    age(old, 40)
    day = timezone.localdate() - timedelta(days=40)
    before = dashboard_figures(start=day, end=day).totals

    retention_apply(days=30)

    after = dashboard_figures(start=day, end=day)
    assert after.stored_days == {day}
    for name in ("conversations", "turns", "completed", "evidence"):
        assert after.totals[name] == before[name], name
    assert after.totals["conversations"] == 1 and after.totals["turns"] == 2


def test_returns_stay_in_the_ledger_with_the_conversation_kept_as_an_id(scripted, conversation, lead):
    thread = bot_return(scripted, conversation)
    rma = Return.objects.get()
    written = (rma.rma_number, rma.refund_amount, rma.run_id)
    age(thread, 400)

    retention_apply(days=365)

    assert not Thread.objects.exists()
    rma.refresh_from_db()
    assert rma.thread_id == thread.pk
    assert (rma.rma_number, rma.refund_amount, rma.run_id) == written
    assert lead.get("/admin/orders/return/").status_code == 200
    assert lead.get(f"/admin/orders/return/{rma.pk}/change/").status_code == 200


def test_running_it_again_changes_nothing(conversation):
    old = conversation(ORDER_STATUS, owner="old")
    age(old, 40)
    first = retention_apply(days=30)
    stored = list(DailyFigures.objects.values_list("day", "figures"))

    second = retention_apply(days=30)

    assert first.threads_deleted == 1 and first.days_stored >= 1
    assert (second.threads_deleted, second.days_stored) == (0, 0)
    assert list(DailyFigures.objects.values_list("day", "figures")) == stored


def test_a_conversation_still_waiting_on_a_run_is_kept(scripted, conversation):
    from tests.guardrails.conftest import eligibility_call, return_call

    scripted.script(eligibility_call("BK-10042"), return_call("BK-10042", titles=["The Goldfinch"]))
    waiting = conversation("Return The Goldfinch from BK-10042, my email is sarah.chen@example.com")
    assert Run.objects.get(thread=waiting).status == Run.Status.REQUIRES_ACTION
    age(waiting, 40)

    assert retention_apply(days=30).threads_deleted == 0
    assert Thread.objects.filter(pk=waiting.pk).exists()


def test_the_command_defaults_to_the_setting_and_reports_what_it_did(conversation, settings):
    settings.RETENTION_DAYS = 30
    old = conversation(SHIPPING, owner="old")
    age(old, 31)
    out = StringIO()

    call_command("retention_apply", "--dry-run", stdout=out)
    assert "would delete 1 conversation(s)" in out.getvalue()
    assert Thread.objects.exists()

    call_command("retention_apply", stdout=out)
    assert "deleted 1 conversation(s)" in out.getvalue()
    assert not Thread.objects.exists()


def test_the_command_refuses_less_than_one_day(db):
    with pytest.raises(CommandError, match="at least 1"):
        call_command("retention_apply", "--days", "0")


def test_beat_runs_the_task_daily_and_the_task_applies_the_setting(scripted, conversation, settings):
    schedule = django_settings.CELERY_BEAT_SCHEDULE["retention-apply"]
    assert schedule["task"] == "staff.tasks.retention_apply" == tasks.retention_apply.name
    assert schedule["schedule"] == 24 * 3600.0

    scripted.script(text_reply("Hello!"))
    old = conversation("Hi", owner="old")
    age(old, 10)
    settings.RETENTION_DAYS = 0
    assert tasks.retention_apply() == 0 and Thread.objects.exists()  # 0 turns the task off
    settings.RETENTION_DAYS = 7
    assert tasks.retention_apply() == 1 and not Thread.objects.exists()
