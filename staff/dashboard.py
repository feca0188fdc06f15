"""The lead's figures, per day and over a range, from a few aggregate queries.

Each day's figures are one plain dict (the shape `DailyFigures` stores), so a day whose
conversations retention has deleted reads the same as a live one. Turn time is measured
from the customer's message being accepted to the reply being stored (what the customer waits).
"""

import math
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.db.models import Count, DurationField, ExpressionWrapper, F, Q, Sum
from django.db.models.functions import TruncDate
from django.utils import timezone

from chat.models import ModelCall, Run, Thread
from guardrails.models import GuardrailEvent, PendingAction, ReturnApproval
from orders.models import Return
from staff.models import DailyFigures
from staff.review import EVIDENCE

TOKEN_KINDS = ("input", "output", "cache_write", "cache_read")
COUNTERS = ("conversations", "turns", "completed", "failed", "fallbacks", "returns_written")
BREAKDOWNS = (
    "evidence",
    "blocks",
    "events_by_layer",
    "decisions",
    "model_errors",
    "failed_by_code",
    "handoffs",
    "approvals",
)


def day_bounds(start: date, end: date) -> tuple[datetime, datetime]:
    """[start 00:00, the day after end 00:00) in the current time zone."""
    zone = timezone.get_current_timezone()
    return (
        datetime.combine(start, time.min, tzinfo=zone),
        datetime.combine(end + timedelta(days=1), time.min, tzinfo=zone),
    )


def _empty_day() -> dict[str, Any]:
    return {
        **dict.fromkeys(COUNTERS, 0),
        **{name: {} for name in BREAKDOWNS},
        "tokens": {},  # model -> {input, output, cache_write, cache_read}
        "turn_ms_p50": None,
        "turn_ms_p95": None,
        "turn_ms_count": 0,
    }


def percentile(sorted_values: list[int], fraction: float) -> int | None:
    """Nearest-rank percentile of an ascending list (None when empty)."""
    if not sorted_values:
        return None
    rank = max(1, math.ceil(fraction * len(sorted_values)))
    return sorted_values[rank - 1]


def figures_by_day_live(*, start: date, end: date) -> dict[date, dict[str, Any]]:
    """Each day's figures computed from the live rows (every day in the range, zeros included)."""
    low, high = day_bounds(start, end)
    days = {start + timedelta(days=offset): _empty_day() for offset in range((end - start).days + 1)}

    def rows(queryset, *fields: str, **aggregates) -> Iterable[dict]:
        return (
            queryset.filter(created_at__gte=low, created_at__lt=high)
            .annotate(day=TruncDate("created_at"))
            .values("day", *fields)
            .annotate(**aggregates)
            .order_by()
        )

    for row in rows(Thread.objects, n=Count("pk")):
        days[row["day"]]["conversations"] = row["n"]

    evidence = {f"evidence_{key}": Count("pk", filter=Q(condition())) for key, (_, condition) in EVIDENCE.items()}
    for row in rows(
        Run.objects,
        n=Count("pk"),
        completed=Count("pk", filter=Q(status=Run.Status.COMPLETED)),
        failed=Count("pk", filter=Q(status=Run.Status.FAILED)),
        fallbacks=Count("pk", filter=Q(ending="fallback")),
        **evidence,
    ):
        day = days[row["day"]]
        day.update(turns=row["n"], completed=row["completed"], failed=row["failed"], fallbacks=row["fallbacks"])
        day["evidence"] = {key: row[f"evidence_{key}"] for key in EVIDENCE if row[f"evidence_{key}"]}

    usage = {f"t_{kind}": Sum(f"{kind}_tokens") for kind in TOKEN_KINDS}
    # Per model call: the model that actually answered is priced, not the one the run was queued for.
    for row in rows(ModelCall.objects.exclude(model=""), "model", **usage):
        days[row["day"]]["tokens"][row["model"]] = {kind: row[f"t_{kind}"] or 0 for kind in TOKEN_KINDS}
    for row in rows(Run.objects.filter(status=Run.Status.FAILED), "error_code", n=Count("pk")):
        days[row["day"]]["failed_by_code"][row["error_code"] or "unknown"] = row["n"]
    for row in rows(GuardrailEvent.objects, "layer", "action", "code", n=Count("pk")):
        day = days[row["day"]]
        day["events_by_layer"][row["layer"]] = day["events_by_layer"].get(row["layer"], 0) + row["n"]
        if row["action"] == GuardrailEvent.Action.BLOCKED:
            day["blocks"][row["code"]] = day["blocks"].get(row["code"], 0) + row["n"]
    for row in rows(PendingAction.objects, "decision", n=Count("pk")):
        days[row["day"]]["decisions"][row["decision"] or "pending"] = row["n"]
    for row in rows(ModelCall.objects.exclude(error_code=""), "error_code", n=Count("pk")):
        days[row["day"]]["model_errors"][row["error_code"]] = row["n"]
    # Handoffs and approvals count on the day they happened, not the day the thread began.
    handed_off = Thread.objects.filter(handed_off_at__gte=low, handed_off_at__lt=high).annotate(
        day=TruncDate("handed_off_at")
    )
    for row in handed_off.values("day", "handoff_reason").annotate(n=Count("pk")).order_by():
        days[row["day"]]["handoffs"][row["handoff_reason"] or "unknown"] = row["n"]
    approvals = ReturnApproval.objects.filter(requested_at__gte=low, requested_at__lt=high).annotate(
        day=TruncDate("requested_at")
    )
    for row in approvals.values("day", "status").annotate(n=Count("pk")).order_by():
        days[row["day"]]["approvals"][row["status"]] = row["n"]

    # The ledger: a return the bot wrote carries its run id.
    for row in rows(Return.objects.filter(run_id__isnull=False), n=Count("pk")):
        days[row["day"]]["returns_written"] = row["n"]

    # Percentiles in Python: one column of one query, and the same on SQLite and Postgres.
    durations: dict[date, list[int]] = defaultdict(list)
    waited = ExpressionWrapper(F("completed_at") - F("created_at"), output_field=DurationField())
    finished = Run.objects.filter(
        status=Run.Status.COMPLETED, completed_at__isnull=False, created_at__gte=low, created_at__lt=high
    )
    for day, duration in finished.annotate(day=TruncDate("created_at"), waited=waited).values_list("day", "waited"):
        durations[day].append(int(duration.total_seconds() * 1000))
    for day, figures in days.items():
        values = sorted(durations.get(day, []))
        figures.update(
            turn_ms_p50=percentile(values, 0.50),
            turn_ms_p95=percentile(values, 0.95),
            turn_ms_count=len(values),
            _durations=values,
        )
    return days


def cost_usd(tokens: dict[str, dict[str, int]]) -> tuple[Decimal, int]:
    """Estimated cost of these tokens (by model) from settings.MODEL_PRICES, and tokens left unpriced."""
    total, unpriced = Decimal("0"), 0
    for model, counts in tokens.items():
        prices = settings.MODEL_PRICES.get(model)
        if prices is None:
            unpriced += sum(counts.values())
            continue
        for kind in TOKEN_KINDS:
            total += Decimal(str(prices.get(kind, 0))) * counts.get(kind, 0) / Decimal(1_000_000)
    return total.quantize(Decimal("0.0001")), unpriced


@dataclass
class Dashboard:
    start: date
    end: date
    days: dict[date, dict[str, Any]]
    stored_days: set[date] = field(default_factory=set)
    totals: dict[str, Any] = field(default_factory=dict)


def _merge(target: dict[str, int], source: dict[str, int]) -> None:
    for key, value in source.items():
        target[key] = target.get(key, 0) + value


def dashboard_figures(*, start: date, end: date) -> Dashboard:
    """Figures per day and over [start, end]: stored figures for days retention has emptied, live otherwise."""
    days = figures_by_day_live(start=start, end=end)
    stored = {row.day: row.figures for row in DailyFigures.objects.filter(day__gte=start, day__lte=end)}
    for day, figures in stored.items():
        days[day] = {**_empty_day(), **figures, "_durations": []}

    totals: dict[str, Any] = {**dict.fromkeys(COUNTERS, 0), **{name: {} for name in BREAKDOWNS}, "tokens": {}}
    live_durations: list[int] = []
    for figures in days.values():
        for name in COUNTERS:
            totals[name] += figures[name]
        for name in BREAKDOWNS:
            _merge(totals[name], figures.get(name, {}))  # days stored before a breakdown existed lack it
        for model, counts in figures["tokens"].items():
            _merge(totals["tokens"].setdefault(model, {}), counts)
        live_durations.extend(figures["_durations"])
        figures["cost"], figures["unpriced_tokens"] = cost_usd(figures["tokens"])
        figures["fallback_rate"] = _rate(figures["fallbacks"], figures["completed"])
        figures["blocked"] = sum(figures["blocks"].values())
    live_durations.sort()
    totals["cost"], totals["unpriced_tokens"] = cost_usd(totals["tokens"])
    totals["fallback_rate"] = _rate(totals["fallbacks"], totals["completed"])
    totals["turn_ms_p50"] = percentile(live_durations, 0.50)
    totals["turn_ms_p95"] = percentile(live_durations, 0.95)
    totals["token_sums"] = {kind: sum(c.get(kind, 0) for c in totals["tokens"].values()) for kind in TOKEN_KINDS}
    return Dashboard(start=start, end=end, days=days, stored_days=set(stored), totals=totals)


def _rate(part: int, whole: int) -> float | None:
    return round(100.0 * part / whole, 1) if whole else None


def figures_for_storage(figures: dict[str, Any]) -> dict[str, Any]:
    """A day's figures as DailyFigures keeps them (JSON; no raw durations)."""
    return {key: value for key, value in figures.items() if not key.startswith("_")}
