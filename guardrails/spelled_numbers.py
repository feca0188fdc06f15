"""Numbers written in words, read as digits where they state a date, an amount of money or a duration.

A reply may say "delivered on the second of September", "le deux mars", "am zwölften Januar", "forty-nine
ninety-nine", "treinta dólares con veinte" or "quarante-huit heures": the same facts as "September 2", "$49.99"
and "48 heures", and as wrong when they are wrong. `with_digits` rewrites those phrases (and nothing else) so
the reply check reads them like any other date, amount or duration. Other numbers ("two books", "the second
time") stay as written.

Each language's words for 1 to 99 are built from its units and tens; ordinals (English, German, Dutch)
from its cardinals.
"""

import re
from collections.abc import Iterable
from functools import lru_cache

from guardrails import output_patterns as patterns

_EN_UNITS = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
_EN_TEENS = [
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
]
_EN_TENS = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
_EN_ORDINAL_UNITS = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth"]
_EN_ORDINAL_TEENS = [
    "tenth",
    "eleventh",
    "twelfth",
    "thirteenth",
    "fourteenth",
    "fifteenth",
    "sixteenth",
    "seventeenth",
    "eighteenth",
    "nineteenth",
]

_DE_UNITS = ["ein", "zwei", "drei", "vier", "fünf", "sechs", "sieben", "acht", "neun"]
_DE_TEENS = ["zehn", "elf", "zwölf", "dreizehn", "vierzehn", "fünfzehn", "sechzehn", "siebzehn", "achtzehn", "neunzehn"]
_DE_TENS = ["zwanzig", "dreißig", "vierzig", "fünfzig", "sechzig", "siebzig", "achtzig", "neunzig"]

_NL_UNITS = ["een", "twee", "drie", "vier", "vijf", "zes", "zeven", "acht", "negen"]
_NL_TEENS = [
    "tien",
    "elf",
    "twaalf",
    "dertien",
    "veertien",
    "vijftien",
    "zestien",
    "zeventien",
    "achttien",
    "negentien",
]
_NL_TENS = ["twintig", "dertig", "veertig", "vijftig", "zestig", "zeventig", "tachtig", "negentig"]

_FR_UNITS = ["un", "deux", "trois", "quatre", "cinq", "six", "sept", "huit", "neuf"]
_FR_TEENS = ["dix", "onze", "douze", "treize", "quatorze", "quinze", "seize", "dix-sept", "dix-huit", "dix-neuf"]
_FR_TENS = ["vingt", "trente", "quarante", "cinquante", "soixante"]

_ES_UNITS = ["uno", "dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho", "nueve"]
_ES_TEENS = ["diez", "once", "doce", "trece", "catorce", "quince", "dieciséis", "diecisiete", "dieciocho", "diecinueve"]
_ES_TWENTIES = "veintiuno veintidós veintitrés veinticuatro veinticinco veintiséis veintisiete veintiocho veintinueve"
_ES_TENS = ["treinta", "cuarenta", "cincuenta", "sesenta", "setenta", "ochenta", "noventa"]


def _english() -> dict[str, int]:
    words = {word: n for n, word in enumerate(_EN_UNITS, 1)} | {word: n for n, word in enumerate(_EN_TEENS, 10)}
    for tens, ten_word in enumerate(_EN_TENS, 2):
        words[ten_word] = tens * 10
        for unit, unit_word in enumerate(_EN_UNITS, 1):
            words[f"{ten_word}-{unit_word}"] = words[f"{ten_word} {unit_word}"] = tens * 10 + unit
    return words


def _english_ordinals() -> dict[str, int]:
    words = {word: n for n, word in enumerate(_EN_ORDINAL_UNITS, 1)}
    words |= {word: n for n, word in enumerate(_EN_ORDINAL_TEENS, 10)}
    for tens, ten_word in ((2, "twenty"), (3, "thirty")):
        words[ten_word[:-1] + "ieth"] = tens * 10
        for unit, unit_word in enumerate(_EN_ORDINAL_UNITS, 1):
            words[f"{ten_word}-{unit_word}"] = words[f"{ten_word} {unit_word}"] = tens * 10 + unit
    return words


def _german() -> dict[str, int]:
    words = {word: n for n, word in enumerate(_DE_UNITS, 1)} | {word: n for n, word in enumerate(_DE_TEENS, 10)}
    words |= {"eins": 1, "eine": 1, "einem": 1, "einen": 1, "einer": 1}
    for tens, ten_word in enumerate(_DE_TENS, 2):
        for spelling in {ten_word, ten_word.replace("ß", "ss")}:
            words[spelling] = tens * 10
            for unit, unit_word in enumerate(_DE_UNITS, 1):
                words[f"{unit_word}und{spelling}"] = tens * 10 + unit
    return words


def _german_ordinals() -> dict[str, int]:
    """ "zwölften", "dritte", "dreiundzwanzigsten": a cardinal's stem with -te/-ste and an ending."""
    stems = {"ers": 1, "zwei": 2, "drit": 3, "vier": 4, "fünf": 5, "sechs": 6, "sieb": 7, "sieben": 7, "ach": 8}
    stems |= {"neun": 9}
    stems |= {word: n for word, n in _german().items() if n >= 10}
    words = {}
    for stem, n in stems.items():
        suffix = "ste" if n >= 20 else "te"
        for ending in ("", "n", "r", "s", "m"):
            words[f"{stem}{suffix}{ending}"] = n
    return words


def _dutch() -> dict[str, int]:
    words = {word: n for n, word in enumerate(_NL_UNITS, 1)} | {word: n for n, word in enumerate(_NL_TEENS, 10)}
    words["één"] = 1
    for tens, ten_word in enumerate(_NL_TENS, 2):
        words[ten_word] = tens * 10
        for unit, unit_word in enumerate(_NL_UNITS, 1):
            joiner = "ën" if unit_word.endswith("e") else "en"
            words[f"{unit_word}{joiner}{ten_word}"] = tens * 10 + unit
    return words


def _dutch_ordinals() -> dict[str, int]:
    special = {"eerste": 1, "derde": 3, "achtste": 8}
    words = dict(special)
    for word, n in _dutch().items():
        if n in special.values() and n < 10:
            continue
        words[f"{word}ste" if n >= 20 or n in (1, 8) else f"{word}de"] = n
    return words


def _french() -> dict[str, int]:
    words = {word: n for n, word in enumerate(_FR_UNITS, 1)} | {word: n for n, word in enumerate(_FR_TEENS, 10)}
    words |= {"une": 1, "premier": 1, "1er": 1}
    for tens, ten_word in enumerate(_FR_TENS, 2):
        words[ten_word] = tens * 10
        words[f"{ten_word} et un"] = words[f"{ten_word}-et-un"] = tens * 10 + 1
        for unit, unit_word in enumerate(_FR_UNITS[1:], 2):
            words[f"{ten_word}-{unit_word}"] = tens * 10 + unit
    for teen, teen_word in enumerate(_FR_TEENS, 10):  # soixante-dix to soixante-dix-neuf, quatre-vingt(s)
        words[f"soixante-{teen_word}"] = 60 + teen
        words[f"quatre-vingt-{teen_word}"] = 80 + teen
    words["soixante et onze"] = 71
    words["quatre-vingts"] = 80
    for unit, unit_word in enumerate(_FR_UNITS, 1):
        words[f"quatre-vingt-{unit_word}"] = 80 + unit
    return words


def _spanish() -> dict[str, int]:
    words = {word: n for n, word in enumerate(_ES_UNITS, 1)} | {word: n for n, word in enumerate(_ES_TEENS, 10)}
    words |= {"un": 1, "una": 1, "primero": 1, "veinte": 20}
    words |= {word: n for n, word in enumerate(_ES_TWENTIES.split(), 21)}
    for tens, ten_word in enumerate(_ES_TENS, 3):
        words[ten_word] = tens * 10
        for unit, unit_word in enumerate(_ES_UNITS, 1):
            words[f"{ten_word} y {unit_word}"] = tens * 10 + unit
    return words


@lru_cache(maxsize=1)
def number_words() -> dict[str, int]:
    """Every cardinal word of the five languages for 1 to 99, lower-case (a word two languages share, as
    "elf" or "acht", means the same number in both)."""
    return {**_spanish(), **_french(), **_dutch(), **_german(), **_english()}


@lru_cache(maxsize=1)
def _day_words() -> dict[str, int]:
    """Words that name a day of the month, 1 to 31: cardinals and ordinals."""
    words = {**number_words(), **_english_ordinals(), **_german_ordinals(), **_dutch_ordinals()}
    return {word: n for word, n in words.items() if 1 <= n <= 31}


def _alternation(words: Iterable[str]) -> str:
    return "|".join(re.escape(word) for word in sorted(words, key=len, reverse=True))


# The other languages' month names are the date readers' (output_patterns.OTHER_LANGUAGE_MONTHS); "may" and
# "march" only as the capitalised month ("the first may take longer" is no date).
_MONTHS = (
    r"january|february|(?-i:March)|april|(?-i:May)|june|july|august|september|october|november|december|"
    + "|".join(sorted(patterns.OTHER_LANGUAGE_MONTHS, key=len, reverse=True))
)
_CURRENCY = patterns.CURRENCY_WORD
_TIME_UNITS = (
    r"hours?|days?|weeks?|business days?|stunden?|tage?|tagen|wochen?|werktage?|werktagen|heures?|jours?|semaines?|"
    r"jours? ouvrés?|horas?|días?|semanas?|días? hábiles?|uur|dagen|dag|weken|werkdagen|werkdag"
)
_CENTS = r"cents?|centavos|centimes|céntimos"
# Words that say the pair of numbers after them is a price: "the order was forty-nine ninety-nine".
_MONEY_LEAD = (
    r"(?:was|were|is|are|costs?|cost|came to|comes to|total(?:led)?(?: of)?|refund(?:ed)?(?: of)?|charged|paid|"
    r"for|of|get|see|plus|receive|back|the)"
)


@lru_cache(maxsize=1)
def _patterns() -> tuple[re.Pattern, ...]:
    day = _alternation(_day_words())
    number = _alternation(number_words())
    pair_low = _alternation(word for word, n in number_words().items() if n >= 10)
    flags = re.IGNORECASE
    return (
        # "the second of September", "am zwölften Januar", "le deux mars", "el doce de noviembre", "op vier oktober"
        re.compile(rf"(?<![\w-])(?P<day>{day})(?P<gap>\s+(?:of\s+|de\s+)?)(?P<month>{_MONTHS})\b", flags),
        # "September second"
        re.compile(rf"\b(?P<month>{_MONTHS})(?P<gap>\s+)(?P<day>{day})(?![\w-])", flags),
        # "on the eleventh", "until the thirtieth," (an English ordinal alone, as a day)
        re.compile(
            rf"\b(?P<lead>(?:on|until|by|since|from|before|after) the\s+)(?P<day>{_alternation(_english_ordinals())})"
            r"(?=\s*(?:[.,;:!?)]|$|and\b|so\b|but\b))",
            flags,
        ),
        # "thirty dollars", "dertig dollar tachtig", "treinta dólares con veinte", "zestien dollar en vijf cent"
        re.compile(
            rf"(?<![\w-])(?P<whole>{number})\s+(?:{_CURRENCY})(?:\s+(?:(?:and|con|et|und|en|y)\s+)?"
            rf"(?:(?P<cents_word>{number})\s+(?:{_CENTS})|(?P<cents>{pair_low})))?(?![\w-])",
            flags,
        ),
        # "quarante-huit heures", "sechs Wochen", "veintiún días": a duration the policy checks read in digits
        re.compile(
            rf"(?<![\w-])(?P<count>{number})(?:(?P<range>\s*(?:to|-|–|bis|à|a|tot|y|or|oder|ou|o|of)\s*)"
            rf"(?P<high>{number}))?(?P<unit>\s+(?:{_TIME_UNITS}))\b",
            flags,
        ),
        # "forty-nine ninety-nine" after a word that names a price
        re.compile(
            rf"\b(?P<lead>{_MONEY_LEAD}\s+(?:only\s+|just\s+|about\s+)?)(?P<whole>{number})\s+(?P<cents>{pair_low})"
            r"(?![\w-])",
            flags,
        ),
    )


def _day_digits(match: re.Match) -> str:
    """A day in digits the date readers know: "2nd of September", "12. Januar", "2 mars", "September 2"."""
    word = match.group("day").lower()
    n = _day_words()[word]
    if word in _english_ordinals():
        day = f"{n}{_english_suffix(n)}"
    elif word in _german_ordinals():
        day = f"{n}."
    else:
        day = str(n)
    month = match.groupdict().get("month")
    if month is None:  # "on the 11th"
        return f"{match.group('lead')}{day}"
    if match.start("day") < match.start("month"):
        return f"{day}{match.group('gap')}{month}"
    return f"{month}{match.group('gap')}{day}"


def _english_suffix(n: int) -> str:
    if 10 <= n % 100 <= 20:
        return "th"
    return {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")


def _value(words: str) -> int:
    """The number a matched phrase of number words names ("twenty  one" is "twenty one")."""
    return number_words()[" ".join(words.lower().split())]


def _money_digits(match: re.Match) -> str:
    cents = match.groupdict().get("cents_word") or match.group("cents")
    amount = f"${_value(match.group('whole'))}.{_value(cents) if cents else 0:02d}"
    return f"{match.groupdict().get('lead') or ''}{amount}"


def _protected(text: str, keep: Iterable[str]) -> list[tuple[int, int]]:
    folded = text.casefold()
    spans = []
    for phrase in keep:
        start = folded.find(phrase.casefold()) if phrase else -1
        while start != -1:
            spans.append((start, start + len(phrase)))
            start = folded.find(phrase.casefold(), start + 1)
    return spans


# Words for one that are also the indefinite article: "über eine Woche", "plus d'une semaine" are no figure.
_ARTICLE_ONES = frozenset({"un", "une", "una", "een", "ein", "eine", "einem", "einen", "einer"})
_APPROXIMATE = re.compile(patterns.APPROXIMATE, re.IGNORECASE)


def _count_digits(match: re.Match) -> str:
    """ "three to five business days": "3 to 5 business days"."""
    if match.group("count").lower() in _ARTICLE_ONES and _APPROXIMATE.search(match.string, 0, match.start()):
        return match.group()  # "over a week", hedged as the English article would be
    low = _value(match.group("count"))
    if match.group("high") is None:
        return f"{low}{match.group('unit')}"
    return f"{low}{match.group('range')}{_value(match.group('high'))}{match.group('unit')}"


_WORD = re.compile(r"[^\W\d_]+")


def _tokens(phrases: Iterable[str]) -> frozenset[str]:
    return frozenset(word for phrase in phrases for word in _WORD.findall(phrase.lower()))


@lru_cache(maxsize=1)
def _gates() -> tuple[frozenset[str], ...]:
    """For each pattern of _patterns, words one of which a text must hold for the pattern to match: most
    replies hold none, and the patterns' long alternations are then never run."""
    months = _tokens(_MONTHS.replace("(?-i:", "").replace(")", "").split("|"))
    return (
        months,
        months,
        _tokens(_english_ordinals()),
        _tokens(("dollar", "dollars", "dólar", "dólares", "euro", "euros", "bucks")),
        # (each unit with and without its optional letter: "heures?" is "heures" and "heure")
        _tokens(form for unit in _TIME_UNITS.split("|") for form in (unit.replace("?", ""), re.sub(r".\?", "", unit))),
        _tokens(word for word, n in number_words().items() if n >= 10),
    )


def with_digits(text: str, keep: Iterable[str] = ()) -> str:
    """The text with dates, amounts and durations written in words rewritten in digits; everything else, and
    the phrases of `keep` (the thread's titles: "a copy of Nineteen Eighty-Four" names no price), unchanged."""
    words = set(_WORD.findall(text.lower()))
    rewrites = (_day_digits, _day_digits, _day_digits, _money_digits, _count_digits, _money_digits)
    for pattern, gate, digits in zip(_patterns(), _gates(), rewrites, strict=True):
        if not words & gate:
            continue
        spans = _protected(text, keep)

        def rewrite(match: re.Match, digits=digits, spans=spans) -> str:
            if any(start < match.end() and match.start() < end for start, end in spans):
                return match.group()
            return digits(match)

        text = pattern.sub(rewrite, text)
    return text
