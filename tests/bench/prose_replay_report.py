"""The model-prose section of bench_integrity: replay the corpus and print its figures.

Held-out records and kinds are counted, but their texts and messages are never printed.
"""

from __future__ import annotations

import tempfile
from collections import defaultdict
from pathlib import Path

from fakes.openai_server import FakeOpenAI
from prose_replay import (
    CORPUS,
    Corpus,
    Replay,
    Variant,
    catching_rules,
    load_corpus,
    make_root,
)
from prose_replay import replay as run_replay
from prose_replay import rounds as draft_sets

from generator.drafting.openai_drafter import MAX_REASKS

MAX_ROUNDS = MAX_REASKS + 1


def rate(hits: int, total: int) -> str:
    return f"{hits}/{total} ({100 * hits / total:.0f}%)" if total else "-"


def replay_variants(
    server: FakeOpenAI, corpus: Corpus, tmp: Path, mode: str, folder: Path = CORPUS
) -> dict[str, tuple[Variant, Replay]]:
    """Replay every variant, one root per draft set; return each variant with its replay."""
    out = {}
    for number, draft_set in enumerate(draft_sets(corpus.variants)):
        root = make_root(tmp / f"{mode}-{number}", folder)
        if mode == "repeat":
            answers = {rid: [v.draft] for rid, v in draft_set.items()}
        else:
            answers = {rid: [v.draft, v.corrected] for rid, v in draft_set.items()}
        done = run_replay(
            server, root, corpus.titles, answers, "repeat" if mode == "repeat" else "next"
        )
        for variant in draft_set.values():
            out[variant.name] = (variant, done)
    return out


def faithful_report(corpus: Corpus, base: Replay) -> tuple[int, int, int, int]:
    """Print the faithful guides' pass rate and every failing one; return the counts."""
    figures = []
    for held in (False, True):
        ids = [r for r in corpus.records if (r in corpus.held_out_records) == held]
        passing = [r for r in ids if r not in base.failed and not base.errors(r)]
        figures += [len(passing), len(ids)]
        label = "held-out" if held else "seen"
        print(f"faithful guides with 0 error findings, {label}: {rate(len(passing), len(ids))}")
        for rid in ids:
            if rid in base.failed:
                reason = "held out" if held else base.failed[rid][:200]
                print(f"  {rid}: not written ({reason})")
            elif base.errors(rid):
                found = base.errors(rid)
                if held:
                    print(f"  {rid}: " + ", ".join(sorted(f["rule"] for f in found)))
                else:
                    print(
                        f"  {rid}: "
                        + "; ".join(f"{f['rule']}: {f['message'][:160]}" for f in found)
                    )
    return tuple(figures)  # type: ignore[return-value]


def caught_report(corpus: Corpus, base: Replay, runs: dict, show_misses: bool) -> dict[str, list]:
    """Print the variants caught by a related rule, per kind; return the rules per variant."""
    caught = {}
    for name, (variant, done) in runs.items():
        families = corpus.kinds[variant.kind]
        caught[name] = catching_rules(variant, families, corpus.drafts[variant.record], base, done)
    by_kind: dict[str, list[Variant]] = defaultdict(list)
    for variant, _ in runs.values():
        by_kind[variant.kind].append(variant)
    print(f"{'kind':28} {'caught':>12} {'seen':>12} {'held-out':>12}  rules allowed (kinds.yaml)")
    for kind, items in sorted(by_kind.items()):
        seen = [v for v in items if not v.held_out]
        held = [v for v in items if v.held_out]
        print(
            f"{kind:28} {rate(sum(bool(caught[v.name]) for v in items), len(items)):>12} "
            f"{rate(sum(bool(caught[v.name]) for v in seen), len(seen)):>12} "
            f"{rate(sum(bool(caught[v.name]) for v in held), len(held)):>12}  "
            f"{' '.join(corpus.kinds[kind])}"
        )
    rejected = sum(1 for v, done in runs.values() if v.record in done.failed)
    print(f"variants the drafter refused to write (re-asks exhausted): {rejected}")
    if show_misses:
        print("uncaught seen variants (errors new on the variant, any rule)")
        for name, (variant, done) in sorted(runs.items()):
            if caught[name] or variant.held_out:
                continue
            found = [f for f in done.errors(variant.record) if f not in base.errors(variant.record)]
            print(f"--- {name} ({variant.section})")
            for f in found:
                print(f"  => {f['rule']} [{f.get('section')}]: {f['message'][:200]}")
    return caught


def repair_report(corpus: Corpus, runs: dict) -> tuple[int, int, int, int, int, int]:
    """Print how many variants reach the editor with 0 errors after repair, and the cost."""
    clean = {"seen": [0, 0], "held-out": [0, 0]}
    reasks = reasked = tokens = reask_tokens = repaired = 0
    for variant, done in runs.values():
        group = clean["held-out" if variant.held_out else "seen"]
        group[1] += 1
        rid = variant.record
        count = done.reasks(rid)
        if rid not in done.failed and not done.errors(rid):
            group[0] += 1
            repaired += bool(count)
        reasks += count
        reasked += bool(count)
        tokens += done.tokens(rid)
        reask_tokens += sum(
            c["prompt_tokens"] + c["completion_tokens"]
            for c in done.calls.get(rid, [])
            if c["attempt"] > 1
        )
    for label, (ok, total) in clean.items():
        print(
            f"variants reaching the editor with 0 errors after repair, {label}: {rate(ok, total)}"
        )
    ok = clean["seen"][0] + clean["held-out"][0]
    print(
        f"  of these {ok}, {repaired} carry the corrected draft (re-asked); {ok - repaired} still "
        "carry the variant's error, which no check found and nothing re-asked"
    )
    print(
        f"re-asks: {reasks} on {reasked} of {len(runs)} guides; tokens: {tokens} in all, "
        f"{reask_tokens} of them in re-asks (from the call log)"
    )
    return (*clean["seen"], *clean["held-out"], reasks, reask_tokens)


def rounds_used(done: Replay, guide_id: str) -> int:
    """Return the answers the model gave for a written guide (1 + its re-asks)."""
    return int(done.provenance.get(guide_id, {}).get("rounds", 1))


def round_report(label: str, guides: list[tuple[str, Replay]]) -> list[int]:
    """Print the share of guides with 0 error findings after the first answer and after each
    re-ask (cumulative: a guide that passed stays passed); return the counts per round."""
    passed = [
        rounds_used(done, rid)
        for rid, done in guides
        if rid not in done.failed and not done.errors(rid)
    ]
    counts = [sum(1 for used in passed if used <= last) for last in range(1, MAX_ROUNDS + 1)]
    names = ["first answer"] + [f"after re-ask {n}" for n in range(1, MAX_ROUNDS)]
    print(
        f"{label} passing with 0 errors: "
        + ", ".join(f"{name} {rate(n, len(guides))}" for name, n in zip(names, counts, strict=True))
    )
    return counts


def prose_section(show_misses: bool = False, folder: Path = CORPUS) -> None:
    """Replay the corpus in folder and print the model-prose figures."""
    corpus = load_corpus(folder)
    held = [v for v in corpus.variants if v.held_out]
    print(
        f"\n== model-prose corpus {folder.name}/: {len(corpus.records)} records "
        f"({len(corpus.held_out_records)} "
        f"held out), {len(corpus.variants)} one-error guide variants ({len(held)} held out); "
        "replayed through `prepguide generate --backend openai` against the fake server =="
    )
    with FakeOpenAI() as server, tempfile.TemporaryDirectory(prefix="prepguide-prose-") as tmp:
        base = run_replay(
            server,
            make_root(Path(tmp) / "faithful", folder),
            corpus.titles,
            {rid: [draft] for rid, draft in corpus.drafts.items()},
        )
        repeat = replay_variants(server, corpus, Path(tmp), "repeat", folder)
        repair = replay_variants(server, corpus, Path(tmp), "next", folder)
    print()
    f_seen, f_seen_n, f_held, f_held_n = faithful_report(corpus, base)
    round_report("faithful guides", [(rid, base) for rid in corpus.records])
    print("\nerrors caught by a related rule (a re-ask gets the same draft again)")
    caught = caught_report(corpus, base, repeat, show_misses)
    print("\nrepair mode (a re-ask gets the variant's corrected draft)")
    before = sum(
        1 for v, d in repeat.values() if v.record not in d.failed and not d.errors(v.record)
    )
    print(
        "for comparison, variants with 0 error findings when a re-ask repeats the draft "
        f"(each still carries its error): {rate(before, len(repeat))}"
    )
    r_seen, r_seen_n, r_held, r_held_n, reasks, reask_tokens = repair_report(corpus, repair)
    for held_out in (False, True):
        round_report(
            f"variants ({'held-out' if held_out else 'seen'}), repair mode,",
            [(v.record, done) for v, done in repair.values() if v.held_out == held_out],
        )
    seen = [v for v in corpus.variants if not v.held_out]
    c_seen = sum(bool(caught[v.name]) for v in seen)
    c_held = sum(bool(caught[v.name]) for v in held)
    print(
        f"\nPROSE faithful: {rate(f_seen + f_held, f_seen_n + f_held_n)} faithful guides with 0 "
        f"errors (seen {rate(f_seen, f_seen_n)}, held-out {rate(f_held, f_held_n)})"
    )
    print(
        f"PROSE caught: {rate(c_seen + c_held, len(corpus.variants))} variants caught by a related "
        f"rule (seen {rate(c_seen, len(seen))}, held-out {rate(c_held, len(held))})"
    )
    print(
        f"PROSE repair: {rate(r_seen + r_held, len(repair))} variants reach the editor with 0 "
        f"errors after repair (seen {rate(r_seen, r_seen_n)}, held-out {rate(r_held, r_held_n)}); "
        f"{reasks} re-asks, {reask_tokens} re-ask tokens"
    )
