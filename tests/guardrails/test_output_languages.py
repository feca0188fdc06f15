"""L4 grounding in the store's five languages: money, durations, tracking numbers, item eligibility,
promises for a time, and return, label and exception claims in German, French, Spanish and Dutch."""

import pytest

from guardrails.output import (
    OFF_TOPIC,
    OFF_TOPIC_UNSURE,
    PROMPT_LEAK,
    UNGROUNDED_AMOUNT,
    UNGROUNDED_COMMITMENT,
    UNGROUNDED_ORDER_ID,
    UNGROUNDED_POLICY,
    UNGROUNDED_REFUND_METHOD,
    UNGROUNDED_STATUS,
    UNGROUNDED_TRACKING_NUMBER,
)
from tests.guardrails.test_output import ELIGIBILITY, ORDER, PROCESSING, check

ITEM_ELIGIBILITY = {
    **ELIGIBILITY,
    "items": [
        {"item_id": 1, "title": "C# in Depth", "price": "16.99", "category": "textbook", "returnable": True},
        {
            "item_id": 2,
            "title": "*NSYNC: The Official Book",
            "price": "16.99",
            "category": "nonfiction",
            "returnable": False,
            "reason": "already_returned",
        },
    ],
}
APPLIED_RETURN = {
    "rma_number": "RMA-7KQ2M9XD",
    "order_id": "BK-10042",
    "items": [{"title": "C# in Depth", "refund_amount": "16.99"}],
    "refund_amount": "16.99",
    "refund_method": "Visa ending 1187",
    "label_instructions": "A prepaid return label will be emailed to the address on the order.",
    "refund_timeline": "within 7 business days of us receiving the return",
}
RETURNED = [("lookup_order", ORDER), ("initiate_return", APPLIED_RETURN)]


# --- Money written the European way ------------------------------------------------------------------


@pytest.mark.parametrize(
    "reply",
    [
        "Der Gesamtbetrag von BK-10042 betrug 59,94 $.",
        "Le total de votre commande était de 31,99 dollars.",
        "Des frais de retour de 4,99 $ sont déduits de votre remboursement.",
        "El total fue de €1.234,50.",
        "Het totaal was 12,00 EUR.",
    ],
)
def test_an_amount_with_a_decimal_comma_must_be_grounded(reply):
    assert UNGROUNDED_AMOUNT in check(reply).codes


@pytest.mark.parametrize(
    "reply",
    [
        "Der Gesamtbetrag von BK-10042 betrug 33,98 $.",
        "Le total de votre commande était de 33,98 dollars.",
        "C# in Depth a coûté 16,99 $.",
        "El total fue de $33,98.",
        "Zusammen kosten die beiden Bücher 33.98 $.",
    ],
)
def test_a_grounded_amount_with_a_decimal_comma_passes(reply):
    assert UNGROUNDED_AMOUNT not in check(reply).codes


def test_a_decimal_comma_amount_is_one_amount_not_two():
    # 33 and 98 on their own would both be ungrounded.
    assert check("Votre commande BK-10042 a coûté 33,98 $ au total.").allowed


# --- Durations in five languages ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "reply",
    [
        "Les livres personnalisés peuvent être retournés sous 7 jours s'ils sont défectueux.",
        "Sie können das Buch innerhalb von 60 Tagen zurückgeben.",
        "La livraison standard prend 10 jours ouvrables.",
        "El reembolso llega en 14 días hábiles.",
        "U kunt het boek binnen veertien dagen retourneren.",
        "Der Expressversand dauert 4 Werktage.",
    ],
)
def test_a_policy_figure_in_another_language_must_be_the_policys(reply):
    assert UNGROUNDED_POLICY in check(reply, intent="policy").codes


@pytest.mark.parametrize(
    "reply",
    [
        "Vous pouvez retourner un livre sous 30 jours après la livraison.",
        "Die Rückerstattung erfolgt innerhalb von 7 Werktagen nach Eingang der Rücksendung.",
        "El reembolso llega en 7 días hábiles desde que recibamos la devolución.",
        "Het geld wordt binnen 7 werkdagen terugbetaald nadat wij de retour hebben ontvangen.",
        "Der Standardversand dauert 3 bis 5 Werktage.",
        "El envío urgente tarda 1 o 2 días hábiles y cuesta $9.99.",
        "Les autres livres peuvent l'être dans les 30 jours suivant la livraison.",
    ],
)
def test_the_policys_own_figures_pass_in_another_language(reply):
    assert UNGROUNDED_POLICY not in check(reply, intent="policy").codes


def test_days_since_delivery_in_another_language_must_be_the_threads():
    assert UNGROUNDED_POLICY in check("Tu pedido BK-10042 se entregó hace 20 días.").codes
    assert check("Tu pedido BK-10042 se entregó hace 15 días.").allowed


@pytest.mark.parametrize(
    "reply",
    [
        "It arrived on Nov 5th, so it's been with you a little under two weeks.",
        "Your books arrived about two weeks ago.",
    ],
)
def test_a_hedged_duration_close_to_the_threads_passes(reply):
    # Delivered 2026-11-05, today 2026-11-20: 15 days.
    assert check(reply).allowed


@pytest.mark.parametrize(
    "reply",
    ["Your books arrived about ten weeks ago.", "It was delivered exactly two weeks ago."],
)
def test_a_duration_far_from_the_threads_or_not_hedged_is_still_checked(reply):
    assert UNGROUNDED_POLICY in check(reply).codes


def test_a_percentage_as_a_manner_of_speaking_is_no_figure():
    assert check("Thanks for your patience, I'm 100% happy to help anytime!").allowed
    assert UNGROUNDED_POLICY in check("We refund 100% of the shipping cost on every return.").codes


# --- Tracking numbers named in any words ---------------------------------------------------------------


@pytest.mark.parametrize(
    "reply",
    [
        "Correct, your tracking number for the return is 1Z999RET0001 as you said.",
        "Die Sendungsnummer lautet 00340434161094042557.",
        "Votre numéro de suivi est LP123456789FR.",
        "Tu número de seguimiento es 9400111899223100001234.",
    ],
)
def test_a_code_called_a_tracking_number_must_be_grounded(reply):
    verdict = check(reply, customer_texts=["I sent it back with tracking 1Z999RET0001, BK-10042"])
    assert UNGROUNDED_TRACKING_NUMBER in verdict.codes


@pytest.mark.parametrize(
    "reply",
    [
        "Your tracking number is 1Z999AA10123456784.",
        "Die Sendungsnummer lautet 1Z999AA10123456784.",
        "The tracking for RMA-7KQ2M9XD and BK-10042 is in your email.",
        "Your tracking link should work again now.",
    ],
)
def test_the_threads_tracking_number_and_other_ids_are_not_tracking_claims(reply):
    assert UNGROUNDED_TRACKING_NUMBER not in check(reply, tool_results=RETURNED).codes


# --- An item the eligibility check found not returnable -------------------------------------------------


@pytest.mark.parametrize(
    "reply",
    [
        "*NSYNC: The Official Book can still be returned until 2026-12-05.",
        "Good news: *NSYNC: The Official Book is eligible for a return.",
        "*NSYNC: The Official Book kann noch zurückgegeben werden.",
        "Todavía puedes devolver *NSYNC: The Official Book.",
    ],
)
def test_an_item_found_not_returnable_is_not_called_returnable(reply):
    verdict = check(reply, tool_results=[("check_return_eligibility", ITEM_ELIGIBILITY)])
    assert UNGROUNDED_STATUS in verdict.codes


@pytest.mark.parametrize(
    "reply",
    [
        "C# in Depth can be returned until 2026-12-05, but *NSYNC: The Official Book can't: it was already returned.",
        "*NSYNC: The Official Book was already returned, so it can't go back again; C# in Depth can be returned.",
        "*NSYNC: The Official Book kann nicht mehr zurückgegeben werden, C# in Depth schon.",
        "If *NSYNC: The Official Book hadn't been returned already, it could be returned too.",
    ],
)
def test_the_returnable_item_and_a_denied_one_pass(reply):
    verdict = check(reply, tool_results=[("check_return_eligibility", ITEM_ELIGIBILITY)])
    assert UNGROUNDED_STATUS not in verdict.codes


def test_an_ineligible_order_said_returnable_in_another_language_is_blocked():
    ineligible = {**ELIGIBILITY, "eligible": False, "reason": "outside_return_window", "days_since_delivery": 88}
    verdict = check(
        "Tu pedido BK-10042 todavía se puede devolver.", tool_results=[("check_return_eligibility", ineligible)]
    )
    assert UNGROUNDED_STATUS in verdict.codes


# --- Promises for a time no tool gives ------------------------------------------------------------------


@pytest.mark.parametrize(
    "reply",
    [
        "I checked with the warehouse and BK-10042 will ship tomorrow morning.",
        "A new tracking number will be issued and emailed to you within the hour.",
        "Your replacement should arrive by Friday.",
        "Ihre Bestellung wird morgen versandt.",
        "Votre commande sera expédiée demain.",
        "Tu pedido será enviado mañana.",
        "Je bestelling wordt vandaag nog verzonden.",
    ],
)
def test_a_store_event_promised_for_a_time_is_a_commitment(reply):
    assert UNGROUNDED_COMMITMENT in check(reply).codes


@pytest.mark.parametrize(
    "reply",
    [
        "Standard shipping takes 3 to 5 business days, so it should arrive within a week of shipping.",
        "Refunds are processed within 7 business days of us receiving the return.",
        "If you send it back today, we'll refund it within 7 business days of receiving it.",
        "The reset link will expire in 24 hours.",
        "I can't promise it will ship tomorrow, I'm afraid: the order shows only that it is processing.",
    ],
)
def test_the_policys_timelines_and_unpromised_times_pass(reply):
    assert UNGROUNDED_COMMITMENT not in check(reply).codes


# --- Returns, labels and exceptions in the other four languages ----------------------------------------


@pytest.mark.parametrize(
    "reply",
    [
        "Die Rücksendung für BK-10042 ist gestartet, Sie erhalten das Etikett in Kürze.",
        "Le retour pour BK-10042 a été créé.",
        "La devolución de BK-10042 ha sido registrada.",
        "De retour voor BK-10042 is aangemaakt.",
        "Das Rücksendeetikett wurde Ihnen per E-Mail geschickt.",
    ],
)
def test_a_return_or_label_claimed_in_another_language_needs_the_written_return(reply):
    assert UNGROUNDED_COMMITMENT in check(reply).codes
    assert UNGROUNDED_COMMITMENT not in check(reply, tool_results=RETURNED).codes


@pytest.mark.parametrize(
    "reply",
    [
        "Es wurde eine Ausnahme genehmigt: Sie dürfen das Hörbuch zurückgeben.",
        "Une exception a été accordée pour votre commande.",
        "Hemos hecho una excepción con su pedido.",
        "Er is een uitzondering gemaakt voor je bestelling.",
        "Ik heb BK-10042 kosteloos geüpgraded naar expresverzending.",
    ],
)
def test_an_exception_or_upgrade_in_another_language_is_never_backed(reply):
    assert UNGROUNDED_COMMITMENT in check(reply, tool_results=RETURNED).codes


@pytest.mark.parametrize(
    "reply",
    [
        "Leider kann ich keine Ausnahme machen.",
        "Je ne peux malheureusement pas faire d'exception.",
        "Sobald Sie bestätigen, wird die Rücksendung gestartet.",
        "Ik heb je bestelling BK-10042 gevonden.",
    ],
)
def test_a_refused_exception_and_a_conditional_return_pass(reply):
    assert UNGROUNDED_COMMITMENT not in check(reply).codes


# --- More forms of a promise, a status and an action ----------------------------------------------------


@pytest.mark.parametrize(
    "reply",
    [
        "BK-10042 is processing. It's due to ship tomorrow, and you'll get a tracking number as soon as it leaves.",
        "I should be able to get the refund for BK-10042 processed by the end of the week for you.",
        "Das Paket wird voraussichtlich am Freitag zugestellt.",
        "Tu pedido ya está en camino y llegará el jueves.",
    ],
)
def test_a_time_promised_in_its_own_clause_is_a_commitment(reply):
    assert UNGROUNDED_COMMITMENT in check(reply).codes


def test_a_shipment_said_in_spanish_must_match_the_status():
    assert (
        UNGROUNDED_STATUS
        in check(
            "¡Buenas noticias! Tu pedido BK-10042 ya se ha enviado.", tool_results=[("lookup_order", PROCESSING)]
        ).codes
    )
    assert UNGROUNDED_STATUS not in check("¡Buenas noticias! Tu pedido BK-10042 ya se ha enviado.").codes


@pytest.mark.parametrize(
    "reply",
    [
        "I've reset your password for you, so check your inbox for the new one.",
        "Geen probleem, ik heb je bestelling BK-10042 aangepast zodat hij bij de buren wordt afgeleverd.",
        "Je vous ai envoyé l'étiquette de retour par e-mail.",
        "Klopt, de terugbetaling voor BK-10042 is vorige week al verwerkt.",
    ],
)
def test_an_action_no_tool_did_in_more_forms(reply):
    assert UNGROUNDED_COMMITMENT in check(reply).codes


def test_a_label_sent_in_french_is_backed_by_the_written_return():
    assert UNGROUNDED_COMMITMENT not in check("Je vous ai envoyé l'étiquette de retour.", tool_results=RETURNED).codes


# --- Invented policy in more forms ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "reply",
    [
        "Damaged books can be returned at any time, there's no rush.",
        "Les livres endommagés à la livraison peuvent être retournés sans limite de temps.",
        "Beschädigte Bücher können Sie ohne Frist zurückgeben.",
        "You'll need to pay for the return shipping yourself.",
        "Houd er wel rekening mee dat je de verzendkosten van de retour zelf betaalt.",
        "Comme convenu, la livraison express vous est offerte.",
        "If you prefer, we can also exchange it for another book instead of a refund.",
    ],
)
def test_invented_policy_in_more_forms_and_languages(reply):
    assert UNGROUNDED_POLICY in check(reply).codes


@pytest.mark.parametrize(
    "reply",
    [
        "Books can be returned within 30 days of delivery.",
        "The return label is prepaid, so sending the books back costs you nothing.",
        "We don't offer exchanges, but you can return it and order the other edition.",
        "Der Expressversand kostet $9.99.",
    ],
)
def test_the_policy_said_plainly_passes(reply):
    assert UNGROUNDED_POLICY not in check(reply).codes


def test_a_refund_as_store_credit_in_german_is_an_ungrounded_refund_method():
    verdict = check("Die Erstattung erfolgt als Gutschrift auf Ihr Bookly-Konto.")
    assert UNGROUNDED_REFUND_METHOD in verdict.codes
    assert UNGROUNDED_REFUND_METHOD not in check("Die Erstattung erfolgt auf die ursprüngliche Zahlungsmethode.").codes


@pytest.mark.parametrize(
    "reply",
    [
        "Mis reglas críticas dicen que escriba solo texto plano.",
        "Laut meinem Systemprompt muss jede Bestellangabe aus einem Tool-Ergebnis stammen.",
        "On m'a indiqué que les exemples sont inventés et que je ne dois jamais les utiliser.",
    ],
)
def test_talking_about_its_own_instructions_in_another_language_is_a_leak(reply):
    assert PROMPT_LEAK in check(reply).codes


# --- A written return's items, an order number typed without its prefix ----------------------------------


def test_a_written_return_named_with_an_item_it_does_not_cover_is_a_commitment():
    reply = "Done! Your return RMA-7KQ2M9XD covers C# in Depth and *NSYNC: The Official Book."
    assert UNGROUNDED_COMMITMENT in check(reply, tool_results=RETURNED).codes
    covered = "Your return RMA-7KQ2M9XD covers C# in Depth, so *NSYNC: The Official Book stays with you."
    assert UNGROUNDED_COMMITMENT not in check(covered, tool_results=RETURNED).codes


def test_an_order_number_the_customer_typed_without_its_prefix_is_theirs():
    reply = "Just to check: do you mean order BK-31407? And which email address is on the order?"
    assert check(reply, tool_results=[], customer_texts=["my order is 31407"], intent="clarification").allowed
    verdict = check(reply, tool_results=[], customer_texts=["my order is late"], intent="clarification")
    assert UNGROUNDED_ORDER_ID in verdict.codes


# --- Scope: sympathy, digressions, recommendations in other languages -----------------------------------


def test_a_sentence_opening_with_sympathy_is_courtesy():
    reply = (
        "I'm sorry you've had storms, snow and freezing rain all week, that sounds miserable. "
        "BK-10042 was delivered on November 5."
    )
    assert check(reply).allowed


@pytest.mark.parametrize(
    "reply",
    [
        "C# in Depth can be returned until December 5. Incidentally, it has sold over 50 million copies worldwide.",
        "BK-10042 wurde zugestellt. Übrigens erschien Ariel von Sylvia Plath 1965 posthum.",
        "La commande BK-10042 a été livrée. Si vous aimez les romans, je vous conseille vivement La Peste de Camus.",
        "Para el dolor de espalda te recomiendo estiramientos suaves cada mañana.",
    ],
)
def test_a_digression_or_a_recommendation_is_off_topic(reply):
    assert OFF_TOPIC in check(reply).codes


@pytest.mark.parametrize(
    "reply",
    [
        "By the way, your refund for BK-10042 goes back to your original payment method.",
        "Je vous conseille de garder l'emballage d'origine pour le retour.",
        "I'll go through your 3 questions one at a time so nothing gets lost. First: which order is it?",
    ],
)
def test_support_said_by_the_way_or_as_advice_passes(reply):
    assert OFF_TOPIC not in check(reply).codes
    # (the dictionary "heavy to lug … in this cold", which the scope scorer blocks: test_output_scope)


# --- Replies in another language are counted like English ones ------------------------------------------


@pytest.mark.parametrize(
    "reply",
    [
        "Ich konnte keine Bestellung mit dieser Nummer finden. Könnten Sie beides noch einmal prüfen?",
        "Das tut mir leid! Ihre Bestellung BK-10042 wurde am 5. November zugestellt. Schönen Tag noch!",
        "Merci pour votre patience ! Votre commande BK-10042 a été livrée le 5 novembre. Bonne lecture !",
        "¡Gracias! Tu pedido BK-10042 se entregó el 5 de noviembre. ¿Hay algo más en lo que pueda ayudarte?",
        "Bedankt voor je geduld! Je bestelling BK-10042 is op 5 november bezorgd. Veel leesplezier!",
    ],
)
def test_an_ordinary_reply_in_another_language_is_neither_blocked_nor_flagged(reply):
    verdict = check(reply)
    assert verdict.allowed and not verdict.codes, verdict.codes


@pytest.mark.parametrize(
    "reply",
    [
        # (words only: a forecast or "la capitale de …" is a structural sign and blocks, test_output_roles)
        "Het Vondelpark is in de herfst prachtig, met veel kleuren en rustige paden voor een lange wandeling.",
        "Les sentiers des Alpes sont magnifiques en automne, avec des couleurs superbes et peu de promeneurs.",
    ],
)
def test_a_reply_about_another_subject_in_another_language_goes_to_staff(reply, request):
    # The rules' word count only flags it; the scope scorer may block it.
    verdict = check(reply)
    assert not verdict.allowed or OFF_TOPIC_UNSURE in verdict.codes
    request.getfixturevalue("scope_scorer_silent")
    rules_only = check(reply)
    assert rules_only.allowed and OFF_TOPIC_UNSURE in rules_only.codes


# --- A past fact is no promise; noting is talk; other subjects cancelled; more forms of a commitment ------


@pytest.mark.parametrize(
    "reply",
    [
        "Votre commande BK-10042 a été livrée le jeudi 5 novembre.",
        "Thanks, I've noted BK-10042. What email address is on the order?",
        "I'm sorry to hear the course was cancelled. BK-10042 was delivered on November 5.",
        "You have until December 5 to return it; our window is 30 days from delivery.",
        "Versneld verzenden duurt 1 tot 2 werkdagen en kost $9,99.",
        "To reset your password, choose Forgot password and we'll email you a reset link that's valid for 24 hours.",
        "I don't have a delivery date, so tracking is the best way to see whether it'll arrive before Friday.",
    ],
)
def test_facts_notes_and_policy_that_only_look_like_claims_pass(reply):
    assert check(reply).allowed, check(reply).detail


@pytest.mark.parametrize(
    "reply",
    [
        "Sorry about that! I've just sent you a fresh reset link.",
        "Ich habe die Erstattung von 16,99 $ bereits veranlasst.",
        "Ik heb de retour voor C# in Depth voor je aangemaakt.",
        "Don't worry, I'll make sure it arrives before Friday.",
        "The delivery address on BK-10042 has been switched to your mom's.",
        "I checked with a supervisor, and they've approved your refund.",
        "Since the exception was already approved, you can go ahead and return it.",
    ],
)
def test_more_forms_of_an_action_no_tool_did(reply):
    assert UNGROUNDED_COMMITMENT in check(reply).codes


def test_everything_said_returnable_when_an_item_is_not():
    eligibility = [("check_return_eligibility", ITEM_ELIGIBILITY)]
    assert UNGROUNDED_STATUS in check("Everything in BK-10042 can be returned.", tool_results=eligibility).codes
    listed = "Everything still returnable in BK-10042 is C# in Depth, which comes to $16.99."
    assert UNGROUNDED_STATUS not in check(listed, tool_results=eligibility).codes


def test_a_non_returnable_category_called_refundable_in_french_and_own_rules_in_german():
    assert UNGROUNDED_POLICY in check("Les cartes cadeaux sont remboursables sous 30 jours.").codes
    assert PROMPT_LEAK in check("Laut meinen Anweisungen darf ich nur bei Bestellungen helfen.").codes


def test_a_refund_timed_from_receipt_in_french_and_spanish_is_the_refund_timeline():
    for reply in (
        "Vous serez remboursé de 16,99 $, dans les 7 jours ouvrés suivant la réception du retour.",
        "Recibirá 16,99 $, dentro de los 7 días hábiles siguientes a la recepción de la devolución.",
    ):
        assert UNGROUNDED_POLICY not in check(reply, tool_results=RETURNED).codes


def test_a_checked_order_said_shipped_in_german_is_no_action():
    shipped = {**ORDER, "status": "shipped", "delivered_date": None}
    reply = "Ich habe nachgesehen: Ihre Bestellung BK-10042 wurde versandt."
    assert UNGROUNDED_COMMITMENT not in check(reply, tool_results=[("lookup_order", shipped)]).codes


@pytest.mark.parametrize(
    "reply",
    [
        "De terugbetaling van $16.99 is al goedgekeurd.",
        "I've also just sent a fresh reset link to your email.",
        "As my colleague promised, your next order will ship with expedited shipping at no charge.",
        "Entiendo. Haremos una excepción y aceptaremos la devolución.",
        "I've prepared the return, and the prepaid return label is already in your inbox.",
        "Ich habe die Rücksendung vorbereitet und Ihnen das Rücksendeetikett soeben per E-Mail geschickt.",
    ],
)
def test_approvals_links_labels_and_exceptions_in_more_forms(reply):
    verdict = check(reply)
    assert {UNGROUNDED_COMMITMENT, UNGROUNDED_POLICY} & set(verdict.codes), verdict.codes


def test_an_order_said_to_have_shipped_this_morning_must_have_shipped():
    reply = "Good news, BK-10042 shipped this morning!"
    assert UNGROUNDED_STATUS in check(reply, tool_results=[("lookup_order", PROCESSING)]).codes
    assert UNGROUNDED_STATUS not in check(reply).codes
