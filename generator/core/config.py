"""Settings from prepguide.toml, validated with pydantic."""

from __future__ import annotations

import email.policy
import re
import tomllib
import unicodedata
from pathlib import Path
from typing import Annotated
from urllib.parse import parse_qsl, urlsplit

import idna
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from generator.core.catalogue import DEFAULT_LANGUAGE, language_problem
from generator.core.confine import link_problem
from generator.core.errors import ConfigError
from generator.core.names import Text
from generator.core.urls import url_problem

CONFIG_NAME = "prepguide.toml"
# Ranges wide enough for any real use, narrow enough that dates and timers cannot overflow.
MAX_DAYS = 36_500
MAX_SECONDS = 3_600.0
MAX_WORKERS = 1_024
MAX_SITE_NAME = 200
MAX_NAME = 200  # a reviewer's name


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)


# A path inside the site: folders and a file name of letters, digits, ".", "_" and "-".
SITE_PATH = re.compile(r"[A-Za-z0-9_][A-Za-z0-9._-]*(?:/[A-Za-z0-9_][A-Za-z0-9._-]*)*")
LOGO_SUFFIXES = (".svg", ".png", ".ico", ".webp", ".jpg", ".jpeg", ".gif")


def site_path_problem(value: str) -> str | None:
    """Say why value is no path of a file of the site ("logo.svg", "about/index.html")."""
    if not SITE_PATH.fullmatch(value) or ".." in value.split("/") or len(value) > 200:
        return (
            f"{value!r} is not a path inside the site; give one such as about/index.html "
            "(letters, digits, '.', '_', '-' and '/', no '..')"
        )
    return None


class FooterLink(_Section):
    """A link in every page's footer: to a page of the web, or to a file of the root's static/."""

    label: Annotated[Text, Field(min_length=1, max_length=80)]
    url: str

    @field_validator("url")
    @classmethod
    def _url(cls, value: str) -> str:
        if "://" in value or value.startswith("//") or ":" in value.split("/", 1)[0]:
            problem = url_problem(value)
            if problem:
                raise ValueError(f"{value!r} {problem}")
            return value
        problem = site_path_problem(value)
        if problem:
            raise ValueError(f"{problem}, or an http(s) address")
        return value

    @property
    def external(self) -> bool:
        return "://" in self.url


class SiteSettings(_Section):
    name: Annotated[Text, Field(min_length=1, max_length=MAX_SITE_NAME)] = "Prepguide"
    base_url: str = "https://prepguide.example.org"
    page_size: int = Field(default=50, ge=1, le=10_000)  # per page of every listing
    language: str = DEFAULT_LANGUAGE  # <html lang> and the catalogue of the pages' words
    description: Annotated[Text, Field(max_length=300)] = ""  # the front page's opening line
    logo: str | None = None  # a file of the root's static/, shown beside the site's name
    footer_links: list[FooterLink] = Field(default_factory=list, max_length=20)

    @field_validator("logo")
    @classmethod
    def _logo(cls, value: str | None) -> str | None:
        if value is None:
            return None
        problem = site_path_problem(value)
        if problem:
            raise ValueError(problem)
        if not value.lower().endswith(LOGO_SUFFIXES):
            raise ValueError(f"{value!r} is not an image; give a {', '.join(LOGO_SUFFIXES)} file")
        return value

    @field_validator("language")
    @classmethod
    def _language(cls, value: str) -> str:
        problem = language_problem(value)
        if problem:
            raise ValueError(problem)
        return value

    @field_validator("base_url")
    @classmethod
    def _base_url(cls, value: str) -> str:
        problem = url_problem(value)
        if problem:
            raise ValueError(f"{value!r} {problem}; give the site's address, https://...")
        if "?" in value or "#" in value:
            raise ValueError(f"{value!r} has a query or fragment; give the site's address only")
        return value


class CheckSettings(_Section):
    freshness_days: int = Field(default=180, ge=1, le=MAX_DAYS)


class ModelPrice(_Section):
    """Prices of one model in money per million tokens; nothing is assumed when absent."""

    input: float = Field(ge=0)
    output: float = Field(ge=0)
    cached_input: float | None = Field(default=None, ge=0)
    batch_discount: float = Field(default=0.0, ge=0, le=1)  # 0.5: batch costs half


class LLMSettings(_Section):
    prices: dict[str, ModelPrice] = {}
    model: Text = "gpt-4o-mini"
    timeout: float = Field(default=60.0, gt=0, le=MAX_SECONDS)
    concurrency: int = Field(default=8, ge=1, le=MAX_WORKERS)
    max_retries: int = Field(default=2, ge=0, le=100)
    max_tokens: int = Field(default=2000, ge=64, le=10_000_000)


class TopicSettings(_Section):
    min_sources: int = Field(default=2, ge=1, le=1_000_000)


class VerifySettings(_Section):
    timeout: float = Field(default=15.0, gt=0, le=MAX_SECONDS)
    concurrency: int = Field(default=8, ge=1, le=MAX_WORKERS)
    host_interval: float = Field(default=1.0, ge=0, le=MAX_SECONDS)  # between requests to a host


class DigestSettings(_Section):
    sender: str | None = None  # "Prepguide <digest@example.org>"
    footer: str | None = None  # postal address and contact line shown in every issue
    unsubscribe_url: str | None = None  # https endpoint of your mail provider or web form
    subscribe_url: str | None = None  # where the site's subscribe box posts
    per_minute: int = Field(default=60, ge=0)  # messages per minute; 0: no limit

    @field_validator("unsubscribe_url", "subscribe_url")
    @classmethod
    def _web(cls, value: str | None, info) -> str | None:
        if value is None:
            return None
        try:
            parts = urlsplit(value)
        except ValueError as exc:
            raise ValueError(f"{value!r} is not a URL ({exc})") from None
        schemes = ("https",) if info.field_name == "unsubscribe_url" else ("http", "https")
        if parts.scheme not in schemes or not parts.netloc:
            raise ValueError(f"must be an absolute {' or '.join(schemes)} URL")
        if info.field_name == "unsubscribe_url":
            _unsubscribe_problem(value, parts)
        return value

    @field_validator("sender")
    @classmethod
    def _sender(cls, value: str | None) -> str | None:
        if value is not None:
            _sender_problem(value)
        return value


URL_CHARS = re.compile(r"[A-Za-z0-9\-._~:/?\[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2}")


def _unsubscribe_problem(value: str, parts) -> None:
    """Refuse an unsubscribe URL that would lose or leak the token appended to it."""
    if "#" in value:
        raise ValueError(f"{value!r} has a #fragment, after which the token would be lost")
    bad = URL_CHARS.sub("", value)
    if bad:
        raise ValueError(
            f"{value!r} holds {bad[0]!r}, which ends the <...> of List-Unsubscribe or is not "
            "allowed in a URL; percent-encode it"
        )
    if "@" in parts.netloc:
        raise ValueError(f"{value!r} carries a user name or password; remove them")
    if any(key == "token" for key, _ in parse_qsl(parts.query, keep_blank_values=True)):
        raise ValueError(f"{value!r} already has a token= parameter; the reader's is added")


def _sender_problem(value: str) -> None:
    """Refuse a sender that is not one plain address with an encodable domain."""
    if any(unicodedata.category(char) in ("Cc", "Cf") for char in value):
        raise ValueError(f"{value!r} contains a control character; write it on one line")
    try:
        header = email.policy.default.header_factory("from", value)
        addresses = header.addresses
    except (ValueError, IndexError, TypeError) as exc:
        raise ValueError(f"{value!r} is not a mail address ({exc})") from None
    if header.defects or len(addresses) != 1 or not addresses[0].domain:
        raise ValueError(f"{value!r} is not one address such as Prepguide <digest@example.org>")
    address = addresses[0]
    hidden = f"{address.display_name}{address.username}"
    if any(unicodedata.category(char) in ("Cc", "Cf") for char in hidden):
        raise ValueError(f"{value!r} hides a control character in an encoded word")
    if not address.username.isascii():
        raise ValueError(f"{value!r} has a non-ASCII local part; use an ASCII sender address")
    try:
        domain = idna.encode(address.domain.rstrip("."), uts46=True).decode("ascii")
    except (idna.IDNAError, UnicodeError) as exc:
        raise ValueError(f"{value!r} has a domain that is not a valid name ({exc})") from None
    if "." not in domain:
        raise ValueError(f"{value!r} has a domain without a dot")


class ReviewSettings(_Section):
    # The reviewer name `review approve/reject --by` and the review page default to.
    reviewer: Annotated[Text, Field(min_length=1, max_length=MAX_NAME)] | None = None


class Settings(_Section):
    site: SiteSettings = SiteSettings()
    checks: CheckSettings = CheckSettings()
    llm: LLMSettings = LLMSettings()
    topics: TopicSettings = TopicSettings()
    verify: VerifySettings = VerifySettings()
    digest: DigestSettings = DigestSettings()
    review: ReviewSettings = ReviewSettings()


class Workspace(BaseModel):
    """The folders of one prepguide root."""

    model_config = ConfigDict(frozen=True)

    root: Path

    @property
    def sources_dir(self) -> Path:
        return self.root / "sources"

    @property
    def guides_dir(self) -> Path:
        return self.root / "guides"

    @property
    def prompts_dir(self) -> Path:
        return self.root / "prompts"

    @property
    def templates_dir(self) -> Path:
        return self.root / "templates"

    @property
    def static_dir(self) -> Path:
        return self.root / "static"

    @property
    def state_dir(self) -> Path:
        return self.root / ".prepguide"

    @property
    def digest_dir(self) -> Path:
        return self.root / "digest"

    @property
    def site_dir(self) -> Path:
        return self.root / "site"

    @property
    def preview_dir(self) -> Path:
        """Where a preview goes: never the folder a real publish fills."""
        return self.root / "site-preview"

    @property
    def config_path(self) -> Path:
        return self.root / CONFIG_NAME


def load_settings(workspace: Workspace) -> Settings:
    """Read prepguide.toml under the root; defaults when it is absent."""
    path = workspace.config_path
    if not path.exists() and not path.is_symlink():
        return Settings()
    problem = link_problem(path, workspace.root)
    if problem:
        raise ConfigError(problem, path=path, rule="config.symlink")
    if not path.is_file():
        raise ConfigError(
            "is not a regular file; it must be a TOML text file", path=path, rule="config"
        )
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(f"not valid TOML: {exc}", path=path, rule="config") from exc
    except RecursionError as exc:
        message = "not valid TOML: arrays or tables nested too deeply"
        raise ConfigError(message, path=path, rule="config") from exc
    except OSError as exc:
        message = f"cannot be read: {exc.strerror or type(exc).__name__}"
        raise ConfigError(message, path=path, rule="config") from exc
    return settings_from(data, path)


def settings_from(data: dict, path: Path) -> Settings:
    """Validate settings read (or about to be written) at path; a ConfigError names the field."""
    try:
        return Settings.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        field = ".".join(str(part) for part in first["loc"])
        message = str(first["msg"]).removeprefix("Value error, ")
        if first["type"] != "value_error" and "input" in first:
            message += f" (got {first['input']!r})"
        raise ConfigError(message, path=path, field=field, rule="config") from exc
