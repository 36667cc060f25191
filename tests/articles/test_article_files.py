"""Article files: suggest, new (never overwriting) and list, through the real CLI."""

from __future__ import annotations

import json
from pathlib import Path

import yaml
from click.testing import CliRunner

from generator.cli import cli


def run(workspace: Path, *args: str):
    result = CliRunner().invoke(cli, ["--root", str(workspace), *args])
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


def test_suggest_proposes_the_gpu_roundup_with_scale_figures_first(workspace):
    result = run(workspace, "articles", "suggest", "--json")
    assert result.exit_code == 0, result.output
    suggestions = {item["slug"]: item for item in json.loads(result.output)["suggestions"]}
    gpus = suggestions["gpus"]
    assert gpus["title"] == "How teams scaled GPUs: 3 real case studies"
    assert gpus["companies"] == ["Meta", "Shopify"]
    assert len(gpus["sources"]) == 3
    # The write-up with no scale figures comes last.
    assert gpus["sources"][-1] == "meta-llm-training-at-scale"
    assert gpus["exists"] is False
    text = run(workspace, "articles", "suggest").output
    assert "prepguide articles new gpus" in text


def test_new_writes_the_file_and_never_overwrites(workspace):
    args = ["articles", "new", "gpu-roundup", "--title", "How teams scaled GPUs"]
    result = run(workspace, *args, "--topic", "GPUs", "--max", "3")
    assert result.exit_code == 0, result.output
    path = workspace / "guides" / "articles" / "gpu-roundup.yaml"
    data = yaml.safe_load(path.read_text())
    assert data == {
        "title": "How teams scaled GPUs",
        "sources": {"tag": "GPUs", "max": 3, "order": "scale"},
    }
    before = path.read_text()
    again = run(workspace, *args, "--source", "meta-gem", "--source", "shopify-catalog-clustering")
    assert again.exit_code == 1
    assert "never overwritten" in again.output
    assert path.read_text() == before
    listed = json.loads(run(workspace, "articles", "list", "--json").output)["articles"]
    assert listed == [
        {
            "id": "article:gpu-roundup",
            "slug": "gpu-roundup",
            "title": "How teams scaled GPUs",
            "sources": ["meta-gem", "shopify-catalog-clustering", "meta-llm-training-at-scale"],
            "query": "tag 'GPUs', at most 3, by scale",
            "status": "not drafted",
            "problem": None,
        }
    ]
    suggested = json.loads(run(workspace, "articles", "suggest", "--json").output)
    assert suggested["suggestions"][0]["exists"] is False  # another slug than the topic's


def test_new_refuses_unknown_ids_bad_slugs_and_both_kinds_of_sources(workspace):
    result = run(
        workspace,
        "articles",
        "new",
        "two",
        "--title",
        "T",
        "--source",
        "meta-gem",
        "--source",
        "no-such-record",
    )
    assert result.exit_code == 1
    assert "no valid record for no-such-record" in result.output
    result = run(workspace, "articles", "new", "Bad/Slug", "--title", "T", "--topic", "GPUs")
    assert result.exit_code == 1
    assert "not an article slug" in result.output
    result = run(
        workspace, "articles", "new", "x", "--title", "T", "--topic", "GPUs", "--source", "meta-gem"
    )
    assert result.exit_code == 2
    result = run(workspace, "articles", "new", "one", "--title", "T", "--source", "meta-gem")
    assert result.exit_code == 1
    assert "2 to 6 sources" in result.output
    assert not (workspace / "guides" / "articles").exists() or not list(
        (workspace / "guides" / "articles").glob("*.yaml")
    )


def test_list_reports_an_invalid_file_with_its_field(workspace):
    folder = workspace / "guides" / "articles"
    folder.mkdir(parents=True)
    (folder / "broken.yaml").write_text("title: T\nsources: [meta-gem, meta-gem]\nextra: 1\n")
    rows = json.loads(run(workspace, "articles", "list", "--json").output)["articles"]
    assert rows[0]["slug"] == "broken" and rows[0]["status"] == "invalid"
    assert "broken.yaml" in rows[0]["problem"]
