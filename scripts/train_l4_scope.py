"""Train L4's scope scorer and write guardrails/scope_weights.json.

    .venv/bin/python scripts/train_l4_scope.py            # cross-validate, then train and write the weights
    .venv/bin/python scripts/train_l4_scope.py --check    # exit 1 unless the committed weights are reproduced

The question: does a reply engage a subject other than Bookly support (a recipe, a reading tip, the
weather in Lisbon)? Off-topic word lists did not transfer to text nobody here wrote, so the scorer
learns it from the replies of the L4 corpora (evals.l4.training_cases: the tuning part and the test
parts already measured; never the unread test part). A reply of the family off_topic_engagement is
positive; every other reply, good or bad, is support talk. It reads the reply with the thread's
titles, authors, order numbers and digits masked (guardrails.output.scope_features).

Cross-validation holds out whole writers (the id prefix of a part), never single replies, so the
held-out figures are those of a writer the scorer has not read. Thresholds, on those held-out scores,
each the lowest at which at most that share of the good replies score at or above it: "sure"
(MAX_SURE_FALSE_BLOCKS: the scorer blocks on its own), "block" (MAX_FALSE_BLOCKS: it blocks a reply
the rules find a sentence about another subject in) and "flag" (MAX_FLAGS: the reply goes through and
staff review the thread); guardrails.output._with_scope_score applies them. scikit-learn is needed
here only, never at run time: `pip install -r requirements-train.txt`.
"""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
import numpy as np  # noqa: E402
from sklearn.model_selection import GroupKFold  # noqa: E402

from evals.l4 import case_intent, case_scope_features, training_cases  # noqa: E402
from guardrails import linear_scorer  # noqa: E402
from guardrails.output import SCOPE_SCORER  # noqa: E402
from scripts import scorer_training  # noqa: E402

SEED = 20261127
OFF_TOPIC = "off_topic_engagement"
MAX_FALSE_BLOCKS = 0.0015
MAX_SURE_FALSE_BLOCKS = 0.0002  # one good reply in 5,000 the scorer has not read: no single outlier sets it
MAX_FLAGS = 0.01
SERVER_RENDERED = ("out_of_scope", "handoff")  # the server replaces these replies; no check reads them


def _lowest_threshold(scores: np.ndarray, good: np.ndarray, share: float) -> float:
    """The lowest threshold at which at most `share` of the good replies score at or above it."""
    return scorer_training.threshold_above(scores[good], int(share * good.sum()))


def _report(name: str, passed: np.ndarray, labels: np.ndarray, good: np.ndarray) -> str:
    off_topic = labels == 1
    return (
        f"{name}: off-topic {passed[off_topic].sum()}/{off_topic.sum()} ({100 * passed[off_topic].mean():.1f} %), "
        f"good replies {passed[good].sum()}/{good.sum()} ({100 * passed[good].mean():.2f} %)"
    )


def train(*, verbose: bool = True) -> dict:
    """Cross-validate by writer, choose the thresholds, fit on all training cases; the weights file's content."""
    cases = training_cases()
    labels = np.array([int(case["family"] == OFF_TOPIC) for case in cases])
    # Good replies the check reads: what a threshold must not block.
    good = np.array([case["expect"] == "pass" and case_intent(case) not in SERVER_RENDERED for case in cases])
    writers = np.array([case["id"].split("-")[0] for case in cases])
    vectors = [case_scope_features(case) for case in cases]

    out_of_fold = np.zeros(len(cases))
    for fold, (train_rows, held_rows) in enumerate(
        GroupKFold(n_splits=scorer_training.FOLDS).split(vectors, labels, writers), 1
    ):
        bias, weights = scorer_training.fit([vectors[i] for i in train_rows], labels[train_rows], seed=SEED)
        out_of_fold[held_rows] = scorer_training.scores(bias, weights, [vectors[i] for i in held_rows])
        if verbose:
            held = ", ".join(sorted(set(writers[held_rows])))
            print(f"fold {fold}: fitted on {len(train_rows)} replies, scored {len(held_rows)} of writers {held}")
    sure = scorer_training.rounded_up(_lowest_threshold(out_of_fold, good, MAX_SURE_FALSE_BLOCKS))
    block = scorer_training.rounded_up(_lowest_threshold(out_of_fold, good, MAX_FALSE_BLOCKS))
    flag = scorer_training.rounded_up(_lowest_threshold(out_of_fold, good, MAX_FLAGS))
    if verbose:
        print(
            f"\n{scorer_training.FOLDS}-fold cross-validation by writer (held-out scores): "
            f"sure at {sure}, block at {block}, flag at {flag}"
        )
        print(_report("  at sure ", out_of_fold >= sure, labels, good))
        print(_report("  at block", out_of_fold >= block, labels, good))
        print(_report("  at flag ", out_of_fold >= flag, labels, good))

    bias, weights = scorer_training.fit(vectors, labels, seed=SEED)
    return scorer_training.weights_file(
        about="L4 scope scorer weights, written by scripts/train_l4_scope.py from evals.l4.training_cases; "
        "do not edit by hand.",
        checksum=linear_scorer.training_checksum((case["id"], case["family"], case["reply"]) for case in cases),
        cases=len(cases),
        seed=SEED,
        thresholds={"sure": sure, "block": block, "flag": flag},
        bias=bias,
        weights=weights,
    )


if __name__ == "__main__":
    sys.exit(scorer_training.run(__doc__.splitlines()[0], train, SCOPE_SCORER.path, ROOT))
