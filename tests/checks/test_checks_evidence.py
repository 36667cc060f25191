"""Evidence in review: each reported claim beside its evidence, unsupported parts marked."""

from __future__ import annotations

import shutil
from pathlib import Path

from checkhelp import REPORTED, body, complete_records, context
from click.testing import CliRunner

from generator.checks import Evidence
from generator.checks.evidence import claim_evidence, marked
from generator.cli import cli

REPO = Path(__file__).resolve().parents[2]


def test_each_claim_gets_its_evidence_sentence_and_marks() -> None:
    ctx = context()
    invented = "Custom low-precision kernels never doubled training efficiency on Slurm."
    items = claim_evidence(body(reported=[*REPORTED, invented]), ctx)
    assert [item.claim for item in items] == [*REPORTED, invented]
    assert all(item.verbatim and item.supported for item in items[:2])
    last = items[-1]
    assert "doubled end-to-end training efficiency" in last.evidence
    assert {(m.text, m.kind) for m in last.marks} >= {("never", "polarity"), ("Slurm", "term")}
    assert "⟦never⟧" in marked(last) and "⟦Slurm⟧" in marked(last)


def test_drafted_quote_is_the_evidence_of_its_statement() -> None:
    ctx = context()
    claim = "Meta says one model replaced its per-surface systems."
    quote = "Meta replaced separate per-surface ad prediction systems with GEM."
    [item] = claim_evidence(body(reported=[claim]), ctx, (Evidence(claim, quote),))
    assert item.evidence == quote and item.supported


def test_review_show_puts_claims_beside_their_evidence(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    shutil.copytree(REPO / "sources", root / "sources")
    shutil.copytree(REPO / "prompts", root / "prompts")
    shutil.copy(REPO / "prepguide.toml", root / "prepguide.toml")
    complete_records(root)
    runner = CliRunner()
    generated = runner.invoke(cli, ["--root", str(root), "generate", "--backend", "offline"])
    assert generated.exit_code == 0, generated.output
    path = root / "guides" / "meta-gem.md"
    text = path.read_text(encoding="utf-8")
    anchor = "Meta replaced separate per-surface"
    path.write_text(
        text.replace(anchor, f"The cluster runs on Slurm. {anchor}", 1), encoding="utf-8"
    )
    shown = runner.invoke(cli, ["--root", str(root), "review", "show", "meta-gem"])
    assert shown.exit_code == 0, shown.output
    assert "[CHECK] The cluster runs on ⟦Slurm⟧." in shown.output
    assert "[verbatim] Meta replaced separate per-surface" in shown.output
    assert "evidence: Meta replaced separate per-surface" in shown.output
