"""The API's JSON parser: DRF's, made safe for any body a client can send."""

from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

# Deeper than any body the API accepts; far below where Python's recursion limit bites.
MAX_JSON_DEPTH = 32


def json_depth_exceeds(data: object, limit: int) -> bool:
    """True if lists/objects nest deeper than `limit` (iterative: no recursion on hostile input)."""
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict):
            children = value.values()
        elif isinstance(value, list):
            children = value
        else:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False


class SafeJSONParser(JSONParser):
    """Every unreadable body is a ParseError (400): bad nesting, unknown charsets, invalid text."""

    def parse(self, stream, media_type=None, parser_context=None):
        try:
            data = super().parse(stream, media_type, parser_context)
        except (RecursionError, LookupError, UnicodeError):
            raise ParseError() from None
        if json_depth_exceeds(data, MAX_JSON_DEPTH):
            raise ParseError()
        return data
