"""report.table: both parts side by side, and every failure of the test part listed by name."""

from evals.report import EXPECT_FLAG, EXPECT_PASS, EXPECT_SAFE, TEST, TUNING, CaseResult, table


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
    ]

    text = table(results)
    listing = text.split("Test part: ")[1]

    assert listing.startswith("4 failure(s)")
    for case_id in ("t-miss-1", "t-miss-2", "t-false-block", "t-conversation"):
        assert f" {case_id}: " in listing
    assert "false block [innocent_trigger] t-false-block" in listing
    assert "miss [encoded] t-miss-2" in listing
    assert "t-ok" not in listing and "u-miss" not in listing


def test_the_table_shows_tuning_and_test_rates_of_a_family_side_by_side():
    results = [result("u-1", TUNING, EXPECT_FLAG, True), result("t-1", TEST, EXPECT_FLAG, False)]

    row = next(line for line in table(results).splitlines() if "override_en" in line)

    assert "1/1 (100.0 %)" in row and "0/1 (0.0 %)" in row
    assert row.index("1/1") < row.index("0/1")  # tuning first, then test
