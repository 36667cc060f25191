"""The offline drafter: deterministic, playbook-driven, and never adds a figure."""

from __future__ import annotations

import random
import re
import shutil
import subprocess
import sys
from datetime import date
from pathlib import Path

import pytest
import yaml

from generator.drafting.playbook import load_playbook
from generator.guides.document import SECTION_ORDER, parse, split_sections
from generator.sources.records import load_sources

REPO = Path(__file__).resolve().parents[2]
TODAY = date(2026, 11, 30)
COMPANIES = ["Acme", "Globex", "Initech", "Umbrella", "Hooli", "Stark Industries", "Wayne Tech"]
FALLBACK_TAGS = ["payments", "mobile releases", "compilers", "accessibility", "data contracts"]
SENTENCES = [
    "{c} cut p99 latency by {pct}% after moving hot keys to a write-back cache.",
    "The new pipeline processes {big} events a day, a {mult}x improvement over the old one.",
    "Throughput rose from {n1} to {n2} requests per second on the same hardware.",
    "Training ran on {lo}-{hi} GPUs for {days} days with {pct}% utilisation.",
    "Costs fell by roughly ${money} million a year once idle capacity was reclaimed.",
    "Error rates dropped from {dec}% to {dec2}% across {regions} regions.",
    "The team sharded the index into {n1} partitions of about {size} GB each.",
    "Engineers rewrote the scheduler so that deploys no longer block on reviews.",
    "Each model version is shadowed for a week before it takes production traffic.",
    "A {mult}x larger batch size kept accuracy within {dec}% of the baseline.",
]
SCALE = [
    "{big} daily events",
    "{lo}-{hi}% lower cost",
    "{mult}x faster builds",
    "~{n1} services",
    "{n2,} customers",
    "{size}K QPS at peak",
]


def _numbers(rng: random.Random) -> dict[str, str]:
    lo = rng.randint(8, 400)
    return {
        "pct": str(rng.randint(3, 97)),
        "big": f"{rng.randint(2, 900)} {rng.choice(['million', 'billion', 'thousand'])}",
        "mult": rng.choice(["1.5", "2", "2.5", "3", "4", "10"]),
        "n1": str(rng.randint(11, 9000)),
        "n2": str(rng.randint(9001, 90000)),
        "n2,": f"{rng.randint(1, 999)},{rng.randint(100, 999)}",
        "lo": str(lo),
        "hi": str(lo + rng.randint(5, 300)),
        "days": str(rng.randint(2, 120)),
        "money": f"{rng.randint(1, 40)}.{rng.randint(1, 9)}",
        "dec": f"{rng.randint(0, 9)}.{rng.randint(1, 99)}",
        "dec2": f"0.{rng.randint(1, 9)}{rng.randint(1, 9)}",
        "regions": str(rng.randint(2, 40)),
        "size": str(rng.randint(12, 512)),
    }


def _fill(template: str, values: dict[str, str], company: str) -> str:
    text = template.replace("{c}", company)
    for key in sorted(values, key=len, reverse=True):
        text = text.replace("{" + key + "}", values[key])
    return text


def synthetic_records(count: int, lesson_tags: list[list[str]]) -> list[dict]:
    """Return varied records: every playbook lesson and the fallback get several."""
    rng = random.Random(20261130)
    records = []
    for number in range(count):
        company = COMPANIES[number % len(COMPANIES)]
        values = _numbers(rng)
        lesson = number % (len(lesson_tags) + 1)
        pool = lesson_tags[lesson] if lesson < len(lesson_tags) else FALLBACK_TAGS
        tags = rng.sample(pool, k=min(len(pool), rng.randint(1, 3)))
        summary = " ".join(
            _fill(t, values, company) for t in rng.sample(SENTENCES, k=rng.randint(1, 5))
        )
        record = {
            "company": company,
            "title": f"{company} engineering note {number}",
            "published": f"2026-{rng.randint(1, 10):02d}-{rng.randint(1, 28):02d}",
            "summary": summary,
            "techniques": tags[:1] + ["platform work"],
            "stack": tags[1:],
        }
        if rng.random() < 0.5:
            record["scale"] = [_fill(t, values, company) for t in rng.sample(SCALE, k=2)]
        if rng.random() < 0.4:
            record["notes"] = _fill(rng.choice(SENTENCES), _numbers(rng), company)
        if rng.random() < 0.5:
            record["url"] = f"https://{company.split()[0].lower()}.example/posts/{number}"
            record["checked"] = "2026-11-01"
        records.append(record)
    return records


# Number-like tokens: digits with their separators and units, and words that state a figure.
DIGITS = re.compile(r"\d+(?:[.,]\d+)*")
WITH_UNIT = re.compile(r"\d+(?:[.,]\d+)*\s?(?:%|x\b|×|[KMGB]\b|GB\b)")
FIGURE_WORDS = re.compile(
    r"\b(?:hundreds?|thousands?|millions?|billions?|trillions?|dozens?|double[sd]?|twice|"
    r"triple[sd]?|half|halved|quadrupled|percent)\b",
    re.IGNORECASE,
)


def unsupported_figures(guide_text: str, source_text: str) -> list[str]:
    """Return every number-like token of guide_text that source_text does not contain."""
    missing = []
    for token in DIGITS.findall(guide_text):
        if not re.search(rf"(?<![\d.,]){re.escape(token)}(?![\d])", source_text):
            missing.append(token)
    missing += [t for t in WITH_UNIT.findall(guide_text) if t not in source_text]
    lowered = source_text.casefold()
    missing += [w for w in FIGURE_WORDS.findall(guide_text) if w.casefold() not in lowered]
    return missing


def test_the_extractor_catches_added_figures() -> None:
    source = "Acme cut latency by 40% across 12 regions, serving 3 billion events."
    assert unsupported_figures("Acme cut latency by 40% in 12 regions.", source) == []
    assert unsupported_figures("Acme cut latency by 45%.", source) == ["45", "45%"]
    assert unsupported_figures("It doubled throughput to 1.5x.", source) == [
        "1.5",
        "1.5x",
        "doubled",
    ]
    assert unsupported_figures("about 4 billion", source) == ["4"]
    assert unsupported_figures("millions of users", source) == ["millions"]


def body_outside_originals(body: str) -> str:
    preamble, sections = split_sections(body)
    kept = [preamble] + [f"{s.heading}\n{s.text}" for s in sections if s.key != "originals"]
    return "\n".join(kept)


def run_cli(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "generator", "--root", str(root), *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


def make_root(root: Path, records: list[dict]) -> Path:
    (root / "sources").mkdir(parents=True)
    shutil.copytree(REPO / "prompts", root / "prompts")
    shutil.copy(REPO / "prepguide.toml", root / "prepguide.toml")
    for number, record in enumerate(records):
        text = yaml.safe_dump(record, sort_keys=False, allow_unicode=True)
        (root / "sources" / f"note-{number:03d}.yaml").write_text(text, encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def synthetic(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A root of 100 synthetic records with their offline guides generated."""
    monkeypatch = pytest.MonkeyPatch()
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1795996800")
    playbook, _ = load_playbook(REPO / "prompts")
    records = synthetic_records(100, [lesson.match for lesson in playbook.lessons])
    root = make_root(tmp_path_factory.mktemp("synthetic"), records)
    result = run_cli(root, "generate", "--backend", "offline")
    monkeypatch.undo()
    assert result.returncode == 0, result.stderr
    assert "generated 100, skipped 0 unchanged, failed 0" in result.stdout
    return root


def test_no_guide_of_100_varied_records_adds_a_figure(synthetic: Path) -> None:
    sources = load_sources(synthetic / "sources", TODAY)
    assert len(sources.sources) == 100 and sources.problems == []
    offenders = {}
    for source in sources.sources:
        doc = parse((synthetic / "guides" / f"{source.key}.md").read_text(encoding="utf-8"))
        extra = unsupported_figures(body_outside_originals(doc.body), source.source_text)
        if extra:
            offenders[source.key] = extra
    assert offenders == {}


def test_the_figures_module_agrees_that_no_figure_was_added(synthetic: Path) -> None:
    figures = pytest.importorskip("generator.checks.numbers")
    index = pytest.importorskip("generator.checks.figureindex")
    sources = load_sources(synthetic / "sources", TODAY)
    for source in sources.sources:
        doc = parse((synthetic / "guides" / f"{source.key}.md").read_text(encoding="utf-8"))
        grounding = index.ground(source.source_text)
        unsupported = [
            f.text
            for f in figures.extract(body_outside_originals(doc.body))
            if not grounding.supports(f)
        ]
        assert unsupported == [], source.key


def test_what_the_company_reports_is_verbatim_source_text(synthetic: Path) -> None:
    sources = load_sources(synthetic / "sources", TODAY)
    for source in sources.sources:
        doc = parse((synthetic / "guides" / f"{source.key}.md").read_text(encoding="utf-8"))
        _, sections = split_sections(doc.body)
        assert sections[0].heading == f"What {source.company} reports"
        text = sections[0].text
        scale = "; ".join(source.scale)
        if source.scale:
            assert text.endswith(f" Scale stated in the source: {scale}.") or text.startswith(
                f"Scale stated in the source: {scale}."
            )
            text = text.removesuffix(f" Scale stated in the source: {scale}.")
        text = text.removeprefix(f"According to {source.company}: ")
        flat = " ".join(f"{source.summary} {source.notes or ''}".split())
        assert text in flat, source.key


def test_every_guide_follows_the_body_contract(synthetic: Path) -> None:
    angles = set()
    for path in sorted((synthetic / "guides").glob("*.md")):
        doc = parse(path.read_text(encoding="utf-8"))
        preamble, sections = split_sections(doc.body)
        assert preamble.startswith("This is an original summary and career interpretation by ")
        assert "Prepguide" in preamble and "not authored, endorsed or sponsored" in preamble
        assert tuple(s.key for s in sections) == SECTION_ORDER
        steps = [line for line in sections[3].text.splitlines() if line.startswith("- ")]
        assert 3 <= len(steps) <= 5
        meta = doc.meta
        assert meta.status == "draft"
        assert meta.provenance.backend == "offline"
        assert meta.provenance.drafter_version.startswith("offline-")
        assert meta.provenance.generated_at == "2026-11-30T00:00:00Z"
        assert len(meta.provenance.source_hash) == 64
        angles.add(sections[1].heading)
    playbook, _ = load_playbook(REPO / "prompts")
    expected = {lesson.angle for lesson in [*playbook.lessons, playbook.fallback]}
    assert angles == {f"Our career interpretation: {angle}" for angle in expected}


def test_same_inputs_give_byte_identical_guides(synthetic: Path, tmp_path: Path) -> None:
    again = tmp_path / "again"
    shutil.copytree(synthetic / "sources", again / "sources")
    shutil.copytree(synthetic / "prompts", again / "prompts")
    shutil.copy(synthetic / "prepguide.toml", again / "prepguide.toml")
    result = run_cli(again, "generate", "--backend", "offline")
    assert result.returncode == 0, result.stderr
    first = sorted((synthetic / "guides").glob("*.md"))
    second = sorted((again / "guides").glob("*.md"))
    assert [p.name for p in first] == [p.name for p in second]
    assert all(a.read_bytes() == b.read_bytes() for a, b in zip(first, second, strict=True))


def test_the_site_name_comes_from_prepguide_toml(workspace: Path) -> None:
    (workspace / "prepguide.toml").write_text('[site]\nname = "Career Notes"\n', encoding="utf-8")
    assert run_cli(workspace, "generate", "--backend", "offline").returncode == 0
    body = (workspace / "guides" / "meta-gem.md").read_text(encoding="utf-8")
    assert "career interpretation by Career Notes, informed by the linked sources" in body


def test_changing_the_site_name_regenerates_the_disclaimer(workspace: Path) -> None:
    assert run_cli(workspace, "generate", "--backend", "offline").returncode == 0
    (workspace / "prepguide.toml").write_text('[site]\nname = "Career Notes"\n', encoding="utf-8")
    result = run_cli(workspace, "generate", "--backend", "offline")
    assert result.returncode == 0
    assert "generated 4" in result.stdout
    body = (workspace / "guides" / "meta-gem.md").read_text(encoding="utf-8")
    assert "career interpretation by Career Notes, informed by the linked sources" in body


def test_the_site_name_has_a_default_without_prepguide_toml(workspace: Path) -> None:
    (workspace / "prepguide.toml").unlink()
    assert run_cli(workspace, "generate", "--backend", "offline").returncode == 0
    body = (workspace / "guides" / "meta-gem.md").read_text(encoding="utf-8")
    assert "career interpretation by Prepguide, informed by the linked sources" in body


def test_editors_change_the_lessons_in_the_playbook_not_in_code(workspace: Path) -> None:
    assert run_cli(workspace, "generate", "--backend", "offline").returncode == 0
    playbook = workspace / "prompts" / "playbook.yaml"
    text = playbook.read_text(encoding="utf-8")
    playbook.write_text(
        text.replace(
            "angle: spend expensive judgement only where cheap signals disagree",
            "angle: route only hard pairs to the expensive model",
        ),
        encoding="utf-8",
    )
    result = run_cli(workspace, "generate", "--backend", "offline")
    assert result.returncode == 0, result.stderr
    assert "generated 1, skipped 3 unchanged" in result.stdout, "only the edited lesson's guide"
    shopify = (workspace / "guides" / "shopify-catalog-clustering.md").read_text(encoding="utf-8")
    assert "## Our career interpretation: route only hard pairs" in shopify


def test_a_playbook_lesson_with_a_figure_is_refused(workspace: Path) -> None:
    playbook = workspace / "prompts" / "playbook.yaml"
    text = playbook.read_text(encoding="utf-8")
    playbook.write_text(
        text.replace("- Profile before choosing an optimization.", "- Profile 3 times first."),
        encoding="utf-8",
    )
    result = run_cli(workspace, "generate", "--backend", "offline")
    assert result.returncode == 2
    assert result.stderr.startswith(f"error: {playbook}: lessons.0.steps: 'Profile 3 times")
    assert "lessons must not state numbers" in result.stderr
    assert not (workspace / "guides").exists()


def test_a_playbook_placeholder_other_than_company_is_refused(workspace: Path) -> None:
    playbook = workspace / "prompts" / "playbook.yaml"
    text = playbook.read_text(encoding="utf-8")
    playbook.write_text(
        text.replace("angle: treat failure", "angle: $compnay treat failure"),
        encoding="utf-8",
    )
    result = run_cli(workspace, "generate", "--backend", "offline")
    assert result.returncode == 2
    assert "lessons.3.angle: unknown placeholder $compnay" in result.stderr
