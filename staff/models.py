"""What the support team's own pages need: their permissions, and the figures kept after retention."""

from django.db import models


class StaffPermission(models.Model):
    """No rows: it only owns the permissions that are not about one model's add/change/delete/view."""

    class Meta:
        managed = False
        default_permissions = ()
        permissions = [
            ("view_dashboard", "Can view the support dashboard"),
            ("approve_return_any_amount", "Can approve a held return of any amount"),
        ]

    def __str__(self) -> str:
        return "Staff permissions"


class DailyFigures(models.Model):
    """One day's dashboard figures, stored before retention deletes that day's conversations."""

    day = models.DateField(unique=True)
    figures = models.JSONField(help_text="The dashboard's figures for this day, as computed before deletion.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-day"]
        verbose_name_plural = "daily figures"

    def __str__(self) -> str:
        return f"Figures for {self.day}"
