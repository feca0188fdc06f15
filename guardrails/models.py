"""The guardrail policy staff edit, every decision that did not simply pass, and pending actions."""

import uuid
from decimal import Decimal

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import F, Q

from orders.policy import MAX_REFUND_WITHOUT_HUMAN

# Bounds on every number staff can set: outside them the policy would stop the product working.
MAX_POLICY_AMOUNT = Decimal("10000.00")
MAX_RETURNS_PER_THREAD = 20
MAX_TURNS_PER_THREAD = 500


class GuardrailPolicy(models.Model):
    """The active policy (one row). Read at the start of every turn; each save bumps `version`."""

    class ConfirmationMode(models.TextChoices):
        ALWAYS = "always", "Always ask the customer to confirm"
        ABOVE_AMOUNT = "above_amount", "Ask only above an amount"

    returns_enabled = models.BooleanField(default=True, help_text="Off: initiate_return is refused for everyone.")
    allowed_tools = models.JSONField(
        default=list, blank=True, help_text="Tool names the model may call. Empty means every registered tool."
    )
    confirmation_mode = models.CharField(
        max_length=20, choices=ConfirmationMode.choices, default=ConfirmationMode.ALWAYS
    )
    confirm_above_amount = models.DecimalField(
        max_digits=10,
        decimal_places=2,
        default=Decimal("0.00"),
        validators=[MinValueValidator(0), MaxValueValidator(MAX_POLICY_AMOUNT)],
        help_text="With 'above an amount': refunds above this need the customer's confirmation.",
    )
    max_refund_without_human = models.DecimalField(
        max_digits=10,
        decimal_places=2,
        default=MAX_REFUND_WITHOUT_HUMAN,
        validators=[MinValueValidator(0), MaxValueValidator(MAX_POLICY_AMOUNT)],
        help_text="Refunds above this are refused in chat (a human must handle them).",
    )
    returns_per_thread = models.PositiveSmallIntegerField(
        default=2, validators=[MaxValueValidator(MAX_RETURNS_PER_THREAD)], help_text="0 turns returns in chat off."
    )
    turns_per_thread = models.PositiveSmallIntegerField(
        default=40,
        validators=[MinValueValidator(1), MaxValueValidator(MAX_TURNS_PER_THREAD)],
        help_text="Customer messages one conversation may have; at least 1.",
    )
    # Staff approval: after the customer confirms, these returns also wait for a person.
    staff_approval_always = models.BooleanField(
        default=False, help_text="Every return started in chat also needs a staff member's approval."
    )
    staff_approval_above_amount = models.DecimalField(
        max_digits=10,
        decimal_places=2,
        null=True,
        blank=True,
        validators=[MinValueValidator(0), MaxValueValidator(MAX_POLICY_AMOUNT)],
        help_text="Refunds above this need a staff member's approval. Empty: no amount rule.",
    )
    staff_approval_returns_over = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        validators=[MaxValueValidator(1000)],
        help_text="A customer (by order email) with more than this many returns in the period needs a staff "
        "member's approval for the next one. Empty: no frequency rule.",
    )
    staff_approval_period_days = models.PositiveSmallIntegerField(
        default=30,
        validators=[MinValueValidator(1), MaxValueValidator(366)],
        help_text="The period the returns rule counts over.",
    )
    staff_approval_ttl_hours = models.PositiveSmallIntegerField(
        default=48,
        validators=[MinValueValidator(1), MaxValueValidator(24 * 30)],
        help_text="A return nobody approved or declined within this many hours expires; the customer is told.",
    )
    version = models.PositiveIntegerField(default=1, editable=False)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = "guardrail policy"
        verbose_name_plural = "guardrail policy"

    def __str__(self) -> str:
        return f"Guardrail policy v{self.version}"

    def save(self, *args, **kwargs) -> None:
        if not self._state.adding:
            self.version = F("version") + 1
        super().save(*args, **kwargs)
        self.refresh_from_db(fields=["version"])

    def clean(self) -> None:
        # A misspelt name would silently switch a tool off; a JSON string is not a list of names.
        from chat.tools import TOOLS  # chat imports guardrails: import at use

        tools = self.allowed_tools
        if not isinstance(tools, list) or not all(isinstance(name, str) for name in tools):
            raise ValidationError(
                {"allowed_tools": 'Enter a list of tool names, e.g. ["lookup_order", "lookup_policy"].'}
            )
        unknown = sorted(set(tools) - set(TOOLS))
        if unknown:
            raise ValidationError(
                {"allowed_tools": f"Unknown tool: {', '.join(unknown)}. Known tools: {', '.join(TOOLS)}."}
            )

    def allows_tool(self, name: str) -> bool:
        return not self.allowed_tools or name in self.allowed_tools


class PolicyVersion(models.Model):
    """One saved edit of the policy: who, when, what changed (old and new values), and the result."""

    version = models.PositiveIntegerField(help_text="The policy's version after this edit.")
    changed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True)
    changed_by_name = models.CharField(max_length=150, blank=True, help_text="Kept if the account is deleted.")
    changed_at = models.DateTimeField(auto_now_add=True, db_index=True)
    changes = models.JSONField(default=dict, help_text='{"field": {"old": ..., "new": ...}} for each changed field.')
    values = models.JSONField(help_text="Every editable field of the policy after this edit.")
    restored_from = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="+", help_text="Set on a restore."
    )

    class Meta:
        ordering = ["-changed_at", "-id"]

    def __str__(self) -> str:
        return f"Policy v{self.version}"


class GuardrailEvent(models.Model):
    """A check that did not simply pass: what was checked, what it found, what was done."""

    class Layer(models.TextChoices):
        INPUT = "L0", "L0 input screening"
        TOOLS = "L3", "L3 tool checks"
        OUTPUT = "L4", "L4 output validation"

    class Action(models.TextChoices):
        BLOCKED = "blocked"
        CONFIRMATION_REQUIRED = "confirmation_required"
        APPROVAL_REQUIRED = "approval_required"
        FALLBACK = "fallback"
        RECORDED = "recorded"  # noted (e.g. a likely injection), the turn went on

    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    layer = models.CharField(max_length=4, choices=Layer.choices)
    stage = models.CharField(max_length=20, blank=True, help_text="input, tool_result, stage1, stage2, confirm, reply")
    code = models.CharField(max_length=64, db_index=True)
    action = models.CharField(max_length=24, choices=Action.choices)
    tool_name = models.CharField(max_length=64, blank=True)
    detail = models.CharField(max_length=500, blank=True, help_text="Never customer data.")
    policy_version = models.PositiveIntegerField()
    thread = models.ForeignKey("chat.Thread", on_delete=models.CASCADE, related_name="guardrail_events")
    run = models.ForeignKey("chat.Run", on_delete=models.CASCADE, null=True, related_name="guardrail_events")
    tool_call = models.ForeignKey(
        "chat.ToolCall", on_delete=models.SET_NULL, null=True, blank=True, related_name="guardrail_events"
    )

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.layer} {self.code} ({self.action})"


class PendingAction(models.Model):
    """A computed effect waiting for the customer's decision. The model can never decide it."""

    class Decision(models.TextChoices):
        PENDING = "", "pending"
        CONFIRMED = "confirmed"
        DECLINED = "declined"
        EXPIRED = "expired"
        REJECTED = "rejected"  # confirmed, but a re-check failed

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    run = models.ForeignKey("chat.Run", on_delete=models.CASCADE, related_name="pending_actions")
    thread = models.ForeignKey("chat.Thread", on_delete=models.CASCADE, related_name="pending_actions")
    model_call = models.ForeignKey("chat.ModelCall", on_delete=models.CASCADE, related_name="+")
    tool_use_id = models.CharField(max_length=100)
    tool_name = models.CharField(max_length=64)
    arguments = models.JSONField(help_text="The tool input, as validated.")
    effect = models.JSONField(help_text="The computed effect the customer is shown.")
    fingerprint = models.CharField(max_length=64)
    preview = models.JSONField()
    expires_at = models.DateTimeField()
    decision = models.CharField(max_length=12, choices=Decision.choices, default=Decision.PENDING, blank=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    result_code = models.CharField(max_length=64, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            # At most one undecided action per run: the run is paused on it.
            models.UniqueConstraint(fields=["run"], condition=Q(decision=""), name="one_pending_action_per_run"),
        ]
        indexes = [models.Index(fields=["thread"], condition=Q(decision=""), name="pending_action_open")]

    def __str__(self) -> str:
        return f"{self.tool_name} ({self.decision or 'pending'})"


class ReturnApproval(models.Model):
    """A return the customer confirmed that also needs a person's approval (guardrails/approvals.py).

    Bound to its PendingAction, whose effect and fingerprint are what staff approve; the action
    stays undecided until staff decide, so its order counts as pending for stage 1.
    """

    class Status(models.TextChoices):
        PENDING = "pending"
        APPROVED = "approved"  # and the return was written
        DECLINED = "declined"
        EXPIRED = "expired"
        REJECTED = "rejected"  # approved, but a re-check failed: nothing was written

    class Rule(models.TextChoices):
        ALWAYS = "always", "every return"
        AMOUNT = "amount", "refund above the amount"
        FREQUENCY = "frequency", "frequent returns"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    action = models.OneToOneField(PendingAction, on_delete=models.CASCADE, related_name="approval")
    thread = models.ForeignKey("chat.Thread", on_delete=models.CASCADE, related_name="return_approvals")
    rule = models.CharField(max_length=12, choices=Rule.choices, help_text="Why a person must approve it.")
    order_id = models.CharField(max_length=16)
    refund_amount = models.DecimalField(max_digits=10, decimal_places=2)
    policy_version = models.PositiveIntegerField()
    requested_at = models.DateTimeField(auto_now_add=True, help_text="When the customer confirmed.")
    expires_at = models.DateTimeField()
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.PENDING, db_index=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    decision_reason = models.TextField(blank=True, help_text="Why staff approved or declined it (staff only).")
    result_code = models.CharField(max_length=64, blank=True, help_text="Why a re-check refused it, if it did.")

    class Meta:
        ordering = ["-requested_at"]
        verbose_name = "return waiting for approval"
        verbose_name_plural = "returns waiting for approval"
        permissions = [("decide_returnapproval", "Can approve or decline returns")]

    def __str__(self) -> str:
        return f"Return of {self.order_id} ({self.status})"
