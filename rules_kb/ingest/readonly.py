"""Read-only access to a database file, and what is stored of each edition's bytes:
all an ingest with nothing to do reads, without the query layer (`rules_kb.read.query`)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import quote

from rules_kb.records.outcomes import IngestResult

#: How long a lookup waits for a writer's lock before it gives up (milliseconds).
BUSY_TIMEOUT_MS = 30_000


def connect_read_only(path: Path) -> sqlite3.Connection:
    """A read-only connection; the path is quoted, so "#", "?" and "%" in it are safe.

    A database on read-only media (no -wal or -shm file can be made) is opened as
    immutable: nobody can be writing it there.
    """
    uri = "file:" + quote(str(path.resolve()))
    conn = sqlite3.connect(f"{uri}?mode=ro", uri=True, check_same_thread=False)
    try:
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except sqlite3.OperationalError:
        conn.close()
        conn = sqlite3.connect(f"{uri}?mode=ro&immutable=1", uri=True, check_same_thread=False)
    conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    return conn


def stored_copies(conn: sqlite3.Connection, sha256: str | None = None) -> dict[str, IngestResult]:
    """By the digest of the bytes each was read from, what an ingest of those bytes again
    finds: every stored edition, or only the one read from `sha256`."""
    sql = "SELECT sha256, date, rules, examples, glossary, unparsed, warnings FROM editions"
    rows = conn.execute(sql + " WHERE sha256 = ?", [sha256]) if sha256 else conn.execute(sql)
    return {
        str(digest): IngestResult(
            day, "unchanged", rules, examples, glossary, unparsed, tuple(json.loads(notes or "[]"))
        )
        for digest, day, rules, examples, glossary, unparsed, notes in rows
    }


#: Values bound per statement by `rows_in` (SQLite limits a statement's parameters).
CHUNK = 500


def rows_in(conn: sqlite3.Connection, sql: str, values: Sequence[Any]) -> Iterator[Any]:
    """The rows of `sql` for each of `values`, whose `{marks}` stands for the list of
    placeholders of an `IN (...)`: run in chunks of CHUNK values."""
    for start in range(0, len(values), CHUNK):
        chunk = values[start : start + CHUNK]
        yield from conn.execute(sql.format(marks=",".join("?" * len(chunk))), chunk)


def texts(conn: sqlite3.Connection, ids: Iterable[int]) -> dict[int, str]:
    """The stored texts with these ids (texts are deduplicated: equal id, equal text)."""
    sql = "SELECT id, text FROM texts WHERE id IN ({marks})"
    return {int(text_id): str(text) for text_id, text in rows_in(conn, sql, sorted(set(ids)))}
