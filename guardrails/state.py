"""GuardState: what a thread has verified, the value stage 1 reads.

A plain value with no database behind it: chat/guard_state.py assembles it from the thread's
recorded tool calls at the start of every check, so it survives restarts.
"""

from dataclasses import dataclass


@dataclass(frozen=True)
class GuardState:
    verified: frozenset[tuple[str, str]]  # (order_id, email) pairs a tool matched in this thread
    verified_emails: frozenset[str]
    eligible_orders: frozenset[str]  # orders the latest eligibility check found returnable
    pending_orders: frozenset[str]  # orders with a return waiting for the customer's decision
    returns_started: int

    @property
    def customer_email(self) -> str | None:
        """The one customer this thread serves, once known."""
        return min(self.verified_emails) if self.verified_emails else None
