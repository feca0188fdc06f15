"""The guardrails' statistical scorers: linear models over hashed character n-grams and named signals.

The rules are precise but only know the phrasings their lists name; a scorer carries what the
corpora say about the rest. Two use it: L0 (guardrails/screening.py: is a customer's message an
attack?) and L4 (guardrails/output.py: does a reply engage a subject other than Bookly support?).
It is plain Python at run time: `features` turns texts and signal names into a sparse vector
(hashed 3-5 character n-grams, presence only, L2-normalised per text, short texts as if 60 n-grams
long; one unit feature per signal) and `Scorer.score` is the logistic function of its dot product
with the weights in a committed JSON file.

The weights are learned by scripts/train_l0.py and scripts/train_l4_scope.py (scikit-learn, fixed
seed) from each layer's tuning part and the test parts already measured, never from the unread test
part; pruned to the strongest features; thresholds are chosen there by cross-validation. Each file
records a checksum of the data it was trained on (tests/guardrails check it).
"""

import hashlib
import json
import math
import zlib
from collections.abc import Iterable
from functools import cached_property
from pathlib import Path

BUCKETS = 1 << 20
NGRAM_SIZES = (3, 4, 5)
# Long texts keep their first characters only: the score stays cheap for a 4000-character message.
MAX_CHARS = 2000
MIN_GRAMS = 60


def _bucket(token: str) -> int:
    # crc32, not hash(): the same token must land in the same bucket in every process.
    return zlib.crc32(token.encode("utf-8")) % BUCKETS


def _ngrams(text: str, prefix: str) -> set[int]:
    padded = f" {text[:MAX_CHARS]} "
    return {
        _bucket(prefix + padded[start : start + size])
        for size in NGRAM_SIZES
        for start in range(len(padded) - size + 1)
    }


def features(texts: dict[str, str], signals: Iterable[str]) -> dict[int, float]:
    """The sparse feature vector of one text.

    `texts` maps a prefix (L0: "t" for the normalised message, "d" for decoded payloads) to a text;
    each text's n-grams are L2-normalised apart, so a long text and a short one weigh alike.
    `signals` are names (the rules and weak signals that fired, the reply's intent).
    """
    vector: dict[int, float] = {}
    for prefix, text in texts.items():
        grams = _ngrams(text, f"{prefix}:") if text else set()
        if grams:
            # Normalised as if at least MIN_GRAMS were present: a one-word message ("no") would
            # otherwise weigh each of its few n-grams as much as a paragraph's whole text.
            value = 1 / math.sqrt(max(len(grams), MIN_GRAMS))
            for index in grams:
                vector[index] = vector.get(index, 0.0) + value
    for signal in signals:
        index = _bucket(f"s:{signal}")
        vector[index] = vector.get(index, 0.0) + 1.0
    return vector


class Scorer:
    """One committed model: {"bias", "weights": {bucket: weight}, "threshold", ...} in a JSON file."""

    def __init__(self, path: Path) -> None:
        self.path = path

    @cached_property
    def model(self) -> dict:
        data = json.loads(self.path.read_text(encoding="utf-8"))
        data["weights"] = {int(index): weight for index, weight in data["weights"].items()}
        return data

    def score(self, vector: dict[int, float]) -> float:
        """The probability-like score in [0, 1] the model gives this feature vector."""
        weights = self.model["weights"]
        total = self.model["bias"] + sum(value * weights.get(index, 0.0) for index, value in vector.items())
        return 1 / (1 + math.exp(-max(min(total, 50.0), -50.0)))

    def threshold(self, name: str = "threshold") -> float:
        """Scores at or above this pass the named threshold (chosen by cross-validation when trained)."""
        return self.model[name]


def training_checksum(cases: Iterable[tuple[str, str, str]]) -> str:
    """sha256 over the training cases (id, expectation, text), in order: the weights file records it."""
    digest = hashlib.sha256()
    for case in cases:
        digest.update(json.dumps(list(case), ensure_ascii=False).encode("utf-8"))
    return digest.hexdigest()
