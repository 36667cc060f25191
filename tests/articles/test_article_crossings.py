"""A clause about one company that uses words only another source of the article uses."""

from __future__ import annotations

import copy

import pytest
import yaml

from generator.drafting.article_build import article_findings
from generator.guides.article_draft import ArticleDraft
from generator.guides.articles import ArticleJob, new_article
from generator.guides.project import Project

RECORDS = {
    "ferrule-thumbnails": {
        "company": "Ferrule",
        "title": "Serving thumbnails for a photo app",
        "summary": "Ferrule serves about 300 million thumbnails for a photo app. Thumbnails are "
        "now pre-rendered for the most-shared albums and resized on request for the rest. The "
        "team moved its results pages to a new service.",
    },
    "quillmark-log-archive": {
        "company": "Quillmark",
        "title": "Archiving logs to object storage",
        "summary": "Quillmark keeps logs on local disks for 5 days and then moves them to "
        "object storage. Searches over archived logs can take up to two minutes.",
    },
}
FIRST = {
    "ferrule-thumbnails": "Ferrule serves about 300 million thumbnails for a photo app",
    "quillmark-log-archive": "Quillmark keeps logs on local disks for 5 days and then moves "
    "them to object storage",
}
DRAFT = {
    "blocks": [
        {"source": key, "reported": [{"text": f"{text}.", "quote": text}]}
        for key, text in FIRST.items()
    ],
    "angle": "what each team kept cheap",
    "interpretation": "Ferrule pre-renders thumbnails for its most-shared albums, while "
    "Quillmark moves older logs to object storage and accepts slower searches.",
    "case_study_title": "storage cost with a guardrail",
    "case_study": "Pick a small store on your laptop and measure what a week of data costs.",
    "steps": [
        "Measure a baseline cost for a fixed workload.",
        "Change one thing at a time and record the effect.",
        "Write down what you would measure first.",
    ],
}


@pytest.fixture
def job(workspace) -> tuple[Project, ArticleJob]:
    for key, fields in RECORDS.items():
        record = {
            "id": key,
            **fields,
            "url": f"https://{key}.example/post",
            "publisher": f"{fields['company']} Engineering",
            "published": "2026-05-02",
            "checked": "2026-10-30",
            "scale": [],
            "techniques": [],
            "stack": [],
        }
        (workspace / "sources" / f"{key}.yaml").write_text(yaml.safe_dump(record))
    project = Project(workspace)
    article = new_article(project, "cheap", "Keeping storage cheap", source_ids=list(RECORDS))
    by_id = project.sources.by_id()
    return project, ArticleJob(article, tuple(by_id[key] for key in RECORDS))


def crossings(project, job, interpretation: str) -> list[str]:
    """Return the messages of the findings that credit one company with another's words."""
    draft = copy.deepcopy(DRAFT)
    draft["interpretation"] = interpretation
    found = article_findings(project, job, ArticleDraft.model_validate(draft))
    return [
        f.message
        for f in found
        if f.severity == "error" and f.rule == "grounding.claim" and "the write-up of" in f.message
    ]


def test_each_company_credited_with_its_own_technique_passes(job):
    assert crossings(*job, DRAFT["interpretation"]) == []


@pytest.mark.parametrize(
    "misstated",
    [
        "Quillmark moves older logs to object storage and pre-renders results for busy services.",
        "Quillmark keeps logs on local disks and resizes thumbnails on request.",
    ],
)
def test_a_technique_only_another_source_describes_names_whose_it_is(job, misstated):
    said = crossings(*job, misstated)
    assert said and all("gives Quillmark" in m and "write-up of Ferrule" in m for m in said)


def test_a_clause_naming_both_companies_may_use_either_s_words(job):
    both = "Like Ferrule, Quillmark pre-renders what it serves most often."
    assert crossings(*job, both) == []


def test_words_any_write_up_uses_of_its_work_tell_no_technique(job):
    assert crossings(*job, "Quillmark moved its results to object storage after 5 days.") == []


def test_a_block_sentence_using_another_source_s_technique_names_whose_it_is(job):
    project, article = job
    draft = copy.deepcopy(DRAFT)
    draft["blocks"][1]["reported"].append(
        {
            "text": "Archived logs are pre-rendered into daily summaries.",
            "quote": "Searches over archived logs can take up to two minutes",
        }
    )
    found = article_findings(project, article, ArticleDraft.model_validate(draft))
    said = [f for f in found if f.rule == "grounding.claim" and "write-up of Ferrule" in f.message]
    assert said and said[0].section == "reports"
    assert "in the block of quillmark-log-archive" in said[0].message
