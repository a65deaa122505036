"""Lineage: which record of one edition is which record of the next, stored at ingest.

Every edition is aligned with the one before it in date order (`rules_kb.ingest.align`), for
its rules and for its glossary, and the pairs are stored with what happened to each:

- ``same``: same number (or term), same text;
- ``typography``: same number, wording equal once typography is folded;
- ``changed``: same number, other wording;
- ``moved``: another number (a glossary entry: another heading), same wording;
- ``moved_changed``: another number and other wording;
- ``added`` / ``removed``: no counterpart on the other side;
- ``split``: a new record split off an old one whose line continues elsewhere (the row
  names both; the new record's line starts here);
- ``merged``: an old record merged into a new one that continues another line (the row
  names both; the old record's line ends here).

A record has at most one row of the first kinds; a split or merged row comes on top of
the main row of the record it names on the other side, and is stored after it.

A status speaks of the record's own text: its examples illustrate it and are not the
rule, so a rule whose only change is an example is ``same`` (or ``moved``), as `where`
and `cite` say; `history` tells the examples apart (`same_examples`), and `diff` lists
them.

Almost every record of an edition is the same as its namesake in the edition before,
so a pair is stored only when it is not: a record with no lineage row is the same as
the record of the previous edition with the same number and the same text, which by
construction exists and is unique on both sides. That keeps the table to about a
tenth of the rows, and a line of descent is still followed by indexed lookups only,
one edition at a time, never by reading whole editions.

The table `alignments` says which edition each edition's rows were aligned with, so
inserting an edition between two stored ones re-aligns exactly its two neighbours.
"""

from __future__ import annotations

import re
import sqlite3
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from itertools import pairwise
from operator import itemgetter
from typing import Literal

from rules_kb.ingest.align import Alignment, Item, align, numbers_masked, renumber_references
from rules_kb.ingest.align.model import went_to
from rules_kb.ingest.align.words import cited_numbers
from rules_kb.ingest.models import descends
from rules_kb.ingest.readonly import texts
from rules_kb.typography import heading_key, key, same_wording, spaced_alike

Kind = Literal["rule", "glossary"]
KINDS: tuple[Kind, ...] = ("rule", "glossary")
Status = Literal[
    "same",
    "typography",
    "changed",
    "moved",
    "moved_changed",
    "added",
    "removed",
    "split",
    "merged",
]
#: Rows that relate two records without continuing a line.
RELATIONS = ("split", "merged")
#: Called once an edition is linked with its predecessor (for progress bars).
Tick = Callable[[], None]

SCHEMA = (
    "CREATE TABLE alignments (edition_id INTEGER PRIMARY KEY, previous_id INTEGER)",
    "CREATE TABLE lineage (edition_id INTEGER NOT NULL, kind TEXT NOT NULL,"
    " seq INTEGER, old_seq INTEGER, status TEXT NOT NULL)",
    "CREATE INDEX lineage_by_new ON lineage (edition_id, kind, seq)",
    "CREATE INDEX lineage_by_old ON lineage (edition_id, kind, old_seq)",
)

_RECORDS = {
    "rule": "SELECT number, kind, parent, text_id FROM rules WHERE edition_id = ? ORDER BY seq",
    "glossary": "SELECT term, 'glossary', NULL, text_id FROM glossary WHERE edition_id = ?"
    " ORDER BY seq",
}


@dataclass(frozen=True, slots=True)
class Records:
    """The records of one kind of a stored edition, as alignment sees them.

    A record's position in `items` is its seq in the edition.
    """

    items: tuple[Item, ...]
    """Number (or term), kind, parent and text id of each record, in document order."""
    examples: Mapping[int, tuple[int, ...]]
    """The text ids of each rule's examples, by the rule's seq (rules that have some)."""
    repeated: frozenset[tuple[str, int]] = frozenset()
    """The (number, text id) pairs that occur more than once in the edition (a few at most:
    the others are unique)."""
    keyed: tuple[tuple[str, int], ...] = ()
    """The (number, text id) pair of each item."""


def records(conn: sqlite3.Connection, edition_id: int, kind: Kind) -> Records:
    """Every record of one kind of a stored edition, in document order."""
    examples: dict[int, list[int]] = {}
    if kind == "rule":
        for rule_seq, text_id in conn.execute(
            "SELECT rule_seq, text_id FROM examples WHERE edition_id = ? ORDER BY rule_seq, seq",
            [edition_id],
        ):
            examples.setdefault(rule_seq, []).append(text_id)
    rows = conn.execute(_RECORDS[kind], [edition_id]).fetchall()
    return remembered_records(rows, {seq: tuple(ids) for seq, ids in examples.items()})


_KEY_AND_TEXT = itemgetter(0, 3)
"""An item's (key, text id)."""
_AS_ITEM = partial(tuple.__new__, Item)
"""A row of four as an Item (`Item._make` without its Python-level call)."""


def remembered_records(
    rows: Iterable[tuple[str, str, str | None, int]], examples: Mapping[int, tuple[int, ...]]
) -> Records:
    """Records built from rows an ingest has just written: (number or term, kind, parent,
    text id) in document order, and the example text ids by rule seq."""
    items = tuple(map(_AS_ITEM, rows))
    keyed = tuple(map(_KEY_AND_TEXT, items))
    repeated: frozenset[tuple[str, int]] = frozenset()
    if len(set(keyed)) < len(keyed):
        repeated = frozenset(pair for pair, count in Counter(keyed).items() if count > 1)
    return Records(items, dict(examples), repeated, keyed)


class TextCache:
    """Texts by id, each read from the database once."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self.known: dict[int, str] = {}

    def __call__(self, ids: Sequence[int]) -> dict[int, str]:
        missing = [text_id for text_id in ids if text_id not in self.known]
        if missing:
            self.known.update(texts(self.conn, missing))
        return {text_id: self.known[text_id] for text_id in ids}


# at ingest -------------------------------------------------------------------------


#: What a writing session remembers between editions: (edition id, kind) -> (content
#: digest, records). The digest tells whether the edition is still the one read.
Remembered = dict[tuple[int, Kind], tuple[str, "Records"]]


def link(conn: sqlite3.Connection, edition_id: int, remembered: Remembered | None = None) -> None:
    """Align a newly stored edition with its neighbours in date order and store the pairs.

    The edition after it, if any, was aligned with another edition before: it is
    aligned again, with this one. Runs inside the caller's transaction. `remembered`
    keeps editions' records for the next call of the same session (an ingest of many
    editions in date order aligns each with the one it stored just before).
    """
    (date,) = conn.execute("SELECT date FROM editions WHERE id = ?", [edition_id]).fetchone()
    before = conn.execute(
        "SELECT id FROM editions WHERE date < ? ORDER BY date DESC LIMIT 1", [date]
    ).fetchone()
    after = conn.execute(
        "SELECT id FROM editions WHERE date > ? ORDER BY date LIMIT 1", [date]
    ).fetchone()
    linker = _Linker(conn, remembered)
    linker.store(before[0] if before else None, edition_id)
    if after:
        linker.store(edition_id, after[0])


def unlink(conn: sqlite3.Connection, edition_id: int) -> None:
    """Forget an edition's lineage (before it is deleted or replaced)."""
    conn.execute("DELETE FROM lineage WHERE edition_id = ?", [edition_id])
    conn.execute("DELETE FROM alignments WHERE edition_id = ?", [edition_id])


def link_all(conn: sqlite3.Connection, tick: Tick | None = None) -> None:
    """Align every stored edition with the one before it (the lineage migration)."""
    ids = [row[0] for row in conn.execute("SELECT id FROM editions ORDER BY date")]
    linker = _Linker(conn)
    for previous, edition_id in zip([None, *ids], ids, strict=False):
        linker.store(previous, edition_id)
        if tick is not None:
            tick()


class _Linker:
    """Stores the lineage of edition pairs, reading each edition's records once."""

    def __init__(self, conn: sqlite3.Connection, remembered: Remembered | None = None) -> None:
        self.conn = conn
        self.load = TextCache(conn)
        self._records: Remembered = {} if remembered is None else remembered

    def records(self, edition_id: int, kind: Kind) -> Records:
        """An edition's records; only the last two editions read are kept, and only while
        the edition's content digest is the one they were read with."""
        (digest,) = self.conn.execute(
            "SELECT content_sha256 FROM editions WHERE id = ?", [edition_id]
        ).fetchone()
        kept = self._records.get((edition_id, kind))
        if kept is not None and kept[0] == digest:
            return kept[1]
        if len(self._records) >= 2 * len(KINDS):
            del self._records[next(iter(self._records))]
        found = records(self.conn, edition_id, kind)
        self._records[edition_id, kind] = (digest, found)
        return found

    def store(self, previous_id: int | None, edition_id: int) -> None:
        """Align `edition_id` with `previous_id` (None: it is the oldest) and store it."""
        unlink(self.conn, edition_id)
        self.conn.execute(
            "INSERT INTO alignments (edition_id, previous_id) VALUES (?, ?)",
            [edition_id, previous_id],
        )
        if previous_id is None:
            return
        renumbered: dict[str, str] = {}
        went: Mapping[str, frozenset[str]] = {}
        for kind in KINDS:  # rules first: the glossary cites them as they were renumbered
            old, new = self.records(previous_id, kind), self.records(edition_id, kind)
            alignment = align(old.items, new.items, self.load, (old.examples, new.examples), went)
            if kind == "rule":
                renumbered = alignment.key_map(old.items, new.items)
                went = alignment.went(old.items, new.items)
            self.conn.executemany(
                "INSERT INTO lineage (edition_id, kind, seq, old_seq, status)"
                " VALUES (?, ?, ?, ?, ?)",
                (
                    (edition_id, kind, seq, old_seq, status)
                    for seq, old_seq, status in explicit_rows(
                        old, new, alignment, self.load, renumbered, went
                    )
                ),
            )


def explicit_rows(
    old: Records,
    new: Records,
    alignment: Alignment,
    load: Callable[[list[int]], Mapping[int, str]],
    renumbered: Mapping[str, str],
    went: Mapping[str, frozenset[str]] | None = None,
) -> Iterator[tuple[int | None, int | None, Status]]:
    """(new seq, old seq, status) of every pair that cannot be left implicit.
    `renumbered` maps the old edition's rule numbers to their counterparts' numbers,
    `went` to every record they went on in (`Alignment.went`)."""
    repeated = old.repeated | new.repeated
    old_keyed, new_keyed = old.keyed, new.keyed
    for i, j in alignment.pairs:
        pair = old_keyed[i]
        if pair == new_keyed[j] and pair not in repeated:
            continue
        new_pair = new_keyed[j]
        yield j, i, status(pair[0], pair[1], new_pair[0], new_pair[1], load, renumbered, went)
    for j in alignment.added:
        yield j, None, "added"
    for i in alignment.removed:
        yield None, i, "removed"
    for i, j in alignment.split:
        yield j, i, "split"
    for i, j in alignment.merged:
        yield j, i, "merged"


def status(
    old_key: str,
    old_text: int,
    new_key: str,
    new_text: int,
    load: Callable[[list[int]], Mapping[int, str]],
    renumbered: Mapping[str, str] | None = None,
    went: Mapping[str, frozenset[str]] | None = None,
) -> Status:
    """What happened between two paired records, given their keys and text ids and the
    renumbering of the rules between their editions (old number -> new number). The rule
    numbers a text cites that follow that renumbering are no change of wording: a
    glossary entry whose "See rule 702.79" now reads "See rule 702.80" is the same, as
    `diff` counts it a renumbered reference; where a moved record's closing "See rule ..."
    was rewritten, each rule it cited must be followed there (`went`: where each old rule
    went on, `Alignment.went`): "See rules 100.2 and 100.3." that became "See rule 100.4."
    dropped 100.2, which kept its number, and is a new wording. A rule's examples are not
    its wording."""
    wording = _wording(old_text, new_text, load, renumbered or {})
    if old_key == new_key:
        return wording
    if heading_key(old_key) == heading_key(new_key):  # a heading's quotes or italics
        return "typography" if wording == "same" else wording
    if wording == "changed" and (
        _renumbered_only(old_text, new_text, load, renumbered, went)
        or _own_label_followed(old_key, old_text, new_key, new_text, load, renumbered or {})
    ):
        return "moved"
    return "moved" if wording != "changed" else "moved_changed"


#: A label a rule prints of its own letter, opening its text: the sublayer "Layer 7e:"
#: of 613.3e (2020-01-24).
_OWN_LABEL = re.compile(r"^([A-Z][a-z]+ \d+)([a-z])\b")


def _own_label_followed(
    old_key: str,
    old_id: int,
    new_key: str,
    new_id: int,
    load: Callable[[list[int]], Mapping[int, str]],
    renumbered: Mapping[str, str],
) -> bool:
    """Whether two texts of a rule that moved differ only in a label that prints the
    rule's own letter, relettered with it, and in the rule numbers they cite: "Layer 7e:
    Effects that switch a creature's power and toughness ..." of 613.3e is "Layer 7d: ..."
    of 613.4d in 2020-04-17, a sublayer moved up a letter with its rule, `moved` as a
    citation renumbered is."""
    found = load([old_id, new_id])
    old, new = _own_label_masked(old_key, found[old_id]), _own_label_masked(new_key, found[new_id])
    if old is None or new is None:
        return False
    return _texts_wording(renumber_references(old, renumbered), new, {}) != "changed"


def _own_label_masked(key_: str, text: str) -> str | None:
    """The text with the label of its own letter masked, or None where it opens with no
    such label (`_OWN_LABEL`)."""
    found = _OWN_LABEL.match(text)
    if found is None or not key_[-1:].isalpha() or found.group(2) != key_[-1]:
        return None
    return f"{found.group(1)}#{text[found.end() :]}"


def _renumbered_only(
    old_id: int,
    new_id: int,
    load: Callable[[list[int]], Mapping[int, str]],
    renumbered: Mapping[str, str] | None,
    went: Mapping[str, frozenset[str]] | None,
) -> bool:
    """Whether two texts of a record that moved differ only in where their closing
    cross-references point (a glossary entry renamed points at its rule under the new
    name) and in the rule numbers they cite, once renumbered (all of them masked when
    the renumbering is not known)."""
    found = load([old_id, new_id])
    old, new = found[old_id], found[new_id]
    if renumbered is None:
        return _pointers_masked(old) == _pointers_masked(new)
    if _closing_masked(renumber_references(old, renumbered)) != _closing_masked(new):
        # A rule it cited may no longer stand (a heading merged into another), and be
        # cited where the rules under it went: "(see rule 510)" of 503.3, 2009-05-01, is
        # "(see rule 110.6)" of 706.3, as 510 went into 110 and 510.1 became 110.6.
        if went is None:
            return False
        old_masked, new_masked = _pointers_masked(old), _pointers_masked(new)
        if old_masked != new_masked:
            # One rule cited, now cited as the rules it went on in: "(see rule 418.5a)" of
            # 418.5c, 2009-05-01, is "(see rules 612.1 and 612.3)" of 612.7a, as 418.5a went
            # on as 612.1 and 612.3 was split off it.
            return (
                _CITED_LIST.sub("rules #", old_masked) == _CITED_LIST.sub("rules #", new_masked)
                and _citations_followed(old, new, went, renumbered)
                and _citations_explained(old, new, went)
            )
        return _citations_followed(old, new, went, renumbered)
    return went is None or _citations_followed(old, new, went)


#: A citation of one rule or a list of them, numbers masked ("rule #", "rules #, #, and
#: #"), read as one wherever it stands in `_pointers_masked` text.
_CITED_LIST = re.compile(r"\brules? #(?:(?:,? and|,? or|,) #)*", re.IGNORECASE)


def _citations_explained(old: str, new: str, went: Mapping[str, frozenset[str]]) -> bool:
    """Whether every rule number the new text cites is a rule one the old text cites went
    on in, or one that holds such a rule, as `_citations_followed` asks the other way."""
    gone = went_to(cited_numbers(old), went)
    return all(_holds_one_of(cited, gone) for cited in cited_numbers(new))


def _holds_one_of(cited: str, gone: set[str]) -> bool:
    """Whether rule number `cited` is one of `gone` or holds one of them."""
    return cited in gone or any(descends(rule, cited) for rule in gone)


def _citations_followed(
    old: str,
    new: str,
    went: Mapping[str, frozenset[str]],
    renumbered: Mapping[str, str] | None = None,
) -> bool:
    """Whether the new text cites, for each rule number the old text cites, a rule it went
    on in or one that holds such a rule (`See rules 419.6e and 419.6f` of 2009-05-01 is
    followed by `See rule 613.10`, where they went as 613.10 and 613.10a). Given the
    renumbering, a cited rule that no longer stands as a rule of its own (not in it) is
    followed too where the rules under it went."""
    cited = cited_numbers(new)
    for number in cited_numbers(old):
        gone = went_to({number}, went)
        if any(_holds_one_of(c, gone) for c in cited):
            continue
        if renumbered is None or number in renumbered:
            return False
        under = went_to({rule for rule in went if descends(rule, number)}, went)
        if not any(c in under for c in cited):
            return False
    return True


#: One place a closing cross-reference points at, once folded (quotes read as NUL), its
#: number masked or not: 'rule #, "Planechase."', 'Appendix B, "Older Rules."', '702.80'.
_POINTED = (
    r"(?:(?:rules?|sections?|Appendix|part) )?(?:#|[A-Z]|\d{3}(?:\.\d+[a-z]*)?)"
    r"(?:,[\s\x00]*\x00[^\x00]*\x00)?"
)
#: A text's closing cross-reference: a glossary entry renamed points at its rule under the
#: new name, a rule moved at the new numbers; neither is a new wording.
_CLOSING_POINTER = re.compile(
    rf"\bSee (?:also )?{_POINTED}(?:,? (?:and |or )?{_POINTED})*[.\s\x00]*$"
)


def _pointers_masked(text: str) -> str:
    """The text with its rule numbers and its closing cross-reference masked."""
    return _CLOSING_POINTER.sub("See #", numbers_masked(text))


def _closing_masked(text: str) -> str:
    """The text, typography folded, with its closing cross-reference masked."""
    return _CLOSING_POINTER.sub("See #", key(text))


def _wording(
    old_id: int,
    new_id: int,
    load: Callable[[list[int]], Mapping[int, str]],
    renumbered: Mapping[str, str],
) -> Literal["same", "typography", "changed"]:
    """Same, typography only, or changed: the text, the rule numbers it cites read
    through `renumbered`; texts that differ only in white space are the same."""
    if old_id == new_id:
        return "same"
    found = load([old_id, new_id])
    return _texts_wording(found[old_id], found[new_id], renumbered)


def _texts_wording(
    old: str, new: str, renumbered: Mapping[str, str]
) -> Literal["same", "typography", "changed"]:
    """`_wording` of two texts."""
    if spaced_alike(old, new):
        return "same"
    if same_wording(old, new):
        return "typography"
    if not renumbered:
        return "changed"
    moved = renumber_references(old, renumbered)
    if spaced_alike(moved, new):
        return "same"
    if same_wording(moved, new):
        return "typography"
    return "changed"


def same_examples(old: Sequence[str], new: Sequence[str]) -> bool:
    """Whether two lists of a rule's examples say the same: typography and the rule
    numbers they cite aside (those are renumbered with the rules)."""
    return len(old) == len(new) and all(
        numbers_masked(a) == numbers_masked(b) for a, b in zip(old, new, strict=True)
    )


# reading ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Node:
    """One record on a line of descent."""

    edition_id: int
    """The edition it is in."""
    seq: int
    """Its position there."""
    key: str
    """Its number (or term) there."""
    text_id: int
    """Its text there."""
    status: Status
    """How it came from the record of the previous edition on the line ("added" if none)."""


class Lines:
    """Follows records from edition to edition through the stored lineage.

    A step is one or two indexed lookups; an edition that many steps pass through (a
    `cite` of a long document follows hundreds of lines) is read whole, once, after
    EDITION_LOOKUPS of them, so that following N records costs about N dictionary
    lookups per edition rather than N times the queries.
    """

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self.previous: dict[int, int | None] = dict(
            conn.execute("SELECT edition_id, previous_id FROM alignments")
        )
        self.following: dict[int, int] = {
            previous: edition for edition, previous in self.previous.items() if previous
        }
        self._lookups: dict[tuple[Kind, int], int] = {}
        self._editions: dict[tuple[Kind, int], _Edition] = {}
        self._relations: dict[Kind, Relations] = {}

    def node(self, kind: Kind, edition_id: int, seq: int) -> Node:
        """The record at a position, with how it came from its predecessor."""
        key_, text_id = self._row(kind, edition_id, seq)
        found = self._explicit_new(kind, edition_id, seq)
        if found is not None:
            return Node(edition_id, seq, key_, text_id, found[1])
        added = self.previous.get(edition_id) is None
        return Node(edition_id, seq, key_, text_id, "added" if added else "same")

    def back(self, kind: Kind, node: Node) -> Node | None:
        """The record this one came from, in the previous edition; None if it is new (or
        was split off another: see `split_from`)."""
        previous = self.previous.get(node.edition_id)
        if previous is None:
            return None
        found = self._explicit_new(kind, node.edition_id, node.seq)
        if found is not None:
            old_seq, status = found
            if old_seq is None or status == "split":
                return None
            return self.node(kind, previous, old_seq)
        seq = self._namesake(kind, previous, node.key, node.text_id)
        return None if seq is None else self.node(kind, previous, seq)

    def forward(self, kind: Kind, node: Node) -> Node | None:
        """The record this one became in the next edition; None if it was removed (or
        merged into another: see `merged_into`)."""
        following = self.following.get(node.edition_id)
        if following is None:
            return None
        explicit, seq_of_old, status = self._explicit_old(kind, following, node.seq)
        if explicit:
            if seq_of_old is None or status == "merged":
                return None
            return self.node(kind, following, seq_of_old)
        seq = self._namesake(kind, following, node.key, node.text_id)
        if seq is None or self._explicit_new(kind, following, seq) is not None:
            return None
        return self.node(kind, following, seq)

    def split_from(self, kind: Kind, node: Node) -> Node | None:
        """The record of the previous edition this one was split off, if it was."""
        found = self._explicit_new(kind, node.edition_id, node.seq)
        previous = self.previous.get(node.edition_id)
        if found is None or found[1] != "split" or found[0] is None or previous is None:
            return None
        return self.node(kind, previous, found[0])

    def merged_into(self, kind: Kind, node: Node) -> Node | None:
        """The record of the next edition this one was merged into, if it was."""
        following = self.following.get(node.edition_id)
        if following is None:
            return None
        explicit, seq, status = self._explicit_old(kind, following, node.seq)
        if not explicit or status != "merged" or seq is None:
            return None
        return self.node(kind, following, seq)

    def steps(
        self, kind: Kind, edition_id: int, seqs: Iterable[int], *, back: bool
    ) -> dict[int, int]:
        """Where many records of an edition came from in the edition before (`back`) or
        went in the edition after, at once: seq -> seq there, for the records whose line
        goes on (what `back` and `forward` say of each), reading only their rows: a
        few hundred lines followed through a hundred editions cost a few queries per
        edition, not every edition read whole."""
        wanted = sorted(set(seqs))
        other = (self.previous if back else self.following).get(edition_id)
        if other is None or not wanted:
            return {}
        if len(wanted) > STEP_VARIABLES:  # (an old SQLite allows 999 variables a query)
            found: dict[int, int] = {}
            for start in range(0, len(wanted), STEP_VARIABLES):
                chunk = wanted[start : start + STEP_VARIABLES]
                found.update(self.steps(kind, edition_id, chunk, back=back))
            return found
        table, column = ("rules", "number") if kind == "rule" else ("glossary", "term")
        marks = ", ".join("?" * len(wanted))
        found = {}
        explicit: dict[int, tuple[int | None, str]] = {}
        # as `_explicit_new` (back: the row naming the record, a split row last, a merged
        # row never) or `_explicit_old` (forward: the row naming it as the old record, a
        # merged row last, a split row never)
        named, there_column, other_relation, rows_of, ends = (
            ("seq", "old_seq", "merged", edition_id, "split")
            if back
            else ("old_seq", "seq", "split", other, "merged")
        )
        query = (
            f"SELECT {named}, {there_column}, status FROM lineage WHERE edition_id = ?"
            f" AND kind = ? AND {named} IN ({marks}) AND status != '{other_relation}'"
            f" ORDER BY status = '{ends}', rowid"
        )
        for seq, there, status in self.conn.execute(query, [rows_of, kind, *wanted]):
            explicit.setdefault(int(seq), (there, status))
        for seq, (there, status) in explicit.items():
            if there is not None and status != ends:
                found[seq] = int(there)
        rest = [seq for seq in wanted if seq not in explicit]
        if not rest:
            return found
        # the others are the record of the same number (or term) and text there
        marks = ", ".join("?" * len(rest))
        rows = {
            int(seq): (str(key_), int(text_id))
            for seq, key_, text_id in self.conn.execute(
                f"SELECT seq, {column}, text_id FROM {table} WHERE edition_id = ?"
                f" AND seq IN ({marks})",
                [edition_id, *rest],
            )
        }
        names = sorted({key_ for key_, _text_id in rows.values()})
        namesakes: dict[tuple[str, int], int] = {}
        for seq, key_, text_id in self.conn.execute(
            f"SELECT seq, {column}, text_id FROM {table} WHERE edition_id = ?"
            f" AND {column} IN ({', '.join('?' * len(names))}) ORDER BY seq",
            [other, *names],
        ):
            namesakes.setdefault((str(key_), int(text_id)), int(seq))
        reached = {seq: there for seq in rest if (there := namesakes.get(rows[seq])) is not None}
        if not back and reached:
            # a record of the next edition that a row names came from elsewhere
            marks = ", ".join("?" * len(reached))
            elsewhere = {
                int(seq)
                for (seq,) in self.conn.execute(
                    f"SELECT seq FROM lineage WHERE edition_id = ? AND kind = ?"
                    f" AND seq IN ({marks})",
                    [other, kind, *reached.values()],
                )
            }
            reached = {seq: there for seq, there in reached.items() if there not in elsewhere}
        found.update(reached)
        return found

    def branches(self, kind: Kind, line: Sequence[Node]) -> list[Branching]:
        """The records that left a line or joined it: in each edition after its first,
        those split off the line's record of the edition before, and those of the
        edition before merged into the line's record, oldest first."""
        if kind not in self._relations:
            self._relations[kind] = Relations.read(self.conn, kind)
        return self._relations[kind].along(line, partial(self.node, kind))

    def line(self, kind: Kind, edition_id: int, seq: int) -> list[Node]:
        """The whole line of descent through a record, oldest first."""
        start = self.node(kind, edition_id, seq)
        older: list[Node] = []
        current: Node | None = start
        while current is not None and (current := self.back(kind, current)) is not None:
            older.append(current)
        newer: list[Node] = []
        current = start
        while current is not None and (current := self.forward(kind, current)) is not None:
            newer.append(current)
        return [*reversed(older), start, *newer]

    def _edition(self, kind: Kind, edition_id: int) -> _Edition | None:
        """An edition's records and lineage rows in memory, once it is looked up often."""
        key = (kind, edition_id)
        found = self._editions.get(key)
        if found is not None:
            return found
        self._lookups[key] = self._lookups.get(key, 0) + 1
        if self._lookups[key] <= EDITION_LOOKUPS:
            return None
        found = self._editions[key] = _Edition.read(self.conn, kind, edition_id)
        return found

    def _row(self, kind: Kind, edition_id: int, seq: int) -> tuple[str, int]:
        whole = self._edition(kind, edition_id)
        if whole is not None:
            return whole.rows[seq]
        table, column = ("rules", "number") if kind == "rule" else ("glossary", "term")
        row = self.conn.execute(
            f"SELECT {column}, text_id FROM {table} WHERE edition_id = ? AND seq = ?",
            [edition_id, seq],
        ).fetchone()
        return str(row[0]), int(row[1])

    def _explicit_new(
        self, kind: Kind, edition_id: int, seq: int
    ) -> tuple[int | None, Status] | None:
        whole = self._edition(kind, edition_id)
        if whole is not None:
            return whole.by_new.get(seq)
        # A merged row names an old record that went into this one, not where this one
        # came from (a record kept as it was has no row of its own): as `_Edition.read`.
        row = self.conn.execute(
            "SELECT old_seq, status FROM lineage WHERE edition_id = ? AND kind = ? AND seq = ?"
            " AND status != 'merged' ORDER BY status = 'split', rowid LIMIT 1",
            [edition_id, kind, seq],
        ).fetchone()
        return None if row is None else (row[0], row[1])

    def _explicit_old(
        self, kind: Kind, edition_id: int, old_seq: int
    ) -> tuple[bool, int | None, Status | None]:
        """Whether the edition's lineage names what the old record became, its seq there
        (None: removed) and the row's status (its main row before a split row)."""
        whole = self._edition(kind, edition_id)
        if whole is not None:
            if old_seq in whole.by_old:
                return (True, *whole.by_old[old_seq])
            return False, None, None
        # A split row names a new record split off this one, not where this one went.
        row = self.conn.execute(
            "SELECT seq, status FROM lineage WHERE edition_id = ? AND kind = ? AND old_seq = ?"
            " AND status != 'split' ORDER BY status = 'merged', rowid LIMIT 1",
            [edition_id, kind, old_seq],
        ).fetchone()
        return (False, None, None) if row is None else (True, row[0], row[1])

    def _namesake(self, kind: Kind, edition_id: int, key_: str, text_id: int) -> int | None:
        """The record of an edition with this number (or term) and this text."""
        whole = self._edition(kind, edition_id)
        if whole is not None:
            return whole.namesakes.get((key_, text_id))
        table, column = ("rules", "number") if kind == "rule" else ("glossary", "term")
        row = self.conn.execute(
            f"SELECT seq FROM {table} WHERE edition_id = ? AND {column} = ? AND text_id = ?",
            [edition_id, key_, text_id],
        ).fetchone()
        return None if row is None else int(row[0])


#: A record that left a line or joined it: (the line's record in the edition where it
#: happened, "split" (the other was split off the line) or "merged" (merged into it), the
#: other record: in that edition if split off, in the edition before if merged).
Branching = tuple[Node, Literal["split", "merged"], Node]


@dataclass(frozen=True, slots=True)
class Relations:
    """The split and merged rows of one kind of record, looked up from the line's side:
    a few hundred rows in all, read at once."""

    split_off: Mapping[tuple[int, int], Sequence[int]]
    """(edition id, old seq) -> the seqs of that edition's records split off it."""
    merged_in: Mapping[tuple[int, int], Sequence[int]]
    """(edition id, seq) -> the seqs of the edition before's records merged into it."""

    @classmethod
    def read(cls, conn: sqlite3.Connection, kind: Kind) -> Relations:
        """The rows of the stored lineage."""
        return cls._of(
            conn.execute(
                "SELECT status, edition_id, old_seq, seq FROM lineage WHERE kind = ?"
                " AND status IN ('split', 'merged') ORDER BY rowid",
                [kind],
            )
        )

    @classmethod
    def of(cls, found: Forest) -> Relations:
        """The same, from every line at once."""
        return cls._of(
            [
                *(("split", e, old, seq) for (e, seq), (_, old) in found.split_from.items()),
                *(("merged", e, old, seq) for (_, old), (e, seq) in found.merged_into.items()),
            ]
        )

    @classmethod
    def _of(cls, rows: Iterable[tuple[str, int, int, int]]) -> Relations:
        """From (status, edition id, old seq, seq) of each split or merged pair."""
        split_off: dict[tuple[int, int], list[int]] = {}
        merged_in: dict[tuple[int, int], list[int]] = {}
        for status, edition_id, old_seq, seq in rows:
            if status == "split":
                split_off.setdefault((edition_id, old_seq), []).append(seq)
            else:
                merged_in.setdefault((edition_id, seq), []).append(old_seq)
        return cls(split_off, merged_in)

    def along(self, line: Sequence[Node], node: Callable[[int, int], Node]) -> list[Branching]:
        """What left or joined a line (`Lines.branches`); `node` reads a record."""
        found: list[Branching] = []
        for before, current in pairwise(line):
            for seq in sorted(self.split_off.get((current.edition_id, before.seq), ())):
                found.append((current, "split", node(current.edition_id, seq)))
            for old_seq in sorted(self.merged_in.get((current.edition_id, current.seq), ())):
                found.append((current, "merged", node(before.edition_id, old_seq)))
        return found


#: Lookups of one edition after which Lines reads it whole.
EDITION_LOOKUPS = 24
#: Records `Lines.steps` asks about in one query (each a variable of its own).
STEP_VARIABLES = 900


@dataclass(slots=True)
class _Edition:
    """One edition's records of one kind, and its lineage rows, as Lines looks them up."""

    rows: dict[int, tuple[str, int]]
    """seq -> (number or term, text id)."""
    namesakes: dict[tuple[str, int], int]
    """(number or term, text id) -> the first seq with them."""
    by_new: dict[int, tuple[int | None, Status]]
    """seq -> (old seq, status) of the lineage rows naming a new record."""
    by_old: dict[int, tuple[int | None, Status]]
    """old seq -> (seq (None: removed), status) of the lineage rows naming an old record."""

    @classmethod
    def read(cls, conn: sqlite3.Connection, kind: Kind, edition_id: int) -> _Edition:
        table, column = ("rules", "number") if kind == "rule" else ("glossary", "term")
        rows: dict[int, tuple[str, int]] = {}
        namesakes: dict[tuple[str, int], int] = {}
        for seq, key_, text_id in conn.execute(
            f"SELECT seq, {column}, text_id FROM {table} WHERE edition_id = ? ORDER BY seq",
            [edition_id],
        ):
            rows[int(seq)] = (str(key_), int(text_id))
            namesakes.setdefault((str(key_), int(text_id)), int(seq))
        by_new: dict[int, tuple[int | None, Status]] = {}
        by_old: dict[int, tuple[int | None, Status]] = {}
        relations = []
        for seq, old_seq, status in conn.execute(
            "SELECT seq, old_seq, status FROM lineage WHERE edition_id = ? AND kind = ?"
            " ORDER BY rowid",
            [edition_id, kind],
        ):
            if status in RELATIONS:
                relations.append((seq, old_seq, status))
                continue
            if seq is not None:
                by_new.setdefault(int(seq), (old_seq, status))
            if old_seq is not None:
                by_old.setdefault(int(old_seq), (seq, status))
        # A split or merged row counts only where the record it names has no main row (the
        # new record split off, the old record merged): as the indexed lookups order them.
        for seq, old_seq, status in relations:
            if status == "merged":
                by_old.setdefault(int(old_seq), (seq, status))
            else:
                by_new.setdefault(int(seq), (old_seq, status))
        return cls(rows, namesakes, by_new, by_old)


def stored_alignment(
    conn: sqlite3.Connection,
    old_id: int,
    new_id: int,
    kind: Kind,
    old: Sequence[Item],
    new: Sequence[Item],
) -> Alignment | None:
    """The alignment of two consecutive editions as stored at ingest; None if the new one
    was not aligned with the old one (they are not neighbours)."""
    row = conn.execute(
        "SELECT previous_id FROM alignments WHERE edition_id = ?", [new_id]
    ).fetchone()
    if row is None or row[0] != old_id:
        return None
    pairs: dict[int, int] = {}
    added: list[int] = []
    removed: list[int] = []
    split: list[tuple[int, int]] = []
    merged: list[tuple[int, int]] = []
    explicit_old: set[int] = set()
    explicit_new: set[int] = set()
    for seq, old_seq, status in conn.execute(
        "SELECT seq, old_seq, status FROM lineage WHERE edition_id = ? AND kind = ?",
        [new_id, kind],
    ):
        if seq is not None:
            explicit_new.add(seq)
        if old_seq is not None:
            explicit_old.add(old_seq)
        if status == "split":
            split.append((old_seq, seq))
        elif status == "merged":
            merged.append((old_seq, seq))
        elif seq is None:
            removed.append(old_seq)
        elif old_seq is None:
            added.append(seq)
        else:
            pairs[old_seq] = seq
    namesakes = {(item.key, item.text_id): i for i, item in enumerate(old) if i not in explicit_old}
    for j, item in enumerate(new):
        if j not in explicit_new:
            i = namesakes.get((item.key, item.text_id))
            if i is not None:
                pairs[i] = j
    return Alignment(
        pairs=tuple(sorted(pairs.items(), key=lambda pair: pair[1])),
        removed=tuple(sorted(removed)),
        added=tuple(sorted(added)),
        split=tuple(sorted(split, key=lambda pair: pair[1])),
        merged=tuple(sorted(merged, key=lambda pair: pair[1])),
    )


@dataclass(frozen=True, slots=True)
class Forest:
    """Every line of descent of one kind of record, computed in one pass over the stored
    lineage (for exports that need every line at once, such as the web edition)."""

    editions: tuple[int, ...]
    """Edition ids in date order."""
    records: Mapping[int, Records]
    """Each edition's records."""
    line_of: Mapping[tuple[int, int], int]
    """(edition id, seq) -> line number."""
    lines: tuple[tuple[tuple[int, int], ...], ...]
    """Each line: its (edition id, seq) nodes, oldest first."""
    split_from: Mapping[tuple[int, int], tuple[int, int]] = field(default_factory=dict)
    """(edition id, seq) of a line's first record -> the record it was split off."""
    merged_into: Mapping[tuple[int, int], tuple[int, int]] = field(default_factory=dict)
    """(edition id, seq) of a line's last record -> the record it was merged into."""
    statuses: Mapping[tuple[int, int], Status] = field(default_factory=dict)
    """(edition id, seq) -> how the record came from the one before it on its line, for
    the records whose status is not `same` (as `Lines.node` reads it)."""

    def node(self, place: tuple[int, int]) -> Node:
        """The record at (edition id, seq) as a node of its line."""
        item = self.records[place[0]].items[place[1]]
        return Node(*place, item.key, item.text_id, self.statuses.get(place, "same"))


def forest(conn: sqlite3.Connection, kind: Kind) -> Forest:
    """Every line of descent, following the stored pairs from the oldest edition on."""
    ids = [row[0] for row in conn.execute("SELECT id FROM editions ORDER BY date")]
    previous = dict(conn.execute("SELECT edition_id, previous_id FROM alignments"))
    found: dict[int, Records] = {}
    line_of: dict[tuple[int, int], int] = {}
    lines: list[list[tuple[int, int]]] = []
    split_from: dict[tuple[int, int], tuple[int, int]] = {}
    merged_into: dict[tuple[int, int], tuple[int, int]] = {}
    statuses: dict[tuple[int, int], Status] = {
        (edition_id, seq): status
        for edition_id, seq, status in conn.execute(
            "SELECT edition_id, seq, status FROM lineage WHERE kind = ? AND seq IS NOT NULL"
            " AND old_seq IS NOT NULL AND status NOT IN ('split', 'merged')",
            [kind],
        )
    }
    for index, edition_id in enumerate(ids):
        found[edition_id] = records(conn, edition_id, kind)
        items = found[edition_id].items
        before = ids[index - 1] if index else None
        pairs: dict[int, int] = {}
        if before is not None and previous.get(edition_id) == before:
            alignment = stored_alignment(conn, before, edition_id, kind, found[before].items, items)
            if alignment is not None:
                pairs = {j: i for i, j in alignment.pairs}
                for i, j in alignment.split:
                    split_from[edition_id, j] = (before, i)
                for i, j in alignment.merged:
                    merged_into[before, i] = (edition_id, j)
        for seq in range(len(items)):
            old = pairs.get(seq)
            if old is None:
                line = len(lines)
                lines.append([])
            else:
                line = line_of[before, old]  # type: ignore[index]
            line_of[edition_id, seq] = line
            lines[line].append((edition_id, seq))
    return Forest(
        tuple(ids),
        found,
        line_of,
        tuple(tuple(line) for line in lines),
        split_from,
        merged_into,
        statuses,
    )
