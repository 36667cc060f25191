"""Publishing: render guides into the static site under site/."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape
from markupsafe import Markup

from generator.errors import PublishError
from generator.fsio import write_if_changed
from generator.guides import GuideDoc, split_sections
from generator.markdown import to_html
from generator.project import Project

DRAFT_BANNER = "Draft: not reviewed. This page is a preview and is not indexed."


@dataclass
class PublishReport:
    """What a publish run wrote and what it left out."""

    out_dir: Path
    pages: list[str] = field(default_factory=list)
    written: int = 0
    left_out: dict[str, str] = field(default_factory=dict)


@lru_cache(maxsize=1)
def page_environment() -> Environment:
    """Return the Jinja2 environment for page templates (autoescaped, strict)."""
    return Environment(
        loader=PackageLoader("generator", "templates"),
        autoescape=select_autoescape(["html", "xml"]),
        undefined=StrictUndefined,
        keep_trailing_newline=True,
    )


def confined(out_dir: Path, relative: str) -> Path:
    """Resolve a page path and refuse anything outside the output folder."""
    base = out_dir.resolve()
    target = (base / relative).resolve()
    if not target.is_relative_to(base):
        raise PublishError(f"page path {relative!r} escapes {base}", path=target, rule="path")
    return target


def guide_body_html(doc: GuideDoc) -> str:
    """Render a guide body to HTML."""
    return to_html(doc.body)


def publish(project: Project, out_dir: Path, *, preview: bool) -> PublishReport:
    """Write the site: approved guides, plus drafts bannered and noindexed under preview."""
    report = PublishReport(out_dir=out_dir)
    env = page_environment()
    site = project.settings.site
    entries = []
    for guide_id in project.guides.ids():
        doc = project.guides.read(guide_id)
        source = project.source(guide_id)
        if doc is None or source is None:
            report.left_out[guide_id] = "no valid source record"
            continue
        is_draft = doc.meta.status not in ("approved", "published")
        if is_draft and not preview:
            report.left_out[guide_id] = f"status is {doc.meta.status}"
            continue
        _, sections = split_sections(doc.body)
        html = env.get_template("guide.html").render(
            site=site,
            root="../../",
            noindex=is_draft,
            banner=DRAFT_BANNER if is_draft else None,
            guide={
                "title": doc.meta.title,
                "company": doc.meta.company,
                "draft": is_draft,
                "html": Markup(guide_body_html(doc)),
                "sections": sections,
            },
        )
        relative = f"guides/{guide_id}/index.html"
        report.written += write_if_changed(confined(out_dir, relative), html.encode("utf-8"))
        report.pages.append(relative)
        entries.append(
            {
                "href": f"guides/{guide_id}/index.html",
                "title": doc.meta.title,
                "company": doc.meta.company,
                "published": source.published.isoformat() if source.published else "",
                "draft": is_draft,
                "sort": (source.published.isoformat() if source.published else "", guide_id),
            }
        )
    entries.sort(key=lambda entry: entry["sort"], reverse=True)
    index = env.get_template("index.html").render(
        site=site,
        root="",
        noindex=preview,
        banner=DRAFT_BANNER if preview else None,
        guides=entries,
    )
    report.written += write_if_changed(confined(out_dir, "index.html"), index.encode("utf-8"))
    style = resources.files("generator").joinpath("templates/style.css").read_bytes()
    report.written += write_if_changed(confined(out_dir, "style.css"), style)
    report.pages.extend(["index.html", "style.css"])
    return report
