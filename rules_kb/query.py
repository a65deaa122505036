"""Read-only queries with the standard library's sqlite3.

Lookups are what a judge runs most, so this module imports nothing heavy:
no sqlite-utils, no lark. It never creates or writes the database.
"""

from __future__ import annotations

import json
import re
import sqlite3
from datetime import date as Date
from pathlib import Path
from typing import Any

from rules_kb.errors import EmptyDatabase, UnknownEdition, UnknownRule, UnknownTerm
from rules_kb.models import glossary_names, normalise_number, sort_key

#: The raw text of a stored reference: the citing text between its offsets.
_RAW = "substr(t.text, r.start + 1, r.end - r.start)"
_ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_CITED = re.compile(r"\b(\d{3}(?:\.\d+[a-z]{0,2})?)\b")


class Reader:
    """Queries over one database file, opened read-only."""

    def __init__(self, path: Path) -> None:
        if not path.exists():
            raise EmptyDatabase(f"no database at {path}: run `rules-kb ingest PATH` first")
        self.conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        self._cites_cache: dict[int, dict[str, list[str]]] = {}
        try:
            self._dates: list[str] = [
                str(row[0]) for row in self.conn.execute("SELECT date FROM editions")
            ]
        except sqlite3.DatabaseError as error:
            raise EmptyDatabase(f"{path} is not a rules-kb database ({error})") from error
        self._dates.sort()
        if not self._dates:
            raise EmptyDatabase(f"the database {path} holds no editions: run `rules-kb ingest`")

    def stamp(self) -> str:
        """The content stamp: it changes whenever an ingest adds or replaces an edition."""
        row = self.conn.execute("SELECT value FROM meta WHERE key = 'stamp'").fetchone()
        return str(row[0]) if row else "0"

    def close(self) -> None:
        """Close the connection."""
        self.conn.close()

    # editions -------------------------------------------------------------

    def resolve_edition(self, value: str = "latest") -> str:
        """The edition date meant by latest, oldest, an exact date or a date in force."""
        wanted = value.strip().lower()
        if wanted in {"", "latest", "newest", "current"}:
            return str(self._dates[-1])
        if wanted in {"oldest", "first"}:
            return str(self._dates[0])
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
        return str(in_force[-1])

    def _set_edition(self, value: str) -> str:
        """The stored edition the catalogue lists with this set code (or set name)."""
        from rules_kb import catalogue  # only set codes pay for reading the catalogue

        known = catalogue.load()
        entry = known.by_code(value)
        if entry is None or entry.set is None:
            nearest = known.nearest_code(value)
            hint = f"; nearest set code: {nearest}" if nearest else ""
            raise UnknownEdition(
                f"unknown edition {value!r}: use latest, oldest, a date YYYY-MM-DD"
                f" or a set code such as BRO{hint}"
            )
        if entry.date not in self._dates:
            raise UnknownEdition(
                f"{entry.set.code} ({entry.set.name}) is edition {entry.date},"
                " which is not in the database"
            )
        return entry.date

    def editions(self) -> list[dict[str, Any]]:
        """Every stored edition with its counts and warnings, newest first."""
        rows = self.conn.execute(
            "SELECT date, title, rules, examples, glossary, sha256, source, encoding,"
            " body_lines, unparsed, warnings FROM editions ORDER BY date DESC"
        )
        keys = [
            "edition",
            "title",
            "rules",
            "examples",
            "glossary",
            "sha256",
            "source",
            "encoding",
            "body_lines",
            "unparsed",
            "warnings",
        ]
        result = []
        for row in rows:
            item = dict(zip(keys, row, strict=True))
            item["warnings"] = json.loads(item["warnings"] or "[]")
            result.append(item)
        return result

    def _edition_id(self, edition: str) -> int:
        row = self.conn.execute("SELECT id FROM editions WHERE date = ?", [edition]).fetchone()
        if row is None:
            raise UnknownEdition(f"no edition {edition} in the database")
        return int(row[0])

    # rules ----------------------------------------------------------------

    def rule(self, number: str, edition: str) -> dict[str, Any]:
        """A rule with its examples, neighbours and nested children."""
        wanted = normalise_number(number)
        if not wanted:
            raise UnknownRule("no rule number given")
        edition_id = self._edition_id(edition)
        row = self.conn.execute(
            "SELECT r.number, r.kind, r.parent, t.text, r.seq FROM rules r JOIN texts t"
            " ON t.id = r.text_id WHERE r.edition_id = ? AND r.number = ? ORDER BY r.seq LIMIT 1",
            [edition_id, wanted],
        ).fetchone()
        if row is None:
            raise UnknownRule(self._unknown_rule_message(edition_id, edition, wanted))
        node = self._node(edition_id, row)
        node["edition"] = edition
        siblings = self._children_numbers(edition_id, row[2])
        position = siblings.index(row[0]) if row[0] in siblings else -1
        node["previous"] = siblings[position - 1] if position > 0 else None
        node["next"] = siblings[position + 1] if 0 <= position < len(siblings) - 1 else None
        node["children"] = self._children(edition_id, row[0])
        return {"edition": edition, **node}

    def _node(self, edition_id: int, row: tuple[Any, ...]) -> dict[str, Any]:
        number, kind, parent, text, seq = row
        return {
            "number": number,
            "kind": kind,
            "text": text,
            "parent": parent or None,
            "examples": self._examples(edition_id, seq),
            "cites": self._cites(edition_id).get(number, []),
        }

    def _examples(self, edition_id: int, rule_seq: int) -> list[str]:
        return [
            text
            for (text,) in self.conn.execute(
                "SELECT t.text FROM examples e JOIN texts t ON t.id = e.text_id"
                " WHERE e.edition_id = ? AND e.rule_seq = ? ORDER BY e.seq",
                [edition_id, rule_seq],
            )
        ]

    def _children(self, edition_id: int, number: str) -> list[dict[str, Any]]:
        rows = self.conn.execute(
            "SELECT r.number, r.kind, r.parent, t.text, r.seq FROM rules r JOIN texts t"
            " ON t.id = r.text_id WHERE r.edition_id = ? AND r.parent = ? ORDER BY r.seq",
            [edition_id, number],
        ).fetchall()
        children = []
        for row in rows:
            child = self._node(edition_id, row)
            child["children"] = self._children(edition_id, row[0])
            children.append(child)
        return children

    def _children_numbers(self, edition_id: int, parent: str | None) -> list[str]:
        rows = self.conn.execute(
            "SELECT number FROM rules WHERE edition_id = ? AND parent IS ? ORDER BY seq",
            [edition_id, parent],
        )
        return [number for (number,) in rows]

    def _unknown_rule_message(self, edition_id: int, edition: str, wanted: str) -> str:
        numbers = [
            n
            for (n,) in self.conn.execute(
                "SELECT number FROM rules WHERE edition_id = ?", [edition_id]
            )
        ]
        nearest = nearest_number(wanted, numbers)
        hint = f"; nearest: {nearest}" if nearest else ""
        return f"no rule {wanted} in {edition}{hint}"

    # glossary -------------------------------------------------------------

    def define(self, term: str, edition: str) -> dict[str, Any]:
        """The glossary entry for a term: exact (any case), then by one of its names, then fuzzy."""
        edition_id = self._edition_id(edition)
        entries = self.conn.execute(
            "SELECT g.term, t.text FROM glossary g JOIN texts t ON t.id = g.text_id"
            " WHERE g.edition_id = ? ORDER BY g.seq",
            [edition_id],
        ).fetchall()
        if not entries:
            raise UnknownTerm(f"edition {edition} has no glossary")
        match = find_term(term, [entry[0] for entry in entries])
        if match is None:
            raise UnknownTerm(f"no glossary entry for {term!r} in {edition}")
        found_term, text = entries[match]
        return {
            "edition": edition,
            "term": found_term,
            "text": text,
            "rules": self._glossary_rules(edition_id, found_term, text),
        }

    # references -----------------------------------------------------------

    def has_references(self) -> bool:
        """Whether the database has the reference table (schema migration m003)."""
        found = self.conn.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'refs'"
        ).fetchone()
        return found is not None

    def _cites(self, edition_id: int) -> dict[str, list[str]]:
        """Numbers each rule cites (its text, then its examples), per edition, read once."""
        if edition_id not in self._cites_cache:
            cites: dict[str, dict[str, None]] = {}
            if self.has_references():
                for key, target in self.conn.execute(
                    "SELECT source_key, target FROM refs WHERE edition_id = ? AND source_kind IN"
                    " ('rule', 'example') ORDER BY source_kind = 'example', seq",
                    [edition_id],
                ):
                    cites.setdefault(key, {})[target] = None
            self._cites_cache[edition_id] = {key: list(found) for key, found in cites.items()}
        return self._cites_cache[edition_id]

    def _glossary_rules(self, edition_id: int, term: str, text: str) -> list[str]:
        if not self.has_references():
            return list(dict.fromkeys(_CITED.findall(text)))
        rows = self.conn.execute(
            "SELECT target FROM refs WHERE edition_id = ? AND source_kind = 'glossary'"
            " AND source_key = ? AND target_kind = 'rule' ORDER BY seq",
            [edition_id, term],
        )
        return list(dict.fromkeys(target for (target,) in rows))

    def refs(self, number: str, edition: str) -> dict[str, Any]:
        """What a rule cites and what cites it, each with the raw reference and a snippet."""
        from rules_kb.refs import edge_entries

        wanted = normalise_number(number)
        if not wanted:
            raise UnknownRule("no rule number given")
        edition_id = self._edition_id(edition)
        exists = self.conn.execute(
            "SELECT 1 FROM rules WHERE edition_id = ? AND number = ?", [edition_id, wanted]
        ).fetchone()
        select = (
            "SELECT r.source_kind, r.source_key, r.target_kind, r.target, r.resolved,"
            f" {_RAW},"
            " r.start, r.end, t.text FROM refs r JOIN texts t ON t.id = r.text_id"
            " WHERE r.edition_id = ? AND "
        )
        cites = self.conn.execute(
            select + "r.source_kind IN ('rule', 'example') AND r.source_key = ? ORDER BY r.seq",
            [edition_id, wanted],
        ).fetchall()
        cited_by = self.conn.execute(
            select + "r.target_kind = 'rule' AND r.target = ? ORDER BY r.seq",
            [edition_id, wanted],
        ).fetchall()
        if exists is None and not cited_by:
            raise UnknownRule(self._unknown_rule_message(edition_id, edition, wanted))
        return {
            "edition": edition,
            "number": wanted,
            "exists": exists is not None,
            "cites": edge_entries(cites, cited_by=False),
            "cited_by": edge_entries(cited_by, cited_by=True),
        }

    def check(self, edition: str) -> dict[str, Any]:
        """Dangling references and numbering anomalies of one edition."""
        from rules_kb.refs import numbering_anomalies

        edition_id = self._edition_id(edition)
        rows = self.conn.execute(
            f"SELECT r.source_kind, r.source_key, {_RAW}, r.target_kind, r.target, r.resolved"
            " FROM refs r JOIN texts t ON t.id = r.text_id WHERE r.edition_id = ? ORDER BY r.seq",
            [edition_id],
        ).fetchall()
        dangling = [
            {"from": key, "in": kind, "raw": raw, "target": target, "target_kind": target_kind}
            for kind, key, raw, target_kind, target, resolved in rows
            if not resolved
        ]
        numbers = self.conn.execute(
            "SELECT number, kind, parent FROM rules WHERE edition_id = ? ORDER BY seq",
            [edition_id],
        ).fetchall()
        return {
            "edition": edition,
            "references": len(rows),
            "resolved": len(rows) - len(dangling),
            "dangling": dangling,
            "anomalies": numbering_anomalies(numbers),
        }

    def graph_rows(
        self, edition: str
    ) -> tuple[list[tuple[str, str, str]], list[tuple[str, str, str, str, str, str, int]]]:
        """Nodes (kind, key, text) and edges (source kind, source key, target kind, target,
        raw, in, resolved) of one edition's reference graph, in document order."""
        edition_id = self._edition_id(edition)
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

    def dates(self) -> list[str]:
        """Every stored edition date, oldest first."""
        return list(self._dates)

    def edition_rules(self, edition: str) -> list[tuple[str, str, str | None, int]]:
        """(number, kind, parent, text_id) of every rule row of an edition, in document order."""
        return self.conn.execute(
            "SELECT number, kind, parent, text_id FROM rules WHERE edition_id = ? ORDER BY seq",
            [self._edition_id(edition)],
        ).fetchall()

    def edition_examples(self, edition: str) -> dict[int, tuple[int, ...]]:
        """The example text ids of every rule that has examples, by the rule's position."""
        found: dict[int, list[int]] = {}
        for rule_seq, text_id in self.conn.execute(
            "SELECT rule_seq, text_id FROM examples WHERE edition_id = ? ORDER BY rule_seq, seq",
            [self._edition_id(edition)],
        ):
            found.setdefault(rule_seq, []).append(text_id)
        return {rule_seq: tuple(ids) for rule_seq, ids in found.items()}

    def edition_glossary(self, edition: str) -> list[tuple[str, int]]:
        """(term, text_id) of every glossary entry of an edition, in document order."""
        return self.conn.execute(
            "SELECT term, text_id FROM glossary WHERE edition_id = ? ORDER BY seq",
            [self._edition_id(edition)],
        ).fetchall()

    def texts(self, ids: list[int]) -> dict[int, str]:
        """The stored texts with these ids (texts are deduplicated: equal id, equal text)."""
        found: dict[int, str] = {}
        unique = list(set(ids))
        for start in range(0, len(unique), 500):
            chunk = unique[start : start + 500]
            marks = ",".join("?" * len(chunk))
            found.update(
                self.conn.execute(f"SELECT id, text FROM texts WHERE id IN ({marks})", chunk)
            )
        return found


def _names(term: str) -> list[str]:
    return [name.lower() for name in glossary_names(term)]


def find_term(query: str, terms: list[str]) -> int | None:
    """Index of the term that best matches the query, or None."""
    wanted = " ".join(query.lower().split())
    for index, term in enumerate(terms):
        if term.lower() == wanted:
            return index
    for index, term in enumerate(terms):
        if wanted in _names(term):
            return index
    from rapidfuzz import fuzz, process  # only misspellings pay for the import

    # A typo keeps the number of words: "trampel" is Trample, but a phrase like
    # "copy of a permanent spell" is not the term "Permanent Spell" (show searches it).
    words = len(wanted.split())
    choices = {
        (index, name): name
        for index, term in enumerate(terms)
        for name in _names(term)
        if len(name.split()) == words
    }
    best = process.extractOne(wanted, choices, scorer=fuzz.ratio, score_cutoff=75)
    if best is None:
        return None
    found: int = best[2][0]
    return found


def nearest_number(wanted: str, numbers: list[str]) -> str | None:
    """The stored number closest to a missing one: same parent first, then numeric order."""
    if not numbers:
        return None
    for length in range(len(wanted), 0, -1):
        prefix = wanted[:length]
        family = [number for number in numbers if number.startswith(prefix)]
        if family:
            break
    else:
        family = numbers
    family.sort(key=sort_key)
    below = [number for number in family if sort_key(number) <= sort_key(wanted)]
    return below[-1] if below else family[0]
