"""The staff roles as groups: Support agent, Support lead, Auditor (staff/roles.py says what each holds)."""

from django.contrib.auth.management import create_permissions
from django.db import migrations


def roles_create(apps, schema_editor):
    from staff.roles import roles_sync

    # Permissions are normally created after the whole migrate run; the groups need them now.
    for app_config in apps.get_app_configs():
        app_config.models_module = True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = None
    roles_sync(group_model=apps.get_model("auth", "Group"), permission_model=apps.get_model("auth", "Permission"))


def roles_delete(apps, schema_editor):
    from staff.roles import ROLES

    apps.get_model("auth", "Group").objects.filter(name__in=list(ROLES)).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("staff", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("chat", "0002_run_ending_rejected_drafts"),
        ("orders", "0001_initial"),
        ("guardrails", "0002_policy_bounds_and_versions"),
    ]

    operations = [migrations.RunPython(roles_create, roles_delete)]
