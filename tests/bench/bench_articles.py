"""Benchmark: replay the article corpus (the seen part) through `prepguide generate article:SLUG`.

Each draft set gets a root holding the corpus records in sources/ and one article file per
article (its title and record ids). The fake OpenAI server answers each article (by its title)
with the set's draft: on a re-ask it repeats that draft ("repeat") or answers with the
variant's corrected draft ("next"). Prints faithful articles passing with no error finding of
a prose rule, one-error variants caught by a rule that kinds.yaml allows for their kind (or
refused by the drafter for a quote that is not verbatim in its own source), and, in the repair
mode, variants that reach the editor with no error.

Held-out articles and kinds are skipped before their files are opened; a finding about a
record that the guide split holds out (some seen articles read one) is printed by rule only. Run:

    python tests/bench/bench_articles.py [--misses]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fakes.openai_server import FakeOpenAI  # noqa: E402
from prose_replay import CORPUS, DRAFTER_VERBATIM, cli_env, make_root, prepguide, related  # noqa: E402

from generator.guides.document import parse  # noqa: E402

# Findings about the records' own data (dates, links), not the prose.
EDITOR_RULES = ("citations.", "originals.outdated", "staleness.")


@dataclass(frozen=True)
class Variant:
    name: str
    slug: str
    kind: str
    draft: dict
    corrected: dict


@dataclass
class Run:
    findings: dict[str, list[dict]] = field(default_factory=dict)
    failed: dict[str, str] = field(default_factory=dict)

    def errors(self, slug: str) -> list[dict]:
        return [
            f
            for f in self.findings.get(slug, [])
            if f["severity"] == "error" and not f["rule"].startswith(EDITOR_RULES)
        ]


def held_records() -> set[str]:
    """Return the records the guide split holds out (some seen articles read them)."""
    manifest = yaml.safe_load((CORPUS / "manifest.yaml").read_text(encoding="utf-8"))
    return set(manifest["held_out"]["records"])


def seen_corpus() -> tuple[dict[str, dict], list[Variant], dict[str, list[str]]]:
    """Read the seen articles and variants, never opening a held-out file."""
    manifest = yaml.safe_load((CORPUS / "manifest.yaml").read_text(encoding="utf-8"))
    held = manifest["held_out"]
    held_slugs, held_kinds = set(held["articles"]), set(held["kinds"])
    kinds = yaml.safe_load((CORPUS / "kinds.yaml").read_text(encoding="utf-8"))
    families = {**kinds["guide_kinds"], **kinds["article_kinds"]}
    articles = {
        slug: json.loads((CORPUS / "articles" / f"{slug}.json").read_text(encoding="utf-8"))
        for slug in manifest["articles"]
        if slug not in held_slugs
    }
    variants = []
    for path in sorted((CORPUS / "article_variants").glob("*.json")):
        slug, kind, _ = path.stem.split("__")
        if slug in held_slugs or kind in held_kinds:
            continue
        data = json.loads(path.read_text(encoding="utf-8"))
        variants.append(Variant(path.stem, slug, kind, data["draft"], data["corrected"]))
    return articles, variants, families


def replay(
    server: FakeOpenAI,
    root: Path,
    articles: dict[str, dict],
    drafts: dict[str, list[dict]],
    reask: str,
) -> Run:
    """Write the article files, generate them through the fake server, read their findings."""
    folder = root / "guides" / "articles"
    folder.mkdir(parents=True, exist_ok=True)
    for slug in drafts:
        spec = {"title": articles[slug]["title"], "sources": articles[slug]["sources"]}
        (folder / f"{slug}.yaml").write_text(yaml.safe_dump(spec, sort_keys=False))
    server.answer_records({articles[s]["title"]: d for s, d in drafts.items()}, reask)
    env = cli_env(server.base_url)
    ids = [f"article:{slug}" for slug in sorted(drafts)]
    done = prepguide(root, env, "generate", *ids, "--backend", "openai", "--concurrency", "8")
    result = Run()
    for slug in drafts:
        path = folder / f"{slug}.md"
        if path.is_file():
            doc = parse(path.read_text(encoding="utf-8"))
            result.findings[slug] = [f.model_dump() for f in doc.meta.findings]
        else:
            lines = [ln for ln in (done.stdout + done.stderr).splitlines() if slug in ln]
            result.failed[slug] = " ".join(" ".join(lines).split()) or f"exit {done.returncode}"
    return result


def draft_sets(variants: list[Variant]) -> list[dict[str, Variant]]:
    sets: list[dict[str, Variant]] = []
    for variant in variants:
        for group in sets:
            if variant.slug not in group:
                group[variant.slug] = variant
                break
        else:
            sets.append({variant.slug: variant})
    return sets


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--misses", action="store_true", help="Print every missed variant.")
    args = parser.parse_args()
    articles, variants, families = seen_corpus()
    hidden = held_records()
    with FakeOpenAI() as server, tempfile.TemporaryDirectory() as tmp:
        base = replay(
            server,
            make_root(Path(tmp) / "faithful"),
            articles,
            {slug: [data["draft"]] for slug, data in articles.items()},
            "repeat",
        )
        passing = [s for s in articles if s not in base.failed and not base.errors(s)]
        print(f"faithful articles with 0 error findings, seen: {len(passing)}/{len(articles)}")
        for slug in articles:
            if slug in base.failed:
                print(f"  {slug}: not written")
            for f in base.errors(slug):
                if any(record in f["message"] for record in hidden):
                    # About a record the guide split holds out: its text stays unprinted.
                    print(f"  {slug}: {f['rule']} [{f['section']}] (a held-out record)")
                else:
                    print(f"  {slug}: {f['rule']} [{f['section']}] {f['message'][:300]}")
        caught, repaired, misses = 0, 0, []
        by_kind: dict[str, list[int]] = {}
        for number, group in enumerate(draft_sets(variants)):
            for mode in ("repeat", "next"):
                root = make_root(Path(tmp) / f"{mode}-{number}")
                drafts = {
                    s: [v.draft] if mode == "repeat" else [v.draft, v.corrected]
                    for s, v in group.items()
                }
                done = replay(server, root, articles, drafts, mode)
                for slug, variant in group.items():
                    if mode == "next":
                        repaired += slug not in done.failed and not done.errors(slug)
                        continue
                    rules = catching(variant, families[variant.kind], base, done)
                    caught += bool(rules)
                    tally = by_kind.setdefault(variant.kind, [0, 0])
                    tally[0] += bool(rules)
                    tally[1] += 1
                    if not rules:
                        misses.append((variant, done))
        total = len(variants)
        print(f"one-error variants caught by a related rule, seen: {caught}/{total}")
        for kind, (hits, count) in sorted(by_kind.items()):
            print(f"  {kind}: {hits}/{count}")
        print(f"variants reaching the editor with 0 errors after repair: {repaired}/{total}")
        for variant, done in misses if args.misses else []:
            found = done.errors(variant.slug)
            print(f"  missed {variant.name}: " + "; ".join(f["rule"] for f in found))
    return 0


def catching(variant: Variant, allowed: list[str], base: Run, done: Run) -> list[str]:
    """Return the allowed rules whose new error findings caught the variant."""
    if variant.slug in done.failed:
        reason = done.failed[variant.slug]
        rule = DRAFTER_VERBATIM if "verbatim" in reason else "drafting.failed"
        return [rule] if related(rule, allowed) else []
    seen = {(f["rule"], f["message"]) for f in base.errors(variant.slug)}
    new = [f for f in done.errors(variant.slug) if (f["rule"], f["message"]) not in seen]
    return sorted({f["rule"] for f in new if related(f["rule"], allowed)})


if __name__ == "__main__":
    sys.exit(main())
