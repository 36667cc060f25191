"""Benchmark: replay the article corpus (the seen part) through `prepguide generate article:SLUG`.

Each draft set gets a root holding the corpus records in sources/ and one article file per
article (its title and record ids). The fake OpenAI server answers each article (by its title)
with the set's draft: on a re-ask it repeats that draft ("repeat") or answers with the
variant's corrected draft ("next"). Prints faithful articles passing with no error finding of
a prose rule, one-error variants caught by a rule that kinds.yaml allows for their kind (or
refused by the drafter for a quote that is not verbatim in its own source), and, in the repair
mode, variants that reach the editor with no error.

Held-out articles and kinds are skipped before their files are opened; a finding about a
record that the guide split holds out (some seen articles read one) is printed by rule only.
With --held-out, the held-out articles and variants are replayed too, in roots of their own
after the seen part, and only their aggregate figures are printed: counts, counts per kind
and the rule ids of findings, never a slug, a message or a text. Run:

    python tests/bench/bench_articles.py [--misses] [--held-out] [--corpus DIR]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import prose_replay  # noqa: E402
from fakes.openai_server import FakeOpenAI  # noqa: E402
from prose_replay import DRAFTER_VERBATIM, cli_env, make_root, prepguide, related  # noqa: E402

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


def corpus() -> Path:
    """Return the corpus folder being replayed (--corpus, default tests/modelprose/)."""
    return prose_replay.CORPUS


def held_records() -> set[str]:
    """Return the records the guide split holds out (some seen articles read them)."""
    manifest = yaml.safe_load((corpus() / "manifest.yaml").read_text(encoding="utf-8"))
    return set(manifest["held_out"]["records"])


def seen_corpus() -> tuple[dict[str, dict], list[Variant], dict[str, list[str]]]:
    """Read the seen articles and variants, never opening a held-out file."""
    return read_corpus(held_out=False)


def read_corpus(held_out: bool) -> tuple[dict[str, dict], list[Variant], dict[str, list[str]]]:
    """Read the seen articles and variants, or with held_out only the held-out ones.

    An article variant is held out when its slug or its kind is; the held-out variants of a
    seen article come with that seen article, so that they can be replayed.
    """
    manifest = yaml.safe_load((corpus() / "manifest.yaml").read_text(encoding="utf-8"))
    held = manifest["held_out"]
    held_slugs, held_kinds = set(held["articles"]), set(held["kinds"])
    kinds = yaml.safe_load((corpus() / "kinds.yaml").read_text(encoding="utf-8"))
    families = {**kinds["guide_kinds"], **kinds["article_kinds"]}
    names = []
    for path in sorted((corpus() / "article_variants").glob("*.json")):
        slug, kind, _ = path.stem.split("__")
        if (slug in held_slugs or kind in held_kinds) == held_out:
            names.append(path)
    wanted = {path.stem.split("__")[0] for path in names} if held_out else set()
    articles = {
        slug: json.loads((corpus() / "articles" / f"{slug}.json").read_text(encoding="utf-8"))
        for slug in manifest["articles"]
        if (slug in held_slugs) == held_out or slug in wanted
    }
    variants = []
    for path in names:
        slug, kind, _ = path.stem.split("__")
        data = json.loads(path.read_text(encoding="utf-8"))
        variants.append(Variant(path.stem, slug, kind, data["draft"], data["corrected"]))
    return articles, variants, families


def held_slugs() -> set[str]:
    """Return the slugs of the held-out articles."""
    manifest = yaml.safe_load((corpus() / "manifest.yaml").read_text(encoding="utf-8"))
    return set(manifest["held_out"]["articles"])


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


@dataclass
class Variants:
    """What replaying the variants gave: the catching rules and the repair mode's outcome."""

    caught: dict[str, list[str]] = field(default_factory=dict)
    runs: dict[str, Run] = field(default_factory=dict)
    repaired: dict[str, bool] = field(default_factory=dict)


def replay_variants(
    server: FakeOpenAI,
    tmp: Path,
    label: str,
    articles: dict[str, dict],
    variants: list[Variant],
    families: dict[str, list[str]],
    base: Run,
) -> Variants:
    """Replay the variants in draft sets, a re-ask repeating the draft and then correcting it."""
    out = Variants()
    for number, group in enumerate(draft_sets(variants)):
        for mode in ("repeat", "next"):
            root = make_root(tmp / f"{label}{mode}-{number}", corpus())
            drafts = {
                s: [v.draft] if mode == "repeat" else [v.draft, v.corrected]
                for s, v in group.items()
            }
            done = replay(server, root, articles, drafts, mode)
            for slug, variant in group.items():
                if mode == "next":
                    out.repaired[variant.name] = slug not in done.failed and not done.errors(slug)
                    continue
                out.caught[variant.name] = catching(variant, families[variant.kind], base, done)
                out.runs[variant.name] = done
    return out


def faithful(server: FakeOpenAI, root: Path, articles: dict[str, dict]) -> Run:
    """Replay every article with its faithful draft."""
    drafts = {slug: [data["draft"]] for slug, data in articles.items()}
    return replay(server, make_root(root, corpus()), articles, drafts, "repeat")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--misses", action="store_true", help="Print every missed variant.")
    parser.add_argument(
        "--held-out",
        action="store_true",
        help="Also replay the held-out articles and variants; print only their aggregates.",
    )
    parser.add_argument(
        "--corpus", type=Path, help="The corpus folder to replay (default tests/modelprose/)."
    )
    args = parser.parse_args()
    if args.corpus:
        prose_replay.CORPUS = args.corpus.resolve()
    articles, variants, families = seen_corpus()
    hidden = held_records()
    with FakeOpenAI() as server, tempfile.TemporaryDirectory() as tmp:
        base = faithful(server, Path(tmp) / "faithful", articles)
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
        done = replay_variants(server, Path(tmp), "", articles, variants, families, base)
        by_kind: dict[str, list[int]] = {}
        for variant in variants:
            tally = by_kind.setdefault(variant.kind, [0, 0])
            tally[0] += bool(done.caught[variant.name])
            tally[1] += 1
        caught = sum(bool(rules) for rules in done.caught.values())
        total = len(variants)
        print(f"one-error variants caught by a related rule, seen: {caught}/{total}")
        for kind, (hits, count) in sorted(by_kind.items()):
            print(f"  {kind}: {hits}/{count}")
        repaired = sum(done.repaired.values())
        print(f"variants reaching the editor with 0 errors after repair: {repaired}/{total}")
        for variant in variants if args.misses else []:
            if not done.caught[variant.name]:
                found = done.runs[variant.name].errors(variant.slug)
                print(f"  missed {variant.name}: " + "; ".join(f["rule"] for f in found))
        if args.held_out:
            held_out(server, Path(tmp), base, families)
    return 0


def held_out(server: FakeOpenAI, tmp: Path, seen: Run, families: dict[str, list[str]]) -> None:
    """Replay the held-out articles and variants; print only aggregate figures and rule ids."""
    articles, variants, _ = read_corpus(held_out=True)
    held = {slug: articles[slug] for slug in sorted(held_slugs() & set(articles))}
    base = faithful(server, tmp / "held-faithful", held)
    # A held-out variant of a seen article is judged against that article's seen replay.
    merged = Run({**seen.findings, **base.findings}, {**seen.failed, **base.failed})
    passing = [s for s in held if s not in base.failed and not base.errors(s)]
    print(f"\nHELD-OUT faithful articles with 0 error findings: {len(passing)}/{len(held)}")
    print(f"  not written: {sum(s in base.failed for s in held)}")
    rules = counted(f["rule"] for s in held for f in base.errors(s))
    print(f"  rules of their error findings: {rules}")
    done = replay_variants(server, tmp, "held-", articles, variants, families, merged)
    caught = sum(bool(rules) for rules in done.caught.values())
    print(f"HELD-OUT one-error variants caught by a related rule: {caught}/{len(variants)}")
    for kind in sorted({v.kind for v in variants}):
        items = [v for v in variants if v.kind == kind]
        hits = [v for v in items if done.caught[v.name]]
        rules = counted(rule for v in hits for rule in done.caught[v.name])
        print(f"  {kind}: {len(hits)}/{len(items)} (caught by: {rules})")
    missed = [v for v in variants if not done.caught[v.name]]
    new = [
        f["rule"]
        for v in missed
        for f in done.runs[v.name].errors(v.slug)
        if f not in merged.errors(v.slug)
    ]
    print(f"  rules of the new errors on uncaught variants: {counted(new)}")
    repaired = f"{sum(done.repaired.values())}/{len(variants)}"
    print(f"HELD-OUT variants reaching the editor with 0 errors after repair: {repaired}")


def counted(rules) -> str:
    """Say how often each rule id occurs, most frequent first."""
    tally = Counter(rules)
    return (
        ", ".join(f"{rule} x{n}" for rule, n in sorted(tally.items(), key=lambda i: (-i[1], i[0])))
        or "none"
    )


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
