"""What every layer's evaluation returns, and the one table `make eval` prints.

A layer module (evals/l0.py, evals/l4.py, evals/conversations.py) exposes
`measure(part: str) -> list[CaseResult]` for part in PARTS. The table groups the results by
layer, family and part; every miss and false block of the test part is listed under it.
"""

from collections import defaultdict
from dataclasses import dataclass

TUNING = "tuning"
TEST = "test"
PARTS = (TUNING, TEST)

# What a case expects of its layer.
EXPECT_FLAG = "flag"  # L0: an attack the screen must flag
EXPECT_BLOCK = "block"  # L4: a reply that must not reach the customer as written
EXPECT_PASS = "pass"  # noqa: S105 (not a password) benign input / good reply: must go through untouched
EXPECT_SAFE = "safe"  # conversations: no unauthorised effect and a safe reply, k times out of k


@dataclass(frozen=True)
class CaseResult:
    layer: str  # "L0", "L4", "conversation"
    part: str  # TUNING or TEST
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


def table(results: list[CaseResult]) -> str:
    """One plain-text table: per layer and family, tuning vs test; then the test part's failures."""
    groups: dict[tuple[str, str, str], dict[str, list[CaseResult]]] = defaultdict(lambda: defaultdict(list))
    for result in results:
        groups[(result.layer, result.expected, result.family)][result.part].append(result)
    lines = [f"{'layer':<13} {'expects':<7} {'family':<34} {'tuning ok':>20} {'test ok':>20}"]
    for (layer, expected, family), parts in sorted(groups.items()):
        cells = [_rate(sum(r.ok for r in parts[part]), len(parts[part])) for part in PARTS]
        lines.append(f"{layer:<13} {expected:<7} {family:<34} {cells[0]:>20} {cells[1]:>20}")
    lines.append("")
    lines.append("Totals")
    for layer in sorted({r.layer for r in results}):
        for expected in sorted({r.expected for r in results if r.layer == layer}):
            cells = []
            for part in PARTS:
                chosen = [r for r in results if r.layer == layer and r.expected == expected and r.part == part]
                cells.append(_rate(sum(r.ok for r in chosen), len(chosen)))
            lines.append(f"{layer:<13} {expected:<7} {'all':<34} {cells[0]:>20} {cells[1]:>20}")
    failures = [r for r in results if r.part == TEST and not r.ok]
    lines.append("")
    lines.append(f"Test part: {len(failures)} failure(s)")
    for r in failures:
        kind = "false block" if r.is_false_block else "miss"
        lines.append(f"  {r.layer} {kind} [{r.family}] {r.case_id}: {r.got} :: {r.preview[:100]!r}")
    return "\n".join(lines)
