"""Security headers on the chat page (no browser): a strict CSP and the classic trio."""

import pytest

pytestmark = pytest.mark.django_db


def test_the_chat_page_sends_a_strict_csp_and_the_security_headers(client):
    response = client.get("/")

    assert response.status_code == 200
    csp = response.headers["Content-Security-Policy"]
    directives = {part.split()[0]: part.split()[1:] for part in csp.split(";") if part.strip()}
    assert "'unsafe-inline'" not in csp
    assert "'unsafe-eval'" not in csp
    assert directives["default-src"] == ["'none'"]
    assert directives["script-src"] == ["'self'"]
    assert directives["style-src"] == ["'self'"]
    assert directives["connect-src"] == ["'self'"]
    assert directives["frame-ancestors"] == ["'none'"]
    assert directives["object-src"] == ["'none'"]
    assert directives["base-uri"] == ["'none'"]
    assert directives["require-trusted-types-for"] == ["'script'"]
    assert response.headers["X-Frame-Options"] == "DENY"
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "same-origin"


def test_the_api_answers_carry_the_csp_too(client):
    response = client.get("/api/v1/session")

    assert "default-src 'none'" in response.headers["Content-Security-Policy"]
    assert response.headers["X-Frame-Options"] == "DENY"


def test_the_page_has_no_inline_script_or_style(client):
    html = client.get("/").content.decode()

    assert "<script>" not in html
    assert " style=" not in html
    assert "<style" not in html
    assert " on" + "click=" not in html


@pytest.mark.parametrize(("llm", "shown"), [("offline", True), ("anthropic", False)])
def test_the_offline_demo_notice_shows_only_for_the_offline_model(client, settings, llm, shown):
    settings.BOOKLY_LLM = llm

    html = client.get("/").content.decode()

    assert ('id="demo-notice"' in html) is shown


def test_only_get_and_head_are_allowed(client):
    assert client.post("/").status_code == 405
