"""Prompt templates: the package's defaults, overridden file by file by a root's prompts/.

A root's templates are text with placeholders, not code: they render in Jinja2's immutable
sandbox, and a file that is a symbolic link leading out of the root is refused.
"""

from __future__ import annotations

import hashlib
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

import jinja2
import jinja2.meta
import jinja2.sandbox

from generator.core.confine import link_problem
from generator.core.errors import ConfigError
from generator.sources.records import Source

SYSTEM = "system.j2"
USER = "user.j2"
REPAIR = "repair.j2"
REVISE = "revise.j2"
REQUIRED = (SYSTEM, USER, REPAIR, REVISE)
PACKAGE = "generator.prompts_data"
_CHECKOUT = Path(__file__).resolve().parents[2]


def default_prompts() -> Traversable:
    """Return the shipped prompts: package data, or the top-level prompts/ of a source checkout."""
    if (_CHECKOUT / "pyproject.toml").is_file() and (_CHECKOUT / "prompts").is_dir():
        return _CHECKOUT / "prompts"
    return resources.files(PACKAGE)


class PromptFiles:
    """Prompt files by name: a root's prompts/ first, then the shipped defaults."""

    def __init__(self, override_dir: Path, defaults: Traversable | None = None) -> None:
        self.override_dir = override_dir
        self.defaults = defaults if defaults is not None else default_prompts()

    def names(self, suffix: str) -> list[str]:
        """Return the names ending in suffix that either place holds."""
        found = {item.name for item in self.defaults.iterdir() if item.name.endswith(suffix)}
        if self.override_dir.is_dir():
            found |= {path.name for path in self.override_dir.glob(f"*{suffix}")}
        return sorted(found)

    def location(self, name: str) -> Path | Traversable:
        """Return where a file is read from: the root's copy when it has one."""
        own = self.override_dir / name
        return own if own.is_file() or own.is_symlink() else self.defaults.joinpath(name)

    def read(self, name: str) -> str | None:
        """Return a file's text, or None when neither place holds it.

        A root's file that leads out of the root through a symbolic link is refused.
        """
        place = self.location(name)
        if isinstance(place, Path) and place.parent == self.override_dir:
            problem = link_problem(place, self.override_dir.parent)
            if problem:
                raise ConfigError(problem, path=place, rule="prompts.symlink")
        if not place.is_file():
            return None
        try:
            return place.read_text(encoding="utf-8")
        except UnicodeDecodeError as exc:
            raise ConfigError("not UTF-8", path=Path(str(place)), rule="prompts") from exc


def fence_for(text: str) -> str:
    """Return a marker derived from the data itself, so the data cannot forge its own end."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def _used_templates(
    env: jinja2.Environment, texts: dict[str, str], required: tuple[str, ...] = REQUIRED
) -> list[str]:
    """Return the required templates and every template they include, extend or import."""
    used: list[str] = []
    todo = list(required)
    while todo:
        name = todo.pop()
        if name in used or name not in texts:
            continue
        used.append(name)
        todo.extend(
            ref for ref in jinja2.meta.find_referenced_templates(env.parse(texts[name])) if ref
        )
    return sorted(used)


class PromptSet:
    """The system, user and repair templates, versioned by the content of those in use."""

    # The templates of this kind of text (an article's prompts set their own).
    required: tuple[str, ...] = REQUIRED
    system_name = SYSTEM
    user_name = USER

    def __init__(
        self, prompts_dir: Path, site_name: str = "Prepguide", defaults: Traversable | None = None
    ) -> None:
        self.dir = prompts_dir
        self.site_name = site_name
        files = PromptFiles(prompts_dir, defaults)
        texts = {name: files.read(name) for name in files.names(".j2")}
        missing = [name for name in self.required if texts.get(name) is None]
        if missing:
            raise ConfigError(
                f"missing prompt template(s) {', '.join(missing)}; "
                "`prepguide prompts export` restores the defaults",
                path=prompts_dir,
                rule="prompts",
            )
        self._files = files
        env = jinja2.sandbox.ImmutableSandboxedEnvironment(
            loader=jinja2.DictLoader(texts),
            undefined=jinja2.StrictUndefined,
            autoescape=False,
            keep_trailing_newline=False,
        )
        try:
            used = _used_templates(env, texts, self.required)
            self._system = env.get_template(self.system_name)
            self._user = env.get_template(self.user_name)
            self._repair = env.get_template(REPAIR)
            self._revise = env.get_template(REVISE)
        except jinja2.TemplateSyntaxError as exc:
            raise ConfigError(
                f"template syntax error at line {exc.lineno}: {exc.message}",
                path=Path(str(files.location(exc.name or ""))),
                rule="prompts",
            ) from exc
        digest = hashlib.sha256()
        for name in used:
            digest.update(f"{name}\0{texts[name]}\0".encode())
        self.hash = digest.hexdigest()
        self.used = used

    def _render(self, template: jinja2.Template, **values: object) -> str:
        path = Path(str(self._files.location(template.name or "")))
        try:
            return template.render(**values).strip()
        except jinja2.sandbox.SecurityError as exc:
            raise ConfigError(
                f"prompt template {template.name} reaches for what prompt templates may not "
                f"use ({exc}); "
                "a prompt template may only show the record's fields",
                path=path,
                rule="prompts.sandbox",
            ) from exc
        except jinja2.UndefinedError as exc:
            raise ConfigError(
                f"template uses an unknown variable: {exc.message}",
                path=path,
                rule="prompts",
            ) from exc
        except (TypeError, ValueError, ArithmeticError, LookupError, RecursionError) as exc:
            raise ConfigError(
                f"template fails to render: {type(exc).__name__}: {exc}",
                path=path,
                rule="prompts",
            ) from exc

    def messages(self, source: Source) -> list[dict[str, str]]:
        """Return the system and user messages for one source record."""
        data = record_data(source)
        fence = fence_for("\n".join([*map(str, data.values())]))
        system = self._render(self._system, site_name=self.site_name, company=source.company)
        user = self._render(self._user, fence=fence, **data)
        return [{"role": "system", "content": system}, {"role": "user", "content": user}]

    def repair(self, errors: list[str]) -> dict[str, str]:
        """Return the follow-up user message that lists only what was wrong."""
        return {"role": "user", "content": self._render(self._repair, errors=errors)}

    def revise(self, text: str, note: str) -> dict[str, str]:
        """Return the user message that asks to revise the current text after an editor's note."""
        fence = fence_for(f"{text}\n{note}")
        body = self._render(self._revise, text=text, note=note, fence=fence)
        return {"role": "user", "content": body}


def record_data(source: Source) -> dict:
    """Return what a prompt shows of a record: its text fields, never its URLs or dates."""
    return {
        "company": source.company,
        "title": source.title,
        "summary": source.summary,
        "notes": source.notes or "",
        "scale": list(source.scale),
        "techniques": list(source.techniques),
        "stack": list(source.stack),
    }
