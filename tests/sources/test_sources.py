"""The source-record loader: every bad input gets an error naming the file and the field."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import date
from pathlib import Path

import pytest

from generator.sources.records import (
    Source,
    load_sources,
    normalize_tag,
    parse_date,
    slugify,
    tag_index,
)

TODAY = date(2026, 11, 30)
GOOD = """\
company: Acme
title: A good record
url: https://acme.example/good
published: 2026-10-13
checked: 2026-10-22
summary: Acme rebuilt its queue and cut latency by 40%.
"""


def record(**fields: object) -> str:
    """Return a YAML record: a valid base with fields replaced (None removes one)."""
    base: dict[str, object] = {
        "company": "Acme",
        "title": "Another record",
        "url": "https://acme.example/other",
        "published": "2026-10-13",
        "summary": "Acme moved its batch jobs to spot instances.",
    }
    base.update(fields)
    lines = []
    for key, value in base.items():
        if value is not None:
            lines.append(f"{key}: {value}")
    return "\n".join(lines) + "\n"


def load(folder: Path, files: dict[str, str | bytes]):
    """Write files into folder/sources next to one good record and load them all."""
    sources = folder / "sources"
    sources.mkdir(parents=True, exist_ok=True)
    (sources / "good.yaml").write_text(GOOD, encoding="utf-8")
    for name, content in files.items():
        path = sources / name
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    return load_sources(sources, TODAY)


BAD_INPUTS = {
    "ambiguous date": ("bad.yaml", record(published="03/04/2026"), "published", "ambiguous"),
    "unparseable date": ("bad.yaml", record(published="sometime soon"), "published", "parse"),
    "impossible date": ("bad.yaml", record(published="2026-13-45"), "published", "not a real"),
    "incomplete date": ("bad.yaml", record(published="October 2026"), "published", "complete"),
    "published in the future": (
        "bad.yaml",
        record(published="2026-12-25"),
        "published",
        "in the future",
    ),
    "checked before published": (
        "bad.yaml",
        record(published="2026-10-13", checked="2026-10-01"),
        "checked",
        "before the published date 2026-10-13",
    ),
    "checked in the future": (
        "bad.yaml",
        record(checked="2027-01-01"),
        "checked",
        "in the future",
    ),
    "javascript url": ("bad.yaml", record(url='"javascript:alert(1)"'), "url", "http(s)"),
    "ftp url": ("bad.yaml", record(url="ftp://acme.example/x"), "url", "http(s)"),
    "url with spaces": ("bad.yaml", record(url='"https://acme.example/a b"'), "url", "spaces"),
    "path trick id": ("bad.yaml", record(id='"../x"'), "id", "a-z, 0-9 and '-'"),
    "upper-case id": ("bad.yaml", record(id="Bad_Id"), "id", "a-z, 0-9 and '-'"),
    "id over 80 characters": ("bad.yaml", record(id="a" * 81), "id", "1-80 characters"),
    "file name not an id": ("Bad Name.yaml", record(), "id", "not a valid id"),
    "missing summary": ("bad.yaml", record(summary=None), "summary", "required"),
    "blank summary": ("bad.yaml", record(summary='"   "'), "summary", "must not be empty"),
    "missing company": ("bad.yaml", record(company=None), "company", "required"),
    "unknown field": (
        "bad.yaml",
        record(author="Jane"),
        "author",
        "allowed fields are: id, company, title, url, publisher, published, checked, summary",
    ),
    "unknown citation field": (
        "bad.yaml",
        record(citations="\n  - {title: X, link: 'https://x.example'}"),
        "citations.0.link",
        "allowed fields are: title, url, publisher, published, checked",
    ),
    "citation with a javascript url": (
        "bad.yaml",
        record(citations="\n  - {title: X, url: 'javascript:void(0)'}"),
        "citations.0.url",
        "http(s)",
    ),
    "tags not a list": ("bad.yaml", record(stack="GPUs"), "stack", "list"),
}


@pytest.mark.parametrize("kind", list(BAD_INPUTS))
def test_bad_record_is_reported_by_file_and_field_and_others_still_load(
    tmp_path: Path, kind: str
) -> None:
    name, content, field, words = BAD_INPUTS[kind]
    result = load(tmp_path, {name: content})
    assert [s.key for s in result.sources] == ["good"]
    assert len(result.problems) == 1, [str(p) for p in result.problems]
    problem = result.problems[0]
    message = str(problem)
    assert problem.path == str(tmp_path / "sources" / name)
    assert problem.field == field
    assert message.startswith(f"{tmp_path / 'sources' / name}: {field}: ")
    assert words in message


def test_broken_yaml_names_the_file_and_the_line(tmp_path: Path) -> None:
    broken = "company: Acme\ntitle: T\nsummary: Acme said: this: breaks\n"
    result = load(tmp_path, {"broken.yaml": broken})
    assert [s.key for s in result.sources] == ["good"]
    (problem,) = result.problems
    assert problem.path == str(tmp_path / "sources" / "broken.yaml")
    assert "not valid YAML: line 3" in str(problem)


def test_broken_json_names_the_file_and_the_line(tmp_path: Path) -> None:
    result = load(tmp_path, {"broken.json": '{"company": "Acme",\n "title": }'})
    (problem,) = result.problems
    assert str(problem).startswith(
        f"{tmp_path / 'sources' / 'broken.json'}: not valid JSON: line 2"
    )


def test_duplicate_yaml_key_is_refused_instead_of_silently_dropping_text(tmp_path: Path) -> None:
    text = record() + "summary: A second summary that would hide the first.\n"
    result = load(tmp_path, {"twice.yaml": text})
    (problem,) = result.problems
    assert "duplicate key 'summary'" in str(problem)
    assert "twice.yaml" in str(problem)


def test_a_file_that_is_not_utf8_is_named(tmp_path: Path) -> None:
    latin1 = record(summary="Acme’s café queue").encode("cp1252")
    result = load(tmp_path, {"latin.yaml": latin1})
    (problem,) = result.problems
    assert problem.path == str(tmp_path / "sources" / "latin.yaml")
    assert "not UTF-8" in str(problem)
    assert [s.key for s in result.sources] == ["good"]


def test_a_text_over_100_kb_is_refused(tmp_path: Path) -> None:
    huge = record(summary="'" + "word " * 21_000 + "'")
    assert len(huge.encode()) > 100 * 1024
    result = load(tmp_path, {"huge.yaml": huge})
    (problem,) = result.problems
    assert problem.path == str(tmp_path / "sources" / "huge.yaml")
    assert "the limit is 102,400 (100 KB)" in str(problem)
    assert [s.key for s in result.sources] == ["good"]


def test_a_text_just_under_100_kb_loads(tmp_path: Path) -> None:
    big = record(summary="'" + "word " * 19_000 + "'")
    assert len(big.encode()) < 100 * 1024
    result = load(tmp_path, {"big.yaml": big})
    assert result.problems == []
    assert sorted(s.key for s in result.sources) == ["big", "good"]


def test_duplicate_ids_name_both_files(tmp_path: Path) -> None:
    result = load(
        tmp_path,
        {"a-copy.yaml": record(id="good", url="https://acme.example/copy")},
    )
    (problem,) = result.problems
    assert problem.field == "id"
    assert "duplicate id 'good'" in str(problem)
    assert "a-copy.yaml" in str(problem) and "good.yaml" in str(problem)
    assert len(result.sources) == 1


def test_duplicate_urls_are_caught_despite_trailing_slash_and_host_case(tmp_path: Path) -> None:
    result = load(tmp_path, {"zzz.yaml": record(url="https://ACME.example/good/")})
    (problem,) = result.problems
    assert problem.field == "url"
    assert "duplicate url" in str(problem)
    assert "zzz.yaml" in str(problem) and "good.yaml" in str(problem)
    assert [s.key for s in result.sources] == ["good"]


def test_urls_differing_in_path_case_are_different_write_ups(tmp_path: Path) -> None:
    result = load(tmp_path, {"zzz.yaml": record(url="https://acme.example/GOOD")})
    assert result.problems == []


def test_every_problem_in_one_file_is_reported(tmp_path: Path) -> None:
    text = record(summary=None, url='"javascript:x"', published="03/04/2026", extra="1")
    result = load(tmp_path, {"many.yaml": text})
    assert sorted(p.field for p in result.problems) == ["extra", "published", "summary", "url"]


@pytest.mark.parametrize(
    "written", ["2026-10-13", "Oct 13, 2026", "13 October 2026", "October 13, 2026", "2026/10/13"]
)
def test_accepted_date_forms_normalize_to_iso(tmp_path: Path, written: str) -> None:
    result = load(tmp_path, {"dated.yaml": record(published=f'"{written}"')})
    assert result.problems == []
    assert result.by_id()["dated"].published == date(2026, 10, 13)


def test_iso_dates_with_day_and_month_both_under_13_are_not_ambiguous() -> None:
    assert parse_date("2026-03-04") == date(2026, 3, 4)
    assert parse_date("4 March 2026") == date(2026, 3, 4)
    assert parse_date("12/12/2026") == date(2026, 12, 12)
    for ambiguous in ("03/04/2026", "4/3/2026", "04.03.2026"):
        with pytest.raises(ValueError, match="ambiguous"):
            parse_date(ambiguous)


def test_json_records_load_like_yaml(tmp_path: Path) -> None:
    data = {
        "company": "Acme",
        "title": "From JSON",
        "published": "2026-03-04",
        "summary": "Acme wrote JSON.",
    }
    result = load(tmp_path, {"from-json.json": json.dumps(data), "other.yml": record()})
    assert result.problems == []
    assert result.by_id()["from-json"].published == date(2026, 3, 4)
    assert "other" in result.by_id()


def test_a_file_that_is_not_a_mapping_is_refused(tmp_path: Path) -> None:
    result = load(tmp_path, {"list.yaml": "- company: Acme\n", "empty.yaml": ""})
    assert sorted(Path(p.path).name for p in result.problems) == ["empty.yaml", "list.yaml"]
    assert all("expected a mapping" in str(p) for p in result.problems)


def test_content_hash_ignores_formatting_and_comments(tmp_path: Path) -> None:
    one = load(tmp_path / "one", {})
    reformatted = "# a comment\n" + GOOD.replace("2026-10-13", '"Oct 13, 2026"')
    (tmp_path / "two" / "sources").mkdir(parents=True)
    (tmp_path / "two" / "sources" / "good.yaml").write_text(reformatted, encoding="utf-8")
    two = load_sources(tmp_path / "two" / "sources", TODAY)
    assert one.sources[0].content_hash() == two.sources[0].content_hash()
    changed = GOOD.replace("40%", "45%")
    (tmp_path / "two" / "sources" / "good.yaml").write_text(changed, encoding="utf-8")
    three = load_sources(tmp_path / "two" / "sources", TODAY)
    assert three.sources[0].content_hash() != one.sources[0].content_hash()


def test_the_sample_database_is_valid_and_says_what_blocks_publication(workspace: Path) -> None:
    result = load_sources(workspace / "sources", TODAY)
    assert result.problems == []
    by_id = result.by_id()
    assert sorted(by_id) == [
        "meta-gem",
        "meta-llm-training-at-scale",
        "meta-prometheus",
        "shopify-catalog-clustering",
    ]
    assert by_id["shopify-catalog-clustering"].missing_for_publication() == []
    assert by_id["meta-gem"].missing_for_publication() == ["url", "checked", "citations.0.url"]
    assert by_id["meta-prometheus"].missing_for_publication() == ["url", "published", "checked"]
    gem_training = by_id["meta-gem"].citations[0]
    assert (gem_training.published, gem_training.checked) == (date(2026, 8, 3), date(2026, 10, 22))


def test_tags_match_after_trimming_and_case_folding_only(tmp_path: Path) -> None:
    a = Source(company="A", title="a", summary="s", stack=[" GPUs ", "PyTorch"], id="a")
    b = Source(company="B", title="b", summary="s", stack=["gpus"], techniques=["GPU clusters"])
    index = tag_index([a, b])
    assert normalize_tag(" GPUs ") == "gpus"
    assert index["gpus"] == [a, b]
    assert index["gpu clusters"] == [b]
    assert slugify("distributed training") == "distributed-training"
    assert slugify("GPUs") == "gpus"


def run_cli(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "generator", "--root", str(root), *args],
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_sources_check_prints_one_line_per_problem_and_exits_1(workspace: Path) -> None:
    sources = workspace / "sources"
    (sources / "ambiguous.yaml").write_text(record(published="03/04/2026"), encoding="utf-8")
    (sources / "tricky.yaml").write_text(
        record(id='"../x"', url='"javascript:alert(1)"', title="Tricky"), encoding="utf-8"
    )
    (sources / "broken.yaml").write_text("company: [unclosed\n", encoding="utf-8")
    result = run_cli(workspace, "sources", "check")
    assert result.returncode == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 4, result.stderr
    expected = {
        (str(sources / "ambiguous.yaml"), "published"),
        (str(sources / "tricky.yaml"), "id"),
        (str(sources / "tricky.yaml"), "url"),
        (str(sources / "broken.yaml"), "not valid YAML"),
    }
    for path, field in expected:
        assert any(line.startswith(f"invalid source: {path}: {field}") for line in lines), field
    assert "4 valid, 3 invalid (4 problems), 3 not yet publishable" in result.stdout


def test_sources_check_says_plainly_which_records_cannot_be_published(workspace: Path) -> None:
    result = run_cli(workspace, "sources", "check")
    assert result.returncode == 0, result.stderr
    notes = [line for line in result.stdout.splitlines() if line.startswith("note:")]
    gem = workspace / "sources" / "meta-gem.yaml"
    assert (
        f"note: {gem}: can be drafted but not published until an editor adds "
        "url, checked, citations.0.url" in notes
    )
    assert not any("shopify-catalog-clustering" in note for note in notes)
    assert len(notes) == 3


def test_a_json_file_saved_with_a_byte_order_mark_loads(tmp_path: Path) -> None:
    data = {"company": "Acme", "title": "BOM", "summary": "Saved by a Windows editor."}
    bom = b"\xef\xbb\xbf" + json.dumps(data).encode("utf-8")
    result = load(tmp_path, {"bom.json": bom})
    assert result.problems == []
    assert result.by_id()["bom"].summary == "Saved by a Windows editor."


def test_hidden_editor_files_are_not_records(tmp_path: Path) -> None:
    result = load(tmp_path, {".good.yaml": "half-saved: [", "notes.txt": "not a record"})
    assert result.problems == []
    assert [s.key for s in result.sources] == ["good"]
