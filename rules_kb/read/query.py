"""Read-only queries with the standard library's sqlite3, returning the public records.

Lookups are what a judge runs most, so this module imports nothing heavy:
no sqlite-utils, no lark. It never creates or writes the database.
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import date as Date
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

from rules_kb import records
from rules_kb.errors import EmptyDatabase, UnknownEdition, UnknownRule, UnknownTerm
from rules_kb.ingest.models import glossary_names, normalise_number, sort_key
from rules_kb.ingest.readonly import connect_read_only as connect_read_only
from rules_kb.ingest.readonly import stored_copies as stored_copies

if TYPE_CHECKING:  # (the records load when one is first made: a search makes none)
    from rules_kb.records import (
        CheckReport,
        Edge,
        EditionRecord,
        GlossaryRecord,
        InForce,
        References,
        RuleRecord,
    )


class Links(NamedTuple):
    """Where a rule leads (see :meth:`Reader.links`)."""

    parent: str | None
    cites: tuple[str, ...]


#: The raw text of a stored reference: the citing text between its offsets.
_RAW = "substr(t.text, r.start + 1, r.end - r.start)"
_ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_CITED = re.compile(r"\b(\d{3}(?:\.\d+[a-z]{0,2})?)\b")
#: A definition that only sends the reader elsewhere: "See Active Player, Nonactive ..."
_POINTER = re.compile(r"^See\s+(?!also\b)", re.I)


class Reader:
    """Queries over one database file, opened read-only."""

    def __init__(self, path: Path) -> None:
        if not path.exists():
            raise EmptyDatabase(f"no database at {path}: run `rules-kb ingest PATH` first")
        if path.is_dir():
            raise EmptyDatabase(f"{path} is a folder, not a database file")
        self.path = path
        self.conn = connect_read_only(path)
        self._cites_cache: dict[int, dict[tuple[str, int], list[str]]] = {}
        try:
            self.version = int(self.conn.execute("PRAGMA user_version").fetchone()[0])
            rows = self.conn.execute("SELECT id, date FROM editions").fetchall()
        except sqlite3.DatabaseError as error:
            self.conn.close()
            raise EmptyDatabase(f"{path} is not a rules-kb database ({error})") from error
        self._ids: dict[str, int] = {str(day): int(edition_id) for edition_id, day in rows}
        self._dates: list[str] = sorted(self._ids)
        if not self._dates:
            self.conn.close()
            raise EmptyDatabase(f"the database {path} holds no editions: run `rules-kb ingest`")

    def stamp(self) -> str:
        """The content stamp: it changes whenever an ingest adds or replaces an edition."""
        row = self.conn.execute("SELECT value FROM meta WHERE key = 'stamp'").fetchone()
        return str(row[0]) if row else "0"

    def close(self) -> None:
        """Close the connection."""
        self.conn.close()

    @contextmanager
    def snapshot(self) -> Iterator[None]:
        """Read everything inside from one consistent state of the database, whatever an
        ingest commits meanwhile (one read transaction; nested uses share it)."""
        if self.conn.in_transaction:
            yield
            return
        self.conn.execute("BEGIN")
        try:
            yield
        finally:
            self.conn.rollback()

    # editions -------------------------------------------------------------

    def resolve_edition(self, value: str = "latest") -> str:
        """The edition date meant by latest, oldest, an exact date, a date in force, or a
        set code or name."""
        from rules_kb import bounds

        wanted = bounds.edition(value).strip().lower()
        if wanted in {"", "latest", "newest", "current"}:
            return self._dates[-1]
        if wanted in {"oldest", "first"}:
            return self._dates[0]
        if not _ISO_DATE.match(wanted):
            return self._set_edition(value)
        try:
            Date.fromisoformat(wanted)
        except ValueError as error:
            raise UnknownEdition(f"unknown edition {value!r}: {error}") from error
        in_force = [day for day in self._dates if day <= wanted]
        if not in_force:
            raise UnknownEdition(
                f"no edition in force on {wanted}: the first stored edition is {self._dates[0]}"
            )
        return in_force[-1]

    def _set_edition(self, value: str) -> str:
        """The stored edition the catalogue lists with this set code (or set name)."""
        from rules_kb.ingest import catalogue  # only set codes pay for reading the catalogue

        known = catalogue.load()
        entry = known.by_code(value)
        if entry is None or entry.set is None:
            nearest = known.nearest_code(value)
            hint = f"; nearest set code: {nearest}" if nearest else ""
            shown = value if len(value) <= 40 else value[:40] + "…"
            raise UnknownEdition(
                f"unknown edition {shown!r}: use latest, oldest, a date YYYY-MM-DD"
                f" or a set code such as BRO{hint}"
            )
        if entry.date not in self._ids:
            raise UnknownEdition(
                f"{entry.set.code} ({entry.set.name}) is edition {entry.date},"
                " which is not in the database"
            )
        return entry.date

    def editions(self) -> tuple[EditionRecord, ...]:
        """Every stored edition with its counts and warnings, newest first."""
        rows = self.conn.execute(
            "SELECT date, title, rules, examples, glossary, sha256, source, encoding,"
            " body_lines, unparsed, warnings FROM editions ORDER BY date DESC"
        )
        return tuple(
            records.EditionRecord(
                edition=day,
                title=title or "",
                rules=rules,
                examples=examples,
                glossary=glossary,
                sha256=sha,
                source=source or "",
                encoding=encoding or "",
                body_lines=body_lines or 0,
                unparsed=unparsed or 0,
                warnings=tuple(json.loads(warnings or "[]")),
            )
            for day, title, rules, examples, glossary, sha, source, encoding, body_lines,
            unparsed, warnings in rows
        )  # fmt: skip

    def dates(self) -> list[str]:
        """Every stored edition date, oldest first."""
        return list(self._dates)

    def in_force(self, edition: str) -> InForce:
        """When a stored edition was in force: until the next one, or still."""
        return records.InForce.of(edition, self._dates)

    def edition_id(self, edition: str) -> int:
        """The row id of a stored edition."""
        found = self._ids.get(edition)
        if found is None:
            raise UnknownEdition(f"no edition {edition} in the database")
        return found

    def edition_date(self, edition_id: int) -> str:
        """The date of a stored edition's row id."""
        for day, found in self._ids.items():
            if found == edition_id:
                return day
        raise UnknownEdition(f"no edition with id {edition_id}")

    # rules ----------------------------------------------------------------

    def rule(self, number: str, edition: str) -> RuleRecord:
        """A rule with its examples, neighbours and nested children. When the edition
        prints the number more than once, the first record carries the others in
        `repeats`, each with its own subrules and references."""
        wanted = normalise_number(number)
        printed = self.rules_numbered(wanted, edition)
        if not printed:
            raise UnknownRule(self.unknown_rule_message(edition, wanted))
        first, *others = printed
        first = _with(first, in_force=self.in_force(edition))
        if not others:
            return first
        return _with(first, repeats=tuple(others))

    def links(self, number: str, edition: str) -> Links:
        """Where a rule leads, as `rule` would say it (its first printing's parent, and
        what its text and examples cite), without reading its subtree or making a
        record: what `show` needs of the rules that answer a question."""
        wanted = normalise_number(number)
        edition_id = self.edition_id(edition)
        row = self.conn.execute(
            "SELECT parent, seq, text_id FROM rules WHERE edition_id = ? AND number = ?"
            " ORDER BY seq LIMIT 1",
            [edition_id, wanted],
        ).fetchone()
        if row is None:
            raise UnknownRule(self.unknown_rule_message(edition, wanted))
        parent, seq, text_id = row
        ids = [text_id] + [
            example_id
            for (example_id,) in self.conn.execute(
                "SELECT text_id FROM examples WHERE edition_id = ? AND rule_seq = ? ORDER BY seq",
                [edition_id, seq],
            )
        ]
        return Links(parent or None, _cited(self._cites(edition_id), wanted, ids))

    def rules_numbered(self, number: str, edition: str) -> list[RuleRecord]:
        """Every record of an edition printed with this number, in document order."""
        edition_id = self.edition_id(edition)
        rows = self.conn.execute(
            "SELECT r.number, r.kind, r.parent, t.text, r.seq, r.text_id FROM rules r"
            " JOIN texts t ON t.id = r.text_id WHERE r.edition_id = ? AND r.number = ?"
            " ORDER BY r.seq",
            [edition_id, number],
        ).fetchall()
        found = []
        for occurrence, row in enumerate(rows, 1):
            node = self._node(edition, edition_id, row)
            previous, following = self._neighbours(edition_id, row[0], row[2], row[4])
            found.append(_with(node, previous=previous, next=following, occurrence=occurrence))
        return found

    def rule_at(self, edition: str, seq: int) -> RuleRecord:
        """The record at a position of an edition, with its subtree."""
        edition_id = self.edition_id(edition)
        row = self.conn.execute(
            "SELECT r.number, r.kind, r.parent, t.text, r.seq, r.text_id FROM rules r"
            " JOIN texts t ON t.id = r.text_id WHERE r.edition_id = ? AND r.seq = ?",
            [edition_id, seq],
        ).fetchone()
        if row is None:
            raise UnknownRule(f"no rule at position {seq} of {edition}")
        node = self._node(edition, edition_id, row)
        previous, following = self._neighbours(edition_id, row[0], row[2], row[4])
        return _with(node, previous=previous, next=following)

    def _node(self, edition: str, edition_id: int, row: Sequence[Any]) -> RuleRecord:
        """A record and its subtree, read in one ordered scan: the rows after it whose
        parent is inside the subtree, up to the first that is not (subtrees are
        contiguous, so a repeated number starts a tree of its own)."""
        number, _kind, _parent, _text, seq, _text_id = row
        rows = [tuple(row)]
        inside = {number}
        for child in self.conn.execute(
            "SELECT r.number, r.kind, r.parent, t.text, r.seq, r.text_id FROM rules r"
            " JOIN texts t ON t.id = r.text_id WHERE r.edition_id = ? AND r.seq > ?"
            " ORDER BY r.seq",
            [edition_id, seq],
        ):
            if child[2] not in inside:
                break
            rows.append(tuple(child))
            inside.add(child[0])
        examples: dict[int, list[tuple[int, str]]] = {}
        for rule_seq, text_id, text in self.conn.execute(
            "SELECT e.rule_seq, e.text_id, t.text FROM examples e JOIN texts t"
            " ON t.id = e.text_id WHERE e.edition_id = ? AND e.rule_seq BETWEEN ? AND ?"
            " ORDER BY e.rule_seq, e.seq",
            [edition_id, seq, rows[-1][4]],
        ):
            examples.setdefault(rule_seq, []).append((text_id, text))
        return self._build(edition, edition_id, rows, examples)[0]

    def _build(
        self,
        edition: str,
        edition_id: int,
        rows: list[tuple[Any, ...]],
        examples: dict[int, list[tuple[int, str]]],
    ) -> list[RuleRecord]:
        """Records nested by parent, from rows in document order: the roots (rows whose
        parent is not among the rows before them), each with its subtree."""
        cites = self._cites(edition_id)
        children: dict[int, list[int]] = {}
        roots: list[int] = []
        open_nodes: dict[str, int] = {}
        for index, (number, _kind, parent, _text, _seq, _text_id) in enumerate(rows):
            if index and parent in open_nodes:
                children.setdefault(open_nodes[parent], []).append(index)
            else:
                roots.append(index)
            open_nodes[number] = index

        def build(index: int) -> RuleRecord:
            number, kind, parent, text, seq, text_id = rows[index]
            own = examples.get(seq, [])
            return records.RuleRecord(
                edition=edition,
                number=number,
                kind=kind,
                text=text,
                parent=parent or None,
                examples=tuple(example for _, example in own),
                cites=_cited(cites, number, (text_id, *(tid for tid, _ in own))),
                children=tuple(build(child) for child in children.get(index, [])),
                seq=seq,
            )

        return [build(root) for root in roots]

    def tree(self, edition: str) -> list[RuleRecord]:
        """Every rule of an edition, nested: its sections, each with its whole subtree."""
        edition_id = self.edition_id(edition)
        rows = [
            tuple(row)
            for row in self.conn.execute(
                "SELECT r.number, r.kind, r.parent, t.text, r.seq, r.text_id FROM rules r"
                " JOIN texts t ON t.id = r.text_id WHERE r.edition_id = ? ORDER BY r.seq",
                [edition_id],
            )
        ]
        examples: dict[int, list[tuple[int, str]]] = {}
        for rule_seq, text_id, text in self.conn.execute(
            "SELECT e.rule_seq, e.text_id, t.text FROM examples e JOIN texts t"
            " ON t.id = e.text_id WHERE e.edition_id = ? ORDER BY e.rule_seq, e.seq",
            [edition_id],
        ):
            examples.setdefault(rule_seq, []).append((text_id, text))
        return self._build(edition, edition_id, rows, examples)

    def title(self, edition: str) -> str:
        """The document title an edition prints on its first line."""
        row = self.conn.execute(
            "SELECT title FROM editions WHERE id = ?", [self.edition_id(edition)]
        ).fetchone()
        return str(row[0] or "")

    def _neighbours(
        self, edition_id: int, number: str, parent: str | None, seq: int
    ) -> tuple[str | None, str | None]:
        """The siblings before and after a record (another number: a repeat is no neighbour)."""
        rows = self.conn.execute(
            "SELECT number, seq FROM rules WHERE edition_id = ? AND parent IS ? ORDER BY seq",
            [edition_id, parent],
        ).fetchall()
        before = [n for n, s in rows if s < seq and n != number]
        after = [n for n, s in rows if s > seq and n != number]
        return (before[-1] if before else None), (after[0] if after else None)

    def numbers(self, edition: str) -> list[str]:
        """Every number of an edition, in document order."""
        return [
            number
            for (number,) in self.conn.execute(
                "SELECT number FROM rules WHERE edition_id = ? ORDER BY seq",
                [self.edition_id(edition)],
            )
        ]

    def unknown_rule_message(self, edition: str, wanted: str) -> str:
        """ "no rule X in EDITION", with the nearest number of the same rule or chapter."""
        if not wanted:
            return "no rule number given"
        nearest = nearest_number(wanted, self.numbers(edition))
        hint = f"; nearest: {nearest}" if nearest else ""
        return f"no rule {wanted} in {edition}{hint}"

    def heading(self, title: str, edition: str) -> RuleRecord | None:
        """The rule whose heading is this title ("Mulligan", "Trample"), if any."""
        wanted = " ".join(title.lower().split())
        row = self.conn.execute(
            "SELECT r.number FROM rules r JOIN texts t ON t.id = r.text_id"
            " WHERE r.edition_id = ? AND r.kind IN ('rule', 'chapter', 'section')"
            " AND lower(t.text) = ? ORDER BY r.seq LIMIT 1",
            [self.edition_id(edition), wanted],
        ).fetchone()
        return None if row is None else self.rule(row[0], edition)

    # glossary -------------------------------------------------------------

    def glossary(self, edition: str) -> list[tuple[str, str]]:
        """(term, definition) of every entry of an edition, in document order."""
        return self.conn.execute(
            "SELECT g.term, t.text FROM glossary g JOIN texts t ON t.id = g.text_id"
            " WHERE g.edition_id = ? ORDER BY g.seq",
            [self.edition_id(edition)],
        ).fetchall()

    def define(self, term: str, edition: str, *, fuzzy: bool = True) -> GlossaryRecord:
        """The glossary entry for a term: exact (any case), by one of its names, then (with
        `fuzzy`) by a near spelling; a definition that only says "See X." brings X along."""
        entries = self.glossary(edition)
        if not entries:
            raise UnknownTerm(f"edition {edition} has no glossary")
        terms = [entry[0] for entry in entries]
        found = find_term(term, terms, fuzzy=fuzzy)
        if found is None:
            raise UnknownTerm(_unknown_term_message(term, edition, terms))
        index, match = found
        record = self.entry(entries[index][0], entries[index][1], edition)
        see = tuple(
            self.entry(other, text, edition)
            for other, text in entries
            if _POINTER.match(record.text) and other in self._pointed_terms(edition, record)
        )
        return records.GlossaryRecord(
            record.edition, record.term, record.text, record.rules, see, term, match,
            in_force=self.in_force(edition),
        )  # fmt: skip

    def entry(self, term: str, text: str, edition: str) -> GlossaryRecord:
        """A glossary entry with the rules its definition cites."""
        return records.GlossaryRecord(
            edition, term, text, tuple(self._glossary_rules(self.edition_id(edition), term, text))
        )

    def _pointed_terms(self, edition: str, record: GlossaryRecord) -> set[str]:
        rows = self.conn.execute(
            "SELECT target FROM refs WHERE edition_id = ? AND source_kind = 'glossary'"
            " AND source_key = ? AND target_kind = 'glossary' AND resolved = 1",
            [self.edition_id(edition), record.term],
        )
        return {target for (target,) in rows}

    # references -----------------------------------------------------------

    def _cites(self, edition_id: int) -> dict[tuple[str, int], list[str]]:
        """What each citing text cites, by (rule number, text id), per edition, read once."""
        if edition_id not in self._cites_cache:
            cites: dict[tuple[str, int], dict[str, None]] = {}
            for key, text_id, target in self.conn.execute(
                "SELECT source_key, text_id, target FROM refs WHERE edition_id = ? AND"
                " source_kind IN ('rule', 'example') ORDER BY seq",
                [edition_id],
            ):
                cites.setdefault((key, text_id), {})[target] = None
            self._cites_cache[edition_id] = {key: list(found) for key, found in cites.items()}
        return self._cites_cache[edition_id]

    def _glossary_rules(self, edition_id: int, term: str, text: str) -> list[str]:
        rows = self.conn.execute(
            "SELECT target FROM refs WHERE edition_id = ? AND source_kind = 'glossary'"
            " AND source_key = ? AND target_kind = 'rule' ORDER BY seq",
            [edition_id, term],
        )
        return list(dict.fromkeys(target for (target,) in rows))

    def refs(self, number: str, edition: str, *, subtree: bool = False) -> References:
        """What a rule cites and what cites it, each with the raw reference and a snippet.
        With `subtree`, the references of its subrules count as its own."""
        from rules_kb.ingest.refs import snippet

        wanted = normalise_number(number)
        if not wanted:
            raise UnknownRule("no rule number given")
        edition_id = self.edition_id(edition)
        exists = self.conn.execute(
            "SELECT 1 FROM rules WHERE edition_id = ? AND number = ?", [edition_id, wanted]
        ).fetchone()
        keys = [wanted]
        if subtree and exists:
            keys = [node.number for node in self.rule(wanted, edition).walk()]
        marks = ",".join("?" * len(keys))
        select = (
            "SELECT r.source_kind, r.source_key, r.target_kind, r.target, r.resolved,"
            f" {_RAW}, r.start, r.end, t.text FROM refs r JOIN texts t ON t.id = r.text_id"
            " WHERE r.edition_id = ? AND "
        )
        cites = self.conn.execute(
            select + f"r.source_kind IN ('rule', 'example') AND r.source_key IN ({marks})"
            " ORDER BY r.seq",
            [edition_id, *keys],
        ).fetchall()
        cited_by = self.conn.execute(
            select + f"r.target_kind = 'rule' AND r.target IN ({marks}) ORDER BY r.seq",
            [edition_id, *keys],
        ).fetchall()
        if exists is None and not cited_by:
            raise UnknownRule(self.unknown_rule_message(edition, wanted))
        inside = set(keys)
        return records.References(
            edition=edition,
            number=wanted,
            exists=exists is not None,
            cites=_edges(
                (row for row in cites if row[3] not in inside), cited_by=False, snippet=snippet
            ),
            cited_by=_edges(
                (row for row in cited_by if row[1] not in inside or row[0] == "glossary"),
                cited_by=True,
                snippet=snippet,
            ),
            subtree=tuple(keys),
        )

    def check(self, edition: str) -> CheckReport:
        """Dangling references and numbering anomalies of one edition."""
        from rules_kb.ingest.refs import numbering_anomalies

        edition_id = self.edition_id(edition)
        rows = self.conn.execute(
            f"SELECT r.source_kind, r.source_key, {_RAW}, r.target_kind, r.target, r.resolved"
            " FROM refs r JOIN texts t ON t.id = r.text_id WHERE r.edition_id = ? ORDER BY r.seq",
            [edition_id],
        ).fetchall()
        dangling = tuple(
            records.Dangling(key, kind, raw, target, target_kind)
            for kind, key, raw, target_kind, target, resolved in rows
            if not resolved
        )
        numbers = self.conn.execute(
            "SELECT number, kind, parent FROM rules WHERE edition_id = ? ORDER BY seq",
            [edition_id],
        ).fetchall()
        return records.CheckReport(
            edition=edition,
            references=len(rows),
            resolved=len(rows) - len(dangling),
            dangling=dangling,
            anomalies=tuple(
                records.Anomaly(item["number"], item["problem"])
                for item in numbering_anomalies(numbers)
            ),
        )

    def graph_rows(
        self, edition: str
    ) -> tuple[list[tuple[str, str, str]], list[tuple[str, str, str, str, str, str, int]]]:
        """Nodes (kind, key, text) and edges (source kind, source key, target kind, target,
        raw, in, resolved) of one edition's reference graph, in document order."""
        edition_id = self.edition_id(edition)
        nodes = self.conn.execute(
            "SELECT kind, key, text FROM (SELECT 0 AS part, r.seq, r.kind, r.number AS key, t.text"
            " FROM rules r JOIN texts t ON t.id = r.text_id WHERE r.edition_id = :e"
            " UNION ALL SELECT 1, g.seq, 'glossary', g.term, t.text FROM glossary g"
            " JOIN texts t ON t.id = g.text_id WHERE g.edition_id = :e) ORDER BY part, seq",
            {"e": edition_id},
        ).fetchall()
        edges = self.conn.execute(
            "SELECT CASE r.source_kind WHEN 'glossary' THEN 'glossary' ELSE 'rule' END,"
            f" r.source_key, r.target_kind, r.target, {_RAW}, r.source_kind, r.resolved"
            " FROM refs r JOIN texts t ON t.id = r.text_id WHERE r.edition_id = ? ORDER BY r.seq",
            [edition_id],
        ).fetchall()
        return nodes, edges

    # whole editions (diffs and history) -------------------------------------

    def edition_rules(self, edition: str) -> list[tuple[str, str, str | None, int]]:
        """(number, kind, parent, text_id) of every rule row of an edition, in document order."""
        return self.conn.execute(
            "SELECT number, kind, parent, text_id FROM rules WHERE edition_id = ? ORDER BY seq",
            [self.edition_id(edition)],
        ).fetchall()

    def edition_examples(self, edition: str) -> dict[int, tuple[int, ...]]:
        """The example text ids of every rule that has examples, by the rule's position."""
        found: dict[int, list[int]] = {}
        for rule_seq, text_id in self.conn.execute(
            "SELECT rule_seq, text_id FROM examples WHERE edition_id = ? ORDER BY rule_seq, seq",
            [self.edition_id(edition)],
        ):
            found.setdefault(rule_seq, []).append(text_id)
        return {rule_seq: tuple(ids) for rule_seq, ids in found.items()}

    def edition_glossary(self, edition: str) -> list[tuple[str, int]]:
        """(term, text_id) of every glossary entry of an edition, in document order."""
        return self.conn.execute(
            "SELECT term, text_id FROM glossary WHERE edition_id = ? ORDER BY seq",
            [self.edition_id(edition)],
        ).fetchall()

    def texts(self, ids: list[int]) -> dict[int, str]:
        """The stored texts with these ids (texts are deduplicated: equal id, equal text)."""
        from rules_kb.ingest.readonly import texts

        return texts(self.conn, ids)


def _cited(
    cites: dict[tuple[str, int], list[str]], number: str, text_ids: Sequence[int]
) -> tuple[str, ...]:
    """What a rule cites: its text's citations, then its examples' (`text_ids`, in that
    order), each once; `cites` is :meth:`Reader._cites` of its edition."""
    found: dict[str, None] = {}
    for text_id in text_ids:
        found.update(dict.fromkeys(cites.get((number, text_id), ())))
    return tuple(found)


def _with(record: RuleRecord, **changes: Any) -> RuleRecord:
    from dataclasses import replace

    return replace(record, **changes)


def _edges(rows: Any, *, cited_by: bool, snippet: Any) -> tuple[Edge, ...]:
    """One edge per distinct node on the far side (its first reference wins): the targets
    of a rule's references, or the rules and glossary entries citing it."""
    entries: dict[tuple[str, str], Edge] = {}
    for kind, key, target_kind, target, resolved, raw, start, end, text in rows:
        node_kind: Literal["rule", "glossary"]
        if cited_by:
            node_kind, node, exists = ("glossary" if kind == "glossary" else "rule"), key, True
        else:
            node_kind = "glossary" if target_kind == "glossary" else "rule"
            node, exists = target, bool(resolved)
        if (node_kind, node) not in entries:
            entries[node_kind, node] = records.Edge(
                node_kind, node, exists, kind, raw, snippet(text, start, end), citing=key
            )
    return tuple(entries.values())


# glossary matching -------------------------------------------------------------------

_SPACING = re.compile(r"[\s\-–—_/]+")
_PUNCTUATION = re.compile(r"[^\w\s]")


@lru_cache(maxsize=16384)
def _spelled(name: str) -> str:
    """A name as compared: lower case, hyphens as spaces, no punctuation, no plural s."""
    words = _SPACING.sub(" ", _PUNCTUATION.sub("", name.lower().replace("-", " "))).split()
    return " ".join(word[:-1] if len(word) > 3 and word.endswith("s") else word for word in words)


@lru_cache(maxsize=8192)
def _names(term: str) -> tuple[str, ...]:
    """A term's names in lower case (cached: the same terms recur in every edition)."""
    return tuple(name.lower() for name in glossary_names(term))


def find_term(query: str, terms: list[str], *, fuzzy: bool = True) -> tuple[int, Any] | None:
    """(index, how it matched) of the term that best matches the query, or None."""
    wanted = " ".join(query.lower().split())
    if not wanted or len(wanted) > 200:
        return None
    for index, term in enumerate(terms):
        if term.lower() == wanted:
            return index, "exact"
    for index, term in enumerate(terms):
        if wanted in _names(term):
            return index, "name"
    spelled = _spelled(wanted)
    for index, term in enumerate(terms):
        if any(_spelled(name) in {spelled} for name in _names(term)):
            return index, "name"
    squashed = spelled.replace(" ", "")
    for index, term in enumerate(terms):
        if any(_spelled(name).replace(" ", "") == squashed for name in _names(term)):
            return index, "name"
    if not fuzzy:
        return None
    best = _near_terms(spelled, terms, limit=1, cutoff=80)
    return (best[0], "fuzzy") if best else None


def _near_terms(spelled: str, terms: list[str], *, limit: int, cutoff: float) -> list[int]:
    """Indices of the terms whose names are spelled most like the query.

    A typo keeps the number of words ("trampel" is Trample), or loses a space ("flash
    back"); a phrase like "copy of a permanent spell" is not the term "Permanent Spell".
    """
    from rapidfuzz import fuzz, process  # only misspellings pay for the import

    words = len(spelled.split())
    choices = {
        (index, name): _spelled(name)
        for index, term in enumerate(terms)
        for name in _names(term)
        if abs(len(_spelled(name).split()) - words) <= 1
    }
    found = process.extract(spelled, choices, scorer=fuzz.ratio, score_cutoff=cutoff, limit=None)
    ranked: list[int] = []
    for _choice, _score, (index, _name) in found:
        if index not in ranked:
            ranked.append(index)
    return ranked[:limit]


def _unknown_term_message(term: str, edition: str, terms: list[str]) -> str:
    shown = term if len(term) <= 60 else term[:60] + "…"
    near = _near_terms(_spelled(term[:200]), terms, limit=3, cutoff=60)
    hint = "; did you mean " + ", ".join(terms[i] for i in near) + "?" if near else ""
    return f"no glossary entry for {shown!r} in {edition}{hint}"


def nearest_number(wanted: str, numbers: list[str]) -> str | None:
    """The number of the same rule (else the same chapter) closest to a missing one;
    None when the chapter has no number at all (never the last rule of the book)."""
    match = re.match(r"^(\d{1,3})(?:\.(\d{1,4}))?", wanted)
    if not match or not numbers or len(wanted) > 16:
        return None
    chapter, minor = match.groups()
    rule = f"{chapter}.{minor}" if minor else None
    family = [
        n
        for n in numbers
        if rule and (n == rule or (n.startswith(rule) and n[len(rule) :].isalpha()))
    ]
    if not family:
        family = [n for n in numbers if n == chapter or n.startswith(chapter + ".")]
    if not family:
        return None
    family.sort(key=sort_key)
    target = sort_key(wanted)
    below = [number for number in family if sort_key(number) <= target]
    return below[-1] if below else family[0]
