"""Whether the search index agrees with the database, told without importing the index.

The index folder beside a database (``rules.db`` -> ``rules.db.search/``) records the
content stamp it was built from and the format it was written in. An ingest of files
stored already asks only this: it must not pay for the index module and its imports
(a tenth of that command's time). :mod:`rules_kb.search.index` writes the files read here.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
from pathlib import Path

STAMP_FILE = "stamp"
FORMAT_FILE = "format"
#: 2: no stored text, editions as masks, the filters file (rules-kb 0.2); 3: positions;
#: 4: the schema's field types pickled under the index module's name (it moved into a folder);
#: 5: mana and tap symbols are terms ("{u}", "{w/u}").
INDEX_FORMAT = "5"


def index_dir(database: Path) -> Path:
    """The index folder beside a database file."""
    return database.with_name(database.name + ".search")


def content_stamp(conn: sqlite3.Connection) -> str:
    """The database's identity and stamp plus a digest of its editions, so a new database
    is never fresh: ``identity:stamp:digest``."""
    row = conn.execute("SELECT value FROM meta WHERE key = 'stamp'").fetchone()
    digest = hashlib.sha256()
    for date, sha in conn.execute("SELECT date, content_sha256 FROM editions ORDER BY date"):
        digest.update(f"{date} {sha}\n".encode())
    return f"{database_identity(conn)}:{row[0] if row else 0}:{digest.hexdigest()[:16]}"


def database_identity(conn: sqlite3.Connection) -> str:
    """The database's random identity (migration m015; "" for a database made before)."""
    row = conn.execute("SELECT value FROM meta WHERE key = 'identity'").fetchone()
    return str(row[0]) if row else ""


def stamp_of(folder: Path) -> str | None:
    """The content stamp an index folder was built from (None without one)."""
    try:
        return (folder / STAMP_FILE).read_text(encoding="utf-8").strip()
    except OSError:
        return None


def is_fresh(conn: sqlite3.Connection, folder: Path) -> bool:
    """Whether the index folder was built from exactly this database content, in the
    format this rules-kb writes."""
    return stamp_of(folder) == content_stamp(conn) and current_format(folder)


def current_format(folder: Path) -> bool:
    """Whether the index is in INDEX_FORMAT (one made by an older rules-kb is rebuilt)."""
    try:
        return (folder / FORMAT_FILE).read_text(encoding="utf-8").strip() == INDEX_FORMAT
    except OSError:
        return False


def up_to_date(conn: sqlite3.Connection, folder: Path) -> bool:
    """Whether the folder holds an index that needs nothing done to agree with the
    database (what `ensure_index` then leaves alone)."""
    return is_fresh(conn, folder) and has_index(folder)


def has_index(folder: Path) -> bool:
    """Whether the folder holds a whoosh index (a table of contents), without importing whoosh."""
    try:
        names = os.listdir(folder)
    except OSError:
        return False
    return any(name.startswith("_MAIN_") and name.endswith(".toc") for name in names)
