"""What scripts/train_l0.py and scripts/train_l4_scope.py share: fitting a guardrails.linear_scorer model.

scikit-learn is needed here only, never at run time: `pip install -r requirements-train.txt`.
"""

import argparse
import json
from collections.abc import Callable
from pathlib import Path

import numpy as np
from scipy.sparse import csr_matrix
from sklearn.linear_model import LogisticRegression

from guardrails import linear_scorer

DIGITS = 5  # weights and thresholds are rounded, so the committed file is small and reproducible
FOLDS = 5  # cross-validation folds for the held-out scores the thresholds are chosen on
KEPT_FEATURES = 6000  # the strongest weights kept: a small file, plain-Python inference
REGULARISATION_C = 4.0


def matrix(vectors: list[dict[int, float]], columns: dict[int, int] | None = None) -> csr_matrix:
    """Sparse rows over all buckets, or over the kept `columns` ({bucket: column}) only."""
    rows, cols, values = [], [], []
    for row, vector in enumerate(vectors):
        for index, value in sorted(vector.items()):
            column = index if columns is None else columns.get(index)
            if column is not None:
                rows.append(row)
                cols.append(column)
                values.append(value)
    width = linear_scorer.BUCKETS if columns is None else len(columns)
    return csr_matrix((values, (rows, cols)), shape=(len(vectors), width))


def fit(vectors: list[dict[int, float]], labels: np.ndarray, *, seed: int) -> tuple[float, dict[int, float]]:
    """(bias, {bucket: weight}) of a logistic regression fitted on all buckets, then refitted on the
    KEPT_FEATURES strongest ones (classes balanced)."""
    full = LogisticRegression(C=REGULARISATION_C, max_iter=5000, random_state=seed, class_weight="balanced")
    full.fit(matrix(vectors), labels)
    strongest = np.argsort(-np.abs(full.coef_[0]), kind="stable")[:KEPT_FEATURES]
    columns = {index: column for column, index in enumerate(sorted(int(i) for i in strongest if full.coef_[0][i] != 0))}
    pruned = LogisticRegression(C=REGULARISATION_C, max_iter=5000, random_state=seed, class_weight="balanced")
    pruned.fit(matrix(vectors, columns), labels)
    weights = {index: round(float(pruned.coef_[0][column]), DIGITS) for index, column in columns.items()}
    return round(float(pruned.intercept_[0]), DIGITS), {index: weight for index, weight in weights.items() if weight}


def scores(bias: float, weights: dict[int, float], vectors: list[dict[int, float]]) -> np.ndarray:
    """What linear_scorer.Scorer.score gives each vector under these weights."""
    totals = [bias + sum(value * weights.get(index, 0.0) for index, value in vector.items()) for vector in vectors]
    return 1 / (1 + np.exp(-np.clip(totals, -50, 50)))


def rounded_up(threshold: float) -> float:
    """Rounded up, so the committed threshold passes nothing the exact one would not."""
    return float(np.ceil(threshold * 10**DIGITS) / 10**DIGITS)


def threshold_above(negative_scores: np.ndarray, allowed: int) -> float:
    """The lowest threshold that at most `allowed` of these scores (of lines that must not pass) reach:
    strictly above the (allowed+1)-th highest; 0.5 when there are no more than `allowed` of them."""
    highest = np.sort(negative_scores)[::-1]
    return float(min(1.0, np.nextafter(highest[allowed], 2))) if allowed < len(highest) else 0.5


def weights_file(
    *, about: str, checksum: str, cases: int, seed: int, thresholds: dict[str, float], bias: float, weights: dict
) -> dict:
    """The content of a committed weights file (guardrails.linear_scorer.Scorer reads it)."""
    return {
        "about": about,
        "training_data_sha256": checksum,
        "training_cases": cases,
        "seed": seed,
        "folds": FOLDS,
        "buckets": linear_scorer.BUCKETS,
        "ngram_sizes": list(linear_scorer.NGRAM_SIZES),
        **thresholds,
        "bias": bias,
        "weights": {str(index): weight for index, weight in sorted(weights.items())},
    }


def run(description: str, train: Callable[..., dict], path: Path, root: Path) -> int:
    """A training script's command line: train and write the weights file, or with --check only compare a
    fresh training run with the committed file; the exit status."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--check", action="store_true", help="only compare with the committed weights")
    check = parser.parse_args().check
    built = train(verbose=not check)
    if check:
        same = json.loads(path.read_text(encoding="utf-8")) == built
        print("committed weights reproduced" if same else "committed weights differ from a fresh training run")
        return 0 if same else 1
    path.write_text(json.dumps(built, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"\nWritten {path.relative_to(root)}: {len(built['weights'])} weights, {path.stat().st_size} bytes")
    return 0
