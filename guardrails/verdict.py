"""The value every guardrail check returns: saying no is a normal outcome, not an exception."""

from dataclasses import dataclass


@dataclass(frozen=True)
class Verdict:
    """A check's decision; `code` is the first (most serious) of `codes` when several apply."""

    allowed: bool
    code: str = ""  # e.g. "eligibility_not_verified"
    needs_confirmation: bool = False
    codes: tuple[str, ...] = ()  # all violation codes when several apply (L4)
    detail: str = ""  # a short, customer-data-free explanation for staff

    @classmethod
    def allow(cls) -> "Verdict":
        """The verdict of a check that found nothing."""
        return cls(allowed=True)

    @property
    def flagged(self) -> bool:
        """Allowed, but with codes worth a person's look (L4 flags the thread for staff review)."""
        return self.allowed and bool(self.codes)

    @classmethod
    def flag(cls, *codes: str, detail: str = "") -> "Verdict":
        """An allowed verdict that asks staff to review; raises ValueError without a code."""
        if not codes:
            raise ValueError("a flag needs at least one code")
        return cls(allowed=True, code=codes[0], codes=tuple(codes), detail=detail)

    @classmethod
    def deny(cls, *codes: str, detail: str = "") -> "Verdict":
        """A refusal naming every violation; raises ValueError without a code."""
        if not codes:
            raise ValueError("a refusal needs at least one code")
        return cls(allowed=False, code=codes[0], codes=tuple(codes), detail=detail)
