from django.apps import AppConfig


class StaffConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "staff"
    verbose_name = "Support staff"

    def ready(self) -> None:
        from django.db.models.signals import post_migrate

        from staff.roles import roles_sync_after_migrate

        # After every app's migrations (and every test-database flush), so the groups follow the
        # permissions of models added later, e.g. a new app's approvals.
        post_migrate.connect(roles_sync_after_migrate, dispatch_uid="staff.roles_sync")
