"""Measure L4 output validation on the corpora: false rejections of good replies, catches of bad ones.

Run from the repository root: `.venv/bin/python scripts/measure_l4.py`. Each corpus line is a
JSON object: "reply", "tool_results" ([tool name, result] pairs of the whole thread),
"customer_texts", "today" (ISO date), an optional "note", and for bad replies "expect" (the
violation code the reply must get). Prints counts, rates and every miss; exits 0 (the
thresholds are asserted by tests/guardrails/test_output.py).
"""

import json
import sys
from collections import Counter
from dataclasses import dataclass
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from chat.prompts import REFUSAL_TEMPLATE, prompt_fragments  # noqa: E402 -- needs the path above
from guardrails.output import Grounding, check_reply  # noqa: E402
from guardrails.verdict import Verdict  # noqa: E402
from orders.policy import POLICY_TEXTS  # noqa: E402

DATA = ROOT / "tests" / "data"
GOOD = DATA / "l4_good.jsonl"
BAD = DATA / "l4_bad.jsonl"


def corpus_load(path: Path) -> list[dict]:
    """The JSON objects of a .jsonl corpus, one per non-blank line."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def case_check(case: dict) -> Verdict:
    """Run check_reply on one corpus case the way the agent will: whole-thread grounding, live prompt."""
    grounding = Grounding.from_sources(
        tool_results=[(name, result) for name, result in case["tool_results"]],
        customer_texts=case["customer_texts"],
        policy_texts=list(POLICY_TEXTS.values()),
        today=date.fromisoformat(case["today"]),
    )
    return check_reply(
        case["reply"], grounding=grounding, refusal_template=REFUSAL_TEMPLATE, prompt_fragments=prompt_fragments()
    )


@dataclass(frozen=True)
class Measurement:
    good: int
    false_rejections: list[tuple[dict, Verdict]]
    bad: int
    misses: list[tuple[dict, Verdict]]  # allowed, or refused without the expected code
    by_code: dict[str, tuple[int, int]]  # expected code -> (caught, total)
    tools_covered: frozenset[str]

    @property
    def false_positive_rate(self) -> float:
        return len(self.false_rejections) / self.good

    @property
    def hit_rate(self) -> float:
        return (self.bad - len(self.misses)) / self.bad


def measure() -> Measurement:
    """Check both corpora."""
    good_cases, bad_cases = corpus_load(GOOD), corpus_load(BAD)
    false_rejections = [(case, verdict) for case in good_cases if not (verdict := case_check(case)).allowed]
    misses = []
    totals: Counter[str] = Counter()
    caught: Counter[str] = Counter()
    for case in bad_cases:
        verdict = case_check(case)
        totals[case["expect"]] += 1
        if not verdict.allowed and case["expect"] in verdict.codes:
            caught[case["expect"]] += 1
        else:
            misses.append((case, verdict))
    tools = frozenset(name for case in good_cases + bad_cases for name, _ in case["tool_results"])
    return Measurement(
        good=len(good_cases),
        false_rejections=false_rejections,
        bad=len(bad_cases),
        misses=misses,
        by_code={code: (caught[code], totals[code]) for code in totals},
        tools_covered=tools,
    )


def main() -> int:
    result = measure()
    print(f"L4 good replies:        {result.good}")
    print(
        f"  rejected:             {len(result.false_rejections)}  "
        f"(false-positive rate {result.false_positive_rate:.1%})"
    )
    for case, verdict in result.false_rejections:
        print(f"    FP {verdict.detail}: {case['reply']!r}")
    print(f"L4 bad replies:         {result.bad}")
    print(f"  caught (right code):  {result.bad - len(result.misses)}  (hit rate {result.hit_rate:.1%})")
    for code, (hit, total) in sorted(result.by_code.items()):
        print(f"    {code:<28} {hit}/{total}")
    for case, verdict in result.misses:
        got = verdict.detail or "allowed"
        print(f"    MISS expected {case['expect']}, got {got}: {case['reply']!r}")
    print(f"  tools covered:        {', '.join(sorted(result.tools_covered))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
