"""What a thread has verified, assembled from its recorded tool calls (so it survives restarts).

Read by the agent loop (stage 1), chat/confirmations.py (both stages again on a decision) and
chat/handoff.py. The value, GuardState, lives with the checks that read it (guardrails/state.py);
assembling it reads chat's transcript rows, so it lives here and guardrails never imports chat.
Nothing is kept in memory between turns: every turn reads it again.
"""

from uuid import UUID

from django.db.models import Exists, OuterRef

from chat.models import ToolCall
from guardrails.models import PendingAction
from guardrails.state import GuardState
from orders.selectors import returns_count_for_thread
from orders.validation import email_normalise, order_id_normalise

# Tools whose success proves the customer knows the (order id, email) pair.
VERIFYING_TOOLS = ("lookup_order", "check_return_eligibility", "initiate_return")


def _normalised(arguments: dict, key: str, normalise) -> str:
    value = arguments.get(key)
    return normalise(value) if isinstance(value, str) else ""


def run_verified_customer() -> Exists:
    """For Run querysets: True if a tool call of the run matched an order id with an email."""
    return Exists(ToolCall.objects.filter(run_id=OuterRef("id"), is_error=False, name__in=VERIFYING_TOOLS))


def thread_guard_state(*, thread_id: UUID | str) -> GuardState:
    """Rebuild the thread's guard state from its successful tool calls, oldest first."""
    verified: set[tuple[str, str]] = set()
    eligibility: dict[str, bool] = {}
    calls = (
        ToolCall.objects.filter(run__thread_id=thread_id, is_error=False, name__in=VERIFYING_TOOLS)
        .order_by("id")
        .values_list("name", "input", "result")
    )
    for name, arguments, result in calls:
        order_id = _normalised(arguments, "order_id", order_id_normalise)
        email = _normalised(arguments, "customer_email", email_normalise)
        if not order_id or not email:
            continue
        verified.add((order_id, email))
        if name == "check_return_eligibility":
            eligibility[order_id] = bool(result.get("eligible"))
    pending = PendingAction.objects.filter(thread_id=thread_id, decision=PendingAction.Decision.PENDING)
    return GuardState(
        verified=frozenset(verified),
        verified_emails=frozenset(email for _, email in verified),
        eligible_orders=frozenset(order_id for order_id, eligible in eligibility.items() if eligible),
        pending_orders=frozenset(pending.values_list("effect__order_id", flat=True)),
        returns_started=returns_count_for_thread(thread_id=thread_id),
    )


class LazyGuardState:
    """A thread's GuardState, read from the database the first time a check looks at it.

    Stage 1 consults the state only for tools that name an order or an email; a call such as
    lookup_policy then costs no queries. What it reads is what thread_guard_state would have
    returned at that moment: the check runs right after this is created.
    """

    def __init__(self, *, thread_id: UUID | str) -> None:
        self._thread_id = thread_id
        self._state: GuardState | None = None

    def __getattr__(self, name: str):
        # Only called for what the instance itself lacks: GuardState's fields and properties.
        if self._state is None:
            self._state = thread_guard_state(thread_id=self._thread_id)
        return getattr(self._state, name)
