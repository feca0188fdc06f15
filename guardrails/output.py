"""L4 output validation: the model's final reply is checked before any customer sees it.

Called by chat/agent.py on the draft reply, with a `Grounding` built from every tool result of
the thread, the customer's own messages and the policy texts. Deterministic and pure: no
database, no model. On a refusal the agent sends prompts.REPLY_FALLBACK and keeps the draft
for staff.

What a reply may state: every order id, date, money amount, tracking number and email address
in it must appear in a structured field of a tool result (read by key name, never by searching
the JSON text, so a book title cannot plant facts), in the customer's own words, or in the
policy text; today's date is always allowed. Also refused: markdown, engaging an off-topic
subject outside the refusal template, and 8 or more consecutive words of the prompt.
"""

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal, InvalidOperation
from functools import lru_cache

from guardrails.verdict import Verdict

UNGROUNDED_ORDER_ID = "ungrounded_order_id"
UNGROUNDED_DATE = "ungrounded_date"
UNGROUNDED_AMOUNT = "ungrounded_amount"
UNGROUNDED_TRACKING_NUMBER = "ungrounded_tracking_number"
UNGROUNDED_EMAIL = "ungrounded_email"
MARKDOWN = "markdown"
OFF_TOPIC = "off_topic"
PROMPT_LEAK = "prompt_leak"
# Most serious first: Verdict.code is the first code that applies.
CODE_ORDER = (
    PROMPT_LEAK,
    UNGROUNDED_ORDER_ID,
    UNGROUNDED_EMAIL,
    UNGROUNDED_TRACKING_NUMBER,
    UNGROUNDED_AMOUNT,
    UNGROUNDED_DATE,
    OFF_TOPIC,
    MARKDOWN,
)

LEAK_WORDS = 8  # consecutive prompt words that make a leak


@dataclass(frozen=True)
class Grounding:
    """The facts a reply may state in one thread; build it with `from_sources`."""

    order_ids: frozenset[str]  # "BK-10042"
    dates: frozenset[date]
    amounts: frozenset[Decimal]
    tracking_numbers: frozenset[str]  # upper-case, no spaces
    emails: frozenset[str]  # lower-case
    titles: frozenset[str] = frozenset()  # item titles: removed before the markdown and off-topic scans
    quotable_texts: tuple[str, ...] = ()  # policy texts: quoting them is not a prompt leak
    today: date = field(default_factory=date.today)  # resolves dates written without a year

    @classmethod
    def from_sources(
        cls, *, tool_results: list[tuple[str, dict]], customer_texts: list[str], policy_texts: list[str], today: date
    ) -> "Grounding":
        """Grounding from structured tool-result fields (by key), the customer's texts and the policy texts."""
        facts = _Facts()
        for _, result in tool_results:
            _walk_result(result, "", facts)
        for text in customer_texts:
            extracted = _extract(text, today)
            facts.order_ids |= extracted.order_ids
            facts.emails |= extracted.emails
            facts.tracking_numbers |= extracted.tracking_numbers
            facts.amounts |= extracted.amounts | _bare_amounts(text)
            facts.dates |= {value for value in extracted.dates if isinstance(value, date)}
        for text in policy_texts:
            facts.amounts |= _extract(text, today).amounts
        facts.dates.add(today)
        return cls(
            order_ids=frozenset(facts.order_ids),
            dates=frozenset(facts.dates),
            amounts=frozenset(facts.amounts),
            tracking_numbers=frozenset(facts.tracking_numbers),
            emails=frozenset(facts.emails),
            titles=frozenset(facts.titles),
            quotable_texts=tuple(policy_texts),
            today=today,
        )


# --- Reading tool results by key ---------------------------------------------------------------

_ORDER_ID_KEYS = frozenset({"order_id", "order_ids"})
_MONEY_KEYS = frozenset({"price", "total", "refund_amount", "amount", "subtotal"})
_MONEY_SUFFIXES = ("_price", "_total", "_amount", "_cost", "_fee")
_DATE_SUFFIXES = ("date", "window_ends", "expires_at", "_at", "_until")
_TRACKING_KEYS = frozenset({"tracking_number", "tracking_numbers"})
_EMAIL_KEYS = frozenset({"email", "customer_email", "emails"})
_TITLE_KEYS = frozenset({"title", "titles", "item_titles", "unmatched_titles"})


@dataclass
class _Facts:
    order_ids: set[str] = field(default_factory=set)
    dates: set[date] = field(default_factory=set)
    amounts: set[Decimal] = field(default_factory=set)
    tracking_numbers: set[str] = field(default_factory=set)
    emails: set[str] = field(default_factory=set)
    titles: set[str] = field(default_factory=set)


def _money(value: object) -> Decimal | None:
    if isinstance(value, bool) or not isinstance(value, str | int | float | Decimal):
        return None
    try:
        amount = Decimal(str(value).strip().lstrip("$").replace(",", ""))
    except InvalidOperation:
        return None
    return amount if amount.is_finite() else None


def _date(value: object) -> date | None:
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    if not isinstance(value, str):
        return None
    try:
        return datetime.fromisoformat(value.strip()).date()
    except ValueError:
        return None


def _walk_result(value: object, key: str, facts: _Facts) -> None:
    """Collect facts from fields whose key names what they hold; lists inherit their key."""
    if isinstance(value, dict):
        for name, item in value.items():
            _walk_result(item, str(name).lower(), facts)
        listed = value.get("items")
        items = [item for item in listed if isinstance(item, dict)] if isinstance(listed, list) else []
        # A reply may add up prices the tool listed: "both books come to $31.98".
        for chosen in (items, [item for item in items if item.get("returnable") is True]):
            prices = [price for price in (_money(item.get("price")) for item in chosen) if price is not None]
            if len(prices) > 1 and len(prices) == len(chosen):
                facts.amounts.add(sum(prices, Decimal(0)))
        return
    if isinstance(value, list):
        for item in value:
            _walk_result(item, key, facts)
        return
    if key in _ORDER_ID_KEYS and isinstance(value, str):
        facts.order_ids |= _extract_order_ids(value)
    elif key in _MONEY_KEYS or key.endswith(_MONEY_SUFFIXES):
        amount = _money(value)
        if amount is not None:
            facts.amounts.add(amount)
    elif key.endswith("_cents") and isinstance(value, int) and not isinstance(value, bool):
        facts.amounts.add(Decimal(value) / 100)
    elif key.endswith(_DATE_SUFFIXES):
        parsed = _date(value)
        if parsed is not None:
            facts.dates.add(parsed)
    elif key in _TRACKING_KEYS and isinstance(value, str):
        facts.tracking_numbers.add(_tracking_key(value))
    elif (key in _EMAIL_KEYS or key.endswith("_email")) and isinstance(value, str) and "@" in value:
        facts.emails.add(value.strip().lower())
    elif key in _TITLE_KEYS and isinstance(value, str) and value.strip():
        facts.titles.add(value.strip())


# --- Extracting facts from text -----------------------------------------------------------------

_ORDER_ID = re.compile(r"(?<![A-Za-z0-9])BK[-\s]?(\d+)(?!\d)", re.IGNORECASE)
_EMAIL = re.compile(r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]+@(?:[A-Za-z0-9-]+\.)+[A-Za-z]{2,63}")
_ISO_DATE = re.compile(r"(?<![\d-])(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?![\d-])")
_NUMERIC_DATE = re.compile(r"(?<![\d/.-])(\d{1,2})/(\d{1,2})/(\d{4}|\d{2})(?![\d/])")
_MONTHS = {
    "jan": 1,
    "feb": 2,
    "mar": 3,
    "apr": 4,
    "may": 5,
    "jun": 6,
    "jul": 7,
    "aug": 8,
    "sep": 9,
    "oct": 10,
    "nov": 11,
    "dec": 12,
}
_MONTH = (
    r"(?P<month>jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
    r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
)
_DAY = r"(?P<day>\d{1,2})(?:st|nd|rd|th)?(?!\d)"
_YEAR = r"(?:,?\s+(?P<year>\d{4})(?!\d))?"
_MONTH_DAY = re.compile(rf"\b{_MONTH}\s+{_DAY}{_YEAR}", re.IGNORECASE)
_DAY_MONTH = re.compile(rf"\b{_DAY}\s+(?:of\s+)?{_MONTH}(?![a-z]){_YEAR}", re.IGNORECASE)
_MONEY_PATTERNS = (
    re.compile(r"(?:US|USD\s?)?[$£€]\s?(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?(?!\d)"),
    re.compile(r"(?<![\d.,$])(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?\s?(?:USD|usd|dollars?|bucks)\b"),
    re.compile(r"\bUSD\s?(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?(?!\d)"),
)
_BARE_AMOUNT = re.compile(r"(?<![\d.,$/-])(\d{1,3}(?:,\d{3})+|\d+)\.(\d{2})(?![\d.])")
_UPS = re.compile(r"\b1Z[0-9A-Z]{16}\b", re.IGNORECASE)
_LONG_DIGITS = re.compile(r"(?<![\w-])\d{12,22}(?!\w)")


def _extract_order_ids(text: str) -> set[str]:
    return {f"BK-{digits}" for digits in _ORDER_ID.findall(text)}


def _tracking_key(value: str) -> str:
    return re.sub(r"\s+", "", value).upper()


def _valid_date(year: int, month: int, day: int) -> date | None:
    try:
        return date(year, month, day)
    except ValueError:
        return None


def _nearest_year(month: int, day: int, today: date) -> date | None:
    """A date written without a year is the one closest to today."""
    candidates = [_valid_date(year, month, day) for year in (today.year - 1, today.year, today.year + 1)]
    valid = [candidate for candidate in candidates if candidate is not None]
    return min(valid, key=lambda candidate: abs((candidate - today).days)) if valid else None


# A written date that is not a real calendar date ("February 30") can never be grounded.
INVALID_DATE = "invalid"


@dataclass
class _Extracted:
    order_ids: set[str] = field(default_factory=set)
    emails: set[str] = field(default_factory=set)
    # A date, INVALID_DATE, or a tuple of the readings of an ambiguous numeric date (5/11/2026).
    dates: list[object] = field(default_factory=list)
    amounts: set[Decimal] = field(default_factory=set)
    tracking_numbers: set[str] = field(default_factory=set)


def _amount(whole: str, cents: str | None) -> Decimal:
    return Decimal(whole.replace(",", "") + (f".{cents}" if cents else ""))


def _bare_amounts(text: str) -> set[Decimal]:
    """Two-decimal numbers without a currency sign ("I paid 16.99"), as customers type them."""
    return {_amount(whole, cents) for whole, cents in _BARE_AMOUNT.findall(text)}


def _extract_dates(text: str, today: date) -> list[object]:
    found: list[object] = []
    spans: list[tuple[int, int]] = []

    def free(match: re.Match) -> bool:
        overlaps = any(start < match.end() and match.start() < end for start, end in spans)
        if not overlaps:
            spans.append(match.span())
        return not overlaps

    for match in _ISO_DATE.finditer(text):
        if free(match):
            year, month, day = (int(part) for part in match.groups())
            found.append(_valid_date(year, month, day) or INVALID_DATE)
    for pattern in (_MONTH_DAY, _DAY_MONTH):
        for match in pattern.finditer(text):
            # "may" is a month only when capitalised; "you may 2 ..." is not a date.
            if match.group("month") == "may" or not free(match):
                continue
            month, day = _MONTHS[match.group("month")[:3].lower()], int(match.group("day"))
            year = match.group("year")
            parsed = _valid_date(int(year), month, day) if year else _nearest_year(month, day, today)
            found.append(parsed or INVALID_DATE)
    for match in _NUMERIC_DATE.finditer(text):
        if free(match):
            first, second, year_text = match.groups()
            year = int(year_text) + (2000 if len(year_text) == 2 else 0)
            readings = tuple(
                reading
                for reading in (_valid_date(year, int(first), int(second)), _valid_date(year, int(second), int(first)))
                if reading
            )
            found.append(readings or INVALID_DATE)
    return found


def _extract(text: str, today: date) -> _Extracted:
    extracted = _Extracted()
    extracted.order_ids = _extract_order_ids(text)
    extracted.emails = {email.lower().strip(".") for email in _EMAIL.findall(text)}
    extracted.dates = _extract_dates(text, today)
    for pattern in _MONEY_PATTERNS:
        extracted.amounts |= {_amount(whole, cents) for whole, cents in pattern.findall(text)}
    extracted.tracking_numbers = {_tracking_key(value) for value in _UPS.findall(text)}
    extracted.tracking_numbers |= set(_LONG_DIGITS.findall(text))
    return extracted


# --- Markdown -------------------------------------------------------------------------------------

_MARKDOWN_PATTERNS = (
    ("heading", re.compile(r"^\s{0,3}#{1,6}\s+\S", re.MULTILINE)),
    ("bold", re.compile(r"\*\*[^*\n]+\*\*|(?<![\w_])__[^_\n]+__(?![\w_])")),
    (
        "italic",
        re.compile(
            r"(?<![\w*])\*(?=\S)[^*\n]+(?<=\S)\*(?![\w*])"
            r"|(?<![\w_])_(?=[^\s_])[^_\n]+(?<=[^\s_])_(?![\w_])"
        ),
    ),
    ("bullet", re.compile(r"^\s*[-*+]\s+\S", re.MULTILINE)),
    ("code", re.compile(r"`")),
    ("link", re.compile(r"!?\[[^\]\n]+\]\([^)\s]+\)")),
    ("table", re.compile(r"^\s*\|.*\|\s*$|^\s*\|?\s*:?-{3,}:?\s*\|", re.MULTILINE)),
    ("quote", re.compile(r"^\s*>\s?\S", re.MULTILINE)),
    ("rule", re.compile(r"^\s*(?:-{3,}|\*{3,}|_{3,})\s*$", re.MULTILINE)),
)


def _without(text: str, phrases: Iterable[str]) -> str:
    """`text` with each phrase (a grounded title) removed, longest first, ignoring case."""
    for phrase in sorted(phrases, key=len, reverse=True):
        if len(phrase) >= 2:
            text = re.sub(re.escape(phrase), " ", text, flags=re.IGNORECASE)
    return text


def _markdown_kinds(text: str) -> list[str]:
    return [kind for kind, pattern in _MARKDOWN_PATTERNS if pattern.search(text)]


# --- Off-topic engagement -------------------------------------------------------------------------

# Per subject: (strong markers, weak markers). A subject is engaged with one strong marker or
# three different weak ones; support replies ("delayed by snow", "refund to your bank") stay below.
_SUBJECTS: dict[str, tuple[str, str]] = {
    "cooking": (
        r"\bpreheat|\btablespoons?\b|\btbsp\b|\bteaspoons?\b|\btsp\b|\bcups? of (?:flour|sugar|milk|water|butter|rice|"
        r"oil|broth)|\bbake (?:for|at|until)\b|\bsimmer|\bwhisk|\bsaut[eé]|\bknead|\bmarinat|\bingredients\s*:|"
        r"\bhere'?s (?:a|an|my|the) (?:\w+ ){0,2}recipe",
        r"\brecipes?\b|\boven\b|\bflour\b|\bsugar\b|\bbutter\b|\bstir\b|\bboil|\bchop|\bgarlic\b|\bonions?\b|"
        r"\bdough\b|\bminutes? until golden|\bserve (?:warm|hot|chilled)|\bteaspoon|\bbaking\b|\bcook(?:ing|ed)?\b",
    ),
    "coding": (
        r"```|\bdef \w+\(|\bfunction \w*\s*\(|console\.log|\bprint\(|^\s*import \w+|\bfrom \w+ import\b|#include|"
        r"public static|\bSELECT\b.+\bFROM\b|<script|=>|\bnpm install|\bpip install|\bgit (?:clone|commit|push)|"
        r"\bhere'?s (?:a|an|the|some) (?:\w+ ){0,2}(?:script|function|snippet|program)\b",
        r"\bpython\b|\bjavascript\b|\bjava\b|\bc\+\+|\bhtml\b|\bcss\b|\bsql\b|\bvariables?\b|\bloops?\b|"
        r"\barrays?\b|\bcompil|\bdebug|\balgorithms?\b|\bscripts?\b|\bsyntax\b|\bregex\b",
    ),
    "weather": (
        r"\bforecast|°\s?[FC]\b|\bchance of (?:rain|snow|showers|storms)|\bhumidity\b|\bdegrees (?:fahrenheit|celsius)",
        r"\bweather\b|\bsunny\b|\bcloudy\b|\brain(?:y|fall)?\b|\bsnow(?:fall)?\b|\btemperatures?\b|\bwindy?\b|"
        r"\bstorms?\b|\bhighs? of\b|\blows? of\b",
    ),
    "health": (
        r"\bdosage|\b\d+\s?mg\b|\bibuprofen|\bacetaminophen|\bparacetamol|\baspirin|\bantibiotic|\bsymptoms?\b|"
        r"\bdiagnos|\bprescription|\bside effects|\bconsult (?:a|your) (?:doctor|physician|pharmacist)",
        r"\bdoctor\b|\bpain\b|\bfever\b|\bheadaches?\b|\bmedicines?\b|\bmedications?\b|\btreatments?\b|"
        r"\bvitamins?\b|\bdiet\b|\bexercise\b|\binfection\b",
    ),
    "legal": (
        r"\blegal advice|\blawsuits?\b|\battorneys?\b|\blawyers?\b|\bsmall claims|\bstatutes?\b|\bliab(?:le|ility)\b|"
        r"\bcontract law|\btenants?\b|\blandlords?\b|\bcustody\b|\bcopyright infringement|\bsue (?:them|him|her|the|"
        r"your|bookly)\b",
        r"\blegal\b|\blaws?\b|\bcourt\b|\bcontracts?\b|\bjurisdiction|\bplaintiff|\bdefendant",
    ),
    "money": (
        r"\binvest(?:ing|ment|ments|or|ors)?\b|\bstock market|\bstocks and bonds|\bbuy (?:shares|stocks)|"
        r"\bstock prices?\b|\bportfolio|\bcrypto|\bbitcoin|\bethereum|\b401\(?k\)?|\broth ira|\bmortgage|"
        r"\bindex funds?|\binterest rates?|\btax (?:returns?|deductions?|brackets?)|\bretirement|\bdividends?",
        r"\bsavings\b|\bloans?\b|\bcredit score|\bdebt\b|\bfinanc|\bbudget|\bincome\b|\bassets\b",
    ),
    "homework": (
        r"\bsolve for\b|\bequations?\b|\b\d+\s?[x×*/+−-]\s?\d+\s?=\s?\d|\bphotosynthesis|\bmitochondria|"
        r"\bthesis statement|\bderivative|\bintegral\b|\bpythagor|\bquadratic|\b\d+\s?% of \d|\bworld war|"
        r"\bsquare root|\bhomework\b",
        r"\bmath(?:s|ematics)?\b|\bchemistry\b|\bphysics\b|\bbiology\b|\bcalculat|\bformula\b|\bessays?\b|"
        r"\bhistorical\b|\bscientists?\b",
    ),
    "politics": (
        r"\belections?\b|\bpresident|\bsenators?\b|\bcongress\b|\bparliament|\bprime minister|\bdemocrats?\b|"
        r"\brepublicans?\b|\bpolitical part(?:y|ies)|\bvote for\b|\bleft-wing|\bright-wing|\bimmigration policy",
        r"\bpolitics\b|\bpolitical\b|\bvot(?:e|ing|ers)\b|\bgovernment\b|\bliberals?\b|\bconservatives?\b|"
        r"\bcampaign\b",
    ),
    "entertainment": (
        r"\bhere'?s (?:a|an|another|one|my) (?:\w+ ){0,2}(?:joke|poem|haiku|limerick|story|riddle|pun|song|rap)\b|"
        r"\bknock,? knock|\bpunchline|\broses are red|\bonce upon a time|\bhaiku|\blimerick|\bstanza",
        r"\bjokes?\b|\bpoems?\b|\bfunny\b|\blaugh|\brhym|\bwhy did the\b|\bverse\b|\bpuns?\b|\bcomedian",
    ),
    "recommendations": (
        r"\byou(?: might| may| would|'ll| will)(?: also)? (?:enjoy|love)\b|\byou might (?:also )?like\b|"
        r"\byou may also like\b|\bif you (?:liked|enjoyed|loved)\b|"
        r"\bi(?:'d| would)? (?:highly )?recommend (?:reading|the book|checking out|trying|picking up)|"
        r"\bmust-read|\bsimilar (?:books|titles|authors|novels)",
        r"\brecommend|\bgreat read\b|\bbestsellers?\b|\bgenres?\b|\bpage-turner|\bclassic novel",
    ),
    "sports": (
        r"\btouchdowns?\b|\bsuper bowl|\bworld cup|\bpremier league|\b(?:nba|nfl|mlb|nhl)\b|\bhome runs?\b|"
        r"\bplayoffs?\b|\bquarterback|\bhat[- ]trick|\bgoalkeeper|\bgrand slam",
        r"\bgames?\b|\bteams?\b|\bseason\b|\bscored?\b|\bleague\b|\bcoach\b|\bplayers?\b|\bodds\b|"
        r"\bovertime\b|\bstadium\b",
    ),
    "travel": (
        r"\bitinerar|\bhotels?\b|\bhostels?\b|\bflights? (?:from|to)\b|\bairports?\b|\bboarding pass|"
        r"\bmuseum pass|\bsightseeing|\bvisa requirements|\blayovers?\b|\btourists?\b|\bfor your trip\b",
        r"\btrips?\b|\btravel\b|\bvacation\b|\bbeach\b|\bpassport\b|\bmuseums?\b|\btours?\b|"
        r"\bflights?\b|\bsights\b",
    ),
    "personal advice": (
        r"\brelationships? (?:need|require|take|are)\b|\btalk openly\b|\bcouples? (?:therapy|counsel)|"
        r"\bbreak ?up with\b|\bdating (?:apps?|advice|tips)|\bhow to (?:get over|win back)|\bself-care\b",
        r"\bgirlfriend\b|\bboyfriend\b|\brelationships?\b|\bfeelings\b|\bcommunicat|\bhonest\b|"
        r"\bpartner\b|\bdating\b",
    ),
    "history": (
        r"\b(?:began|started|ended|was completed|was built|was signed|took place|broke out|fell) in \d{3,4}\b|"
        r"\brevolution\b|\bempires?\b|\bdynast(?:y|ies)\b|\bmedieval\b|\bcentury bc\b|\bthe roman\b",
        r"\bhistory\b|\bwars?\b|\bkings?\b|\bqueens?\b|\bancient\b|\bcentur(?:y|ies)\b|\bbattle\b",
    ),
    "technology": (
        r"\badd more ram\b|\bstartup programs|\bfactory reset|\breinstall (?:windows|macos|the os|drivers)|"
        r"\bgraphics card|\boperating system|\bbios\b",
        r"\blaptop\b|\bcomputer\b|\bram\b|\bcpu\b|\brouter\b|\bdrivers?\b|\bsoftware\b|\bhard drive\b|"
        r"\bsmartphone\b",
    ),
    "fitness": (
        r"\byoga\b|\bworkouts?\b|\bpush-?ups\b|\bcardio\b|\bmeditat|\bcalories\b|\bprotein\b|\bstretching\b",
        r"\bstress\b|\bflexibility\b|\bgym\b|\bmuscles?\b|\bweight loss\b|\bfitness\b|\bhealthy\b|"
        r"\bsleep\b|\bcaffeine\b|\bbedtime\b",
    ),
    "pets": (
        r"\badopt (?:a|the) (?:cat|dog|pet|puppy|kitten)\b|\b(?:dogs?|cats?|puppies|kittens?|pets?) (?:need|needs|"
        r"are|love|should)\b|\bvets?\b|\bveterinar",
        r"\bdogs?\b|\bcats?\b|\bpets?\b|\bwalks\b|\bbreeds?\b|\bleash\b|\blitter\b",
    ),
    "careers and learning": (
        r"\bcover letters?\b|\bresum[eé]s?\b|\bjob interviews?\b|\blearn (?:spanish|french|german|italian|"
        r"japanese|chinese|english|a language)\b|\bvocabulary\b|\bgrammar\b|\bsubtitles\b",
        r"\bjobs?\b|\bcareers?\b|\bsalary\b|\binterviews?\b|\blanguages?\b|\bfluent\b|\bpractice\b|"
        r"\bachievements\b",
    ),
    "general knowledge": (
        r"\bfun fact|\bdid you know\b|\bthe capital of\b|\bis the (?:largest|smallest|tallest|longest|closest|"
        r"farthest|oldest) (?:city|country|planet|ocean|animal|river|mountain|star|building)|\bmetres tall\b|"
        r"\bmeters tall\b|\bfeet tall\b|\bwas (?:born|founded|invented) in \d{3,4}|\blight[- ]years?|"
        r"\baccording to (?:wikipedia|historians|scientists|experts)",
        r"\bplanet\b|\bcentury\b|\bpopulation\b|\bspecies\b|\binvented\b",
    ),
}
_COMPILED_SUBJECTS = {
    subject: (re.compile(strong, re.IGNORECASE | re.MULTILINE), re.compile(weak, re.IGNORECASE))
    for subject, (strong, weak) in _SUBJECTS.items()
}


def _engaged_subjects(text: str) -> list[str]:
    engaged = []
    for subject, (strong, weak) in _COMPILED_SUBJECTS.items():
        weak_hits = {match.group().lower() for match in weak.finditer(text)}
        if strong.search(text) or len(weak_hits) >= 3:
            engaged.append(subject)
    return engaged


def _normalise(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).replace("\u2019", "'").replace("\u2018", "'")
    return re.sub(r"\s+", " ", text).strip()


@lru_cache(maxsize=8)
def _refusal_pattern(template: str) -> re.Pattern:
    before, _, after = _normalise(template).partition("{topic}")
    return re.compile(re.escape(before) + r".{1,160}?" + re.escape(after), re.IGNORECASE)


# --- Prompt leaks ----------------------------------------------------------------------------------

_LEAK_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")


def _shingles(text: str) -> set[tuple[str, ...]]:
    words = _LEAK_WORD.findall(_normalise(text).casefold())
    return {tuple(words[index : index + LEAK_WORDS]) for index in range(len(words) - LEAK_WORDS + 1)}


@lru_cache(maxsize=8)
def _secret_shingles(fragments: tuple[str, ...], allowed: tuple[str, ...]) -> frozenset[tuple[str, ...]]:
    secret: set[tuple[str, ...]] = set()
    for fragment in fragments:
        secret |= _shingles(fragment)
    for text in allowed:
        secret -= _shingles(text)
    return frozenset(secret)


# --- The check ---------------------------------------------------------------------------------------


def _ungrounded(reply: str, grounding: Grounding) -> dict[str, int]:
    extracted = _extract(reply, grounding.today)
    counts = {
        UNGROUNDED_ORDER_ID: len(extracted.order_ids - grounding.order_ids),
        UNGROUNDED_EMAIL: len(extracted.emails - grounding.emails),
        UNGROUNDED_AMOUNT: len(extracted.amounts - grounding.amounts),
        UNGROUNDED_TRACKING_NUMBER: len(extracted.tracking_numbers - grounding.tracking_numbers),
        UNGROUNDED_DATE: 0,
    }
    for value in extracted.dates:
        readings = value if isinstance(value, tuple) else (value,)
        if not any(reading in grounding.dates for reading in readings):
            counts[UNGROUNDED_DATE] += 1
    return {code: count for code, count in counts.items() if count}


def check_reply(reply: str, *, grounding: Grounding, refusal_template: str, prompt_fragments: list[str]) -> Verdict:
    """Allow the reply only if every fact is grounded, it is plain text, on topic and leaks no prompt text."""
    problems: dict[str, str] = {}
    for code, count in _ungrounded(reply, grounding).items():
        problems[code] = f"{code} x{count}"

    without_titles = _without(_EMAIL.sub(" ", reply), grounding.titles)
    kinds = _markdown_kinds(without_titles)
    if kinds:
        problems[MARKDOWN] = f"markdown: {', '.join(kinds)}"

    # Text inside the refusal template may name the subject ("recipes"); everything else may not.
    outside_refusal = _refusal_pattern(refusal_template).sub(" ", _normalise(without_titles))
    subjects = _engaged_subjects(outside_refusal)
    if subjects:
        problems[OFF_TOPIC] = f"off_topic: {', '.join(subjects)}"

    allowed = (refusal_template, *grounding.quotable_texts)
    if _shingles(reply) & _secret_shingles(tuple(prompt_fragments), allowed):
        problems[PROMPT_LEAK] = f"prompt_leak: {LEAK_WORDS}+ consecutive prompt words"

    if not problems:
        return Verdict.allow()
    codes = [code for code in CODE_ORDER if code in problems]
    return Verdict.deny(*codes, detail="; ".join(problems[code] for code in codes))
