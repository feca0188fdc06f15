"""The store's policies: the single source of truth for the prompt, the tools and the checks.

Text here is quoted verbatim to customers by `lookup_policy`; the return facts are also
what eligibility is computed from (orders/services.py).
"""

from decimal import Decimal

RETURN_WINDOW_DAYS = 30
REFUND_BUSINESS_DAYS = 7
NON_RETURNABLE_CATEGORIES = frozenset({"ebook", "audiobook", "gift_card", "personalized"})
RETURN_CONDITION = "unread, undamaged, and in the original packaging"
REFUND_METHOD = "original payment method"
MAX_REFUND_WITHOUT_HUMAN = Decimal("200.00")

POLICY_TOPICS = ("shipping", "password_reset", "returns_overview")

POLICY_TEXTS: dict[str, str] = {
    "shipping": (
        "Standard shipping is free on orders over $25 and takes 3 to 5 business days. "
        "Expedited shipping takes 1 to 2 business days and costs $9.99. "
        "We ship to all 50 US states; we do not ship internationally."
    ),
    "password_reset": (
        'To reset your password, go to bookly.com/account/login and choose "Forgot password". '
        "We will email you a reset link; it expires after 24 hours. If the email does not arrive, "
        "check your spam folder."
    ),
    "returns_overview": (
        f"You can return books within {RETURN_WINDOW_DAYS} days of delivery for a full refund to your "
        f"{REFUND_METHOD}, as long as they are {RETURN_CONDITION}. Refunds typically arrive within "
        f"{REFUND_BUSINESS_DAYS} business days of us receiving the return. "
        "Ebooks, audiobooks, gift cards and personalized items cannot be returned."
    ),
}

# What a customer is told once a return is started (initiate_return). No numbers beyond the
# policy's own, so every fact in the reply is grounded in this module.
RETURN_LABEL_INSTRUCTIONS = (
    "A prepaid return label will be emailed to the address on the order. Pack the items so they stay "
    f"{RETURN_CONDITION}, attach the label, and drop the parcel off with the carrier."
)
REFUND_TIMELINE = f"within {REFUND_BUSINESS_DAYS} business days of us receiving the return"
