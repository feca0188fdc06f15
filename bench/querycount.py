"""SQL statements per POST, per poll and per worker turn, counted in-process.

Run by bench/run.py as `python -m bench.querycount --json OUT` against the bench database,
before the workers start (so no worker races the in-process turn). Django logs every
statement on the `django.db.backends` logger when DEBUG is on; a counting handler sees
them from every thread, including the threads the async long-poll view uses. Only the
statement's verb and table are kept (never its parameters, which hold customer text).
The model is the fake server (BOOKLY_LLM=anthropic, ANTHROPIC_BASE_URL), so the turn
goes through the real SDK and the real agent loop.
"""

import argparse
import json
import logging
import re
import threading
import time
from collections import Counter

from bench.stack import http_json

_TABLE = re.compile(r'\b(?:FROM|INTO|UPDATE)\s+"?(\w+)"?', re.IGNORECASE)


class StatementCounter(logging.Handler):
    def __init__(self) -> None:
        super().__init__(level=logging.DEBUG)
        self.kinds: Counter = Counter()
        self._counts_lock = threading.Lock()

    def emit(self, record: logging.LogRecord) -> None:
        sql = getattr(record, "sql", None)
        if not isinstance(sql, str):
            return
        verb = sql.lstrip().split(None, 1)[0].upper() if sql.strip() else "?"
        match = _TABLE.search(sql)
        with self._counts_lock:
            self.kinds[f"{verb} {match.group(1) if match else ''}".strip()] += 1

    def take(self) -> dict:
        with self._counts_lock:
            kinds, self.kinds = self.kinds, Counter()
        return {"statements": sum(kinds.values()), "by_kind": dict(kinds.most_common())}


def measure(fake_model_url: str) -> dict:
    import django
    from django.conf import settings

    django.setup()
    from django.test import Client

    from chat import runs
    from chat.agent.llm import get_model

    counter = StatementCounter()
    db_logger = logging.getLogger("django.db.backends")
    db_logger.addHandler(counter)
    db_logger.setLevel(logging.DEBUG)
    db_logger.propagate = False
    settings.DEBUG = True  # makes Django log each statement; nothing else is read from it here
    get_model.cache_clear()

    def control(script: str) -> None:
        http_json(f"{fake_model_url}/control", {"script": script, "latency": 0})

    client = Client(enforce_csrf_checks=True, HTTP_HOST="127.0.0.1")
    out: dict = {}
    counter.take()
    csrf = client.get("/api/v1/session").json()["csrf_token"]
    out["get_session"] = counter.take()
    thread_id = client.post(
        "/api/v1/threads", data="{}", content_type="application/json", headers={"X-CSRFToken": csrf}
    ).json()["id"]
    out["post_thread"] = counter.take()

    def post() -> str:
        response = client.post(
            f"/api/v1/threads/{thread_id}/messages",
            data=json.dumps({"content": "Hello there"}),
            content_type="application/json",
            headers={"X-CSRFToken": csrf},
        )
        assert response.status_code == 202, response.status_code
        return response.json()["run"]["id"]

    def poll(run_id: str, wait: int) -> dict:
        response = client.get(f"/api/v1/runs/{run_id}?wait={wait}")
        assert response.status_code == 200, response.status_code
        return response.json()

    for script in ("single", "tools"):
        control(script)
        # Two warm-up turns first, so the thread has history like a real conversation.
        for _ in range(2):
            run_id = post()
            runs.run_execute(run_id=run_id)
        counter.take()
        run_id = post()
        out[f"post_message_{script}"] = counter.take()
        runs.run_execute(run_id=run_id)
        out[f"worker_turn_{script}"] = counter.take()
        poll(run_id, 25)
        out[f"poll_settled_{script}"] = counter.take()

    # A long-poll that waits and is woken by the worker's notification: poll + turn − turn.
    control("single")
    run_id = post()
    counter.take()
    result: dict = {}
    poller = threading.Thread(target=lambda: result.update(poll(run_id, 10)))
    poller.start()
    time.sleep(0.5)
    runs.run_execute(run_id=run_id)
    poller.join(timeout=15)
    both = counter.take()
    out["poll_woken"] = {
        "statements": both["statements"] - out["worker_turn_single"]["statements"],
        "status": result.get("status", ""),
    }
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--fake-model-url", required=True)
    parser.add_argument("--json", required=True)
    args = parser.parse_args()
    with open(args.json, "w") as handle:
        json.dump(measure(args.fake_model_url), handle, indent=2)


if __name__ == "__main__":
    main()
