"""What a thread has verified, derived from its recorded tool calls (so it survives restarts).

Nothing here is kept in memory between turns: every turn re-reads the transcript.
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
