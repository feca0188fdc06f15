"""The OpenAPI schema tells the truth: what it says is checked here, and schemathesis checks the
live server against it (generated requests, valid and invalid, through real uvicorn)."""

import itertools
import json
from collections.abc import Iterator

import pytest
import requests
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode

from tests.browser.conftest import bookly_web

pytestmark = pytest.mark.django_db

ERROR_REF = "#/components/schemas/Error"


@pytest.fixture
def schema(client) -> dict:
    response = client.get("/api/v1/schema/", headers={"Accept": "application/vnd.oai.openapi+json"})
    assert response.status_code == 200
    return json.loads(response.content)


def _json_schema(schema: dict, operation: dict, status: str) -> dict:
    content = operation["responses"][status]["content"]["application/json"]["schema"]
    name = content["$ref"].rsplit("/", 1)[-1]
    return schema["components"]["schemas"][name]


@pytest.mark.parametrize("path", ["/api/v1/threads", "/api/v1/threads/{thread_id}/messages"])
def test_lists_are_documented_as_a_page_of_results(schema, path):
    page = _json_schema(schema, schema["paths"][path]["get"], "200")

    assert set(page["properties"]) == {"results", "has_more"}
    assert page["properties"]["results"]["type"] == "array"
    assert page["properties"]["has_more"]["type"] == "boolean"
    assert set(page["required"]) == {"results", "has_more"}


def test_the_error_shape_is_a_component(schema):
    error = schema["components"]["schemas"]["Error"]
    detail = schema["components"]["schemas"][error["properties"]["error"]["$ref"].rsplit("/", 1)[-1]]

    assert set(detail["properties"]) == {"code", "message", "details"}
    assert set(detail["required"]) == {"code", "message", "details"}


# Every status an operation can answer besides its success, each in the error shape.
EXPECTED_ERRORS = {
    ("get", "/api/v1/session"): {"400", "429", "503"},
    ("get", "/api/v1/threads"): {"400", "503"},
    ("post", "/api/v1/threads"): {"400", "403", "413", "415", "429", "503"},
    ("get", "/api/v1/threads/{thread_id}"): {"400", "404", "503"},
    ("get", "/api/v1/threads/{thread_id}/messages"): {"400", "404", "503"},
    ("post", "/api/v1/threads/{thread_id}/messages"): {"400", "403", "404", "409", "413", "415", "422", "429", "503"},
    ("get", "/api/v1/threads/{thread_id}/messages/{message_id}/status"): {"400", "404", "503"},
    ("get", "/api/v1/runs/{run_id}"): {"400", "404", "503"},
    ("post", "/api/v1/runs/{run_id}/cancel"): {"400", "403", "404", "413", "415", "503"},
    ("post", "/api/v1/runs/{run_id}/actions/{action_id}"): {"400", "403", "404", "409", "410", "413", "415", "503"},
    ("post", "/api/v1/threads/{thread_id}/handoff"): {"400", "403", "404", "413", "415", "503"},
    ("get", "/api/v1/threads/{thread_id}/updates"): {"400", "404", "503"},
}


def test_every_operation_documents_its_errors_in_the_error_shape(schema):
    operations = {(method, path) for path, item in schema["paths"].items() for method in item}
    assert operations == set(EXPECTED_ERRORS)
    for (method, path), statuses in EXPECTED_ERRORS.items():
        responses = schema["paths"][path][method]["responses"]
        errors = {status for status in responses if status >= "400"}
        assert errors == statuses | {"431"}, (method, path)
        for status in statuses | {"431"}:
            assert responses[status]["content"]["application/json"]["schema"]["$ref"] == ERROR_REF, (path, status)
        if "429" in statuses:
            assert responses["429"]["headers"]["Retry-After"]["required"] is True


def test_the_long_poll_is_documented_with_wait_and_etag(schema):
    operation = schema["paths"]["/api/v1/runs/{run_id}"]["get"]
    parameters = {parameter["name"]: parameter for parameter in operation["parameters"]}

    assert parameters["wait"]["in"] == "query"
    assert parameters["If-None-Match"]["in"] == "header"
    assert "304" in operation["responses"]
    assert operation["responses"]["200"]["headers"]["ETag"]["required"] is True
    assert _json_schema(schema, operation, "200")["properties"]["status"]


def test_the_message_post_documents_idempotency_key_and_location(schema):
    operation = schema["paths"]["/api/v1/threads/{thread_id}/messages"]["post"]
    parameters = {parameter["name"]: parameter for parameter in operation["parameters"]}

    assert parameters["Idempotency-Key"]["in"] == "header"
    assert "same body" in parameters["Idempotency-Key"]["description"]
    assert operation["responses"]["202"]["headers"]["Location"]["required"] is True


# --- schemathesis against the live server ---------------------------------------------------------

EXAMPLES_PER_OPERATION = 60


@pytest.fixture(scope="module")
def live_url(django_db_setup, django_db_blocker, _clean_broker) -> Iterator[str]:
    limits_off = {name: "1000000/min" for name in ("THROTTLE_MESSAGES", "THROTTLE_MESSAGES_PER_ADDRESS")}
    limits_off |= {name: "1000000/min" for name in ("THROTTLE_THREADS", "THROTTLE_THREADS_PER_ADDRESS")}
    limits_off["THROTTLE_SESSIONS_PER_ADDRESS"] = "1000000/min"
    with bookly_web(limits_off, name="schemathesis-web") as url:
        yield url


class Customer:
    """A requests session with a customer session, its CSRF token and real ids to aim at."""

    def __init__(self, url: str) -> None:
        self.http = requests.Session()
        self.sent = 0
        self.http.hooks["response"].append(self._count)
        self.csrf = self.http.get(f"{url}/api/v1/session").json()["csrf_token"]
        self.http.headers["X-CSRFToken"] = self.csrf
        self.thread = self.http.post(f"{url}/api/v1/threads", json={}).json()["id"]
        posted = self.http.post(f"{url}/api/v1/threads/{self.thread}/messages", json={"content": "hello"}).json()
        self.ids = {"thread_id": self.thread, "run_id": posted["run"]["id"], "message_id": posted["message"]["id"]}
        # A settled run: a long-poll of it answers at once instead of waiting up to 30 s.
        self.http.post(f"{url}/api/v1/runs/{posted['run']['id']}/cancel")
        self._aim = itertools.cycle([True, False])
        self._keys = itertools.count()

    def _count(self, response, *args, **kwargs) -> None:
        self.sent += 1

    def aim(self, case, mode: GenerationMode) -> None:
        """Every other case uses this customer's real ids, so success paths are exercised too.

        A valid Idempotency-Key is made unique: the same key with another body is a 422 by design.
        """
        if case.path_parameters and next(self._aim):
            for name in case.path_parameters:
                if name in self.ids:
                    case.path_parameters[name] = self.ids[name]
        key = (case.headers or {}).get("Idempotency-Key")
        if key is not None and mode == GenerationMode.POSITIVE:
            case.headers["Idempotency-Key"] = f"{key[:240]}-{next(self._keys)}"


@pytest.fixture(scope="module")
def live_customer(live_url) -> Customer:
    return Customer(live_url)


def _fuzz(operation, mode: GenerationMode, customer: Customer, failures: dict[str, str]) -> int:
    """Send EXAMPLES_PER_OPERATION generated requests for one operation; record the first failure. Returns the count."""
    sent = 0

    @given(case=operation.as_strategy(generation_mode=mode))
    @settings(
        max_examples=EXAMPLES_PER_OPERATION,
        deadline=None,
        derandomize=True,
        phases=[Phase.explicit, Phase.generate],  # no shrinking: failures are collected, not minimised
        suppress_health_check=list(HealthCheck),
        database=None,
    )
    def check(case) -> None:
        nonlocal sent
        sent += 1
        customer.aim(case, mode)
        try:
            case.call_and_validate(session=customer.http)
        except (Exception, BaseExceptionGroup) as failure:  # kept, to report every failure at once
            failures.setdefault(f"{operation.label} ({mode})", str(failure)[:1500])

    try:
        check()
    except Unsatisfiable:
        assert mode == GenerationMode.NEGATIVE  # nothing in this operation can be made invalid
    return sent


@pytest.mark.django_db(transaction=True)  # the server commits; the database is emptied afterwards
def test_the_live_api_matches_its_schema(live_url, live_customer):
    """Every operation, valid and invalid generated requests: no 5xx, every answer as documented."""
    schema = schemathesis.openapi.from_url(f"{live_url}/api/v1/schema/?format=json")
    failures: dict[str, str] = {}
    cases = sum(
        _fuzz(result.ok(), mode, live_customer, failures)
        for result in schema.get_all_operations()
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE)
    )

    print(f"\nschemathesis: {cases} cases, {live_customer.sent} requests, {len(failures)} failing operations")
    assert cases >= 10 * EXAMPLES_PER_OPERATION
    assert not failures, "\n\n".join(f"{label}:\n{text}" for label, text in failures.items())
