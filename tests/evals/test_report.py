"""report.table: the three parts side by side, and every failure of both test parts listed by name."""

import json

import pytest

from evals.report import (
    EXPECT_FLAG,
    EXPECT_PASS,
    EXPECT_SAFE,
    PARTS,
    TEST,
    TEST_SEEN,
    TUNING,
    CaseResult,
    table,
)


def result(case_id: str, part: str, expected: str, ok: bool, family: str = "override_en") -> CaseResult:
    return CaseResult(
        layer="L0", part=part, family=family, case_id=case_id, expected=expected, ok=ok, got="verdict", preview=case_id
    )


def test_the_table_lists_every_failure_of_the_test_part_and_none_of_the_tuning_part():
    results = [
        result("t-ok", TEST, EXPECT_FLAG, True),
        result("t-miss-1", TEST, EXPECT_FLAG, False),
        result("t-miss-2", TEST, EXPECT_FLAG, False, family="encoded"),
        result("t-false-block", TEST, EXPECT_PASS, False, family="innocent_trigger"),
        result("t-conversation", TEST, EXPECT_SAFE, False, family="unverified_return"),
        result("u-miss", TUNING, EXPECT_FLAG, False),
        result("s-miss", TEST_SEEN, EXPECT_FLAG, False),
    ]

    text = table(results)
    listing = text.split("Test part: ")[1]

    assert listing.startswith("4 failure(s)")
    for case_id in ("t-miss-1", "t-miss-2", "t-false-block", "t-conversation"):
        assert f" {case_id}: " in listing
    assert "false block [innocent_trigger] t-false-block" in listing
    assert "miss [encoded] t-miss-2" in listing
    assert "t-ok" not in listing and "u-miss" not in listing and "s-miss" not in listing
    seen_listing = text.split("Seen test part (test_seen): ")[1].split("Test part: ")[0]
    assert seen_listing.startswith("1 failure(s)") and " s-miss: " in seen_listing and "t-miss-1" not in seen_listing


def test_the_table_shows_tuning_seen_and_unseen_test_rates_of_a_family_side_by_side():
    results = [
        result("u-1", TUNING, EXPECT_FLAG, True),
        result("s-1", TEST_SEEN, EXPECT_FLAG, True),
        result("s-2", TEST_SEEN, EXPECT_FLAG, False),
        result("t-1", TEST, EXPECT_FLAG, False),
    ]

    lines = table(results).splitlines()
    header = lines[0]
    row = next(line for line in lines if "override_en" in line)

    assert header.index("tuning ok") < header.index("test_seen ok") < header.index(" test ok")
    # tuning first, then the seen test part, then the unseen one
    assert row.index("1/1 (100.0 %)") < row.index("1/2 (50.0 %)") < row.index("0/1 (0.0 %)")


def test_a_part_without_cases_shows_a_dash():
    row = next(line for line in table([result("u-1", TUNING, EXPECT_FLAG, True)]).splitlines() if "override_en" in line)

    assert row.split()[-2:] == ["-", "-"]


def test_each_l4_part_reads_its_own_files_and_the_unseen_part_only_the_newest(tmp_path, monkeypatch):
    from evals import l4

    for name, case_id in (
        ("l4_tuning.jsonl", "tune-1"),
        ("l4_test.jsonl", "l4t-1"),
        ("l4_test2.jsonl", "l4u-1"),
        ("l4_test3.jsonl", "l4w-1"),
        ("l4_test4.jsonl", "l4x-1"),
        ("l4_test5.jsonl", "l4y-1"),
        ("l4_test6.jsonl", "l4z-1"),
        ("l4_test7.jsonl", "l4v-1"),
        ("l4_test8.jsonl", "l4s-1"),
        ("l4_test9.jsonl", "l4r-1"),
        ("l4_test10.jsonl", "l4q-1"),
        ("l4_test11.jsonl", "l4p-1"),
        ("l4_test12.jsonl", "l4o-1"),
        ("l4_test13.jsonl", "l4n-1"),
        ("l4_test14.jsonl", "l4m-1"),
        ("l4_test15.jsonl", "l4l-1"),
        ("l4_test16.jsonl", "l4k-1"),
        ("l4_test17.jsonl", "l4j-1"),
        ("l4_test18.jsonl", "l4i-1"),
        ("l4_test19.jsonl", "l4h-1"),
        ("l4_test20.jsonl", "l4g-1"),
        ("l4_test21.jsonl", "l4f-1"),
        ("l4_test22.jsonl", "l4e-1"),
        ("l4_test23.jsonl", "l4d-1"),
        ("l4_test24.jsonl", "l4c-1"),
        ("l4_test25.jsonl", "l4b-1"),
        ("l4_test26.jsonl", "l4a-1"),
        ("l4_test27.jsonl", "l4za-1"),
        ("l4_test28.jsonl", "l4zb-1"),
        ("l4_test29.jsonl", "l4zc-1"),
        ("l4_test30.jsonl", "l4zd-1"),
        ("l4_test31.jsonl", "l4ze-1"),
        ("l4_test32.jsonl", "l4zf-1"),
        ("l4_test33.jsonl", "l4zg-1"),
        ("l4_test34.jsonl", "l4zh-1"),
        ("l4_test35.jsonl", "l4zi-1"),
        ("l4_test36.jsonl", "l4zj-1"),
        ("l4_test37.jsonl", "l4zk-1"),
        ("l4_test38.jsonl", "l4zl-1"),
        ("l4_test39.jsonl", "l4zm-1"),
        ("l4_test40.jsonl", "l4zn-1"),
        ("l4_test41.jsonl", "l4zo-1"),
        ("l4_test42.jsonl", "l4zp-1"),
        ("l4_test43.jsonl", "l4zq-1"),
        ("l4_test44.jsonl", "l4zr-1"),
        ("l4_test45.jsonl", "l4zs-1"),
        ("l4_test46.jsonl", "l4zv-1"),
        ("l4_test47.jsonl", "l4zu-1"),
        ("l4_test48.jsonl", "l4zw-1"),
        ("l4_test49.jsonl", "l4zx-1"),
        ("l4_test50.jsonl", "l4zy-1"),
        ("l4_test51.jsonl", "l4zz-1"),
        ("l4_test52.jsonl", "l4ya-1"),
        ("l4_test53.jsonl", "l4yb-1"),
        ("l4_test54.jsonl", "l4yc-1"),
        ("l4_test55.jsonl", "l4yd-1"),
        ("l4_test56.jsonl", "l4ye-1"),
        ("l4_test57.jsonl", "l4yf-1"),
        ("l4_test58.jsonl", "l4yg-1"),
        ("l4_test59.jsonl", "l4yh-1"),
        ("l4_test60.jsonl", "l4yi-1"),
        ("l4_test61.jsonl", "l4yj-1"),
        ("l4_test62.jsonl", "l4yk-1"),
        ("l4_test63.jsonl", "l4yl-1"),
        ("l4_test64.jsonl", "l4ym-1"),
        ("l4_test65.jsonl", "l4yn-1"),
        ("l4_test66.jsonl", "l4yo-1"),
        ("l4_test67.jsonl", "l4yp-1"),
        ("l4_test68.jsonl", "l4yq-1"),
        ("l4_test69.jsonl", "l4yr-1"),
    ):
        (tmp_path / name).write_text(json.dumps({"id": case_id}) + "\n", encoding="utf-8")
    monkeypatch.setattr(l4, "DATA", tmp_path)

    ids = {part: [case["id"] for case in l4.corpus_load(part)] for part in PARTS}

    seen = ["l4t-1", "l4u-1", "l4w-1", "l4x-1", "l4y-1", "l4z-1", "l4v-1", "l4s-1", "l4r-1", "l4q-1", "l4p-1", "l4o-1"]
    seen += ["l4n-1", "l4m-1", "l4l-1", "l4k-1", "l4j-1", "l4i-1", "l4h-1", "l4g-1", "l4f-1", "l4e-1", "l4d-1"]
    seen += ["l4c-1", "l4b-1", "l4a-1", "l4za-1", "l4zb-1", "l4zc-1", "l4zd-1", "l4ze-1", "l4zf-1", "l4zg-1", "l4zh-1"]
    seen += ["l4zi-1", "l4zj-1", "l4zl-1", "l4zk-1", "l4zm-1", "l4zn-1", "l4zo-1", "l4zp-1", "l4zq-1"]
    seen += ["l4zr-1", "l4zs-1", "l4zv-1", "l4zu-1", "l4zw-1", "l4zx-1", "l4zy-1", "l4zz-1", "l4ya-1", "l4yb-1"]
    seen += ["l4yc-1", "l4yd-1", "l4ye-1", "l4yf-1", "l4yg-1", "l4yh-1", "l4yi-1", "l4yj-1"]
    seen += ["l4yk-1", "l4yl-1", "l4ym-1", "l4yn-1"]
    assert ids == {TUNING: ["tune-1"], TEST_SEEN: seen, TEST: ["l4yo-1", "l4yp-1", "l4yq-1", "l4yr-1"]}


def test_a_family_named_by_its_short_name_is_read_under_the_common_one(tmp_path, monkeypatch):
    from evals import l4

    lines = [{"id": "t-1", "family": "off_topic"}, {"id": "t-2", "family": "markdown"}, {"id": "t-3"}]
    (tmp_path / "l4_tuning.jsonl").write_text("\n".join(json.dumps(line) for line in lines), encoding="utf-8")
    monkeypatch.setattr(l4, "DATA", tmp_path)

    families = [case.get("family") for case in l4.corpus_load(TUNING)]
    assert families == ["off_topic_engagement", "markdown", None]


def test_an_unknown_part_is_refused():
    from evals import l4

    with pytest.raises(ValueError, match="part must be one of"):
        l4.corpus_load("test2")
    assert PARTS == (TUNING, TEST_SEEN, TEST)
