"""The lead's dashboard: one admin page, staff with the dashboard permission only."""

from datetime import date, timedelta
from urllib.parse import urlencode

from django import forms
from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils import timezone

from staff import charts
from staff.dashboard import Dashboard, dashboard_figures, day_bounds
from staff.review import EVIDENCE

DEFAULT_DAYS = 14
MAX_DAYS = 366


class DashboardRangeForm(forms.Form):
    start = forms.DateField(required=False, help_text="First day (YYYY-MM-DD).")
    end = forms.DateField(required=False, help_text="Last day, included.")

    def clean(self) -> dict:
        data = super().clean()
        if self.errors:
            return data
        today = timezone.localdate()
        end = data.get("end") or today
        start = data.get("start") or end - timedelta(days=DEFAULT_DAYS - 1)
        if start > end:
            raise forms.ValidationError("The first day must not be after the last day.")
        if (end - start).days + 1 > MAX_DAYS:
            raise forms.ValidationError(f"Choose at most {MAX_DAYS} days.")
        if end > today + timedelta(days=1):
            raise forms.ValidationError("The last day is in the future.")
        data.update(start=start, end=end)
        return data


def _list_url(name: str, start: date, end: date, *, field: str = "created_at", **filters: str) -> str:
    """An admin list filtered to the records behind a figure, over the dashboard's range (on `field`)."""
    low, high = day_bounds(start, end)
    query = {**filters, f"{field}__gte": low.isoformat(), f"{field}__lt": high.isoformat()}
    return f"{reverse(f'admin:{name}_changelist')}?{urlencode(query)}"


def _duration(ms: float) -> str:
    return f"{ms:.0f} ms" if ms < 1000 else f"{ms / 1000:.1f} s"


def _links(dashboard: Dashboard) -> dict:
    start, end, totals = dashboard.start, dashboard.end, dashboard.totals

    def runs(**filters: str) -> str:
        return _list_url("chat_run", start, end, **filters)

    return {
        "evidence": [
            (label, totals["evidence"].get(key, 0), runs(evidence=key)) for key, (label, _) in EVIDENCE.items()
        ],
        "blocks": [
            (code, count, _list_url("guardrails_guardrailevent", start, end, action="blocked", code=code))
            for code, count in sorted(totals["blocks"].items(), key=lambda item: -item[1])
        ],
        "failed_by_code": [
            (code, count, runs(status="failed", error_code="" if code == "unknown" else code))
            for code, count in sorted(totals["failed_by_code"].items(), key=lambda item: -item[1])
        ],
        "decisions": [
            (
                decision,
                count,
                _list_url("guardrails_pendingaction", start, end, decision="" if decision == "pending" else decision),
            )
            for decision, count in sorted(totals["decisions"].items())
        ],
        "handoffs": [
            (reason, count, _list_url("chat_handedoffthread", start, end, handoff_reason=reason, field="handed_off_at"))
            for reason, count in sorted(totals["handoffs"].items(), key=lambda item: -item[1])
        ],
        "approvals": [
            (status, count, _list_url("guardrails_returnapproval", start, end, status=status, field="requested_at"))
            for status, count in sorted(totals["approvals"].items())
        ],
        "conversations": _list_url("chat_thread", start, end),
        "turns": runs(),
        "fallbacks": runs(ending="fallback"),
        "failed": runs(status="failed"),
        "returns_written": _list_url("orders_return", start, end, started_by="bot"),
    }


def _charts(dashboard: Dashboard) -> list[charts.Chart]:
    days = sorted(dashboard.days.items())

    def label(day: date) -> str:
        return day.strftime("%m-%d")

    return [
        charts.column_chart("Turns per day", [(label(day), f["turns"]) for day, f in days]),
        charts.column_chart("Conversations per day", [(label(day), f["conversations"]) for day, f in days]),
        charts.column_chart(
            "Fallback rate per day (%)",
            [(label(day), f["fallback_rate"]) for day, f in days],
            value_format=lambda value: f"{value:.1f}%",
        ),
        charts.column_chart(
            "p95 turn time per day", [(label(day), f["turn_ms_p95"]) for day, f in days], value_format=_duration
        ),
        charts.column_chart(
            "Estimated cost per day (USD)",
            [(label(day), float(f["cost"])) for day, f in days],
            value_format=lambda value: f"${value:.2f}",
        ),
        charts.row_chart("Blocks per rule", list(dashboard.totals["blocks"].items())),
    ]


def dashboard_view(request: HttpRequest) -> HttpResponse:
    """GET ?start=YYYY-MM-DD&end=YYYY-MM-DD (default: the last 14 days). Invalid ranges answer 400."""
    if not request.user.has_perm("staff.view_dashboard"):
        raise PermissionDenied
    form = DashboardRangeForm(request.GET)
    context = {**admin.site.each_context(request), "title": "Support dashboard", "form": form}
    if not form.is_valid():
        return TemplateResponse(request, "staff/dashboard.html", context, status=400)
    dashboard = dashboard_figures(start=form.cleaned_data["start"], end=form.cleaned_data["end"])
    context.update(
        dashboard=dashboard,
        totals=dashboard.totals,
        links=_links(dashboard),
        charts=_charts(dashboard),
        days=sorted(dashboard.days.items(), reverse=True),
    )
    return TemplateResponse(request, "staff/dashboard.html", context)
