"""Dates, amounts and durations written in words are read as digits; every other number word stays as written."""

import pytest

from guardrails.spelled_numbers import number_words, with_digits
from tests.guardrails.test_output_roles import CHECKED, LOOKED_UP, verdict


@pytest.mark.parametrize(
    ("words", "digits"),
    [
        ("delivered on the second of November", "delivered on the 2nd of November"),
        ("delivered on November sixth", "delivered on November 6th"),
        ("the window ran until the thirtieth.", "the window ran until the 30th."),
        ("am zwölften Januar zugestellt", "am 12. Januar zugestellt"),
        ("bis zum dreiundzwanzigsten Februar", "bis zum 23. Februar"),
        ("livrée le deux mars", "livrée le 2 mars"),
        ("se entregó el doce de noviembre", "se entregó el 12 de noviembre"),
        ("is op vier oktober bezorgd", "is op 4 oktober bezorgd"),
        ("the order was forty-nine ninety-nine", "the order was $49.99"),
        ("Expedited shipping costs twelve ninety-nine", "Expedited shipping costs $12.99"),
        ("a flat fee of fourteen dollars", "a flat fee of $14.00"),
        ("twenty-eight dollars and five cents", "$28.05"),
        ("recibirás treinta dólares con veinte", "recibirás $30.20"),
        ("een totaal van dertig dollar tachtig", "een totaal van $30.80"),
        ("krijg je zestien dollar en vijf cent terug", "krijg je $16.05 terug"),
        ("zusammen dreiundzwanzig Dollar", "zusammen $23.00"),
        ("pour un remboursement de trente-six dollars", "pour un remboursement de $36.00"),
        ("Standard delivery takes three to five business days.", "Standard delivery takes 3 to 5 business days."),
        ("Le lien reste valable quarante-huit heures.", "Le lien reste valable 48 heures."),
        ("Sie haben also sechs Wochen Zeit.", "Sie haben also 6 Wochen Zeit."),
    ],
)
def test_a_date_or_an_amount_in_words_is_read_in_digits(words, digits):
    assert with_digits(words) == digits


@pytest.mark.parametrize(
    "text",
    [
        "Both books can go back, and the first may take a day longer.",  # "may" is a verb here
        "I'll march you through the steps.",
        "The courier usually comes at five thirty.",  # a time, not a price
        "You ordered two books and three bookmarks.",
        "It's the second time this happened, I'm sorry.",
    ],
)
def test_other_number_words_stay_as_written(text):
    assert with_digits(text) == text


def test_a_title_is_never_rewritten():
    text = "Your copy of Nineteen Eighty-Four came to $12.00."
    assert with_digits(text, keep=["Nineteen Eighty-Four"]) == text
    assert with_digits(text) != text  # without the title, "of" would open a price


def test_each_language_counts_to_ninety_nine():
    words = number_words()
    assert [words[w] for w in ("ninety-nine", "neunundneunzig", "quatre-vingt-dix-neuf", "noventa y nueve")] == [99] * 4
    spelled = ("negenennegentig", "tweeëntwintig", "soixante et onze", "veintitrés")
    assert [words[w] for w in spelled] == [99, 22, 71, 23]


# The ORDER of the shared fixtures was delivered on November 6 and came to $99.45; its items cost $19.95,
# $29.50 and $50.00.
@pytest.mark.parametrize(
    ("reply", "allowed"),
    [
        ("BK-39902 was delivered on the sixth of November.", True),
        ("BK-39902 was delivered on the seventh of November.", False),
        ("BK-39902 wurde am sechsten November zugestellt.", True),
        ("BK-39902 wurde am siebten November zugestellt.", False),
        ("Your order came to ninety-nine forty-five.", True),
        ("Your order came to ninety-nine fifty-five.", False),
        ("The Quiet River was nineteen dollars and ninety-five cents.", True),
        ("The Quiet River was twenty-one dollars.", False),
    ],
)
def test_the_reply_check_reads_them_like_digits(reply, allowed):
    assert verdict(reply, LOOKED_UP).allowed is allowed


def test_a_window_end_in_words_is_checked_against_the_eligibility_check():
    assert verdict("You can send it back until the sixth of December.", CHECKED).allowed
    assert not verdict("The return window ends on the fourth of December.", CHECKED).allowed
