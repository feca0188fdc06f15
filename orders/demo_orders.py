"""Demo and synthetic orders, as raw records for the import path (orders/importing.py).

Demo dates are relative to `today`, so the demo always shows the same situations: one order
inside the return window, one outside, one on its last day, one not yet delivered, ...
"""

import random
from datetime import date, timedelta
from decimal import Decimal

SYNTHETIC_FIRST = 200000  # BK-200000..BK-299999: six digits starting with 2, unlike every demo id
SYNTHETIC_LAST = 299999


def _days_ago(today: date, days: int) -> str:
    return (today - timedelta(days=days)).isoformat()


def _order(
    order_id: str,
    name: str,
    email: str,
    status: str,
    ordered: str,
    delivered: str | None,
    tracking: str,
    payment: str,
    items: list[tuple[str, str, str, str]],
) -> dict:
    return {
        "order_id": order_id,
        "customer_name": name,
        "email": email,
        "status": status,
        "order_date": ordered,
        "delivered_date": delivered,
        "tracking_number": tracking,
        "payment_method": payment,
        "items": [
            {"title": title, "author": author, "price": price, "category": category}
            for title, author, price, category in items
        ],
        "total": str(sum((Decimal(price) for _, _, price, _ in items), Decimal("0.00"))),
    }


def demo_order_records(*, today: date) -> list[dict]:
    """The demo set as import records, dated relative to `today`."""

    def ago(days: int) -> str:
        return _days_ago(today, days)

    return [
        _order(
            "BK-10042",
            "Sarah Chen",
            "sarah.chen@example.com",
            "delivered",
            ago(20),
            ago(15),
            "1Z999AA10123456784",
            "Visa ending 4242",
            [
                ("The Goldfinch", "Donna Tartt", "16.99", "fiction"),
                ("Sapiens", "Yuval Noah Harari", "19.99", "nonfiction"),
            ],
        ),
        # Shipped 4 days ago; orders ship within a business day, so it was placed the day before.
        _order(
            "BK-10089",
            "James Murphy",
            "james.murphy@example.com",
            "shipped",
            ago(5),
            None,
            "1Z999AA10123456791",
            "Mastercard ending 5100",
            [("Project Hail Mary", "Andy Weir", "18.99", "fiction")],
        ),
        _order(
            "BK-10103",
            "Sarah Chen",
            "sarah.chen@example.com",
            "processing",
            ago(1),
            None,
            "",
            "Visa ending 4242",
            [("Tomorrow, and Tomorrow, and Tomorrow", "Gabrielle Zevin", "17.99", "fiction")],
        ),
        _order(
            "BK-9871",
            "Maria Gonzalez",
            "maria.gonzalez@example.com",
            "delivered",
            ago(60),
            ago(55),
            "1Z999AA10123450012",
            "PayPal",
            [("The Midnight Library", "Matt Haig", "15.99", "fiction")],
        ),
        # Digital items are not returnable; the printed book is.
        _order(
            "BK-10120",
            "David Park",
            "david.park@example.com",
            "delivered",
            ago(9),
            ago(6),
            "1Z999AA10123457020",
            "Amex ending 1005",
            [
                ("Dune", "Frank Herbert", "9.99", "ebook"),
                ("Educated", "Tara Westover", "14.99", "audiobook"),
                ("Lessons in Chemistry", "Bonnie Garmus", "17.99", "fiction"),
            ],
        ),
        # Nothing here can be returned: a gift card and a personalized edition.
        _order(
            "BK-10131",
            "Priya Patel",
            "priya.patel@example.com",
            "delivered",
            ago(14),
            ago(10),
            "1Z999AA10123457131",
            "Visa ending 1881",
            [
                ("Bookly Gift Card", "", "25.00", "gift_card"),
                ("The Little Prince (personalized edition)", "Antoine de Saint-Exupéry", "24.99", "personalized"),
            ],
        ),
        # Several printed books delivered recently: for partial returns.
        _order(
            "BK-10150",
            "Tom Becker",
            "tom.becker@example.com",
            "delivered",
            ago(6),
            ago(3),
            "1Z999AA10123457150",
            "Visa ending 0077",
            [
                ("Pachinko", "Min Jin Lee", "16.99", "fiction"),
                ("Braiding Sweetgrass", "Robin Wall Kimmerer", "18.00", "nonfiction"),
                ("Where the Sidewalk Ends", "Shel Silverstein", "14.99", "poetry"),
                ("Maus", "Art Spiegelman", "19.99", "comics"),
            ],
        ),
        # Delivered exactly 30 days ago: today is the last day of the return window.
        _order(
            "BK-10077",
            "Alex Rivera",
            "alex.rivera@example.com",
            "delivered",
            ago(34),
            ago(30),
            "1Z999AA10123457077",
            "Discover ending 6011",
            [("Circe", "Madeline Miller", "15.99", "fiction")],
        ),
        _order(
            "BK-10095",
            "Emma Wilson",
            "emma.wilson@example.com",
            "cancelled",
            ago(8),
            None,
            "",
            "Visa ending 3005",
            [("The Silent Patient", "Alex Michaelides", "13.99", "fiction")],
        ),
    ]


_FIRST_NAMES = ("Ava", "Ben", "Chloe", "Dev", "Elena", "Farid", "Grace", "Hiro", "Ines", "Jonah", "Kemi", "Liam")
_LAST_NAMES = ("Adams", "Brooks", "Costa", "Dubois", "Evans", "Fischer", "Garcia", "Haddad", "Ito", "Jensen")
_CATALOGUE = (
    ("The Hobbit", "J.R.R. Tolkien", "fiction"),
    ("Atomic Habits", "James Clear", "nonfiction"),
    ("Matilda", "Roald Dahl", "children"),
    ("Watchmen", "Alan Moore", "comics"),
    ("Milk and Honey", "Rupi Kaur", "poetry"),
    ("Oxford Dictionary", "Oxford", "reference"),
    ("Salt Fat Acid Heat", "Samin Nosrat", "cookbook"),
    ("Beloved", "Toni Morrison", "fiction"),
    ("Neuromancer", "William Gibson", "ebook"),
    ("Becoming", "Michelle Obama", "audiobook"),
    ("Bookly Gift Card", "", "gift_card"),
    ("Dear Reader (signed)", "Various", "personalized"),
)
_STATUSES = ("delivered", "delivered", "delivered", "shipped", "processing", "cancelled")


def synthetic_order_records(*, count: int, seed: int, first_number: int, today: date) -> list[dict]:
    """`count` valid random orders numbered from BK-<first_number>, reproducible for a seed."""
    rng = random.Random(seed)
    customers = max(1, count // 3)  # about three orders per customer
    records = []
    for number in range(first_number, first_number + count):
        customer = rng.randrange(customers)
        first, last = _FIRST_NAMES[customer % len(_FIRST_NAMES)], _LAST_NAMES[customer % len(_LAST_NAMES)]
        status = rng.choice(_STATUSES)
        ordered = rng.randint(2, 120)
        delivered = _days_ago(today, ordered - rng.randint(1, min(ordered - 1, 7))) if status == "delivered" else None
        items = [
            (title, author, f"{rng.randint(5, 40)}.{rng.choice(('00', '49', '99'))}", category)
            for title, author, category in rng.sample(_CATALOGUE, rng.randint(1, 4))
        ]
        tracking = f"1Z{number:016d}" if status in ("shipped", "delivered") else ""
        records.append(
            _order(
                f"BK-{number}",
                f"{first} {last}",
                f"{first}.{last}.{customer}@example.com".lower(),
                status,
                _days_ago(today, ordered),
                delivered,
                tracking,
                "original payment method",
                items,
            )
        )
    return records
