"""The same guide bodies as a Hugo site with a minimal layout, for bench_publish.py.

Hugo is a comparison only, never a dependency: Debian's `hugo` package (0.111) when it is
installed. The site has one page per guide (content/guides/<id>.md), the companies and tags
taxonomies (company as the one company term, techniques and stack as tags), paginated lists
of the home page, the section and each term, a page of every taxonomy's terms, the home
page's RSS feed and Hugo's sitemap. Each build goes into a new folder with a new cache folder.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from collections.abc import Iterable, Iterator
from pathlib import Path

import yaml

HUGO_CONFIG = """\
baseURL = "https://prepguide.example.org/"
languageCode = "en"
title = "Prepguide"
paginate = {page_size}
disableHugoGeneratorInject = true
enableRobotsTXT = true

[taxonomies]
company = "companies"
tag = "tags"

[outputs]
home = ["HTML", "RSS"]
section = ["HTML"]
taxonomy = ["HTML"]
term = ["HTML"]
"""

BASEOF = """\
<!doctype html>
<html lang="{{ site.LanguageCode }}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{ if .IsHome }}{{ site.Title }}{{ else }}{{ .Title }} · {{ site.Title }}{{ end }}</title>
{{ with .OutputFormats.Get "rss" }}<link rel="alternate" type="application/rss+xml" \
href="{{ .Permalink }}">{{ end }}
</head>
<body>
<header><a href="{{ "/" | relURL }}">{{ site.Title }}</a>
<nav><a href="{{ "/companies/" | relURL }}">Companies</a> \
<a href="{{ "/tags/" | relURL }}">Tags</a></nav></header>
<main>{{ block "main" . }}{{ end }}</main>
<footer>{{ site.Title }}</footer>
</body>
</html>
"""

SINGLE = """\
{{ define "main" }}
<article>
<h1>{{ .Title }}</h1>
<p><time datetime="{{ .Date.Format "2006-01-02" }}">{{ .Date.Format "2 January 2006" }}</time>
{{ range .GetTerms "companies" }} · <a href="{{ .RelPermalink }}">{{ .LinkTitle }}</a>{{ end }}</p>
{{ .Content }}
<p>{{ range .GetTerms "tags" }}<a href="{{ .RelPermalink }}">{{ .LinkTitle }}</a> {{ end }}</p>
</article>
{{ end }}
"""

LIST = """\
{{ define "main" }}
<h1>{{ if .IsHome }}{{ site.Title }}{{ else }}{{ .Title }}{{ end }}</h1>
{{ $pages := cond .IsHome site.RegularPages .Pages }}
{{ $paginator := .Paginate $pages }}
{{ range $paginator.Pages }}
<article>
<h2><a href="{{ .RelPermalink }}">{{ .Title }}</a></h2>
<p><time datetime="{{ .Date.Format "2006-01-02" }}">{{ .Date.Format "2 January 2006" }}</time>
{{ range .GetTerms "companies" }} · {{ .LinkTitle }}{{ end }}</p>
<p>{{ .Summary }}</p>
</article>
{{ end }}
<nav>
{{ with $paginator.Prev }}<a href="{{ .URL }}">Newer</a>{{ end }}
Page {{ $paginator.PageNumber }} of {{ $paginator.TotalPages }}
{{ with $paginator.Next }}<a href="{{ .URL }}">Older</a>{{ end }}
</nav>
{{ end }}
"""

TERMS = """\
{{ define "main" }}
<h1>{{ .Title }}</h1>
<ul>
{{ range .Data.Terms.Alphabetical }}
<li><a href="{{ .Page.RelPermalink }}">{{ .Page.LinkTitle }}</a> ({{ .Count }})</li>
{{ end }}
</ul>
{{ end }}
"""

LAYOUTS = {
    "_default/baseof.html": BASEOF,
    "_default/single.html": SINGLE,
    "_default/list.html": LIST,
    "_default/terms.html": TERMS,
}


def hugo_binary() -> tuple[str | None, str]:
    """Return the hugo executable and its version line, or None and why it cannot be used."""
    found = shutil.which("hugo")
    if found is None:
        return None, "hugo is not installed (Debian: apt-get install hugo)"
    try:
        done = subprocess.run(
            [found, "version"], capture_output=True, text=True, check=True, timeout=30
        )
    except (OSError, subprocess.SubprocessError) as exc:
        return None, f"{found} does not run: {exc}"
    return found, done.stdout.strip()


def guide_entries(root: Path, ids: Iterable[str]) -> Iterator[tuple[str, dict, str]]:
    """Yield each guide's id, its source record and the body of its working file."""
    for guide_id in sorted(ids):
        text = (root / "guides" / f"{guide_id}.md").read_text(encoding="utf-8")
        body = text.split("\n---\n", 1)[1]
        record = yaml.safe_load((root / "sources" / f"{guide_id}.yaml").read_text())
        yield guide_id, record, body


def write_hugo_site(root: Path, site: Path, ids: Iterable[str], page_size: int) -> int:
    """Write the given guides of the workspace as a Hugo site; return the count."""
    content = site / "content" / "guides"
    content.mkdir(parents=True)
    (site / "content" / "guides" / "_index.md").write_text(
        "---\ntitle: Guides\n---\n", encoding="utf-8"
    )
    count = 0
    for guide_id, record, body in guide_entries(root, ids):
        front = {
            "title": record["title"],
            "date": str(record["published"]),
            "slug": guide_id,
            "summary": " ".join(record["summary"].split()[:40]),
            "companies": [record["company"]],
            "tags": record["techniques"] + record["stack"],
        }
        # JSON is YAML, and Hugo reads a JSON object as front matter as it is.
        head = json.dumps(front, ensure_ascii=False, indent=1)
        (content / f"{guide_id}.md").write_text(f"{head}\n\n{body}", encoding="utf-8")
        count += 1
    (site / "config.toml").write_text(HUGO_CONFIG.format(page_size=page_size), encoding="utf-8")
    for relative, text in LAYOUTS.items():
        target = site / "layouts" / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    return count


def run_hugo(hugo: str, site: Path, out: Path) -> dict:
    """Build the Hugo site into a new folder with a new cache folder; return its figures.

    The time is the whole `hugo --quiet` process (its start-up is a few milliseconds); the
    peak memory is its peak RSS.
    """
    assert not out.exists(), out
    cache = out.with_name(out.name + "-cache")
    cmd = [hugo, "--quiet", "--source", str(site), "--destination", str(out)]
    cmd += ["--cacheDir", str(cache)]
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"hugo failed:\n{err[-4000:]}")
    pages = sum(1 for p in out.rglob("*") if p.suffix in (".html", ".xml"))
    return {"elapsed": elapsed, "peak_mb": usage.ru_maxrss / 1024, "pages": pages}
