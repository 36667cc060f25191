"""The guide store's batched writer: every guide whole, editors' text kept, revisions in order."""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

from generator.guides.document import parse
from generator.guides.store import GuideStore


def generated_store(workspace: Path) -> GuideStore:
    command = [sys.executable, "-m", "generator", "--root", str(workspace), "generate"]
    result = subprocess.run(
        [*command, "--backend", "offline"], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    return GuideStore(workspace / "guides")


def revision_names(store: GuideStore, guide_id: str) -> list[str]:
    return [revision.name for revision in store.revisions(guide_id)]


def test_a_batch_writes_each_guide_and_keeps_an_editors_text_before_replacing_it(
    workspace: Path,
) -> None:
    store = generated_store(workspace)
    ids = store.ids()
    edited = store.read_text(ids[0]).replace("## ", "An editor's paragraph.\n\n## ", 1)
    store.path(ids[0]).write_text(edited, encoding="utf-8")
    docs = [store.read(guide_id) for guide_id in ids]
    for doc in docs:
        doc.body += "\nA regenerated line.\n"

    assert store.write_many(docs) == {}

    for doc in docs:
        assert store.read(doc.meta.id).body == doc.body
    kept = store.revisions(ids[0])
    assert [revision.seq for revision in kept] == [1, 2, 3]
    assert kept[1].read_text() == edited, "the editor's text is kept, in order, before the new"
    assert kept[2].read().body == docs[0].body
    for guide_id in ids[1:]:
        assert [revision.seq for revision in store.revisions(guide_id)] == [1, 2]
    assert [p for p in workspace.rglob("*") if p.name.endswith(".tmp")] == []


def test_a_guide_whose_file_cannot_be_read_is_left_alone_and_the_others_are_written(
    workspace: Path,
) -> None:
    store = generated_store(workspace)
    ids = store.ids()
    docs = [store.read(guide_id) for guide_id in ids]
    for doc in docs:
        doc.body += "\nA regenerated line.\n"
    broken = b"\xff\xfe not UTF-8"
    store.path(ids[1]).write_bytes(broken)

    failed = store.write_many(docs)

    assert list(failed) == [ids[1]]
    assert "not UTF-8" in failed[ids[1]].message
    assert store.path(ids[1]).read_bytes() == broken
    for doc in docs[:1] + docs[2:]:
        assert store.read(doc.meta.id).body == doc.body


def test_writes_and_review_copies_at_the_same_time_never_share_a_revision_number(
    workspace: Path,
) -> None:
    store = generated_store(workspace)
    guide_id = store.ids()[0]
    base = store.read(guide_id)
    errors: list[BaseException] = []

    def regenerate(tag: str) -> None:
        try:
            for round_ in range(15):
                doc = parse(store.read_text(guide_id) or "")
                doc.body = base.body + f"\n{tag} {round_}\n"
                store.write(doc)
        except BaseException as exc:  # noqa: BLE001 - reported by the assertion below
            errors.append(exc)

    def review(tag: str) -> None:
        try:
            for round_ in range(15):
                store.keep_text(guide_id, f"{tag} copy {round_}\n")
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)

    threads = [threading.Thread(target=regenerate, args=("writer",))]
    threads += [threading.Thread(target=review, args=(f"reviewer {n}",)) for n in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert errors == []
    seqs = [revision.seq for revision in store.revisions(guide_id)]
    assert seqs == list(range(1, len(seqs) + 1)), "each revision has its own number"
    assert len(seqs) == 1 + 15 + 30
