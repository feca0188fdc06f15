"""Measure L0 screening on the corpora: false positives on ordinary messages, hits on injections.

Run from the repository root: `.venv/bin/python scripts/measure_l0.py`. Prints counts, rates and
every miss, and exits 0 (the thresholds are asserted by tests/guardrails/test_screening.py).
"""

import re
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from guardrails.screening import check_input  # noqa: E402 -- needs the path above when run as a script

DATA = ROOT / "tests" / "data"
BENIGN = DATA / "l0_benign.txt"
INJECTIONS = DATA / "l0_injections.txt"

_ESCAPE = re.compile(r"\\(?:u([0-9A-Fa-f]{4})|U([0-9A-Fa-f]{8})|(n)|(t)|(\\))")
_KIND = re.compile(r"^\[(\w+)\] ")


def _unescape(match: re.Match) -> str:
    short, long, newline, tab, _ = match.groups()
    if short or long:
        return chr(int(short or long, 16))
    return "\n" if newline else "\t" if tab else "\\"


def corpus_load(path: Path) -> list[tuple[str, str]]:
    """(kind, text) per line of a corpus; kind is "" when the line has no "[kind] " prefix."""
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("# "):
            continue
        kind_match = _KIND.match(line)
        kind = kind_match.group(1) if kind_match else ""
        body = line[kind_match.end() :] if kind_match else line
        rows.append((kind, _ESCAPE.sub(_unescape, body)))
    return rows


@dataclass(frozen=True)
class Measurement:
    benign: int
    false_positives: list[tuple[str, tuple[str, ...]]]
    injections: int
    misses: list[tuple[str, str]]
    by_kind: dict[str, tuple[int, int]]  # kind -> (hits, total)

    @property
    def false_positive_rate(self) -> float:
        return len(self.false_positives) / self.benign

    @property
    def hit_rate(self) -> float:
        return (self.injections - len(self.misses)) / self.injections


def measure() -> Measurement:
    """Screen both corpora."""
    false_positives = []
    for _, text in corpus_load(BENIGN):
        screening = check_input(text)
        if screening.suspicious:
            false_positives.append((text, screening.findings))
    misses = []
    totals: Counter[str] = Counter()
    hits: Counter[str] = Counter()
    injections = corpus_load(INJECTIONS)
    for kind, text in injections:
        totals[kind] += 1
        if check_input(text).suspicious:
            hits[kind] += 1
        else:
            misses.append((kind, text))
    return Measurement(
        benign=len(corpus_load(BENIGN)),
        false_positives=false_positives,
        injections=len(injections),
        misses=misses,
        by_kind={kind: (hits[kind], totals[kind]) for kind in totals},
    )


def main() -> int:
    result = measure()
    print(f"L0 benign messages:     {result.benign}")
    print(
        f"  flagged suspicious:   {len(result.false_positives)}  (false-positive rate {result.false_positive_rate:.1%})"
    )
    for text, findings in result.false_positives:
        print(f"    FP {', '.join(findings)}: {text!r}")
    print(f"L0 injection attempts:  {result.injections}")
    print(f"  caught:               {result.injections - len(result.misses)}  (hit rate {result.hit_rate:.1%})")
    for kind, (hit, total) in sorted(result.by_kind.items()):
        print(f"    {kind:<12} {hit}/{total}")
    for kind, text in result.misses:
        print(f"    MISS [{kind}] {text!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
