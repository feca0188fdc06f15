"""The three staff roles, as Django groups: which permissions each one holds, in one table.

A data migration creates the groups; `roles_sync` runs again after every migrate so a role
also covers the permissions of models added later (a lead can do everything, always).
"""

from collections.abc import Callable
from decimal import Decimal

from django.apps import apps as global_apps
from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

SUPPORT_AGENT = "Support agent"
SUPPORT_LEAD = "Support lead"
AUDITOR = "Auditor"

# The apps whose pages staff use; user accounts (auth) stay with whoever runs the site.
PRODUCT_APPS = ("chat", "orders", "guardrails", "staff")

# Beyond viewing everything, what a support agent may change or do.
_AGENT_EXTRA = {
    "chat.change_thread",  # mark reviewed, flag, note
    "orders.change_return",  # move a return along: received, refunded
    "staff.view_dashboard",
    "guardrails.decide_returnapproval",  # approve held returns, up to SUPPORT_AGENT_APPROVAL_LIMIT
    "chat.reply_handedoffthread",  # reply in handed-off threads, hand them back
}

RolePredicate = Callable[[str, str], bool]  # (app_label, codename) -> the role holds it

ROLES: dict[str, RolePredicate] = {
    SUPPORT_AGENT: lambda app, codename: codename.startswith("view_") or f"{app}.{codename}" in _AGENT_EXTRA,
    SUPPORT_LEAD: lambda app, codename: True,
    AUDITOR: lambda app, codename: codename.startswith("view_"),
}


def roles_sync(*, group_model=None, permission_model=None) -> None:
    """Create the role groups and give each exactly its permissions. Idempotent."""
    from django.contrib.auth.models import Group, Permission

    group_model = group_model or Group
    permission_model = permission_model or Permission
    permissions = list(
        permission_model.objects.filter(content_type__app_label__in=PRODUCT_APPS).values_list(
            "pk", "content_type__app_label", "codename"
        )
    )
    for name, holds in ROLES.items():
        group, _ = group_model.objects.get_or_create(name=name)
        group.permissions.set([pk for pk, app, codename in permissions if holds(app, codename)])


def roles_sync_after_migrate(*, app_config, using: str, apps=global_apps, **kwargs) -> None:
    """post_migrate (after migrate, with the migrated state's `apps`; after a flush, without)."""
    from django.contrib.auth.management import create_permissions

    # This app is first in INSTALLED_APPS, so this handler runs before auth's own for this app:
    # create the app's permissions now (idempotent), then give the groups theirs.
    create_permissions(app_config, verbosity=0, using=using, apps=apps)
    roles_sync()


def can_approve_amount(user: AbstractBaseUser | AnonymousUser, amount: Decimal) -> bool:
    """Whether this staff member may approve a held return of `amount` (agents up to their limit)."""
    if user.has_perm("staff.approve_return_any_amount"):
        return True
    return user.has_perm("guardrails.decide_returnapproval") and amount <= settings.SUPPORT_AGENT_APPROVAL_LIMIT
