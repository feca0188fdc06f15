"""The fake model's prompt cache behaves as the Messages API documents it, and Bookly's requests hit it."""

import pytest

from bench.prompt_cache import MAX_BREAKPOINTS, TTL_SECONDS, PromptCache, TooManyBreakpoints
from chat import services
from chat.llm import with_cache_breakpoints
from tests.conftest import turn
from tests.fakes import text_reply, tool_use_reply

LONG = "Bookly policy text. " * 400  # ~2000 tokens at chars/4: above the 1024-token minimum
MODEL = "claude-sonnet-4-6"


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def request(*texts: str, system: str = LONG) -> dict:
    messages = [{"role": "user" if i % 2 == 0 else "assistant", "content": text} for i, text in enumerate(texts)]
    return with_cache_breakpoints({"model": MODEL, "system": [{"type": "text", "text": system}], "messages": messages})


def total(usage) -> int:
    return usage.input_tokens + usage.cache_creation_input_tokens + usage.cache_read_input_tokens


def test_the_first_request_writes_and_the_same_prefix_is_then_read():
    cache = PromptCache(clock=Clock())
    first = cache.usage(request("Where is my order?"))
    assert first.cache_read_input_tokens == 0
    assert first.cache_creation_input_tokens > 1024
    second = cache.usage(request("Where is my order?", "Which order?", "BK-10042"))
    assert second.cache_read_input_tokens == first.cache_creation_input_tokens  # system + first message
    assert second.cache_creation_input_tokens > 0  # the two new messages, up to the last breakpoint
    assert total(second) > total(first)


def test_a_prefix_below_the_minimum_length_is_neither_written_nor_read():
    cache = PromptCache(clock=Clock())
    short = request("Hi", system="Be brief.")
    for _ in range(2):
        usage = cache.usage(short)
        assert usage.cache_read_input_tokens == usage.cache_creation_input_tokens == 0
        assert usage.input_tokens == total(usage) > 0


def test_an_entry_lives_five_minutes_and_each_read_refreshes_it():
    clock = Clock()
    cache = PromptCache(clock=clock)
    body = request("Where is my order?")
    cache.usage(body)
    clock.now += TTL_SECONDS - 1
    assert cache.usage(body).cache_read_input_tokens > 0  # read: lifetime starts again
    clock.now += TTL_SECONDS - 1
    assert cache.usage(body).cache_read_input_tokens > 0
    clock.now += TTL_SECONDS + 1
    expired = cache.usage(body)
    assert expired.cache_read_input_tokens == 0
    assert expired.cache_creation_input_tokens > 0


def test_a_changed_system_prompt_misses():
    cache = PromptCache(clock=Clock())
    cache.usage(request("Where is my order?"))
    assert cache.usage(request("Where is my order?", system=LONG + "changed")).cache_read_input_tokens == 0


def test_more_than_four_breakpoints_are_refused():
    blocks = [{"type": "text", "text": LONG, "cache_control": {"type": "ephemeral"}}] * (MAX_BREAKPOINTS + 1)
    with pytest.raises(TooManyBreakpoints):
        PromptCache().usage({"model": MODEL, "system": blocks, "messages": [{"role": "user", "content": "hi"}]})


@pytest.mark.django_db
def test_bookly_reads_most_of_its_input_from_the_cache_from_the_second_model_call_of_a_thread_on(scripted):
    """Two turns with tool use, as the worker sends them: ≥ 80 % of later calls' input is a cache read."""
    thread = services.thread_create(owner="alice-session")
    for _ in range(2):
        scripted.script(
            tool_use_reply("lookup_policy", {"topic": "shipping"}).body,
            tool_use_reply("lookup_policy", {"topic": "returns_overview"}).body,
            text_reply("Standard shipping takes 3-5 business days; returns are free within 30 days.").body,
        )
        turn(thread, "How long does shipping take, and can I return a book?")
    cache = PromptCache(clock=Clock())
    usages = [cache.usage(with_cache_breakpoints(body)) for body in scripted.requests]
    assert len(usages) == 6
    later = usages[1:]
    read = sum(usage.cache_read_input_tokens for usage in later)
    share = read / sum(total(usage) for usage in later)
    assert share >= 0.8, [usage.as_dict() for usage in usages]
