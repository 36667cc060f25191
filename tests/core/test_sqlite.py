"""core.sqlite: a damaged SQLite cache is set aside as `<name>.corrupt-N` and a fresh one works."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from generator.core.sqlite import open_checked, open_or_replace, set_aside
from generator.llm.cache import CachedResponse, ResponseCache

SCHEMA = "create table if not exists items (key text primary key, value text not null)"
COLUMNS = ("key", "value")


def test_a_garbage_file_becomes_corrupt_1_and_a_fresh_cache_works(tmp_path: Path) -> None:
    path = tmp_path / "cache.sqlite3"
    garbage = b"this is not a database" * 100
    path.write_bytes(garbage)
    db, aside = open_checked(path, SCHEMA, "items", COLUMNS)
    assert aside is not None and aside.path == tmp_path / "cache.sqlite3.corrupt-1"
    assert aside.name == "cache.sqlite3.corrupt-1" and aside.why
    assert aside.path.read_bytes() == garbage
    db.execute("insert into items values ('k', 'v')")
    db.close()
    db, aside = open_checked(path, SCHEMA, "items", COLUMNS)
    assert aside is None
    assert db.execute("select value from items").fetchall() == [("v",)]
    db.close()


def test_a_file_of_another_shape_is_set_aside_for_a_fresh_one(tmp_path: Path) -> None:
    path = tmp_path / "cache.sqlite3"
    other = sqlite3.connect(path)
    other.execute("create table items (key text, value text, extra text)")
    other.commit()
    other.close()
    db, aside = open_checked(path, SCHEMA, "items", COLUMNS)
    assert aside is not None and aside.name == "cache.sqlite3.corrupt-1"
    assert "columns" in aside.why
    assert db.execute("select count(*) from items").fetchone() == (0,)
    db.close()


def test_the_wal_files_go_aside_with_the_file(tmp_path: Path) -> None:
    path = tmp_path / "cache.sqlite3"
    path.write_bytes(b"garbage")
    (tmp_path / "cache.sqlite3-wal").write_bytes(b"wal")
    (tmp_path / "cache.sqlite3-shm").write_bytes(b"shm")
    assert set_aside(path) == tmp_path / "cache.sqlite3.corrupt-1"
    assert (tmp_path / "cache.sqlite3.corrupt-1-wal").read_bytes() == b"wal"
    assert (tmp_path / "cache.sqlite3.corrupt-1-shm").read_bytes() == b"shm"
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "cache.sqlite3.corrupt-1",
        "cache.sqlite3.corrupt-1-shm",
        "cache.sqlite3.corrupt-1-wal",
    ]


def test_the_next_damaged_file_takes_the_next_number(tmp_path: Path) -> None:
    path = tmp_path / "cache.sqlite3"
    for number in (1, 2):
        path.write_bytes(b"garbage")
        assert set_aside(path).name == f"cache.sqlite3.corrupt-{number}"
    assert not path.exists()


def test_a_custom_opener_that_rejects_a_file_gets_a_fresh_one(tmp_path: Path) -> None:
    path = tmp_path / "publish.sqlite"
    old = sqlite3.connect(path)
    old.execute("pragma user_version = 7")
    old.execute("create table t (x)")
    old.commit()
    old.close()

    def opener(where: Path) -> sqlite3.Connection:
        db = sqlite3.connect(where)
        version = db.execute("pragma user_version").fetchone()[0]
        if version not in (0, 2):
            db.close()
            raise sqlite3.DatabaseError(f"schema {version}, expected 2")
        db.execute("pragma user_version = 2")
        return db

    db, aside = open_or_replace(path, opener)
    assert aside is not None and aside.why == "schema 7, expected 2"
    assert db.execute("pragma user_version").fetchone() == (2,)
    db.close()


def test_the_response_cache_names_where_a_damaged_file_went(tmp_path: Path) -> None:
    path = tmp_path / "llm-cache.sqlite3"
    path.write_bytes(b"SQLite format 3\x00" + b"\xff" * 4000)
    cache = ResponseCache(path)
    assert cache.notice is not None and "llm-cache.sqlite3.corrupt-1" in cache.notice
    cache.put("k", CachedResponse("m", "answer", {"total_tokens": 1}))
    cache.close()
    again = ResponseCache(path)
    assert again.notice is None and again.get("k").content == "answer"
    again.close()


def test_a_missing_file_cannot_be_set_aside(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        set_aside(tmp_path / "absent.sqlite3")
