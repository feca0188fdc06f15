"""L4 grounding in the store's five languages: money, durations, tracking numbers, item eligibility,
promises for a time, and return, label and exception claims in German, French, Spanish and Dutch."""

import pytest

from guardrails.output import (
    UNGROUNDED_AMOUNT,
    UNGROUNDED_COMMITMENT,
    UNGROUNDED_POLICY,
    UNGROUNDED_STATUS,
    UNGROUNDED_TRACKING_NUMBER,
)
from tests.guardrails.test_output import ELIGIBILITY, ORDER, check

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
