"""Policy edits in the admin: every number bounded, tools from the registry, every save a version."""

import pytest
from django.contrib.admin.models import LogEntry
from django.core.exceptions import ValidationError

from guardrails.models import GuardrailPolicy, PolicyVersion
from guardrails.policy_versions import policy_restore
from guardrails.services import policy_current
from tests.staff.test_roles import POLICY_FORM

pytestmark = pytest.mark.django_db


def change_url(policy: GuardrailPolicy) -> str:
    return f"/admin/guardrails/guardrailpolicy/{policy.pk}/change/"


def post_policy(client, **changes):
    policy = policy_current()
    return client.post(change_url(policy), {**POLICY_FORM, **changes})


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("turns_per_thread", "0", "Ensure this value is greater than or equal to 1."),
        ("turns_per_thread", "501", "Ensure this value is less than or equal to 500."),
        ("returns_per_thread", "-1", "Ensure this value is greater than or equal to 0."),
        ("returns_per_thread", "21", "Ensure this value is less than or equal to 20."),
        ("max_refund_without_human", "-0.01", "Ensure this value is greater than or equal to 0."),
        ("max_refund_without_human", "10000.01", "Ensure this value is less than or equal to 10000.00."),
        ("confirm_above_amount", "99999999", "Ensure this value is less than or equal to 10000.00."),
        ("turns_per_thread", "many", "Enter a whole number."),
    ],
)
def test_a_number_outside_its_bounds_is_refused_with_a_clear_error(lead, field, value, message):
    response = post_policy(lead, **{field: value})

    assert response.status_code == 200
    assert message in response.context["adminform"].form.errors[field][0]
    assert GuardrailPolicy.objects.get().version == 1
    assert not PolicyVersion.objects.exists()


@pytest.mark.parametrize("value", ["lookup_ordr", '"lookup_order"', '["lookup_order"]'])
def test_allowed_tools_takes_only_registered_names_not_a_misspelling_or_a_json_string(lead, value):
    response = post_policy(lead, allowed_tools=value)

    assert response.status_code == 200
    assert "Select a valid choice." in response.context["adminform"].form.errors["allowed_tools"][0]
    assert GuardrailPolicy.objects.get().allowed_tools == []


def test_allowed_tools_are_ticked_from_the_registry(lead):
    response = post_policy(lead, allowed_tools=["lookup_order", "lookup_policy"])

    assert response.status_code == 302
    assert GuardrailPolicy.objects.get().allowed_tools == ["lookup_order", "lookup_policy"]


@pytest.mark.parametrize(
    ("value", "message"),
    [("lookup_order", "Enter a list of tool names"), (["lookup_ordr"], "Unknown tool: lookup_ordr.")],
)
def test_the_policy_itself_refuses_a_string_or_an_unknown_tool(db, value, message):
    policy = policy_current()
    policy.allowed_tools = value
    with pytest.raises(ValidationError) as raised:
        policy.full_clean()
    assert message in raised.value.message_dict["allowed_tools"][0]


def test_each_save_records_who_changed_what_with_old_and_new_values(lead):
    assert post_policy(lead, turns_per_thread="30").status_code == 302
    assert post_policy(lead, turns_per_thread="30", max_refund_without_human="80.00").status_code == 302

    latest, first = PolicyVersion.objects.order_by("-version")[:2]
    assert (first.version, first.changed_by_name) == (2, "leo")
    assert first.changes == {
        "turns_per_thread": {"old": 40, "new": 30},
        "max_refund_without_human": {"old": "200.00", "new": "150.00"},
    }
    assert latest.version == 3
    assert latest.changes == {"max_refund_without_human": {"old": "150.00", "new": "80.00"}}
    assert latest.values["turns_per_thread"] == 30 and latest.changed_at >= first.changed_at


def test_a_past_version_can_be_viewed_with_its_old_and_new_values(lead, auditor):
    post_policy(lead, turns_per_thread="30")
    version = PolicyVersion.objects.get()

    page = auditor.get(f"/admin/guardrails/policyversion/{version.pk}/change/")
    assert page.status_code == 200
    assert "<tr><th>turns_per_thread</th><td>40</td><td>30</td></tr>" in page.content.decode()


def test_restoring_a_past_version_applies_its_values_as_a_new_version(lead):
    post_policy(lead, turns_per_thread="30")
    post_policy(lead, turns_per_thread="12", returns_per_thread="0")
    v2 = PolicyVersion.objects.get(version=2)

    response = lead.post(
        "/admin/guardrails/policyversion/", {"action": "restore", "_selected_action": [str(v2.pk)]}, follow=True
    )

    assert "Restored as policy v4." in response.content.decode()
    policy = GuardrailPolicy.objects.get()
    assert (policy.version, policy.turns_per_thread, policy.returns_per_thread) == (4, 30, 2)
    restored = PolicyVersion.objects.get(version=4)
    assert restored.restored_from == v2
    assert LogEntry.objects.filter(object_id=str(policy.pk), change_message="Restored v2 as v4.").exists()
    assert restored.changes == {
        "turns_per_thread": {"old": 12, "new": 30},
        "returns_per_thread": {"old": 0, "new": 2},
    }


@pytest.mark.parametrize("role", ["agent", "auditor"])
def test_only_someone_who_may_edit_the_policy_can_restore_a_version(request, role, lead):
    post_policy(lead, turns_per_thread="30")
    post_policy(lead, turns_per_thread="12")
    client = request.getfixturevalue(role)
    v2 = PolicyVersion.objects.get(version=2)

    client.post("/admin/guardrails/policyversion/", {"action": "restore", "_selected_action": [str(v2.pk)]})

    assert GuardrailPolicy.objects.get().turns_per_thread == 12


def test_a_version_that_is_no_longer_valid_is_not_restored(lead):
    post_policy(lead, allowed_tools=["lookup_order"])
    version = PolicyVersion.objects.get()
    PolicyVersion.objects.filter(pk=version.pk).update(values={**version.values, "allowed_tools": ["retired_tool"]})
    version.refresh_from_db()

    with pytest.raises(ValidationError):
        policy_restore(version=version, restored_by=None)
    assert GuardrailPolicy.objects.get().allowed_tools == ["lookup_order"]
