"""Issue 11, review side: a transition and its audit line are one durable step (kill loops)."""

from __future__ import annotations

import inspect
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from functools import partial
from pathlib import Path

import pytest
from test_review import (
    EDITED_STEP,
    FEATURES,
    RECORDS,
    SEARCH,
    STEP,
    STREAM,
    generate,
    hand_edit,
    make_review_workspace,
    run,
)

from generator import review
from generator.core.errors import GuideError
from generator.guides.project import Project

REPO = Path(__file__).resolve().parents[2]
COPIES = 3  # guides per record text: 9 guides in all
KILL_PHASES = int(os.environ.get("PREPGUIDE_KILL_PHASES", "5"))  # the iteration cap
TO_STATE = {
    "revise": "draft",
    "approve": "approved",
    "reject": "rejected",
    "withdraw": "withdrawn",
    "publish": "published",
}


def drive(action: str, root: str, ids: list[str]) -> None:
    """Run one transition over many guides, refusals ignored (publish and withdraw take one id)."""
    from pathlib import Path

    from generator import review
    from generator.core.errors import ReviewError
    from generator.guides.project import Project

    for guide_id in ids:
        project = Project(Path(root))
        try:
            if action == "publish":
                review.mark_published(project, [guide_id])
            elif action == "withdraw":
                review.withdraw(project, guide_id, by="carol", reason="superseded")
            else:
                review.reject(project, guide_id, by="bob", note="say it plainly")
        except ReviewError:
            pass


DRIVER = inspect.getsource(drive) + "\nimport sys\ndrive(sys.argv[1], sys.argv[2], sys.argv[3:])\n"


def many_guides(root: Path) -> list[str]:
    """Create a root whose records are copies of the review records, and generate them."""
    (root / "sources").mkdir(parents=True)
    shutil.copytree(REPO / "prompts", root / "prompts")  # a link out of the root is refused
    (root / "prepguide.toml").write_text((REPO / "prepguide.toml").read_text())
    ids = []
    for key, text in RECORDS.items():
        for n in range(COPIES):
            ids.append(f"{key}-{n}")
            unique = text.replace("\nurl: https://", f"\nurl: https://n{n}.", 1)
            (root / "sources" / f"{ids[-1]}.yaml").write_text(unique, encoding="utf-8")
    generate(root)
    return sorted(ids)


def command(root: Path, action: str, ids: list[str]) -> list[str]:
    if action == "approve":
        cli = [sys.executable, "-m", "generator", "--root", str(root), "review", "approve"]
        return [*cli, *ids, "--by", "alice"]
    return [sys.executable, "-c", DRIVER, action, str(root), *ids]


def audit_lines(root: Path) -> int:
    try:
        return (root / "guides" / ".audit.jsonl").read_bytes().count(b"\n")
    except FileNotFoundError:
        return 0


def kill_midway(cmd: list[str], root: Path, rng: random.Random, span: int) -> bool:
    """Start cmd, SIGKILL it once the log grew by a random number of lines; True if killed."""
    target = audit_lines(root) + rng.randrange(span + 1)
    extra = rng.uniform(0, 0.004)
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while proc.poll() is None and audit_lines(root) < target and time.monotonic() < deadline:
        time.sleep(0.0005)
    time.sleep(extra)
    killed = proc.poll() is None
    if killed:
        proc.send_signal(signal.SIGKILL)
    proc.wait()
    return killed


def assert_state_matches_audit(root: Path, ids: list[str]) -> None:
    """Every state has the audit line that made it, and every audit line reached the state."""
    project = Project(root)
    for guide_id in ids:
        entries = review.log(project, guide_id)
        state = review.read_state(project, guide_id)
        if state is None:
            assert not entries, f"{guide_id}: audit lines {entries} but no state"
            continue
        assert entries, f"{guide_id}: state {state.status} without any audit line"
        for before, after in zip(entries, entries[1:], strict=False):
            assert after.from_state == before.to_state, (
                f"{guide_id}: audit chain broken: {before.action}->{before.to_state} then "
                f"{after.action} from {after.from_state}"
            )
        last = entries[-1]
        assert TO_STATE[last.action] == state.status, (
            f"{guide_id}: state {state.status} but the last audit line is {last.action}"
        )
        if last.action == "approve":
            assert state.live and state.live.approved_by == last.actor
            assert state.live.content_hash == last.content_hash == state.content_hash
        if last.action in ("revise", "reject"):
            assert last.content_hash == state.content_hash


def assert_repaired(root: Path, ids: list[str]) -> None:
    project = Project(root)
    assert not list((root / "guides" / ".review").glob("*.pending"))
    for guide_id in ids:
        state = review.read_state(project, guide_id)
        doc = project.guides.read(guide_id)
        if state is not None and doc.content_hash == state.content_hash:
            assert doc.meta.status == state.status, f"{guide_id}: front matter not mirrored"


def edit_all(root: Path, ids: list[str], how: str) -> None:
    """Change every body by a trailing newline (added or removed): a new text to review."""
    for guide_id in ids:
        path = root / "guides" / f"{guide_id}.md"
        text = path.read_text(encoding="utf-8")
        path.write_text(text + "\n" if how == "append" else text[:-1], encoding="utf-8")


def test_a1_no_kill_separates_a_transition_from_its_audit_line(tmp_path: Path) -> None:
    seed = int(os.environ.get("PREPGUIDE_KILL_SEED", random.randrange(2**32)))
    print(f"kill loop seed {seed} (PREPGUIDE_KILL_SEED={seed} repeats it)")
    rng = random.Random(seed)
    root = tmp_path / "ws"
    ids = many_guides(root)
    # approve (with revise), publish, withdraw, reject (with revise), approve (with revise), ...
    cycle = [("approve", None), ("publish", None), ("withdraw", None)]
    cycle += [("reject", "append"), ("approve", "trim")]
    kills = 0
    for phase in range(KILL_PHASES):
        action, edit = cycle[phase % len(cycle)]
        if edit:
            edit_all(root, ids, edit)
        cmd = command(root, action, ids)
        lines_per_guide = 2 if edit or phase == 0 else 1
        kills += kill_midway(cmd, root, rng, len(ids) * lines_per_guide)
        assert_state_matches_audit(root, ids)
        if action == "approve":  # the rerun, in this process to keep the loop fast
            rerun = run(root, "review", "approve", *ids, "--by", "alice")
            assert rerun.exit_code in (0, 1) and isinstance(rerun.exception, SystemExit | None)
        else:
            drive(action, str(root), ids)
        assert_state_matches_audit(root, ids)
        assert_repaired(root, ids)
        statuses = {review.read_state(Project(root), guide_id).status for guide_id in ids}
        assert statuses == {TO_STATE[action]}, (phase, action, statuses)
    print(f"{KILL_PHASES} phases, {kills} kills mid-run")
    assert kills >= 1


def killed_at_fsync(number: int, action) -> bool:
    """Run action in a forked process that SIGKILLs itself at its Nth fsync; True if it did."""
    pid = os.fork()
    if pid == 0:  # the child never returns to pytest
        calls = [0]
        real_fsync = os.fsync

        def fsync(fd: int) -> None:
            calls[0] += 1
            if calls[0] == number:
                os.kill(os.getpid(), signal.SIGKILL)
            real_fsync(fd)

        os.fsync = fsync
        try:
            action()
        finally:
            os._exit(0)
    _, status = os.waitpid(pid, 0)
    return os.WIFSIGNALED(status)


TRANSITIONS = {
    "approve": lambda p, g: review.approve(p, g, by="alice"),
    "publish": lambda p, g: review.mark_published(p, [g]),
    "withdraw": lambda p, g: review.withdraw(p, g, by="carol", reason="superseded"),
    "reject": lambda p, g: review.reject(p, g, by="bob", note="say it plainly"),
}


def test_a1_a_kill_at_every_durable_step_of_every_transition_recovers(tmp_path: Path) -> None:
    """Kill each transition at each of its fsyncs in turn; state and log agree, reruns repair."""
    base = tmp_path / "base"
    (base / "sources").mkdir(parents=True)
    shutil.copytree(REPO / "prompts", base / "prompts")  # a link out of the root is refused
    (base / "prepguide.toml").write_text((REPO / "prepguide.toml").read_text())
    key, text = next(iter(RECORDS.items()))
    (base / "sources" / f"{key}.yaml").write_text(text, encoding="utf-8")
    generate(base)
    # approve (with revise), publish, withdraw, reject (after an edit), approve (after an edit)
    plan = [("approve", None), ("publish", None), ("withdraw", None)]
    plan += [("reject", "append"), ("approve", "trim")]
    points = 0
    for step, (action, edit) in enumerate(plan):
        if edit:
            edit_all(base, [key], edit)
        for number in range(1, 40):
            root = tmp_path / f"{step}-{number}"
            shutil.copytree(base, root, symlinks=True)
            run = partial(TRANSITIONS[action], Project(root), key)
            if not killed_at_fsync(number, run):
                break
            points += 1
            assert_state_matches_audit(root, [key])
            assert review.repair(Project(root))[1] == []
            state = review.read_state(Project(root), key)
            if state is None or state.status != TO_STATE[action]:
                TRANSITIONS[action](Project(root), key)  # the rerun
            assert_state_matches_audit(root, [key])
            assert_repaired(root, [key])
            assert review.read_state(Project(root), key).status == TO_STATE[action]
            shutil.rmtree(root)
        else:
            pytest.fail(f"{action} was still being killed after 40 fsyncs")
        TRANSITIONS[action](Project(base), key)
    print(f"killed at {points} durable steps")
    assert points >= len(plan) * 2


# --- A2, A5, B9, B14, E22, E24, E25 ----------------------------------------------------------


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    return make_review_workspace(tmp_path / "ws")


def cli(root: Path, *args: str) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "generator", "--root", str(root), *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=120)


def test_a2_a_torn_audit_tail_is_mended_and_a_bad_line_does_not_hide_the_rest(ws: Path) -> None:
    audit_path = ws / "guides" / ".audit.jsonl"
    review.approve(Project(ws), SEARCH, by="ada")
    with audit_path.open("a", encoding="utf-8") as handle:
        handle.write('{"time": "2026-11-30T00:00:00Z", "actor": "a", "act')
    approved = cli(ws, "review", "approve", STREAM, "--by", "alice")
    assert approved.returncode == 0, approved.stderr
    lines = audit_path.read_text(encoding="utf-8").splitlines()
    for line in lines:
        json.loads(line)  # every line whole: the torn one was dropped, not appended onto
    assert [e.action for e in review.log(Project(ws), STREAM)] == ["revise", "approve"]
    shown = cli(ws, "review", "log")
    assert shown.returncode == 0 and f"{STREAM} approve by alice" in shown.stdout
    # A bad line in the middle is reported with its file and number; the rest is shown.
    lines.insert(1, "not json at all")
    audit_path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    shown = cli(ws, "review", "log")
    assert shown.returncode == 1
    assert f"{audit_path}: line 2 is not a valid audit entry" in shown.stderr
    assert "Traceback" not in shown.stderr
    assert f"{SEARCH} approve by ada" in shown.stdout
    assert f"{STREAM} approve by alice" in shown.stdout


def test_a5_review_list_shows_a_published_guide_whose_working_file_was_deleted(ws: Path) -> None:
    review.approve(Project(ws), SEARCH, by="ada")
    review.mark_published(Project(ws), [SEARCH])
    (ws / "guides" / f"{SEARCH}.md").unlink()
    listed = cli(ws, "review", "list")
    assert listed.returncode == 0, listed.stderr
    line = next(line for line in listed.stdout.splitlines() if line.startswith(SEARCH))
    assert "published" in line and "working file missing" in line
    assert f"guides/{SEARCH}.md is missing" in line
    rows = json.loads(cli(ws, "review", "list", "--json").stdout)["guides"]
    row = next(row for row in rows if row["id"] == SEARCH)
    assert row["status"] == "published" and row["missing_file"] and row["live_published"]
    assert review.read_state(Project(ws), SEARCH).status == "published"


BAD_IDS = ["../../elsewhere/planted", "../x", "/tmp/planted-abs", "evil\n", "Caps", "a.b", ""]
RESERVED = ["con", "nul", "aux", "prn", "com1", "com9", "lpt1", "lpt9", "-"]


@pytest.mark.parametrize(
    "args",
    [
        ("review", "approve", "{id}", "--by", "m"),
        ("review", "approve", SEARCH, "{id}", "--by", "m"),
        ("review", "reject", "{id}", "--by", "m", "--note", "n"),
        ("review", "withdraw", "{id}", "--by", "m", "--reason", "superseded"),
        ("review", "show", "{id}"),
        ("review", "diff", "{id}"),
        ("review", "log", "{id}"),
        ("check", "{id}"),
        ("generate", "--backend", "offline", "{id}"),
        ("verify", "--manual", "{id}", "--by", "m"),
        ("verify", "{id}"),
        ("logs", "--guide", "{id}"),
    ],
    ids=lambda args: "-".join(a for a in args if not a.startswith("{") and a != SEARCH)[:40],
)
def test_b9_every_command_line_id_is_validated(ws: Path, args: tuple[str, ...]) -> None:
    outside = ws.parent
    before = sorted(str(p) for p in outside.rglob("*") if ws not in p.parents and p != ws)
    for bad in [*BAD_IDS, *RESERVED]:
        result = run(ws, *(bad if a == "{id}" else a for a in args))
        assert result.exit_code == 2, (bad, result.output)
        assert "is not a guide id" in result.output, (bad, result.output)
    after = sorted(str(p) for p in outside.rglob("*") if ws not in p.parents and p != ws)
    assert after == before
    assert review.read_state(Project(ws), SEARCH) is None  # nothing was approved


def test_b9_the_library_refuses_ids_that_are_paths(ws: Path) -> None:
    for bad in [*BAD_IDS, *RESERVED]:
        with pytest.raises(GuideError, match="is not a guide id"):
            review.approve(Project(ws), bad, by="m")
    assert not (ws.parent / "elsewhere").exists()


@pytest.mark.parametrize("folder", [".review", ".history"])
def test_b14_state_folders_linked_outside_the_root_are_refused(ws: Path, folder: str) -> None:
    outside = ws.parent / f"outside{folder}"
    link = ws / "guides" / folder
    if link.exists():
        link.rename(outside)
    else:
        outside.mkdir()
    link.symlink_to(outside)
    before = sorted(outside.rglob("*"))
    result = cli(ws, "review", "approve", SEARCH, "--by", "m")
    assert result.returncode != 0 and "Traceback" not in result.stderr
    assert f"{link}: is a symlink to {outside}, outside the workspace" in result.stderr
    assert sorted(outside.rglob("*")) == before
    # A link that resolves inside the root is fine.
    link.unlink()
    inside = ws / "state" / folder.lstrip(".")
    inside.parent.mkdir()
    outside.rename(inside)
    link.symlink_to(inside)
    result = cli(ws, "review", "approve", SEARCH, "--by", "m")
    assert result.returncode == 0, result.stderr
    assert review.read_state(Project(ws), SEARCH).status == "approved"


def test_e22_a_non_utf8_state_file_makes_one_guide_unreadable(ws: Path) -> None:
    from generator.site.select import select_guides

    review.approve(Project(ws), SEARCH, by="ada")
    review.approve(Project(ws), STREAM, by="ada")
    state_path = ws / "guides" / ".review" / f"{SEARCH}.json"
    state_path.write_bytes(b"\xff\xfe{")
    listed = cli(ws, "review", "list")
    assert listed.returncode == 0 and "Traceback" not in listed.stderr
    lines = {line.split()[0]: line for line in listed.stdout.splitlines()[1:]}
    assert "unreadable" in lines[SEARCH] and f"{state_path}: is not UTF-8" in lines[SEARCH]
    assert "approved" in lines[STREAM] and "draft" in lines[FEATURES]
    assert len(lines) == 3
    with pytest.raises(GuideError, match="is not UTF-8"):
        review.read_state(Project(ws), SEARCH)
    review.approve(Project(ws), FEATURES, by="ada")
    live = review.read_state(Project(ws), FEATURES).live
    (ws / "guides" / ".history" / FEATURES / live.revision).write_bytes(b"\xff\xfe---")
    chosen, left_out = select_guides(Project(ws), preview=False)
    assert [guide.id for guide in chosen] == [STREAM]
    assert "is not UTF-8" in left_out[SEARCH]
    assert "the approved revision is not UTF-8" in left_out[FEATURES]
    refused = cli(ws, "review", "approve", SEARCH, "--by", "bob")
    assert refused.returncode == 1 and f"{state_path}: is not UTF-8" in refused.stderr


def run_read_only(root: Path, *args: str) -> subprocess.CompletedProcess:
    """Run the CLI with guides/ on a read-only mount (as root) or without write permission."""
    guides = root / "guides"
    command = [sys.executable, "-m", "generator", "--root", str(root), *args]
    if os.geteuid() != 0:
        for path in [guides, *guides.rglob("*")]:
            path.chmod(path.stat().st_mode & ~0o222)
        try:
            return subprocess.run(command, capture_output=True, text=True, timeout=120)
        finally:
            for path in [guides, *guides.rglob("*")]:
                path.chmod(path.stat().st_mode | 0o200)
    script = f'mount --bind -o ro "{guides}" "{guides}" && exec "$@"'
    wrapped = ["unshare", "-m", "sh", "-c", script, "sh", *command]
    probe = subprocess.run(["unshare", "-m", "true"], capture_output=True)
    if probe.returncode != 0:
        pytest.skip("cannot make a read-only mount here")
    return subprocess.run(wrapped, capture_output=True, text=True, timeout=120)


def tree(folder: Path) -> dict[str, bytes]:
    return {str(p): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_e24_read_only_guides_reading_works_and_writing_fails_first(ws: Path) -> None:
    review.approve(Project(ws), STREAM, by="ada")
    hand_edit(ws, SEARCH, STEP, EDITED_STEP)
    before = tree(ws / "guides")
    for args in (["review", "list"], ["review", "show", SEARCH], ["check"], ["review", "log"]):
        result = run_read_only(ws, *args)
        assert result.returncode == 0, (args, result.stderr)
        assert "Traceback" not in result.stderr
    listed = run_read_only(ws, "review", "list").stdout
    assert "approved" in next(line for line in listed.splitlines() if line.startswith(STREAM))
    refused = run_read_only(ws, "review", "approve", SEARCH, "--by", "bob")
    assert refused.returncode == 3, refused.stderr
    assert "Traceback" not in refused.stderr
    assert f"{ws / 'guides'}: is not writable (permissions or a read-only" in refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1
    assert tree(ws / "guides") == before
    # Any other writer fails at the CLI boundary with one line naming the path (exit 3).
    generated = run_read_only(ws, "generate", "--backend", "offline", "--force")
    assert generated.returncode == 3 and "Traceback" not in generated.stderr
    assert "error: " + str(ws / "guides") in generated.stderr
    assert "read-only" in generated.stderr or "not writable" in generated.stderr
    assert tree(ws / "guides") == before


def test_e25_a_full_disk_gives_one_clear_line_and_changes_nothing(ws: Path) -> None:
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full")
    audit_path = ws / "guides" / ".audit.jsonl"
    review.approve(Project(ws), STREAM, by="ada")
    audit_path.unlink()
    audit_path.symlink_to("/dev/full")  # every write to the audit log fails with ENOSPC
    result = cli(ws, "review", "approve", SEARCH, "--by", "bob")
    assert result.returncode == 3
    assert "Traceback" not in result.stderr
    message = result.stderr.strip()
    assert len(message.splitlines()) == 1
    assert message.startswith(f"error: {audit_path}: No space left on device (ENOSPC)")
    assert "free some space" in message
    project = Project(ws)
    assert review.read_state(project, SEARCH) is None
    assert not list((ws / "guides" / ".review").glob("*.pending"))
    assert project.guides.read(SEARCH).meta.status == "draft"


def test_i14_review_list_columns_line_up_with_long_ids(ws: Path) -> None:
    long_id = "a-very-long-guide-id-that-runs-past-the-forty-character-column"
    text = (ws / "sources" / f"{SEARCH}.yaml").read_text(encoding="utf-8")
    unique = text.replace("url: https://", "url: https://long.", 1)
    (ws / "sources" / f"{long_id}.yaml").write_text(unique, encoding="utf-8")
    generate(ws, long_id)
    lines = cli(ws, "review", "list").stdout.splitlines()
    starts = {line.index(" draft ") for line in lines[1:]}
    assert starts == {lines[0].index(" STATUS ")}, lines


def killed_at_step(number: int, action) -> bool:
    """Run action in a forked child that SIGKILLs itself at its Nth write, rename, unlink,
    truncation or fsync (every step of a group commit); True if it did."""
    pid = os.fork()
    if pid == 0:  # the child never returns to pytest
        calls = [0]

        def counted(real):
            def call(*args, **kwargs):
                calls[0] += 1
                if calls[0] == number:
                    os.kill(os.getpid(), signal.SIGKILL)
                return real(*args, **kwargs)

            return call

        for name in ("write", "replace", "rename", "unlink", "ftruncate", "fsync"):
            setattr(os, name, counted(getattr(os, name)))
        try:
            action()
        finally:
            os._exit(0)
    _, status = os.waitpid(pid, 0)
    return os.WIFSIGNALED(status)


def test_a1_a_kill_at_every_step_of_a_group_commit_leaves_each_guide_before_or_after(
    tmp_path: Path,
) -> None:
    """Kill a bulk approval and a bulk publication at each step; every guide stays whole."""
    import shutil

    base = tmp_path / "base"
    ids = many_guides(base)
    groups = {
        "approve": lambda p: review.approve_many(p, ids, by="alice"),
        "publish": lambda p: review.mark_published(p, ids),
    }
    points = 0
    for action, run_group in groups.items():
        for number in range(1, 400):
            root = tmp_path / f"{action}-{number}"
            shutil.copytree(base, root, symlinks=True)
            if not killed_at_step(number, partial(run_group, Project(root))):
                break
            points += 1
            assert_state_matches_audit(root, ids)
            assert review.repair(Project(root))[1] == []
            assert_state_matches_audit(root, ids)
            run_group(Project(root))  # the rerun finishes the rest
            assert_state_matches_audit(root, ids)
            assert_repaired(root, ids)
            statuses = {review.read_state(Project(root), g).status for g in ids}
            assert statuses == {TO_STATE[action]}, (action, number, statuses)
            shutil.rmtree(root)
        else:
            pytest.fail(f"{action} was still being killed after 400 steps")
        run_group(Project(base))
    print(f"killed at {points} steps of two group commits")
    assert points >= 20
