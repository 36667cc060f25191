"""Prompt templates: prompts/*.j2 rendered with record text passed only as variables."""

from __future__ import annotations

import hashlib
from pathlib import Path

import jinja2

from generator.errors import ConfigError
from generator.sources import Source

SYSTEM = "system.j2"
USER = "user.j2"
REPAIR = "repair.j2"
REQUIRED = (SYSTEM, USER, REPAIR)


def fence_for(text: str) -> str:
    """Return a marker derived from the data itself, so the data cannot forge its own end."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


class PromptSet:
    """The system, user and repair templates of one prompts folder, versioned by content."""

    def __init__(self, prompts_dir: Path, site_name: str = "Prepguide") -> None:
        self.dir = prompts_dir
        self.site_name = site_name
        names = (
            sorted(path.name for path in prompts_dir.glob("*.j2")) if prompts_dir.is_dir() else []
        )
        missing = [name for name in REQUIRED if name not in names]
        if missing:
            raise ConfigError(
                f"missing prompt template(s) {', '.join(missing)}; restore them from git",
                path=prompts_dir,
                rule="prompts",
            )
        texts = {}
        for name in names:
            try:
                texts[name] = (prompts_dir / name).read_text(encoding="utf-8")
            except UnicodeDecodeError as exc:
                raise ConfigError("not UTF-8", path=prompts_dir / name, rule="prompts") from exc
        digest = hashlib.sha256()
        for name in names:
            digest.update(f"{name}\0{texts[name]}\0".encode())
        self.hash = digest.hexdigest()
        env = jinja2.Environment(
            loader=jinja2.DictLoader(texts),
            undefined=jinja2.StrictUndefined,
            autoescape=False,
            keep_trailing_newline=False,
        )
        try:
            self._system = env.get_template(SYSTEM)
            self._user = env.get_template(USER)
            self._repair = env.get_template(REPAIR)
        except jinja2.TemplateSyntaxError as exc:
            raise ConfigError(
                f"template syntax error at line {exc.lineno}: {exc.message}",
                path=prompts_dir / (exc.name or ""),
                rule="prompts",
            ) from exc

    def _render(self, template: jinja2.Template, **values: object) -> str:
        try:
            return template.render(**values).strip()
        except jinja2.UndefinedError as exc:
            raise ConfigError(
                f"template uses an unknown variable: {exc.message}",
                path=self.dir / (template.name or ""),
                rule="prompts",
            ) from exc

    def messages(self, source: Source) -> list[dict[str, str]]:
        """Return the system and user messages for one source record."""
        data = {
            "company": source.company,
            "title": source.title,
            "summary": source.summary,
            "notes": source.notes or "",
            "scale": list(source.scale),
            "techniques": list(source.techniques),
            "stack": list(source.stack),
        }
        fence = fence_for("\n".join([*map(str, data.values())]))
        system = self._render(self._system, site_name=self.site_name, company=source.company)
        user = self._render(self._user, fence=fence, **data)
        return [{"role": "system", "content": system}, {"role": "user", "content": user}]

    def repair(self, errors: list[str]) -> dict[str, str]:
        """Return the follow-up user message that lists only what was wrong."""
        return {"role": "user", "content": self._render(self._repair, errors=errors)}
