"""The lead's dashboard: figures per day and over a range, each linked to the records behind it."""

import re
from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from chat.agent.llm import ModelError
from chat.models import ModelCall, Run
from guardrails.models import GuardrailEvent, GuardrailPolicy
from guardrails.services import policy_cache_clear
from staff.dashboard import cost_usd, dashboard_figures, percentile
from tests.fakes import text_reply, tool_use_reply
from tests.guardrails.conftest import DONE, return_call
from tests.guardrails.test_staff_approval import APPROVAL_POLICY, confirmed
from tests.staff.conftest import OFF_TOPIC, ORDER_STATUS, SHIPPING, bot_return

pytestmark = pytest.mark.django_db

DASHBOARD = "/admin/dashboard/"


def figure_links(page: str) -> dict[str, str]:
    """The evidence table: label -> link (unescaped)."""
    rows = re.findall(r'<tr><td>([^<]+)</td><td><a href="([^"]+)">(\d+)</a></td></tr>', page)
    return {label: href.replace("&amp;", "&") for label, href, _ in rows}


def test_the_dashboard_counts_conversations_turns_and_resolutions_by_evidence(lead, conversation):
    conversation(ORDER_STATUS, OFF_TOPIC, SHIPPING)
    conversation(SHIPPING, owner="customer-2")

    totals = dashboard_figures(start=timezone.localdate(), end=timezone.localdate()).totals
    assert (totals["conversations"], totals["turns"], totals["completed"]) == (2, 4, 4)
    assert totals["evidence"] == {"order_status": 1, "policy_quoted": 2, "refusal": 1}
    assert totals["fallback_rate"] == 0.0
    response = lead.get(DASHBOARD)
    assert response.status_code == 200
    assert response.context["totals"]["turns"] == 4


def test_each_evidence_figure_links_to_the_runs_that_prove_it(lead, conversation):
    conversation(ORDER_STATUS, OFF_TOPIC, SHIPPING)
    conversation(SHIPPING, owner="customer-2")
    links = figure_links(lead.get(DASHBOARD).content.decode())

    expected = {
        "Order status given": 1,
        "Policy quoted": 2,
        "Refused (off topic)": 1,
        "Return written": 0,
        "Handed to a person": 0,
    }
    for label, count in expected.items():
        runs = lead.get(links[label]).context["cl"].result_list
        assert len(runs) == count, label


def test_a_return_the_bot_wrote_counts_and_links_to_the_returns_ledger(lead, scripted, conversation):
    bot_return(scripted, conversation)

    response = lead.get(DASHBOARD)
    assert response.context["totals"]["returns_written"] == 1
    assert response.context["totals"]["evidence"]["return_written"] == 1
    ledger = lead.get(response.context["links"]["returns_written"])
    assert len(ledger.context["cl"].result_list) == 1


def test_failures_fallbacks_and_blocks_are_counted_and_linked(lead, scripted, conversation):
    scripted.script(ModelError("model_unavailable", "down"))
    conversation("Hello?", owner="a")
    scripted.script(text_reply("Your order BK-55555 shipped yesterday."))
    conversation("Has my parcel shipped?", owner="b")
    scripted.script(return_call("BK-10042"), DONE)  # no verification first: stage 1 blocks it
    conversation("Return BK-10042 please", owner="c")

    response = lead.get(DASHBOARD)
    totals = response.context["totals"]
    assert totals["failed"] == 1 and totals["failed_by_code"] == {"model_unavailable": 1}
    assert totals["fallbacks"] == 1 and totals["fallback_rate"] == 50.0  # 1 of 2 completed turns
    blocked = GuardrailEvent.objects.get(action="blocked")
    assert totals["blocks"] == {blocked.code: 1}
    links = response.context["links"]
    [(code, count, url)] = links["blocks"]
    assert (code, count) == (blocked.code, 1)
    assert list(lead.get(url).context["cl"].result_list) == [blocked]
    assert [run.error_code for run in lead.get(links["failed"]).context["cl"].result_list] == ["model_unavailable"]
    assert len(lead.get(links["fallbacks"]).context["cl"].result_list) == 1


def test_tokens_and_estimated_cost_come_from_the_price_table(lead, scripted, conversation, settings):
    scripted.script(text_reply("Hello!"), text_reply("Hello again!"))
    conversation("Hi", "Hi again")
    model = ModelCall.objects.values_list("model", flat=True).first()
    settings.MODEL_PRICES = {model: {"input": 3.0, "output": 15.0, "cache_write": 3.75, "cache_read": 0.3}}

    totals = lead.get(DASHBOARD).context["totals"]
    assert totals["token_sums"]["input"] == 200 and totals["token_sums"]["output"] == 40
    # 200 input at $3/M + 40 output at $15/M
    assert totals["cost"] == Decimal("0.0012")
    assert totals["unpriced_tokens"] == 0


def test_tokens_of_a_model_missing_from_the_price_table_are_shown_as_unpriced(settings):
    settings.MODEL_PRICES = {"known": {"input": 1.0, "output": 2.0, "cache_write": 0, "cache_read": 0}}
    cost, unpriced = cost_usd(
        {
            "known": {"input": 1_000_000, "output": 500_000, "cache_write": 0, "cache_read": 0},
            "mystery": {"input": 10, "output": 5, "cache_write": 0, "cache_read": 0},
        }
    )
    assert (cost, unpriced) == (Decimal("2.0000"), 15)


def test_percentiles_are_nearest_rank():
    values = list(range(1, 101))
    assert (percentile(values, 0.5), percentile(values, 0.95), percentile([], 0.5)) == (50, 95, None)


def test_turn_time_percentiles_cover_completed_turns(lead, conversation):
    conversation(ORDER_STATUS, SHIPPING)
    runs = list(Run.objects.order_by("seq"))
    waits = sorted(int((run.completed_at - run.created_at).total_seconds() * 1000) for run in runs)

    totals = lead.get(DASHBOARD).context["totals"]
    assert (totals["turn_ms_p50"], totals["turn_ms_p95"]) == (waits[0], waits[1])


def test_a_chosen_range_shows_one_row_per_day(lead, conversation):
    conversation(SHIPPING)
    today = timezone.localdate()
    response = lead.get(DASHBOARD, {"start": str(today - timedelta(days=2)), "end": str(today)})

    assert [day for day, _ in response.context["days"]] == [today - timedelta(days=n) for n in range(3)]
    assert response.context["days"][0][1]["turns"] == 1
    assert response.context["days"][1][1]["turns"] == 0


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"start": "2026-02-30"}, "Enter a valid date."),
        ({"start": "2026-03-10", "end": "2026-03-01"}, "The first day must not be after the last day."),
        ({"start": "2024-01-01", "end": "2026-01-01"}, "Choose at most 366 days."),
        ({"end": "2999-01-01"}, "The last day is in the future."),
    ],
)
def test_an_invalid_range_answers_400_with_a_clear_message(lead, params, message):
    response = lead.get(DASHBOARD, params)
    assert response.status_code == 400
    assert message in response.content.decode()


def test_the_charts_are_inline_svg_with_no_script_or_style_attribute(lead, conversation):
    conversation(ORDER_STATUS, SHIPPING)
    page = lead.get(DASHBOARD).content.decode()

    assert page.count("<svg viewBox=") >= 3
    assert "<rect " in page and 'fill="#417690"' in page
    main = page.split('<div id="content-main">')[1]
    assert " style=" not in main and "<script" not in main


def test_the_admin_home_links_to_the_dashboard(lead):
    assert 'href="/admin/dashboard/"' in lead.get("/admin/").content.decode()


def test_a_handoff_counts_as_a_resolution_and_links_to_its_turn(lead, scripted, conversation):
    scripted.script(tool_use_reply("send_reply", {"intent": "handoff", "message": "A colleague will reply."}))
    conversation("I want to talk to a human agent please")

    links = figure_links(lead.get(DASHBOARD).content.decode())
    runs = lead.get(links["Handed to a person"]).context["cl"].result_list
    assert [run.ending for run in runs] == ["handoff"]


def test_handoffs_count_by_reason_and_link_to_the_handoff_queue(lead, alice):
    for _ in range(2):
        thread_id = alice.new_thread()
        assert alice.post(f"/api/v1/threads/{thread_id}/handoff").status_code == 200

    page = lead.get(DASHBOARD).content.decode()
    assert dashboard_figures(start=timezone.localdate(), end=timezone.localdate()).totals["handoffs"] == {
        "customer_asked": 2
    }
    threads = lead.get(figure_links(page)["customer_asked"]).context["cl"].result_list
    assert len(threads) == 2


def test_staff_approvals_count_by_decision_and_link_to_the_approval_queue(lead, alice, scripted, demo_orders):
    GuardrailPolicy.objects.update_or_create(pk=1, defaults=APPROVAL_POLICY)
    policy_cache_clear()
    confirmed(alice, scripted)

    page = lead.get(DASHBOARD).content.decode()
    assert dashboard_figures(start=timezone.localdate(), end=timezone.localdate()).totals["approvals"] == {"pending": 1}
    approvals = lead.get(figure_links(page)["pending"]).context["cl"].result_list
    assert [approval.order_id for approval in approvals] == ["BK-10042"]
