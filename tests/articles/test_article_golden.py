"""Golden files for an article's draft and its page; dry runs and prompt overrides."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner
from goldens import assert_golden
from test_article_review import ID, drafted, verified_root

from generator.cli import cli


def run(workspace: Path, *args: str):
    result = CliRunner().invoke(cli, ["--root", str(workspace), *args])
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


def test_article_draft_and_page_match_their_golden_files(workspace):
    verified_root(workspace)
    drafted(workspace)
    draft = (workspace / "guides" / "articles" / "gpus.md").read_text()
    assert_golden("articles/gpus.md", draft)
    assert run(workspace, "review", "approve", ID, "--by", "Ana").exit_code == 0
    assert run(workspace, "publish").exit_code == 0
    page = (workspace / "site" / "articles" / "gpus" / "index.html").read_text()
    assert_golden("articles/gpus.html", page)


def test_dry_run_plans_articles_and_writes_nothing(workspace):
    assert (
        run(
            workspace,
            "articles",
            "new",
            "gpus",
            "--title",
            "How teams scaled GPUs",
            "--topic",
            "GPUs",
        ).exit_code
        == 0
    )
    result = run(workspace, "generate", ID, "--dry-run", "--backend", "offline")
    assert result.exit_code == 0, result.output
    assert "generate article:gpus (new)" in result.output
    assert not (workspace / "guides" / "articles" / "gpus.md").exists()


def test_an_overridden_article_prompt_changes_the_prompt_hash(workspace):
    drafted(workspace)
    # The offline drafter hashes its lesson; the OpenAI one its templates: check both paths.
    from generator.drafting.article_prompts import ArticlePromptSet

    before = ArticlePromptSet(workspace / "prompts").hash
    (workspace / "prompts").mkdir(exist_ok=True)
    (workspace / "prompts" / "article_user.j2").write_text(
        "Write-ups:\n{% for source in sources %}<source-data {{ source.fence }}>\n"
        "Title: {{ source.title }}\n</source-data {{ source.fence }}>\n{% endfor %}"
        "{{ title }}{{ fence }}{{ angle }}{{ audience }}\n"
    )
    after = ArticlePromptSet(workspace / "prompts")
    assert after.hash != before
    assert "article_user.j2" in after.used
    guide_prompts = run(workspace, "generate", "--dry-run", "--backend", "offline")
    assert guide_prompts.exit_code == 0
