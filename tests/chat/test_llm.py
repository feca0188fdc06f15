"""chat/agent/llm.py on good and bad days: the real SDK over real HTTP against the fake Messages API."""

import copy
import socket
import threading
import time
import uuid
from collections.abc import Callable, Iterator

import pytest
import redis

from chat.agent.llm import AnthropicModel, ModelError, get_model
from tests.fakes import FakeAnthropicServer, FakeReply, error_reply, hang, text_reply, tool_use_reply

SYSTEM = "You are Bookly's support assistant. " * 40
REMINDER = "Reminder: quote tool results; never invent order facts."
SECRET_TEXT = "alice@example.com wants order 1234"  # must never reach a log line
EPHEMERAL = {"type": "ephemeral"}
TOOLS = [
    {
        "name": "order_lookup",
        "description": "Look up an order.",
        "input_schema": {"type": "object", "properties": {"order_id": {"type": "string"}}},
    },
    {
        "name": "lookup_policy",
        "description": "Quote a store policy.",
        "input_schema": {"type": "object", "properties": {"topic": {"type": "string"}}},
    },
]


def agent_request(*, system: str | list = SYSTEM, messages: list | None = None) -> dict:
    """A request shaped like the one chat/agent/loop.py builds."""
    return {
        "model": "claude-test",
        "max_tokens": 256,
        "system": system,
        "tools": copy.deepcopy(TOOLS),
        "messages": messages if messages is not None else [{"role": "user", "content": SECRET_TEXT}],
    }


def breakpoints(body: dict) -> list[str]:
    """Where the request the server received carried cache_control, as readable paths."""
    found = ["top-level"] if body.get("cache_control") else []
    system = body.get("system")
    if isinstance(system, list):
        found += [f"system[{i}]" for i, block in enumerate(system) if "cache_control" in block]
    found += [f"tools[{i}]" for i, tool in enumerate(body.get("tools") or []) if "cache_control" in tool]
    for m, message in enumerate(body["messages"]):
        if isinstance(message["content"], list):
            found += [f"messages[{m}][{b}]" for b, block in enumerate(message["content"]) if "cache_control" in block]
    return found


@pytest.fixture
def make_model(fake_anthropic, settings) -> Callable[..., AnthropicModel]:
    """Builds the configured model with tiny waits; keyword arguments override settings first."""
    settings.MODEL_RETRY_MAX_ATTEMPTS = 4
    settings.MODEL_RETRY_BASE_SECONDS = 0.01
    settings.MODEL_RETRY_MAX_SECONDS = 0.05
    settings.MODEL_RETRY_AFTER_CAP_SECONDS = 2.0
    settings.MODEL_CALL_BUDGET_SECONDS = 10.0
    settings.MODEL_BREAKER_THRESHOLD = 5
    settings.MODEL_BREAKER_WINDOW_SECONDS = 10.0
    settings.MODEL_BREAKER_COOLDOWN_SECONDS = 0.3
    settings.MODEL_BREAKER_REDIS_TIMEOUT_SECONDS = 0.2
    # Each test gets its own breaker key, whatever state earlier tests left in Redis.
    settings.ANTHROPIC_MODEL = f"claude-test-{uuid.uuid4().hex[:8]}"

    def build(**overrides) -> AnthropicModel:
        for name, value in overrides.items():
            setattr(settings, name, value)
        get_model.cache_clear()
        model = get_model()
        assert isinstance(model, AnthropicModel)
        return model

    return build


def redis_client() -> redis.Redis:
    from django.conf import settings

    return redis.Redis.from_url(settings.REDIS_URL, decode_responses=True)


def breaker_state(model: AnthropicModel) -> dict:
    return redis_client().hgetall(f"bookly:breaker:{model.name}")


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def silent_listener() -> Iterator[int]:
    """A port that accepts TCP connections (the kernel does) but never answers: a hung Redis."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen(16)
        yield sock.getsockname()[1]


def open_breaker(model: AnthropicModel, server: FakeAnthropicServer, failures: int) -> None:
    server.script(*[error_reply(500) for _ in range(failures)])
    for _ in range(failures):
        with pytest.raises(ModelError):
            model.complete(agent_request())
    assert breaker_state(model)["state"] == "open"


# --- good days ---------------------------------------------------------------------------------


def test_a_plain_text_reply_comes_back_as_a_dict_with_usage_unchanged(make_model, fake_anthropic):
    usage = {
        "input_tokens": 12,
        "output_tokens": 7,
        "cache_creation_input_tokens": 2048,
        "cache_read_input_tokens": 4096,
    }
    fake_anthropic.script(text_reply("Your order shipped yesterday.", usage=usage))

    response = make_model().complete(agent_request())

    assert response["content"] == [{"type": "text", "text": "Your order shipped yesterday."}]
    assert response["stop_reason"] == "end_turn"
    assert response["usage"] == usage
    [received] = fake_anthropic.requests
    assert received.path == "/v1/messages"
    headers = {name.lower(): value for name, value in received.headers.items()}
    assert "sk-ant-test-key" in (headers.get("x-api-key", "") + headers.get("authorization", ""))
    assert float(headers["x-stainless-read-timeout"]) == 2.0  # ANTHROPIC_TIMEOUT_SECONDS, not the SDK's 600
    assert headers.get("x-stainless-retry-count", "0") == "0"  # the SDK's own retries are off


def test_a_tool_use_round_trip_is_parsed_and_the_result_goes_back(make_model, fake_anthropic):
    fake_anthropic.script(
        tool_use_reply("order_lookup", {"order_id": "1234"}, tool_use_id="toolu_1"), text_reply("It shipped.")
    )
    model = make_model()
    request = agent_request()

    first = model.complete(request)

    assert first["stop_reason"] == "tool_use"
    assert first["content"] == [
        {"type": "tool_use", "id": "toolu_1", "name": "order_lookup", "input": {"order_id": "1234"}}
    ]
    request["messages"] += [
        {"role": "assistant", "content": first["content"]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "shipped"}]},
    ]
    second = model.complete(request)

    assert second["content"][0]["text"] == "It shipped."
    sent = fake_anthropic.message_requests[1]["messages"]
    assert sent[1] == {"role": "assistant", "content": first["content"]}  # no breakpoint on history
    assert sent[2]["content"] == [
        {"type": "tool_result", "tool_use_id": "toolu_1", "content": "shipped", "cache_control": EPHEMERAL}
    ]


def test_the_request_keeps_its_shape_and_gets_breakpoints_on_system_last_tool_and_last_message(
    make_model, fake_anthropic
):
    fake_anthropic.script(text_reply("ok"))
    request = agent_request(
        messages=[
            {"role": "user", "content": "first question"},
            {"role": "assistant", "content": [{"type": "text", "text": "first answer"}]},
            {"role": "user", "content": [{"type": "text", "text": "second"}, {"type": "text", "text": "question"}]},
        ]
    )
    before = copy.deepcopy(request)

    make_model().complete(request)

    [body] = fake_anthropic.message_requests
    assert body["model"] == "claude-test"
    assert body["max_tokens"] == 256
    assert body["system"] == [{"type": "text", "text": SYSTEM, "cache_control": EPHEMERAL}]
    assert body["tools"] == [TOOLS[0], {**TOOLS[1], "cache_control": EPHEMERAL}]
    assert body["messages"][:2] == before["messages"][:2]
    assert body["messages"][2]["content"] == [
        {"type": "text", "text": "second"},
        {"type": "text", "text": "question", "cache_control": EPHEMERAL},
    ]
    assert breakpoints(body) == ["system[0]", "tools[1]", "messages[2][1]"]
    assert request == before  # the caller's dict (reused for history) is untouched


def test_a_string_last_message_becomes_a_block_with_a_breakpoint(make_model, fake_anthropic):
    fake_anthropic.script(text_reply("ok"))

    make_model().complete(agent_request())

    [body] = fake_anthropic.message_requests
    assert body["messages"] == [
        {"role": "user", "content": [{"type": "text", "text": SECRET_TEXT, "cache_control": EPHEMERAL}]}
    ]


def test_an_uncached_reminder_block_gets_no_breakpoint_and_loses_its_private_marker(make_model, fake_anthropic):
    fake_anthropic.script(text_reply("ok"))
    system = [{"type": "text", "text": SYSTEM}, {"type": "text", "text": REMINDER, "bookly_uncached": True}]
    request = agent_request(system=system)
    before = copy.deepcopy(request)

    make_model().complete(request)

    [body] = fake_anthropic.message_requests
    assert body["system"] == [
        {"type": "text", "text": SYSTEM, "cache_control": EPHEMERAL},
        {"type": "text", "text": REMINDER},
    ]
    assert request == before
    assert request["system"][1]["bookly_uncached"] is True


@pytest.mark.parametrize(
    ("existing", "expected"),
    [
        # Two breakpoints already in the history leave room for two: system and last message.
        (2, ["system[0]", "messages[0][0]", "messages[0][1]", "messages[2][0]"]),
        # Three leave room for one, the system prompt; top-level automatic caching counts too.
        (3, ["top-level", "system[0]", "messages[0][0]", "messages[0][1]"]),
    ],
)
def test_breakpoints_already_present_count_toward_the_limit_of_four(make_model, fake_anthropic, existing, expected):
    fake_anthropic.script(text_reply("ok"))
    cached = {"type": "text", "text": "old", "cache_control": EPHEMERAL}
    request = agent_request(
        messages=[
            {"role": "user", "content": [cached, cached]},
            {"role": "assistant", "content": [{"type": "text", "text": "answer"}]},
            {"role": "user", "content": [{"type": "text", "text": "now"}]},
        ]
    )
    if existing == 3:
        request["cache_control"] = EPHEMERAL

    make_model().complete(request)

    [body] = fake_anthropic.message_requests
    assert breakpoints(body) == expected
    assert len(breakpoints(body)) == 4


def test_top_level_automatic_caching_is_left_to_mark_the_last_message(make_model, fake_anthropic):
    fake_anthropic.script(text_reply("ok"))
    request = {**agent_request(), "cache_control": EPHEMERAL}

    make_model().complete(request)

    [body] = fake_anthropic.message_requests
    assert breakpoints(body) == ["top-level", "system[0]", "tools[1]"]


# --- retries ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(("headers", "wait"), [({"retry-after": "0.4"}, 0.4), ({"retry-after-ms": "300"}, 0.3)])
def test_a_429_is_retried_no_sooner_than_the_server_asked(make_model, fake_anthropic, headers, wait):
    fake_anthropic.script(FakeReply(status=429, body=error_reply(429).body, headers=headers), text_reply("ok"))

    response = make_model().complete(agent_request())

    assert response["content"][0]["text"] == "ok"
    first, second = fake_anthropic.requests
    assert second.at - first.at >= wait


def test_a_retry_after_longer_than_the_cap_waits_only_the_cap(make_model, fake_anthropic):
    fake_anthropic.script(error_reply(429, retry_after=30), text_reply("ok"))
    model = make_model(MODEL_RETRY_AFTER_CAP_SECONDS=0.2)

    model.complete(agent_request())

    first, second = fake_anthropic.requests
    assert 0.2 <= second.at - first.at < 2.0


def test_two_529s_then_success_takes_three_requests(make_model, fake_anthropic):
    fake_anthropic.script(error_reply(529), error_reply(529), text_reply("ok"))

    response = make_model().complete(agent_request())

    assert response["content"][0]["text"] == "ok"
    assert len(fake_anthropic.requests) == 3


def test_529_until_the_deadline_ends_in_model_unavailable_without_passing_the_deadline(make_model, fake_anthropic):
    fake_anthropic.responder = lambda body: error_reply(529)
    model = make_model(
        MODEL_RETRY_MAX_ATTEMPTS=100,
        MODEL_RETRY_BASE_SECONDS=0.05,
        MODEL_RETRY_MAX_SECONDS=0.1,
        MODEL_BREAKER_THRESHOLD=0,
    )
    deadline = time.monotonic() + 0.6

    with pytest.raises(ModelError) as caught:
        model.complete(agent_request(), deadline=deadline)

    assert caught.value.code == "model_unavailable"
    assert time.monotonic() <= deadline + 0.2
    assert 2 <= len(fake_anthropic.requests) < 100  # the deadline stopped it, not the attempt count


def test_the_per_call_budget_bounds_a_call_without_a_deadline(make_model, fake_anthropic):
    fake_anthropic.responder = lambda body: error_reply(503)
    model = make_model(MODEL_RETRY_MAX_ATTEMPTS=100, MODEL_CALL_BUDGET_SECONDS=0.4, MODEL_BREAKER_THRESHOLD=0)
    started = time.monotonic()

    with pytest.raises(ModelError) as caught:
        model.complete(agent_request())

    assert caught.value.code == "model_unavailable"
    assert time.monotonic() - started <= 0.6
    assert 2 <= len(fake_anthropic.requests) < 100


def test_a_deadline_already_passed_fails_with_timeout_and_sends_nothing(make_model, fake_anthropic):
    with pytest.raises(ModelError) as caught:
        make_model().complete(agent_request(), deadline=time.monotonic() - 1)

    assert caught.value.code == "timeout"
    assert fake_anthropic.requests == []


def test_a_retry_after_beyond_the_deadline_gives_up_at_once(make_model, fake_anthropic):
    fake_anthropic.script(error_reply(429, retry_after=1.5), text_reply("too late to matter"))
    started = time.monotonic()

    with pytest.raises(ModelError) as caught:
        make_model().complete(agent_request(), deadline=started + 1.0)

    assert caught.value.code == "model_unavailable"
    assert time.monotonic() - started < 0.5  # it did not sleep towards a retry it could not make
    assert len(fake_anthropic.requests) == 1


def test_a_server_error_the_api_marks_as_not_worth_retrying_is_not_retried(make_model, fake_anthropic):
    fake_anthropic.script(
        FakeReply(status=500, body=error_reply(500).body, headers={"x-should-retry": "false"}), text_reply("never sent")
    )

    with pytest.raises(ModelError) as caught:
        make_model().complete(agent_request())

    assert caught.value.code == "model_unavailable"
    assert len(fake_anthropic.requests) == 1


@pytest.mark.parametrize(
    ("status", "code"),
    [
        (400, "model_bad_request"),
        (401, "model_auth_failed"),
        (403, "model_forbidden"),
        (404, "model_not_found"),
    ],
)
def test_client_errors_fail_at_once_with_their_code_after_exactly_one_request(make_model, fake_anthropic, status, code):
    fake_anthropic.script(error_reply(status), text_reply("never sent"))

    with pytest.raises(ModelError) as caught:
        make_model().complete(agent_request())

    assert caught.value.code == code
    assert caught.value.retryable is False
    assert len(fake_anthropic.requests) == 1


def test_a_hanging_response_times_out_and_the_retry_succeeds(make_model, fake_anthropic):
    fake_anthropic.script(hang(1.5), text_reply("ok"))
    started = time.monotonic()

    response = make_model(ANTHROPIC_TIMEOUT_SECONDS=0.5).complete(agent_request())

    assert response["content"][0]["text"] == "ok"
    assert len(fake_anthropic.requests) == 2
    assert 0.5 <= time.monotonic() - started < 1.4


def test_a_response_that_keeps_hanging_ends_in_timeout_after_the_retries(make_model, fake_anthropic):
    fake_anthropic.responder = lambda body: hang(1.5)
    started = time.monotonic()

    with pytest.raises(ModelError) as caught:
        make_model(ANTHROPIC_TIMEOUT_SECONDS=0.5, MODEL_RETRY_MAX_ATTEMPTS=2).complete(agent_request())

    assert caught.value.code == "timeout"
    assert len(fake_anthropic.requests) == 2
    elapsed = time.monotonic() - started
    assert elapsed >= 1.0  # one timed-out attempt of 1 s, then a retry cut short by the deadline
    assert elapsed < 1.9


def test_an_attempt_never_waits_past_the_deadline_even_if_the_timeout_is_longer(make_model, fake_anthropic):
    fake_anthropic.responder = lambda body: hang(1.5)
    started = time.monotonic()

    with pytest.raises(ModelError) as caught:
        make_model(ANTHROPIC_TIMEOUT_SECONDS=5.0).complete(agent_request(), deadline=started + 0.4)

    assert caught.value.code == "timeout"
    assert time.monotonic() - started < 0.7
    assert len(fake_anthropic.requests) == 1


def test_connection_refused_is_retried_then_model_unavailable_and_logs_hold_no_customer_text(
    make_model, fake_anthropic, monkeypatch, caplog
):
    monkeypatch.setenv("ANTHROPIC_BASE_URL", f"http://127.0.0.1:{closed_port()}")
    model = make_model(MODEL_RETRY_MAX_ATTEMPTS=3)

    with caplog.at_level("INFO", logger="chat"), pytest.raises(ModelError) as caught:
        model.complete(agent_request())

    assert caught.value.code == "model_unavailable"
    assert caught.value.retryable is True
    assert fake_anthropic.requests == []
    retries = [record for record in caplog.records if record.getMessage().startswith("model call retrying")]
    assert len(retries) == 2
    assert "alice@example.com" not in caplog.text
    assert "order 1234" not in caplog.text


# --- the circuit breaker ---------------------------------------------------------------------------


def test_the_breaker_opens_after_n_failures_and_the_next_call_sends_nothing(make_model, fake_anthropic):
    model = make_model(MODEL_BREAKER_THRESHOLD=3, MODEL_RETRY_MAX_ATTEMPTS=1)

    open_breaker(model, fake_anthropic, failures=3)
    fake_anthropic.script(text_reply("must not be asked"))
    started = time.monotonic()
    with pytest.raises(ModelError) as caught:
        model.complete(agent_request())

    assert caught.value.code == "model_unavailable"
    assert len(fake_anthropic.requests) == 3
    assert time.monotonic() - started < 0.5
    assert breaker_state(model)["state"] == "open"


def test_a_call_stops_retrying_as_soon_as_the_breaker_opens(make_model, fake_anthropic):
    fake_anthropic.responder = lambda body: error_reply(529)
    model = make_model(MODEL_BREAKER_THRESHOLD=2, MODEL_RETRY_MAX_ATTEMPTS=4)

    with pytest.raises(ModelError) as caught:
        model.complete(agent_request())

    assert caught.value.code == "model_unavailable"
    assert len(fake_anthropic.requests) == 2
    assert breaker_state(model)["state"] == "open"


def test_a_success_resets_the_count_of_consecutive_failures(make_model, fake_anthropic):
    model = make_model(MODEL_BREAKER_THRESHOLD=2, MODEL_RETRY_MAX_ATTEMPTS=1)
    fake_anthropic.script(error_reply(500), text_reply("ok"), error_reply(500), text_reply("still closed"))

    with pytest.raises(ModelError):
        model.complete(agent_request())
    model.complete(agent_request())
    with pytest.raises(ModelError):
        model.complete(agent_request())
    response = model.complete(agent_request())

    assert response["content"][0]["text"] == "still closed"
    assert len(fake_anthropic.requests) == 4


def test_after_the_cool_down_one_probe_goes_through_and_its_success_closes_the_breaker(make_model, fake_anthropic):
    model = make_model(MODEL_BREAKER_THRESHOLD=2, MODEL_RETRY_MAX_ATTEMPTS=1)
    open_breaker(model, fake_anthropic, failures=2)
    time.sleep(0.35)
    fake_anthropic.script(text_reply("probe ok"), error_reply(500), text_reply("closed again"))

    assert model.complete(agent_request())["content"][0]["text"] == "probe ok"
    assert breaker_state(model) == {}
    with pytest.raises(ModelError):
        model.complete(agent_request())  # one failure after closing does not re-open it
    assert model.complete(agent_request())["content"][0]["text"] == "closed again"
    assert len(fake_anthropic.requests) == 5


def test_a_failed_probe_reopens_the_breaker_for_another_cool_down(make_model, fake_anthropic):
    model = make_model(MODEL_BREAKER_THRESHOLD=2, MODEL_RETRY_MAX_ATTEMPTS=1)
    open_breaker(model, fake_anthropic, failures=2)
    time.sleep(0.35)
    fake_anthropic.script(error_reply(529), text_reply("second probe ok"))

    with pytest.raises(ModelError):
        model.complete(agent_request())  # the probe
    assert len(fake_anthropic.requests) == 3
    with pytest.raises(ModelError):
        model.complete(agent_request())  # refused without a request
    assert len(fake_anthropic.requests) == 3
    assert breaker_state(model)["state"] == "open"
    time.sleep(0.35)
    assert model.complete(agent_request())["content"][0]["text"] == "second probe ok"
    assert len(fake_anthropic.requests) == 4


def test_a_probe_that_never_reported_back_frees_the_slot_when_its_lease_ends(make_model, fake_anthropic):
    model = make_model()
    # As left by a probe whose worker died: half-open, with a lease that has run out.
    redis_client().hset(f"bookly:breaker:{model.name}", mapping={"state": "half_open", "until": 0})
    fake_anthropic.script(text_reply("new probe ok"))

    assert model.complete(agent_request())["content"][0]["text"] == "new probe ok"
    assert breaker_state(model) == {}


def test_only_one_of_two_concurrent_callers_gets_the_half_open_probe(make_model, fake_anthropic):
    model = make_model(MODEL_BREAKER_THRESHOLD=2, MODEL_RETRY_MAX_ATTEMPTS=1)
    open_breaker(model, fake_anthropic, failures=2)
    time.sleep(0.35)
    fake_anthropic.script(FakeReply(body=text_reply("probe ok").body, delay=0.5), text_reply("second caller"))
    start = threading.Barrier(2)
    outcomes: list = []

    def call() -> None:
        start.wait()
        try:
            outcomes.append(model.complete(agent_request())["content"][0]["text"])
        except ModelError as error:
            outcomes.append(error.code)

    threads = [threading.Thread(target=call) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=5)

    assert sorted(outcomes) == ["model_unavailable", "probe ok"]
    assert len(fake_anthropic.requests) == 3  # two that opened it, one probe


def test_with_redis_unreachable_the_breaker_lets_every_call_through(make_model, fake_anthropic):
    model = make_model(
        REDIS_URL=f"redis://127.0.0.1:{closed_port()}/0", MODEL_BREAKER_THRESHOLD=1, MODEL_RETRY_MAX_ATTEMPTS=1
    )
    fake_anthropic.script(error_reply(500), error_reply(500), text_reply("through"))

    for _ in range(2):
        with pytest.raises(ModelError):
            model.complete(agent_request())
    response = model.complete(agent_request())

    assert response["content"][0]["text"] == "through"
    assert len(fake_anthropic.requests) == 3


def test_a_hung_redis_costs_one_short_timeout_not_one_per_call(make_model, fake_anthropic, silent_listener):
    model = make_model(REDIS_URL=f"redis://127.0.0.1:{silent_listener}/0", MODEL_BREAKER_REDIS_TIMEOUT_SECONDS=0.2)
    fake_anthropic.responder = lambda body: text_reply("ok")

    started = time.monotonic()
    model.complete(agent_request())
    first = time.monotonic() - started
    started = time.monotonic()
    for _ in range(5):
        model.complete(agent_request())
    rest = time.monotonic() - started

    assert 0.2 <= first < 1.0
    assert rest < 0.2 * 5  # later calls skip Redis instead of waiting on it each time
    assert len(fake_anthropic.requests) == 6
