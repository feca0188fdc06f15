"""Small HTML helpers the admin pages share: links to records, pretty JSON, an error mark."""

import json
from typing import Any

from django.contrib import admin
from django.urls import NoReverseMatch, reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe


def admin_link(model_label: str, pk: Any, text: str) -> SafeString | str:
    """A link to a record's admin page (`model_label` like "chat_thread"); plain text if none."""
    if pk is None:
        return "-"
    try:
        url = reverse(f"admin:{model_label}_change", args=[pk])
    except NoReverseMatch:
        return text
    return format_html('<a href="{}">{}</a>', url, text)


def thread_link(thread_id: Any) -> SafeString | str:
    """A short, fixed-width link to a thread (the full uuid would stretch a list column)."""
    return admin_link("chat_thread", thread_id, str(thread_id)[:8]) if thread_id else "-"


def json_dumps(value: Any, *, indent: int | None = None) -> str:
    return json.dumps(value, indent=indent, ensure_ascii=False, sort_keys=True, default=str)


def json_pretty(value: Any) -> SafeString:
    """JSON indented in a <pre>, escaped: staff read model output and customer text here."""
    return format_html('<pre class="staff-json">{}</pre>', json_dumps(value, indent=2))


def error_mark(is_error: bool) -> SafeString:
    """A red cross for a failed call, a plain "ok" otherwise (never a green tick on a failure)."""
    if is_error:
        return mark_safe('<span class="staff-error" title="The call failed">✗ error</span>')
    return mark_safe('<span class="staff-ok">ok</span>')


class ReadOnlyAdmin(admin.ModelAdmin):
    """A record staff look at but never add, edit or delete here (history, transcripts, decisions)."""

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False
