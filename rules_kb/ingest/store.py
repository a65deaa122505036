"""SQLite storage through sqlite-utils: schema, numbered migrations, ingest.

Every edition lives in one database. Texts are stored once in `texts`; the
rows of `rules`, `examples` and `glossary` point at them, so 134 editions
with ~270,000 rule rows hold only ~13,000 distinct texts. Reading is done by
`rules_kb.read.query` with the standard library's sqlite3, which starts faster.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import time
import uuid
import weakref
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from itertools import count, repeat
from json.encoder import encode_basestring_ascii
from operator import attrgetter
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlite_utils import Database

from rules_kb.errors import EditionExists
from rules_kb.ingest import lineage, schema
from rules_kb.ingest.models import Edition, Rule
from rules_kb.ingest.readonly import rows_in
from rules_kb.progress import Progress, silent
from rules_kb.records import IngestResult as IngestResult
from rules_kb.records import IngestStatus
from rules_kb.typography import same_wording

if TYPE_CHECKING:
    from rules_kb.ingest.refs import SourceKind

Migration = Callable[[Database, Progress], None]
MIGRATIONS: list[Migration] = []
migration = MIGRATIONS.append


@migration
def m001_initial(db: Database, _progress: Progress) -> None:
    """Editions, deduplicated texts, rules, examples, glossary, leftovers."""
    # Texts are found by a 64-bit digest: an index on the text itself would double its size.
    db.table("texts").create({"id": int, "digest": int, "text": str}, pk="id", not_null={"text"})
    db.table("texts").create_index(["digest"], unique=True)
    db.table("editions").create(
        {
            "id": int,
            "date": str,
            "title": str,
            "source": str,
            "sha256": str,
            "content_sha256": str,
            "encoding": str,
            "warnings": str,
            "rules": int,
            "examples": int,
            "glossary": int,
            "body_lines": int,
            "unparsed": int,
            "intro_id": int,
            "credits_id": int,
            "index_id": int,
            "ingested_at": str,
        },
        pk="id",
        not_null={"date", "sha256", "content_sha256"},
    )
    db.table("editions").create_index(["date"], unique=True)
    db.execute(
        "CREATE TABLE rules (edition_id INTEGER NOT NULL, seq INTEGER NOT NULL,"
        " number TEXT NOT NULL, kind TEXT NOT NULL, parent TEXT, text_id INTEGER NOT NULL,"
        " PRIMARY KEY (edition_id, seq)) WITHOUT ROWID"
    )
    # Children are found by scanning one edition's rows in seq order (~3,000), so
    # an index on parent would cost 5 MB and save well under a millisecond.
    db.execute("CREATE INDEX rules_number ON rules (edition_id, number)")
    db.execute(
        "CREATE TABLE examples (edition_id INTEGER NOT NULL, rule_seq INTEGER NOT NULL,"
        " seq INTEGER NOT NULL, text_id INTEGER NOT NULL,"
        " PRIMARY KEY (edition_id, rule_seq, seq)) WITHOUT ROWID"
    )
    db.execute(
        "CREATE TABLE glossary (edition_id INTEGER NOT NULL, seq INTEGER NOT NULL,"
        " term TEXT NOT NULL, text_id INTEGER NOT NULL,"
        " PRIMARY KEY (edition_id, seq)) WITHOUT ROWID"
    )
    db.execute(
        "CREATE TABLE unparsed (edition_id INTEGER NOT NULL, line INTEGER NOT NULL,"
        " text TEXT NOT NULL, PRIMARY KEY (edition_id, line)) WITHOUT ROWID"
    )


@migration
def m002_stamp(db: Database, _progress: Progress) -> None:
    """A content stamp that every ingest or replace changes: derived data (the search
    index) records the stamp it was built from and is stale when they differ."""
    db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID")
    db.execute("INSERT INTO meta (key, value) VALUES ('stamp', '0')")


@migration
def m003_references(db: Database, _progress: Progress) -> None:
    """The reference graph: one row per (citing text, reference, target) of every edition.

    Editions stored before this migration get their references here, from their rows.
    """
    db.execute(
        "CREATE TABLE refs (edition_id INTEGER NOT NULL, seq INTEGER NOT NULL,"
        " source_kind TEXT NOT NULL, source_key TEXT NOT NULL, text_id INTEGER NOT NULL,"
        " start INTEGER NOT NULL, end INTEGER NOT NULL,"
        " target_kind TEXT NOT NULL, target TEXT NOT NULL, resolved INTEGER NOT NULL,"
        " PRIMARY KEY (edition_id, seq)) WITHOUT ROWID"
    )
    # The raw reference is not stored: it is substr(text, start + 1, end - start) of the
    # citing text, which saves 2.6 MB over all editions.
    # "What cites 613.1" scans one edition's ~2,000 rows by the primary key's prefix (under
    # a millisecond), so an index on the target would cost 3 MB for nothing.
    for (edition_id,) in db.execute("SELECT id FROM editions").fetchall():
        _insert_references(db, edition_id, _stored_sources(db, edition_id))


@migration
def m004_lineage(db: Database, progress: Progress) -> None:
    """Lineage: every edition aligned with the one before it, the pairs stored
    (`rules_kb.ingest.lineage`). Editions stored before this migration are aligned by m020."""
    for statement in lineage.SCHEMA:
        db.execute(statement)


#: Every table with its foreign keys declared (SQLite does not enforce them here; they
#: tell readers such as Datasette how the tables join), and the indexes to remake.
_DECLARED = {
    "editions": (
        "CREATE TABLE editions_new (id INTEGER PRIMARY KEY, date TEXT NOT NULL, title TEXT,"
        " source TEXT, sha256 TEXT NOT NULL, content_sha256 TEXT NOT NULL, encoding TEXT,"
        " warnings TEXT, rules INTEGER, examples INTEGER, glossary INTEGER,"
        " body_lines INTEGER, unparsed INTEGER, intro_id INTEGER REFERENCES texts(id),"
        " credits_id INTEGER REFERENCES texts(id), index_id INTEGER REFERENCES texts(id),"
        " ingested_at TEXT)",
        ("CREATE UNIQUE INDEX idx_editions_date ON editions (date)",),
    ),
    "rules": (
        "CREATE TABLE rules_new (edition_id INTEGER NOT NULL REFERENCES editions(id),"
        " seq INTEGER NOT NULL, number TEXT NOT NULL, kind TEXT NOT NULL, parent TEXT,"
        " text_id INTEGER NOT NULL REFERENCES texts(id), PRIMARY KEY (edition_id, seq))"
        " WITHOUT ROWID",
        ("CREATE INDEX rules_number ON rules (edition_id, number)",),
    ),
    "examples": (
        "CREATE TABLE examples_new (edition_id INTEGER NOT NULL REFERENCES editions(id),"
        " rule_seq INTEGER NOT NULL, seq INTEGER NOT NULL,"
        " text_id INTEGER NOT NULL REFERENCES texts(id),"
        " PRIMARY KEY (edition_id, rule_seq, seq),"
        " FOREIGN KEY (edition_id, rule_seq) REFERENCES rules(edition_id, seq)) WITHOUT ROWID",
        (),
    ),
    "glossary": (
        "CREATE TABLE glossary_new (edition_id INTEGER NOT NULL REFERENCES editions(id),"
        " seq INTEGER NOT NULL, term TEXT NOT NULL,"
        " text_id INTEGER NOT NULL REFERENCES texts(id), PRIMARY KEY (edition_id, seq))"
        " WITHOUT ROWID",
        (),
    ),
    "unparsed": (
        "CREATE TABLE unparsed_new (edition_id INTEGER NOT NULL REFERENCES editions(id),"
        " line INTEGER NOT NULL, text TEXT NOT NULL, PRIMARY KEY (edition_id, line))"
        " WITHOUT ROWID",
        (),
    ),
    "refs": (
        "CREATE TABLE refs_new (edition_id INTEGER NOT NULL REFERENCES editions(id),"
        " seq INTEGER NOT NULL, source_kind TEXT NOT NULL, source_key TEXT NOT NULL,"
        " text_id INTEGER NOT NULL REFERENCES texts(id), start INTEGER NOT NULL,"
        " end INTEGER NOT NULL, target_kind TEXT NOT NULL, target TEXT NOT NULL,"
        " resolved INTEGER NOT NULL, PRIMARY KEY (edition_id, seq)) WITHOUT ROWID",
        (),
    ),
    "alignments": (
        "CREATE TABLE alignments_new (edition_id INTEGER PRIMARY KEY REFERENCES editions(id),"
        " previous_id INTEGER REFERENCES editions(id))",
        (),
    ),
    "lineage": (
        "CREATE TABLE lineage_new (edition_id INTEGER NOT NULL REFERENCES editions(id),"
        " kind TEXT NOT NULL, seq INTEGER, old_seq INTEGER, status TEXT NOT NULL)",
        (
            "CREATE INDEX lineage_by_new ON lineage (edition_id, kind, seq)",
            "CREATE INDEX lineage_by_old ON lineage (edition_id, kind, old_seq)",
        ),
    ),
}

VIEWS = {
    "rule_texts": "SELECT e.date AS edition, r.number, r.kind, r.parent, r.seq, t.text"
    " FROM rules r JOIN editions e ON e.id = r.edition_id JOIN texts t ON t.id = r.text_id",
    "example_texts": "SELECT e.date AS edition, r.number, x.seq, t.text FROM examples x"
    " JOIN rules r ON r.edition_id = x.edition_id AND r.seq = x.rule_seq"
    " JOIN editions e ON e.id = x.edition_id JOIN texts t ON t.id = x.text_id",
    "glossary_texts": "SELECT e.date AS edition, g.term, g.seq, t.text FROM glossary g"
    " JOIN editions e ON e.id = g.edition_id JOIN texts t ON t.id = g.text_id",
    "reference_edges": "SELECT e.date AS edition, r.source_key AS source, r.source_kind,"
    " r.target, r.target_kind, substr(t.text, r.start + 1, r.end - r.start) AS raw,"
    " r.resolved FROM refs r JOIN editions e ON e.id = r.edition_id"
    " JOIN texts t ON t.id = r.text_id",
    "lineage_changes": "SELECT e.date AS edition, p.date AS previous, l.kind, l.status,"
    " CASE l.kind WHEN 'rule' THEN (SELECT number FROM rules WHERE edition_id = l.edition_id"
    " AND seq = l.seq) ELSE (SELECT term FROM glossary WHERE edition_id = l.edition_id"
    " AND seq = l.seq) END AS key,"
    " CASE l.kind WHEN 'rule' THEN (SELECT number FROM rules WHERE edition_id = a.previous_id"
    " AND seq = l.old_seq) ELSE (SELECT term FROM glossary WHERE edition_id = a.previous_id"
    " AND seq = l.old_seq) END AS old_key"
    " FROM lineage l JOIN editions e ON e.id = l.edition_id"
    " JOIN alignments a ON a.edition_id = l.edition_id"
    " LEFT JOIN editions p ON p.id = a.previous_id",
}


@migration
def m005_declared(db: Database, _progress: Progress) -> None:
    """Foreign keys declared on every table (rebuilt, rows kept) and views that read like
    the rules: `rule_texts`, `example_texts`, `glossary_texts`, `reference_edges`,
    `lineage_changes` (the stored pairs, by number and term)."""
    for table, (create, indexes) in _DECLARED.items():
        for (index,) in db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ?"
            " AND sql IS NOT NULL",
            [table],
        ).fetchall():
            db.execute(f"DROP INDEX {index}")
        db.execute(create)
        db.execute(f"INSERT INTO {table}_new SELECT * FROM {table}")
        db.execute(f"DROP TABLE {table}")
        db.execute(f"ALTER TABLE {table}_new RENAME TO {table}")
        for statement in indexes:
            db.execute(statement)
    for name, select in VIEWS.items():
        db.execute(f"CREATE VIEW {name} AS {select}")


@migration
def m006_splits(_db: Database, _progress: Progress) -> None:
    """Splits, merges and "(Obsolete)" stubs recorded (statuses `split` and `merged`),
    identity decided by content before a kept number, a heading that differs only in
    typography `typography`: the editions are aligned again by m020, which does all of
    this too (so an older database is aligned once, not twice)."""


@migration
def m007_copies(_db: Database, _progress: Progress) -> None:
    """A rule printed twice word for word, whose second copy goes, `merged` into the copy
    that stays instead of `removed`: the editions are aligned again by m020."""


@migration
def m008_pointers(_db: Database, _progress: Progress) -> None:
    """A record renumbered or renamed whose only other difference is its closing
    cross-reference ('See rule 901, "Planechase."') `moved` instead of `moved_changed`:
    the editions are aligned again by m020."""


@migration
def m009_stubs(_db: Database, _progress: Progress) -> None:
    """An "(Obsolete)" stub never continued in a term in use under another name ("Phase
    Ability (Obsolete)" is removed in 2003-07-01, not "Characteristic-Setting Ability"):
    the editions are aligned again by m020."""


@migration
def m010_carried(_db: Database, _progress: Progress) -> None:
    """A rule whose sentences went on under another number, while a new rule took its
    own, paired with the rule that carries them (201.3a of 2017-01-20 is 201.3b of
    2017-04-28): the editions are aligned again by m020."""


@migration
def m011_merged_clauses(_db: Database, _progress: Progress) -> None:
    """A rule merged as a clause into a rule that continues another, most of whose words
    its new home had already, `merged` instead of `removed` (701.16d into 701.16c of
    2015-07-17; 501.1 into 500.3a of 2007-05-01): the editions are aligned again by m020."""


@migration
def m012_first_sentences(_db: Database, _progress: Progress) -> None:
    """A split or a merge whose core is not the record keeping the number continues the
    record its first sentence comes from (806.7c is 805.5a of 2010-06-18; 712.8 of
    2023-04-14 continues 712.4, and 713.4 was merged into it), and a rule merged in that
    brought most of the few words its new home gained is `merged` (713.11 into 712.16):
    the editions are aligned again by m020."""


@migration
def m013_lost_clauses(_db: Database, _progress: Progress) -> None:
    """A new rule holding nearly all that one old rule lost is `split` from it though
    reworded (603.12a of 2021-09-24), a rule merged in needs 60% of its words in its new
    home, not 70% (214.4b into 212.1b of 2003-07-01), and glossary headings alike are told
    apart by their definitions ("Source" is "Source of Damage" of 2003-07-01): the
    editions are aligned again by m020."""


@migration
def m014_in_place(_db: Database, _progress: Progress) -> None:
    """Every stored edition aligned again, with all the aligner knows (m006's splits,
    merges, stubs and content first, m007's copies, m008's pointers, m009's stubs,
    m010's carried sentences, m011's merged clauses, m012's first sentences, m013's lost
    clauses), and now a rule whose parent corresponds or whose number is kept is the same
    rule at a likeness of 0.35, not 0.40 (205.4b is 204.4c of 2009-07-11, which gained a
    long paragraph; 513.2 is 513.1 of 2016-09-30): the editions are aligned again by m020."""


def _realign(db: Database, progress: Progress) -> None:
    """Drop the stored lineage and align every stored edition with its neighbours again."""
    db.execute("DELETE FROM lineage")
    db.execute("DELETE FROM alignments")
    (count,) = db.execute("SELECT count(*) FROM editions").fetchone()
    advance = progress("aligning editions", count)
    lineage.link_all(db.conn, lambda: advance(1, ""))


@migration
def m015_identity(db: Database, _progress: Progress) -> None:
    """A random identity for the database, part of the search index's stamp: a database
    deleted and ingested again from the same files has the same editions and the same
    count of ingests, and an index left beside it (made by another rules-kb, its texts
    under other ids) was taken for its own. A copy of the database keeps the identity."""
    db.execute("INSERT OR IGNORE INTO meta (key, value) VALUES ('identity', ?)", [uuid.uuid4().hex])


@migration
def m016_named_stubs(_db: Database, _progress: Progress) -> None:
    """Every stored edition aligned again, with all the aligner knows (m006 to m014), and
    now a new "(Obsolete)" stub named for a name an old entry went on without is split
    from that entry ("Legend (Obsolete)" from "Legend, Legendary" of 2004-10-01, "At End of
    Turn (Obsolete)" from "End of Turn Step" of 2009-07-11): the editions are aligned
    again by m018."""


@migration
def m017_pointers(_db: Database, _progress: Progress) -> None:
    """Every stored edition aligned again, with all the aligner knows (m006 to m016), and
    now a pointer to another rule that a part keeping its old number gained ("See rule
    503, "Copying Objects."") is no new content: 203.1a of 2007-05-01 goes on as 203.1a,
    and 203.1d was split from it; 701.36a of 2021-06-18 goes on as 701.36a, and the Clue
    token's definition, 111.10f, was split from it: the editions are aligned again by
    m020."""


@migration
def m018_stubs_naming(_db: Database, _progress: Progress) -> None:
    """Every stored edition aligned again, with all the aligner knows (m006 to m017), and
    now an old glossary entry whose "(Obsolete)" stub names the new entry that replaces it
    continues in that entry where the definitions are too unlike to tell: "Removed from
    the Game" goes on as "Exile" in 2009-07-11, and its stub was split from it: the
    editions are aligned again by m020."""


@migration
def m019_kept_headings(_db: Database, _progress: Progress) -> None:
    """Every stored edition aligned again, with all the aligner knows (m006 to m018), and
    now a glossary heading kept whole is the same entry though another shares a name with
    it: "Play" goes on as "Play" in 2003-07-01 (not as "Put Into Play", with "Social-Play
    Sets" taken for it): the editions are aligned again by m020."""


@migration
def m020_named_parts(db: Database, progress: Progress) -> None:
    """Every stored edition aligned again, with all the aligner knows (m006 to m019), and
    now glossary entries joined or parted under their names are merged or split: "Legend/
    Legend Rule" goes on as "Legend/Legendary" of 1999-11-01 and "Legendary" was merged
    into it; "Trigger" of 2009-07-11 was split from "Trigger, Triggered Ability": the
    editions are aligned again by m021."""


@migration
def m021_followed_headings(_db: Database, _progress: Progress) -> None:
    """Every stored edition aligned again, with all the aligner knows (m006 to m020), and
    now a heading goes where its subrules went: "Tribals" 308 goes on as "Kindreds" 308
    of 2024-06-07 and "EDH" 903 as "Commander" 903 of 2011-02-04, "Spells" 401 of
    2003-03-15 as "Spells on the Stack" 401 (not as "Spells" 213, which continues "Spell
    Type"), and "Bands with Other" 502.11 was merged into "Banding" 702.19 of
    2009-07-11: the editions are aligned again by m022."""


@migration
def m022_renumbered_references(_db: Database, _progress: Progress) -> None:
    """Every stored edition aligned again (m006 to m021), and now the rule numbers a text
    cites that follow the renumbering of its editions are no change of wording, as `diff`
    counts them: "Retrace", whose "See rule 702.79" reads "See rule 702.80" in 2013-07-13,
    is the same entry there, not a changed one: the editions are aligned again by m023."""


@migration
def m023_lost_openings(_db: Database, _progress: Progress) -> None:
    """Every stored edition aligned again (m006 to m022), and now a new rule that opens
    with a sentence an old rule dropped was split from it: 203.1c of 2007-05-01, which
    opens with the sentence on lands that 203.1a dropped, and 217.6b of 2003-07-01, with
    the one on the order of the stack that 217.6a dropped: the editions are aligned again
    by m024."""


@migration
def m024_introductions(_db: Database, _progress: Progress) -> None:
    """Every stored edition aligned again (m006 to m023), and now a new rule whose
    subrules came of one old rule was split from it: 605.1 of 2009-07-11 introduces what
    406.1 said and 605.1a-b now say, 115.3 what 408.1c said (115.3a-d), 306.5 the loyalty
    rule 212.9d, 708.6 the split-card comparisons of 505.6, and 706.8 of 2010-10-01 the
    copy exceptions of the old 706.8: the editions are aligned again by m025."""


@migration
def m025_carried_sentences(_db: Database, _progress: Progress) -> None:
    """Every stored edition aligned again (m006 to m024), and now a rule left over on both
    sides went on in the one new rule that carries a long sentence of it almost word for
    word: 310.2c and 310.2d of 2009-05-01 are 510.1c and 510.1d, 405.1 is 604.1 (and the
    heading 405 was merged into 604), 411.3 is 605.4a, 419.2 is 614.1, and 415.2b of
    2003-03-15 is 415.7c: the editions are aligned again by m026."""


@migration
def m026_examples_apart(_db: Database, _progress: Progress) -> None:
    """Every stored edition aligned again (m006 to m025), and now a status speaks of a
    rule's own text, not its examples, as `where` and `cite` do: a rule whose only change
    is an example is `same` (no row is stored) or `moved`, where it was `changed` or
    `moved_changed` (201.2a of 2009-10-01 is 201.5 of 2010-02-01, renumbered; `history`
    says "example changed"): the editions are aligned again by m027."""


@migration
def m027_ranges_addresses_names(_db: Database, _progress: Progress) -> None:
    """Every stored edition aligned again (m006 to m026), and now a range a rule cites
    follows the renumbering at both ends (117.2's "601.2e-g" is "601.2f-h" in 2015-07-17,
    the same wording), angle brackets around a web address are typography (100.6 of
    2009-2014, "changed" each time they came and went), so is the "o" of "{oT}" in the
    symbols of 2003-07-01 to 2004-10-01 (28 records "changed" in 2005-02-01 when it went),
    and glossary names alike by their letters but not their words are not one entry
    ("Floor Rules" of 2009-05-01 is not "World Rule"): the editions are aligned again by
    m028."""


@migration
def m028_priority_sentences(_db: Database, _progress: Progress) -> None:
    """Every stored edition aligned again (m006 to m027), and now "play spells and
    abilities" reads as Magic 2010's "cast spells and activate abilities" when texts are
    compared, so the rules of 2009-07-11 that give the active player priority in a step
    ("Third, the active player gets priority. Players may cast spells and activate
    abilities.") were split from the step's rule that said it last (504.3 from 304.1,
    and 503.2, 505.4, 507.3, 508.3, 509.5, 510.4, 511.2, 513.2 alike), where they were
    new: the editions are aligned again by m029."""


@migration
def m029_examples_carried(_db: Database, _progress: Progress) -> None:
    """Every stored edition aligned again (m006 to m028), and now an old rule left over
    whose example one new rule prints went on there: 419.8b of 2001-07-23 and 500.5 of
    2003-07-01 are their old selves rewritten around the same example, 309.4 of 2009-05-01
    is 509.4f, and 502.9e, 500.4, 503.7 and 205.3c of 2009-05-01 and 501.2 of 2007-02-01
    were merged into the rules that print their examples (702.17b, 509.1c, 706.7a, 204.3b,
    500.3a), where they were removed: the editions are aligned again by m030."""


@migration
def m030_glued_trademarks(_db: Database, _progress: Progress) -> None:
    """Every stored edition aligned again (m006 to m029), and now a ™ that a damaged copy
    printed as a "T" or a U+FFFD glued to the name ("OracleT", "Kingdoms" and U+FFFD, in
    2001-07-23 to 2002-02-20) is typography: 503.1, 100.3, 200.1, 206.2 and 502.17a were
    "changed" in 2001-09-24 and again in 2002-02-20 for it alone: the editions are aligned
    again by m031."""


@migration
def m031_placeholders(_db: Database, _progress: Progress) -> None:
    """Every stored edition aligned again (m006 to m030), and now a placeholder's angle
    brackets against square ones are typography: "Protection from <quality>" of
    1999-04-23 is "Protection from [quality]" of 1999-11-01 (211.1, 410.9b, 502.7a were
    "changed" for it alone): the editions are aligned again by m032."""


@migration
def m032_trademark_spelled(_db: Database, _progress: Progress) -> None:
    """Every stored edition aligned again (m006 to m031), and now "TM" glued to an italic
    name is a trademark sign: the tombstone rule (104.6, 107.8, 107.9) was "changed" in
    2009-07-11 ("_Odyssey_TM"), 2009-09-04, 2011-07-15 and 2011-09-30 for it alone: the
    editions are aligned again by m033."""


@migration
def m033_letters_under_a_moved_heading(_db: Database, _progress: Progress) -> None:
    """Every stored edition aligned again (m006 to m032), and now a subrule split in two
    as its heading moved continues in the part that keeps its letters under the heading's
    new number: haste 502.5b of 2009-05-01 goes on as 702.10b (attacking), and 702.10c
    (tapping) was split from it, where 702.10c continued it and 702.10b was new: the
    editions are aligned again by m034."""


@migration
def m034_chapters_renamed_over_one_rule(_db: Database, _progress: Progress) -> None:
    """Every stored edition aligned again (m006 to m033), and now a section or chapter
    that keeps its number under a new title, whose one rule stayed under it, is that
    heading renamed: "Type" 205 is "Type Line" 205 of 2003-07-01 and "Credit" 209 is
    "Illustration Credit" 209, where each was one heading removed and one added: the
    editions are aligned again by m035."""


@migration
def m035_names_held_in_others(_db: Database, _progress: Progress) -> None:
    """Every stored edition aligned again (m006 to m034), and now a glossary entry whose
    name is a word of a new entry's, their definitions unalike, goes on there only if the
    rules it cites went where the new entry's are: "Order" of 2009-05-01 (217.1b) is
    removed, not "Damage Assignment Order" (509.2, 509.3): the editions are aligned again
    by m036."""


@migration
def m036_entries_merged_as_their_rules_went(_db: Database, _progress: Progress) -> None:
    """Every stored edition aligned again (m006 to m035), and now a glossary entry left
    over whose name holds a continued entry's name whole was merged into it where that
    entry has come to cite a rule the old one cited, as the rule went: "Colorless mana" of
    2009-05-01 (104.3d) into "Colorless" (107.4c), where it was removed: the editions are
    aligned again by m037."""


@migration
def m037_kept_numbers_under_followed_headings(_db: Database, _progress: Progress) -> None:
    """Every stored edition aligned again (m006 to m036), and now a rule rewritten under
    its number, whose heading was paired only by the subrules that followed it, is that
    rule changed: 713.2 of 2020-09-25 ("Checklist Cards" 713 became "Substitute Cards"),
    which was one rule removed and one added: the editions are aligned again by m038."""


@migration
def m038_headings_unquoted(_db: Database, _progress: Progress) -> None:
    """Every stored edition aligned again (m006 to m037), and now a glossary heading that
    only lost its quotes is not renamed: '"As Though"' of 2009-05-01 is "As Though" of
    2009-07-11, its definition changed, where it was "moved_changed": the editions are
    aligned again by m039."""


@migration
def m039_headings_follow_their_rules(_db: Database, _progress: Progress) -> None:
    """Every stored edition aligned again (m006 to m038), and now a section heading paired
    by its title alone follows its rules where they left it ("Copying Spells and
    Abilities" 503 of 2003-03-15 is "Copying Objects" 503, not "Targeted Spells and
    Abilities" 415; "General" 300 of 2009-05-01 is "General" 500), and a moved record
    whose closing "See rule ..." no longer cites a rule it cited, nor where that rule
    went, is "moved_changed" (400.9a of 2009-07-11), where it was "moved": the editions
    are aligned again by m040."""


@migration
def m040_deeper_rules_and_kept_wordings(_db: Database, _progress: Progress) -> None:
    """Every stored edition aligned again (m006 to m039), and now a chapter whose rules
    all stand in one new chapter, under different rules of it, went there: "Ending the
    Turn" 716 of 2019-07-12 is "Ending Turns and Phases" 716, and "Targeted Spells and
    Abilities" 415 of 2009-05-01 is "Targets" 113, where each was one heading removed and
    one added; and a rule printed word for word under another number keeps that line
    though an old rule left over kept the number: the "world rule" 801.13 of 2013-05-01 is
    801.12, the "legend rule" 801.12 before it removed, where the legend rule was
    "changed" and the world rule merged into it (704.5k of 2017-08-25 and 702.124m of
    2025-11-14 the same): the editions are aligned again by m041."""


@migration
def m041_parallel_rules_merged(_db: Database, _progress: Progress) -> None:
    """Every stored edition aligned again (m006 to m040), and now an old rule that said
    for one case what another said for another went into the rewrite of that other
    where it treats both alike: 723.2d of 2022-09-08 (the scheme deck as a subgame
    starts) into 724.2a (supplementary decks), 903.12 of 2015-03-27 into 903.11, where
    each was removed: the editions are aligned again by m042."""


@migration
def m042_nearest_of_all(_db: Database, _progress: Progress) -> None:
    """Every stored edition aligned again (m006 to m041), and now a rule left over on
    both sides goes on in the other where each is the other's most like rule of both
    editions, by a margin: 214.8h of 2003-03-15 is 415.3 of 2003-07-01 and 711.1c of
    2014-09-25 is 711.2, where each was one rule removed and one added: the editions are
    aligned again by m043."""


@migration
def m043_openings_almost_word_for_word(_db: Database, _progress: Progress) -> None:
    """Every stored edition aligned again (m006 to m042), and now a new rule opening with
    a sentence an old rule dropped, a word or two changed, was split from it, and a rule
    keeping its number and its opening goes on there: 807.4c of 2010-07-16 ("When" become
    "After") continues 807.4c, where it was added and the old one went to 807.4d: the
    editions are aligned again by m044."""


@migration
def m044_printed_again_keeps_its_line(_db: Database, _progress: Progress) -> None:
    """Every stored edition aligned again (m006 to m043), and now a rule printed again
    word for word under another number goes on there, against a new rule written after it
    that took its number: "Vanguard is a card type ..." 310.1 of 2012-05-01 is 311.1, and
    the new 310.1 on phenomena is new, where it had kept the old line: the editions are
    aligned again by m045."""


@migration
def m045_under_the_moved_heading(_db: Database, _progress: Progress) -> None:
    """Every stored edition aligned again (m006 to m044), and now a rule whose section
    moved goes on under the section's new number, against a new rule that took its
    number under another section: 713.3 of 2011-04-01, on subgames, is 714.3, not the new
    713.3 on restarting the game: the editions are aligned again by m046."""


@migration
def m046_another_keyword(_db: Database, _progress: Progress) -> None:
    """Every stored edition aligned again (m006 to m045), and now the same words said of
    another keyword are another rule: "Multiple instances of banding ... are redundant."
    502.10i of 2009-05-01 is not the intimidate rule 702.11c, where it had gone: the
    editions are aligned again by m047."""


@migration
def m047_opening_said_again(_db: Database, _progress: Progress) -> None:
    """Every stored edition aligned again (m006 to m046), and now a rule goes on where
    its opening sentence is said again, not at its number taken by another rule: the
    hybrid cost-reduction rule 116.7a of 2010-02-01 is 116.7c, where it had stayed 116.7a
    (a rule on colored reductions): the editions are aligned again by m048."""


@migration
def m048_heading_over_a_deeper_rule(_db: Database, _progress: Progress) -> None:
    """Every stored edition aligned again (m006 to m047), and now a section whose rules
    went deeper, under a rule of one new section, follows them to that section: "Legal
    Text" 210 of 2007-09-07 is "Information Below the Text Box" 210, where one heading
    was removed and one added: the editions are aligned again by m049."""


@migration
def m049_rule_become_chapter(_db: Database, _progress: Progress) -> None:
    """Every stored edition aligned again (m006 to m048), and now a rule whose subrules
    went under several rules of one new chapter became that chapter: "Timing of Team
    Turns" 806.7 of 2010-04-23 is "Shared Team Turns Option" 805, where it was removed
    and the chapter added: the editions are aligned again by m050."""


@migration
def m050_each_case_apart(_db: Database, _progress: Progress) -> None:
    """Every stored edition aligned again (m006 to m049), and now a rule said of two
    cases, printed once for each, was split in two: "... a replacement or prevention
    effect" 419.3 of 2009-05-01 is 613.3, and 614.3 "... a prevention effect" of
    2009-07-11 was split from it, where it was added: the editions are aligned again by
    m051."""


@migration
def m051_quoted_terms(_db: Database, _progress: Progress) -> None:
    """Every stored edition aligned again (m006 to m050), and now a new glossary entry for
    a term an old entry named in quotes, and went on without, was split from it: "World
    Rule" of 2009-07-11 from "World" ("This "world rule" is a state-based effect."),
    where it was added: the editions are aligned again by m052."""


@migration
def m052_opening_found_twice(_db: Database, _progress: Progress) -> None:
    """Every stored edition aligned again (m006 to m051), and now a part found among its
    source's words that opens with a sentence the source dropped needs no more proof:
    213.3 of 2003-07-01, on the term "spell", was split from 214.3, where it was added: the
    editions are aligned again by m053."""


@migration
def m053_case_said_apart(_db: Database, _progress: Progress) -> None:
    """Every stored edition aligned again (m006 to m052), and now a rule said of one of
    two cases an old rule named side by side is split from it, though it says more than
    the old rule did: 113.1d of 2009-07-11 ("A triggered ability is targeted if ...") from
    415.2 ("An activated or triggered ability ..."), where it was added: the editions are
    aligned again by m054."""


@migration
def m054_quotation_marks(_db: Database, _progress: Progress) -> None:
    """Every stored edition aligned again (m006 to m053), and now quotation marks put
    around a term or taken off it are typography: 308.2b of 2009-05-01 is 508.1e of
    2009-07-11 moved, 'a "bands with other" ability', where it was moved and changed: the
    editions are aligned again by m055."""


@migration
def m055_sentence_said_apart(_db: Database, _progress: Progress) -> None:
    """Every stored edition aligned again (m006 to m054), and now a rule placed just after
    an old rule's counterpart that says, reworded, a sentence the counterpart dropped is
    split from it: 614.13a of 2012-07-01 from 614.13 ("Such an effect can't cause the
    permanent itself to not enter ..."), where it was added: the editions are aligned
    again by m056."""


@migration
def m056_range_reordered(_db: Database, _progress: Progress) -> None:
    """Every stored edition aligned again (m006 to m055), and now a range whose members
    were reordered under one rule is the run they make there, no new wording: 301.8 of
    2009-10-01 ("Rules 301.7a-d") is 301.6 of 2010-02-01 moved ("Rules 301.5a-d"), where
    it was moved and changed: the editions are aligned again by m057."""


@migration
def m057_parallel_rewrite(_db: Database, _progress: Progress) -> None:
    """Every stored edition aligned again (m006 to m056), and now a rule left over whose
    words its rewrite and that rewrite's parallel for another case hold alike went on in
    the one holding every word of it the other holds: 508.2 of 2016-08-26 is 508.2b of
    2016-09-30, where it was removed and 508.2b added: the editions are aligned again by
    m058."""


@migration
def m058_title_into_split_rule(_db: Database, _progress: Progress) -> None:
    """Every stored edition aligned again (m006 to m057), and now a title whose subrules
    all went under a new rule split off another went into it: "Continuous Effects from
    Spells or Abilities" 418.3 of 2009-05-01 was merged into 610.2, where it was
    removed: the editions are aligned again by m059."""


@migration
def m059_entry_renamed_by_its_rules(_db: Database, _progress: Progress) -> None:
    """Every stored edition aligned again (m006 to m058), and now a glossary entry left
    over is the one new entry left over that cites where its rules went and says mostly
    what it said: "Infinity Rule (Informal)" of 2009-05-01 is "Loop" of 2009-07-11, where
    it was removed and "Loop" added: the editions are aligned again by m060."""


@migration
def m060_better_home(_db: Database, _progress: Progress) -> None:
    """Every stored edition aligned again (m006 to m059), and now a rule paired with a
    short echo of it goes on in a rewrite left over that holds every word of it the echo
    holds and more: 509.4 of 2016-08-26 is 509.4a of 2016-09-30, where it was 509.1i: the
    editions are aligned again by m061."""


@migration
def m061_sentence_said_apart(_db: Database, _progress: Progress) -> None:
    """Every stored edition aligned again (m006 to m060), and now a sentence a rule
    dropped, said again in other words beside it, is found by the rule most nearly that
    sentence, though a longer rule elsewhere holds a word more of it: 400.7b of
    2022-10-07 was split from 400.7a, where it was added: the editions are aligned again
    by m062."""


@migration
def m062_second_copy(_db: Database, _progress: Progress) -> None:
    """Every stored edition aligned again (m006 to m061), and now a rule printed twice
    word for word, once keeping its letters, goes on in that copy and the other was split
    from it: 300.2 of 2009-07-11 was split from 205.2b, where it was added: the editions
    are aligned again by m063."""


@migration
def m063_rules_follow_their_heading(_db: Database, _progress: Progress) -> None:
    """Every stored edition aligned again (m006 to m062), and now the rules of a heading
    that followed its rules to a new home, paired under the heading it left, follow it to
    their number there where that is as like them: 809.2 of 2010-04-23 is 811.2 of
    2010-06-18, where it was 808.3: the editions are aligned again by m064."""


@migration
def m064_opening_sentence_core(_db: Database, _progress: Progress) -> None:
    """Every stored edition aligned again (m006 to m063), and now a rule that took in
    another goes on from the one whose sentence it opens with word for word: 502.10i of
    2009-05-01 is 702.19m of 2009-07-11, where it was removed, and 502.11d was merged into
    it; a heading whose rules went on or were merged under one new rule went there: the
    editions are aligned again by m065."""


@migration
def m065_entry_said_apart(_db: Database, _progress: Progress) -> None:
    """Every stored edition aligned again (m006 to m064), and now a new glossary entry
    that says apart what an old entry lost as it went on was split from it: "Tap Symbol"
    of 2009-07-11 from "Tap", and "Attach" of 2005-08-01 from "Move", where they were
    added: the editions are aligned again by m066."""


@migration
def m066_lost_case_said_apart(_db: Database, _progress: Progress) -> None:
    """Every stored edition aligned again (m006 to m065), and now a part that says the
    case its source named beside the one its counterpart kept was split from it: 115.1b
    of 2009-07-11 ("... activate an activated ability ...") from 408.1d, where it was
    added: the editions are aligned again by m067."""


@migration
def m067_short_rule_rewritten_in_place(_db: Database, _progress: Progress) -> None:
    """Every stored edition aligned again (m006 to m066), and now a short rule whose
    words stand in the rewrite at its number and parent is that rule rewritten: 212.5c of
    2004-10-01 ("Instant subtypes are always single words ...") is 212.5c of 2004-06-01
    ("Instants have no subtypes."), changed, where one was removed and the other added:
    the editions are aligned again by m068."""


@migration
def m068_openings_decide(_db: Database, _progress: Progress) -> None:
    """Every stored edition aligned again (m006 to m067), and now what a rule said first
    decides more: a new rule that opens with a sentence an old rule dropped and goes on
    in the same sentence was split from it, and where it keeps the old number the line
    goes on there (113.6 of 2009-10-01 is 113.6 of 2010-02-01, "... of a spell or
    ability, and other effects ...", where it was 113.6a, now split from it); and of two
    new rules nearly as like an old one, it goes on in the one saying its opening (200.7a
    of 2009-05-01 is 112.7 of 2009-07-11, where it was 603.3a): the editions are aligned
    again by m069."""


@migration
def m069_sentences_said_elsewhere(_db: Database, _progress: Progress) -> None:
    """Every stored edition aligned again (m006 to m068), and now an old glossary entry
    whose every sentence a continued entry came to say was merged into it ("Suspended" of
    2009-05-01 into "Suspend" of 2009-07-11, where it was removed), and a rule placed
    just before an old rule's counterpart, beside it, that says again a sentence the
    counterpart dropped was split from it, as one placed after it was: 212.6c of
    2007-10-01 from 212.6b, which goes on there as it says what 212.6b said first, where
    it went on as 212.6e and 212.6c and 212.6d were added: the editions are aligned again
    by m070."""


@migration
def m070_head_saying_the_opening(_db: Database, _progress: Progress) -> None:
    """Every stored edition aligned again (m006 to m069), and now an old rule whose
    counterpart is a subrule of a new rule left over that says more of what it said first
    goes on in that rule, the subrule split from it (420.1 of 2009-05-01 is 704.1 of
    2009-07-11, where it was 704.1a), and a full stop printed twice is typography (the
    glossary's "Main Phase" of 2001-07-23 is the same entry, where it was changed): the
    editions are aligned again by m071."""


@migration
def m071_title_rule_follows_its_rules(_db: Database, _progress: Progress) -> None:
    """Every stored edition aligned again (m006 to m070), and now a rule that is a title,
    paired with one of two new headings of one title, goes to the other where its rules
    went, whatever its kind: "Removed from the Game" 217.7 of 2009-05-01 is the zone
    "Exile" 406 of 2009-07-11, where it was the keyword action "Exile" 701.9: the
    editions are aligned again by m072."""


@migration
def m072_other_case_split(_db: Database, _progress: Progress) -> None:
    """Every stored edition aligned again (m006 to m071), and now a new rule that says
    what an old rule said, of the case the old rule's counterpart was narrowed away from,
    was split from it: 704.5w of 2026-08-07 ("If a non-Siege battle has defense 0 ...")
    from 704.5v, which went on on Siege battles, and 310.8 from 310.7, where they were
    added: the editions are aligned again by m073."""


@migration
def m073_brought_sentence_merged(_db: Database, _progress: Progress) -> None:
    """Every stored edition aligned again (m006 to m072), and now an old rule left over
    that brought a new rule continuing another a sentence that other rule never said was
    merged into it: the intervening "if" rule 410.8 of 2009-05-01 into 603.4 of
    2009-07-11, which goes on from 404.3, where it was removed: the editions are aligned
    again by m074."""


@migration
def m074_white_space_is_the_same(_db: Database, _progress: Progress) -> None:
    """Every stored edition aligned again (m006 to m073), and now a text that differs
    from its counterpart's only in white space is the same, where it was typography
    (the glossary's "Untap" of 2002-10-07, a line break between its senses where a space
    was; 46 records in all): the editions are aligned again by m075."""


@migration
def m075_opening_core(_db: Database, _progress: Progress) -> None:
    """Every stored edition aligned again (m006 to m074), and now a rule that took in
    another goes on from the one whose first sentence it opens with, word for word, where
    that one holds three fifths of its words there (seven tenths before): 406.4 of
    2003-07-01 goes on from 406.1d, and 406.1e was merged into it (they were the other
    way round); so 212.6d from 214.9d, and 305.1 of 2009-07-11 from 212.6b: the editions
    are aligned again by m076."""


@migration
def m076_parts_judged_by_the_kept_number(_db: Database, _progress: Progress) -> None:
    """Every stored edition aligned again (m006 to m075), and now a part of an old rule
    whose line goes on in the part keeping its number, where the fuzzy pass had paired it
    with another part, is judged by what the part keeping the number lost: 212.4k of
    2006-07-15, on moving an Aura, was split from 212.4e (it was added); 212.4e goes on
    as 212.4e, and 212.4j was split from it, as before: the editions are aligned again by
    m077."""


@migration
def m077_stops_and_merged_citations(_db: Database, _progress: Progress) -> None:
    """Every stored edition aligned again (m006 to m076), and now two more things are no
    change of wording: a full stop put inside a closing quotation mark or parenthesis or
    after it (400.10 of 2009-07-11 is 400.11 of 2009-09-04, `moved`), and a cited rule
    that no longer stands cited where the rules under it went ("(see rule 510)" of 503.3,
    2009-05-01, is "(see rule 110.6)" of 706.3, `moved`: 510 went into 110, 510.1 became
    110.6): the editions are aligned again by m078."""


@migration
def m078_own_labels(_db: Database, _progress: Progress) -> None:
    """Every stored edition aligned again (m006 to m077), and now a label a rule prints of
    its own letter, relettered as the rule moved, is no change of wording: "Layer 7e:" of
    613.3e (2020-01-24) is "Layer 7d:" of 613.4d (2020-04-17), `moved`: the editions are
    aligned again by m079."""


@migration
def m079_quoted_templates(_db: Database, _progress: Progress) -> None:
    """Every stored edition aligned again (m006 to m078), and now what a rule said only
    inside quotation marks is no clause it lost to a new rule: 602.5f of 2021-04-22, a
    note quoting the old "Activate this ability only any time you could cast ..." that
    605.1 reworded, is new (it was split from 605.1): the editions are aligned again by
    m080."""


@migration
def m080_new_cases(_db: Database, _progress: Progress) -> None:
    """Every stored edition aligned again (m006 to m079), and now a new rule written in
    the words of a rule beside it for a case the old rule never named is new, not split
    from it: "If a player wants to name the combined back face of a meld pair ..." 201.3d
    of 2016-07-22 (201.3 named double-faced cards, not meld pairs), and "Abilities that
    trigger when a player loses the game look back in time." 603.10f of 2016-11-11: the
    editions are aligned again by m081."""


@migration
def m081_joined_headings(_db: Database, _progress: Progress) -> None:
    """Every stored edition aligned again (m006 to m080), and now a section or chapter of
    one rule, left over, was merged into the heading its rule went into, where that
    heading goes on from another: "Collector Number" 211 and "Illustration Credit" 209 of
    2007-09-07 into "Information Below the Text Box" 210 of 2007-10-01 (they were
    removed): the editions are aligned again by m082."""


@migration
def m082_citations_of_parts(_db: Database, _progress: Progress) -> None:
    """Every stored edition aligned again (m006 to m081), and now a rule cited, cited
    again as the rules it went on in, is no change of wording: "(see rule 418.5a)" of
    418.5c, 2009-05-01, is "(see rules 612.1 and 612.3)" of 612.7a, `moved` (418.5a went
    on as 612.1, and 612.3 was split off it): the editions are aligned again by m083."""


@migration
def m083_sentences_said_again(_db: Database, _progress: Progress) -> None:
    """Every stored edition aligned again (m006 to m082), and now a rule paired by
    likeness with one old rule, that says again every word of a sentence another old
    rule's counterpart beside it dropped, was split from that other rule: 712.11a of
    2023-04-14, on double-faced cards cast "transformed", from 712.7, which went on as
    712.11 (it was paired with 713.8, on meld cards cast as spells, which is removed):
    the editions are aligned again by m084."""


@migration
def m084_parallel_parts(_db: Database, _progress: Progress) -> None:
    """Every stored edition aligned again (m006 to m083), and now a rule written in the
    words of an old rule's counterpart for the case the old rule named beside the one
    its counterpart kept was split from it: 103.4a of 2013-07-13, the starting hand of a
    Vanguard game, from 103.3b, which said the life and the hand modifiers in one
    sentence and goes on as the rule on the life total (it was added): the editions are
    aligned again by m085."""


@migration
def m085_openings_brought(_db: Database, _progress: Progress) -> None:
    """Every stored edition aligned again (m006 to m084), and now an old rule left over
    whose opening sentence one new rule continuing another came to say, and no other new
    rule says, was merged into it: 418.5b of 2003-10-01, "Sometimes the results of one
    effect determine whether another effect applies ...", into 418.5h of 2003-12-01,
    which goes on from 418.5h, "One continuous effect can override another." (it was
    removed): the editions are aligned again by m086."""


@migration
def m086_said_before(_db: Database, _progress: Progress) -> None:
    """Every stored edition aligned again (m006 to m085), and now a rule beside an old
    rule's counterpart that says again a sentence the counterpart dropped is not
    outweighed by a rule elsewhere holding as much of it only as its own old rule did:
    714.3b of 2026-04-17, on a Saga with read ahead, was split from 714.3a, though
    702.155b, which always said it, was rewritten in the same words (it was added): the
    editions are aligned again by m087."""


@migration
def m087_written_after(db: Database, progress: Progress) -> None:
    """Every stored edition aligned again (m006 to m086), and now neither is it
    outweighed by a new rule holding as much of the sentence only as the old rule it was
    written after did: 212.6b of 2007-10-01, on when a player may play a land, was split
    from 212.6a, though the new planeswalker rule 212.9a, written after 212.3a on
    creatures, holds as many of its words (it was added)."""
    _realign(db, progress)


# Further migrations go here, numbered in order (m088_...).

SCHEMA_VERSION = len(MIGRATIONS)
assert SCHEMA_VERSION == schema.VERSION, (
    "rules_kb.ingest.schema.VERSION is the number of migrations"
)


#: How long a writer waits for another writer's transaction to end (milliseconds).
WRITE_WAIT_MS = 300_000


def open_db(path: Path, progress: Progress = silent) -> Database:
    """Open (creating if needed) the database and bring its schema up to date."""
    path.parent.mkdir(parents=True, exist_ok=True)
    db = Database(path)
    db.execute(f"PRAGMA busy_timeout = {WRITE_WAIT_MS}")
    if db.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
        _write_ahead(db)
    migrate(db, progress)
    return db


def _write_ahead(db: Database) -> None:
    """Switch the database to write-ahead logging. While another connection holds the
    writer lock, SQLite refuses the switch at once ("database is locked") instead of
    waiting, to avoid a deadlock; so two processes creating one database each retry,
    pausing a little longer each time, for as long as a writer waits (WRITE_WAIT_MS)."""
    deadline = time.monotonic() + WRITE_WAIT_MS / 1000
    pause = 0.005
    while True:
        try:
            db.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as error:
            if error.sqlite_errorcode & 0xFF != sqlite3.SQLITE_BUSY:
                raise
            if time.monotonic() + pause > deadline:
                raise
        time.sleep(pause)
        pause = min(2 * pause, 0.25)


@contextmanager
def writing(db: Database) -> Iterator[Database]:
    """One write transaction that holds the writer lock from its start (BEGIN IMMEDIATE):
    a second writer waits for it instead of failing half-way, then sees its work. Inside a
    transaction the caller holds, it is a savepoint of that transaction."""
    if db.conn.in_transaction:
        try:
            with db.atomic():
                yield db
        except BaseException:
            _forget_texts(db)  # the texts it inserted are gone with it
            raise
        return
    db.execute("BEGIN IMMEDIATE")
    try:
        yield db
    except BaseException:
        db.conn.rollback()
        _forget_texts(db)
        raise
    db.conn.commit()


def migrate(db: Database, progress: Progress = silent) -> None:
    """Apply the migrations this database has not seen, each in its own transaction,
    reading the schema version under the writer lock (two processes never both migrate)."""
    while True:
        with writing(db):
            done = db.execute("PRAGMA user_version").fetchone()[0]
            if done >= len(MIGRATIONS):
                return
            MIGRATIONS[done](db, progress)
            db.execute(f"PRAGMA user_version = {done + 1}")


#: The hashed form of the rules met lately: most of an edition's rules are, word for word,
#: rules of the edition before (bounded: cleared when full).
_HASHED: dict[tuple[str, str, str, tuple[str, ...]], str] = {}
_HASHED_MAX = 65536


def content_hash(edition: Edition) -> str:
    """A digest of the records, so that byte-different copies of one text compare equal.

    The bytes hashed are those of `json.dumps([number, kind, text, examples])` per rule,
    `json.dumps([term, text])` per glossary entry and `json.dumps([intro, credits,
    index])`, written with the C string encoder directly (stored digests depend on it).
    """

    def quote(value: str | None) -> str:
        return "null" if value is None else str(encode_basestring_ascii(value))

    def rule_part(rule: Rule) -> str:
        record = (rule.number, rule.kind, rule.text, rule.examples)
        found = _HASHED.get(record)
        if found is None:
            found = (
                f"[{quote(rule.number)}, {quote(rule.kind)}, {quote(rule.text)},"
                f" [{', '.join(map(quote, rule.examples))}]]"
            )
            if len(_HASHED) >= _HASHED_MAX:
                _HASHED.clear()
            _HASHED[record] = found
        return found

    parts = [rule_part(rule) for rule in edition.rules]
    parts += [f"[{quote(entry.term)}, {quote(entry.text)}]" for entry in edition.glossary]
    parts.append(f"[{quote(edition.intro)}, {quote(edition.credits)}, {quote(edition.index)}]")
    return hashlib.sha256("".join(parts).encode()).hexdigest()


def ingest(
    db: Database,
    edition: Edition,
    *,
    source: str,
    sha256: str,
    encoding: str,
    warnings: Iterable[str] = (),
    replace: bool = False,
) -> IngestResult:
    """Store one parsed edition in a single transaction.

    Identical records already stored under the same date are a no-op; different
    records for a stored date raise EditionExists unless `replace` is true.
    """
    all_warnings = (*warnings, *edition.warnings)
    digest = content_hash(edition)
    with writing(db):  # the check and the write under one lock: racing ingests queue
        existing = db.execute(
            "SELECT id, content_sha256 FROM editions WHERE date = ?", [edition.date]
        ).fetchone()
        status: IngestStatus = "added"
        if existing is not None:
            if existing[1] == digest:
                return _result(edition, "unchanged", all_warnings)
            if not replace:
                raise EditionExists(
                    f"edition {edition.date} is already stored with different text"
                    f" ({describe_difference(db, existing[0], edition)});"
                    " use --replace to overwrite it"
                )
            status = "replaced"
            _delete_edition(db, existing[0])
        edition_id = _insert_edition(db, edition, source, sha256, encoding, digest, all_warnings)
        _insert_records(db, edition_id, edition, digest)
        _insert_references(db, edition_id, _edition_sources(db, edition))
        lineage.link(db.conn, edition_id, _REMEMBERED.setdefault(db, {}))
        _bump_stamp(db)
    return _result(edition, status, all_warnings)


def stored_copy(db: Database, sha256: str) -> IngestResult | None:
    """What an ingest of a file with this digest would find: the edition stored from the
    same bytes, if any (a re-ingest of unchanged files then skips decoding them)."""
    from rules_kb.ingest.readonly import stored_copies

    return stored_copies(db.conn, sha256).get(sha256)


def describe_difference(db: Database, edition_id: int, edition: Edition) -> str:
    """Say how a new copy differs from the stored edition: how many rules, and in what."""
    stored = dict(
        db.execute(
            "SELECT r.number, t.text FROM rules r JOIN texts t ON t.id = r.text_id"
            " WHERE r.edition_id = ?",
            [edition_id],
        ).fetchall()
    )
    new = {rule.number: rule.text for rule in edition.rules}
    changed = [number for number, text in new.items() if stored.get(number, text) != text]
    added = len(new.keys() - stored.keys())
    missing = len(stored.keys() - new.keys())
    typographic = [number for number in changed if same_wording(stored[number], new[number])]
    parts = []
    if changed:
        detail = (
            (
                ", only in typography (quotes, dashes)"
                if len(changed) == 1
                else ", all only in typography (quotes, dashes)"
            )
            if len(typographic) == len(changed)
            else f", {len(typographic)} of them only in typography"
        )
        noun = "rule reads" if len(changed) == 1 else "rules read"
        parts.append(f"{len(changed)} {noun} differently{detail}")
    if added or missing:
        parts.append(f"{added} {'rule' if added == 1 else 'rules'} more, {missing} fewer")
    stored_terms = db.execute(
        "SELECT count(*) FROM glossary WHERE edition_id = ?", [edition_id]
    ).fetchone()[0]
    if stored_terms != len(edition.glossary):
        parts.append(f"{len(edition.glossary)} glossary entries instead of {stored_terms}")
    return "; ".join(parts) or "the glossary, introduction or credits differ"


def _bump_stamp(db: Database) -> None:
    db.execute("UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'stamp'")


def _result(edition: Edition, status: IngestStatus, warnings: tuple[str, ...]) -> IngestResult:
    return IngestResult(
        date=edition.date,
        status=status,
        rules=_rule_count(edition),
        examples=edition.example_count,
        glossary=len(edition.glossary),
        unparsed=len(edition.unparsed),
        warnings=warnings,
    )


def _rule_count(edition: Edition) -> int:
    return sum(1 for rule in edition.rules if rule.kind in {"rule", "subrule"})


def _delete_edition(db: Database, edition_id: int) -> None:
    lineage.unlink(db.conn, edition_id)
    _forget_texts(db)
    for table in ("rules", "examples", "glossary", "unparsed", "refs"):
        db.execute(f"DELETE FROM {table} WHERE edition_id = ?", [edition_id])
    db.execute("DELETE FROM editions WHERE id = ?", [edition_id])
    db.execute(
        "DELETE FROM texts WHERE id NOT IN (SELECT text_id FROM rules UNION"
        " SELECT text_id FROM examples UNION SELECT text_id FROM glossary UNION"
        " SELECT intro_id FROM editions UNION SELECT credits_id FROM editions UNION"
        " SELECT index_id FROM editions)"
    )


def _insert_edition(
    db: Database,
    edition: Edition,
    source: str,
    sha256: str,
    encoding: str,
    digest: str,
    warnings: tuple[str, ...],
) -> int:
    row: dict[str, Any] = {
        "date": edition.date,
        "title": edition.title,
        "source": source,
        "sha256": sha256,
        "content_sha256": digest,
        "encoding": encoding,
        "warnings": json.dumps(list(warnings)),
        "rules": _rule_count(edition),
        "examples": edition.example_count,
        "glossary": len(edition.glossary),
        "body_lines": edition.body_lines,
        "unparsed": len(edition.unparsed),
        "intro_id": _text_ids(db, [edition.intro])[0],
        "credits_id": _text_ids(db, [edition.credits])[0],
        "index_id": _text_ids(db, [edition.index])[0],
        "ingested_at": datetime.now(UTC).isoformat(timespec="seconds"),
    }
    db.table("editions").insert(row)
    found = db.execute("SELECT id FROM editions WHERE date = ?", [edition.date]).fetchone()
    return int(found[0])


_RULE_COLUMNS = (attrgetter("number"), attrgetter("kind"), attrgetter("parent"))


def _insert_records(db: Database, edition_id: int, edition: Edition, digest: str) -> None:
    """The edition's rows, inserted with plain executemany (sqlite-utils' per-row
    conversion costs more than SQLite itself here; it keeps the schema and migrations).
    The session remembers them as lineage records, so aligning this edition with its
    neighbours does not read them back."""
    ids = _text_ids(
        db,
        [rule.text for rule in edition.rules]
        + [example for rule in edition.rules for example in rule.examples]
        + [entry.text for entry in edition.glossary],
    )
    rule_ids, rest = ids[: len(edition.rules)], ids[len(edition.rules) :]
    # Columns taken out with attrgetter and zipped: 5,000 rows an edition, no Python loop.
    numbers, kinds, parents = (list(map(get, edition.rules)) for get in _RULE_COLUMNS)
    conn = db.conn
    conn.executemany(
        "INSERT INTO rules (edition_id, seq, number, kind, parent, text_id)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        zip(repeat(edition_id), count(), numbers, kinds, parents, rule_ids),
    )
    examples = [
        (rule_seq, seq)
        for rule_seq, rule in enumerate(edition.rules)
        for seq in range(len(rule.examples))
    ]
    conn.executemany(
        "INSERT INTO examples (edition_id, rule_seq, seq, text_id) VALUES (?, ?, ?, ?)",
        (
            (edition_id, rule_seq, seq, text_id)
            for (rule_seq, seq), text_id in zip(examples, rest, strict=False)
        ),
    )
    glossary_ids = rest[len(examples) :]
    conn.executemany(
        "INSERT INTO glossary (edition_id, seq, term, text_id) VALUES (?, ?, ?, ?)",
        (
            (edition_id, seq, entry.term, text_id)
            for seq, (entry, text_id) in enumerate(zip(edition.glossary, glossary_ids, strict=True))
        ),
    )
    conn.executemany(
        "INSERT INTO unparsed (edition_id, line, text) VALUES (?, ?, ?)",
        ((edition_id, line, text) for line, text in edition.unparsed),
    )
    examples_of: dict[int, tuple[int, ...]] = {}
    for (rule_seq, _seq), text_id in zip(examples, rest, strict=False):
        examples_of[rule_seq] = (*examples_of.get(rule_seq, ()), text_id)
    remembered = _REMEMBERED.setdefault(db, {})
    remembered[edition_id, "rule"] = (
        digest,
        lineage.remembered_records(
            zip(numbers, kinds, parents, rule_ids, strict=True), examples_of
        ),
    )  # fmt: skip
    remembered[edition_id, "glossary"] = (
        digest,
        lineage.remembered_records(
            [(entry.term, "glossary", None, text_id)
             for entry, text_id in zip(edition.glossary, glossary_ids, strict=True)],
            {},
        ),
    )  # fmt: skip


_Sources = tuple[list[tuple["SourceKind", str, str]], list[int], list[str], list[str]]


def _edition_sources(db: Database, edition: Edition) -> _Sources:
    """The citing texts of a parsed edition as (kind, key, text) (`refs.edition_texts`),
    their text ids, its numbers and terms."""
    from rules_kb.ingest.refs import edition_texts

    sources = list(edition_texts(edition))
    text_ids = _text_ids(db, [text for _kind, _key, text in sources])
    numbers = [rule.number for rule in edition.rules]
    terms = [entry.term for entry in edition.glossary]
    return sources, text_ids, numbers, terms


def _stored_sources(db: Database, edition_id: int) -> _Sources:
    """The citing texts of a stored edition, read back from its rows."""
    rows = db.execute(
        "SELECT 'rule', number, text_id, seq, -1 FROM rules WHERE edition_id = :e"
        " UNION ALL SELECT 'example', r.number, e.text_id, e.rule_seq, e.seq FROM examples e"
        " JOIN rules r ON r.edition_id = e.edition_id AND r.seq = e.rule_seq"
        " WHERE e.edition_id = :e"
        " UNION ALL SELECT 'glossary', term, text_id, 1000000 + seq, -1 FROM glossary"
        " WHERE edition_id = :e ORDER BY 4, 5",
        {"e": edition_id},
    ).fetchall()
    texts = dict(
        db.execute(
            "SELECT id, text FROM texts WHERE id IN"
            " (SELECT text_id FROM rules WHERE edition_id = :e"
            " UNION SELECT text_id FROM examples WHERE edition_id = :e"
            " UNION SELECT text_id FROM glossary WHERE edition_id = :e)",
            {"e": edition_id},
        ).fetchall()
    )
    sources = [(kind, key, texts[text_id]) for kind, key, text_id, _, _ in rows]
    numbers = [key for kind, key, *_ in rows if kind == "rule"]
    terms = [key for kind, key, *_ in rows if kind == "glossary"]
    return sources, [row[2] for row in rows], numbers, terms


def _insert_references(db: Database, edition_id: int, found: _Sources) -> None:
    """Store an edition's references, resolved against that edition, as rows of `refs`."""
    from rules_kb.ingest.refs import plain_rows

    sources, text_ids, numbers, terms = found
    db.conn.executemany(
        "INSERT INTO refs (edition_id, seq, text_id, source_kind, source_key, start, end,"
        " target_kind, target, resolved) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            (edition_id, seq, text_ids[index], kind, key, start, end, target_kind, target, exists)
            for seq, (index, kind, key, _raw, start, end, target_kind, target, exists) in enumerate(
                plain_rows(sources, numbers, terms)
            )
        ),
    )


def text_digest(text: str) -> int:
    """A signed 64-bit digest of a text, the key it is stored under."""
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big", signed=True)


#: Text -> id, per writing connection, for the whole session: a run over many editions
#: meets the same texts again and again (19,000 distinct texts behind 750,000 uses).
_KNOWN_TEXTS: weakref.WeakKeyDictionary[Database, dict[str, int]] = weakref.WeakKeyDictionary()


def _known(db: Database) -> dict[str, int]:
    return _KNOWN_TEXTS.setdefault(db, {})


#: Records of the editions last aligned, per writing connection (see lineage.link).
_REMEMBERED: weakref.WeakKeyDictionary[Database, lineage.Remembered] = weakref.WeakKeyDictionary()


def _forget_texts(db: Database) -> None:
    """Texts may have been deleted or rolled back (and edition ids with them): what the
    session remembers is not to be trusted."""
    _KNOWN_TEXTS.pop(db, None)
    _REMEMBERED.pop(db, None)


def _text_ids(db: Database, texts: list[str]) -> list[int]:
    """Ids of the given texts, inserting the ones not stored yet. Ids are remembered for
    the connection, so each distinct text is hashed and looked up once per session."""
    known = _known(db)
    missing = set(texts).difference(known)
    if missing:
        conn = db.conn
        digests = {text: text_digest(text) for text in missing}
        conn.executemany(
            "INSERT OR IGNORE INTO texts (digest, text) VALUES (?, ?)",
            ((digest, text) for text, digest in digests.items()),
        )
        sql = "SELECT id, digest FROM texts WHERE digest IN ({marks})"
        by_digest = {
            digest: text_id for text_id, digest in rows_in(conn, sql, list(digests.values()))
        }
        for text, digest in digests.items():
            known[text] = by_digest[digest]
    return list(map(known.__getitem__, texts))
