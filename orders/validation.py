"""Format rules for order ids, emails and free text, shared by the import and the chat tools.

Everything here is pure and ASCII-strict on purpose: `\\d` and `$` in Python regexes accept
non-ASCII digits and a trailing newline, so the patterns spell out `[0-9]` and use fullmatch.
"""

import re
import unicodedata

ORDER_ID_PATTERN = r"BK-[0-9]{4,6}"
_ORDER_ID_RE = re.compile(ORDER_ID_PATTERN)

EMAIL_MAX_LENGTH = 254
_EMAIL_RE = re.compile(
    r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*"
    r"@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}"
)

# Control, format (bidi overrides, zero-width), surrogate, private-use, unassigned, and
# line/paragraph separators: none belongs in an order id, a name, a title or a reason.
_FORBIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


def has_control_chars(text: str) -> bool:
    """True when `text` contains a character no stored or tool-supplied text may contain."""
    if text.isascii():  # fast path: the only unprintable ASCII characters are controls
        return not text.isprintable()
    return any(unicodedata.category(char) in _FORBIDDEN_CATEGORIES for char in text)


def order_id_normalise(value: str) -> str:
    """`value` trimmed and upper-cased; does not check the format (see order_id_is_valid)."""
    return value.strip().upper()


def order_id_is_valid(value: str) -> bool:
    """True for exactly `BK-` and 4 to 6 ASCII digits (no normalisation applied)."""
    return _ORDER_ID_RE.fullmatch(value) is not None


def email_normalise(value: str) -> str:
    """`value` trimmed and lower-cased: how emails are stored and compared."""
    return value.strip().lower()


def email_is_valid(value: str) -> bool:
    """True for a plain ASCII address of at most 254 characters (local part at most 64)."""
    if len(value) > EMAIL_MAX_LENGTH or has_control_chars(value):
        return False
    if _EMAIL_RE.fullmatch(value) is None:
        return False
    return len(value.rsplit("@", 1)[0]) <= 64
