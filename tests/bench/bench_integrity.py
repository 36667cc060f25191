"""Benchmark: how many wrong editor edits the checks catch, and how many correct ones they flag.

Builds the integrity corpus (tests/integrity/: a real database, its drafted guides, and
seeded wrong and legitimate edits), writes each edited body into its guide file, runs
`generator.checks.runner.check_guides` on it, and prints the detection rate per kind (held-out and
seen templates apart), every false flag with its messages, and a summary line. A wrong edit
counts as detected only when a blocking error from a rule related to it appears that the
unedited guide did not have. Also checks seed 004 against its own record. Held-out cases
are counted but their texts are never printed, so tuning cannot see them.

Then replays the model-prose corpus (tests/modelprose/) through `prepguide generate --backend
openai` against the fake server (see tests/prose_replay.py): faithful guides passing with no
error, one-error variants caught by a rule that kinds.yaml allows for their kind, and how many
variants reach the editor with no error when a re-ask gets the corrected draft. Run:

    python tests/bench/bench_integrity.py [--seed 13] [--per-template 4] [--show TEXT] [--misses]
        [--no-prose] [--prose-misses]
"""

from __future__ import annotations

import argparse
import difflib
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from integrity import build_corpus, write_body  # noqa: E402
from integrity.corpus import SEED_RECORD, TODAY, seed_body, write_database  # noqa: E402
from integrity.model import Case  # noqa: E402
from prose_replay import CORPUS  # noqa: E402
from prose_replay_report import prose_section  # noqa: E402

from generator.checks.runner import check_guides  # noqa: E402
from generator.guides.project import Project  # noqa: E402

GOAL = 95.0


def related(rule: str, families: tuple[str, ...]) -> bool:
    """True when a rule id belongs to one of the families allowed to catch an edit."""
    return any(
        rule == f.rstrip(".") or rule.startswith(f if f.endswith(".") else f + ".")
        for f in families
    )


def errors(project: Project, guide_id: str) -> list[tuple[str, str]]:
    [result] = check_guides(project, [guide_id])
    return [(f.rule, f.message) for f in result.findings if f.severity == "error"]


def run_cases(corpus) -> dict[str, list[tuple[str, str]]]:
    """Check every edited body; return the new error findings per case id."""
    project = corpus.project
    baseline = {guide_id: set(errors(project, guide_id)) for guide_id in corpus.guides}
    new: dict[str, list[tuple[str, str]]] = {}
    for case in corpus.cases:
        write_body(project, case.guide, case.after)
        new[case.id] = [e for e in errors(project, case.guide) if e not in baseline[case.guide]]
        write_body(project, case.guide, case.before)
    return baseline, new


def rate(hits: int, total: int) -> str:
    return f"{hits}/{total} ({100 * hits / total:.0f}%)" if total else "-"


def report_kinds(cases: list[Case], hit: dict[str, bool], group: str) -> None:
    by_kind: dict[str, list[Case]] = defaultdict(list)
    for case in cases:
        if case.group == group:
            by_kind[case.kind].append(case)
    print(f"{'kind':24} {'detected':>14} {'seen':>14} {'held-out':>14}  families")
    for kind, items in sorted(by_kind.items()):
        seen = [c for c in items if not c.held_out]
        held = [c for c in items if c.held_out]
        print(
            f"{kind:24} {rate(sum(hit[c.id] for c in items), len(items)):>14} "
            f"{rate(sum(hit[c.id] for c in seen), len(seen)):>14} "
            f"{rate(sum(hit[c.id] for c in held), len(held)):>14}  {' '.join(items[0].families)}"
        )


def word_diff(before: str, after: str, context: int = 6) -> list[str]:
    """Show each changed run of words with a little context: [-old-]{+new+}."""
    a, b = before.split(" "), after.split(" ")
    out = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        left = " ".join(a[max(0, i1 - context) : i1])
        right = " ".join(a[i2 : i2 + context])
        old = f"[-{' '.join(a[i1:i2])}-]" if i2 > i1 else ""
        new = f"{{+{' '.join(b[j1:j2])}+}}" if j2 > j1 else ""
        out.append(
            ascii(f"…{left} {old}{new} {right}…")
            if any(ord(c) > 0x2000 and c not in "“”’…–—↗·" for c in old + new)
            else f"…{left} {old}{new} {right}…"
        )
    return out


def show_diff(case: Case, found: list[tuple[str, str]]) -> None:
    print(f"--- {case.id} ({case.group}, section {case.section})")
    for line in word_diff(case.before, case.after):
        print(f"  {line}")
    for rule, message in found:
        print(f"  => {rule}: {message[:300]}")


def seed_check(tmp: Path) -> list[str]:
    """Check the human-written seed 004 guide against its own record, alone in a database."""
    root = tmp / "seed"
    write_database(root)
    for path in (root / "sources").glob("*.yaml"):
        if path.stem != SEED_RECORD["id"]:
            path.unlink()
    project = Project(root, on_date=TODAY)
    from integrity.corpus import generate

    generate(project)
    write_body(project, SEED_RECORD["id"], seed_body(project))
    [result] = check_guides(project, [SEED_RECORD["id"]])
    return [f"{f.severity} {f.rule}: {f.message}" for f in result.findings]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--per-template", type=int, default=4)
    parser.add_argument("--show", help="print the diff and findings of cases whose id has TEXT")
    parser.add_argument(
        "--misses", action="store_true", help="print every undetected seen wrong edit"
    )
    parser.add_argument("--no-prose", action="store_true", help="skip the model-prose replay")
    parser.add_argument(
        "--corpus",
        type=Path,
        action="append",
        help="a model-prose corpus folder to replay (repeatable; default tests/modelprose/)",
    )
    parser.add_argument(
        "--prose-misses", action="store_true", help="print every uncaught seen prose variant"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="prepguide-integrity-") as tmp:
        corpus = build_corpus(Path(tmp) / "db", args.seed, args.per_template)
        baseline, new = run_cases(corpus)
        seed_findings = seed_check(Path(tmp))
    hit = {c.id: any(related(rule, c.families) for rule, _ in new[c.id]) for c in corpus.cases}
    wrong = [c for c in corpus.cases if c.group == "wrong"]
    legit = [c for c in corpus.cases if c.group == "legit"]
    limits = [c for c in corpus.cases if c.group == "limit"]
    print(
        f"corpus: {len(corpus.guides)} guides, {len(corpus.cases)} cases (seed {args.seed}): "
        f"{len(wrong)} wrong in {len({c.kind for c in wrong})} kinds, {len(legit)} legitimate "
        f"from {len({c.template for c in legit})} templates, {len(limits)} beyond the spec"
    )
    dirty = {g: sorted(e) for g, e in baseline.items() if e}
    print(f"unedited guides with errors: {len(dirty)}")
    for guide_id, found in dirty.items():
        print(f"  {guide_id}: " + "; ".join(f"{r}: {m[:120]}" for r, m in found))
    print("\nwrong edits (detected = a new blocking error from a related rule)")
    report_kinds(corpus.cases, hit, "wrong")
    unrelated = [c for c in wrong if not hit[c.id] and new[c.id]]
    print(f"undetected but with an unrelated new error: {len(unrelated)}")
    print("\nbeyond the spec (reported, not counted in the goal)")
    report_kinds(corpus.cases, hit, "limit")
    flagged = [c for c in legit if new[c.id]]
    print(f"\nfalse flags: {len(flagged)} of {len(legit)} legitimate edits")
    for case in flagged:
        if case.held_out:
            print(f"--- {case.id}: held out, text not shown")
        else:
            show_diff(case, new[case.id])
    if args.misses:
        print("\nundetected wrong edits")
        for case in wrong:
            if not hit[case.id] and not case.held_out:
                show_diff(case, new[case.id])
    if args.show is not None:
        print(f"\ncases matching {args.show!r}")
        for case in corpus.cases:
            if args.show in case.id and not case.held_out:
                show_diff(case, new[case.id])
    print(
        "\nseed 004 against its own record: "
        + ("pass (no findings)" if not seed_findings else "; ".join(seed_findings))
    )
    detected = sum(hit[c.id] for c in wrong)
    seen = [c for c in wrong if not c.held_out]
    held = [c for c in wrong if c.held_out]
    pct = 100 * detected / len(wrong)
    print(
        f"\nSUMMARY: detected {detected}/{len(wrong)} wrong edits ({pct:.1f}%; seen "
        f"{rate(sum(hit[c.id] for c in seen), len(seen))}, held-out "
        f"{rate(sum(hit[c.id] for c in held), len(held))}); false flags {len(flagged)}/"
        f"{len(legit)} (+{len(dirty)} unedited guides with errors); beyond spec "
        f"{rate(sum(hit[c.id] for c in limits), len(limits))}; seed 004 "
        f"{'pass' if not seed_findings else 'FAIL'}; goal >= {GOAL:.0f}% and 0 false flags: "
        f"{'met' if pct >= GOAL and not flagged and not dirty and not seed_findings else 'NOT met'}"
    )
    if not args.no_prose:
        for folder in args.corpus or [CORPUS]:
            prose_section(show_misses=args.prose_misses, folder=folder)


if __name__ == "__main__":
    main()
