"""Threads, messages, runs, and the transcript of each run (model calls, tool calls)."""

import uuid

from django.conf import settings
from django.db import models
from django.db.models import Q


class Thread(models.Model):
    """One customer conversation, owned by the anonymous session that created it."""

    class Status(models.TextChoices):
        OPEN = "open"
        CLOSED = "closed"  # a bound (turns, token budget) ended it

    class HandoffReason(models.TextChoices):
        CUSTOMER_ASKED = "customer_asked", "the customer asked for a person"
        MODEL_ASKED = "model_asked", "the assistant handed over"
        REPEATED_FAILURES = "repeated_failures", "the assistant failed twice"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    # Opaque random id kept in the customer's session; never shown to other sessions.
    owner = models.CharField(max_length=64, db_index=True, editable=False)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.OPEN)
    # Per-thread sequence of messages: the order runs are accepted in.
    last_seq = models.PositiveIntegerField(default=0, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    # Handed off to a person: while set, the agent stays silent and staff reply (chat/handoff.py).
    handed_off_at = models.DateTimeField(null=True, blank=True)
    handoff_reason = models.CharField(max_length=20, choices=HandoffReason.choices, blank=True)
    # When staff last gave the thread back to the agent: failures before it no longer count.
    handed_back_at = models.DateTimeField(null=True, blank=True)

    reviewed = models.BooleanField(default=False)
    flagged = models.BooleanField(default=False)
    staff_note = models.TextField(blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["owner", "-created_at"], name="thread_owner_recent")]

    def __str__(self) -> str:
        return f"Thread {self.id}"

    @property
    def is_handed_off(self) -> bool:
        return self.handed_off_at is not None


class HandedOffThread(Thread):
    """The staff queue of threads waiting for a person (a proxy: its own admin and permissions)."""

    class Meta:
        proxy = True
        verbose_name = "handed-off conversation"
        permissions = [("reply_handedoffthread", "Can reply to customers and hand threads back")]


class Message(models.Model):
    """What the customer wrote or saw. Rejected model drafts never become messages."""

    class Role(models.TextChoices):
        USER = "user"
        ASSISTANT = "assistant"
        STAFF = "staff"  # a person from the support team, in a handed-off thread

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    thread = models.ForeignKey(Thread, on_delete=models.CASCADE, related_name="messages")
    seq = models.PositiveIntegerField()
    role = models.CharField(max_length=16, choices=Role.choices)
    content = models.TextField()
    created_at = models.DateTimeField(auto_now_add=True)
    # Staff messages only: who wrote it (the customer sees the first name).
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    idempotency_key = models.CharField(max_length=255, null=True, blank=True)
    idempotency_fingerprint = models.CharField(max_length=64, blank=True)

    class Meta:
        ordering = ["thread", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["thread", "seq"], name="message_thread_seq_unique"),
            models.UniqueConstraint(
                fields=["thread", "idempotency_key"],
                condition=Q(idempotency_key__isnull=False),
                name="message_idempotency_key_unique",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.role} #{self.seq}"


class Run(models.Model):
    """One agent turn answering one user message."""

    class Status(models.TextChoices):
        QUEUED = "queued"
        IN_PROGRESS = "in_progress"
        REQUIRES_ACTION = "requires_action"
        AWAITING_APPROVAL = "awaiting_approval"  # the customer confirmed; a person must approve the return
        COMPLETED = "completed"
        FAILED = "failed"
        CANCELLED = "cancelled"
        EXPIRED = "expired"

    UNFINISHED = (Status.QUEUED, Status.IN_PROGRESS, Status.REQUIRES_ACTION, Status.AWAITING_APPROVAL)
    # A long-poll waits while the run is in these: something other than the customer acts next.
    WAITING = (Status.QUEUED, Status.IN_PROGRESS, Status.AWAITING_APPROVAL)

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    thread = models.ForeignKey(Thread, on_delete=models.CASCADE, related_name="runs")
    seq = models.PositiveIntegerField(help_text="The user message's seq: runs of a thread execute in this order.")
    user_message = models.OneToOneField(Message, on_delete=models.CASCADE, related_name="run")
    assistant_message = models.OneToOneField(
        Message, on_delete=models.SET_NULL, null=True, blank=True, related_name="answered_run"
    )
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.QUEUED)
    attempts = models.PositiveSmallIntegerField(default=0)
    cancel_requested = models.BooleanField(default=False)
    error_code = models.CharField(max_length=64, blank=True)
    error_message = models.CharField(max_length=500, blank=True)
    ending = models.CharField(
        max_length=32,
        blank=True,
        help_text="Why the turn stopped: end_turn, fallback, max_iterations, max_tokens, refusal, turn_limit, "
        "token_budget, confirmation_required, handoff, handed_off.",
    )
    # The latest fixed, server-written step shown to the customer (chat/progress.py), never model text.
    progress = models.CharField(max_length=64, blank=True)
    model = models.CharField(max_length=100, blank=True)
    input_tokens = models.PositiveIntegerField(default=0)
    output_tokens = models.PositiveIntegerField(default=0)
    cache_write_tokens = models.PositiveIntegerField(default=0)
    cache_read_tokens = models.PositiveIntegerField(default=0)

    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    dispatched_at = models.DateTimeField(null=True, blank=True, help_text="Last time a task was sent for it.")
    started_at = models.DateTimeField(null=True, blank=True)
    heartbeat_at = models.DateTimeField(null=True, blank=True, help_text="Last sign of life from its worker.")
    completed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["thread", "seq"]
        constraints = [models.UniqueConstraint(fields=["thread", "seq"], name="run_thread_seq_unique")]
        indexes = [
            # The sweep and the per-thread claim only ever look at unfinished runs.
            models.Index(
                fields=["status", "heartbeat_at"],
                name="run_unfinished",
                condition=Q(status__in=["queued", "in_progress", "requires_action"]),
            ),
            # /metrics reads the runs accepted in its recent window. created_at never changes,
            # so the index does not stand in the way of in-place (HOT) updates of a run.
            models.Index(fields=["created_at"], name="run_created"),
        ]

    def __str__(self) -> str:
        return f"Run {self.id} ({self.status})"

    @property
    def is_finished(self) -> bool:
        return self.status not in self.UNFINISHED


class ModelCall(models.Model):
    """One request to the model within a run, and what came back."""

    class Purpose(models.TextChoices):
        TURN = "turn"  # a step of the tool-use loop: replayed as the conversation's history
        SECOND_OPINION = "second_opinion"  # L4 asked a small model whether an unsure reply is off topic

    run = models.ForeignKey(Run, on_delete=models.CASCADE, related_name="model_calls")
    purpose = models.CharField(max_length=20, choices=Purpose.choices, default=Purpose.TURN)
    iteration = models.PositiveSmallIntegerField()
    model = models.CharField(max_length=100)
    response_content = models.JSONField(default=list, help_text="Content blocks the model returned.")
    stop_reason = models.CharField(max_length=32, blank=True)
    input_tokens = models.PositiveIntegerField(default=0)
    output_tokens = models.PositiveIntegerField(default=0)
    cache_write_tokens = models.PositiveIntegerField(default=0)
    cache_read_tokens = models.PositiveIntegerField(default=0)
    latency_ms = models.PositiveIntegerField(default=0)
    error_code = models.CharField(max_length=64, blank=True)
    rejected_codes = models.JSONField(
        default=list,
        blank=True,
        help_text="L4 violations when this reply was rejected; the customer got the fallback instead and the "
        "draft is never sent back to the model.",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["run", "iteration", "id"]

    def __str__(self) -> str:
        return f"Model call {self.iteration} ({self.stop_reason or self.error_code})"


class ToolCall(models.Model):
    """One tool_use the model asked for: validated input, result, guardrail decision."""

    run = models.ForeignKey(Run, on_delete=models.CASCADE, related_name="tool_calls")
    model_call = models.ForeignKey(ModelCall, on_delete=models.CASCADE, related_name="tool_calls")
    tool_use_id = models.CharField(max_length=100)
    name = models.CharField(max_length=64)
    input = models.JSONField(default=dict)
    result = models.JSONField(default=dict)
    is_error = models.BooleanField(default=False)
    guardrail_code = models.CharField(max_length=64, blank=True, help_text="Empty when every check passed.")
    duration_ms = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["run", "id"]
        indexes = [models.Index(fields=["name", "is_error"], name="toolcall_name_error")]

    def __str__(self) -> str:
        return f"{self.name} ({'error' if self.is_error else 'ok'})"
