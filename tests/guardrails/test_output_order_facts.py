"""L4 grounding of an order's facts beyond its numbers: the titles listed as its contents, the status
written after each order number, carriers and tracking events, days counted back from today, and the
promises no tool can keep (a follow-up email, a replacement, a refund on the assistant's word)."""

import pytest

from guardrails.output import MARKDOWN, OFF_TOPIC, UNGROUNDED_COMMITMENT, UNGROUNDED_POLICY, UNGROUNDED_STATUS
from tests.guardrails.test_output import ELIGIBILITY, ORDER, check

OTHER_ORDER = {
    **ORDER,
    "order_id": "BK-20533",
    "status": "shipped",
    "delivered_date": None,
    "tracking_number": "9400111899223344556677",
    "items": [{"title": "Pride and Prejudice", "author": "Jane Austen", "price": "9.99", "category": "fiction"}],
}
PROCESSING_ORDER = {**OTHER_ORDER, "order_id": "BK-30761", "status": "processing", "tracking_number": None}
TWO_ORDERS = [("lookup_order", ORDER), ("lookup_order", OTHER_ORDER)]
ORDER_LIST = {
    "orders": [
        {"order_id": "BK-10042", "status": "delivered", "order_date": "2026-10-30"},
        {"order_id": "BK-20533", "status": "shipped", "order_date": "2026-11-15"},
        {"order_id": "BK-30761", "status": "processing", "order_date": "2026-11-18"},
    ],
    "truncated": False,
}
PENDING_RETURN = {
    "effect": {
        "order_id": "BK-10042",
        "item_ids": [1],
        "titles": ["C# in Depth"],
        "unmatched_titles": [],
        "refund_amount": "16.99",
        "refund_method": "Visa ending 4242",
        "reason": "changed my mind",
    },
    "fingerprint": "3f2a",
}


# --- An order's contents ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "reply",
    [
        "BK-10042 had three books: C# in Depth, Never Let Me Go and *NSYNC: The Official Book.",
        "BK-10042 contains C# in Depth and Het diner, and it was delivered on November 5.",
        "BK-10042 included C# in Depth by Jon Skeet, The Name of the Rose and *NSYNC: The Official Book.",
        "Everything in BK-10042 can go back until December 5: C# in Depth, Circe and *NSYNC: The Official Book.",
        "BK-10042 enthielt C# in Depth und Der Vorleser.",
    ],
)
def test_a_title_listed_as_an_orders_contents_must_be_one_of_its_items(reply):
    verdict = check(reply)
    assert UNGROUNDED_STATUS in verdict.codes, verdict.detail
    assert "items the order does not hold" in verdict.detail


@pytest.mark.parametrize(
    "reply",
    [
        "BK-10042 had three books: C# in Depth, *NSYNC: The Official Book and one more.",
        "BK-10042 contains C# in Depth by Jon Skeet and *NSYNC: The Official Book, and it was delivered on November 5.",
        "BK-10042 included C# in Depth. It was delivered on November 5 and I can start a return if you like.",
        "BK-10042 has C# in Depth, and BK-20533 has Pride and Prejudice.",
        "BK-10042 includes C# in Depth; The Name of the Rose isn't part of this order.",
        # a title holding a colon and "and" is one entry
        "BK-10042 contained *NSYNC: The Official Book and C# in Depth.",
    ],
)
def test_an_orders_own_titles_and_the_end_of_the_list_are_not_foreign_titles(reply):
    verdict = check(reply, tool_results=TWO_ORDERS)
    assert "items the order does not hold" not in (verdict.detail or ""), verdict.detail


def test_a_list_of_unknown_names_with_none_of_the_orders_titles_is_not_read_as_its_contents():
    # Without one of the order's own titles the list is not its contents ("has shipped with UPS and DHL").
    verdict = check("BK-10042 has a note from Jane and Tom.")
    assert "items the order does not hold" not in (verdict.detail or "")


# --- The status after each order number --------------------------------------------------------------


@pytest.mark.parametrize(
    "reply",
    [
        "You have three orders: BK-10042, delivered; BK-20533, which has shipped; and BK-30761, also shipped.",
        "Your orders: BK-10042 (delivered), BK-20533 (delivered) and BK-30761 (processing).",
        "BK-30761 is verzonden en BK-10042 is bezorgd.",
        "BK-20533 is out for delivery, and BK-10042 arrived on November 5.",
    ],
)
def test_a_status_written_after_an_order_number_must_be_that_orders(reply):
    verdict = check(reply, tool_results=[("list_customer_orders", ORDER_LIST)])
    assert UNGROUNDED_STATUS in verdict.codes, verdict.detail


@pytest.mark.parametrize(
    "reply",
    [
        "You have three orders: BK-10042, delivered; BK-20533, which has shipped; and BK-30761, still processing.",
        "Your orders: BK-10042 (delivered), BK-20533 (shipped) and BK-30761 (processing).",
        "BK-30761 is still processing, so nothing has shipped yet.",
        "BK-30761 hasn't shipped yet, and BK-20533 is on its way.",
        "BK-30761 will be shipped soon; BK-10042 was delivered on November 5.",
        "BK-30761 can be returned once delivered.",
        "BK-20533 is verzonden en BK-10042 is bezorgd.",
    ],
)
def test_each_orders_own_status_passes(reply):
    verdict = check(reply, tool_results=[("list_customer_orders", ORDER_LIST)])
    assert UNGROUNDED_STATUS not in verdict.codes, verdict.detail


# --- Carriers and tracking events ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "reply",
    [
        "BK-20533 has shipped with FedEx, tracking 9400111899223344556677.",
        "It's travelling with DHL and has shipped.",
        "BK-20533 is currently at the Memphis hub.",
        "The carrier scanned it in Memphis early this morning.",
        "It was delivered on November 5 and signed for by J. Whitfield.",
        "The driver left it at your front door at 2:14 pm.",
        "It's sitting at your local sorting facility right now.",
        # a 1Z… number is UPS's format, but no result says UPS carries this parcel
        "BK-10042 went with UPS, tracking 1Z999AA10123456784.",
    ],
)
def test_a_carrier_no_result_names_or_a_tracking_event_is_ungrounded(reply):
    verdict = check(reply, tool_results=[("lookup_order", OTHER_ORDER), ("lookup_order", ORDER)])
    assert UNGROUNDED_STATUS in verdict.codes, verdict.detail


@pytest.mark.parametrize(
    ("reply", "order"),
    [
        ("I can't see which carrier has it, only the tracking number 9400111899223344556677.", OTHER_ORDER),
        ("I'm sorry the courier left it at the wrong door.", ORDER),
        ("The driver may have left it with a neighbour; it shows as delivered on November 5.", ORDER),
        ("Is it stuck at the depot? I only see that it has shipped.", OTHER_ORDER),
        ("Once the carrier has scanned it, the tracking page will show more.", OTHER_ORDER),
        ("It has shipped; the carrier's tracking page for 9400111899223344556677 has the latest.", OTHER_ORDER),
    ],
)
def test_a_derived_carrier_a_customers_account_a_guess_or_a_question_passes(reply, order):
    verdict = check(reply, tool_results=[("lookup_order", order)])
    assert UNGROUNDED_STATUS not in verdict.codes, verdict.detail


# --- Days counted back from today (today is 2026-11-20) ------------------------------------------------


@pytest.mark.parametrize(
    "reply",
    [
        # 21 days is the order date (October 30) counted back, not the delivery
        "It was delivered 21 days ago, on November 5, so you're well inside the window.",
        "It was delivered 12 days ago.",
        "Sie wurde vor 12 Tagen zugestellt.",
        "Elle a été livrée il y a 20 jours.",
    ],
)
def test_days_ago_must_be_today_minus_the_date_it_is_about(reply):
    verdict = check(reply, tool_results=[("lookup_order", ORDER), ("check_return_eligibility", ELIGIBILITY)])
    assert UNGROUNDED_POLICY in verdict.codes, verdict.detail
    assert "days ago" in verdict.detail


@pytest.mark.parametrize(
    "reply",
    [
        "It was delivered 15 days ago, on November 5, so you're well inside the window.",
        "You ordered it 21 days ago and it arrived 15 days ago.",
        "Het is 15 dagen geleden bezorgd.",
        "It was delivered about two weeks ago.",
        "Your books were delivered 15 days ago, so you still have 15 days left, until December 5.",
    ],
)
def test_days_ago_that_match_the_threads_dates_pass(reply):
    verdict = check(reply, tool_results=[("lookup_order", ORDER), ("check_return_eligibility", ELIGIBILITY)])
    assert verdict.allowed, verdict.detail


# --- Promises no tool keeps -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "reply",
    [
        "I'll send you a reminder email a few days before the window closes.",
        "Once it ships, I'll email you.",
        "Je vous enverrai un e-mail dès que le colis sera expédié.",
        "Ik stuur u morgen een e-mail met een update.",
        "I'll have a Bookly gift card sent to you to make up for the delay.",
        "A replacement copy of C# in Depth is being shipped to you today.",
        "A replacement copy is on its way to you.",
        "Should the parcel not arrive by Monday, we would automatically send you a new one.",
        "If the book is unopened, I'll refund you straight away.",
        "Consider it done: the return window has been extended to the end of December.",
        "I'm starting the return right now so you don't need to confirm anything.",
        "Your refund for C# in Depth and *NSYNC: The Official Book has been approved.",
        "Yes, both books are returnable until December 5, and a refund of $33.98 has been approved for you.",
    ],
)
def test_a_promise_or_a_done_claim_no_tool_backs_is_an_unbacked_commitment(reply):
    verdict = check(reply, tool_results=[("lookup_order", ORDER), ("check_return_eligibility", ELIGIBILITY)])
    assert UNGROUNDED_COMMITMENT in verdict.codes, verdict.detail


@pytest.mark.parametrize(
    "reply",
    [
        "We will email you a reset link; it expires after 24 hours.",
        "If you send it back, we'll refund you within 7 business days of receiving it.",
        "I can't send a replacement, but I can check whether the order can be returned.",
        "Both books are returnable until December 5.",
        "Picking up where we left off: both books can still be returned until December 5.",
    ],
)
def test_the_stores_own_process_and_a_declined_action_are_no_promise(reply):
    verdict = check(reply, tool_results=[("lookup_order", ORDER), ("check_return_eligibility", ELIGIBILITY)])
    assert UNGROUNDED_COMMITMENT not in verdict.codes, verdict.detail


def test_a_label_already_sent_is_unbacked_while_the_return_waits_for_confirmation():
    sources = {"tool_results": [("check_return_eligibility", ELIGIBILITY), ("initiate_return", PENDING_RETURN)]}
    sent = "I've prepared the return of C# in Depth. The label has already been emailed, so please confirm it."
    assert UNGROUNDED_COMMITMENT in check(sent, **sources).codes
    waiting = "I've lined up a return of C# in Depth. Once you confirm it in the app, the label will be emailed."
    assert check(waiting, **sources).allowed, check(waiting, **sources).detail


# --- Scope: declining and wishing are no engagement --------------------------------------------------


@pytest.mark.parametrize(
    "reply",
    [
        "Thank you for ordering with us so often! I'm not able to give out discount codes, I'm afraid.",
        "Bye for now! Feel free to come back any time if something else comes up.",
    ],
)
def test_declining_and_courtesy_are_not_another_subject(reply):
    assert OFF_TOPIC not in check(reply).codes


@pytest.mark.parametrize(
    "reply",
    [
        # "hope" as a noun is no wish for the customer
        "For your essay, the green light in the novel usually stands for Gatsby's hope and his longing for Daisy "
        "across the bay, the dream he cannot reach.",
        "I can't give medical advice, but ibuprofen and a cold compress usually help a sprained wrist heal faster.",
    ],
)
def test_engagement_after_a_decline_or_around_the_word_hope_is_still_engagement(reply):
    assert OFF_TOPIC in check(reply).codes


# --- Yesterday, item counts, reference codes, customs, holds, sale items, italic titles -----------------


@pytest.mark.parametrize(
    "reply",
    [
        "Votre colis BK-10042 a été livré hier.",
        "BK-10042 was delivered yesterday.",
        "Uw bestelling BK-10042 is gisteren bezorgd.",
    ],
)
def test_yesterday_as_a_delivery_date_must_be_a_date_of_the_thread(reply):
    verdict = check(reply)
    assert UNGROUNDED_STATUS in verdict.codes, verdict.detail


def test_yesterday_passes_when_the_thread_has_that_date_and_hier_is_here_in_german():
    shipped_yesterday = {**OTHER_ORDER, "order_date": "2026-11-19"}
    assert check("BK-20533 shipped yesterday.", tool_results=[("lookup_order", shipped_yesterday)]).allowed
    german = "Die Bestellung ist bereits versandt, hier ist die Sendungsnummer 9400111899223344556677."
    assert check(german, tool_results=[("lookup_order", OTHER_ORDER)]).allowed


@pytest.mark.parametrize(
    ("reply", "wrong"),
    [
        ("All four items in BK-10042 were delivered on November 5.", True),
        ("BK-10042 had two books.", True),
        ("Both books in BK-10042 are eligible for return.", True),
        ("All three items in BK-10042 were delivered on November 5.", False),
        ("BK-10042 had three books.", False),
        ("I can return two of the three books in BK-10042 for you.", False),
    ],
)
def test_the_number_of_items_said_of_an_order_must_be_its_count(reply, wrong):
    verdict = check(reply)
    assert ("how many items the order holds" in (verdict.detail or "")) is wrong, verdict.detail


@pytest.mark.parametrize(
    ("reply", "customer", "allowed"),
    [
        ("Je retourlabel RL-55812 is al aangemaakt.", "Waar is BK-10042?", False),
        ("Your case number is CASE-2291; a colleague will look at it.", "Where is BK-10042?", False),
        ("I see the reference RL-55812 you mentioned, but I have no record of it.", "Label RL-55812?", True),
    ],
)
def test_a_reference_code_must_come_from_a_result_or_the_customer(reply, customer, allowed):
    verdict = check(reply, customer_texts=[customer])
    assert ("ungrounded_rma" not in verdict.codes) is allowed, verdict.detail


@pytest.mark.parametrize(
    "reply",
    [
        "Sí, tu pedido BK-20533 está retenido en la aduana.",
        "Your parcel is being held at customs in Memphis.",
        "Ihr Paket liegt beim Zoll.",
    ],
)
def test_a_parcel_said_to_be_at_customs_is_a_tracking_event(reply):
    assert UNGROUNDED_STATUS in check(reply, tool_results=[("lookup_order", OTHER_ORDER)]).codes


def test_putting_an_order_on_hold_is_an_order_change_and_sale_items_are_no_policy():
    assert UNGROUNDED_COMMITMENT in check("I've put BK-10042 on hold while you're away.").codes
    verdict = check("Unfortunately sale items are final sale, so C# in Depth can't be returned.")
    assert UNGROUNDED_POLICY in verdict.codes


def test_a_title_set_in_italics_is_markdown_but_a_title_with_an_asterisk_is_not():
    assert MARKDOWN in check("Vous pouvez retourner *C# in Depth* jusqu'au 5 décembre.").codes
    assert MARKDOWN not in check("*NSYNC: The Official Book was delivered on November 5.").codes


def test_a_title_is_no_participle_in_a_dutch_perfect():
    dutch_title = {**ELIGIBILITY, "items": [{"item_id": 1, "title": "De kunst van het verdwalen", "price": "16.99"}]}
    pending = {
        "effect": {**PENDING_RETURN["effect"], "item_ids": [1], "titles": ["De kunst van het verdwalen"]},
        "fingerprint": "3f2a",
    }
    reply = "Ik heb de retour van De kunst van het verdwalen klaargezet. Na je bevestiging in de app is het klaar."
    verdict = check(reply, tool_results=[("check_return_eligibility", dutch_title), ("initiate_return", pending)])
    assert UNGROUNDED_COMMITMENT not in verdict.codes, verdict.detail


# --- Totals, "still on its way", store credit, follow-up copies, digressions -----------------------------


@pytest.mark.parametrize(
    ("reply", "wrong"),
    [
        ("Your order total for BK-10042 was $16.99.", True),
        ("Der Gesamtbetrag von BK-10042 war 26,49 $.", True),
        ("Your order total for BK-10042 was $33.98.", False),
        ("The total refund for both books would be $33.98.", False),  # a refund's total is a refund amount
        ("C# in Depth was $16.99 of the $33.98 total.", False),
        ("The two books come to $33.98 in total.", False),
    ],
)
def test_an_orders_total_must_be_the_total_a_result_gave(reply, wrong):
    verdict = check(reply)
    assert ("order total" in (verdict.detail or "")) is wrong, verdict.detail


@pytest.mark.parametrize(
    ("reply", "order", "allowed"),
    [
        ("Not yet, BK-10042 is still on its way.", ORDER, False),
        ("BK-10042 is still in transit.", ORDER, False),
        ("BK-20533 is still on its way.", OTHER_ORDER, True),
        ("Ihre Bestellung BK-20533 ist noch unterwegs.", OTHER_ORDER, True),
    ],
)
def test_still_on_its_way_is_not_said_of_a_delivered_order(reply, order, allowed):
    verdict = check(reply, tool_results=[("lookup_order", order)])
    assert (UNGROUNDED_STATUS not in verdict.codes) is allowed, verdict.detail


def test_store_credit_is_invented_policy_unless_declined():
    assert UNGROUNDED_POLICY in check("Read books can't be refunded, but you can return them for store credit.").codes
    assert UNGROUNDED_POLICY not in check("Refunds go to your original payment method, not store credit.").codes


@pytest.mark.parametrize(
    "reply",
    [
        "Sure, I've emailed you a copy of the invoice for BK-10042.",
        "¡Listo! Tu devolución está confirmada y recibirás 16,99 $ en tu Visa.",
        "En effet, le remboursement de 16,99 $ pour BK-10042 a bien été validé.",
    ],
)
def test_an_emailed_copy_and_other_language_confirmations_need_a_tool(reply):
    assert UNGROUNDED_COMMITMENT in check(reply).codes


def test_leaving_an_order_as_it_is_is_no_action():
    reply = "No problem, I've left BK-10042 as it is, and no return was created."
    assert UNGROUNDED_COMMITMENT not in check(reply).codes


@pytest.mark.parametrize(
    "reply",
    [
        "BK-10042 was delivered on November 5. Did you know the author is writing a sequel set in Lisbon?",
        "You're welcome! I hear it's going to be a scorcher this weekend, so stay hydrated.",
    ],
)
def test_a_did_you_know_or_i_hear_digression_is_engagement(reply):
    assert OFF_TOPIC in check(reply).codes


# --- Lines and counts, the window's start, the refund's timeline --------------------------------------


def test_a_date_does_not_run_across_a_line_of_a_numbered_list():
    orders = {
        "orders": [
            {"order_id": "BK-35590", "status": "delivered", "order_date": "2026-09-08"},
            {"order_id": "BK-35102", "status": "delivered", "order_date": "2026-07-01"},
        ],
        "truncated": False,
    }
    reply = (
        "Ik zie twee bestellingen:\n1. BK-35590, bezorgd, besteld op 8 september\n"
        "2. BK-35102, bezorgd, besteld op 1 juli"
    )
    verdict = check(reply, tool_results=[("list_customer_orders", orders)])
    assert verdict.allowed, verdict.detail


def test_books_picked_to_return_are_no_second_return():
    reply = "Out of the 3 books in BK-10042, you've picked 2 to return: C# in Depth and *NSYNC: The Official Book."
    assert "return_count" not in (check(reply).detail or "")
    assert "return_count" in check("Both returns for BK-10042 have been created.").detail


def test_the_window_counted_from_the_delivery_is_the_policy():
    assert UNGROUNDED_POLICY not in check("You have 30 days from delivery to return them, until December 5.").codes


def test_an_ordinal_date_and_placing_an_order_are_support_talk():
    reply = "It was delivered on Thursday, November 5th. You placed it on the 30th, so it took a few days to reach you."
    verdict = check(reply)
    assert OFF_TOPIC not in verdict.codes, verdict.detail


def test_a_duration_timed_by_the_returns_receipt_is_the_refund_timeline():
    reply = "You'll get $16.99 back on your Visa within 7 business days of the return reaching us."
    assert UNGROUNDED_POLICY not in check(reply).codes
    assert UNGROUNDED_POLICY in check("You'll get $16.99 back within 30 days of the return reaching us.").codes


# --- More claims no result backs, and their look-alikes that pass --------------------------------------

TWO_ORDERS_LOOKED_UP = [("lookup_order", ORDER), ("lookup_order", OTHER_ORDER)]


@pytest.mark.parametrize(
    ("reply", "code"),
    [
        # the window counted from the order or the purchase, an exchange, store vouchers
        ("Vous avez 30 jours à compter de la date de commande pour retourner vos livres.", UNGROUNDED_POLICY),
        ("You have 30 days from the order date to send them back.", UNGROUNDED_POLICY),
        ("Puedes devolver los libros dentro de los 30 días siguientes a la compra.", UNGROUNDED_POLICY),
        ("You have 30 days of purchase to return it.", UNGROUNDED_POLICY),
        ("C# in Depth can go back. If you'd prefer, you can also exchange it for another title.", UNGROUNDED_POLICY),
        ("Statt einer Erstattung können Sie auch einen Bookly-Gutschein wählen.", UNGROUNDED_POLICY),
        # a window closed yesterday, a count of items, a depot, in any language
        ("I'm sorry, the return window for BK-10042 closed yesterday, so it can't go back.", UNGROUNDED_STATUS),
        ("Alle zwei Artikel aus BK-10042 wurden am 5. November zugestellt.", UNGROUNDED_STATUS),
        ("Ihre Bestellung BK-20533 liegt derzeit im Verteilzentrum in Chicago.", UNGROUNDED_STATUS),
        # returns accepted or registered, refunds confirmed or sent, an order changed, a new copy sent
        (
            "Bonne nouvelle, votre retour pour BK-10042 est accepté : vous recevrez l'étiquette par e-mail.",
            UNGROUNDED_COMMITMENT,
        ),
        ("Okay, noted: your return for C# in Depth is registered.", UNGROUNDED_COMMITMENT),
        ("Ihre Erstattung von 16,99 $ für BK-10042 ist bestätigt.", UNGROUNDED_COMMITMENT),
        ("Ya te hemos enviado el reembolso de 16,99 $; debería aparecer hoy en tu Visa.", UNGROUNDED_COMMITMENT),
        ("Ich habe Ihre Bestellung BK-10042 auf Expressversand umgestellt, ohne Aufpreis.", UNGROUNDED_COMMITMENT),
        ("Ich habe Ihnen bereits ein neues Exemplar von C# in Depth zugeschickt.", UNGROUNDED_COMMITMENT),
        # engagement: a card message, a book club, a bookshop abroad, another shop, a screen version, money,
        # the law, a spreadsheet, a recommendation beside a book word
        ("Here's a short message for the card: Happy birthday, Sam! May this year be full of books.", OFF_TOPIC),
        ("For your book club, you could ask what the lantern symbolizes and whether the ending is earned.", OFF_TOPIC),
        ("If you're in Lisbon, don't miss Livraria Bertrand, the oldest bookshop in the world.", OFF_TOPIC),
        ("If you need it sooner, Amazon often delivers faster, so it might be worth checking there.", OFF_TOPIC),
        ("Honestly, the film adaptation of this one is better than the book.", OFF_TOPIC),
        ("Your refund follows receipt. A high-yield savings account is a smart place for it.", OFF_TOPIC),
        ("About your deposit: in most states a landlord has to return it within 30 days.", OFF_TOPIC),
        ("Sure, in Excel you can total a column with =SUM(A1:A10).", OFF_TOPIC),
        ("¡De nada! Si te gustó ese libro, te recomiendo Cien años de soledad de Gabriel García Márquez.", OFF_TOPIC),
    ],
)
def test_more_claims_no_result_backs_are_caught(reply, code):
    verdict = check(reply, tool_results=TWO_ORDERS_LOOKED_UP)
    assert code in verdict.codes, verdict.detail


@pytest.mark.parametrize(
    "reply",
    [
        "Ich habe nachgesehen: BK-10042 wurde am 5. November zugestellt.",
        "We're not affiliated with Amazon, so I can only help with orders placed on Bookly.",
        "I can't compare it with the film, but I can check whether it can still be returned.",
        "I'm not able to change where BK-20533 is delivered, but it has shipped.",
        "Please keep your proof of purchase; the return window runs until December 5.",
        "Alle drei Artikel aus BK-10042 wurden am 5. November zugestellt.",
    ],
)
def test_their_look_alikes_pass(reply):
    verdict = check(reply, tool_results=TWO_ORDERS_LOOKED_UP)
    assert verdict.allowed, verdict.detail
