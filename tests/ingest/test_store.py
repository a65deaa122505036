"""Schema, migrations and the one-transaction ingest of rules_kb.ingest.store."""

from __future__ import annotations

import hashlib
import sqlite3
import threading
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from sqlite_utils import Database

from rules_kb.errors import EditionExists
from rules_kb.ingest import parse, store
from rules_kb.ingest.models import Edition, GlossaryEntry, Rule
from rules_kb.progress import Progress
from rules_kb.read.query import Reader
from tests.conftest import dump_database

# (name, declared type, not null, position in the primary key) per column.
EXPECTED_COLUMNS = {
    "texts": [
        ("id", "INTEGER", 0, 1),
        ("digest", "INTEGER", 0, 0),
        ("text", "TEXT", 1, 0),
    ],
    "editions": [
        ("id", "INTEGER", 0, 1),
        ("date", "TEXT", 1, 0),
        ("title", "TEXT", 0, 0),
        ("source", "TEXT", 0, 0),
        ("sha256", "TEXT", 1, 0),
        ("content_sha256", "TEXT", 1, 0),
        ("encoding", "TEXT", 0, 0),
        ("warnings", "TEXT", 0, 0),
        ("rules", "INTEGER", 0, 0),
        ("examples", "INTEGER", 0, 0),
        ("glossary", "INTEGER", 0, 0),
        ("body_lines", "INTEGER", 0, 0),
        ("unparsed", "INTEGER", 0, 0),
        ("intro_id", "INTEGER", 0, 0),
        ("credits_id", "INTEGER", 0, 0),
        ("index_id", "INTEGER", 0, 0),
        ("ingested_at", "TEXT", 0, 0),
    ],
    "rules": [
        ("edition_id", "INTEGER", 1, 1),
        ("seq", "INTEGER", 1, 2),
        ("number", "TEXT", 1, 0),
        ("kind", "TEXT", 1, 0),
        ("parent", "TEXT", 0, 0),
        ("text_id", "INTEGER", 1, 0),
    ],
    "examples": [
        ("edition_id", "INTEGER", 1, 1),
        ("rule_seq", "INTEGER", 1, 2),
        ("seq", "INTEGER", 1, 3),
        ("text_id", "INTEGER", 1, 0),
    ],
    "glossary": [
        ("edition_id", "INTEGER", 1, 1),
        ("seq", "INTEGER", 1, 2),
        ("term", "TEXT", 1, 0),
        ("text_id", "INTEGER", 1, 0),
    ],
    "unparsed": [
        ("edition_id", "INTEGER", 1, 1),
        ("line", "INTEGER", 1, 2),
        ("text", "TEXT", 1, 0),
    ],
    "meta": [
        ("key", "TEXT", 1, 1),
        ("value", "TEXT", 1, 0),
    ],
    "refs": [
        ("edition_id", "INTEGER", 1, 1),
        ("seq", "INTEGER", 1, 2),
        ("source_kind", "TEXT", 1, 0),
        ("source_key", "TEXT", 1, 0),
        ("text_id", "INTEGER", 1, 0),
        ("start", "INTEGER", 1, 0),
        ("end", "INTEGER", 1, 0),
        ("target_kind", "TEXT", 1, 0),
        ("target", "TEXT", 1, 0),
        ("resolved", "INTEGER", 1, 0),
    ],
    "alignments": [
        ("edition_id", "INTEGER", 0, 1),
        ("previous_id", "INTEGER", 0, 0),
    ],
    "lineage": [
        ("edition_id", "INTEGER", 1, 0),
        ("kind", "TEXT", 1, 0),
        ("seq", "INTEGER", 0, 0),
        ("old_seq", "INTEGER", 0, 0),
        ("status", "TEXT", 1, 0),
    ],
}

# Every declared foreign key: (table, column) -> (table, column) it points at.
EXPECTED_FOREIGN_KEYS = {
    ("editions", "intro_id"): ("texts", "id"),
    ("editions", "credits_id"): ("texts", "id"),
    ("editions", "index_id"): ("texts", "id"),
    ("rules", "edition_id"): ("editions", "id"),
    ("rules", "text_id"): ("texts", "id"),
    ("examples", "edition_id"): ("editions", "id"),
    ("examples", "text_id"): ("texts", "id"),
    ("examples", "rule_seq"): ("rules", "seq"),
    ("glossary", "edition_id"): ("editions", "id"),
    ("glossary", "text_id"): ("texts", "id"),
    ("unparsed", "edition_id"): ("editions", "id"),
    ("refs", "edition_id"): ("editions", "id"),
    ("refs", "text_id"): ("texts", "id"),
    ("alignments", "edition_id"): ("editions", "id"),
    ("alignments", "previous_id"): ("editions", "id"),
    ("lineage", "edition_id"): ("editions", "id"),
}
EXPECTED_VIEWS = {
    "rule_texts": ["edition", "number", "kind", "parent", "seq", "text"],
    "example_texts": ["edition", "number", "seq", "text"],
    "glossary_texts": ["edition", "term", "seq", "text"],
    "reference_edges": [
        "edition", "source", "source_kind", "target", "target_kind", "raw", "resolved"
    ],
    "lineage_changes": ["edition", "previous", "kind", "status", "key", "old_key"],
}  # fmt: skip

# An invented rulebook in the shape of a CR edition (not CR text).
INVENTED = """Pebbles Tournament Rules

These rules are effective as of March 3, 2027.

Introduction
This rulebook is invented for the tests.

Contents

1. Basics
100. Starting Out
Glossary
Credits

1. Basics

100. Starting Out

100.1. A game of Pebbles is played by two or more players.

100.1a Each player starts with seven pebbles.
Example: Ana and Ben each start with seven pebbles.

100.2. The player holding the most pebbles wins.

101. Turns

101.1. Players take turns clockwise.

Glossary

Pebble
A small stone used as a counter. See rule 100.1.

Turn
One player's chance to act. See rule 101.1.

Credits

Invented by the test suite.
"""

TABLES = ("texts", "editions", "rules", "examples", "glossary", "unparsed")


def make_edition(date: str = "2027-03-03", *, win: str = "The most pebbles wins.") -> Edition:
    """A small edition built from records: 7 rule rows (4 rules), 1 example, 2 terms."""
    rules = (
        Rule("1", "section", "Basics", None),
        Rule("100", "chapter", "Starting Out", "1"),
        Rule("100.1", "rule", "Pebbles is played by two or more players.", "100"),
        Rule(
            "100.1a",
            "subrule",
            "Each player starts with seven pebbles.",
            "100.1",
            ("Ana and Ben each start with seven pebbles.",),
        ),
        Rule("100.2", "rule", win, "100"),
        Rule("101", "chapter", "Turns", "1"),
        Rule("101.1", "rule", "Players take turns clockwise.", "101"),
    )
    glossary = (
        GlossaryEntry("Pebble", "A small stone used as a counter. See rule 100.1."),
        GlossaryEntry("Turn", "One player's chance to act. See rule 101.1."),
    )
    return Edition(
        date=date,
        title="Pebbles Tournament Rules",
        intro=f"Pebbles Tournament Rules\nThese rules are effective as of {date}.",
        rules=rules,
        glossary=glossary,
        credits="Invented by the test suite.",
        body_lines=12,
    )


def texts_of(edition: Edition) -> set[str]:
    """Every text an edition should store in `texts`."""
    front_and_back = ("intro", "credits", "index")
    return {
        *(getattr(edition, name) for name in front_and_back if hasattr(edition, name)),
        *(rule.text for rule in edition.rules),
        *(example for rule in edition.rules for example in rule.examples),
        *(entry.text for entry in edition.glossary),
    }


def do_ingest(db: Database, edition: Edition, **options: bool) -> store.IngestResult:
    return store.ingest(
        db, edition, source="pebbles.txt", sha256="0" * 64, encoding="utf-8", **options
    )


dump = dump_database


def count(path: Path, table: str) -> int:
    conn = sqlite3.connect(path)
    try:
        return int(conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0])
    finally:
        conn.close()


def dangling(db: Database) -> list[tuple[str, str, int]]:
    """Every text reference that points at no row of `texts`."""
    references = [("rules", "text_id"), ("examples", "text_id"), ("glossary", "text_id")]
    references += [
        ("editions", column) for column in db["editions"].columns_dict if column.endswith("_id")
    ]
    return [
        (table, column, value)
        for table, column in references
        for (value,) in db.execute(
            f"SELECT {column} FROM {table} WHERE {column} NOT IN (SELECT id FROM texts)"
        )
    ]


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "store.db"


@pytest.fixture
def db(db_path: Path) -> Iterator[Database]:
    database = store.open_db(db_path)
    yield database
    database.close()


# migrations ---------------------------------------------------------------


def test_final_schema_is_pinned(db: Database) -> None:
    tables = {
        name
        for (name,) in db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        )
    }
    assert tables == set(EXPECTED_COLUMNS)
    for table, expected in EXPECTED_COLUMNS.items():
        columns = [
            (row[1], row[2], row[3], row[5]) for row in db.execute(f"PRAGMA table_info({table})")
        ]
        assert columns == expected, table
        assert list(db[table].columns_dict) == [column[0] for column in expected]


def test_foreign_keys_and_views_are_declared(db: Database) -> None:
    declared = {
        (table, row[3]): (row[2], row[4])
        for (table,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        for row in db.execute(f"PRAGMA foreign_key_list({table})")
    }
    assert declared == EXPECTED_FOREIGN_KEYS
    views = {
        name: [row[1] for row in db.execute(f"PRAGMA table_info({name})")]
        for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'view'")
    }
    assert views == EXPECTED_VIEWS


def test_views_read_like_the_rules(db: Database, db_path: Path) -> None:
    do_ingest(db, make_edition())
    conn = sqlite3.connect(db_path)
    try:
        text = conn.execute(
            "SELECT text FROM rule_texts WHERE edition = '2027-03-03' AND number = '100.1a'"
        ).fetchone()[0]
        assert text == "Each player starts with seven pebbles."
        assert conn.execute(
            "SELECT number, text FROM example_texts WHERE edition = '2027-03-03'"
        ).fetchall() == [("100.1a", "Ana and Ben each start with seven pebbles.")]
        assert conn.execute(
            "SELECT term FROM glossary_texts WHERE edition = '2027-03-03' ORDER BY seq"
        ).fetchall() == [("Pebble",), ("Turn",)]
    finally:
        conn.close()


def test_unique_indexes(db: Database) -> None:
    unique = {
        (table, tuple(column[2] for column in db.execute(f"PRAGMA index_info({row[1]})")))
        for table in ("texts", "editions")
        for row in db.execute(f"PRAGMA index_list({table})").fetchall()
        if row[2]
    }
    assert {("texts", ("digest",)), ("editions", ("date",))} <= unique


def test_user_version_is_schema_version(db: Database) -> None:
    assert len(store.MIGRATIONS) == store.SCHEMA_VERSION
    assert db.execute("PRAGMA user_version").fetchone()[0] == store.SCHEMA_VERSION


def test_wal_journal_mode(db: Database, db_path: Path) -> None:
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    conn = sqlite3.connect(db_path)
    try:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    finally:
        conn.close()


def test_a_new_database_becomes_wal_while_another_process_holds_the_writer_lock(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two ingests creating one database: the other takes the writer lock just as this one
    switches the new file to WAL, which SQLite refuses at once rather than wait for."""
    other = sqlite3.connect(db_path, isolation_level=None, check_same_thread=False)
    held: list[threading.Timer] = []

    def take_the_lock(sql: str) -> None:
        if "journal_mode=WAL" in sql and not held:
            other.execute("BEGIN IMMEDIATE")
            held.append(threading.Timer(0.3, other.execute, ["COMMIT"]))
            held[0].start()

    class Racing(Database):
        def __init__(self, path: Path) -> None:
            super().__init__(path)
            self.conn.set_trace_callback(take_the_lock)

    monkeypatch.setattr(store, "Database", Racing)
    try:
        store.open_db(db_path).close()
    finally:
        for timer in held:
            timer.join()
        other.close()
    assert held, "the other writer never took the lock"
    conn = sqlite3.connect(db_path)
    try:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert conn.execute("PRAGMA user_version").fetchone()[0] == store.SCHEMA_VERSION
    finally:
        conn.close()


def test_open_creates_parent_folders(tmp_path: Path) -> None:
    path = tmp_path / "a" / "b" / "rules.db"
    store.open_db(path).close()
    assert path.is_file()


def counting(calls: list[str], step: store.Migration) -> store.Migration:
    def wrapped(db: Database, progress: Progress) -> None:
        calls.append(step.__name__)
        step(db, progress)

    wrapped.__name__ = step.__name__
    return wrapped


def test_opening_twice_does_not_rerun_migrations(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[str] = []
    monkeypatch.setattr(store, "MIGRATIONS", [counting(calls, m) for m in store.MIGRATIONS])
    first = store.open_db(db_path)
    do_ingest(first, make_edition())
    first.close()
    before = dump(db_path)
    second = store.open_db(db_path)
    second.close()
    assert calls == [step.__name__ for step in store.MIGRATIONS]
    assert dump(db_path) == before


def test_a_new_migration_runs_once_on_an_old_database(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store.open_db(db_path).close()
    calls: list[str] = []

    def m999_extra(db: Database, _progress: Progress) -> None:
        db.execute("CREATE TABLE extra (x INTEGER)")

    monkeypatch.setattr(store, "MIGRATIONS", [*store.MIGRATIONS, counting(calls, m999_extra)])
    for _ in range(2):
        database = store.open_db(db_path)
        version = database.execute("PRAGMA user_version").fetchone()[0]
        database.close()
        assert version == store.SCHEMA_VERSION + 1
    assert calls == ["m999_extra"]


# ingest -------------------------------------------------------------------


def test_ingest_stores_counts_and_records(db: Database, db_path: Path) -> None:
    edition = make_edition()
    result = do_ingest(db, edition, replace=False)
    assert result.status == "added"
    assert (result.date, result.rules, result.examples, result.glossary) == ("2027-03-03", 4, 1, 2)
    assert result.unparsed == 0
    assert result.warnings == ()
    row = db.execute(
        "SELECT date, title, source, sha256, encoding, warnings, rules, examples, glossary,"
        " body_lines, unparsed FROM editions"
    ).fetchall()
    assert row == [
        (
            "2027-03-03",
            "Pebbles Tournament Rules",
            "pebbles.txt",
            "0" * 64,
            "utf-8",
            "[]",
            4,
            1,
            2,
            12,
            0,
        )
    ]
    assert count(db_path, "rules") == 7
    assert count(db_path, "examples") == 1
    assert count(db_path, "glossary") == 2
    assert count(db_path, "texts") == len(texts_of(edition))
    stored = db.execute(
        "SELECT r.number, r.kind, r.parent, t.text FROM rules r JOIN texts t ON t.id = r.text_id"
        " ORDER BY r.seq"
    ).fetchall()
    assert stored == [(r.number, r.kind, r.parent, r.text) for r in edition.rules]


def test_ingest_parsed_invented_edition(db: Database, db_path: Path) -> None:
    edition = parse.edition(INVENTED)
    assert edition.date == "2027-03-03"
    result = do_ingest(db, edition)
    assert (result.status, result.rules, result.examples, result.glossary) == ("added", 4, 1, 2)
    terms = [term for (term,) in db.execute("SELECT term FROM glossary ORDER BY seq")]
    assert terms == ["Pebble", "Turn"]
    credits = db.execute(
        "SELECT t.text FROM editions e JOIN texts t ON t.id = e.credits_id"
    ).fetchone()[0]
    assert "Invented by the test suite." in credits
    reader = Reader(db_path)
    try:
        node = reader.rule("100.1", "2027-03-03")
        assert [child.number for child in node.children] == ["100.1a"]
        assert node.children[0].examples == ("Ana and Ben each start with seven pebbles.",)
        assert node.next == "100.2"
        assert reader.define("pebble", "2027-03-03").term == "Pebble"
    finally:
        reader.close()


def test_reingest_identical_records_is_unchanged(db: Database, db_path: Path) -> None:
    do_ingest(db, make_edition())
    before = dump(db_path)
    # Identical records under another source and digest are still the same edition.
    result = store.ingest(db, make_edition(), source="copy.txt", sha256="f" * 64, encoding="cp1252")
    assert result.status == "unchanged"
    assert (result.rules, result.examples, result.glossary) == (4, 1, 2)
    assert dump(db_path) == before


def test_different_text_same_date_is_refused(db: Database, db_path: Path) -> None:
    do_ingest(db, make_edition())
    before = dump(db_path)
    with pytest.raises(EditionExists, match="--replace"):
        do_ingest(db, make_edition(win="The fewest pebbles wins."))
    assert dump(db_path) == before
    assert not db.conn.in_transaction


def test_replace_swaps_the_edition_and_drops_orphan_texts(db: Database, db_path: Path) -> None:
    do_ingest(db, make_edition())
    new = make_edition(win="The fewest pebbles wins.")
    result = do_ingest(db, new, replace=True)
    assert result.status == "replaced"
    assert count(db_path, "editions") == 1
    texts = {text for (text,) in db.execute("SELECT text FROM texts")}
    assert texts == texts_of(new)
    assert "The most pebbles wins." not in texts
    number_text = db.execute(
        "SELECT t.text FROM rules r JOIN texts t ON t.id = r.text_id WHERE r.number = '100.2'"
    ).fetchall()
    assert number_text == [("The fewest pebbles wins.",)]
    assert dangling(db) == []
    again = do_ingest(db, new, replace=True)
    assert again.status == "unchanged"


def test_replace_keeps_texts_other_editions_use(db: Database, db_path: Path) -> None:
    do_ingest(db, make_edition("2027-03-03"))
    do_ingest(db, make_edition("2032-01-01"))
    do_ingest(db, make_edition("2027-03-03", win="The fewest pebbles wins."), replace=True)
    texts = {text for (text,) in db.execute("SELECT text FROM texts")}
    assert "The most pebbles wins." in texts  # still used by 2032-01-01
    assert dangling(db) == []
    assert texts == texts_of(make_edition("2032-01-01")) | texts_of(
        make_edition("2027-03-03", win="The fewest pebbles wins.")
    )


def test_texts_are_deduplicated_across_editions(db: Database, db_path: Path) -> None:
    first = make_edition("2027-03-03")
    do_ingest(db, first)
    texts_before = count(db_path, "texts")
    second = make_edition("2027-06-01", win="The fewest pebbles wins.")
    do_ingest(db, second)
    new_texts = texts_of(second) - texts_of(first)
    assert new_texts == {second.intro, "The fewest pebbles wins."}
    assert count(db_path, "texts") == texts_before + len(new_texts)
    assert count(db_path, "rules") == 2 * len(first.rules)
    digests = db.execute("SELECT COUNT(DISTINCT digest), COUNT(*) FROM texts").fetchone()
    assert digests[0] == digests[1]


def test_repeated_text_within_one_edition_is_stored_once(db: Database, db_path: Path) -> None:
    edition = make_edition()
    twice = replace(
        edition,
        rules=(*edition.rules, Rule("101.2", "rule", "Players take turns clockwise.", "101")),
    )
    do_ingest(db, twice)
    assert count(db_path, "texts") == len(texts_of(twice))
    assert count(db_path, "rules") == len(twice.rules)


# one transaction ------------------------------------------------------------


def failing_after(original: Callable[..., None]) -> Callable[..., None]:
    """_insert_records that writes every row and then fails."""

    def insert_then_fail(db: Database, edition_id: int, edition: Edition, *rest: str) -> None:
        original(db, edition_id, edition, *rest)
        assert db.execute("SELECT COUNT(*) FROM rules WHERE edition_id = ?", [edition_id])
        raise RuntimeError("disk on fire")

    return insert_then_fail


def test_failed_ingest_leaves_the_database_as_it_was(
    db: Database, db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    do_ingest(db, make_edition("2027-03-03"))
    before = dump(db_path)
    monkeypatch.setattr(store, "_insert_records", failing_after(store._insert_records))
    with pytest.raises(RuntimeError, match="disk on fire"):
        do_ingest(db, make_edition("2027-06-01", win="The fewest pebbles wins."))
    assert not db.conn.in_transaction
    assert dump(db_path) == before
    assert [tuple(row) for row in db.execute("SELECT date FROM editions")] == [("2027-03-03",)]


def test_failed_replace_keeps_the_old_edition(
    db: Database, db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    do_ingest(db, make_edition())
    before = dump(db_path)
    monkeypatch.setattr(store, "_insert_records", failing_after(store._insert_records))
    with pytest.raises(RuntimeError):
        do_ingest(db, make_edition(win="The fewest pebbles wins."), replace=True)
    assert dump(db_path) == before


def test_constraint_violation_midway_rolls_back(db: Database, db_path: Path) -> None:
    do_ingest(db, make_edition("2027-03-03"))
    before = dump(db_path)
    good = make_edition("2027-06-01", win="A brand new text.")
    # Rules and examples go in first; the glossary row then breaks NOT NULL.
    bad = replace(good, glossary=(good.glossary[0], GlossaryEntry(None, "No name.")))  # type: ignore[arg-type]
    with pytest.raises(sqlite3.IntegrityError):
        do_ingest(db, bad)
    assert not db.conn.in_transaction
    assert dump(db_path) == before
    # The connection is still usable afterwards.
    assert do_ingest(db, good).status == "added"


# readers and writers ----------------------------------------------------------


def test_reader_works_while_a_writer_holds_a_transaction(db: Database, db_path: Path) -> None:
    do_ingest(db, make_edition("2027-03-03"))
    early = Reader(db_path)
    db.execute("BEGIN IMMEDIATE")
    try:
        do_ingest(db, make_edition("2027-06-01", win="The fewest pebbles wins."))
        assert db.conn.in_transaction
        late = Reader(db_path)  # opened while the write is pending
        for reader in (early, late):
            assert [row.edition for row in reader.editions()] == ["2027-03-03"]
            assert reader.resolve_edition("latest") == "2027-03-03"
            node = reader.rule("100.2", reader.resolve_edition("2027-12-31"))
            assert node.text == "The most pebbles wins."
            assert reader.define("turn", "2027-03-03").term == "Turn"
        late.close()
    finally:
        db.conn.commit()
    fresh = Reader(db_path)
    try:
        assert fresh.resolve_edition("latest") == "2027-06-01"
        assert fresh.rule("100.2", "2027-06-01").text == "The fewest pebbles wins."
    finally:
        fresh.close()
        early.close()


def test_reader_during_an_ingest_sees_only_committed_editions(
    db: Database, db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    do_ingest(db, make_edition("2027-03-03"))
    seen: list[list[str]] = []
    original = store._insert_records

    def insert_and_look(database: Database, edition_id: int, edition: Edition, *rest: str) -> None:
        original(database, edition_id, edition, *rest)
        reader = Reader(db_path)
        try:
            seen.append([row.edition for row in reader.editions()])
        finally:
            reader.close()

    monkeypatch.setattr(store, "_insert_records", insert_and_look)
    do_ingest(db, make_edition("2027-06-01"))
    assert seen == [["2027-03-03"]]
    assert count(db_path, "editions") == 2


def test_content_hash_keeps_the_digest_of_stored_editions(shared_editions: Path) -> None:
    """Stored editions compare by this digest: it must stay the JSON one it always was."""
    import json

    from rules_kb.ingest.decode import decode

    for name in ("1999-04-23.txt", "2024-09-20.txt"):
        edition = parse.edition(decode((shared_editions / name).read_bytes()).text)
        digest = hashlib.sha256()
        for rule in edition.rules:
            digest.update(json.dumps([rule.number, rule.kind, rule.text, rule.examples]).encode())
        for entry in edition.glossary:
            digest.update(json.dumps([entry.term, entry.text]).encode())
        digest.update(json.dumps([edition.intro, edition.credits, edition.index]).encode())
        assert store.content_hash(edition) == digest.hexdigest(), name


def _with_example(edition: Edition, example: str, *, number: str = "100.1a") -> Edition:
    """The edition with 100.1a's example (and, given `number`, its number) changed."""
    rules = tuple(
        replace(rule, number=number, examples=(example,)) if rule.number == "100.1a" else rule
        for rule in edition.rules
    )
    return replace(edition, rules=rules)


def test_a_rule_whose_only_change_is_an_example_is_the_same_rule(tmp_path: Path) -> None:
    """A status speaks of a rule's own text: an example changed is said apart, and
    every command says the same of the rule."""
    import rules_kb

    path = tmp_path / "rules.db"
    db = store.open_db(path)
    first = make_edition("2027-01-01")
    do_ingest(db, first)
    # Only the example changes.
    do_ingest(
        db, _with_example(make_edition("2027-02-02"), "Ana and Ben each start with ten pebbles.")
    )
    # Renumbered, and the example changes again.
    do_ingest(
        db,
        _with_example(
            make_edition("2027-03-03"),
            "Ana and Ben each start with twelve pebbles.",
            number="100.1b",
        ),
    )
    db.close()
    statuses = {
        row[0]: row[1]
        for row in sqlite3.connect(path).execute(
            "SELECT e.date, l.status FROM lineage l JOIN editions e ON e.id = l.edition_id"
            " WHERE l.kind = 'rule'"
        )
    }
    # No row where the number and the text stayed; `moved` where only the number moved.
    assert statuses == {"2027-03-03": "moved"}
    kb = rules_kb.open(path)
    history = kb.history("100.1b")
    assert [(v.first, v.status, v.note) for v in history.versions] == [
        ("2027-03-03", "moved", "renumbered, example changed"),
        ("2027-02-02", "same", "example changed"),
        ("2027-01-01", "added", ""),
    ]
    newest = history.versions[0]
    assert newest.example_words == (
        (("=", "Ana and Ben each start with "), ("-", "ten"), ("+", "twelve"), ("=", " pebbles.")),
    )
    assert newest.as_json()["examples_changed"] is True
    where = kb.where("100.1a", "2027-01-01", "2027-03-03")
    assert (where.status, where.now, where.text_changed) == ("moved", "100.1b", False)
    change = next(c for c in kb.diff("2027-01-01", "2027-02-02").rules if c.new_key == "100.1a")
    assert change.example_only and change.real
