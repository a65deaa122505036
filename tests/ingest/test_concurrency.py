"""Concurrent use, with real processes: readers during an ingest, two ingests racing,
database paths with awkward characters, a database on read-only media."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import SHARED, edition_files, ok_cli

CLI = [sys.executable, "-m", "rules_kb"]


def cli(*args: str | Path, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [*CLI, *map(str, args)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, **(env or {})},
    )  # fmt: skip


def finished(process: subprocess.Popen[str], timeout: float = 600) -> tuple[int, str, str]:
    out, err = process.communicate(timeout=timeout)
    return process.returncode, out, err


@pytest.mark.corpus
def test_searches_and_lookups_during_an_ingest_answer_from_a_complete_state(
    tmp_path: Path,
) -> None:
    files = edition_files()
    db = tmp_path / "busy.db"
    ok_cli("ingest", *files[-2:], "--db", db)  # two editions and their index
    writer = cli("ingest", *files[-30:-2], "--db", db, "--json")
    readers: list[subprocess.Popen[str]] = []
    started = time.monotonic()
    while len(readers) < 70 and time.monotonic() - started < 300:
        if len(readers) % 7 < 2:
            readers.append(cli("search", "trample", "--db", db, "--json"))
        else:
            readers.append(cli("rule", "702.19", "--db", db, "--json"))
        if len(readers) % 4 == 0:
            for reader in readers[-4:]:
                reader.wait(timeout=300)
    code, out, err = finished(writer)
    assert code == 0, err
    assert {row["status"] for row in json.loads(out)} == {"added"}
    searches = lookups = 0
    for reader in readers:
        code, out, err = finished(reader)
        assert code == 0 and "Traceback" not in err, err
        document = json.loads(out)
        if "hits" in document:
            searches += 1
            assert document["hits"][0]["number"] == "702.19"
        else:
            lookups += 1
            assert document["text"] == "Trample"
    assert searches >= 20 and lookups >= 50


@pytest.mark.corpus
def test_two_ingests_racing_into_one_database_both_succeed(tmp_path: Path) -> None:
    files = edition_files()[-12:]
    db = tmp_path / "race.db"
    first = cli("ingest", *files, "--db", db, "--json", "--no-index")
    second = cli("ingest", *reversed(files), "--db", db, "--json", "--no-index")
    results = [finished(first), finished(second)]
    for code, _out, err in results:
        assert code == 0 and "Traceback" not in err, err
    statuses = [
        {row["edition"]: row["status"] for row in json.loads(out)} for _code, out, _err in results
    ]
    for day in (f.stem for f in files):
        assert sorted(found[day] for found in statuses) == ["added", "unchanged"], day
    conn = sqlite3.connect(db)
    try:
        assert conn.execute("SELECT count(*) FROM editions").fetchone()[0] == len(files)
        assert conn.execute("SELECT count(*) FROM alignments").fetchone()[0] == len(files)
    finally:
        conn.close()
    second_db = tmp_path / "race-fresh.db"
    ok_cli("ingest", *files, "--db", second_db, "--no-index")
    assert _lineage(db) == _lineage(second_db)


def _lineage(path: Path) -> list[tuple[object, ...]]:
    conn = sqlite3.connect(path)
    try:
        return sorted(conn.execute("SELECT * FROM lineage_changes").fetchall(), key=repr)
    finally:
        conn.close()


@pytest.mark.parametrize("name", ["a#b.db", "what?.db", "per%41cent.db", "space d.db"])
@pytest.mark.corpus
def test_database_paths_with_awkward_characters(tmp_path: Path, name: str) -> None:
    db = tmp_path / name
    ok_cli("ingest", SHARED / "2026-08-07.txt", "--db", db, "--no-index")
    document = json.loads(ok_cli("rule", "702.19", "--db", db, "--json").stdout)
    assert document["text"] == "Trample"
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith(name)) == []


@pytest.mark.corpus
def test_a_database_on_read_only_media_answers_lookups(tmp_path: Path) -> None:
    """The database alone (no -wal, no -shm) on a read-only file system: a bind mount made
    read-only inside a user namespace, as a CD or a read-only share would be."""
    if shutil.which("unshare") is None:
        pytest.skip("unshare (util-linux) is not installed")
    source = tmp_path / "made.db"
    ok_cli("ingest", SHARED / "2026-08-07.txt", "--db", source, "--no-index")
    conn = sqlite3.connect(source)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    media = tmp_path / "media"
    media.mkdir()
    shutil.copy(source, media / "rules.db")
    assert not (media / "rules.db-wal").exists() and not (media / "rules.db-shm").exists()
    lookup = shlex.join([*CLI, "--db", str(media / "rules.db"), "rule", "702.19", "--json"])
    script = (
        f"mount --bind {shlex.quote(str(media))} {shlex.quote(str(media))}"
        f" && mount -o remount,bind,ro {shlex.quote(str(media))}"
        f" && touch {shlex.quote(str(media / 'probe'))} 2>/dev/null && echo WRITABLE"
        f" || exec {lookup}"
    )
    done = subprocess.run(
        ["unshare", "-rm", "sh", "-c", script], capture_output=True, text=True, timeout=120
    )
    if "Operation not permitted" in done.stderr and "mount" in done.stderr:
        pytest.skip("this machine does not allow user namespaces")
    assert "WRITABLE" not in done.stdout
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["text"] == "Trample"
    assert not (media / "rules.db-wal").exists() and not (media / "rules.db-shm").exists()
