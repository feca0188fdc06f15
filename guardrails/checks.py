"""L3 guardrails as pure functions: stage 1 before a tool runs, stage 2 before an effect is applied.

They read no database: the caller passes the thread's GuardState, the active policy and
the order's current eligibility (computed by orders/, the one place the store rules live).
"""

from decimal import Decimal

from guardrails.models import GuardrailPolicy, ReturnApproval
from guardrails.state import GuardState
from guardrails.verdict import Verdict
from orders.services import Eligibility, ReturnEffect
from orders.validation import email_normalise, order_id_normalise

MESSAGES = {
    "tool_not_allowed": "This tool is switched off. Tell the customer you cannot do that in chat right now.",
    "identity_mismatch": "This chat is already verified for a different email address. Only that customer's "
    "orders can be used here.",
    "identity_not_verified": "The customer's email has not been matched to this order yet. Ask for the order id "
    "and the email on the order and look the order up first.",
    "eligibility_not_verified": "Check return eligibility for this order (check_return_eligibility) before "
    "starting a return.",
    "returns_disabled": "Returns cannot be started in chat right now.",
    "return_pending": "A return for this order is already waiting for the customer's confirmation.",
    "return_limit_exceeded": "No more returns can be started in this chat.",
    "item_not_in_order": "One or more of those items are not part of this order.",
    "item_not_returnable": "One or more of those items cannot be returned under the policy.",
    "already_returned": "One or more of those items have already been returned.",
    "order_not_delivered": "The order has not been delivered, so it cannot be returned yet.",
    "outside_return_window": "The return window for this order has closed.",
    "nothing_returnable": "Nothing in this order can be returned.",
    "refund_exceeds_limit": "This refund cannot be approved in chat; the customer needs a human agent.",
}


def refuse(code: str) -> Verdict:
    """A refusal whose detail is the instruction the model gets back in the tool result."""
    return Verdict.deny(code, detail=MESSAGES.get(code, ""))


PASS = Verdict.allow()


def check_tool_call(*, name: str, arguments: dict, state: GuardState, policy: GuardrailPolicy) -> Verdict:
    """Stage 1: may this tool run with these arguments in this thread, now?"""
    if not policy.allows_tool(name):
        return refuse("tool_not_allowed")
    raw_email = arguments.get("customer_email")
    email = email_normalise(raw_email) if isinstance(raw_email, str) else ""
    # One thread serves one customer: a verified email pins the thread to it.
    if email and state.verified_emails and email not in state.verified_emails:
        return refuse("identity_mismatch")
    if name == "list_customer_orders" and email not in state.verified_emails:
        return refuse("identity_not_verified")
    if name == "initiate_return":
        if not policy.returns_enabled:
            return refuse("returns_disabled")
        raw_order = arguments.get("order_id")
        order_id = order_id_normalise(raw_order) if isinstance(raw_order, str) else ""
        if (order_id, email) not in state.verified:
            return refuse("identity_not_verified")
        if order_id not in state.eligible_orders:
            return refuse("eligibility_not_verified")
        if order_id in state.pending_orders:
            return refuse("return_pending")
        if state.returns_started >= policy.returns_per_thread:
            return refuse("return_limit_exceeded")
    return PASS


def check_effect(*, effect: ReturnEffect, eligibility: Eligibility, policy: GuardrailPolicy) -> Verdict:
    """Stage 2: is this computed return allowed right now, and must the customer confirm it?"""
    if effect.unmatched_titles:
        return refuse("item_not_in_order")
    if eligibility.reason in ("order_not_delivered", "outside_return_window"):
        return refuse(eligibility.reason)
    if not effect.item_ids:
        return refuse("nothing_returnable")
    if len(set(effect.item_ids)) != len(effect.item_ids):
        return refuse("already_returned")
    items = {item.item_id: item for item in eligibility.items}
    for item_id in effect.item_ids:
        if item_id not in items:
            return refuse("item_not_in_order")
        if not items[item_id].returnable:
            return refuse(items[item_id].reason or "item_not_returnable")
    paid = sum(items[item_id].price for item_id in effect.item_ids)
    if effect.refund_amount > paid or effect.refund_amount > policy.max_refund_without_human:
        return refuse("refund_exceeds_limit")
    needs_confirmation = (
        policy.confirmation_mode == GuardrailPolicy.ConfirmationMode.ALWAYS
        or effect.refund_amount > policy.confirm_above_amount
    )
    return Verdict(allowed=True, needs_confirmation=needs_confirmation)


def check_staff_approval(*, refund_amount: Decimal, recent_returns: int, policy: GuardrailPolicy) -> str:
    """After the customer confirms: the rule that makes a person approve this return as well, or ''.

    `recent_returns`: the customer's returns (by order email) within the policy's period, this one excluded.
    """
    if policy.staff_approval_always:
        return ReturnApproval.Rule.ALWAYS
    above = policy.staff_approval_above_amount
    if above is not None and refund_amount > above:
        return ReturnApproval.Rule.AMOUNT
    limit = policy.staff_approval_returns_over
    if limit is not None and recent_returns >= limit:
        return ReturnApproval.Rule.FREQUENCY
    return ""
