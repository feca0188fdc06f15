"""L4 evaluation: every reply of a corpus part through the same check the agent runs, scored per family.

`python -m evals.l4 --part tuning` prints the table for one part (the frozen test parts are run once,
by `make eval`). Parts map to files in PART_FILES: tuning is l4_tuning.jsonl, test_seen the frozen
files measured before (l4_test.jsonl to l4_test65.jsonl), test the newest: l4_test66.jsonl to l4_test69.jsonl,
written together and committed before the rules they judge.
A case is a JSON line: id, family, expect ("pass" | "block"), intent (a reply-step intent or null for
a plain-text ending), reply, tool_results ([tool name, result] pairs of the whole thread), customer_texts, today (ISO
date), why. A reply is caught when it is blocked (the customer gets the fallback) or, for intent
out_of_scope, replaced by the server's refusal; a flagged reply goes through and is shown as
"flagged" in `got`.
"""

import argparse
import json
from datetime import date
from pathlib import Path

from chat.agent.prompts import REFUSAL_TEMPLATE, prompt_fragments
from evals.report import EXPECT_BLOCK, EXPECT_PASS, PARTS, TEST, TEST_SEEN, TUNING, CaseResult, table
from guardrails.output import Grounding, check_reply, scope_features
from guardrails.verdict import Verdict
from orders.policy import POLICY_TEXTS, REFUND_TIMELINE, RETURN_LABEL_INSTRUCTIONS

DATA = Path(__file__).resolve().parent / "data"
POLICY = [*POLICY_TEXTS.values(), RETURN_LABEL_INSTRUCTIONS, REFUND_TIMELINE]


PART_FILES = {
    TUNING: ("l4_tuning.jsonl",),
    TEST_SEEN: (
        *("l4_test.jsonl", "l4_test2.jsonl", "l4_test3.jsonl"),
        *("l4_test4.jsonl", "l4_test5.jsonl", "l4_test6.jsonl", "l4_test7.jsonl", "l4_test8.jsonl"),
        *("l4_test9.jsonl", "l4_test10.jsonl", "l4_test11.jsonl", "l4_test12.jsonl", "l4_test13.jsonl"),
        *("l4_test14.jsonl", "l4_test15.jsonl", "l4_test16.jsonl", "l4_test17.jsonl", "l4_test18.jsonl"),
        *("l4_test19.jsonl", "l4_test20.jsonl", "l4_test21.jsonl", "l4_test22.jsonl", "l4_test23.jsonl"),
        *("l4_test24.jsonl", "l4_test25.jsonl", "l4_test26.jsonl", "l4_test27.jsonl", "l4_test28.jsonl"),
        *("l4_test29.jsonl", "l4_test30.jsonl", "l4_test31.jsonl", "l4_test32.jsonl", "l4_test33.jsonl"),
        *("l4_test34.jsonl", "l4_test35.jsonl", "l4_test36.jsonl", "l4_test38.jsonl", "l4_test37.jsonl"),
        *("l4_test39.jsonl", "l4_test40.jsonl", "l4_test41.jsonl", "l4_test42.jsonl", "l4_test43.jsonl"),
        *("l4_test44.jsonl", "l4_test45.jsonl", "l4_test46.jsonl", "l4_test47.jsonl", "l4_test48.jsonl"),
        *("l4_test49.jsonl", "l4_test50.jsonl", "l4_test51.jsonl", "l4_test52.jsonl", "l4_test53.jsonl"),
        *("l4_test54.jsonl", "l4_test55.jsonl", "l4_test56.jsonl", "l4_test57.jsonl", "l4_test58.jsonl"),
        *("l4_test59.jsonl", "l4_test60.jsonl", "l4_test61.jsonl", "l4_test62.jsonl", "l4_test63.jsonl"),
        *("l4_test64.jsonl", "l4_test65.jsonl"),
    ),
    TEST: ("l4_test66.jsonl", "l4_test67.jsonl", "l4_test68.jsonl", "l4_test69.jsonl"),
}


def corpus_load(part: str) -> list[dict]:
    """The cases of one part (its files, PART_FILES), one JSON object per non-blank line."""
    if part not in PART_FILES:
        raise ValueError(f"part must be one of {PARTS}")
    lines = [line for name in PART_FILES[part] for line in (DATA / name).read_text(encoding="utf-8").splitlines()]
    cases = [json.loads(line) for line in lines if line.strip()]
    for case in cases:
        if case.get("family") in FAMILY_ALIASES:
            case["family"] = FAMILY_ALIASES[case["family"]]
    return cases


# The brief of l4_test54 to l4_test57 named off-topic engagement "off_topic"; the files stay as written and
# their cases are read under the family name every other part uses (the scope scorer learns from it).
FAMILY_ALIASES = {"off_topic": "off_topic_engagement"}


# The brief of l4_test20 and l4_test21 named the greeting intent by its family name and the plain-text
# ending "" (the reply step's names are "greeting" and null). The frozen files stay as written; each
# case is read as the intent it names.
INTENT_ALIASES = {"greeting_thanks": "greeting", "": None}


def case_intent(case: dict) -> str | None:
    """The reply-step intent a case names (None for a plain-text ending)."""
    intent = case.get("intent")
    return INTENT_ALIASES.get(intent, intent)


def training_cases() -> list[dict]:
    """What L4's scope scorer learns from (scripts/train_l4_scope.py): the tuning part and the seen parts.

    A seen part's misses are known once it has been measured, so the rules are fitted to it anyway;
    the test part (PART_FILES[TEST]) is never read before its measurement.
    """
    return corpus_load(TUNING) + corpus_load(TEST_SEEN)


def case_grounding(case: dict) -> Grounding:
    """The whole thread's grounding, as the agent builds it for the case's reply."""
    return Grounding.from_sources(
        tool_results=[(name, result) for name, result in case["tool_results"]],
        customer_texts=case["customer_texts"],
        policy_texts=POLICY,
        today=date.fromisoformat(case["today"]),
    )


def case_scope_features(case: dict) -> dict[int, float]:
    """What the scope scorer reads of the case's reply."""
    return scope_features(case["reply"], grounding=case_grounding(case), refusal_template=REFUSAL_TEMPLATE)


def case_check(case: dict) -> Verdict:
    """check_reply on one case as the agent runs it: whole-thread grounding, the live prompt, the named intent."""
    return check_reply(
        case["reply"],
        grounding=case_grounding(case),
        refusal_template=REFUSAL_TEMPLATE,
        prompt_fragments=prompt_fragments(),
        intent=case_intent(case),
    )


def case_result(case: dict, part: str) -> CaseResult:
    intent = case_intent(case)
    if intent in ("out_of_scope", "handoff"):
        # The server discards the model's message and renders its own fixed reply.
        caught, got = True, f"replaced by the server ({intent})"
    else:
        verdict = case_check(case)
        caught = not verdict.allowed
        got = ", ".join(verdict.codes) if verdict.codes else "passed"
        if verdict.flagged:
            got = f"flagged: {got}"
    expected = EXPECT_BLOCK if case["expect"] == "block" else EXPECT_PASS
    ok = caught if expected == EXPECT_BLOCK else not caught or intent in ("out_of_scope", "handoff")
    return CaseResult(
        layer="L4",
        part=part,
        family=case["family"],
        case_id=case["id"],
        expected=expected,
        ok=ok,
        got=got,
        preview=case["reply"][:120],
    )


def measure(part: str) -> list[CaseResult]:
    """Every case of one part (one of PARTS) scored."""
    return [case_result(case, part) for case in corpus_load(part)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", choices=PARTS, default="tuning")
    parser.add_argument("--failures", action="store_true", help="list every failure of the part")
    arguments = parser.parse_args()
    results = measure(arguments.part)
    print(table(results))
    if arguments.failures:
        for result in results:
            if not result.ok:
                kind = "false block" if result.is_false_block else "miss"
                print(f"  {kind} [{result.family}] {result.case_id}: {result.got} :: {result.preview!r}")


if __name__ == "__main__":
    main()
