"""Simulated customers, and the invariants checked over Postgres after each fault.

Each customer is a thread with its own HTTP session, as a browser: it takes a session and a
CSRF token, opens a thread, then posts a message, long-polls its run for a moment and posts
the next one, recording every answer. Runs of one thread execute in order, so a customer
keeps several runs queued behind each other while a fault holds them up.
"""

import json
import threading
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field

import httpx2

from tests.chaos.stack import ChaosStack

TERMINAL = ("completed", "failed", "expired", "cancelled")
# Outage answers the API documents (503 in the one error shape, nothing stored): the database or
# broker away, or load shed at once by the web (chat/admission.py) while a fault slows it down.
OUTAGE_CODES = ("service_unavailable", "storage_unavailable", "overloaded")
MESSAGES_PER_THREAD = 8  # well under the policy's turns per thread


@dataclass
class Traffic:
    """Every answer the customers got, and the runs their 202s promised."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    statuses: Counter = field(default_factory=Counter)
    accepted: dict[str, float] = field(default_factory=dict)  # run id -> when its 202 arrived
    threads: set[str] = field(default_factory=set)
    bad: list[str] = field(default_factory=list)  # 5xx other than a documented 503; transport errors
    overloaded: int = 0  # 503s of the web's load shedding

    def record(self, response: httpx2.Response) -> None:
        with self.lock:
            self.statuses[response.status_code] += 1
            if response.status_code == 503 and _error_code(response) == "overloaded":
                self.overloaded += 1
            if response.status_code >= 500 and not _documented_outage(response):
                self.bad.append(f"{response.request.method} {response.request.url.path}: {response.status_code}")

    @property
    def server_errors(self) -> int:
        """5xx answers other than the web's load-shedding refusals (503 overloaded: refused at once,
        nothing stored, the customer retries), which a fault that slows the web may bring."""
        return sum(count for status, count in self.statuses.items() if status >= 500) - self.overloaded


def _error_code(response: httpx2.Response) -> str | None:
    """The error code of an answer in the one error shape, else None."""
    try:
        error = response.json()["error"]
    except (ValueError, KeyError, TypeError):
        return None
    return error.get("code") if isinstance(error, dict) and set(error) == {"code", "message", "details"} else None


def _documented_outage(response: httpx2.Response) -> bool:
    return response.status_code == 503 and _error_code(response) in OUTAGE_CODES


class Customer(threading.Thread):
    def __init__(self, stack: ChaosStack, traffic: Traffic, stop: threading.Event, *, think: float) -> None:
        super().__init__(daemon=True)
        self.stack, self.traffic, self.stop_event, self.think = stack, traffic, stop, think
        self.http = httpx2.Client(base_url=stack.web_url, timeout=40)
        self.csrf = ""
        self.thread_id = ""
        self.sent_in_thread = 0

    def call(self, method: str, path: str, **kwargs) -> httpx2.Response | None:
        kwargs.setdefault("headers", {"X-CSRFToken": self.csrf})
        try:
            response = self.http.request(method, path, **kwargs)
        except httpx2.HTTPError as error:
            with self.traffic.lock:
                self.traffic.bad.append(f"{method} {path}: {type(error).__name__}")
            return None
        self.traffic.record(response)
        return response

    def ensure_thread(self) -> bool:
        if not self.csrf:
            response = self.call("GET", "/api/v1/session")
            if response is None or response.status_code != 200:
                return False
            self.csrf = response.json()["csrf_token"]
        if not self.thread_id or self.sent_in_thread >= MESSAGES_PER_THREAD:
            response = self.call("POST", "/api/v1/threads")
            if response is None or response.status_code != 201:
                return False
            self.thread_id, self.sent_in_thread = response.json()["id"], 0
            with self.traffic.lock:
                self.traffic.threads.add(self.thread_id)
        return True

    def post_message(self, key: str) -> str | None:
        """POST one message with its Idempotency-Key, as the chat page does; the run id if accepted."""
        response = self.call(
            "POST",
            f"/api/v1/threads/{self.thread_id}/messages",
            json={"content": "Where is my order, please?"},
            headers={"X-CSRFToken": self.csrf, "Idempotency-Key": key},
        )
        if response is None or response.status_code != 202:
            return None
        run_id = response.json()["run"]["id"]
        with self.traffic.lock:
            self.traffic.accepted.setdefault(run_id, time.time())
        return run_id

    def run(self) -> None:
        sent = 0
        key = uuid.uuid4().hex
        while not self.stop_event.is_set():
            if not self.ensure_thread():
                time.sleep(1)
                continue
            run_id = self.post_message(key)
            if run_id is None:  # an outage: the page retries the same message with the same key
                time.sleep(self.think)
                continue
            sent += 1
            if sent % 5 == 0:
                # A retry whose first answer was lost: the same key must give the same run.
                again = self.post_message(key)
                if again is not None and again != run_id:
                    with self.traffic.lock:
                        self.traffic.bad.append(f"Idempotency-Key replay made run {again}, not {run_id}")
            self.sent_in_thread += 1
            key = uuid.uuid4().hex
            self.call("GET", f"/api/v1/runs/{run_id}", params={"wait": str(self.think)})


def drive(stack: ChaosStack, fault, *, customers: int = 20, before: float = 3.0, after: float = 5.0, think=2.0):
    """Run `customers` against the stack; call `fault()` after `before` seconds; go on for `after` more."""
    traffic = Traffic()
    stop = threading.Event()
    crowd = [Customer(stack, traffic, stop, think=think) for _ in range(customers)]
    for customer in crowd:
        customer.start()
    time.sleep(before)
    fault()
    time.sleep(after)
    stop.set()
    for customer in crowd:
        customer.join(timeout=60)
    return traffic


@dataclass
class Outcome:
    """What the database says about one fault's runs."""

    runs: int
    by_status: dict[str, int]
    error_codes: dict[str, int]
    settle_seconds: float  # from the fault's end until every run was terminal
    max_turn_seconds: float  # longest created -> completed of a run
    deliveries: int  # run_turn tasks the workers received while the fault's runs existed
    model_calls: int
    retried: int  # runs that needed more than one attempt

    def line(self, name: str, traffic: Traffic) -> str:
        return json.dumps(
            {
                "fault": name,
                "runs": self.runs,
                "accepted_202": len(traffic.accepted),
                "statuses": dict(sorted(traffic.statuses.items())),
                "5xx": traffic.server_errors,
                "undocumented_5xx_or_transport_errors": len(traffic.bad),
                "runs_by_status": self.by_status,
                "error_codes": self.error_codes,
                "deliveries_per_run": round(self.deliveries / max(self.runs, 1), 2),
                "model_calls_per_run": round(self.model_calls / max(self.runs, 1), 2),
                "runs_retried": self.retried,
                "settle_seconds": round(self.settle_seconds, 1),
                "max_turn_seconds": round(self.max_turn_seconds, 1),
            }
        )


def settle(stack: ChaosStack, traffic: Traffic, *, bound: float) -> float:
    """Wait until every run of the fault's threads is terminal; the seconds it took (fails past `bound`)."""
    started = time.monotonic()
    threads = list(traffic.threads)
    while True:
        open_runs = stack.sql(
            "SELECT count(*) FROM chat_run WHERE thread_id = ANY(%s::uuid[]) AND status <> ALL(%s)",
            (threads, list(TERMINAL)),
        )[0][0]
        if open_runs == 0:
            return time.monotonic() - started
        assert time.monotonic() - started < bound, f"{open_runs} runs still unfinished {bound:.0f} s after the fault"
        time.sleep(0.5)


def check_invariants(stack: ChaosStack, traffic: Traffic, *, deliveries: int) -> Outcome:
    """Over Postgres: every 202 has exactly one run and one message, each run is terminal and
    has at most one reply, model calls stay within the documented at-least-once, no 500s."""
    assert traffic.bad == [], f"undocumented server errors or dropped requests: {traffic.bad[:10]}"
    threads = list(traffic.threads)
    accepted = set(traffic.accepted)
    runs = stack.sql(
        """SELECT r.id::text, r.status, r.error_code, r.attempts, r.assistant_message_id IS NOT NULL,
                  EXTRACT(EPOCH FROM (r.completed_at - r.created_at)),
                  (SELECT count(*) FROM chat_modelcall m
                   WHERE m.run_id = r.id AND m.error_code = '' AND m.purpose = 'turn'),
                  r.ending
           FROM chat_run r WHERE r.thread_id = ANY(%s::uuid[])""",
        (threads,),
    )
    run_ids = [row[0] for row in runs]
    assert len(run_ids) == len(set(run_ids))
    assert set(run_ids) == accepted, (
        f"runs without a 202: {len(set(run_ids) - accepted)}, 202s without a run: {len(accepted - set(run_ids))}"
    )
    user_messages = stack.sql(
        "SELECT count(*) FROM chat_message WHERE thread_id = ANY(%s::uuid[]) AND role = 'user'", (threads,)
    )[0][0]
    assert user_messages == len(accepted), f"{user_messages} customer messages stored for {len(accepted)} 202s"
    assistant_messages = stack.sql(
        "SELECT count(*) FROM chat_message WHERE thread_id = ANY(%s::uuid[]) AND role = 'assistant'", (threads,)
    )[0][0]
    # A thread handed to a person (after repeated failed turns) stays silent: its later runs
    # complete with no reply ("handed_off") and staff answer instead.
    answered = [row for row in runs if row[1] == "completed" and row[7] != "handed_off"]
    silent = [row for row in runs if row[1] == "completed" and row[7] == "handed_off"]
    assert all(row[4] for row in answered) and not any(row[4] for row in silent)
    assert assistant_messages == len(answered), "a reply without its run, or a run answered twice"
    for run_id, status, _, attempts, _, _, model_calls, _ in runs:
        assert status in TERMINAL, f"run {run_id} is {status}"
        # At least once, not more: one model call per attempt (a retried attempt may call again).
        assert model_calls <= attempts, f"run {run_id}: {model_calls} model calls in {attempts} attempts"
    return Outcome(
        runs=len(runs),
        by_status=dict(Counter(row[1] for row in runs)),
        error_codes=dict(Counter(row[2] for row in runs if row[2])),
        settle_seconds=0.0,
        max_turn_seconds=max((float(row[5] or 0) for row in runs), default=0.0),
        deliveries=deliveries,
        model_calls=sum(row[6] for row in runs),
        retried=sum(1 for row in runs if row[3] > 1),
    )
