"""Replay the model-prose corpus (tests/modelprose/) through `prepguide generate --backend openai`.

Each draft set (the faithful drafts, or the n-th variant of every record) gets its own root
holding all corpus records in sources/. The fake OpenAI server answers each record (by its
Title) with the draft set's draft: on a re-ask it repeats that draft ("repeat") or answers with
the variant's corrected draft ("next"). Findings come from `prepguide check --json`, calls
from `prepguide logs --json`.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

CORPUS = Path(__file__).resolve().parent / "modelprose"
EPOCH = "1795996800"  # 2026-11-30T00:00:00Z, as the test suite pins it
MODEL = "gpt-4o-mini"
# The draft's keys and the guide sections that hold them.
SECTION_OF = {
    "reported": "reports",
    "angle": "interpretation",
    "interpretation": "interpretation",
    "case_study_title": "case_study",
    "case_study": "case_study",
    "steps": "practice",
}
# Stands for the drafter refusing a non-verbatim quote (see tests/modelprose/kinds.yaml).
DRAFTER_VERBATIM = "drafting.verbatim"
_WORD = re.compile(r"[\w%$.,'-]+")


@dataclass(frozen=True)
class Variant:
    name: str
    record: str
    kind: str
    section: str
    draft: dict
    corrected: dict
    held_out: bool


@dataclass
class Corpus:
    records: list[str]
    titles: dict[str, str]
    drafts: dict[str, dict]
    variants: list[Variant]
    kinds: dict[str, list[str]]
    held_out_records: set[str]


def load_corpus(root: Path = CORPUS) -> Corpus:
    """Read the corpus: records, faithful drafts, guide variants, the kind map, the split."""
    manifest = yaml.safe_load((root / "manifest.yaml").read_text(encoding="utf-8"))
    kinds = yaml.safe_load((root / "kinds.yaml").read_text(encoding="utf-8"))["guide_kinds"]
    held = manifest["held_out"]
    held_records, held_kinds = set(held["records"]), set(held["kinds"])
    titles = {}
    for record_id in manifest["records"]:
        data = yaml.safe_load((root / "records" / f"{record_id}.yaml").read_text("utf-8"))
        titles[record_id] = " ".join(str(data["title"]).split())
    drafts = {
        record_id: json.loads((root / "drafts" / f"{record_id}.json").read_text("utf-8"))
        for record_id in manifest["records"]
    }
    variants = []
    for path in sorted((root / "variants").glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        variants.append(
            Variant(
                name=path.stem,
                record=data["record"],
                kind=data["kind"],
                section=data["section"],
                draft=data["draft"],
                corrected=data["corrected"],
                held_out=data["record"] in held_records or data["kind"] in held_kinds,
            )
        )
    return Corpus(manifest["records"], titles, drafts, variants, kinds, held_records)


def rounds(variants: Iterable[Variant]) -> list[dict[str, Variant]]:
    """Group variants into draft sets holding at most one variant per record."""
    sets: list[dict[str, Variant]] = []
    for variant in variants:
        for draft_set in sets:
            if variant.record not in draft_set:
                draft_set[variant.record] = variant
                break
        else:
            sets.append({variant.record: variant})
    return sets


def make_root(path: Path, corpus_root: Path = CORPUS) -> Path:
    """Create a root whose sources/ holds every corpus record."""
    sources = path / "sources"
    sources.mkdir(parents=True)
    for record in sorted((corpus_root / "records").glob("*.yaml")):
        shutil.copy(record, sources / record.name)
    return path


def cli_env(base_url: str) -> dict[str, str]:
    """Return the environment that sends `prepguide` to the fake server."""
    env = {k: v for k, v in os.environ.items() if not k.lower().endswith("_proxy")}
    env.update(
        OPENAI_API_KEY="sk-test-dummy",
        OPENAI_BASE_URL=base_url,
        PREPGUIDE_MODEL=MODEL,
        SOURCE_DATE_EPOCH=EPOCH,
    )
    return env


def prepguide(root: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    """Run the CLI on a root, as a user would."""
    return subprocess.run(
        [sys.executable, "-m", "generator", "--root", str(root), *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )


@dataclass
class Replay:
    """What one draft set did: findings per written guide, failures, LLM calls per guide."""

    root: Path
    findings: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    failed: dict[str, str] = field(default_factory=dict)
    calls: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    provenance: dict[str, dict[str, Any]] = field(default_factory=dict)

    def errors(self, guide_id: str) -> list[dict[str, Any]]:
        return [f for f in self.findings.get(guide_id, []) if f["severity"] == "error"]

    def reasks(self, guide_id: str) -> int:
        return sum(1 for call in self.calls.get(guide_id, []) if call["attempt"] > 1)

    def tokens(self, guide_id: str) -> int:
        calls = self.calls.get(guide_id, [])
        return sum(call["prompt_tokens"] + call["completion_tokens"] for call in calls)


def _front_matter(path: Path) -> dict[str, Any]:
    text = path.read_text(encoding="utf-8")
    if not text.startswith("---\n"):
        return {}
    head = text[4 : text.find("\n---", 4)]
    return yaml.safe_load(head) or {}


def replay(
    server: Any,
    root: Path,
    titles: dict[str, str],
    answers: dict[str, list[dict]],
    reask: str = "repeat",
) -> Replay:
    """Generate the guides of `answers` (record id -> drafts) through the fake server; check."""
    server.answer_records({titles[rid]: drafts for rid, drafts in answers.items()}, reask)
    env = cli_env(server.base_url)
    ids = sorted(answers)
    done = prepguide(root, env, "generate", *ids, "--backend", "openai", "--concurrency", "8")
    result = Replay(root)
    written = [rid for rid in ids if (root / "guides" / f"{rid}.md").is_file()]
    for rid in ids:
        if rid not in written:
            lines = [ln for ln in (done.stdout + done.stderr).splitlines() if rid in ln]
            result.failed[rid] = " ".join(" ".join(lines).split()) or f"exit {done.returncode}"
    if written:
        checked = prepguide(root, env, "check", "--json", *written)
        for guide in json.loads(checked.stdout)["guides"]:
            result.findings[guide["id"]] = guide["findings"]
        for rid in written:
            result.provenance[rid] = _front_matter(root / "guides" / f"{rid}.md").get(
                "provenance", {}
            )
    logs = prepguide(root, env, "logs", "--json", "-n", "100000")
    for call in json.loads(logs.stdout)["calls"] if logs.returncode == 0 else []:
        result.calls.setdefault(call["guide_id"], []).append(call)
    return result


def related(rule: str, families: Iterable[str]) -> bool:
    """True when a rule id belongs to one of the prefixes allowed to catch an error."""
    return any(
        rule == f.rstrip(".") or rule.startswith(f if f.endswith(".") else f + ".")
        for f in families
    )


def _sentences(value: Any) -> list[str]:
    if isinstance(value, list):
        return [s for item in value for s in _sentences(item)]
    if isinstance(value, dict):
        return [s for item in value.values() for s in _sentences(item)]
    return re.split(r"(?<=[.!?])\s+", str(value))


def changed_sentences(variant: Variant, faithful: dict) -> list[str]:
    """Return the sentences of the variant's section that the faithful draft does not have."""
    before = set(_sentences(faithful.get(variant.section, "")))
    return [s for s in _sentences(variant.draft.get(variant.section, "")) if s not in before]


def names_sentence(message: str, sentences: list[str], run: int = 4) -> bool:
    """True when a message quotes `run` consecutive words of one of the sentences."""
    text = " ".join(_WORD.findall(message.lower()))
    for sentence in sentences:
        words = _WORD.findall(sentence.lower())
        for start in range(max(1, len(words) - run + 1)):
            if " ".join(words[start : start + run]) in text:
                return True
    return False


def _key(finding: dict[str, Any]) -> tuple[str, str, str]:
    return finding["rule"], finding.get("section") or "", finding["message"]


def new_errors(variant: Variant, faithful: dict, base: Replay, run: Replay) -> list[dict]:
    """Error findings on the variant that the faithful draft lacked, in its section or sentence."""
    seen = {_key(f) for f in base.errors(variant.record)}
    section = SECTION_OF.get(variant.section, variant.section)
    changed = changed_sentences(variant, faithful)
    return [
        f
        for f in run.errors(variant.record)
        if _key(f) not in seen
        and (f.get("section") == section or names_sentence(f["message"], changed))
    ]


def catching_rules(
    variant: Variant, families: list[str], faithful: dict, base: Replay, run: Replay
) -> list[str]:
    """Return the mapped rules that caught the variant (the drafter's refusal counts too)."""
    if variant.record in run.failed:
        reason = run.failed[variant.record]
        rules = [DRAFTER_VERBATIM] if "verbatim" in reason else ["drafting.failed"]
        return [r for r in rules if related(r, families)]
    found = new_errors(variant, faithful, base, run)
    return sorted({f["rule"] for f in found if related(f["rule"], families)})
