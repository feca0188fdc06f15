"""The per-process policy cache: turns read the policy without a query, and an edit is never served late here.

The cache is only used outside transactions (a turn in a worker), so these tests commit for real.
"""

import time
from types import SimpleNamespace

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from guardrails import services
from guardrails.models import GuardrailPolicy

pytestmark = pytest.mark.django_db(transaction=True)


def cached_policy() -> GuardrailPolicy:
    """The policy, read until the cache holds it (creating the row is an edit, which clears it)."""
    services.policy_current()
    return services.policy_current()


def test_the_policy_is_read_once_then_served_without_a_query():
    cached_policy()
    with CaptureQueriesContext(connection) as queries:
        policy = services.policy_current()
    assert len(queries) == 0
    assert policy.turns_per_thread == GuardrailPolicy.objects.get().turns_per_thread


def test_a_saved_edit_is_served_at_once():
    before = cached_policy()
    policy = GuardrailPolicy.objects.get()
    policy.turns_per_thread = 3
    policy.save()
    current = services.policy_current()
    assert current.turns_per_thread == 3
    assert current.version == before.version + 1


def test_a_deleted_policy_is_not_served():
    cached_policy()
    GuardrailPolicy.objects.all().delete()
    GuardrailPolicy.objects.bulk_create([GuardrailPolicy(pk=7, turns_per_thread=9)])  # no signal: bulk
    assert services.policy_current().pk == 7


def test_an_edit_that_is_rolled_back_is_never_served():
    cached_policy()
    with transaction.atomic():
        policy = services.policy_current()  # inside a transaction: read, and not cached
        policy.returns_enabled = False
        policy.save()
        assert services.policy_current().returns_enabled is False
        transaction.set_rollback(True)
    assert services.policy_current().returns_enabled is True


def test_a_caller_changing_its_copy_does_not_change_what_others_get():
    policy = cached_policy()
    policy.returns_enabled = False
    assert services.policy_current().returns_enabled is True


def test_an_edit_from_another_process_is_served_once_the_cache_time_has_passed(monkeypatch):
    cached_policy()
    GuardrailPolicy.objects.update(turns_per_thread=7)  # no signal in this process, as in another one
    assert services.policy_current().turns_per_thread != 7  # still within POLICY_CACHE_SECONDS
    later = time.monotonic() + services.POLICY_CACHE_SECONDS + 1
    monkeypatch.setattr(services, "time", SimpleNamespace(monotonic=lambda: later))
    assert services.policy_current().turns_per_thread == 7
