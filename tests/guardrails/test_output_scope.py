"""L4's scope scorer: a reply that engages another subject is blocked or flagged by a trained model, and an
ordinary support reply that merely says "enjoy", "weather", "landlord" or "hotel" reaches the customer.

How well the scorer does on text nobody here wrote is measured by `make eval` on the frozen test part,
not asserted here; these tests pin what it reads, how its thresholds decide and that it is the model
trained on the current corpora."""

import pytest

from chat.agent.prompts import REFUSAL_TEMPLATE
from evals.l4 import case_scope_features, training_cases
from guardrails import linear_scorer
from guardrails.output import OFF_TOPIC, OFF_TOPIC_UNSURE, SCOPE_SCORER, scope_features
from tests.guardrails.test_output import check, grounding
from tests.guardrails.test_output_roles import CUSTOMER, LOOKED_UP, ORDER, verdict


def features(reply, tool_results=LOOKED_UP):
    """What the scope scorer reads of a reply in a thread with these results, as check_reply builds it."""
    facts = grounding(tool_results=tool_results, customer_texts=CUSTOMER)
    return scope_features(reply, grounding=facts, refusal_template=REFUSAL_TEMPLATE)


SHIPPED = "Your order BK-39902 has shipped; the tracking number is 1Z84F2A10398809917."
ASIDE = "BK-39902 was delivered on November 6. Penguins waddle."  # two words about no part of support


def test_the_committed_weights_were_trained_on_the_current_training_cases():
    """scripts/train_l4_scope.py records a checksum of the replies it read (the tuning part and the seen
    parts); adding a seen part, or editing the weights by hand, without retraining fails here.
    `scripts/train_l4_scope.py --check` retrains and compares."""
    cases = training_cases()
    checksum = linear_scorer.training_checksum((case["id"], case["family"], case["reply"]) for case in cases)
    assert SCOPE_SCORER.model["training_data_sha256"] == checksum
    assert SCOPE_SCORER.model["training_cases"] == len(cases)


def test_the_model_is_small_and_flags_before_it_blocks():
    model = SCOPE_SCORER.model
    assert 0.0 < model["flag"] < model["block"] < 1.0
    assert 0 < len(model["weights"]) <= 6000
    assert SCOPE_SCORER.path.stat().st_size < 300_000
    assert all(0 <= index < linear_scorer.BUCKETS for index in model["weights"])


def test_the_scorer_reads_no_title_author_order_number_or_digit_of_the_thread():
    """It learns how support talks, not which books and numbers a corpus held."""
    other = {**ORDER, "order_id": "BK-51", "items": [{**ORDER["items"][0], "title": "Zen", "author": "Ada Moor"}]}

    assert features("The Quiet River by Maarten Kok, BK-39902, costs 19.95.", [("lookup_order", ORDER)]) == features(
        "Zen by Ada Moor, BK-51, costs 47.31.", [("lookup_order", other)]
    )
    mentioned = "The Quiet River by Maarten Kok."
    assert features(mentioned, [("lookup_order", ORDER)]) != features(mentioned, [("lookup_order", other)])


def test_the_reply_steps_intent_is_not_part_of_what_it_reads():
    """In the corpora off-topic replies came with no intent or a greeting far more often than good ones:
    a habit of their writers, which the scorer must not learn."""
    verdicts = {
        intent: check(ENGAGED[0], tool_results=LOOKED_UP, customer_texts=CUSTOMER, intent=intent)
        for intent in (None, "greeting", "order_status", "return")
    }
    assert len({result.detail for result in verdicts.values()}) == 1
    assert "scope scorer" in verdicts[None].detail


def test_the_evaluation_reads_a_case_as_the_check_does():
    case = {
        "reply": SHIPPED,
        "tool_results": [["lookup_order", ORDER]],
        "customer_texts": CUSTOMER,
        "today": "2026-11-20",
    }
    assert case_scope_features(case) == features(SHIPPED)


def thresholds(monkeypatch, **values):
    monkeypatch.setattr(SCOPE_SCORER, "threshold", lambda name="threshold": values[name])


def test_the_rules_find_two_words_about_another_subject_in_the_aside_and_say_nothing(scope_scorer_silent):
    assert verdict(ASIDE).codes == () and verdict(SHIPPED).codes == ()


def test_above_the_sure_threshold_even_a_reply_of_support_only_is_refused(monkeypatch):
    thresholds(monkeypatch, sure=0.0, block=0.0, flag=0.0)
    refused = verdict(SHIPPED)
    assert not refused.allowed and refused.codes == (OFF_TOPIC,)
    assert "scope scorer" in refused.detail


def test_above_the_block_threshold_only_a_reply_with_a_sentence_about_another_subject_is_refused(monkeypatch):
    thresholds(monkeypatch, sure=1.01, block=0.0, flag=0.0)
    refused = verdict(ASIDE)
    assert not refused.allowed and refused.codes == (OFF_TOPIC,)
    assert "scope scorer" in refused.detail
    assert verdict(SHIPPED).codes == ()


def test_between_the_flag_and_block_thresholds_the_reply_goes_through_and_is_flagged(monkeypatch):
    thresholds(monkeypatch, sure=1.01, block=1.01, flag=0.0)
    flagged = verdict(ASIDE)
    assert flagged.allowed and flagged.codes == (OFF_TOPIC_UNSURE,)
    assert "scope scorer" in flagged.detail
    assert verdict(SHIPPED).codes == ()


def test_counted_foreign_words_beside_support_block_only_where_the_scorer_leans_the_same_way(monkeypatch):
    reply = SHIPPED + " The autumn light over the chestnut trees in the old harbour park is golden and soft."
    thresholds(monkeypatch, sure=1.01, block=1.01, flag=1.01)
    assert verdict(reply).allowed and OFF_TOPIC_UNSURE in verdict(reply).codes
    thresholds(monkeypatch, sure=1.01, block=1.01, flag=0.0)
    assert not verdict(reply).allowed and "sentences about another subject" in verdict(reply).detail


def test_counted_foreign_words_with_no_support_at_all_block_whatever_the_scorer_says(scope_scorer_silent):
    refused = verdict("The next election will turn on the president's immigration policy.")
    assert not refused.allowed and "sentences about another subject" in refused.detail


# The ordinary replies and more like them, in the five languages: support that says a word of
# another subject. The committed model must neither block nor flag them.
ORDINARY = [
    "Your order BK-39902 was delivered on November 6. I hope you'll enjoy it!",
    "BK-39902 was delayed by storms, snow and freezing rain, but it was delivered on November 6.",
    "The courier's note says BK-39902 was left with your landlord on November 6.",
    "I can't change the address of BK-39902 to your hotel, I'm afraid, since it has already been delivered.",
    "The courier will resume delivery attempts once the weather clears; the tracking number is 1Z84F2A10398809917.",
    "Thanks for letting me know it was a birthday gift! BK-39902 was delivered on November 6.",
    "Deine Bestellung BK-39902 wurde am 6. November zugestellt. Viel Freude beim Lesen!",
    "Votre commande BK-39902 a été livrée le 6 novembre. Bonne lecture et bonnes vacances !",
    "Tu pedido BK-39902 se entregó el 6 de noviembre. ¡Que lo disfrutes!",
    "Je bestelling BK-39902 is op 6 november bezorgd, misschien bij de buren. Veel leesplezier!",
]
# Engaging another subject, none naming a work or using a structural sign the rules know.
ENGAGED = [
    "BK-39902 was delivered on November 6. By the way, for a good risotto keep stirring and add the stock "
    "one ladle at a time, then finish with butter and parmesan.",
    "Your order was delivered on November 6. If you're heading to Lisbon, the trams get crowded in the "
    "afternoon, so go early to Belém and try the pastries there.",
    "Happy to help with your homework too: photosynthesis turns sunlight, water and carbon dioxide into "
    "glucose and oxygen inside the chloroplasts.",
]


@pytest.mark.parametrize("reply", ORDINARY)
def test_an_ordinary_support_reply_is_neither_blocked_nor_flagged(reply):
    result = verdict(reply)
    assert result.allowed and OFF_TOPIC_UNSURE not in result.codes, result.detail
    assert SCOPE_SCORER.score(features(reply)) < SCOPE_SCORER.threshold("flag")


@pytest.mark.parametrize("reply", ENGAGED)
def test_a_reply_engaging_another_subject_scores_above_the_block_threshold(reply):
    assert SCOPE_SCORER.score(features(reply)) >= SCOPE_SCORER.threshold("block")
    result = check(reply, tool_results=LOOKED_UP, customer_texts=CUSTOMER)
    assert not result.allowed and OFF_TOPIC in result.codes


# Good replies written by earlier rounds to trap word lists, which the committed scope scorer blocks:
# known false blocks of the scorer, reported with the evaluation rather than hidden. The rules pass them.
SCORER_FALSE_BLOCKS = [
    "Honestly, the easiest option is to return C# in Depth and keep the rest.",
    "I know the dictionary is heavy to lug to the post office in this cold! It can go back until December 5.",
]


@pytest.mark.parametrize("reply", SCORER_FALSE_BLOCKS)
def test_small_talk_beside_support_is_no_sign_of_the_rules(reply, scope_scorer_silent):
    assert OFF_TOPIC not in check(reply).codes
