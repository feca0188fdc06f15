"""Policy edits with a history: every save records who changed what (old and new values), and when.

Restoring a past version applies its values through the same save, so it is itself a new version.
"""

from decimal import Decimal
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from guardrails.models import GuardrailPolicy, PolicyVersion

# What staff edit; version and updated_at are bookkeeping.
POLICY_FIELDS = (
    "returns_enabled",
    "allowed_tools",
    "confirmation_mode",
    "confirm_above_amount",
    "max_refund_without_human",
    "returns_per_thread",
    "turns_per_thread",
    "staff_approval_always",
    "staff_approval_above_amount",
    "staff_approval_returns_over",
    "staff_approval_period_days",
    "staff_approval_ttl_hours",
)


def _json_value(value: Any) -> Any:
    return str(value) if isinstance(value, Decimal) else value


def policy_values(policy: GuardrailPolicy) -> dict[str, Any]:
    """The policy's editable fields as JSON values (amounts as strings, exact)."""
    return {name: _json_value(getattr(policy, name)) for name in POLICY_FIELDS}


@transaction.atomic
def policy_save(
    *, policy: GuardrailPolicy, changed_by: AbstractBaseUser | None, restored_from: PolicyVersion | None = None
) -> PolicyVersion:
    """Save a validated policy and record the version it became. Locks the row: edits never interleave."""
    before = GuardrailPolicy.objects.select_for_update().filter(pk=policy.pk).first() if policy.pk else None
    old = policy_values(before) if before else {}
    policy.save()
    new = policy_values(policy)
    return PolicyVersion.objects.create(
        version=policy.version,
        changed_by=changed_by,
        changed_by_name=changed_by.get_username() if changed_by else "",
        changes={name: {"old": old.get(name), "new": value} for name, value in new.items() if old.get(name) != value},
        values=new,
        restored_from=restored_from,
    )


def policy_restore(*, version: PolicyVersion, restored_by: AbstractBaseUser | None) -> PolicyVersion:
    """Apply a past version's values to the active policy (validated again); records a new version.

    Raises ValidationError when the old values are no longer valid (e.g. a tool was removed).
    """
    policy = GuardrailPolicy.objects.order_by("pk").first() or GuardrailPolicy()
    for name in POLICY_FIELDS:
        field = GuardrailPolicy._meta.get_field(name)
        setattr(policy, name, field.to_python(version.values[name]))
    policy.full_clean(exclude=["version"])
    return policy_save(policy=policy, changed_by=restored_by, restored_from=version)
