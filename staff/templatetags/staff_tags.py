from typing import Any

from django import template
from django.utils.safestring import SafeString

from staff.display import json_pretty

register = template.Library()


@register.filter(name="json_pretty")
def json_pretty_filter(value: Any) -> SafeString:
    """Indented, escaped JSON in a <pre>."""
    return json_pretty(value)
