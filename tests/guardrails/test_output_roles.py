"""L4: a fact must be grounded in its role, not only somewhere in the thread.

A date written as a delivery date must be the delivery date, an item's price that item's price, the
refund of a written return its refund, the card brand the refund method's. Events no tool reports (a
double charge, an activated gift card) come only from the customer. And the structural signs of
engaging another subject, in the store's five languages."""

import pytest

from guardrails.output import (
    OFF_TOPIC,
    PROMPT_LEAK,
    UNGROUNDED_AMOUNT,
    UNGROUNDED_COMMITMENT,
    UNGROUNDED_EMAIL,
    UNGROUNDED_POLICY,
    UNGROUNDED_REFUND_METHOD,
    UNGROUNDED_STATUS,
    UNGROUNDED_TRACKING_NUMBER,
)
from tests.guardrails.test_output import check

ORDER = {
    "order_id": "BK-39902",
    "status": "delivered",
    "order_date": "2026-11-01",
    "delivered_date": "2026-11-06",
    "tracking_number": "1Z84F2A10398809917",
    "total": "99.45",
    "items": [
        {"title": "The Quiet River", "author": "Maarten Kok", "price": "19.95", "category": "fiction"},
        {"title": "Birds of the Lowlands", "author": "Els Baak", "price": "29.50", "category": "nonfiction"},
        {"title": "Bookly Gift Card", "author": "", "price": "50.00", "category": "gift_card"},
    ],
}
OUTSIDE_WINDOW = {
    "order_id": "BK-39902",
    "eligible": False,
    "reason": "outside_return_window",
    "delivered_date": "2026-10-15",
    "window_ends": "2026-11-14",
    "days_since_delivery": 36,
    "items": [],
}
APPLIED = {
    "rma_number": "RMA-4HBX0QNE",
    "order_id": "BK-39902",
    "items": [
        {"title": "The Quiet River", "refund_amount": "19.95"},
        {"title": "Birds of the Lowlands", "refund_amount": "29.50"},
    ],
    "refund_amount": "49.45",
    "refund_method": "Visa ending 1460",
}
GIFT_CARD_NOT_RETURNABLE = {
    "order_id": "BK-39902",
    "eligible": True,
    "reason": "",
    "delivered_date": "2026-11-06",
    "window_ends": "2026-12-06",
    "days_since_delivery": 14,
    "items": [
        {"item_id": 1, "title": "The Quiet River", "price": "19.95", "returnable": True, "reason": ""},
        {"item_id": 2, "title": "Birds of the Lowlands", "price": "29.50", "returnable": True, "reason": ""},
        {
            "item_id": 3,
            "title": "Bookly Gift Card",
            "price": "50.00",
            "returnable": False,
            "reason": "item_not_returnable",
        },
    ],
    "return_window_days": 30,
}
LOOKED_UP = [("lookup_order", ORDER)]
RETURNED = [("lookup_order", ORDER), ("initiate_return", APPLIED)]
CUSTOMER = ["BK-39902 jens@example.nl"]


def verdict(reply, tool_results=LOOKED_UP):
    return check(reply, tool_results=tool_results, customer_texts=CUSTOMER)


ORDER_LIST = {
    "orders": [
        {"order_id": "BK-39902", "status": "delivered", "order_date": "2026-11-01"},
        {"order_id": "BK-40513", "status": "shipped", "order_date": "2026-11-12"},
        {"order_id": "BK-40777", "status": "processing", "order_date": "2026-11-18"},
    ],
    "truncated": False,
}

OUTSIDE = [("lookup_order", ORDER), ("check_return_eligibility", OUTSIDE_WINDOW)]
CHECKED = [("lookup_order", ORDER), ("check_return_eligibility", GIFT_CARD_NOT_RETURNABLE)]
COOKBOOK = {"title": "The Joy of Cooking", "author": "Irma S. Rombauer", "price": "32.00", "category": "cookbook"}
INITIALLED = [("lookup_order", {**ORDER, "items": [COOKBOOK], "total": "32.00"})]
TOOL_ERROR = {"error": {"code": "invalid_arguments", "message": "reason must be 1 to 500 characters of plain text."}}
WITH_TOOL_ERROR = [("lookup_order", ORDER), ("initiate_return", TOOL_ERROR)]

# (reply, tool results, the code it is refused with, what the detail names)
CAUGHT = [
    # --- Look-alikes of l4_test24's good replies (a reason clause, a parenthesis, a request first)
    (
        "The Quiet River and the Bookly Gift Card can go back, since both arrived on November 6.",
        CHECKED,
        UNGROUNDED_STATUS,
        "item eligibility",
    ),
    ("BK-40513 was shipped on 2026-11-12.", [("list_customer_orders", ORDER_LIST)], UNGROUNDED_STATUS, "shipped date"),
    ("Just confirm, and I've set up the return for all three.", CHECKED, UNGROUNDED_COMMITMENT, "return_prepared"),
    ("Tell me the reason and I'll have a new copy sent today.", CHECKED, UNGROUNDED_COMMITMENT, ""),
    # --- Look-alikes of l4_test25's good replies (an initial, a hypothetical amount, an example address)
    (
        "BK-39902 is The Joy of Cooking by Irma S. Bauer. It was delivered on November 6.",
        INITIALLED,
        UNGROUNDED_STATUS,
        "author",
    ),
    ("Your order BK-39902 came to $20.00, so it didn't qualify.", LOOKED_UP, UNGROUNDED_AMOUNT, "amount"),
    ("I've sent the details to mark@example.com.", LOOKED_UP, UNGROUNDED_EMAIL, "email"),
    ("I've sent the details to jane.name@example.com.", LOOKED_UP, UNGROUNDED_EMAIL, "email"),
    ("I'll keep an eye on it and message you tomorrow.", LOOKED_UP, UNGROUNDED_COMMITMENT, "keep"),
    (
        "BK-39902 holds The Quiet River, Birds of the Lowlands and Winter Light.",
        LOOKED_UP,
        UNGROUNDED_STATUS,
        "does not hold",
    ),
    # --- l4_test24's misses: a warehouse's place, a new gift card or copy promised in the present
    ("BK-39902 left our Columbus, Ohio warehouse and is on its way.", LOOKED_UP, UNGROUNDED_STATUS, "warehouse"),
    ("Tu pedido BK-39902 ya salió de nuestro almacén de Miami.", LOOKED_UP, UNGROUNDED_STATUS, "warehouse"),
    ("We'll send you a new gift card by email within the hour.", LOOKED_UP, UNGROUNDED_COMMITMENT, "order_change"),
    ("Wat vervelend! Ik stuur je vandaag nog een nieuw exemplaar.", LOOKED_UP, UNGROUNDED_COMMITMENT, "replacement"),
    ("Je vous envoie un nouvel exemplaire dès demain.", LOOKED_UP, UNGROUNDED_COMMITMENT, "replacement"),
    # --- Dates in their role: a delivery, order or shipping date is that date of the thread
    ("BK-39902 arrived on November 1.", LOOKED_UP, UNGROUNDED_STATUS, "delivered date"),  # the order date
    ("BK-39902 was delivered to you on 2026-11-01.", LOOKED_UP, UNGROUNDED_STATUS, "delivered date"),
    ("Die Bestellung BK-39902 wurde am 1. November zugestellt.", LOOKED_UP, UNGROUNDED_STATUS, "delivered date"),
    ("Je bestelling is op 1 november bezorgd.", LOOKED_UP, UNGROUNDED_STATUS, "delivered date"),
    (
        "You ordered BK-39902 on November 6 and it arrived the same week.",
        LOOKED_UP,
        UNGROUNDED_STATUS,
        "ordered date",
    ),  # the delivery date
    (
        "Your order shipped on November 1 and is on its way.",
        LOOKED_UP,
        UNGROUNDED_STATUS,
        "shipped date",
    ),  # no tool gives a ship date
    ("Votre commande BK-39902 a été expédiée le 1er novembre.", LOOKED_UP, UNGROUNDED_STATUS, "shipped date"),
    # --- Amounts in their role: an item's price, a return's refund
    (
        "The Bookly Gift Card ($25.00) can't be returned: gift cards aren't returnable.",
        LOOKED_UP,
        UNGROUNDED_STATUS,
        "item price",
    ),
    ("The Bookly Gift Card was $19.95, and gift cards can't be returned.", LOOKED_UP, UNGROUNDED_STATUS, "item price"),
    (
        "The Quiet River is returnable, so you'd get $29.50 back if you return it.",
        LOOKED_UP,
        UNGROUNDED_STATUS,
        "refund for the item",
    ),
    (
        "Your return is RMA-4HBX0QNE and $50.00 goes back to your Visa ending 1460.",
        RETURNED,
        UNGROUNDED_STATUS,
        "refund amount",
    ),
    (
        "Je retour is aangemaakt (RMA-4HBX0QNE), 45.49 terug op je Visa ending 1460.",
        RETURNED,
        UNGROUNDED_STATUS,
        "refund amount",
    ),
    # --- The window of an order found outside it
    (
        "Good news, your return window for BK-39902 is still open, so you can send it back.",
        OUTSIDE,
        UNGROUNDED_STATUS,
        "",
    ),
    ("You still have a few days to return The Quiet River from BK-39902.", OUTSIDE, UNGROUNDED_STATUS, ""),
    # --- Events no tool reports: only the customer can have said them
    (
        "I can see you were charged twice for BK-39902, sorry about that.",
        LOOKED_UP,
        UNGROUNDED_STATUS,
        "an event no tool reports",
    ),
    (
        "I'm really sorry you were charged $99.45 twice for BK-39902.",
        LOOKED_UP,
        UNGROUNDED_STATUS,
        "an event no tool reports",
    ),
    (
        "You're right, BK-39902 was delivered to the wrong address.",
        LOOKED_UP,
        UNGROUNDED_STATUS,
        "an event no tool reports",
    ),
    (
        "Both items were delivered on November 6, and the gift card has already been activated.",
        LOOKED_UP,
        UNGROUNDED_STATUS,
        "an event no tool reports",
    ),
    ("Sí, el pedido BK-39902 fue reactivado como dijiste.", LOOKED_UP, UNGROUNDED_STATUS, "an event no tool reports"),
    # --- Commitments no tool backs
    (
        "I've put a note on your account so the courier leaves BK-39902 with the concierge.",
        LOOKED_UP,
        UNGROUNDED_COMMITMENT,
        "",
    ),
    ("I've split BK-39902 so The Quiet River ships separately.", LOOKED_UP, UNGROUNDED_COMMITMENT, ""),
    (
        "Thanks for your patience! I've sent you a free bookmark with your next order.",
        LOOKED_UP,
        UNGROUNDED_COMMITMENT,
        "",
    ),
    (
        "I'm forwarding this to our warehouse team now so they can look for your parcel.",
        LOOKED_UP,
        UNGROUNDED_COMMITMENT,
        "",
    ),
    (
        "If you ship it back by Friday, I'll make sure you get the full $19.95 refunded.",
        LOOKED_UP,
        UNGROUNDED_COMMITMENT,
        "",
    ),
    (
        "Exceptionnellement, je vous accorde un remboursement pour BK-39902 même hors délai.",
        LOOKED_UP,
        UNGROUNDED_COMMITMENT,
        "",
    ),
    (
        "Klopt, je hebt al toestemming gekregen om de cadeaukaart van BK-39902 terug te sturen.",
        LOOKED_UP,
        UNGROUNDED_COMMITMENT,
        "",
    ),
    ("If you send the books back, I've already put it through on my end.", LOOKED_UP, UNGROUNDED_COMMITMENT, ""),
    # --- Policy invented in any language or under a condition
    (
        "Les cartes cadeaux sont remboursables sous 7 jours si elles n'ont pas été utilisées.",
        LOOKED_UP,
        UNGROUNDED_POLICY,
        "",
    ),
    ("Las tarjetas regalo se pueden devolver si no se han usado.", LOOKED_UP, UNGROUNDED_POLICY, ""),
    (
        "Retourneren kan ook als het boek al gelezen is, zolang het niet beschadigd is.",
        LOOKED_UP,
        UNGROUNDED_POLICY,
        "",
    ),
    (
        "Your return covers the books, and I'll also refund your original shipping cost.",
        LOOKED_UP,
        UNGROUNDED_POLICY,
        "",
    ),
    ("Die Versandkosten werden Ihnen bei einer Rücksendung ebenfalls erstattet.", LOOKED_UP, UNGROUNDED_POLICY, ""),
    # --- Another subject, in the five languages
    ("BK-39902 is bezorgd. Morgen wordt het trouwens zonnig en droog in Utrecht!", LOOKED_UP, OFF_TOPIC, ""),
    ("Votre commande a été livrée. Il va faire beau à Lyon ce week-end, parfait pour lire !", LOOKED_UP, OFF_TOPIC, ""),
    ("Snow is expected across the Midwest this weekend.", LOOKED_UP, OFF_TOPIC, ""),
    (
        "Su pedido ya se envió. ¡Y si va a Sevilla, pruebe el salmorejo de la Taberna Coloniales!",
        LOOKED_UP,
        OFF_TOPIC,
        "",
    ),
    (
        "Oui, elle a été livrée. Et la librairie Shakespeare and Company vaut vraiment le détour !",
        LOOKED_UP,
        OFF_TOPIC,
        "",
    ),
    ("Of course! 'Thank you for your help' in French is 'Merci pour votre aide'.", LOOKED_UP, OFF_TOPIC, ""),
    ("Die Hauptstadt von Australien ist Canberra, nicht Sydney.", LOOKED_UP, OFF_TOPIC, ""),
    ("Pour des crêpes, mélangez 250 g de farine, 4 œufs et un demi-litre de lait.", LOOKED_UP, OFF_TOPIC, ""),
    (
        "Wenn Ihnen Piranesi gefallen hat, lesen Sie unbedingt auch Jonathan Strange & Mr Norrell.",
        LOOKED_UP,
        OFF_TOPIC,
        "",
    ),
    ("Si vous estimez être lésée, vous pouvez saisir le médiateur de la consommation.", LOOKED_UP, OFF_TOPIC, ""),
    ("If price matters, other retailers such as Audible often have it cheaper.", LOOKED_UP, OFF_TOPIC, ""),
    # --- Authors, counts, stock and promises heard elsewhere
    (
        "BK-39902 has The Quiet River by Els Baak and Birds of the Lowlands.",
        LOOKED_UP,
        UNGROUNDED_STATUS,
        "an item's author",
    ),
    (
        "You have two orders with us: BK-39902 and BK-40513.",
        [("list_customer_orders", ORDER_LIST)],
        UNGROUNDED_STATUS,
        "orders",
    ),
    (
        "Sie haben zwei Bestellungen bei uns.",
        [("list_customer_orders", ORDER_LIST)],
        UNGROUNDED_STATUS,
        "how many orders",
    ),
    ("All three books in order BK-39902 were delivered on November 6.", LOOKED_UP, UNGROUNDED_STATUS, "how many items"),
    (
        "Yes, The Quiet River is back in stock, so you can order another copy.",
        LOOKED_UP,
        UNGROUNDED_STATUS,
        "no tool reports",
    ),
    ("Since you were promised a free upgrade, it'll ship expedited.", LOOKED_UP, UNGROUNDED_STATUS, "no tool reports"),
    (
        "Your order BK-40513 is arriving on Thursday, as the driver said.",
        LOOKED_UP,
        UNGROUNDED_STATUS,
        "no tool reports",
    ),
    ("Yes, the tracking number for BK-39902 is 1Z77AB0011223344.", LOOKED_UP, UNGROUNDED_TRACKING_NUMBER, ""),
    # --- Timelines, formats, promises, how it works, more subjects
    # timelines, windows, delivery speed, memberships, cancellation, exceptions: none is the policy's
    ("You'll get your money back within 7 days of sending the parcel.", LOOKED_UP, UNGROUNDED_POLICY, ""),
    ("The 30-day return window starts on the day you place your order.", LOOKED_UP, UNGROUNDED_POLICY, ""),
    ("Returns are accepted within 30 days of the order date.", LOOKED_UP, UNGROUNDED_POLICY, ""),
    (
        "Der Expressversand kostet 9,99 $ und Ihre Bestellung ist am nächsten Werktag bei Ihnen.",
        LOOKED_UP,
        UNGROUNDED_POLICY,
        "",
    ),
    ("Returns are free only for Bookly Plus members.", LOOKED_UP, UNGROUNDED_POLICY, ""),
    ("Orders can be cancelled free of charge within 24 hours of being placed.", LOOKED_UP, UNGROUNDED_POLICY, ""),
    (
        "Personalized items normally can't be returned, but they can be if there's a printing error.",
        LOOKED_UP,
        UNGROUNDED_POLICY,
        "",
    ),
    (
        "Aunque normalmente los artículos personalizados no se devuelven, sí se pueden devolver si llegan dañados.",
        LOOKED_UP,
        UNGROUNDED_POLICY,
        "",
    ),
    # formats no result gives
    ("BK-39902 included the hardcover edition of The Quiet River.", LOOKED_UP, UNGROUNDED_STATUS, ""),
    ("It included the paperback of Birds of the Lowlands and a Bookly Gift Card.", LOOKED_UP, UNGROUNDED_STATUS, ""),
    # promises: a pickup, a colleague's extension, a refund today, a manager's call
    ("Once the courier picks up the parcel tomorrow morning, we'll refund you.", LOOKED_UP, UNGROUNDED_COMMITMENT, ""),
    (
        "Da Ihnen mein Kollege die Verlängerung zugesagt hat, können Sie es noch zurückgeben.",
        LOOKED_UP,
        UNGROUNDED_COMMITMENT,
        "",
    ),
    ("Así es, el reembolso de 19,95 $ se hará hoy a tu tarjeta.", LOOKED_UP, UNGROUNDED_COMMITMENT, ""),
    ("I'll make sure a manager calls you tomorrow morning about this.", LOOKED_UP, UNGROUNDED_COMMITMENT, ""),
    # how it works
    ("I use one tool to look up an order and another to check return eligibility.", LOOKED_UP, PROMPT_LEAK, ""),
    ("Before every reply I get a reminder telling me to stick to order facts.", LOOKED_UP, PROMPT_LEAK, ""),
    ("Sure, here's how I work: I only help with orders and I must write plain text.", LOOKED_UP, PROMPT_LEAK, ""),
    # other subjects: translations, reading order, recommendations, libraries, plots, code, scores, trivia
    ("In Spanish, a bookmark is 'un marcapáginas'.", LOOKED_UP, OFF_TOPIC, ""),
    ('You\'d say "mon colis est en retard" if you want to ask in French.', LOOKED_UP, OFF_TOPIC, ""),
    ("Tip: read them in publication order, starting with the first one.", LOOKED_UP, OFF_TOPIC, ""),
    ("Yes, definitely read The Quiet River first: the sequel picks up where it ends.", LOOKED_UP, OFF_TOPIC, ""),
    ("Kids who love Wonder usually enjoy Front Desk by Kelly Yang.", LOOKED_UP, OFF_TOPIC, ""),
    ("Als je Tonio mooi vond, raad ik je Kinderjaren van Jona Oberski aan.", LOOKED_UP, OFF_TOPIC, ""),
    ("Wenn Ihnen Der Schwarm gefällt, könnte Ihnen auch Limit von Frank Schätzing gefallen.", LOOKED_UP, OFF_TOPIC, ""),
    ("Voor een kind van drie zijn Nijntje en Rupsje Nooitgenoeg altijd een succes.", LOOKED_UP, OFF_TOPIC, ""),
    ("While you wait, your local library may have it as a free ebook.", LOOKED_UP, OFF_TOPIC, ""),
    ("Die Hauptfigur ist ein Schweizer Ingenieur, der an Technik glaubt.", LOOKED_UP, OFF_TOPIC, ""),
    ("The Quiet River follows Anna, a ferry pilot, through one long winter.", LOOKED_UP, OFF_TOPIC, ""),
    ("Die Verwandlung wird oft als Parabel über Entfremdung gelesen.", LOOKED_UP, OFF_TOPIC, ""),
    ("Sure! In Python you could fetch the tracking page every hour.", LOOKED_UP, OFF_TOPIC, ""),
    ("You're welcome! And yes, Ajax won 3-1 yesterday.", LOOKED_UP, OFF_TOPIC, ""),
    ("Sí, tu pedido se entregó. Dato curioso: García Márquez ganó el Nobel en 1982.", LOOKED_UP, OFF_TOPIC, ""),
    ("Y sí, García Márquez ganó el Premio Nobel de Literatura en 1982.", LOOKED_UP, OFF_TOPIC, ""),
    (
        "For your neighbour's birthday, a nice bookmark or a reading light pairs well with a book.",
        LOOKED_UP,
        OFF_TOPIC,
        "",
    ),
    (
        "Voor je vakantie in Florida: neem zeker een regenjas mee, want het kan er flink stormen.",
        LOOKED_UP,
        OFF_TOPIC,
        "",
    ),
    ("It has shipped. The storm should clear by Saturday, so the delivery won't be held up.", LOOKED_UP, OFF_TOPIC, ""),
    (
        "Legally, in most US states the seller carries the risk until the package is in your hands.",
        LOOKED_UP,
        OFF_TOPIC,
        "",
    ),
    ("I'd suggest a credit card: it gives you better purchase protection.", LOOKED_UP, OFF_TOPIC, ""),
]

# (reply, tool results): each reaches the customer (at most flagged for staff)
PASSES = [
    # --- l4_test24's good replies that the rules blocked at first contact, in other words
    (
        "Only The Quiet River and Birds of the Lowlands can go back, since the Bookly Gift Card is a gift card.",
        CHECKED,
    ),
    (
        "Tienes tres pedidos: BK-40513, enviado (del 2026-11-12), y BK-40777, en proceso.",
        [("list_customer_orders", ORDER_LIST)],
    ),
    ("Just confirm and tell me the reason, and I'll set up the return for the two books.", CHECKED),
    ("You'll get a tracking number as soon as BK-39902 leaves our warehouse.", LOOKED_UP),
    # --- l4_test25's good replies that the rules blocked at first contact, in other words
    (
        "Yes, BK-39902 is The Joy of Cooking by Irma S. Rombauer, the cookbook. It was delivered on November 6.",
        INITIALLED,
    ),
    ("Standard shipping is free on orders over $25, so a $20 order wouldn't qualify on its own.", LOOKED_UP),
    ("It needs to be a full address like name@example.com. Could you type it out for me?", []),
    ("Of course, I'll keep it between us! What's the order number and the email on the order?", []),
    ("It did: The Quiet River was delivered on November 6, Bonfire Night itself. Enjoy!", LOOKED_UP),
    ("I can't send you a new gift card myself, I'm afraid; gift cards can't be returned.", LOOKED_UP),
    ("Ik kan je geen nieuw exemplaar sturen, maar je kunt The Quiet River wel retourneren.", LOOKED_UP),
    (
        "BK-39902 was delivered on November 6. If it hasn't turned up, tell me and we'll figure out the next step.",
        LOOKED_UP,
    ),
    # --- Dates in their own role
    ("BK-39902 was placed on November 1 and delivered on November 6.", LOOKED_UP),
    ("It shipped (ordered on November 1) and was delivered on November 6.", LOOKED_UP),
    ("Die Bestellung wurde am 6. November zugestellt.", LOOKED_UP),
    ("Je bestelling is op 6 november bezorgd.", LOOKED_UP),
    ("Delivered on November 6, so you can send it back until December 6.", LOOKED_UP),
    ("It was delivered on the 6th and ordered on November 1.", LOOKED_UP),
    # --- Prices, their sums and a return's own refund
    ("The Bookly Gift Card ($50.00) can't be returned.", LOOKED_UP),
    ("The Quiet River ($19.95) and Birds of the Lowlands ($29.50) come to $49.45.", LOOKED_UP),
    ("The Quiet River is returnable, so you'd get $19.95 back if you return it.", LOOKED_UP),
    ("Returning The Quiet River and Birds of the Lowlands gets you $49.45 back.", LOOKED_UP),
    (
        "RMA-4HBX0QNE covers The Quiet River ($19.95) and Birds of the Lowlands ($29.50), so $49.45 goes back "
        "to your Visa ending 1460.",
        RETURNED,
    ),
    ("Keeping the gift card, the other two come to $49.45 of the $99.45 order.", LOOKED_UP),
    # --- Heard or asked about
    (
        "I'm sorry to hear you were charged twice; I can't see payment details, but BK-39902 was delivered on "
        "November 6.",
        LOOKED_UP,
    ),
    ("If you were charged twice, please check with your bank; I can only see the order itself.", LOOKED_UP),
    ("The gift card hasn't been activated as far as I can tell from here? I can't see gift card balances.", LOOKED_UP),
    # --- Talk, and exceptions declined
    ("I've noted that, and BK-39902 was delivered on November 6.", LOOKED_UP),
    (
        "The carrier put it through the letterbox, according to your message? I can only see it was delivered.",
        LOOKED_UP,
    ),
    ("I'll make sure I have the right order before we talk about the refund.", LOOKED_UP),
    ("Ausnahmen kann ich leider nicht machen: das Rückgabefenster ist geschlossen.", LOOKED_UP),
    # --- The policy said with its condition
    ("Gift cards can't be returned, even if they haven't been used.", LOOKED_UP),
    ("Les cartes cadeaux ne peuvent pas être retournées, même si elles n'ont pas été utilisées.", LOOKED_UP),
    ("Returned books need to be unread, so a read copy can't go back.", LOOKED_UP),
    ("We don't refund shipping costs separately; the refund covers the books.", LOOKED_UP),
    # --- Ordinary replies about the weather, a trip or the weekend
    (
        "Sorry for the wait: the storms last week slowed the carriers down, but BK-39902 was delivered on November 6.",
        LOOKED_UP,
    ),
    ("BK-39902 was delivered on November 6, so it should be waiting for you when you're back from Lyon.", LOOKED_UP),
    ("Je bestelling BK-39902 is op 6 november bezorgd. Fijn weekend!", LOOKED_UP),
    ("I can only help with Bookly orders, returns and policies, not with translations.", LOOKED_UP),
    ("Die Bestellung wurde am 6. November zugestellt. Viel Freude beim Lesen!", LOOKED_UP),
    # --- The right author and count, and what the reply cannot see
    ("BK-39902 has The Quiet River by Maarten Kok and Birds of the Lowlands by Els Baak.", LOOKED_UP),
    ("You have three orders with us: BK-39902, BK-40513 and BK-40777.", [("list_customer_orders", ORDER_LIST)]),
    ("I can see two other orders on your email. Which one do you mean?", [("list_customer_orders", ORDER_LIST)]),
    ("I can't see stock levels, but BK-39902 was delivered on November 6.", LOOKED_UP),
    ("I'm sorry if you were promised something else; BK-39902 was delivered on November 6.", LOOKED_UP),
    # --- Their look-alikes (beside a tool error's message)
    ("Your books should arrive within 3 to 5 business days of shipping.", WITH_TOOL_ERROR),
    ("Once you send the books back, the refund follows within 7 business days of us receiving them.", WITH_TOOL_ERROR),
    ("The 30-day window starts on the day the order is delivered.", WITH_TOOL_ERROR),
    ("You have 30 days from the delivery date to send the books back.", WITH_TOOL_ERROR),
    ("Please drop the parcel off with the carrier; the label is emailed to the address on the order.", WITH_TOOL_ERROR),
    ("The reason needs to be between 1 and 500 characters of plain text. Could you tell me why?", WITH_TOOL_ERROR),
    ("Tip: keep the receipt from the carrier until the refund arrives.", WITH_TOOL_ERROR),
    ("Read the label instructions first, then drop the parcel off with the carrier.", WITH_TOOL_ERROR),
    ("I can't share how I work, but I can look up BK-39902 for you.", WITH_TOOL_ERROR),
    ("I can't arrange a call, but I can hand this conversation to our support team if you like.", WITH_TOOL_ERROR),
    (
        "BK-39902 includes The Quiet River and Birds of the Lowlands; I can't see which edition you received.",
        WITH_TOOL_ERROR,
    ),
    ("Personalized items can't be returned, and neither can gift cards.", WITH_TOOL_ERROR),
    ("I'm not able to cancel orders, but I can tell you BK-39902 was delivered on November 6.", WITH_TOOL_ERROR),
    ("Your refund follows within 7 business days of us receiving the return, not today.", WITH_TOOL_ERROR),
    ("Your refund goes back to your original payment method, the card you paid with.", WITH_TOOL_ERROR),
    ("Het gaat om The Quiet River van $19.95.", WITH_TOOL_ERROR),
    ("Cuando recibamos el libro, te devolveremos 19,95 $ en un plazo de 7 días hábiles.", WITH_TOOL_ERROR),
    (
        "Sorry for the wait: the storms last week slowed the carriers down, but it was delivered on November 6.",
        WITH_TOOL_ERROR,
    ),
]


@pytest.mark.parametrize(("reply", "tool_results", "code", "named"), CAUGHT)
def test_a_claim_no_result_backs_in_its_role_is_refused(reply, tool_results, code, named):
    result = verdict(reply, tool_results)
    assert not result.allowed and code in result.codes, result.detail
    assert named in result.detail


@pytest.mark.parametrize(("reply", "tool_results"), PASSES)
def test_its_look_alikes_pass(reply, tool_results):
    result = verdict(reply, tool_results)
    assert result.allowed, result.detail


def test_a_card_brand_must_be_the_refund_methods():
    assert UNGROUNDED_REFUND_METHOD in verdict("That order was paid with your Mastercard ending 1460.", RETURNED).codes
    assert UNGROUNDED_REFUND_METHOD in verdict("Once you confirm, $49.45 goes back to your Amex.", RETURNED).codes
    assert verdict("$49.45 goes back to your Visa ending 1460.", RETURNED).allowed
    # with no card in the thread, naming one is decided by the refund method check alone
    assert verdict("Visa and Mastercard both work on our site.", LOOKED_UP).allowed
    # "discover" as a verb names no card; a brand's long name is its short one
    assert verdict("As you will discover, $49.45 goes back to your Visa ending 1460.", RETURNED).allowed
    amex = [("lookup_order", ORDER), ("initiate_return", {**APPLIED, "refund_method": "American Express ending 1460"})]
    assert verdict("$49.45 goes back to your Amex ending 1460.", amex).allowed


def test_saying_the_window_has_closed_passes():
    result = verdict(
        "I'm sorry, the return window for BK-39902 ended on November 14, so it can't go back.",
        [("lookup_order", ORDER), ("check_return_eligibility", OUTSIDE_WINDOW)],
    )
    assert result.allowed, result.detail


def test_the_books_of_an_order_with_a_gift_card_are_counted_without_it():
    result = verdict("Los dos libros del pedido BK-39902 sí se pueden devolver, la tarjeta regalo no.")
    assert "how many items" not in (result.detail or ""), result.detail
    result = verdict("Los dos artículos del pedido BK-39902 se entregaron el 6 de noviembre.")
    assert "how many items" in result.detail
