"""The guide document: YAML front matter plus a Markdown body with contract headings."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from generator.core.errors import GuideError
from generator.core.fsio import sha256_text
from generator.core.parsed import ParsedIndex
from generator.guides.findings import Finding

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_Dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)

Status = Literal["draft", "approved", "published", "rejected", "withdrawn"]
FRONT_MATTER = re.compile(r"\A---\n(.*?)\n---\n(.*)\Z", re.DOTALL)
HEADING = re.compile(r"^## (.+?)\s*$", re.MULTILINE)

REPORTS = "reports"
INTERPRETATION = "interpretation"
CASE_STUDY = "case_study"
PRACTICE = "practice"
ORIGINALS = "originals"
DISCLAIMER = "disclaimer"
SECTION_ORDER = (REPORTS, INTERPRETATION, CASE_STUDY, PRACTICE, ORIGINALS)


class Usage(BaseModel):
    model_config = ConfigDict(extra="forbid")

    prompt_tokens: int = 0
    completion_tokens: int = 0
    total_tokens: int = 0


class RepairRound(BaseModel):
    """A re-ask of the model: the round it asked for (2 or 3) and the rules that caused it."""

    model_config = ConfigDict(extra="forbid")

    round: int
    rules: list[str]


class Provenance(BaseModel):
    """How a guide's text came to be."""

    model_config = ConfigDict(extra="forbid")

    backend: str
    model: str | None = None
    drafter_version: str
    prompt_hash: str
    source_hash: str
    generated_at: str
    usage: Usage = Usage()
    via: Literal["batch"] | None = None  # drafted through a batch file, not online
    batch_id: str | None = None
    generic_lesson: bool = False  # the offline drafter found no lesson for the record
    rounds: int = 1  # answers the model gave for this text (1 + its re-asks)
    repairs: list[RepairRound] = []


class ReportedEvidence(BaseModel):
    """A reported statement as the model drafted it, with the source span it quoted for it."""

    model_config = ConfigDict(extra="forbid")

    text: str
    quote: str
    source: str | None = None  # in an article: the record of the block it belongs to


class ArticleSource(BaseModel):
    """A record an article was drafted from, as it was then (a change flags the article)."""

    model_config = ConfigDict(extra="forbid")

    id: str
    company: str
    source_hash: str


class GuideMeta(BaseModel):
    """The front matter of a guide file."""

    model_config = ConfigDict(extra="forbid")

    id: str
    source: str
    company: str
    title: str
    status: Status = "draft"
    provenance: Provenance
    generated_hash: str = Field(description="Hash of the body as the drafter wrote it.")
    findings: list[Finding] = []
    evidence: list[ReportedEvidence] = []
    kind: Literal["guide", "article"] = "guide"
    sources: list[ArticleSource] = []  # an article's records, in its order
    query: str | None = None  # an article's source query, as it was resolved


@dataclass
class GuideDoc:
    """A parsed guide file."""

    meta: GuideMeta
    body: str

    @property
    def content_hash(self) -> str:
        """Hash of the body text, which approval is bound to."""
        return sha256_text(self.body)

    @property
    def edited(self) -> bool:
        """Return True when the body differs from what the drafter wrote."""
        return self.content_hash != self.meta.generated_hash


def serialize(doc: GuideDoc) -> str:
    """Render a guide file: front matter then body."""
    data = doc.meta.model_dump(mode="json")
    for name in ("via", "batch_id"):
        if data["provenance"][name] is None:
            del data["provenance"][name]
    if not data.get("evidence"):
        data.pop("evidence", None)
    for item in data.get("evidence", []):
        if item["source"] is None:
            del item["source"]
    if data["kind"] == "guide":
        del data["kind"], data["sources"], data["query"]
    elif data["query"] is None:
        del data["query"]
    if not data["provenance"]["generic_lesson"]:
        del data["provenance"]["generic_lesson"]
    if data["provenance"]["rounds"] == 1 and not data["provenance"]["repairs"]:
        del data["provenance"]["rounds"], data["provenance"]["repairs"]
    front = yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100)
    return f"---\n{front}---\n{doc.body}"


# What a front matter's parse depends on, for the parsed index.
FRONT_KIND = f"front matter yaml {yaml.__version__} {_Loader.__name__} 1"


def parse(text: str, path: str = "<guide>", index: ParsedIndex | None = None) -> GuideDoc:
    """Parse a guide file; raise GuideError naming the file and field.

    index: the parsed index, which gives the data of a front matter parsed before (looked up
    by the hash of its text, in any file) and keeps what is parsed now.
    """
    match = FRONT_MATTER.match(text)
    if not match:
        raise GuideError("missing YAML front matter between '---' lines", path=path, rule="guide")
    front = match.group(1)
    # Kept by the hash of its text, whichever file holds it (a guide and its revisions).
    mark = sha256_text(front) if index is not None else ""
    data = index.get(FRONT_KIND, mark, mark) if index is not None else None
    if data is None:
        try:
            data = yaml.load(front, Loader=_Loader)
        except yaml.YAMLError as exc:
            raise GuideError(f"front matter is not YAML: {exc}", path=path, rule="guide") from exc
        if index is not None and isinstance(data, dict):
            index.put(FRONT_KIND, mark, mark, data)
    try:
        meta = GuideMeta.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        field = ".".join(str(part) for part in first["loc"])
        raise GuideError(first["msg"], path=path, field=field, rule="guide") from exc
    return GuideDoc(meta=meta, body=match.group(2))


def section_kind(heading: str) -> str | None:
    """Map a contract heading to its section key."""
    if heading.startswith("What ") and heading.endswith(" reports"):
        return REPORTS
    if heading.startswith("Our career interpretation"):
        return INTERPRETATION
    if heading.startswith("Build a") and heading.endswith("case study"):
        return CASE_STUDY
    if heading == "Put it into practice":
        return PRACTICE
    if heading == "Read the originals":
        return ORIGINALS
    return None


@dataclass(frozen=True)
class Section:
    key: str | None
    heading: str
    text: str


def _headings(body: str) -> list[re.Match[str]]:
    """Return what HEADING.finditer(body) finds, trying only the starts of lines with '## '."""
    found: list[re.Match[str]] = []
    at = 0 if body.startswith("## ") else body.find("\n## ")
    while at >= 0:
        start = at if at == 0 and body.startswith("## ") else at + 1
        if not found or start >= found[-1].end():
            match = HEADING.match(body, start)
            if match is not None:
                found.append(match)
        at = body.find("\n## ", start)
    return found


def split_sections(body: str) -> tuple[str, list[Section]]:
    """Split a body into the text before the first heading and its '## ' sections."""
    matches = _headings(body)
    preamble = body[: matches[0].start()] if matches else body
    sections = []
    for index, match in enumerate(matches):
        end = matches[index + 1].start() if index + 1 < len(matches) else len(body)
        heading = match.group(1)
        sections.append(Section(section_kind(heading), heading, body[match.end() : end].strip()))
    return preamble.strip(), sections
