"""L4 output validation: the model's final reply is checked before any customer sees it.

Called by chat/agent/reply.py on the draft reply, with a `Grounding` built from every tool result of
the thread, the identifiers the customer typed and the policy texts. Deterministic and pure: no
database, no model, no import from chat/. On a refusal the agent sends prompts.REPLY_FALLBACK and
keeps the draft for staff; on a flag the reply goes through and staff review the thread.

The hard line is grounding. Every order id, RMA number, date, amount, tracking number and email in
the reply must appear in a structured field of a tool result (read by key name, never by searching
the JSON text, so a book title cannot plant facts) or in the policy; the customer's words ground
only the order ids and emails they typed. A stated order status must be the order's status; a
commitment (actor, tense and modality + an action class + its object) must be backed by the tool
evidence its class names: a return or a label by an applied return for that order and those items,
a refund issued or an order changed by nothing at all; a policy figure (days, hours, fees,
thresholds, percentages) must be the one its own policy statement gives. Also refused: markdown,
sure signs of off-topic engagement, and 8 or more consecutive words, or any tool or intent name,
of the prompt. Beside the off-topic signs, a scope scorer (SCOPE_SCORER, trained on the corpora by
scripts/train_l4_scope.py, its thresholds chosen by cross-validation that holds out whole writers)
blocks a reply it is sure of, blocks or flags one in which the rules find a sentence about no part
of support, and leaves a reply of support and courtesy alone (_with_scope_score).
Unsure signs of off-topic engagement and a reply step whose intent the thread does not support
are flagged for staff, never blocked: their false blocks could not be bounded.
"""

import json
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field, fields
from datetime import date, datetime, timedelta
from decimal import Decimal, InvalidOperation
from functools import cached_property, lru_cache
from itertools import combinations, product
from pathlib import Path
from typing import NamedTuple

from guardrails import linear_scorer
from guardrails import output_patterns as patterns
from guardrails.spelled_numbers import number_words, with_digits
from guardrails.verdict import Verdict
from orders.policy import REFUND_METHOD, RETURN_WINDOW_DAYS

UNGROUNDED_ORDER_ID = "ungrounded_order_id"
UNGROUNDED_DATE = "ungrounded_date"
UNGROUNDED_AMOUNT = "ungrounded_amount"
UNGROUNDED_TRACKING_NUMBER = "ungrounded_tracking_number"
UNGROUNDED_EMAIL = "ungrounded_email"
UNGROUNDED_RMA = "ungrounded_rma"
UNGROUNDED_STATUS = "ungrounded_status"
UNGROUNDED_COMMITMENT = "ungrounded_commitment"
UNGROUNDED_POLICY = "ungrounded_policy"
UNGROUNDED_REFUND_METHOD = "ungrounded_refund_method"
MARKDOWN = "markdown"
OFF_TOPIC = "off_topic"
PROMPT_LEAK = "prompt_leak"
# Most serious first: Verdict.code is the first code that applies.
CODE_ORDER = (
    PROMPT_LEAK,
    UNGROUNDED_COMMITMENT,
    UNGROUNDED_ORDER_ID,
    UNGROUNDED_EMAIL,
    UNGROUNDED_RMA,
    UNGROUNDED_TRACKING_NUMBER,
    UNGROUNDED_STATUS,
    UNGROUNDED_AMOUNT,
    UNGROUNDED_DATE,
    UNGROUNDED_REFUND_METHOD,
    UNGROUNDED_POLICY,
    OFF_TOPIC,
    MARKDOWN,
)
# Flags: the reply goes through, the thread is marked for staff review.
OFF_TOPIC_UNSURE = "off_topic_unsure"
INTENT_UNSUPPORTED = "intent_unsupported"

# The closed list of intents the reply step names (chat/agent/tools.py send_reply).
INTENTS = ("order_status", "return", "policy", "clarification", "greeting", "out_of_scope", "handoff")

LEAK_WORDS = 8  # consecutive prompt words that make a leak
FOREIGN_SENTENCES = "sentences about another subject"  # the off-topic sign of counted foreign words
FIGURES_PER_SENTENCE_MAX = 30  # amounts and durations in one sentence of a reply
# Commitment classes that are promises even when made on a condition ("once it ships, I'll email you").
PROMISES = frozenset({"follow_up", "have_sent", "guarantee", "pickup", "store_email", "order_change", "assurance"})
SUBSET_SUM_MAX_ITEMS = 12  # an order with more items grounds its total and prices, not every subset sum


SHORT_TITLE_WORDS = 4  # a title this short with no number of an order or an amount in it is a name, not a fact


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
    rma_numbers: frozenset[str] = frozenset()
    statuses: frozenset[tuple[str, str]] = frozenset()  # (order id, status) from tool results
    applied_returns: frozenset[tuple[str, str]] = frozenset()  # (order id, casefolded title) written
    return_records: frozenset[tuple[str, str, str]] = frozenset()  # (RMA key, order id, casefolded title) written
    pending_returns: frozenset[str] = frozenset()  # order ids with a return prepared, not confirmed
    pending_items: frozenset[tuple[str, str]] = frozenset()  # (order id, casefolded title) prepared
    revised_returns: frozenset[str] = frozenset()  # order ids whose return was prepared again, changed
    order_items: frozenset[tuple[str, str]] = frozenset()  # (order id, casefolded title) the order holds
    refund_methods: frozenset[str] = frozenset()  # lower-case
    durations: frozenset[tuple[int, int, str]] = frozenset()  # (30, 30, "day"), (3, 5, "business day")
    # Policy figures with the subject of their statement: ("refund", 7, 7, "business day"), ("standard", 25, ...).
    policy_durations: frozenset[tuple[str, int, int, str]] = frozenset()
    policy_amounts: frozenset[tuple[str, Decimal]] = frozenset()
    fact_durations: frozenset[tuple[int, int, str]] = frozenset()  # from tool results and grounded dates
    fact_amounts: frozenset[Decimal] = frozenset()  # from tool results
    percents: frozenset[Decimal] = frozenset()
    tools_succeeded: frozenset[str] = frozenset()  # names of tools with a non-error result
    authors: frozenset[str] = frozenset()  # "I hope you enjoy Richard Osman's book" names no new work
    policy_words: frozenset[str] = frozenset()  # the policy texts' words: in scope wherever a reply uses them
    ineligible_orders: frozenset[str] = frozenset()  # orders an eligibility check found not returnable
    unreturnable_items: frozenset[tuple[str, str]] = frozenset()  # (order id, casefolded title) found not returnable
    carriers: frozenset[str] = frozenset()  # lower-case carrier names a result's text gives
    delivered_dates: frozenset[date] = frozenset()  # the delivery dates of the thread's orders
    reference_codes: frozenset[str] = frozenset()  # "RL-55812": codes a result gave or the customer typed
    order_totals: frozenset[Decimal] = frozenset()  # the "total" of each order a result gave
    order_dates: frozenset[date] = frozenset()  # the dates the thread's orders were placed
    window_ends: frozenset[date] = frozenset()  # return windows' last days: a check's, or delivered + the window
    item_prices: frozenset[tuple[str, Decimal]] = frozenset()  # (casefolded title, price) of listed items
    refund_amounts: frozenset[Decimal] = frozenset()  # what a prepared or written return refunds
    item_refunds: frozenset[Decimal] = frozenset()  # what each item of a written return refunds
    item_authors: frozenset[tuple[str, str]] = frozenset()  # (casefolded title, casefolded author)
    order_counts: frozenset[int] = frozenset()  # how many orders each complete order list held
    status_counts: frozenset[tuple[str, int]] = frozenset()  # (status, how many) of each complete order list
    partial_order_lists: frozenset[int] = frozenset()  # how many orders each truncated list showed (of more)
    digital_items: frozenset[str] = frozenset()  # casefolded titles of ebook and audiobook items
    gift_cards: frozenset[tuple[str, str]] = frozenset()  # (order id, casefolded title): items that are no book
    item_counts: frozenset[tuple[str, int]] = frozenset()  # (order id, how many items a result listed, copies too)
    returned_items: frozenset[tuple[str, str]] = frozenset()  # (order id, casefolded title) returned before
    error_codes: frozenset[str] = frozenset()  # the codes of the thread's failed tool calls
    open_windows: frozenset[str] = frozenset()  # orders an eligibility check found with the window open on `today`
    tracked_orders: frozenset[str] = frozenset()  # orders a result gave a tracking number
    order_tracking: frozenset[tuple[str, str]] = frozenset()  # (order id, tracking key) a result gave together
    addresses: frozenset[str] = frozenset()  # street addresses the customer typed (no result has one), normalised

    @cached_property
    def short_titles(self) -> tuple[str, ...]:
        """Titles of at most SHORT_TITLE_WORDS words with no order number or amount in them ("November 9",
        "Catch-22"): read as names, not facts. A longer title is read like the reply ("Order BK-99999 arrives
        2026-12-25 for $5.00" was a title planted to be repeated as a fact)."""
        return tuple(
            title
            for title in self.titles
            if len(title.split()) <= SHORT_TITLE_WORDS and not _ORDER_ID.search(title) and not _money_matches(title)
        )

    @cached_property
    def nameable_titles(self) -> tuple[str, ...]:
        """The titles a reply may name, casefolded, longest first ("Dune Messiah" before "Dune")."""
        return tuple(sorted({title.casefold() for title in self.titles if len(title) >= 3}, key=len, reverse=True))

    @classmethod
    def from_sources(
        cls, *, tool_results: list[tuple[str, dict]], customer_texts: list[str], policy_texts: list[str], today: date
    ) -> "Grounding":
        """Grounding from structured tool-result fields (by key), the customer's identifiers and the policy texts."""
        facts = _Facts()
        for name, result in tool_results:
            _walk_result(result, "", facts)
            if isinstance(result, dict) and "error" not in result:
                _read_tool(name, result, facts, today)
            elif isinstance(result, dict):
                error = result["error"]
                facts.error_codes.add(str(error.get("code") if isinstance(error, dict) else error))
        for text in customer_texts:
            # The customer's words ground only the identifiers they typed, never an amount or a date;
            # "31407" typed alone is their order BK-31407.
            facts.order_ids |= _extract_order_ids(text)
            facts.order_ids |= {f"BK-{digits}" for digits in _BARE_ORDER_DIGITS.findall(text)}
            # "BK 5589 12": the number typed in groups is the number joined
            facts.order_ids |= {"BK-" + "".join(digits.split()) for digits in _GROUPED_ORDER_DIGITS.findall(text)}
            facts.emails |= {email.lower().strip(".") for email in _EMAIL.findall(text)}
        # Orders' totals added up: "BK-77310 came to $26.95 and BK-77342 to $22.50, so together that's $49.45".
        totals = {
            (result.get("order_id"), total)
            for name, result in tool_results
            if name == "lookup_order" and isinstance(result, dict) and (total := _money(result.get("total")))
        }
        facts.amounts |= _subset_sums([total for _, total in totals])
        fact_amounts = frozenset(facts.amounts)
        # Carriers and reference codes are read from the results' text: no field names them. A 1Z… number
        # is UPS's format, but no result says UPS carries the parcel (two writers labelled that a false fact).
        results_text = json.dumps([result for _, result in tool_results], ensure_ascii=False)
        policy = _policy_facts(tuple(policy_texts))
        facts.amounts |= policy.amounts
        facts.durations |= policy.durations
        facts.percents |= policy.percents
        facts.refund_methods.add(REFUND_METHOD.lower())
        # The results' own words (an error's message, the label instructions) are support talk when a reply
        # repeats them ("The reason needs to be 1 to 500 characters of plain text").
        result_words = frozenset(
            word
            for _, result in tool_results
            for text in _result_prose(result)
            for word in _CONTENT_WORD.findall(text.lower())
        )
        facts.dates.add(today)
        # Dates the policy derives: the end of the return window of every delivered order.
        facts.window_ends |= {delivered + timedelta(days=RETURN_WINDOW_DAYS) for delivered in facts.delivered_dates}
        facts.dates |= facts.window_ends
        # Days from today to each date, and between any two dates of the thread ("delivered four days
        # after you ordered it").
        derived = {(abs((day - other).days),) * 2 + ("day",) for day in facts.dates for other in facts.dates}
        facts.durations |= derived
        facts.fact_durations |= derived
        return cls(
            # every fact the results and the customer's words established, under its own name
            **{fact.name: frozenset(getattr(facts, fact.name)) for fact in fields(_Facts)},
            quotable_texts=tuple(policy_texts),
            today=today,
            policy_durations=policy.subject_durations,
            policy_amounts=policy.subject_amounts,
            fact_amounts=fact_amounts,
            policy_words=policy.words | result_words,
            carriers=frozenset(match.group().lower() for match in _CARRIER.finditer(results_text)),
            reference_codes=frozenset(_REFERENCE_CODE.findall(results_text + " ".join(customer_texts))),
            addresses=frozenset(
                _address_key(match.group()) for text in customer_texts for match in _STREET_ADDRESS.finditer(text)
            ),
        )


class _PolicyFacts(NamedTuple):
    amounts: frozenset[Decimal]
    durations: frozenset[tuple[int, int, str]]
    percents: frozenset[Decimal]
    subject_durations: frozenset[tuple[str, int, int, str]]
    subject_amounts: frozenset[tuple[str, Decimal]]
    words: frozenset[str]


@lru_cache(maxsize=8)
def _policy_facts(policy_texts: tuple[str, ...]) -> _PolicyFacts:
    """What the policy texts ground, read once per set of texts (they are the same on every turn)."""
    amounts, durations, percents, subject_durations, subject_amounts = set(), set(), set(), set(), set()
    for text in policy_texts:
        amounts |= _extract(text).amounts
        durations |= _grounded_durations(text)
        percents |= _percents(text)
        for subject, low, high, unit in _subject_durations(text):
            # Within its own statement, each end of a range is a figure of it ("up to 5 business days").
            subject_durations |= {(subject, low, high, unit), (subject, low, low, unit), (subject, high, high, unit)}
        subject_amounts |= set(_subject_amounts(text))
    words = {word for text in policy_texts for word in _CONTENT_WORD.findall(text.lower())}
    return _PolicyFacts(
        *(frozenset(found) for found in (amounts, durations, percents, subject_durations, subject_amounts, words))
    )


# --- Reading tool results by key ---------------------------------------------------------------

_ORDER_ID_KEYS = frozenset({"order_id", "order_ids"})
_MONEY_KEYS = frozenset({"price", "total", "refund_amount", "amount", "subtotal"})
_MONEY_SUFFIXES = ("_price", "_total", "_amount", "_cost", "_fee")
_DATE_SUFFIXES = ("date", "window_ends", "expires_at", "_at", "_until")
_TRACKING_KEYS = frozenset({"tracking_number", "tracking_numbers"})
_EMAIL_KEYS = frozenset({"email", "customer_email", "emails"})
_TITLE_KEYS = frozenset({"title", "titles", "item_titles", "unmatched_titles"})
_RMA_KEYS = frozenset({"rma_number", "rma"})


@dataclass
class _Facts:
    """What reading the results and the customer's words establishes; each field is Grounding's of that name."""

    order_ids: set[str] = field(default_factory=set)
    dates: set[date] = field(default_factory=set)
    amounts: set[Decimal] = field(default_factory=set)
    tracking_numbers: set[str] = field(default_factory=set)
    emails: set[str] = field(default_factory=set)
    titles: set[str] = field(default_factory=set)
    rma_numbers: set[str] = field(default_factory=set)
    statuses: set[tuple[str, str]] = field(default_factory=set)
    applied_returns: set[tuple[str, str]] = field(default_factory=set)
    return_records: set[tuple[str, str, str]] = field(default_factory=set)
    pending_returns: set[str] = field(default_factory=set)
    pending_items: set[tuple[str, str]] = field(default_factory=set)
    revised_returns: set[str] = field(default_factory=set)
    order_items: set[tuple[str, str]] = field(default_factory=set)
    fact_durations: set[tuple[int, int, str]] = field(default_factory=set)
    refund_methods: set[str] = field(default_factory=set)
    durations: set[tuple[int, int, str]] = field(default_factory=set)
    percents: set[Decimal] = field(default_factory=set)
    delivered_dates: set[date] = field(default_factory=set)
    tools_succeeded: set[str] = field(default_factory=set)
    authors: set[str] = field(default_factory=set)
    ineligible_orders: set[str] = field(default_factory=set)
    unreturnable_items: set[tuple[str, str]] = field(default_factory=set)
    order_totals: set[Decimal] = field(default_factory=set)
    order_dates: set[date] = field(default_factory=set)
    window_ends: set[date] = field(default_factory=set)
    item_prices: set[tuple[str, Decimal]] = field(default_factory=set)
    refund_amounts: set[Decimal] = field(default_factory=set)
    item_refunds: set[Decimal] = field(default_factory=set)
    item_authors: set[tuple[str, str]] = field(default_factory=set)
    order_counts: set[int] = field(default_factory=set)
    status_counts: set[tuple[str, int]] = field(default_factory=set)
    partial_order_lists: set[int] = field(default_factory=set)
    digital_items: set[str] = field(default_factory=set)
    gift_cards: set[tuple[str, str]] = field(default_factory=set)
    item_counts: set[tuple[str, int]] = field(default_factory=set)
    returned_items: set[tuple[str, str]] = field(default_factory=set)
    error_codes: set[str] = field(default_factory=set)
    open_windows: set[str] = field(default_factory=set)
    tracked_orders: set[str] = field(default_factory=set)
    order_tracking: set[tuple[str, str]] = field(default_factory=set)


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


def _subset_sums(prices: list[Decimal]) -> set[Decimal]:
    """Every sum of two or more of the prices: a partial return of some of an order's items."""
    if len(prices) > SUBSET_SUM_MAX_ITEMS:
        return {sum(prices, Decimal(0))}
    return {sum(chosen, Decimal(0)) for size in range(2, len(prices) + 1) for chosen in combinations(prices, size)}


def _walk_result(value: object, key: str, facts: _Facts) -> None:
    """Collect facts from fields whose key names what they hold; lists inherit their key."""
    if isinstance(value, dict):
        for name, item in value.items():
            _walk_result(item, str(name).lower(), facts)
        listed = value.get("items")
        items = [item for item in listed if isinstance(item, dict)] if isinstance(listed, list) else []
        # A reply may add up prices the tool listed: "both books come to $31.98".
        prices = [price for price in (_money(item.get("price")) for item in items) if price is not None]
        facts.amounts |= _subset_sums(prices)
        facts.item_authors |= {
            (str(item["title"]).strip().casefold(), str(item["author"]).strip().casefold())
            for item in items
            if item.get("title") and isinstance(item.get("author"), str) and item["author"].strip()
        }
        # (a written return lists each item with its refund instead of its price)
        facts.item_prices |= {
            (str(item["title"]).strip().casefold(), price)
            for item in items
            if item.get("title") and (price := _money(item.get("price", item.get("refund_amount")))) is not None
        }
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
    elif key == "author" and isinstance(value, str) and value.strip():
        facts.authors.add(value.strip().casefold())
    elif key in _RMA_KEYS and isinstance(value, str):
        facts.rma_numbers.add(_rma_key(value))
    elif key == "refund_method" and isinstance(value, str):
        facts.refund_methods.add(value.strip().lower())
    elif key.endswith("_days") and isinstance(value, int) and not isinstance(value, bool):
        facts.durations.add((value, value, "day"))
        facts.fact_durations.add((value, value, "day"))


_PROSE_KEYS = frozenset({"message", "label_instructions", "refund_timeline", "text"})


def _result_prose(value: object) -> list[str]:
    """The sentences a result holds (an error's message, the label instructions), not its titles or codes."""
    if isinstance(value, dict):
        return [
            text
            for key, item in value.items()
            for text in ([item] if key in _PROSE_KEYS and isinstance(item, str) else _result_prose(item))
        ]
    if isinstance(value, list):
        return [text for item in value for text in _result_prose(item)]
    return []


def _order_id_of(result: dict) -> str:
    found = _extract_order_ids(str(result.get("order_id") or ""))
    return next(iter(found), "")


def _read_tool(name: str, result: dict, facts: _Facts, today: date) -> None:
    """What a successful result of a known tool establishes: statuses, deliveries, returns."""
    facts.tools_succeeded.add(name)
    orders = result.get("orders") if isinstance(result.get("orders"), list) else [result]
    for order in orders:
        if isinstance(order, dict) and isinstance(order.get("status"), str) and _order_id_of(order):
            facts.statuses.add((_order_id_of(order), order["status"].strip().lower()))
    if name == "list_customer_orders" and isinstance(result.get("orders"), list):
        if result.get("truncated") is False:
            facts.order_counts.add(len(result["orders"]))
            listed = [str(order.get("status", "")).lower() for order in result["orders"] if isinstance(order, dict)]
            facts.status_counts |= {(status, listed.count(status)) for status in _ORDER_STATUS_WORDS}
        else:
            facts.partial_order_lists.add(len(result["orders"]))
    facts.order_dates |= {
        placed for order in orders if isinstance(order, dict) and (placed := _date(order.get("order_date")))
    }
    for order in orders:
        if isinstance(order, dict) and order.get("tracking_number") and _order_id_of(order):
            facts.tracked_orders.add(_order_id_of(order))
            facts.order_tracking.add((_order_id_of(order), _tracking_key(str(order["tracking_number"]))))
    delivered = _date(result.get("delivered_date"))
    # The eligibility check's window is the one that counts (a lookup's delivery date is only its start).
    window_ends = _date(result.get("window_ends")) if name == "check_return_eligibility" else None
    if window_ends is not None:
        facts.window_ends.add(window_ends)
    if window_ends is not None and window_ends >= today and _order_id_of(result):
        facts.open_windows.add(_order_id_of(result))
    if delivered is not None:
        facts.delivered_dates.add(delivered)
        if name == "check_return_eligibility" and _order_id_of(result):
            facts.statuses.add((_order_id_of(result), "delivered"))
    if name == "check_return_eligibility" and _order_id_of(result):
        items = [item for item in result.get("items") or [] if isinstance(item, dict) and item.get("title")]
        # (an order may hold a title twice, the ebook and the paperback: the returnable copy can go back)
        returnable = {str(item["title"]).casefold() for item in items if item.get("returnable") is not False}
        facts.unreturnable_items |= {
            (_order_id_of(result), str(item["title"]).casefold())
            for item in items
            if item.get("returnable") is False and str(item["title"]).casefold() not in returnable
        }
        facts.returned_items |= {
            (_order_id_of(result), str(item["title"]).casefold())
            for item in items
            if item.get("reason") == "already_returned"
        }
    if name == "check_return_eligibility" and result.get("eligible") is False and _order_id_of(result):
        facts.ineligible_orders.add(_order_id_of(result))
        if result.get("reason") == "order_not_delivered":
            # Not delivered yet: still being prepared or on its way, the check does not say which.
            facts.statuses |= {(_order_id_of(result), "processing"), (_order_id_of(result), "shipped")}
    for order in orders:
        if isinstance(order, dict) and name in ("lookup_order", "check_return_eligibility") and _order_id_of(order):
            facts.order_items |= {(_order_id_of(order), title) for title in _item_titles(order)}
            listed = order.get("items") if isinstance(order.get("items"), list) else []
            facts.digital_items |= {
                str(item["title"]).casefold()
                for item in listed
                if isinstance(item, dict) and item.get("category") in ("ebook", "audiobook") and item.get("title")
            }
            if listed:
                facts.item_counts.add((_order_id_of(order), len(listed)))
            facts.gift_cards |= {
                (_order_id_of(order), str(item["title"]).casefold())
                for item in listed
                if isinstance(item, dict) and item.get("category") == "gift_card" and item.get("title")
            }
            total = _money(order.get("total"))
            if total is not None:
                facts.order_totals.add(total)
    if name == "initiate_return":
        refunded = _money(result.get("refund_amount") or (result.get("effect") or {}).get("refund_amount"))
        if refunded is not None:
            facts.refund_amounts.add(refunded)
        items = result.get("items") if isinstance(result.get("items"), list) else []
        facts.item_refunds |= {
            amount for item in items if isinstance(item, dict) and (amount := _money(item.get("refund_amount")))
        }
        if result.get("rma_number"):
            rma = _rma_key(str(result["rma_number"]))
            for title in _item_titles(result) or {""}:
                facts.applied_returns.add((_order_id_of(result), title))
                facts.return_records.add((rma, _order_id_of(result), title))
        elif isinstance(result.get("effect"), dict):
            effect = result["effect"]
            if _order_id_of(effect) in facts.pending_returns:
                facts.revised_returns.add(_order_id_of(effect))
            facts.pending_returns.add(_order_id_of(effect))
            titles = effect.get("titles") if isinstance(effect.get("titles"), list) else []
            facts.pending_items |= {(_order_id_of(effect), str(title).casefold()) for title in titles if title}


def _rma_key(value: str) -> str:
    """An RMA number as the checks compare it: "RMA-Q6M3X8PA", "rma q6m3x8pa" -> "RMAQ6M3X8PA"."""
    return re.sub(r"[-\s]", "", value).upper()


def _item_titles(result: dict) -> set[str]:
    """The casefolded titles of a result's items."""
    items = result.get("items") if isinstance(result.get("items"), list) else []
    return {str(item.get("title", "")).casefold() for item in items if isinstance(item, dict) and item.get("title")}


# --- Extracting facts from text -----------------------------------------------------------------

# Letters of any language: "rückgabefrist" is one word, not "r" and "ckgabefrist".
_CONTENT_WORD = re.compile(r"[^\W\d_](?:[^\W\d_]|['-])*[^\W\d_]")
_ORDER_ID = re.compile(r"(?<![A-Za-z0-9])BK[-\s]?(\d+)(?!\d)", re.IGNORECASE)
_EMAIL = re.compile(r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]+@(?:[A-Za-z0-9-]+\.)+[A-Za-z]{2,63}")
_ISO_DATE = re.compile(r"(?<![\d-])(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?![\d-])")
_NUMERIC_DATE = re.compile(r"(?<![\d/.-])(\d{1,2})/(\d{1,2})/(\d{4}|\d{2})(?![\d/])")
# "08.08.2027": the day first where a date is written with dots (German, Dutch, French).
_DOTTED_DATE = re.compile(r"(?<![\d.,-])(\d{1,2})\.(\d{1,2})\.(\d{4})(?![\d.]\d)")
# A month and day without a year is read only after a word that introduces a date: "delivered on 12/15",
# "am 03.08." ("4/5 stars", "24/7" and "Version 2.1." are none).
_DATE_LEAD = (
    r"\b(?:on|by|until|till|before|after|since|from|through|am|vom|bis|zum|seit|ab|den|le|du|au|el|del|hasta|op|tot|"
    r"van|delivered|shipped|placed|ordered|arrived|dispatched)\s+"
)
_SLASHED_MONTH_DAY = re.compile(rf"{_DATE_LEAD}(\d{{1,2}})/(\d{{1,2}})(?![/\d])", re.IGNORECASE)
_DOTTED_DAY_MONTH = re.compile(rf"{_DATE_LEAD}(\d{{1,2}})\.(\d{{1,2}})\.(?!\d)", re.IGNORECASE)  # day first
_DASHED_DATE = re.compile(r"(?<![\d.,/-])(\d{1,2})-(\d{1,2})-(\d{4})(?![\d-])")
_MONTH = (
    r"(?P<month>jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
    r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|"
    + "|".join(sorted(patterns.OTHER_LANGUAGE_MONTHS, key=len, reverse=True))
    + r")\.?"
)
_DAY = r"(?P<day>\d{1,2})(?:st|nd|rd|th|er)?(?!\d)"  # "le 1er novembre"
_YEAR = r"(?:,?[^\S\n]+(?:de\s+)?(?P<year>\d{4})(?!\d))?"
# (a date never runs across a line: "8 september\n2. BK-35102" is no September 2)
_MONTH_DAY = re.compile(rf"\b{_MONTH}[^\S\n]+{_DAY}{_YEAR}", re.IGNORECASE)
# "7 November", "7th of November", and the other languages' "7. November", "7 de noviembre".
_DAY_MONTH = re.compile(rf"\b{_DAY}\.?[^\S\n]+(?:of\s+|de\s+)?{_MONTH}(?![a-zà-ÿ]){_YEAR}", re.IGNORECASE)
_DAY_ONLY = re.compile(patterns.DAY_ONLY, re.IGNORECASE)
_RMA = re.compile(r"\bRMA-?(?=[A-Z0-9]{6,12}\b)[A-Z0-9]*\d[A-Z0-9]*\b")
# An amount of money: (pattern, decimal mark). Earlier patterns win where two overlap, so "59,94 $" is one
# amount, not 59 and 94. German, French, Spanish and Dutch write "59,94 €" and "1.234,50 $".
_CURRENCY_AFTER = rf"\s?(?:[$€]|USD|EUR|US-?dollars?|{patterns.CURRENCY_WORD})(?![\w$€])"
_MONEY_PATTERNS: tuple[tuple[re.Pattern, str], ...] = (
    (re.compile(rf"(?<![\d.,])(\d{{1,3}}(?:\.\d{{3}})+|\d+),(\d{{2}})(?!\d){_CURRENCY_AFTER}", re.I), ","),
    (re.compile(r"(?:US|USD\s?)?[$£€]\s?(\d+),(\d{2})(?![\d,]|\.\d)"), ","),
    (re.compile(r"(?:US|USD\s?)?[$£€]\s?(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?(?!\d)"), "."),
    (re.compile(rf"(?<![\d.,$€])(\d{{1,3}}(?:,\d{{3}})+|\d+)(?:\.(\d{{1,2}}))?{_CURRENCY_AFTER}", re.I), "."),
    (re.compile(r"\b(?:USD|EUR)\s?(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?(?!\d)"), "."),
)
_BARE_AMOUNT = re.compile(r"(?<![\d.,$/-])(\d{1,3}(?:,\d{3})+|\d+)\.(\d{2})(?![\d.])")
_UPS = re.compile(r"\b1Z[0-9A-Z]{16}\b", re.IGNORECASE)
# Any code a sentence calls a tracking number, in the five languages: "tracking number 1Z999RET0001",
# "Sendungsnummer: 00340434161094042557", "numéro de suivi LP123456789FR".
_TRACKING_NAMED = re.compile(
    r"\b(?:tracking|sendungs(?:verfolgungs)?nummer|trackingnummer|tracking-?nummer|num[ée]ro\s+de\s+suivi|"
    r"n°\s+de\s+suivi|n[úu]mero\s+de\s+(?:seguimiento|rastreo)|track\s*(?:&|and|en)\s*trace(?:\s*code)?|"
    r"trackingcode|traceercode)(?:\s+(?:number|no\.?|code|id|#))?(?:\s+(?:for|of|für|de|van)\s+BK-?\d+)?"
    r"(?:\s+[^\W\d]+){0,4}?[\s:#]*"
    r"(?:(?:is|ist|est|es|was|lautet)\s+)?(?<![\w-])(?P<code>(?!RMA|BK-?\d)(?=[A-Z0-9-]*\d)[A-Z0-9][A-Z0-9-]{7,34})\b",
    re.IGNORECASE,
)
_LONG_DIGITS = re.compile(r"(?<![\w-])\d{12,22}(?!\w)")


def _extract_order_ids(text: str) -> set[str]:
    return {f"BK-{digits}" for digits in _ORDER_ID.findall(text)}


def _tracking_key(value: str) -> str:
    return re.sub(r"[\s-]+", "", value).upper()


def _valid_date(year: int, month: int, day: int) -> date | None:
    try:
        return date(year, month, day)
    except ValueError:
        return None


# A written date that is not a real calendar date ("February 30") can never be grounded.
INVALID_DATE = "invalid"


class MonthDay(NamedTuple):
    """A date written without a year ("November 7", "7 Nov")."""

    month: int
    day: int


class DayOnly(NamedTuple):
    """A day of the month on its own ("on the 7th")."""

    day: int


@dataclass
class _Extracted:
    order_ids: set[str] = field(default_factory=set)
    emails: set[str] = field(default_factory=set)
    # A date, MonthDay, DayOnly, INVALID_DATE, or a tuple of the readings of an ambiguous numeric date.
    dates: list[object] = field(default_factory=list)
    amounts: set[Decimal] = field(default_factory=set)
    tracking_numbers: set[str] = field(default_factory=set)
    rma_numbers: set[str] = field(default_factory=set)
    reference_codes: set[str] = field(default_factory=set)


def _amount(whole: str, cents: str | None, decimal_mark: str = ".") -> Decimal:
    thousands = "." if decimal_mark == "," else ","
    return Decimal(whole.replace(thousands, "") + (f".{cents}" if cents else ""))


def _money_matches(text: str) -> list[tuple[re.Match, Decimal]]:
    """Every amount of money in the text with its match, each stretch of text read once."""
    found: list[tuple[re.Match, Decimal]] = []
    taken = bytearray(len(text))  # linear in the text, however many amounts it holds
    for pattern, decimal_mark in _MONEY_PATTERNS:
        for match in pattern.finditer(text):
            if not any(taken[match.start() : match.end()]):
                taken[match.start() : match.end()] = b"\x01" * (match.end() - match.start())
                found.append((match, _amount(*match.groups(), decimal_mark)))
    return found


def _date_matches(text: str) -> list[tuple[re.Match, object]]:
    """Every date the text writes, with its match: each stretch of text read once, the fullest form first."""
    found: list[tuple[re.Match, object]] = []
    spans: list[tuple[int, int]] = []

    def free(match: re.Match) -> bool:
        overlaps = any(start < match.end() and match.start() < end for start, end in spans)
        if not overlaps:
            spans.append(match.span())
        return not overlaps

    for match in _ISO_DATE.finditer(text):
        if free(match):
            year, month, day = (int(part) for part in match.groups())
            found.append((match, _valid_date(year, month, day) or INVALID_DATE))
    for pattern in (_MONTH_DAY, _DAY_MONTH):
        for match in pattern.finditer(text):
            # "may" is a month only when capitalised; "you may 2 ..." is not a date.
            if match.group("month") == "may" or not free(match):
                continue
            name = match.group("month").lower()
            month = patterns.OTHER_LANGUAGE_MONTHS.get(name) or patterns.MONTHS[name[:3]]
            day = int(match.group("day"))
            year = match.group("year")
            if year:
                found.append((match, _valid_date(int(year), month, day) or INVALID_DATE))
            else:
                # Without a year, any year will do: "November 7" is grounded by 2026-11-07.
                found.append((match, MonthDay(month, day) if _valid_date(2024, month, day) else INVALID_DATE))
    for match in _DOTTED_DATE.finditer(text):
        if free(match):
            day, month, year = (int(part) for part in match.groups())
            found.append((match, _valid_date(year, month, day) or INVALID_DATE))
    for match in (*_NUMERIC_DATE.finditer(text), *_DASHED_DATE.finditer(text)):
        if free(match):
            first, second, year_text = match.groups()
            year = int(year_text) + (2000 if len(year_text) == 2 else 0)
            readings = tuple(
                reading
                for reading in (_valid_date(year, int(first), int(second)), _valid_date(year, int(second), int(first)))
                if reading
            )
            found.append((match, readings or INVALID_DATE))
    for match in _DOTTED_DAY_MONTH.finditer(text):
        day, month = (int(part) for part in match.groups())
        if _valid_date(2024, month, day) and free(match):
            found.append((match, MonthDay(month, day)))
    for match in _SLASHED_MONTH_DAY.finditer(text):
        if free(match):
            first, second = (int(part) for part in match.groups())
            readings = tuple(
                MonthDay(month, day)
                for month, day in ((first, second), (second, first))
                if _valid_date(2024, month, day)
            )
            found.append((match, readings or INVALID_DATE))
    for match in _DAY_ONLY.finditer(text):
        if free(match):
            day = int(next(group for group in match.groups() if group))
            found.append((match, DayOnly(day) if 1 <= day <= 31 else INVALID_DATE))
    return found


_WEEKDAY_BEFORE = re.compile(
    r"\b(" + "|".join(patterns.WEEKDAYS) + r")\b,?\s+(?:the\s+|den\s+|el\s+|le\s+)?$", re.IGNORECASE
)


def _weekday_wrong(text: str, match: re.Match, value: object, grounding: Grounding) -> bool:
    """A weekday written right before a date that is not that date's: "Thursday, August 14" for a Friday.

    A date without its year is read as the thread's date of that month and day."""
    weekday = _WEEKDAY_BEFORE.search(text, max(0, match.start() - 20), match.start())
    if weekday is None:
        return False
    said = patterns.WEEKDAYS[weekday.group(1).lower()]
    candidates = [value] if isinstance(value, date) else [known for known in grounding.dates if _date_is(value, known)]
    return bool(candidates) and all(known.weekday() != said for known in candidates)


def _dates_as_one_word(text: str) -> str:
    """The text with each date it writes as one word ("§"): "placed on December 9" is three words."""
    for match, _ in sorted(_date_matches(text), key=lambda found: -found[0].start()):
        text = text[: match.start()] + "§" + text[match.end() :]
    return text


def _extract_dates(text: str) -> list[object]:
    return [value for _, value in _date_matches(text)]


def _tracking_numbers_in(text: str) -> set[str]:
    """The tracking numbers a text writes, as keys (upper-case, no spaces or dashes)."""
    found = {_tracking_key(value) for value in _UPS.findall(text)}
    found |= {_tracking_key(match.group("code")) for match in _TRACKING_NAMED.finditer(text)}
    return found | set(_LONG_DIGITS.findall(text))


def _extract(text: str) -> _Extracted:
    extracted = _Extracted()
    extracted.order_ids = _extract_order_ids(text)
    extracted.emails = {email.lower().strip(".") for email in _EMAIL.findall(text)}
    extracted.dates = _extract_dates(text)
    extracted.amounts = {amount for _, amount in _money_matches(text)}
    extracted.tracking_numbers = _tracking_numbers_in(text)
    extracted.rma_numbers = {_rma_key(value) for value in _RMA.findall(text)}
    extracted.reference_codes = set(_REFERENCE_CODE.findall(text))
    return extracted


def _number(word: str) -> int:
    if word.isdigit():
        return int(word)
    return number_words()[word.lower()]


_DURATION = re.compile(patterns.DURATION, re.IGNORECASE)
_PERCENT = re.compile(patterns.PERCENT, re.IGNORECASE)
_APPROXIMATE = re.compile(patterns.APPROXIMATE, re.IGNORECASE)


_DURATION_UNITS = {
    unit: re.compile(rf"(?:{pattern})\Z", re.IGNORECASE) for unit, pattern in patterns.DURATION_UNITS.items()
}


def _duration(match: re.Match) -> tuple[int, int, str]:
    first, second, kind, written = match.groups()
    unit = next(unit for unit, pattern in _DURATION_UNITS.items() if pattern.match(written))
    if (kind or "").strip().lower() in ("business", "working"):
        unit = f"business {unit}"
    low = _number(first)
    return low, _number(second) if second else low, unit


def _durations(text: str) -> set[tuple[int, int, str]]:
    """(low, high, unit) of every duration in the text: "3 to 5 business days" is (3, 5, "business day")."""
    return {_duration(match) for match in _DURATION.finditer(text)}


def _grounded_durations(text: str) -> set[tuple[int, int, str]]:
    """The durations of a grounding text, and each end of a range on its own ("1 to 2 days" grounds "2 days")."""
    found = _durations(text)
    return found | {(value, value, unit) for low, high, unit in found for value in (low, high)}


_SUBJECTS = re.compile(
    "|".join(f"(?P<{name}>{pattern})" for name, pattern in patterns.POLICY_SUBJECTS.items()), re.IGNORECASE
)


_SUBJECT_CLAUSE_BREAK = re.compile(r"[,;:]|\b(?:and|but|versus|vs|while|whereas|compared to)\b", re.IGNORECASE)


def _nearest_subject(text: str, position: int) -> str | None:
    before = after = None
    for match in _SUBJECTS.finditer(text):
        if match.start() < position:
            before = match.lastgroup
        elif after is None:
            after = match.lastgroup
    return before or after


def _clause_around(sentence: str, position: int) -> tuple[int, int]:
    start, end = 0, len(sentence)
    for match in _SUBJECT_CLAUSE_BREAK.finditer(sentence):
        if match.end() <= position:
            start = match.end()
        elif match.start() > position:
            end = match.start()
            break
    return start, end


def _subject_at(sentence: str, position: int) -> str | None:
    """The policy subject of a policy text's figure: in its own clause (the nearest before the figure, else
    the first after), else the nearest in an earlier clause, else none."""
    start, end = _clause_around(sentence, position)
    return _nearest_subject(sentence[start:end], position - start) or _nearest_subject(sentence[:start], start)


def _subjects_at(sentence: str, position: int) -> frozenset[str]:
    """Every policy subject a reply's figure may be about: those its clause names ("refunds for returns take
    7 business days" is about refunds or returns), else the nearest in an earlier clause."""
    start, end = _clause_around(sentence, position)
    named = frozenset(match.lastgroup for match in _SUBJECTS.finditer(sentence[start:end]))
    earlier = _nearest_subject(sentence[:start], start)
    return named or (frozenset({earlier}) if earlier else frozenset())


def _sentence_durations(sentence: str) -> list[tuple[str | None, tuple[int, int, str]]]:
    return [(_subject_at(sentence, match.start()), _duration(match)) for match in _DURATION.finditer(sentence)]


def _sentence_amounts(sentence: str) -> list[tuple[str | None, Decimal]]:
    return [(_subject_at(sentence, match.start()), amount) for match, amount in _money_matches(sentence)]


def _reply_figures(sentence: str) -> tuple[list, list] | None:
    """(subjects, duration match) and (subjects, amount) of every figure of a reply's sentence, or None
    past FIGURES_PER_SENTENCE_MAX: each figure's subjects are read from the sentence, so hundreds of
    figures would cost seconds, and no support sentence holds that many."""
    duration_matches, money = list(_DURATION.finditer(sentence)), _money_matches(sentence)
    if len(duration_matches) + len(money) > FIGURES_PER_SENTENCE_MAX:
        return None
    durations = [(_duration_subjects(sentence, match), match) for match in duration_matches]
    amounts = [(_subjects_at(sentence, match.start()), amount) for match, amount in money]
    return durations, amounts


def _duration_subjects(sentence: str, match: re.Match) -> frozenset[str]:
    """The subjects of a reply's duration; one timed by the return's receipt is the refund's, whatever word
    is nearest ("within 7 business days of the return reaching us")."""
    if _FROM_DELIVERY.match(sentence, match.end()):
        return frozenset({"window"})
    if _TIMED_BY_RECEIPT.match(sentence, match.end()):
        return frozenset({"refund"})
    # after a receipt the sentence named first: "zodra de retour bij ons binnen is, uiterlijk binnen 7 werkdagen daarna"
    if _AFTER_THAT.match(sentence, match.end()) and _RECEIPT_CONDITION.search(sentence, 0, match.start()):
        return frozenset({"refund"})
    return _subjects_at(sentence, match.start())


def _subject_durations(text: str) -> list[tuple[str, int, int, str]]:
    """Each duration of a policy text with the subject of its statement ("refund", 7, 7, "business day")."""
    return [
        (subject, *duration)
        for sentence in _sentences(_normalise(text))
        for subject, duration in _sentence_durations(sentence)
        if subject
    ]


def _subject_amounts(text: str) -> list[tuple[str, Decimal]]:
    """Each amount of a policy text with the subject of its statement: ("standard", 25), ("expedited", 9.99)."""
    return [
        (subject, amount)
        for sentence in _sentences(_normalise(text))
        for subject, amount in _sentence_amounts(sentence)
        if subject
    ]


def _percents(text: str) -> set[Decimal]:
    return {Decimal(re.sub(r"[^\d.]", "", match)) for match in _PERCENT.findall(text)}


# --- Markdown -------------------------------------------------------------------------------------


def _without(text: str, phrases: Iterable[str], *, placeholder: str = " ", whole_words: bool = False) -> str:
    """`text` with each phrase (a grounded title) replaced by `placeholder`, longest first, ignoring case;
    with `whole_words`, only where it stands as words of its own (the title "Dune" is not in "RMA-DUNE0001")."""
    for phrase in sorted(phrases, key=len, reverse=True):
        if len(phrase) >= 2:
            pattern = rf"(?<![\w-]){re.escape(phrase)}(?![\w-])" if whole_words else re.escape(phrase)
            text = re.sub(pattern, placeholder, text, flags=re.IGNORECASE)
    return text


def _markdown_kinds(text: str) -> list[str]:
    return [kind for kind, pattern in patterns.MARKDOWN_PATTERNS if pattern.search(text)]


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
    # A run of the customer's own vocabulary reveals nothing: "about an order, a return or a policy".
    return frozenset(shingle for shingle in secret if not set(shingle) <= patterns.PUBLIC_WORDS)


_IDENTIFIER = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")


@lru_cache(maxsize=8)
def _secret_identifiers(fragments: tuple[str, ...]) -> tuple[frozenset[str], re.Pattern | None]:
    """The prompt's snake_case names (tools, intents, fields), and a pattern for a tool named in words."""
    names = frozenset(name for fragment in fragments for name in _IDENTIFIER.findall(fragment.casefold()))
    spelled = "|".join(r"\s+".join(map(re.escape, name.split("_"))) for name in sorted(names))
    # "the check return eligibility tool" names a tool as surely as check_return_eligibility does.
    worded = re.compile(rf"\b(?:{spelled})\s+(?:tool|function|call|endpoint|api)\b", re.IGNORECASE) if names else None
    return names, worded


def _leaked_identifiers(reply: str, fragments: tuple[str, ...]) -> list[str]:
    names, worded = _secret_identifiers(fragments)
    found = sorted(set(_IDENTIFIER.findall(reply.casefold())) & names)
    if worded is not None:
        found += [match.group() for match in worded.finditer(reply)]
    return found


# --- Claims: statuses, commitments, policy ------------------------------------------------------


def _compile(table: dict[str, str]) -> dict[str, re.Pattern]:
    return {name: re.compile(pattern, re.IGNORECASE) for name, pattern in table.items()}


_STATUS_CLAIMS = _compile(patterns.STATUS_CLAIMS)
_RETURN_COMMITMENTS = _compile(patterns.RETURN_COMMITMENTS)
_UNBACKED_COMMITMENTS = _compile(patterns.UNBACKED_COMMITMENTS)
_INVENTED_POLICY = _compile(patterns.INVENTED_POLICY)
_OFF_TOPIC_SURE = _compile(patterns.OFF_TOPIC_SURE)
_RETURN_PREPARED = re.compile(patterns.RETURN_PREPARED, re.IGNORECASE)
_ELIGIBLE_CLAIM = re.compile(patterns.ELIGIBLE_CLAIM, re.IGNORECASE)
_RETURN_COUNT = re.compile(patterns.RETURN_COUNT, re.IGNORECASE)
_OTHER_LANGUAGE_ACTION = re.compile(patterns.OTHER_LANGUAGE_ACTION, re.IGNORECASE)
_CARD_DIGITS = re.compile(patterns.CARD_DIGITS, re.IGNORECASE)
_AGENT_ACTION = re.compile(patterns.AGENT_ACTION, re.IGNORECASE)
_COORDINATED_ACTION = re.compile(patterns.COORDINATED_ACTION, re.IGNORECASE)
_OWN_INSTRUCTIONS = re.compile(patterns.OWN_INSTRUCTIONS, re.IGNORECASE)
_NEGATION = re.compile(patterns.NEGATION, re.IGNORECASE)
_CONDITION = re.compile(patterns.CONDITION, re.IGNORECASE)
_HYPOTHESIS = re.compile(patterns.HYPOTHESIS, re.IGNORECASE)
_REQUEST_FIRST = re.compile(patterns.REQUEST_FIRST, re.IGNORECASE)
_FUTURE = re.compile(patterns.FUTURE, re.IGNORECASE)
_AWAITING_CONFIRMATION = re.compile(patterns.AWAITING_CONFIRMATION, re.IGNORECASE)
_ITEM_COUNT = re.compile(patterns.ITEM_COUNT, re.IGNORECASE)
_RECEIPT_CONDITION = re.compile(patterns.RECEIPT_CONDITION, re.IGNORECASE)
_EVERY_ITEM = re.compile(patterns.EVERY_ITEM, re.IGNORECASE)
_BOTH_ITEMS = re.compile(patterns.BOTH_ITEMS, re.IGNORECASE)
_ORDER_SUBJECT = re.compile(patterns.ORDER_SUBJECT, re.IGNORECASE)
_THE_ORDER = re.compile(r"\b(?:it|it's|your order|this order|your book|your parcel|your package)\b", re.IGNORECASE)
_CONTENTS_LEAD = re.compile(patterns.CONTENTS_LEAD, re.IGNORECASE)
_ORDER_STATUS_WORDS = {
    status: re.compile(rf"(?<![\w-])(?:{words})(?![\w-])", re.IGNORECASE)
    for status, words in patterns.ORDER_STATUS_WORDS.items()
}
_ORDER_STATUS_HEDGE = re.compile(patterns.ORDER_STATUS_HEDGE, re.IGNORECASE)
_PREMISE_CLAUSE = re.compile(r"\s*(?:since|because|as(?!\s+(?:soon|long|of|well|far)\b))\b[^,;:]*,", re.IGNORECASE)
_BRACKETED = re.compile(r"\(([^()]*)\)")
_GAP_WORD = re.compile(r"[\w§][\w§'-]*")  # words, not the punctuation between them
_CLAUSE_FINAL_NEGATION = re.compile(r"\b(?:nicht|niet)\s*[.!?]?\s*$", re.IGNORECASE)
_ASKING_LEAD = re.compile(r"\b(?:where|whether|if|when|once)\b", re.IGNORECASE)
_PREPARATION_WORD = re.compile(r"\b(?:set(?: up)?|ready|lined up|prepared|drafted|in place)\b", re.IGNORECASE)
_ALREADY_DONE = re.compile(r"\b(?:already|has been|have been)\b", re.IGNORECASE)
_CARRIER = re.compile(patterns.CARRIER, re.IGNORECASE)
_TRACKING_EVENT = re.compile(patterns.TRACKING_EVENT, re.IGNORECASE)
_HEDGE = re.compile(patterns.HEDGE, re.IGNORECASE)
_SINGULAR_ACTOR = re.compile(r"i\b", re.IGNORECASE)
_AGO_AFTER = re.compile(patterns.AGO_AFTER, re.IGNORECASE)
_AGO_BEFORE = re.compile(patterns.AGO_BEFORE, re.IGNORECASE)
_DELIVERY_WORD = re.compile(patterns.DELIVERY_WORD, re.IGNORECASE)
_REMAINING_AFTER = re.compile(patterns.REMAINING_AFTER, re.IGNORECASE)
_REMAINING_BEFORE = re.compile(patterns.REMAINING_BEFORE, re.IGNORECASE)
_MORE_DAYS = re.compile(patterns.MORE_DAYS, re.IGNORECASE)
_DAYS_AHEAD = tuple(
    (days, re.compile(rf"\b(?:{words})\b", re.IGNORECASE)) for days, words in patterns.DAYS_AHEAD.items()
)
_DEADLINE_DAYS = tuple(
    (days, re.compile(rf"(?:{patterns.DEADLINE_LEAD})(?:{words})\b", re.IGNORECASE))
    for days, words in patterns.DAYS_AHEAD.items()
)
_RELATIVE_DAYS = tuple((days, re.compile(pattern, re.IGNORECASE)) for days, pattern in patterns.RELATIVE_DAYS)
_ORDER_PLACED = re.compile(patterns.ORDER_PLACED, re.IGNORECASE)
# What joins a date to the word for its day: "October 12... which is tomorrow", "December 3 (today)".
_SAME_DAY = re.compile(
    r"[\s,.(—–-]*(?:which is|that is|that's|i\.e\.|das ist|also|soit|c'est|es decir|o sea|dus)?[\s,(]*", re.IGNORECASE
)
_NOT_DELIVERED = re.compile(patterns.NOT_DELIVERED, re.IGNORECASE)
# What a status sentence may be about besides the order: its return, refund, label, a replacement, an email.
_NOT_THE_ORDER = re.compile(
    r"\b(?:return|refund|label|replacement|email|link|retour|rücksendung|devolución)\b", re.IGNORECASE
)
_CUSTOMER_REQUEST = re.compile(patterns.CUSTOMER_REQUEST, re.IGNORECASE)
# An identifier written the way code writes it, snake_case or CONSTANT_CASE (not inside an address or a path).
_CODE_NAME = re.compile(r"(?<![\w/.@-])(?:[a-z]+(?:_[a-z0-9]+)+|[A-Z]+(?:_[A-Z0-9]+)+)(?![\w/.@-])")
_ORDER_ITEM_COUNT = re.compile(patterns.ORDER_ITEM_COUNT, re.IGNORECASE)
_COUNTED_ITEMS = re.compile(patterns.COUNTED_ITEMS, re.IGNORECASE)
_ITEMS_SUMMARY = re.compile(patterns.ITEMS_SUMMARY, re.IGNORECASE)
_ORDER_HELD = re.compile(patterns.ORDER_HELD, re.IGNORECASE)
_ORDER_PART = re.compile(patterns.ORDER_PART, re.IGNORECASE)
_WITHIN_WINDOW = re.compile(patterns.WITHIN_WINDOW, re.IGNORECASE)
_STILL_RETURNABLE = re.compile(patterns.STILL_RETURNABLE, re.IGNORECASE)
_KEPT = re.compile(patterns.KEPT, re.IGNORECASE)
_PRINT_FORMAT = re.compile(patterns.PRINT_FORMAT, re.IGNORECASE)
_DIGITAL_WORD = re.compile(patterns.DIGITAL_WORD, re.IGNORECASE)
_HOLDING = re.compile(patterns.HOLDING, re.IGNORECASE)
_RETURNED_CLAIM = re.compile(patterns.RETURNED_CLAIM, re.IGNORECASE)
_FIRST_OR_SECOND_PERSON = re.compile(r"(?:i|we|you)\b", re.IGNORECASE)
_NOT_RETURNED = re.compile(patterns.NOT_RETURNED, re.IGNORECASE)
_ORDER_SHIPPING = re.compile(patterns.ORDER_SHIPPING, re.IGNORECASE)
_REFERENCE_CODE = re.compile(patterns.REFERENCE_CODE)
_TIMED_BY_RECEIPT = re.compile(
    r"\s+(?:of|after|from|once|when|as soon as)\s+(?:us\s+|we\s+|the warehouse\s+)?(?:receiv\w*|(?:(?:the|your)\s+"
    r"(?:returned\s+)?(?:return|books?|parcel|items?)|"
    r"it|them)\s+(?:reach\w*|arriv\w*|get(?:s|ting)? back))"
    # "innerhalb von 7 Werktagen nachdem die Rücksendung eingegangen ist", "après réception", "desde que recibamos"
    r"|,?\s+(?:nachdem|sobald|nach\s+(?:dem\s+)?(?:eingang|erhalt)|après\s+(?:la\s+)?réception|dès\s+réception|"
    r"desde\s+que\s+recib|tras\s+(?:la\s+)?recepción|na\s+ontvangst|nadat)",
    re.IGNORECASE,
)
# A duration counted from the delivery is the return window's: "30 days of delivery", "30 days after your books
# arrive" (with the customer, not back with us), "30 Tage nach Erhalt der Lieferung", "30 jours après la livraison".
_FROM_DELIVERY = re.compile(
    r"\s+(?:of|after|from|since|following)\s+(?:the\s+)?delivery\b"
    r"|\s+(?:after|once|from when)\s+(?:your|the)\s+(?:books?|order|parcel|package|items?)\s+"
    r"(?:arrives?|arrived|(?:is|are|was|were)\s+delivered)\b(?!\s+(?:back|with us|at our|to us))"
    r"|\s+(?:nach|ab)\s+(?:der\s+)?(?:lieferung|zustellung)\b|\s+(?:après|à compter de)\s+la\s+livraison\b"
    r"|\s+(?:desde|después de|tras)\s+la\s+entrega\b|\s+(?:na|vanaf)\s+(?:de\s+)?(?:levering|bezorging)\b",
    re.IGNORECASE,
)
# What a day counted back may be a date of: the order, its shipping, delivery, return or refund, the parcel.
_ORDER_EVENT = re.compile(patterns.ORDER_EVENT, re.IGNORECASE)
_ONLY_ON_CONDITION = re.compile(patterns.ONLY_ON_CONDITION, re.IGNORECASE)
_SET_ASIDE = re.compile(patterns.SET_ASIDE, re.IGNORECASE)
_PRONOUN_OBJECT = re.compile(r"\b(?:it|them)\Z", re.IGNORECASE)
_AFTER_THAT = re.compile(r"\s+(?:daarna|danach|après cela|ensuite|afterwards|after that|thereafter)\b", re.IGNORECASE)
_BOOK_WORD = re.compile(patterns.BOOK_WORD, re.IGNORECASE)
_ORDINAL = re.compile(r"\b\d{1,2}(?:st|nd|rd|th)\b")
_WINDOW_CLOSED = re.compile(patterns.WINDOW_CLOSED, re.IGNORECASE)
_NO_TRACKING = re.compile(patterns.NO_TRACKING, re.IGNORECASE)
_PHONE_NUMBER = re.compile(patterns.PHONE_NUMBER)
_GENERIC_CARD_REFUND = re.compile(patterns.GENERIC_CARD_REFUND, re.IGNORECASE)
# Figures that state no fact: an amount in a hypothetical ("a $20 order wouldn't qualify"), an example
# address ("a full address like name@example.com") and a figure the reply declines to confirm.
_NOT_A_FACT = re.compile(
    patterns.HYPOTHETICAL_AMOUNT + "|" + patterns.PLACEHOLDER_EMAIL + "|" + patterns.DECLINED_FIGURE, re.IGNORECASE
)
_DECLINED_FIGURE = re.compile(patterns.DECLINED_FIGURE, re.IGNORECASE)
# What follows a verb of action when the assistant did nothing or only talks: "I've left BK-31575 as it is",
# "I'll keep it between us".
_AS_IT_IS = re.compile(
    r"\s+(?:\S+\s+){1,3}?(?:as (?:it|they) (?:is|are|was|were)|alone|untouched|unchanged)\b", re.IGNORECASE
)
# an item kept out of a return: "I left the audiobook out", "I've left Dune off the return"
_LEFT_OUT = re.compile(rf"{_AS_IT_IS.pattern}|\s+(?:\S+\s+){{1,4}}?(?:out|off)\b(?!\s+for\b)", re.IGNORECASE)
_NO_ACTION_AFTER = {
    "left": _LEFT_OUT,
    "leave": _AS_IT_IS,
    # ("I'll keep it quick": how the assistant talks)
    "keep": re.compile(
        r"\s+(?:it|this|that|things)\s+(?:between us|to myself|a secret|in mind|quick|short|brief|simple)\b",
        re.IGNORECASE,
    ),
    # "we'll work out the next step": talk about what to do, not an action
    "work": re.compile(r"\s+(?:it\s+)?out\b", re.IGNORECASE),
    # "he dejado preparada la devolución": prepared, like "preparado"
    "dejado": re.compile(r"\s+(?:preparad[oa]s?|list[oa]s?)\b", re.IGNORECASE),
}
_ORDER_TOTAL_WORD = re.compile(patterns.ORDER_TOTAL_WORD, re.IGNORECASE)
_REFUND_CONTEXT = re.compile(patterns.REFUND_CONTEXT, re.IGNORECASE)
_CONTENTS_SEPARATOR = re.compile(patterns.CONTENTS_SEPARATOR, re.IGNORECASE)
_COUNT_CLAUSE_BREAK = re.compile(r"[;:]|,\s+(?:and|but|so|then)\b")
_NEW_SUBJECT = re.compile(r"\s(?:and|but)\s+(?:the|your|my|our|it|i|we|you|they)\b", re.IGNORECASE)
_SCOPE_CLAUSE_BREAK = re.compile(r";|,\s+(?:and|but|so|then|while)\b")
_OPINION_MARKER = re.compile(patterns.OPINION_MARKER, re.IGNORECASE)
_LITERARY_JUDGEMENT = re.compile(patterns.LITERARY_JUDGEMENT, re.IGNORECASE)
_REFUND_METHOD = re.compile(patterns.REFUND_METHOD_CLAIM, re.IGNORECASE)
_NON_RETURNABLE = re.compile(patterns.NON_RETURNABLE, re.IGNORECASE)
_RETURNABLE_CLAIM = re.compile(patterns.RETURNABLE_CLAIM, re.IGNORECASE)
_DATE_ROLE_BEFORE = _compile(patterns.DATE_ROLE_BEFORE)
_DATE_ROLE_AFTER = _compile(patterns.DATE_ROLE_AFTER)
_CARD_BRAND = re.compile(patterns.CARD_BRAND, re.IGNORECASE)
_CARD_BRAND_SYNONYMS = {"master card": "mastercard", "american express": "amex"}
_CARD_WORD = re.compile(patterns.CARD_WORD, re.IGNORECASE)
_TITLE_PRICE_GAP = re.compile(patterns.TITLE_PRICE_GAP, re.IGNORECASE)
_OTHER_ITEMS = re.compile(patterns.OTHER_ITEMS, re.IGNORECASE)
_NAMED_LIST = re.compile(patterns.NAMED_LIST, re.IGNORECASE)
# Where a clause about other items begins: "C was returned before; A and B come to …", "C can't go back, but A …"
_CONTRAST_BREAK = re.compile(r";|\b(?:but|aber|mais|pero|maar)\b", re.IGNORECASE)
_BRACKETED_FIGURE = re.compile(r"\s*\([^()]*\d[^()]*\)")
# What the named items come to (Spanish "en total" is no Dutch "en", and), and a sentence that opens on what the
# last one's items come to: "Together they'd come to $37.98."
_NAMED_TOTAL = re.compile(rf"\b(?:{patterns.TOTAL_WORDS}|adds? up to|comes? to|bij elkaar)\b", re.IGNORECASE)
_TOTAL_LEAD = re.compile(rf"\W*(?:{patterns.TOTAL_WORDS})\b", re.IGNORECASE)
_CUSTOMER_ONLY_EVENT = re.compile(patterns.CUSTOMER_ONLY_EVENT, re.IGNORECASE)
_STORE_PLACE = re.compile(patterns.STORE_PLACE, re.IGNORECASE)
_STREET_ADDRESS = re.compile(patterns.STREET_ADDRESS)


def _address_key(address: str) -> str:
    return " ".join(address.casefold().replace(",", " ").split())


_ITEM_FORMAT = re.compile(patterns.ITEM_FORMAT, re.IGNORECASE)
_ORDER_COUNT = re.compile(patterns.ORDER_COUNT, re.IGNORECASE)
_AUTHOR_AFTER_TITLE = r"(?:by|von|van|door)"  # "Piranesi by Susanna Clarke"
# An author written after a title: "by Sally Rooney", ", de Leïla Slimani" (a capitalised name; an initial is
# part of it: "Irma S. Rombauer").
_AUTHOR_NAMED = re.compile(
    r",?\s+(?:by|von|van|door|de)\s+(?P<name>[A-ZÀ-Þ][\w'’.-]*(?:\s+(?:[A-ZÀ-Þ][\w'’.-]*|(?:de|van|von|der|da|del|la|le|"
    r"du|des|di|dos|ten|ter)\b))*)"
)
_INITIALS_ONLY = re.compile(r"(?:\w\.\s*)+")
# Capitalised words, and the small words titles hold between them: "Iron Flame", "The Name of the Rose".
_TITLE_RUN = re.compile(
    r"[A-ZÀ-Þ0-9][\w'’!?:-]*(?:\s+(?:of|the|and|a|an|in|on|to|for|at|by|de|la|le|les|el|los|las|van|het|der|die|das|"
    r"des|du|dem|den|und|y|et|en)\b|\s+[A-ZÀ-Þ0-9][\w'’!?:-]*)*"
)
# The verb after a list of titles: "… and Iron Flame are returnable".
_LIST_VERB = re.compile(
    r"\s+(?:are|is|were|was|can|could|will|have|has|had|sind|waren|können|sont|étaient|peuvent|son|eran|pueden|"
    r"zijn|kunnen)\b"
)
# A listed title followed by nothing but its (masked) author is still a list entry (Spanish "Aura de Carlos Fuentes").
_BY_AUTHOR_ONLY = re.compile(rf"\s*(?:(?:(?:{_AUTHOR_AFTER_TITLE}|de)\s*|d['’])\x00)?\s*[.!?]?\s*")
# An entry's masked author at its end: "The Nightingale by <author>." is looked up as "The Nightingale".
_BY_AUTHOR_TAIL = re.compile(rf"\s+(?:(?:{_AUTHOR_AFTER_TITLE}|de)\s*|d['’])\x00\s*[.!?]?\s*$")
_HEARSAY = re.compile(
    r"\b(?:to hear|you (?:say|said|mention\w*|describe\w*|report\w*|think|believe)|if|whether|sounds like|seems|"
    r"i understand|i know)\b",
    re.IGNORECASE,
)
_NOT_RETURNABLE = re.compile(rf"{patterns.NOT_RETURNABLE}|{patterns.NEGATION}", re.IGNORECASE)
_CONTRAST = re.compile(
    r"\b(?:but|however|although|though|while|whereas|only|aber|jedoch|doch|mais|cependant|toutefois|pero|aunque|"
    r"sin embargo|maar|echter)\b|;",
    re.IGNORECASE,
)
_CONDITIONAL_CLAUSE = re.compile(
    r"\b(?:if|as long as|provided(?: that)?|unless|once|when|so long as|si|wenn|falls|sofern|solange|tant qu'?e?|"
    r"pourvu qu'?e?|siempre que|mientras|als|zolang|mits)\b[^,;]*",
    re.IGNORECASE,
)
_RECOMMENDATION = re.compile(patterns.RECOMMENDATION)
_SUPPORT_ANCHOR = re.compile(patterns.SUPPORT_ANCHOR, re.IGNORECASE)
_EMPATHY_OPENER = re.compile(patterns.EMPATHY_OPENER, re.IGNORECASE)
_DECLINE_OPENER = re.compile(patterns.DECLINE_OPENER, re.IGNORECASE)
# The return as the verb's object: "set up a return", "lined up Range for return" (the items it covers before it).
_RETURN_OBJECT = re.compile(
    r"(?:\s+(?:up|together))?\s*:?\s+(?:(?:a|the|your)\s+return\b(?!\s+(?:window|policy|label))"
    r"|[^,.;:!?]{1,60}?\bfor\s+(?:a\s+|the\s+)?return\b(?!\s+(?:window|policy|label)))",
    re.IGNORECASE,
)
_DIGRESSION = re.compile(patterns.DIGRESSION, re.IGNORECASE)
_ORDER_FACT_WORD = re.compile(patterns.ORDER_FACT_WORD, re.IGNORECASE)
_OTHER_LANGUAGE_RECOMMENDATION = re.compile(patterns.OTHER_LANGUAGE_RECOMMENDATION, re.IGNORECASE)
_BARE_ORDER_DIGITS = re.compile(r"(?<![\w-])(\d{4,6})(?![\w-])")
_GIFT_CARD = re.compile(patterns.GIFT_CARD, re.IGNORECASE)
_INVENTED_EXCLUSION = re.compile(patterns.INVENTED_EXCLUSION, re.IGNORECASE)
_SHIPPED_ON_DAY = re.compile(patterns.SHIPPED_ON_DAY, re.IGNORECASE)
_PAID_HYPOTHESIS = re.compile(
    r"\b(?:if|whether|falls|wenn|si|als)\s+(?:you|sie|du|vous|tu|usted|je|u)\s+(?:\w+\s+)?(?:paid|used|bought|"
    r"checked out|bezahlt|payé|pagaste|pagó|betaald)\b",
    re.IGNORECASE,
)
_THE_REFUND_IS = re.compile(
    r"\b(?:the|your)\s+refund\s+(?:will be|is|comes to|amounts to|totals?)\b|\b(?:the|your)\s+refund\s+of\b",
    re.IGNORECASE,
)
_ALL_ORDERS_CLAIM = re.compile(patterns.ALL_ORDERS_CLAIM, re.IGNORECASE)
_TIME_LEAD = re.compile(r"\b(?:once|as soon as|after|when)\s*$", re.IGNORECASE)
_LIST_JOINER = re.compile(r"\s*(?:,|&|\band\b|\bund\b|\bet\b|\by\b|\ben\b)?\s*", re.IGNORECASE)
_ORDER_BRACKET = re.compile(r"\bBK-?(\d+)\s*\(([^()]{3,80})\)", re.IGNORECASE)
_CAPITALISED_WORD = re.compile(r"(?<![\w'’])[A-ZÀ-Þ][\w'’-]+")
_GROUPED_ORDER_DIGITS = re.compile(r"(?<![A-Za-z0-9])BK[-\s]?(\d{1,6}(?:[ \u00a0]\d{1,6})+)(?![\d])", re.IGNORECASE)
_COURTESY = re.compile(patterns.COURTESY, re.IGNORECASE)
_TO_CUSTOMER = re.compile(
    r"\b(?:you|your|yours|you'd|you're|sie|ihnen|ihr\w*|du|dir|dein\w*|vous|votre|vos|tu|te|ton|ta|tes|usted|"
    r"ustedes|su|sus|tú|ti|u|uw|je|jij|jouw)\b",
    re.IGNORECASE,
)
_FOREIGN_CLAUSE = re.compile(r"[,;:]")
_SENTENCE = re.compile(r"[^.!?\n]+(?:[.!?]+|$)")
_INITIAL = re.compile(r"(?<=\s)([A-Z])\.(?=\s+[A-Z][a-z])")
_ORDINAL_DAY = re.compile(rf"\b(\d{{1,2}})\.(?=\s+{_MONTH})", re.IGNORECASE)
# A German day without its month before a lowercase word: "ist am 12. angekommen" goes on after the dot.
_GERMAN_DAY = re.compile(r"\b((?:am|vom|zum|dem)\s+\d{1,2})\.(?=\s+[a-zäöüß])")
_CLAUSE_BREAK = re.compile(r"[,;:]|\b(?:and|but|so)\b", re.IGNORECASE)
_REASON = re.compile(r"\b(?:since|because|weil|puisque|parce que|car|porque|ya que|omdat|aangezien)\b", re.IGNORECASE)


_TITLE_STOPS = str.maketrans(".!?", "\ue000\ue001\ue002")
_TITLE_STOPS_BACK = str.maketrans("\ue000\ue001\ue002", ".!?")


def _sentences(text: str, titles: Iterable[str] = ()) -> list[str]:
    # A full stop inside an amount or an order id is not the end of a sentence, nor the one of a German
    # or Dutch day ("am 4. Dezember").
    # Nor an initial inside a name ("Irma S. Rombauer"), nor the stop of a title ("Martyr!", "Where'd You Go?").
    for title in titles:
        if any(stop in title for stop in ".!?"):
            # (a title's last stop may end the sentence too: "… open for Martyr! Long Island stays with you")
            going_on = r"(?=\s+(?-i:[a-zà-ÿ])|\s*[,;:)])" if title[-1] in ".!?" else ""
            text = re.sub(
                re.escape(title) + going_on, lambda found: found.group().translate(_TITLE_STOPS), text, flags=re.I
            )
    protected = _ORDINAL_DAY.sub("\\1\u2024", re.sub(r"(\d)\.(\d)", "\\1\u2024\\2", text))
    protected = _GERMAN_DAY.sub("\\1\u2024", protected)
    protected = _INITIAL.sub("\\1\u2024", protected)
    return [
        part.replace("\u2024", ".").translate(_TITLE_STOPS_BACK).strip()
        for part in _SENTENCE.findall(protected)
        if part.strip()
    ]


def _asserted(sentence: str, match: re.Match) -> bool:
    """False when the match is asked, negated in its own clause, or conditional."""
    if sentence.rstrip().endswith("?"):
        return False
    before = sentence[: match.start()]
    clause = _CLAUSE_BREAK.split(before)[-1]
    if _NEGATION.search(clause) or _NEGATION.search(match.group()):
        return False
    # A promise is the match's own clause in the future: "Your return has been started, and the refund will
    # follow once we receive it" states a past fact before a promise of the next clause.
    start, end = _match_clause_bounds(sentence, match)
    # An opening reason is a clause of its own: "Since you paid for expedited shipping, it'll take 1 to 2 business
    # days once it ships" states the premise whatever the rest promises.
    premise = _PREMISE_CLAUSE.match(sentence)
    if premise and match.end() <= premise.end():
        end = premise.end()
    # German and Dutch negate at the clause's end: "zugestellt ist die Bestellung aber noch nicht".
    if _CLAUSE_FINAL_NEGATION.search(sentence, match.end(), end):
        return False
    # ("… has been created and the refund will follow once …": "and" before a new subject starts a clause)
    next_subject = _NEW_SUBJECT.search(sentence, match.end(), end)
    future = _FUTURE.search(sentence, start, next_subject.start() if next_subject else end)
    # A condition governs a promise anywhere in its sentence, but a past fact only in its own clause:
    # "returnable until March 31, and a refund has been approved" still claims the approval.
    if _CONDITION.search(before if future else sentence[start : match.start()]):
        return False
    return not (future and (_CONDITION.search(sentence) or _REQUEST_FIRST.match(sentence)))


def _conditional(sentence: str, match: re.Match, claimed_at: int | None = None) -> bool:
    """True when the match is neither asked nor negated, only made conditional.

    What it claims starts at `claimed_at` (the match's start unless said): a claim set aside right before it
    ("to your card rather than as store credit") is none.
    """
    clause = _CLAUSE_BREAK.split(sentence[: match.start()])[-1]
    set_aside = _SET_ASIDE.search(sentence, 0, match.start() if claimed_at is None else claimed_at)
    negated = _NEGATION.search(clause) or _NEGATION.search(match.group()) or set_aside
    return not sentence.rstrip().endswith("?") and not negated


def _claimed_orders(sentence: str, grounding: Grounding) -> set[str]:
    """The orders a sentence is about: those it names, else every order the thread looked up."""
    named = _extract_order_ids(sentence)
    return named or {order_id for order_id, _ in grounding.statuses}


def _status_problems(sentences: list[str], grounding: Grounding) -> int:
    """Statuses a reply states that the orders' looked-up statuses do not support."""
    count = 0
    for sentence in sentences:
        count += _order_status_pairs(sentence, grounding)
        for status, pattern in _STATUS_CLAIMS.items():
            match = pattern.search(sentence)
            if match is None or not _asserted(sentence, match):
                continue
            # A sentence about a return or a refund ("your return was delivered") is not the order's status,
            # nor one about something else that was cancelled ("the course was cancelled").
            before = sentence[: match.start()]
            if _NOT_THE_ORDER.search(before):
                continue
            # a guess is not a status: "it may have been lost", "it might already be delivered"
            if _HEDGE.search(_CLAUSE_BREAK.split(before)[-1] + match.group()):
                continue
            # (the subject may open the match itself: "It shipped this morning")
            subject_side = _CLAUSE_BREAK.split(before)[-1] + match.group()
            if not _extract_order_ids(sentence) and not _ORDER_SUBJECT.search(subject_side):
                continue
            supported = patterns.STATUS_SUPPORT[status]
            orders = _claimed_orders(sentence, grounding)
            if not orders or not any(
                state in supported for order_id, state in grounding.statuses if order_id in orders
            ):
                count += 1
    return count


def _order_status_pairs(sentence: str, grounding: Grounding) -> int:
    """Statuses written right after an order number that the order's looked-up status does not support.

    Each order number is read with the words after it up to the next one, so a list of orders
    ("BK-40988, which has shipped; BK-40317, delivered") is checked order by order.
    """
    count = 0
    found = list(_ORDER_ID.finditer(sentence))
    ends = [found[index + 1].start() if index + 1 < len(found) else len(sentence) for index in range(len(found))]
    # Numbers listed together share what follows the last of them: "Both BK-10561 and BK-10533 have been delivered".
    for index in range(len(found) - 2, -1, -1):
        if _LIST_JOINER.fullmatch(sentence[found[index].end() : ends[index]]):
            ends[index] = ends[index + 1]
    for index, match in enumerate(found):
        order_id = f"BK-{match.group(1)}"
        # (an order no result gave a status has none to claim: "omdat BK-21537 al verzonden is")
        known = {state for owner, state in grounding.statuses if owner == order_id}
        # "I'm not able to change where BK-120455 is delivered": the number sits in a clause that asks or denies.
        lead = _CLAUSE_BREAK.split(sentence[: match.start()])[-1]
        if _NEGATION.search(lead) or _ASKING_LEAD.search(lead):
            continue
        end = ends[index]
        # "(BK-31507 and BK-29415) or cancelled (BK-30988)": a closing bracket ends what is said of the number;
        # a bracket opened after it does not ("BK-31150 (Circe) is on its way").
        span = _BRACKETED.sub(r" \1 ", sentence[match.end() : end]).split(")")[0]
        # Only the first status word after the number is its status ("is still processing, so nothing has shipped").
        words = [
            (word.start(), status) for status, pattern in _ORDER_STATUS_WORDS.items() if (word := pattern.search(span))
        ]
        if not words:
            continue
        start, status = min(words)
        # (a date in the gap is one word: "BK-24190, passée le 9 décembre : elle est en cours de préparation")
        gap = _dates_as_one_word(span[:start])
        if len(_GAP_WORD.findall(gap)) > patterns.ORDER_STATUS_GAP_WORDS or _ORDER_STATUS_HEDGE.search(gap):
            continue
        if not known & patterns.STATUS_SUPPORT[status]:
            count += 1
    return count


def _total_wrong(sentence: str, money: list[tuple[re.Match, Decimal]], grounding: Grounding) -> bool:
    """An order's total stated as an amount no result gave as a total (an item's price, a partial sum)."""
    if not grounding.order_totals or not _ORDER_TOTAL_WORD.search(sentence) or _REFUND_CONTEXT.search(sentence):
        return False
    amounts = [amount for _, amount in money]
    return len(amounts) == 1 and amounts[0] not in grounding.order_totals


def _relative_day_problems(sentence: str, event: bool, grounding: Grounding) -> list[str]:
    """Days counted back from today ("yesterday", "the day before yesterday", "a week ago") that are not the
    date the sentence writes beside them ("placed yesterday, November 24"), or, with no date beside them, no
    date of the thread when the sentence speaks of an order's event ("a été livré hier")."""
    problems = []
    for days_back, pattern in _RELATIVE_DAYS:
        match = pattern.search(sentence)
        if match is None or _APPROXIMATE.search(sentence[max(0, match.start() - 12) : match.start()]):
            continue
        day = grounding.today - timedelta(days=days_back)
        # a date written beside it is the day it names ("yesterday, November 24"; "December 31, a week ago")
        written = [
            value
            for found, value in _date_matches(sentence)
            if value != INVALID_DATE and found.start() - match.end() <= 3 and match.start() - found.end() <= 20
        ]
        if written:
            wrong = not any(_date_is(value, day) for value in written)
        else:
            wrong = (event or _ORDER_PLACED.search(sentence) is not None) and day not in grounding.dates
        if wrong:
            problems.append(match.group().lower())
    return problems


def _days_left_wrong(sentence: str, grounding: Grounding) -> bool:
    """Days said to be left ("you still have 17 days", "nog 5 dagen", "5 more days") that are not the days from
    today to the end of a return window of the thread (or one more, counting the last day)."""
    if not grounding.window_ends:
        return False
    left = {(end - grounding.today).days for end in grounding.window_ends}
    said = [
        (match, low, unit)
        for match in _DURATION.finditer(sentence)
        if _REMAINING_AFTER.match(sentence, match.end()) or _REMAINING_BEFORE.search(sentence, 0, match.start())
        for low, _, unit in [_duration(match)]
    ]
    said += [
        (match, int(match.group("count")), match.group("unit").lower().rstrip("s"))
        for match in _MORE_DAYS.finditer(sentence)
    ]
    for match, count, unit in said:
        if unit not in _DAYS_PER_UNIT or _subjects_at(sentence, match.start()) - {"window"}:
            continue  # business days, hours; the refund's or the shipping's time
        days = count * _DAYS_PER_UNIT[unit]
        slack = 3 if unit == "week" or _APPROXIMATE.search(sentence[: match.start()]) else 0
        if not any(0 <= days - remaining <= 1 + slack or 0 <= remaining - days <= slack for remaining in left):
            return True
    return False


def _days_ahead_problems(sentence: str, grounding: Grounding) -> list[str]:
    """Today or tomorrow said of a date that is not that day: a return window's last day ("you have until
    tomorrow" when it ends today) or a date written beside the word ("until October 12... which is tomorrow")."""
    problems = []
    for days_ahead, pattern in _DEADLINE_DAYS:
        match = pattern.search(sentence)
        day = grounding.today + timedelta(days=days_ahead)
        if match and grounding.window_ends and day not in grounding.window_ends and _asserted(sentence, match):
            problems.append("a window's last day")
    for days_ahead, pattern in _DAYS_AHEAD:
        day = grounding.today + timedelta(days=days_ahead)
        for match in pattern.finditer(sentence):
            # the date written just before it ("October 12, which is tomorrow"; "heute, am 3. März")
            written = [
                value
                for found, value in _date_matches(sentence)
                if value != INVALID_DATE
                and 0 <= match.start() - found.end() <= 16
                and _SAME_DAY.fullmatch(sentence[found.end() : match.start()])
            ]
            if written and not any(_date_is(value, day) for value in written):
                problems.append("a date said to be " + match.group().lower())
    return problems


def _eligibility_unchecked(sentence: str, grounding: Grounding) -> bool:
    """An order said to be within its return window when no eligibility check ran and no result dates a
    delivery ("I couldn't check BK-52118, but it's still within the 30-day window")."""
    if grounding.delivered_dates or "check_return_eligibility" in grounding.tools_succeeded:
        return False
    match = _ELIGIBLE_CLAIM.search(sentence)
    # ("BK-30761 can be returned once delivered": the policy for later, not a window open now)
    if match is None or not _asserted(sentence, match) or _CONDITION.search(sentence):
        return False
    # the order itself in the claim's clause, not books in general ("books can be returned within 30 days")
    subject_side = _CLAUSE_BREAK.split(sentence[: match.start()])[-1]
    return bool(_extract_order_ids(subject_side)) or _THE_ORDER.search(subject_side) is not None


def _delivery_denied(sentence: str, order: str, grounding: Grounding) -> bool:
    """An order the lookup shows delivered said not to be ("It's not marked as delivered yet")."""
    if not order or {state for owner, state in grounding.statuses if owner == order} != {"delivered"}:
        return False
    match = _NOT_DELIVERED.search(sentence)
    if match is None or sentence.rstrip().endswith("?"):
        return False
    # not the order's own delivery: a return's or a replacement's, a condition, the customer's words
    clause = _CLAUSE_BREAK.split(sentence[: match.start()])[-1] + match.group()
    return not (_NOT_THE_ORDER.search(sentence) or _CONDITIONAL_CLAUSE.search(clause) or _HEARSAY.search(clause))


def _order_in_question(named: set[str], grounding: Grounding) -> str:
    """The one order a text is about: the one it names, or, naming none, the only order whose items the
    thread knows; "" when that is not one order."""
    if named:
        return next(iter(named)) if len(named) == 1 else ""
    owners = {order_id for order_id, _ in grounding.order_items}
    return next(iter(owners)) if len(owners) == 1 else ""


def _item_count_wrong(sentence: str, named: set[str], grounding: Grounding) -> bool:
    """ "All four items in BK-32580", "BK-40317 had three books": the order's item count, when the thread knows it."""
    match = _ORDER_ITEM_COUNT.search(sentence)
    if match is None or _NEGATION.search(sentence[: match.start()]):
        return False
    order = _order_in_question(_extract_order_ids(match.group()) or named, grounding)
    held = _held_count(order, grounding, match.group())
    number = match.group("n") or match.group("m") or match.group("k")
    return held is not None and (_number(number) if number else 2) != held


def _held_count(order: str, grounding: Grounding, counted: str) -> int | None:
    """How many items the order's result listed (None unless exactly one result count), or, when `counted`
    says books, how many books: "the two books of BK-93670" are its books, not the gift card beside them."""
    counts = {count for order_id, count in grounding.item_counts if order_id == order}
    if len(counts) != 1:
        return None
    (count,) = counts
    if _BOOK_WORD.search(counted):
        count -= len({title for owner, title in grounding.gift_cards if owner == order})
    return count


def _order_shipping_claimed(sentence: str) -> bool:
    """How one order ships or what its shipping cost, asserted in its own clause ("BK-60982 was upgraded to
    expedited shipping, so it'll go out faster once it's processed": the condition is the next clause's)."""
    match = _ORDER_SHIPPING.search(sentence)
    if match is None:
        return False
    clause = _match_clause(sentence, match)
    match = _ORDER_SHIPPING.search(clause)
    return match is not None and _asserted(clause, match)


def _order_count_wrong(sentence: str, grounding: Grounding) -> bool:
    """How many orders the customer has, against the complete lists; a truncated list shows some of more,
    so it grounds what "I can see", never a total ("You have 20 orders in total")."""
    counted = _ORDER_COUNT.search(sentence)
    if counted is None or not (grounding.order_counts or grounding.partial_order_lists):
        return False
    number = _number(counted.group("n"))
    # "two delivered orders", "deux commandes livrées": the orders of that status in a complete list
    kind = " ".join(word for word in (counted.group("kind"), counted.group("kind_after")) if word)
    status = next((name for name, pattern in _ORDER_STATUS_WORDS.items() if pattern.search(kind)), None)
    if status is not None:
        return bool(grounding.status_counts) and (status, number) not in grounding.status_counts
    seen = re.match(r"i\b", counted.group(), re.IGNORECASE) and not re.search(r"\bin total\b", sentence, re.IGNORECASE)
    return number not in grounding.order_counts and not (seen and number in grounding.partial_order_lists)


def _returned_items_denied(sentence: str, order: str, grounding: Grounding) -> bool:
    """Items said not to be returned that an eligibility check or a written return says are ("Neither book
    has been returned yet" when one was)."""
    match = _NOT_RETURNED.search(sentence)
    if match is None or sentence.rstrip().endswith("?"):
        return False
    returned = {title for owner, title in grounding.returned_items | grounding.applied_returns if owner == order}
    named = _titles_in(sentence[: match.end()], grounding)
    return bool(returned & named) if named else bool(returned)


def _window_said_closed(sentence: str) -> bool:
    """The return window said to be over, also as the reason of a refusal ("can't be returned because its
    30-day window has closed"); not when negated ("hasn't closed"), asked or a condition."""
    match = _WINDOW_CLOSED.search(sentence)
    if match is None or sentence.rstrip().endswith("?") or _NEGATION.search(match.group()):
        return False
    lead = _REASON.split(_CLAUSE_BREAK.split(sentence[: match.start()])[-1])[-1]
    return not _CONDITION.search(lead) and not _NEGATION.search(lead)


def _more_items_than_held(sentence: str, named: set[str], grounding: Grounding) -> bool:
    """A number of books said of one order that is more than it holds: "There are four books in BK-15209".

    Fewer may be the part a reply is about ("2 books can go back"); more is never true.
    """
    order = _order_in_question(named, grounding)
    counts = {count for order_id, count in grounding.item_counts if order_id == order}
    # An order named that no result listed: any number of its books is the customer's word or a guess.
    unlisted = bool(named) and not counts and not any(owner in named for owner, _ in grounding.order_items)
    if len(counts) != 1 and not unlisted:
        return False
    for match in _COUNTED_ITEMS.finditer(sentence):
        clause = _CLAUSE_BREAK.split(sentence[: match.start()])[-1]
        if _NEGATION.search(clause) or _HEDGE.search(clause) or sentence.rstrip().endswith("?"):
            continue
        if unlisted:
            # only what the order is said to hold ("BK-90346 has 3 copies"), not "the other two books"
            if _HOLDING.search(clause) and not re.search(r"\bother\s*$", clause, re.IGNORECASE):
                return True
        elif _number(match.group(1)) > max(counts):
            return True
    return False


def _held_count_wrong(sentence: str, named: set[str], grounding: Grounding) -> bool:
    """All that one order held, counted wrong: "Incluía dos libros: …" of an order of three."""
    if sentence.rstrip().endswith("?"):
        return False
    order = _order_in_question(named, grounding)
    for match in _ORDER_HELD.finditer(sentence):
        before = sentence[: match.start()]
        if _NEGATION.search(_CLAUSE_BREAK.split(before)[-1]) or _ORDER_PART.search(before):
            continue
        held = _held_count(order, grounding, match.group())
        if held is not None and _number(match.group(1)) != held:
            return True
    return False


def _tracking_problems(sentence: str, grounding: Grounding) -> list[str]:
    """A carrier no result names, or a tracking event (a scan, a depot, a signature), stated as fact.

    A sentence of sympathy restates what the customer told ("I'm sorry the courier left it at the
    wrong door"): no claim of the store's.
    """
    if _EMPATHY_OPENER.search(sentence):
        return []
    problems = []
    for match in _CARRIER.finditer(sentence):
        if match.group().lower() not in grounding.carriers and _asserted(sentence, match):
            problems.append("carrier")
            break
    match = _TRACKING_EVENT.search(sentence)
    if match is not None and _asserted(sentence, match):
        clause = _CLAUSE_BREAK.split(sentence[: match.start()])[-1]
        if not _HEDGE.search(clause + match.group()):
            problems.append("tracking event")
    return problems


def _another_orders_items(text: str, grounding: Grounding) -> bool:
    """Text that names one order and, not negated, an item only another order of the thread holds."""
    named = _extract_order_ids(text)
    if len(named) != 1:
        return False
    (order_id,) = named
    own = {title for owner, title in grounding.order_items if owner == order_id}
    others = {title for owner, title in grounding.order_items if owner != order_id} - own
    named_others = any(title in others for title in _titles_in(text, grounding))
    return bool(own) and named_others and not _NEGATION.search(text)


def _order_fact_problems(sentences: list[str], grounding: Grounding) -> list[str]:
    """Facts bound to the wrong order: another order's items, or an ineligible order said to be returnable."""
    problems = []
    # A print copy told apart from an ebook or audiobook of the thread: the reply names it as such, or the
    # thread holds both editions of one title ("The Guest List" beside "The Guest List (ebook)").
    both_editions = any(
        digital != title and digital.startswith(title)
        for digital in grounding.digital_items
        for title in (title.casefold() for title in grounding.titles)
    )
    contrasted = bool(grounding.digital_items) and (
        both_editions or any(_DIGITAL_WORD.search(sentence) for sentence in sentences)
    )
    previous: set[str] = set()
    # A reply that names a return (its RMA) or the one waiting for confirmation is about that return in every
    # sentence: "You're all set with RMA-B7Y4D2KS. The $17.50 refund goes to …" states that return's refund.
    about_return = any(_RMA.search(sentence) or _AWAITING_CONFIRMATION.search(sentence) for sentence in sentences)
    last_sentence = ""
    for sentence in sentences:
        named = _extract_order_ids(sentence)
        # A tracking number given for an order, or for the one the last sentence named ("Your other order is
        # BK-93275. It has shipped, tracking number …"), must be that order's own.
        about = named or previous
        for number in _tracking_numbers_in(sentence):
            owners = {order_id for order_id, key in grounding.order_tracking if key == number}
            if about and owners and not about & owners:
                problems.append("another order's tracking number")
        previous = named or previous
        # each order with its own clause: "Rebecca is in BK-87201, which has shipped; Jamaica Inn was in BK-87144"
        parts = _COUNT_CLAUSE_BREAK.split(sentence) if len(named) > 1 else [sentence]
        if any(_another_orders_items(part, grounding) for part in parts):
            problems.append("another order's items")
        if _unknown_listed_titles(sentence, named, grounding) or _bracketed_title_unknown(sentence, grounding):
            problems.append("items the order does not hold")
        if (
            _item_count_wrong(sentence, named, grounding)
            or _more_items_than_held(sentence, named, grounding)
            or _held_count_wrong(sentence, named, grounding)
        ):
            problems.append("how many items the order holds")
        if _order_shipping_claimed(sentence):
            problems.append("how the order ships or what its shipping cost")
        # a sentence that names no order is about the one the last sentence named ("L'autre commande est
        # BK-23711. Elle est expédiée …"), else the thread's only order
        order = _order_in_question(previous, grounding)
        if order in grounding.open_windows and _window_said_closed(sentence):
            problems.append("return window closed")
        if _delivery_denied(sentence, order, grounding):
            problems.append("a delivered order said undelivered")
        if _returned_items_denied(sentence, order, grounding):
            problems.append("items returned before")
        if _PHONE_NUMBER.search(sentence):
            problems.append("phone number")
        untracked = _NO_TRACKING.search(sentence)
        if untracked is not None and order in grounding.tracked_orders and not sentence.rstrip().endswith("?"):
            problems.append("no tracking number")
        money = _money_matches(sentence)  # read once for the order's total and the amounts' roles
        if _total_wrong(sentence, money, grounding):
            problems.append("order total")
        # "a été livré hier": yesterday is the date of the delivery or shipment.
        event = (
            _DELIVERY_WORD.search(sentence)
            or _ORDER_STATUS_WORDS["shipped"].search(sentence)
            or _WINDOW_CLOSED.search(sentence)
        )
        problems += _relative_day_problems(sentence, bool(event), grounding)
        problems += _days_ahead_problems(sentence, grounding)
        if _days_left_wrong(sentence, grounding):
            problems.append("days left")
        problems += _tracking_problems(sentence, grounding)
        problems += _date_role_problems(sentence, grounding)
        if _item_format_claimed(sentence, grounding, contrasted):
            problems.append("an item's format")
        if _wrong_author(sentence, grounding):
            problems.append("an item's author")
        if _STORE_PLACE.search(sentence):
            problems.append("a warehouse's place")
        shipped_on = _SHIPPED_ON_DAY.search(sentence)
        if shipped_on and _asserted(sentence, shipped_on):
            problems.append("shipped date")  # no result gives the day an order or a refund went out
        if any(_address_key(match.group()) not in grounding.addresses for match in _STREET_ADDRESS.finditer(sentence)):
            problems.append("an address")  # no result holds one; only the customer's own may be repeated
        if _order_count_wrong(sentence, grounding):
            problems.append("how many orders")
        complete = _ALL_ORDERS_CLAIM.search(sentence)
        if complete and grounding.partial_order_lists and _asserted(sentence, complete):
            problems.append("a partial list called complete")
        reported = _CUSTOMER_ONLY_EVENT.search(sentence)
        # (heard or asked about in its own clause: "I'm sorry to hear you were charged twice")
        lead = _CLAUSE_BREAK.split(sentence[: reported.start()])[-1] if reported else ""
        # ("it may have been placed under a different email" is a guess, not a fact)
        heard = reported and (_HEARSAY.search(lead) or _HEDGE.search(lead))
        if reported and _asserted(sentence, reported) and not heard:
            problems.append("an event no tool reports")
        problems += _amount_role_problems(sentence, money, grounding, about_return)
        if _named_total_wrong(sentence, last_sentence, grounding):
            problems.append("what the items named come to")
        last_sentence = sentence
        problems += _return_record_problems(sentence, grounding)
        match = _ELIGIBLE_CLAIM.search(sentence)
        about = named
        if not named:
            # "Yes, you can still return The Kite Runner": the order is the one of the titles it names
            # ("it can be returned within the window like any other book" is the policy, not this order)
            match = None if _WITHIN_WINDOW.search(sentence) else match or _STILL_RETURNABLE.search(sentence)
            named_titles = _titles_in(sentence, grounding)  # (read once, not once per item of the thread)
            about = {owner for owner, title in grounding.order_items if title in named_titles}
        if match is not None and about and about <= grounding.ineligible_orders and _asserted(sentence, match):
            # ("solo se puede devolver una vez entregado": returnable only on a condition, which is the rule)
            if not _ONLY_ON_CONDITION.search(sentence, max(0, match.start() - 30)):
                problems.append("eligibility")
        elif _eligibility_unchecked(sentence, grounding):
            problems.append("eligibility no result gives")
        elif _unreturnable_item_claimed(sentence, grounding):
            problems.append("item eligibility")
    return problems


def _date_role_problems(sentence: str, grounding: Grounding) -> list[str]:
    """Dates written as an event's date that are not that event's date in this thread (DATE_ROLE_BEFORE).

    "BK-28764 arrived on November 20" when November 20 is its order date; "shipped on March 3" (no tool
    gives a shipping date).
    """
    text = _ORDER_ID.sub("the order", sentence)  # "You ordered BK-70244 on November 27"
    known = {
        "delivered": grounding.delivered_dates,
        "ordered": grounding.order_dates,
        "shipped": frozenset(),
        "window_end": grounding.window_ends,
    }
    problems = []
    for match, value in _date_matches(text):
        if value == INVALID_DATE:
            continue
        if _weekday_wrong(text, match, value, grounding):
            problems.append("a date's weekday")
        before, after = text[: match.start()], text[match.end() :]
        # The nearest event word before the date is its event ("shipped (ordered on October 3)").
        roles = [
            (found.start(), role) for role, pattern in _DATE_ROLE_BEFORE.items() if (found := pattern.search(before))
        ]
        roles += [(len(before), role) for role, pattern in _DATE_ROLE_AFTER.items() if pattern.match(after)]
        if not roles:
            continue
        role = max(roles)[1]
        if role != "shipped" and not known[role]:
            continue  # no result gave that date: the plain grounding check decides
        if not any(_date_is(value, day) for day in known[role]):
            problems.append(f"{role} date")
    return problems


def _item_format_claimed(sentence: str, grounding: Grounding, contrasted: bool = False) -> bool:
    """ "The hardcover edition of Piranesi": a format said of a thread's item whose title does not say it."""
    if not _titles_in(sentence, grounding):
        return False
    bare = _without(sentence, grounding.titles)  # "The Hobbit (Illustrated Edition)" says it itself
    match = _ITEM_FORMAT.search(bare)
    # "a signed copy of Dear Reader" for "Dear Reader (signed)": the title's bracket says it
    said = {
        word for title in grounding.titles for note in _BRACKETED.findall(title) for word in note.casefold().split()
    }
    if match is not None and said & set(match.group().casefold().split()):
        return False
    if match is not None and contrasted and _PRINT_FORMAT.fullmatch(match.group()):
        return False  # "the paperback of Piranesi" beside its ebook: the print copy, as the results tell it apart
    return match is not None and _asserted(bare, match)


def _wrong_author(sentence: str, grounding: Grounding) -> bool:
    """ "Pebble and the Moon by Ilse Marrow": an item's author named after its title must be its author."""
    folded = sentence.casefold()
    # (the surname is enough: "Ruiz Zafón" for "Carlos Ruiz Zafón"; French and Spanish name the author after
    # "de": "Veiller sur elle, de Leïla Slimani")
    authors = {}
    for title, author in grounding.item_authors:
        authors.setdefault(title, set()).add(author)
    for title in grounding.nameable_titles:
        at = re.search(re.escape(title), sentence, re.IGNORECASE) if title in folded else None
        written = _AUTHOR_NAMED.match(sentence, at.end()) if at else None
        if written is None:
            continue
        name = written.group("name").casefold()
        if _INITIALS_ONLY.fullmatch(name):
            continue  # "by J." cut off where the sentences were split ("by J. P. Okafor")
        if _extract_order_ids(written.group("name")):
            continue  # "The Hobbit de BK-71904": the order it is from, not its author
        # (an author no result gives is let through: writers of good replies name true ones, "Patria de
        # Fernando Aramburu", as often as false ones)
        if title in authors and not any(author.split()[-1] in name for author in authors[title]):
            return True
    # A title the thread does not hold, by one of its authors: "Bewilderment by Richard Powers" for The Overstory
    # (English only: German capitalises every noun, "Beide Bücher von Michael Ende").
    known = {title.casefold() for title in grounding.titles}
    for author in grounding.authors:
        if f"by {author}" not in folded:
            continue
        by_author = rf"({_TITLE_RUN.pattern})\s+(?i:by)\s+(?i:{re.escape(author)})"
        for match in re.finditer(by_author, sentence):
            named = match.group(1).casefold()
            if named and not any(named in title or title in named for title in known):
                return True
    return False


def _amount_role_problems(
    sentence: str, money: list[tuple[re.Match, Decimal]], grounding: Grounding, about_return: bool = False
) -> list[str]:
    """Amounts bound to something whose amount a result gave: an item's price, a return's refund.

    "The Bookly Gift Card ($25.00)" must be its price; any other amount of a sentence naming an RMA or
    a return that waits for confirmation is that return's refund; a sentence naming one item alone
    and what comes back for it states its price.
    """
    money = money + [(match, _amount(*match.groups())) for match in _BARE_AMOUNT.finditer(sentence)]  # "45.49 terug"
    if not money:
        return []
    folded = sentence.casefold()
    prices = _named_prices(folded, grounding)
    named_prices = {value for values in prices.values() for value in values}
    # what two or more of the named items come to (three titles at $11.00 each come to $33.00)
    named_together = _subset_sums(sorted(value for values in prices.values() for value in values))
    problems = []
    unbound = []
    for match, amount in money:
        before, after = folded[: match.start()], folded[match.end() :].lstrip()
        for title, values in sorted(prices.items(), key=lambda pair: -len(pair[0])):  # "Children of Dune" first
            cut = before.rfind(title)
            # (or written before it: "the $25.00 Bookly Gift Card")
            if (cut != -1 and _TITLE_PRICE_GAP.fullmatch(before[cut + len(title) :])) or after.startswith(title):
                # (or what the titles named before it come to: "A, B and C came to $60.49 together")
                if amount not in values | named_together:
                    problems.append("item price")
                break
        else:
            unbound.append(amount)
    refunds = grounding.refund_amounts
    if refunds and (_RMA.search(sentence) or _AWAITING_CONFIRMATION.search(sentence)):
        if _REFUND_CONTEXT.search(sentence) and any(amount not in refunds for amount in unbound):
            problems.append("refund amount")
    elif refunds and about_return and _REFUND_CONTEXT.search(sentence):
        # a later sentence of a reply about the return: its refund, or what the items it names come to
        allowed = refunds | grounding.item_refunds | named_prices | named_together
        if any(amount not in allowed for amount in unbound):
            problems.append("refund amount")
    elif refunds and (stated := _THE_REFUND_IS.search(sentence)) and not _CONDITION.search(sentence):
        # the return's refund stated on its own: "The refund will be $18.00" beside RMA-HQ2T7B4N for $19.99
        # (the first amount after it; those after may be its parts, "$49.99 ($17.99 + $32.00)")
        first = min(((match.start(), amount) for match, amount in money if match.start() >= stated.end()), default=None)
        if first is not None and first[1] not in refunds | grounding.item_refunds:
            problems.append("refund amount")
    elif (
        prices
        and _REFUND_CONTEXT.search(sentence)
        and _only_named_items(folded, prices)
        and any(amount not in named_prices | named_together | refunds | grounding.order_totals for amount in unbound)
    ):
        # the items named alone ("If you return Little Women and Heidi"), and what comes back for them:
        # one of them, or some of them together
        problems.append("refund for the items named")
    return problems


def _only_named_items(folded: str, prices: dict[str, set[Decimal]]) -> bool:
    """No word of the sentence counts in more than the titles it names ("the other books", "plus", "both")."""
    return not _OTHER_ITEMS.search(
        _NAMED_LIST.sub("§", _without(_NAMED_TOTAL.sub(" ", folded), prices, placeholder="§"))
    )


def _named_prices(folded: str, grounding: Grounding) -> dict[str, set[Decimal]]:
    """The prices of the thread's items the (casefolded) text names, by title."""
    prices: dict[str, set[Decimal]] = {}
    for title, price in grounding.item_prices:
        if len(title) >= 3 and title in folded:
            prices.setdefault(title, set()).add(price)
    return prices


def _named_total_wrong(sentence: str, previous: str, grounding: Grounding) -> bool:
    """ "A and B, $36.98 in total": the amount beside "in total" is what every item named comes to together.

    Read in the clause that names them, up to that amount ("Returning A and B would come to $25.98; C was
    returned before" sums A and B), only when two or more of the thread's titles are named there and nothing
    else is counted in ("plus shipping", "the other books"); a refund a result gave is that too.
    """
    if not _NAMED_TOTAL.search(sentence):
        return False
    # "Babel and Yellowface are both returnable. Together they'd come to $37.98": the last sentence named them
    lead = previous + " " if _TOTAL_LEAD.match(sentence) and not _titles_in(sentence, grounding) else ""
    folded = (lead + sentence).casefold()
    said = _NAMED_TOTAL.search(folded, len(lead))
    prices = _named_prices(folded, grounding)
    if len(prices) < 2:
        return False
    # the amount said to be the total: the first after the words, else the last before them, none in brackets
    bracketed = [match.span() for match in _BRACKETED_FIGURE.finditer(folded)]
    money = [
        (match, amount)
        for match, amount in _money_matches(folded)
        if not any(start <= match.start() < end for start, end in bracketed)
    ]
    before = [(match, amount) for match, amount in money if match.end() <= said.start()]
    after = [(match, amount) for match, amount in money if match.start() >= said.end()]
    stated = after[0] if after else (before[-1] if before else None)
    if stated is None:
        return False
    breaks = [match.end() for match in _CONTRAST_BREAK.finditer(folded, 0, said.start())]
    clause = folded[max(breaks, default=0) : max(stated[0].end(), said.end())]
    named = {}
    rest = clause
    for title in sorted(prices, key=len, reverse=True):  # "The Wild Robot Escapes" before "The Wild Robot"
        if title in rest:
            named[title] = prices[title]
            rest = rest.replace(title, "§")
    # ("Emma ($8.00) and Persuasion ($7.50) can both go back": a price in brackets and "both" count in nothing)
    listed = _BOTH_ITEMS.sub(" ", _BRACKETED_FIGURE.sub("", clause))
    if len(named) < 2 or not _only_named_items(listed, named):
        return False
    together = {sum(choice) for choice in product(*(sorted(values) for values in named.values()))}
    return stated[1] not in together | grounding.refund_amounts


def _return_record_problems(sentence: str, grounding: Grounding) -> list[str]:
    """An RMA number said to belong to another order or other items than its written return's.

    Each RMA is read with what follows it up to the next RMA ("RMA-Q6M3X8PA is for Watchmen from BK-71904, and
    RMA-F2G7N5TY for Beloved from BK-72231"), or with its whole sentence when it is the only one.
    """
    if not grounding.return_records:
        return []
    found = list(_RMA.finditer(sentence))
    problems = []
    for index, match in enumerate(found):
        key = _rma_key(match.group())
        records = [record for record in grounding.return_records if record[0] == key]
        if not records:
            continue  # an RMA no result gave is ungrounded anyway
        if len(found) == 1:
            part = sentence
        else:
            end = found[index + 1].start() if index + 1 < len(found) else len(sentence)
            part = sentence[match.start() : end]
        own_order = {order for _, order, _ in records}
        named = _extract_order_ids(part)
        if named and not named & own_order:
            problems.append("another order's RMA")
        # titles of another written return named with this RMA, none of its own
        own_titles = {title for _, _, title in records}
        others = {title for rma, _, title in grounding.return_records if rma != key} - own_titles
        titles = _titles_in(part, grounding)
        if titles & others and not titles & own_titles:
            problems.append("another return's items")
    return problems


def _unknown_listed_titles(sentence: str, named: set[str], grounding: Grounding) -> list[str]:
    """Names listed as one order's contents beside its own titles that are none of its titles.

    A list ("BK-40317 had three books: A, B and C") names the order's contents when at least one of
    its entries is an item of that order; then every other entry written like a title (a capital,
    not "It was…" nor an order number) must be one of the order's items or a grounded author.
    """
    order = _order_in_question(named, grounding)
    own = sorted((title for owner, title in grounding.order_items if owner == order and len(title) >= 3), key=len)
    if not own:
        return []
    # Titles first: one may hold a colon or "and" ("*NSYNC: The Official Book", "Pride and Prejudice").
    folded = sentence.casefold()
    for title in reversed(own):  # longest first: "Saga, Volume Two" before "Saga"
        folded = folded.replace(title, "\x00")
    for author in grounding.authors:
        folded = folded.replace(author, "\x00")
    lead = _CONTENTS_LEAD.search(folded)
    if lead is None:
        return []
    listed = folded[lead.end() :]
    colon = listed.find(":")
    if colon != -1:
        listed = listed[colon + 1 :]
    listed = re.split(r"[;()\u2013\u2014]| - ", listed)[0]
    # The casefolded text lost its capitals: each entry is looked up in the written sentence again.
    entries = _CONTENTS_SEPARATOR.split(listed)
    known = {title.casefold() for title in grounding.titles}
    unknown, any_own = [], False
    for entry in entries:
        text = entry.strip()
        if not text:
            continue
        if text.startswith("\x00"):
            any_own = True
            if _BY_AUTHOR_ONLY.fullmatch(text[1:]):
                continue
            break  # "Coraline was delivered on October 31, Halloween itself": a sentence, not a list
        text = _BY_AUTHOR_TAIL.sub("", text).strip("«»“”„\"'‘’ \u00a0")
        if _ITEMS_SUMMARY.fullmatch(text):
            continue  # what the list names, counted: "Beide Bücher, A und B, können …"
        written = _recase(text, sentence)
        # The last entry runs into the sentence's verb: "Fourth Wing and Iron Flame are returnable until …".
        title_run = _TITLE_RUN.match(written)
        ends_list = title_run is not None and bool(_LIST_VERB.match(written, title_run.end()))
        if ends_list:
            written = title_run.group().rstrip()
            text = written.casefold()
        words = written.split()
        if not words or not words[0][:1].isupper() or _ORDER_ID.match(written) or any(c.isdigit() for c in written):
            break  # the list ended: ", delivered on March 1", "and it shipped"
        if words[0].lower() in patterns.FUNCTION_WORDS and (len(words) == 1 or not words[1][:1].isupper()):
            break  # "It was delivered", "I can start a return"
        if not any(text in title or title in text for title in known):
            unknown.append(written)
        if ends_list:
            break
    return unknown if any_own else []


def _bracketed_title_unknown(sentence: str, grounding: Grounding) -> bool:
    """A name in brackets after an order number that is none of the thread's titles or authors.

    "BK-3690 (Astérix chez les Bretons)" names the order's item; when the thread knows that order's items,
    a capitalised word left after its titles and authors are taken out is a title no result gives.
    """
    for match in _ORDER_BRACKET.finditer(sentence):
        order = f"BK-{match.group(1)}"
        inner = match.group(2)
        if not any(owner == order for owner, _ in grounding.order_items) or any(c.isdigit() for c in inner):
            continue
        if not inner.lstrip(" «“\"'")[:1].isupper():
            continue  # "(the one from March)"
        for name in (*grounding.nameable_titles, *sorted(grounding.authors, key=len, reverse=True)):
            inner = re.sub(re.escape(name), "\x00", inner, flags=re.IGNORECASE)
        if _CAPITALISED_WORD.search(inner):
            return True
    return False


def _recase(text: str, original: str) -> str:
    """`text` (casefolded) as `original` wrote it, or as is when it is not found."""
    start = original.casefold().find(text)
    return original[start : start + len(text)] if start != -1 else text


def _unreturnable_item_claimed(sentence: str, grounding: Grounding) -> bool:
    """A part of the sentence names an item the eligibility check found not returnable and says it can go back."""
    unreturnable = {title for _, title in grounding.unreturnable_items}
    if not unreturnable:
        return False
    orders = _extract_order_ids(sentence) or {order_id for order_id, _ in grounding.unreturnable_items}
    unreturnable_orders = {order_id for order_id, _ in grounding.unreturnable_items} & orders
    of_two = unreturnable_orders & {order_id for order_id, count in grounding.item_counts if count == 2}
    # (the reason given is no part of the claim: "Only X can go back, since Dune is an ebook")
    # (each clause its own claim: "Chenoo has already been returned, and Ghost Music can go back"; not at a
    # colon, which a title may hold: "*NSYNC: The Official Book")
    clauses = (clause for contrast in _CONTRAST.split(sentence) for clause in _SCOPE_CLAUSE_BREAK.split(contrast))
    for part in (piece for clause in clauses for piece in _REASON.split(clause)):
        part = _CONDITIONAL_CLAUSE.sub(" ", part)
        match = _ELIGIBLE_CLAIM.search(part) or _RETURNABLE_CLAIM.search(part)
        if match is None or _NOT_RETURNABLE.search(part) or not _asserted(part, match):
            continue
        if _titles_in(part, grounding) & unreturnable:
            return True
        # named by its kind: "The gift card can go back too", "… et l'ebook des Misérables jusqu'au 11 décembre"
        if _GIFT_CARD.search(part) and grounding.gift_cards & grounding.unreturnable_items:
            return True
        if _DIGITAL_WORD.search(part) and grounding.digital_items & unreturnable:
            return True
        # "Everything in BK-31407 can be returned" when the check found one of its items not returnable;
        # "both" of an order of two.
        every = _EVERY_ITEM.search(part) and _ELIGIBLE_CLAIM.search(part)
        both = _BOTH_ITEMS.search(part) and _ELIGIBLE_CLAIM.search(part) and of_two
        if (every and unreturnable_orders) or both:
            return True
    return False


def _return_count_problem(sentences: list[str], grounding: Grounding) -> bool:
    """More returns or refunds claimed ("both returns", "a second return") than the thread wrote."""
    if len(grounding.rma_numbers) >= 2:
        return False
    return any(
        (match := _RETURN_COUNT.search(sentence)) is not None
        and _conditional(sentence, match)
        and not _CONDITION.search(sentence[: match.start()])
        for sentence in sentences
    )


def _kept_titles(sentence: str, grounding: Grounding) -> set[str]:
    """Titles the sentence says the customer keeps ("since you're keeping Small Things Like These",
    "The Night Circus stays with you"): no part of the return it describes."""
    parts = (piece for clause in re.split(r"[,;:]", sentence) for piece in _REASON.split(clause))
    return {title for part in parts if _KEPT.search(part) for title in _titles_in(part, grounding)}


def _titles_in(sentence: str, grounding: Grounding) -> set[str]:
    """The thread's titles a sentence names; a title inside a longer one it names ("Dune" in "Dune Messiah") is not."""
    folded = sentence.casefold()
    found = set()
    for title in grounding.nameable_titles:
        if title in folded:
            found.add(title)
            folded = folded.replace(title, "\x00")
    return found


def _match_clause_bounds(sentence: str, match: re.Match) -> tuple[int, int]:
    """Where the clause of a sentence that holds a match starts and ends."""
    start = max((cut.end() for cut in _COUNT_CLAUSE_BREAK.finditer(sentence, 0, match.start())), default=0)
    cut = _COUNT_CLAUSE_BREAK.search(sentence, match.end())
    return start, cut.start() if cut else len(sentence)


def _match_clause(sentence: str, match: re.Match) -> str:
    """The clause of a sentence that holds a match: its object ("a return for all four books") is there."""
    start, end = _match_clause_bounds(sentence, match)
    return sentence[start:end]


def _return_scope_named(sentence: str, grounding: Grounding) -> bool:
    """The clause naming a written return (its RMA) names, not negated, an item that return does not cover."""
    applied = {title for _, title in grounding.applied_returns}
    rma = _RMA.search(sentence)
    if rma is None or not applied or "" in applied:
        return False
    # Titles may hold colons ("*NSYNC: The Official Book"): only "; " and ", and/but/so" end this clause.
    start = max((cut.end() for cut in _SCOPE_CLAUSE_BREAK.finditer(sentence, 0, rma.start())), default=0)
    cut = _SCOPE_CLAUSE_BREAK.search(sentence, rma.end())
    clause = sentence[start : cut.start() if cut else len(sentence)]
    return bool(_titles_in(clause, grounding) - applied) and not _NEGATION.search(clause)


def _claimed_count(sentence: str, orders: set[str], grounding: Grounding) -> int | None:
    """How many items a clause says its return covers ("all four books", "both"), or None if it says not."""
    match = _ITEM_COUNT.search(sentence)
    if match is None or re.search(r"\b(?:of|out of)\s+(?:the|your)\s*$", sentence[: match.start()], re.IGNORECASE):
        return None  # "2 of the 4 books" counts the chosen two, not the four
    number = match.group("n") or match.group("m")
    if number:
        return _number(number)
    if match.group("both"):
        return 2
    # "all the books", "the whole order": every item the order holds, if the thread knows them.
    return len({title for order_id, title in grounding.order_items if order_id in orders}) or None


def _covers(covered: set[str], titles: set[str], count: int | None) -> bool:
    """True when a return of the `covered` titles is the return the sentence describes."""
    return titles <= covered and (count is None or count <= len(covered))


def _agent_actions(text: str) -> list[re.Match]:
    """The assistant's own actions: "I've emailed you the label", and one joined to it, "… and booked a pickup"."""
    actions = []
    for match in _AGENT_ACTION.finditer(text):
        actions.append(match)
        if match.group("past"):
            joined = _COORDINATED_ACTION.match(text, match.end())
            if joined is not None:
                actions.append(joined)
    return actions


def _no_action_after(verb: str, text: str, end: int) -> bool:
    """The words after a verb of action say nothing was done: "I'll leave the address as it is"."""
    no_action = _NO_ACTION_AFTER.get(verb)
    return no_action is not None and no_action.match(text, end) is not None


def _commitment_problems(sentences: list[str], grounding: Grounding, intent: str | None) -> list[str]:
    """Kinds of action the reply says happened or will happen with no tool result behind it.

    A commitment is an actor, tense and modality, an action class and an object. Each class of
    RETURN_COMMITMENTS is backed by an applied return for that order and those items (titles and
    count), or, said as what happens once the customer confirms, by a pending one; the classes of
    UNBACKED_COMMITMENTS (a refund issued, an order changed, an exception, an escalation) by no tool.
    """
    unbacked: list[str] = []
    applied_orders = {order_id for order_id, _ in grounding.applied_returns}
    reply_awaits_confirmation = any(_AWAITING_CONFIRMATION.search(sentence) for sentence in sentences)
    # "I've updated it: the return now covers A and B. Please confirm the new version": the return was prepared
    # again in this thread, and the change waits for the customer's confirmation.
    revised = bool(grounding.revised_returns) and reply_awaits_confirmation
    for sentence in sentences:
        for kind, pattern in _RETURN_COMMITMENTS.items():
            match = pattern.search(sentence)
            if match is None:
                continue
            orders = _extract_order_ids(sentence) or applied_orders or grounding.pending_returns or {""}
            titles = _titles_in(sentence, grounding) - _kept_titles(sentence, grounding)
            count = _claimed_count(_match_clause(sentence, match), orders, grounding)
            if not _asserted(sentence, match):
                # "Once you confirm, I'll return all four books" still promises what the prepared return must cover.
                prepared = {title for order_id, title in grounding.pending_items | grounding.applied_returns}
                if _conditional(sentence, match) and prepared and not _covers(prepared, titles, count):
                    unbacked.append("return_scope")
                elif (
                    _conditional(sentence, match)
                    and not prepared
                    and (_promised_on_other_terms(sentence) or _SINGULAR_ACTOR.match(match.group()))
                ):
                    # "If the book is unopened, I'll refund you": the assistant's own promise on any condition;
                    # "If you send it back, we'll refund you" is the store's policy.
                    # "will be processed as soon as you hang up": a promise whose condition is not the
                    # customer's confirmation, with no return prepared for them to confirm.
                    unbacked.append(kind)
                continue
            # ("I've also emailed you the label already": the word may close the clause)
            already = _ALREADY_DONE.search(sentence[match.start() : _match_clause_bounds(sentence, match)[1]])
            # "The return is set up on my side. One last step is yours: confirm it in the app."
            prepared_to_confirm = reply_awaits_confirmation and _PREPARATION_WORD.search(match.group())
            if (
                all(order_id in grounding.pending_returns for order_id in orders)
                and (_FUTURE.search(match.group()) or _AWAITING_CONFIRMATION.search(sentence) or prepared_to_confirm)
                and not already  # "the label has already been emailed" while the return waits for confirmation
            ):
                # What the prepared return will do once confirmed, or that it waits for confirmation.
                pending = {title for order_id, title in grounding.pending_items if order_id in orders}
                if not _covers(pending, titles, count):
                    unbacked.append("return_scope")
                continue
            applied = {title for order_id, title in grounding.applied_returns if order_id in orders}
            if not all(order_id in applied_orders for order_id in orders):
                unbacked.append(kind)
            elif not _covers(applied, titles, count):
                unbacked.append("return_scope")
        match = _RETURN_PREPARED.search(sentence)
        if match is not None and _asserted(sentence, match):
            prepared = grounding.pending_returns | applied_orders
            orders = _extract_order_ids(sentence) or prepared or {""}
            covered = {
                title for order_id, title in grounding.pending_items | grounding.applied_returns if order_id in orders
            }
            if not all(order_id in prepared for order_id in orders):
                unbacked.append("return_prepared")
            elif not _covers(
                covered,
                _titles_in(sentence, grounding) - _kept_titles(sentence, grounding),
                _claimed_count(_match_clause(sentence, match), orders, grounding),
            ):
                unbacked.append("return_scope")
        if _return_scope_named(sentence, grounding):
            unbacked.append("return_scope")
        # a title is no participle and no action: "De kunst van het verdwalen", "The Storm We Made"
        untitled = _without(sentence, grounding.titles)
        for match in _OTHER_LANGUAGE_ACTION.finditer(untitled):
            verb = next(group for group in match.groups() if group).lower()
            started = verb in patterns.OTHER_LANGUAGE_RETURN_STARTED and grounding.applied_returns
            # not done: "No he podido completar la devolución", "Ich habe sie nicht storniert"
            negated = _NEGATION.search(_CLAUSE_BREAK.split(untitled[: match.start()])[-1] + match.group())
            if _no_action_after(verb, untitled, match.end()):
                continue
            if verb not in patterns.OTHER_LANGUAGE_VERBS_BACKED and not started and not negated:
                unbacked.append(f"action: {verb}")
        # The handoff intent backs its escalation: the server renders the handoff itself.
        handed_off = intent == "handoff" and _UNBACKED_COMMITMENTS["escalation"].search(sentence)
        for match in () if handed_off else _agent_actions(untitled):
            verb = (match.groupdict().get("verb") or match.group("past")).lower()
            if _no_action_after(verb, untitled, match.end()):
                continue
            if _TIME_LEAD.search(untitled, 0, match.start()):
                continue  # "I can look up your orders once I've matched one": a step still to come, not a claim
            if verb in patterns.HANDOFF_VERBS and _CUSTOMER_REQUEST.search(untitled):
                continue  # a handoff offered for the customer to ask for: the reply step hands over
            if revised and verb in patterns.REVISION_VERBS:
                continue
            if _RETURN_OBJECT.match(untitled, match.end()) and (grounding.pending_returns or applied_orders):
                continue  # "I've lined up a return of …": the prepared or written return, checked above
            # A promise made on a condition is still a promise: only a negated or asked one is none.
            if verb not in patterns.AGENT_VERBS_BACKED and _conditional(untitled, match):
                unbacked.append(f"action: {verb}")
        for kind, pattern in _UNBACKED_COMMITMENTS.items():
            match = pattern.search(sentence)
            if match is not None and kind == "timed_promise":
                # A time promised in one clause is not made conditional by another ("It's due to ship
                # tomorrow, and you'll get tracking as soon as it leaves"): read its own clause.
                clause = _match_clause(sentence, match)
                match = pattern.search(clause)
                if match is None or not _asserted(clause, match):
                    continue
            elif kind in PROMISES and match is not None:
                # A promise made on a condition is still a promise: only a negated or asked one is none.
                if not _conditional(sentence, match):
                    continue
            elif match is None or not _asserted(sentence, match):
                continue
            if kind == "escalation" and intent == "handoff":
                continue
            if kind == "order_change" and revised and _PRONOUN_OBJECT.search(match.group()):
                continue  # "I've updated it": the return prepared again, not the order
            if kind == "refund_issued" and _RECEIPT_CONDITION.search(_match_clause(sentence, match)):
                # "your refund is issued once we receive the books": the policy, not a refund made (in the
                # claim's own clause: "…within 7 days of receiving it, and the earlier refund has been paid")
                continue
            unbacked.append(kind)
    if _return_count_problem(sentences, grounding):
        unbacked.append("return_count")
    if any(_returned_claim_unbacked(sentence, grounding) for sentence in sentences):
        unbacked.append("already_returned")
    return unbacked


def _returned_claim_unbacked(sentence: str, grounding: Grounding) -> bool:
    """Items said to be returned ("Giovanni's Room has already been returned", "I've returned the gift card
    for you too") that neither a return written in this thread nor an earlier one the eligibility check
    reported covers."""
    match = _RETURNED_CLAIM.search(sentence)
    if match is None or not _asserted(sentence, match):
        return False
    returned = grounding.applied_returns | grounding.returned_items
    named = _extract_order_ids(sentence)
    # The items said returned: the subject before "was returned", the object after "I've returned".
    start, end = _match_clause_bounds(sentence, match)
    if _FIRST_OR_SECOND_PERSON.match(match.group()):
        titles = _titles_in(sentence[match.end() : end], grounding)
    else:
        # (a reason opens its own subject: "I can only return A now, because Circe was already returned")
        titles = _titles_in(_REASON.split(sentence[start : match.start()])[-1], grounding)
    if "already_returned" in grounding.error_codes:
        return False  # the return was refused because an item of it was returned before (the error names none)
    if titles:
        return not titles <= {title for order_id, title in returned if not named or order_id in named}
    return not any(order_id in named for order_id, _ in returned) if named else not returned


def _promised_on_other_terms(sentence: str) -> bool:
    """A future return promised on a condition other than the customer's confirmation or the warehouse's receipt."""
    return bool(
        _FUTURE.search(sentence)
        and not _AWAITING_CONFIRMATION.search(sentence)
        and not _RECEIPT_CONDITION.search(sentence)
        and not re.search(r"\b(?:if|whether)\b", sentence, re.IGNORECASE)
    )


def _allowed_durations(subjects: frozenset[str], grounding: Grounding) -> frozenset[tuple[int, int, str]]:
    """The durations a figure about `subjects` may state: their own statements', never another policy's."""
    if not subjects:
        return grounding.durations
    own = frozenset((low, high, unit) for name, low, high, unit in grounding.policy_durations if name in subjects)
    # The days left in, or gone from, an order's return window are facts of the thread.
    return own | grounding.fact_durations if "window" in subjects else own


_DAYS_PER_UNIT = {"day": 1, "week": 7}


def _days_said(match: re.Match) -> int | None:
    """The number of days a duration states ("two weeks": 14), or None for a range or another unit."""
    low, high, unit = _duration(match)
    days = _DAYS_PER_UNIT.get(unit)
    return low * days if days is not None and low == high else None


def _close_to(said: int, fact: int) -> bool:
    """A figure hedged as approximate ("about two weeks") is close enough to a fact within APPROXIMATE_SHARE."""
    return abs(fact - said) <= patterns.APPROXIMATE_SHARE * said


def _approximately_a_fact(sentence: str, match: re.Match, grounding: Grounding) -> bool:
    """A duration hedged as approximate that is close to a number of days of the thread."""
    said = _days_said(match)
    if said is None or not _APPROXIMATE.search(sentence[: match.start()]):
        return False
    return any(low == high and _close_to(said, low) for low, high, unit in grounding.fact_durations if unit == "day")


def _counted_back(sentence: str, match: re.Match) -> bool:
    """The duration counts back from today: "20 days ago", "vor 3 Tagen", "since it was delivered"."""
    return bool(_AGO_AFTER.match(sentence, match.end()) or _AGO_BEFORE.search(sentence, 0, match.start()))


def _counted_back_wrongly(sentence: str, match: re.Match, grounding: Grounding) -> bool:
    """A duration counted back from today ("N days ago") that is not today minus a date it may be about.

    "delivered 20 days ago, on March 1": a date its clause names or, when the clause speaks of the
    delivery, a delivery date of the thread; with neither, any date of the thread.
    """
    if not _counted_back(sentence, match):
        return False
    said = _days_said(match)
    if said is None:
        return False
    # The clause the duration is in says what it counts from ("ordered 21 days ago and it arrived 15 days ago").
    start, end = _clause_around(sentence, match.start())
    clause = sentence[start:end]
    if not (_ORDER_EVENT.search(sentence) or _DELIVERY_WORD.search(sentence) or _extract_order_ids(sentence)):
        return False  # the customer's own day: "the reset link from two days ago"
    written = _extract_dates(clause)
    named = {known for known in grounding.dates if any(_date_is(value, known) for value in written)}
    delivered = grounding.delivered_dates if _DELIVERY_WORD.search(clause) else frozenset()
    about = named | delivered or grounding.dates
    hedged = _APPROXIMATE.search(sentence[: match.start()])
    distances = {(grounding.today - known).days for known in about}
    return bool(about) and not any(_close_to(said, distance) if hedged else said == distance for distance in distances)


def _policy_problems(sentences: list[str], grounding: Grounding) -> list[str]:
    problems = []
    for sentence in sentences:
        figures = _reply_figures(sentence)
        if figures is None:
            problems.append("too many figures")
            continue
        durations, amounts = figures
        for subjects, match in durations:
            if _counted_back(sentence, match):
                # a day counted back is a date of the thread or the customer's, never a policy's figure
                if _counted_back_wrongly(sentence, match, grounding):
                    problems.append("days ago")
                continue
            low, high, unit = _duration(match)
            if unit == "year" and not subjects:
                continue  # "Fourteen years is a long friendship": no policy counts in years
            # "2 weeks" is 14 days.
            # "7 days" for the policy's "7 business days" is a paraphrase; "30 business days" for "30 days" is not.
            readings = {(low, high, unit), (low, high, "business day" if unit == "day" else unit)}
            if unit == "week":
                readings.add((low * 7, high * 7, "day"))
            if readings & _allowed_durations(subjects, grounding):
                continue
            if not (subjects - {"window"}) and _approximately_a_fact(sentence, match, grounding):
                continue
            problems.append(f"{'/'.join(sorted(subjects))} duration" if subjects else "duration")
        for subjects, amount in amounts:
            owners = {name for name, value in grounding.policy_amounts if value == amount}
            # A policy amount stated for another policy's subject: "expedited shipping costs $25".
            if subjects and owners and not subjects & owners and amount not in grounding.fact_amounts:
                problems.append(f"{'/'.join(sorted(subjects))} amount")
    if _percents(" ".join(sentences)) - grounding.percents:
        problems.append("percent")
    for sentence in sentences:
        for name, pattern in _INVENTED_POLICY.items():
            match = pattern.search(sentence)
            # A policy offered on a condition is still invented ("If you prefer, we can exchange it").
            if match is not None and _conditional(sentence, match):
                problems.append(name)
        if _non_returnable_claimed(sentence):
            problems.append("non_returnable_return")
        if _INVENTED_EXCLUSION.search(sentence) and not sentence.rstrip().endswith("?"):
            problems.append("invented_exclusion")
    return problems


def _non_returnable_claimed(sentence: str) -> bool:
    """A part of the sentence says something non-returnable can be returned, not negated or excepted.

    The sentence is read in contrasted parts ("X can be returned, but the audiobook can't"), each
    without its condition ("as long as you haven't finished it"): a part that names a non-returnable
    category and one that claims returnability, neither negated, make the claim.
    """
    if sentence.rstrip().endswith("?"):
        return False
    parts = [_CONDITIONAL_CLAUSE.sub(" ", part) for part in _CONTRAST.split(sentence)]
    claimed = any(_RETURNABLE_CLAIM.search(part) and not _NOT_RETURNABLE.search(part) for part in parts)
    named = any(_NON_RETURNABLE.search(part) and not _NOT_RETURNABLE.search(part) for part in parts)
    return claimed and named


def _one_brand_name(text: str) -> str:
    """`text` lower-cased, each card brand under one name ("American Express" is "amex")."""
    text = text.lower()
    for name, short in _CARD_BRAND_SYNONYMS.items():
        text = text.replace(name, short)
    return text


def _refund_method_problems(sentences: list[str], grounding: Grounding) -> int:
    count = 0
    grounded = [_one_brand_name(method) for method in grounding.refund_methods]
    # the refund methods the tools gave ("Visa ending 1460", "PayPal"), not the policy's wording
    methods = [method for method in grounded if method != REFUND_METHOD.lower()]
    for sentence in sentences:
        # A card's last digits are grounded only by the refund method a tool returned ("Visa ending 4417").
        count += sum(
            1
            for match in _CARD_DIGITS.finditer(sentence)
            if not any(match.group("digits") in method for method in grounding.refund_methods)
        )
        # "refunded to the credit card you paid with" when the refund goes to PayPal
        if methods and not any(_CARD_BRAND.search(method) or _CARD_WORD.search(method) for method in methods):
            count += sum(1 for match in _GENERIC_CARD_REFUND.finditer(sentence) if _conditional(sentence, match))
        for match in _CARD_BRAND.finditer(sentence):
            # "your Mastercard ending 1881" when the refund goes to a Visa ending 1881; a card named for a
            # refund no result gave a way for ("el reembolso iría a su tarjeta Visa")
            if methods:
                count += not any(_one_brand_name(match.group()) in method for method in methods)
            else:
                # ("If you return them, the $36.98 goes back to your Mastercard": the card is a fact whatever the
                # condition; only a guess at how the customer paid is none)
                count += bool(
                    _REFUND_CONTEXT.search(sentence)
                    and _conditional(sentence, match)
                    and not _PAID_HYPOTHESIS.search(sentence)
                )
        for match in _REFUND_METHOD.finditer(sentence):
            named = next(index for index, group in enumerate(match.groups(), start=1) if group)
            method = match.group(named).lower()
            # The refund's way is a fact whenever the refund comes ("once it goes through, … to your PayPal"):
            # only a question, a negation, a way set aside ("rather than as store credit") or a hypothesis ("if
            # you paid by PayPal") makes it no claim.
            claimed = _conditional(sentence, match, match.start(named)) and not _HYPOTHESIS.search(sentence)
            said = _one_brand_name(method)  # "amex" for a refund to an "American Express ending 1460"
            if claimed and not any(said in way for way in grounded):
                count += 1
    return count


def _recommended_works(text: str, grounding: Grounding) -> list[str]:
    """Named works the reply recommends that are not this thread's items."""
    titles = {title.casefold() for title in grounding.titles} | grounding.authors
    found = []
    for match in _RECOMMENDATION.finditer(text):
        name = match.group(1).strip()
        first = name.split()[0].strip("'’\"").lower()
        if first in patterns.NOT_A_TITLE or first.startswith("bookly") or re.match(r"bk-?\d", first):
            continue
        if any(name.casefold().startswith(title) or title.startswith(name.casefold()) for title in titles):
            continue
        found.append(name)
    return found


def _book_opinion(sentence: str) -> bool:
    """A first-person judgement of books ("I think Dune is the better book"), not negated."""
    marker = _OPINION_MARKER.search(sentence)
    if marker is None or _NEGATION.search(_CLAUSE_BREAK.split(sentence[: marker.start()])[-1]):
        return False
    judgement = _LITERARY_JUDGEMENT.search(sentence)
    return judgement is not None and not _NEGATION.search(_CLAUSE_BREAK.split(sentence[: judgement.start()])[-1])


def _foreign_words(sentence: str, grounding: Grounding) -> int:
    """Content words of a sentence about no part of Bookly support (patterns, "Scope").

    A sentence with a support word is support. Otherwise each clause counts unless it is courtesy; a
    question to the customer asks for what support needs. Words of the policy texts and the names of
    the thread's authors are no foreign content.
    """
    if _SUPPORT_ANCHOR.search(sentence) or (sentence.rstrip().endswith("?") and _TO_CUSTOMER.search(sentence)):
        return 0
    if _EMPATHY_OPENER.search(sentence):
        return 0
    declined = _DECLINE_OPENER.match(sentence)
    if declined:
        contrast = _CONTRAST.search(sentence, declined.end())
        if contrast is None:
            return 0
        sentence = sentence[contrast.end() :]
    lowered = _ORDINAL.sub(" ", sentence.lower())  # "the 23rd" is a date, not the word "rd"
    for author in grounding.authors:
        lowered = lowered.replace(author, " ")
    return sum(
        1
        for clause in _FOREIGN_CLAUSE.split(lowered)
        if not _COURTESY.search(clause)
        for word in _CONTENT_WORD.findall(clause)
        if word not in patterns.FUNCTION_WORDS
        and word not in patterns.OTHER_LANGUAGE_FUNCTION_WORDS
        and word not in grounding.policy_words
    )


def _digression_words(text: str, grounding: Grounding) -> int:
    """Content words of what a digression marker announces, unless it is about the order or its return."""
    if _ORDER_FACT_WORD.search(text):
        return 0
    words = _CONTENT_WORD.findall(text.lower())
    return sum(1 for word in words if word not in patterns.FUNCTION_WORDS and word not in grounding.policy_words)


def _english(text: str) -> bool:
    """True when at least ENGLISH_SHARE of the words are English function words."""
    words = _CONTENT_WORD.findall(text.lower())
    return not words or sum(word in patterns.FUNCTION_WORDS for word in words) >= patterns.ENGLISH_SHARE * len(words)


class _OffTopicSigns(NamedTuple):
    sure: list[str]
    unsure: list[str]
    foreign_words: int  # content words in sentences about no part of support (_foreign_words)
    supports: bool  # some word of support anywhere in the reply


def _off_topic(sentences: list[str], grounding: Grounding) -> _OffTopicSigns:
    """Sure and unsure signs of engaging a subject other than Bookly support.

    Sure: a structural sign (a recipe's quantities, code, a joke's set-up, a named work
    recommended, a judgement of a book) in a clause that is not negated, or FOREIGN_SURE_WORDS
    content words in sentences about no part of support. Unsure: fewer such words, or a long reply
    with no word of support at all.
    """
    text = " ".join(sentences)
    sure = []
    for name, pattern in _OFF_TOPIC_SURE.items():
        # One pass over the whole text (a riddle's answer is the next sentence); a match is negated by its
        # own clause only ("I can't write you a poem").
        for match in pattern.finditer(text):
            sentence_start = max(text.rfind(". ", 0, match.start()), text.rfind("! ", 0, match.start()))
            sentence_start = max(sentence_start, text.rfind("? ", 0, match.start())) + 1
            if not _NEGATION.search(_CLAUSE_BREAK.split(text[sentence_start : match.start()])[-1]):
                sure.append(name)
                break
    if _recommended_works(text, grounding):
        sure.append("recommendation")
    for sentence in sentences:
        # (a book word is no support anchor here: "te recomiendo Cien años de soledad, un libro precioso")
        unbooked = _BOOK_WORD.sub(" ", sentence)
        if _OTHER_LANGUAGE_RECOMMENDATION.search(sentence) and not _SUPPORT_ANCHOR.search(unbooked):
            sure.append("recommendation")
            break
    for sentence in sentences:
        opener = _DIGRESSION.search(sentence)
        if opener and _digression_words(sentence[opener.end() :], grounding) >= patterns.DIGRESSION_WORDS:
            sure.append("digression")
            break
    if any(_book_opinion(sentence) for sentence in sentences):
        sure.append("book opinion")
    foreign = sum(_foreign_words(sentence, grounding) for sentence in sentences)
    unsure = []
    if foreign >= patterns.FOREIGN_SURE_WORDS and not _english(text):
        # Counted in another language, five words block more good replies than they catch bad ones
        # (measured on the seen parts, 2026-11-25: 5 more false blocks for 3 more catches): staff look.
        unsure.append("a reply in another language")
    elif foreign >= patterns.FOREIGN_SURE_WORDS:
        sure.append(FOREIGN_SENTENCES)
    elif foreign >= patterns.FOREIGN_UNSURE_WORDS:
        unsure.append("a few words about another subject")
    supports = bool(_SUPPORT_ANCHOR.search(text))
    if not supports and len(text.split()) >= patterns.ANCHORLESS_WORDS:
        unsure.append("no support words")
    return _OffTopicSigns(sure, unsure, foreign, supports)


# L4's scope scorer (guardrails/linear_scorer.py): does the reply engage a subject other than support?
SCOPE_SCORER = linear_scorer.Scorer(Path(__file__).with_name("scope_weights.json"))
_DIGIT = re.compile(r"\d")


def _scope_text(outside_refusal: str, grounding: Grounding) -> str:
    """What the scope scorer reads: the reply outside the refusal template, lower-cased, with the thread's
    titles, authors, order numbers and digits masked, so it learns how support talks rather than which
    books and numbers the corpora held."""
    text = _without(outside_refusal, grounding.titles, placeholder=" title ").lower()
    for author in grounding.authors:
        text = text.replace(author, " author ")
    return _DIGIT.sub("0", _ORDER_ID.sub(" order ", text))


def _scope_vector(outside_refusal: str, grounding: Grounding) -> dict[int, float]:
    # The text alone, not the reply step's intent: in the corpora, off-topic replies came far more often
    # with no intent or a greeting than good ones did, a habit of their writers, not of the model.
    return linear_scorer.features({"t": _scope_text(outside_refusal, grounding)}, ())


def _outside_refusal(without_emails: str, refusal_template: str) -> str:
    """The reply (its emails already taken out) without text inside the refusal template, which may name
    the subject ("recipes")."""
    return _refusal_pattern(refusal_template).sub(" ", _normalise(without_emails))


def _with_scope_score(signs: _OffTopicSigns, scope: float) -> tuple[list[str], list[str]]:
    """(sure, unsure) off-topic signs once the scope scorer has read the reply.

    The scorer blocks on its own when it is sure. Below that it speaks only of a reply with some sentence
    about no part of support, blocking above its block threshold and flagging above its flag threshold;
    a reply whose every sentence is support, courtesy or a question to the customer is left alone ("It's
    in transit right now." is short, not off-topic). In a reply that also does support, counted foreign
    words block only where the scorer leans the same way: alone they blocked good replies with small talk
    in them ("no wonder it was heavy!") on text nobody here wrote.
    """
    sure, unsure = list(signs.sure), list(signs.unsure)
    if FOREIGN_SENTENCES in sure and signs.supports and scope < SCOPE_SCORER.threshold("flag"):
        sure.remove(FOREIGN_SENTENCES)
        unsure.append(FOREIGN_SENTENCES)
    said, foreign = f"scope scorer {scope:.2f}", signs.foreign_words > 0
    if scope >= SCOPE_SCORER.threshold("sure") or (foreign and scope >= SCOPE_SCORER.threshold("block")):
        sure.append(said)
    elif foreign and scope >= SCOPE_SCORER.threshold("flag"):
        unsure.append(said)
    return sure, unsure


def scope_features(reply: str, *, grounding: Grounding, refusal_template: str) -> dict[int, float]:
    """The feature vector the scope scorer reads for a reply (scripts/train_l4_scope.py trains on these)."""
    return _scope_vector(_outside_refusal(_EMAIL.sub(" ", reply), refusal_template), grounding)


# What each intent of the reply step needs from the thread; unmet, the thread is flagged.
def _intent_problem(intent: str | None, reply: str, grounding: Grounding, facts: "_Extracted") -> str:
    succeeded = grounding.tools_succeeded
    if intent == "order_status" and not succeeded & {"lookup_order", "list_customer_orders"}:
        return "order_status without a successful order lookup"
    if intent == "return" and not succeeded & {"check_return_eligibility", "initiate_return"}:
        return "return without an eligibility or return result"
    if intent == "policy" and not ("lookup_policy" in succeeded or _durations(reply) or _policy_words(reply)):
        return "policy without policy text"
    if intent == "clarification" and "?" not in reply:
        return "clarification that asks nothing"
    if intent == "greeting" and (facts.order_ids or facts.amounts or facts.dates or facts.tracking_numbers):
        return "greeting with order facts"
    return ""


def _policy_words(reply: str) -> bool:
    return bool(re.search(r"\b(?:polic\w+|window|refund\w*|shipping|password|returns?)\b", reply, re.IGNORECASE))


# --- The check ---------------------------------------------------------------------------------------


def _ungrounded(extracted: "_Extracted", grounding: Grounding) -> dict[str, int]:
    counts = {
        UNGROUNDED_ORDER_ID: len(extracted.order_ids - grounding.order_ids),
        UNGROUNDED_EMAIL: len(extracted.emails - grounding.emails),
        UNGROUNDED_AMOUNT: len(extracted.amounts - grounding.amounts),
        UNGROUNDED_TRACKING_NUMBER: len(extracted.tracking_numbers - grounding.tracking_numbers),
        UNGROUNDED_RMA: len(extracted.rma_numbers - grounding.rma_numbers)
        + len(extracted.reference_codes - grounding.reference_codes),
        UNGROUNDED_DATE: sum(1 for value in extracted.dates if not _date_grounded(value, grounding)),
    }
    return {code: count for code, count in counts.items() if count}


def _date_grounded(value: object, grounding: Grounding) -> bool:
    return any(_date_is(value, known) for known in grounding.dates)


def _date_is(value: object, known: date) -> bool:
    """True when a date as the reply wrote it (a date, a month and day, a day, or readings) can be `known`."""
    if isinstance(value, MonthDay):
        return (known.month, known.day) == value
    if isinstance(value, DayOnly):
        return known.day == value.day
    if isinstance(value, tuple):
        return any(_date_is(reading, known) for reading in value)
    return value == known


def refusal_topic(topic: object, *, fallback: str = "that request") -> str:
    """The model's 2-5 word topic for the refusal template if it is plain words, else `fallback`."""
    if not isinstance(topic, str):
        return fallback
    words = topic.strip().rstrip(".").split()
    plain = all(re.fullmatch(r"[A-Za-z][A-Za-z'’-]*", word) for word in words)
    return " ".join(words).lower() if 2 <= len(words) <= 5 and plain and len(topic) <= 60 else fallback


def check_reply(
    reply: str,
    *,
    grounding: Grounding,
    refusal_template: str,
    prompt_fragments: list[str],
    intent: str | None = None,
) -> Verdict:
    """Allow the reply only if every fact and commitment is grounded, it is plain text, on topic and leaks no prompt.

    `intent` is what the reply step named (None for a plain-text ending). An allowed verdict with
    codes is a flag: the reply goes through and staff review the thread.
    """
    problems: dict[str, str] = {}
    without_emails = _EMAIL.sub(" ", reply)
    # Facts are read with dates and amounts written in words in digits ("the second of May", "twelve
    # ninety-nine"); the scope, markdown and leak checks read the reply as written.
    facts_reply = with_digits(reply, keep=grounding.titles)
    # (a short title is no fact: "November 9" by Colleen Hoover; a long one may plant facts and is read)
    extracted = _extract(_NOT_A_FACT.sub(" ", _without(facts_reply, grounding.short_titles, whole_words=True)))
    for code, count in _ungrounded(extracted, grounding).items():
        problems[code] = f"{code} x{count}"

    # (authors are names too: "Wintering by Katherine May has shipped" holds no hedge "may")
    untitled_facts = _without(_without(facts_reply, grounding.titles), grounding.authors, whole_words=True)
    sentences = _sentences(_normalise(_EMAIL.sub("their email", untitled_facts)))
    # (an author's initials end no sentence: "Jip en Janneke van Annie M.G. Schmidt")
    with_titles = _sentences(
        _normalise(_EMAIL.sub("their email", facts_reply)), (*grounding.titles, *grounding.authors)
    )
    statuses = _status_problems(sentences, grounding)
    wrong_facts = _order_fact_problems(with_titles, grounding)
    if statuses:
        wrong_facts.insert(0, f"status x{statuses}")
    if wrong_facts:
        problems[UNGROUNDED_STATUS] = f"{UNGROUNDED_STATUS}: {', '.join(wrong_facts)}"
    commitments = _commitment_problems(with_titles, grounding, intent)
    if commitments:
        problems[UNGROUNDED_COMMITMENT] = f"{UNGROUNDED_COMMITMENT}: {', '.join(sorted(set(commitments)))}"
    policy = _policy_problems([_DECLINED_FIGURE.sub(" ", sentence) for sentence in sentences], grounding)
    if policy:
        problems[UNGROUNDED_POLICY] = f"{UNGROUNDED_POLICY}: {', '.join(sorted(set(policy)))}"
    methods = _refund_method_problems(sentences, grounding)
    if methods:
        problems[UNGROUNDED_REFUND_METHOD] = f"{UNGROUNDED_REFUND_METHOD} x{methods}"

    # A title may hold a markdown character ("*NSYNC"); a title set in italics is still italics.
    untitled = _without(without_emails, grounding.titles, placeholder="title")  # read by markdown and code names
    kinds = _markdown_kinds(untitled)
    if kinds:
        problems[MARKDOWN] = f"markdown: {', '.join(kinds)}"

    outside_refusal = _outside_refusal(without_emails, refusal_template)
    signs = _off_topic(_sentences(_without(outside_refusal, grounding.titles)), grounding)
    sure, unsure = _with_scope_score(signs, SCOPE_SCORER.score(_scope_vector(outside_refusal, grounding)))
    if sure:
        problems[OFF_TOPIC] = f"off_topic: {', '.join(sure)}"

    allowed = (refusal_template, *grounding.quotable_texts)
    if _shingles(reply) & _secret_shingles(tuple(prompt_fragments), allowed):
        problems[PROMPT_LEAK] = f"prompt_leak: {LEAK_WORDS}+ consecutive prompt words"
    elif _leaked_identifiers(reply, tuple(prompt_fragments)):
        # Tool, intent and field names exist only in the prompt: naming one reveals how it works.
        problems[PROMPT_LEAK] = "prompt_leak: names from the prompt"
    elif _CODE_NAME.search(untitled):
        # "reason nothing_returnable", "NON_RETURNABLE_CATEGORIES": names from the code, never from support talk
        problems[PROMPT_LEAK] = "prompt_leak: names from the code"
    elif _OWN_INSTRUCTIONS.search(reply):
        # The assistant talking about its own instructions describes them, in any words.
        problems[PROMPT_LEAK] = "prompt_leak: talks about its own instructions"

    if problems:
        codes = [code for code in CODE_ORDER if code in problems]
        return Verdict.deny(*codes, detail="; ".join(problems[code] for code in codes))
    flags: dict[str, str] = {}
    if unsure:
        flags[OFF_TOPIC_UNSURE] = f"{OFF_TOPIC_UNSURE}: {', '.join(unsure)}"
    intent_problem = _intent_problem(intent, reply, grounding, extracted)
    if intent_problem:
        flags[INTENT_UNSUPPORTED] = f"{INTENT_UNSUPPORTED}: {intent_problem}"
    if flags:
        return Verdict.flag(*flags, detail="; ".join(flags.values()))
    return Verdict.allow()
