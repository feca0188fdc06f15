"""`python -m bench.run --smoke` starts the real stack against the test database and works."""

import json
import subprocess
import sys

import pytest
from django.conf import settings

from tests.conftest import ROOT, _test_database_url

pytestmark = pytest.mark.worker


def test_bench_smoke_completes_turns_and_leaves_no_stuck_runs(transactional_db, _clean_broker, tmp_path):
    out = tmp_path / "bench.json"
    completed = subprocess.run(
        [
            sys.executable,
            "-m",
            "bench.run",
            "--smoke",
            "--json",
            str(out),
            "--log-dir",
            str(tmp_path / "logs"),
            "--database-url",
            _test_database_url(),
            "--redis-url",
            settings.REDIS_URL,
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=400,
    )
    assert completed.returncode == 0, completed.stdout[-3000:] + completed.stderr[-3000:]
    results = json.loads(out.read_text())
    assert results["harness_errors"] == []
    closed = [run for run in results["runs"] if run["kind"] == "closed"]
    assert {run["script"] for run in closed} == {"single", "tools"}
    # The last run restarted the workers as one plain `celery -A bookly_project worker`.
    assert [run["name"] for run in closed if "plain" in run["scenarios"]] == ["plain-4"]
    for run in closed:
        assert run["turns"] > 0, run["name"]
        assert run["stuck_runs"] == 0, run["name"]
        assert run["errors"] == 0, (run["name"], run["errors_by_code"])
        assert run["polls_per_turn"] >= 1
    assert next(run for run in closed if run["script"] == "tools")["model_requests_per_turn"] > 2
    accept = next(run for run in results["runs"] if run["kind"] == "open")
    assert accept["accepted"] > 0
    assert results["sql_statements"]["worker_turn_single"]["statements"] > 0
    tools = next(run for run in closed if run["script"] == "tools")
    assert tools["bill"]["tokens"]["later"]["cache_read_input_tokens"] > 0
    assert tools["bill"]["usd_per_conversation"] < tools["bill"]["usd_per_conversation_without_cache"]
    baseline = next(run for run in results["runs"] if run["kind"] == "in_request")
    assert baseline["turns"] > 0
    assert baseline["errors"] == 0
    overload = [run for run in results["runs"] if run["kind"] == "overload"]
    assert [run["name"] for run in overload] == ["overload-x2", "overload-x4"]
    for run in overload:
        assert run["accepted"] > 0
        assert run["lost"] == run["stuck_runs"] == run["no_answer"] == 0, run
