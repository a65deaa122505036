"""The public Python API: `rules_kb.open()` and the KnowledgeBase it returns.

Every capability of rules-kb is a method here; the command line, the MCP server, the
web edition and `serve` are faces that call these methods and lay out the records
they return. Methods never print; they raise the exceptions of `rules_kb.errors`.

Opening is cheap: nothing is read until a method needs it, and a lookup imports
none of lark, whoosh, networkx, scipy or sqlite-utils.
"""

from __future__ import annotations

import os
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from rules_kb.cores import free_cores
from rules_kb.errors import GivenUp, RulesKbError, UnknownRule, UnknownTerm
from rules_kb.ingest.session import Session, expand, stored_outcomes
from rules_kb.progress import Progress, silent
from rules_kb.records.outcomes import IngestOutcome, IngestResult

if TYPE_CHECKING:
    import networkx as nx

    from rules_kb.ingest.fetch import Download, Policy
    from rules_kb.read.graph import Format as GraphFormat
    from rules_kb.read.history import Lineage
    from rules_kb.read.query import Reader
    from rules_kb.records import (
        Answer,
        CheckReport,
        CitationReport,
        Contents,
        EditionRecord,
        GlossaryRecord,
        Link,
        Redirect,
        References,
        RuleRecord,
        Shown,
        Where,
    )
    from rules_kb.records.changes import Changes
    from rules_kb.records.diff import EditionDiff, TermChange
    from rules_kb.records.history import History
    from rules_kb.records.search import Kind, Results

__all__ = ["KnowledgeBase", "default_path", "expand", "open"]

#: How many editions' reference resolvers a KnowledgeBase keeps (about 10 ms to make one):
#: a long-lived server asked about every edition does not hold all 134.
RESOLVERS = 16
#: How many rules `show` gives in answer to a question, and how many places to read on.
ANSWERS = 5
SEE_ALSO = 6


#: SQLite virtual-machine steps between two looks at whether a request was given up.
GIVEN_UP_STEPS = 1_000


class NeedsUpgrade(RulesKbError):
    """The database was made by an older rules-kb and cannot be upgraded (read-only)."""


def default_path() -> Path:
    """The database the CLI uses by default: $RULES_KB_DB, else rules.db in the user's
    data directory (~/.local/share/rules-kb/ on Linux)."""
    env = os.environ.get("RULES_KB_DB")
    if env:
        return Path(env)
    from platformdirs import user_data_path

    return user_data_path("rules-kb", appauthor=False) / "rules.db"


def open(path: str | Path | None = None, *, progress: Progress = silent) -> KnowledgeBase:
    """The knowledge base in `path` (default: `default_path()`).

    Nothing is read yet: a missing database is reported by the first lookup, and the
    first ingest creates it. `progress` is told about long work (ingest, index builds,
    schema upgrades) so that a face can draw bars.
    """
    return KnowledgeBase(Path(path) if path is not None else default_path(), progress=progress)


class KnowledgeBase:
    """Every edition of the Comprehensive Rules in one database, and what can be asked of it.

    `edition` arguments accept what `--edition` does: "latest", "oldest", an exact
    date, any date (the edition in force then), or a set code or name ("BRO").
    """

    def __init__(self, path: Path, *, progress: Progress = silent) -> None:
        if path.is_dir():
            raise RulesKbError(
                f"{path} is a folder: give the database file, e.g. {path / 'rules.db'}"
            )
        self.path = path
        """The database file."""
        self.progress = progress
        """Told about long work."""
        self._reader: Reader | None = None
        self._lineage: Lineage | None = None
        self._index: Any = None
        self._resolvers: OrderedDict[str, Any] = OrderedDict()  # the newest RESOLVERS

    # lifetime ---------------------------------------------------------------------------

    def close(self) -> None:
        """Release the database and the search index."""
        if self._reader is not None:
            self._reader.close()
        self._reader = self._lineage = self._index = None
        self._resolvers = OrderedDict()

    def __enter__(self) -> KnowledgeBase:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    @contextmanager
    def given_up_when(self, given_up: Callable[[], bool]) -> Iterator[None]:
        """Within the block, the work stops once `given_up()` is true: the SQL statement
        running then, or the next one, fails, and so does the next step of a long loop
        (see `rules_kb.giving_up`); the block raises GivenUp.

        For a server that gives a request up (its deadline passed, its client cancelled)
        while a worker thread is still answering it: the worker stops at its next step
        through the database instead of running to its end.
        """
        import sqlite3

        from rules_kb import giving_up

        conn = self.reader.conn
        conn.set_progress_handler(lambda: 1 if given_up() else 0, GIVEN_UP_STEPS)
        try:
            with giving_up.given_up_when(given_up):
                yield
        except sqlite3.OperationalError:
            if given_up():
                raise GivenUp("the request was given up") from None
            raise
        finally:
            conn.set_progress_handler(None, 0)

    @property
    def reader(self) -> Reader:
        """The read-only connection, opened (and the schema upgraded) on first use."""
        if self._reader is None:
            from rules_kb.ingest import schema
            from rules_kb.read.query import Reader

            reader = Reader(self.path)
            if reader.version < schema.VERSION:
                reader.close()
                self._upgrade()
                reader = Reader(self.path)
            self._reader = reader
        return self._reader

    def _upgrade(self) -> None:
        """Bring an older database's schema up to date (this fills in the lineage)."""
        from rules_kb.ingest.store import open_db

        try:
            open_db(self.path, self.progress).close()
        except OSError as error:
            raise NeedsUpgrade(
                f"{self.path} was made by an older rules-kb and cannot be upgraded here"
                f" ({error}); run any rules-kb command on it where it can be written"
            ) from error
        except Exception as error:
            import sqlite3

            if isinstance(error, sqlite3.OperationalError) and "readonly" in str(error):
                raise NeedsUpgrade(
                    f"{self.path} was made by an older rules-kb and is read-only here;"
                    " upgrade it where it can be written"
                ) from error
            raise

    def _reopen(self) -> None:
        """Forget what was read: the database changed."""
        self.close()

    @contextmanager
    def _snapshot(self) -> Iterator[Reader]:
        """One consistent state of the database for the whole of a request."""
        reader = self.reader
        with reader.snapshot():
            yield reader

    @property
    def lineage(self) -> Lineage:
        """The stored lineage, read through the same connection."""
        if self._lineage is None:
            from rules_kb.read.history import Lineage

            self._lineage = Lineage(self.reader)
        return self._lineage

    # editions ---------------------------------------------------------------------------

    def edition(self, value: str = "latest") -> str:
        """The date of the edition `value` stands for."""
        return self.reader.resolve_edition(value)

    def dates(self) -> list[str]:
        """Every stored edition date, oldest first."""
        return self.reader.dates()

    def editions(self) -> tuple[EditionRecord, ...]:
        """Every stored edition, newest first, with its counts, warnings and set."""
        from dataclasses import replace

        from rules_kb.ingest import catalogue
        from rules_kb.records import SetRelease

        known = catalogue.load()
        with self._snapshot() as reader:
            found = reader.editions()
        result = []
        for record in found:
            entry = known.by_date(record.edition)
            release = entry.set if entry else None
            named = SetRelease(release.code, release.name) if release else None
            result.append(replace(record, set=named))
        return tuple(result)

    # lookups ----------------------------------------------------------------------------

    def rule(self, number: str, edition: str = "latest") -> RuleRecord:
        """A rule with its subrules (nested), examples, citations and neighbours.

        A keyword or glossary term stands for its rule ("trample" is 702.19). A number
        the edition does not have raises UnknownRule saying where it went (or what it was
        then) when another edition had it, else the nearest number of the same rule or
        chapter.
        """
        from rules_kb import bounds
        from rules_kb.ingest.models import is_number

        bounds.term(number, "rule number or term")
        with self._snapshot() as reader:
            day = reader.resolve_edition(edition)
            if number.strip() and not is_number(number):
                return reader.rule(self._number_for(number, day), day)
            with self._redirecting(number, day):
                return reader.rule(number, day)

    @contextmanager
    def _redirecting(self, number: str, day: str) -> Iterator[None]:
        """An UnknownRule for a number another edition had says where it went (or what it
        was then), as `rule`, `refs`, `graph`, `history` and `where` all say it."""
        from rules_kb.ingest.models import normalise_number

        try:
            yield
        except UnknownRule as error:
            wanted = normalise_number(number)
            hint = self.lineage.redirect(wanted, day) if wanted else None
            if hint and hint not in str(error):
                raise UnknownRule(f"no rule {wanted} in {day}; {hint}") from None
            raise

    def rule_at(self, edition: str, position: int) -> RuleRecord:
        """The record at a position (its `seq`) of an edition: every record, even one whose
        number the edition repeats, is reachable this way."""
        with self._snapshot() as reader:
            return reader.rule_at(reader.resolve_edition(edition), position)

    def define(self, term: str, edition: str = "latest") -> GlossaryRecord | RuleRecord:
        """The glossary entry for a term (any case, one of its names, a near spelling);
        a "See X." definition brings X along. A keyword or heading the glossary lacks
        ("Mulligan") answers with its rule. Misses suggest near terms, and a term the
        glossary once had says when."""
        from rules_kb import bounds

        bounds.term(term)
        with self._snapshot() as reader:
            day = reader.resolve_edition(edition)
            try:
                return reader.define(term, day, fuzzy=False)
            except UnknownTerm:
                pass
            heading = reader.heading(term, day)
            if heading is not None:
                return heading
            try:
                return reader.define(term, day)
            except UnknownTerm:
                removed = self.lineage.removed_term(term, day)
                if removed:
                    shown = term if len(term) <= 60 else term[:60] + "…"
                    raise UnknownTerm(
                        f"no glossary entry for {shown!r} in {day}; {removed}"
                    ) from None
                raise

    def show(self, query: str, edition: str = "latest", *, limit: int | None = None) -> Shown:
        """A rule for a number, a glossary entry (or keyword rule) for a term, the rules
        that answer a question ("does deathtouch work with trample?"), else the search
        results for the words."""
        from rules_kb import bounds
        from rules_kb.ingest.models import is_number
        from rules_kb.records.answers import Shown

        bounds.query(query)

        if is_number(query):
            return Shown("rule", self.rule(query, edition))
        if self.is_question(query):
            return Shown("answer", self.answer(query, edition, limit=limit or ANSWERS))
        if len(query) > bounds.TERM:  # no term is this long: a situation told, to search
            return Shown("search", self.search(query, edition, limit=limit or 10))
        try:
            found = self.define(query, edition)
        except UnknownTerm:
            return Shown("search", self.search(query, edition, limit=limit or 10))
        return Shown(kind_of(found), found)

    def is_question(self, text: str) -> bool:
        """Whether `text` reads as a plain-language question ("does deathtouch work with
        trample?"), which `show` answers with the rules that answer it, rather than as
        words or syntax to search for."""
        from rules_kb.search.engine import read_query

        return bool(read_query(text)[1])

    def question_reading(
        self, edition: str = "latest", tokens: Iterable[str] = ()
    ) -> dict[str, Any]:
        """How `search` and `show` read a question of an edition, as JSON data: the
        vocabulary and names they recognise, the situations, the weights they rank with,
        the index term of each of `tokens` (the words another engine searches), and how many
        of the index's documents (of every edition: `indexed`) hold each of those terms
        (`frequencies`), so that another engine answers questions the same way. The web
        edition's search does."""
        from rules_kb.search import engine as core
        from rules_kb.search.portable import reading

        with self._snapshot() as reader:
            day = reader.resolve_edition(edition)
            found = reading(reader.conn, reader.edition_id(day), day, tokens)
            found["indexed"], found["frequencies"] = core.frequencies(
                reader.conn, self.index_folder, found["stems"].values()
            )
            return found

    def answer(self, question: str, edition: str = "latest", *, limit: int = ANSWERS) -> Answer:
        """The few rules that answer a plain-language question, with the terms it named
        and where to read on: the best answer's parent and the rules the answers cite."""
        from rules_kb import bounds
        from rules_kb.records.answers import Answer, Answered

        bounds.query(question)

        found = self.search(question, edition, limit=limit)
        day = found.filters.edition or self.edition(edition)
        answers = tuple(
            Answered(
                "glossary" if hit.kind == "glossary" else "rule",
                hit.label,
                hit.text,
                hit.score,
                hit.matched,
            )
            for hit in found.hits
        )
        numbers = [item.number for item in answers if item.kind == "rule"]
        see: dict[str, None] = {}
        with self._snapshot() as reader:
            read = [reader.links(number, day) for number in numbers[:3]]  # each read once
            if read and read[0].parent and read[0].parent not in numbers:
                see[read[0].parent] = None
            for links in read:
                for cited in links.cites:
                    if cited not in numbers:
                        see[cited] = None
        return Answer(question, day, found.recognised, answers, tuple(see)[:SEE_ALSO])

    # search -----------------------------------------------------------------------------

    def search(
        self,
        query: str,
        edition: str = "latest",
        *,
        limit: int = 10,
        all_editions: bool = False,
        kind: Kind | None = None,
        section: str | None = None,
        chapter: str | None = None,
    ) -> Results:
        """Full-text search: ranked hits with highlighted fragments, phrases, AND/OR/NOT,
        prefix*, fuzzy~, and misspellings corrected. The index beside the database is
        brought up to date first when it is stale."""
        from rules_kb import bounds
        from rules_kb.search import engine as core

        bounds.query(query)

        with self._snapshot() as reader:
            day = None if all_editions else reader.resolve_edition(edition)
            filters = core.Filters(edition=day, kind=kind, section=section, chapter=chapter)
            return core.answer(
                reader.conn, self.index_folder, query, filters, limit=limit,
                progress=_index_progress(self.progress),
            )  # fmt: skip

    @property
    def index_folder(self) -> Path:
        """The folder of the full-text index beside the database."""
        from rules_kb.search.stamp import index_dir

        return index_dir(self.path)

    def build_index(self) -> None:
        """Bring the search index up to date now (an ingest does this at its end)."""
        from rules_kb.search import engine as core

        with self._snapshot() as reader:
            core.ensure_index(
                reader.conn, self.index_folder, progress=_index_progress(self.progress)
            )

    # references -------------------------------------------------------------------------

    def refs(
        self, number_or_term: str, edition: str = "latest", *, subrules: bool = False
    ) -> References:
        """What a rule cites and what cites it (rules and glossary entries), each with the
        reference as printed. A keyword name or glossary term stands for its rule."""
        from rules_kb import bounds

        bounds.term(number_or_term, "rule number or term")
        with self._snapshot() as reader:
            day = reader.resolve_edition(edition)
            number = self._number_for(number_or_term, day)
            with self._redirecting(number, day):
                return reader.refs(number, day, subtree=subrules)

    def check(self, edition: str = "latest") -> CheckReport:
        """Dangling references and numbering anomalies of one edition."""
        with self._snapshot() as reader:
            return reader.check(reader.resolve_edition(edition))

    def graph(
        self, edition: str = "latest", around: str | None = None, depth: int = 1
    ) -> nx.DiGraph:
        """The reference graph of an edition (networkx), whole or around a rule, keyword or
        glossary term (with the rule's subtree)."""
        from rules_kb import bounds
        from rules_kb.read import graph as graphs

        if around is not None:
            bounds.term(around, "rule number or term")

        with self._snapshot() as reader:
            day = reader.resolve_edition(edition)
            built = graphs.build(*reader.graph_rows(day), edition=day)
            if around is None:
                return built
            centre = self._graph_node(around, day, built)
            return graphs.around(built, centre, depth)

    def export_graph(
        self,
        form: GraphFormat = "dot",
        edition: str = "latest",
        around: str | None = None,
        depth: int = 1,
    ) -> str:
        """The reference graph of `graph` written out: DOT, GraphML, GEXF, node-link JSON
        or a CSV edge list."""
        from rules_kb.read import graph as graphs

        return graphs.export(self.graph(edition, around, depth), form)

    def _graph_node(self, query: str, day: str, built: nx.DiGraph) -> str:
        from rules_kb.ingest.models import is_number, normalise_number
        from rules_kb.records import RuleRecord

        if is_number(query):
            number = normalise_number(query)
            if number not in built:
                raise UnknownRule(self.reader.unknown_rule_message(day, number))
            return number
        try:
            found = self.define(query, day)
        except UnknownTerm:
            raise UnknownTerm(f"no rule, keyword or glossary entry {query!r} in {day}") from None
        return found.number if isinstance(found, RuleRecord) else found.term

    def _number_for(self, query: str, day: str) -> str:
        """The rule number a query means: itself, or the rule of a keyword or term."""
        from rules_kb.ingest.models import is_number
        from rules_kb.records import RuleRecord

        if is_number(query):
            return query
        try:
            found = self.define(query, day)
        except UnknownTerm:
            raise UnknownTerm(f"no rule, keyword or glossary entry {query!r} in {day}") from None
        if isinstance(found, RuleRecord):
            return found.number
        if found.rules:
            return found.rules[0]
        raise UnknownRule(f"the glossary entry {found.term!r} cites no rule in {day}")

    # whole editions, for exports --------------------------------------------------------

    def contents(self, edition: str = "latest") -> Contents:
        """Every record of an edition: its sections with their rules nested, its glossary."""
        from rules_kb.records import Contents

        with self._snapshot() as reader:
            day = reader.resolve_edition(edition)
            glossary = tuple(reader.entry(term, text, day) for term, text in reader.glossary(day))
            return Contents(day, reader.title(day), tuple(reader.tree(day)), glossary)

    def references_in(
        self, text: str, edition: str = "latest", *, glossary: bool = False
    ) -> tuple[Link, ...]:
        """The references inside a text, resolved in an edition: where each is, what it
        names ("rules 603.7d–f" names 603.7d, 603.7e and 603.7f) and where each target is
        printed (603.7e is not). With `glossary`, the glossary's "See X." too."""
        from rules_kb.ingest import refs
        from rules_kb.records import Link, Target

        day = self.edition(edition)
        resolver = self._resolvers.get(day)
        if resolver is None:
            with self._snapshot() as reader:
                numbers = reader.numbers(day)
                terms = [term for term, _ in reader.glossary(day)]
            resolver = self._resolvers[day] = refs.Resolver(numbers, terms)
            while len(self._resolvers) > RESOLVERS:
                self._resolvers.popitem(last=False)
        self._resolvers.move_to_end(day)
        return tuple(
            Link(
                citation.start,
                citation.end,
                citation.raw,
                tuple(
                    Target(citation.kind, target, exists, start, end)
                    for target, exists, start, end in resolver.placed(citation)
                ),
            )
            for citation in refs.find(text, glossary)
        )

    def histories(self, edition: str = "latest", *, glossary: bool = False) -> Iterator[History]:
        """The history of every rule (or glossary entry) of an edition, in document order;
        one pass over the lineage, for exports."""
        with self._snapshot() as reader:
            day = reader.resolve_edition(edition)
            yield from self.lineage.histories(day, "glossary" if glossary else "rule")

    def redirects(self, edition: str = "latest") -> tuple[Redirect, ...]:
        """Every rule number another stored edition had and this one lacks, with what the
        rule is called in this edition (or when it was removed)."""
        with self._snapshot() as reader:
            return tuple(self.lineage.redirects(reader.resolve_edition(edition)))

    # comparisons ------------------------------------------------------------------------

    def diff(self, old: str, new: str, *, rule: str | None = None) -> EditionDiff:
        """What changed from edition `old` to edition `new`, word by word, renumbering
        followed. Neighbouring editions read the lineage stored at ingest; others are
        aligned directly. `rule` keeps one rule and its subrules, or a chapter ("702") or
        section ("7") whole."""
        from rules_kb import bounds
        from rules_kb.ingest.models import normalise_number
        from rules_kb.read import diff as core

        if rule is not None:
            bounds.term(rule, "rule number")

        with self._snapshot() as reader:
            before, after = reader.resolve_edition(old), reader.resolve_edition(new)
            result = core.diff(core.Library(reader), before, after)
            if rule is None:
                return result
            only = core.only(result, rule)
            if not only.rules:
                wanted = normalise_number(rule)
                if not any(reader.rules_numbered(wanted, day) for day in (before, after)):
                    raise UnknownRule(reader.unknown_rule_message(after, wanted))
            return only

    def changes(
        self,
        since: str,
        until: str = "latest",
        *,
        chapter: str | None = None,
        rule: str | None = None,
        term: str | None = None,
    ) -> Changes:
        """The real changes (typography apart) of every edition in force from `since` (a
        date, YYYY-MM-DD) to `until`, each against the edition before it, as `diff` sees
        them. At most one of `chapter` ("702", or a section "7"), `rule` (a number or
        keyword; its subrules too, followed through renumberings) and `term` (a glossary
        entry, followed through renames), named as `until` has them."""
        from datetime import date

        from rules_kb import bounds
        from rules_kb.errors import BadOption
        from rules_kb.read.changes import changes
        from rules_kb.read.diff import Library
        from rules_kb.records import RuleRecord

        bounds.edition(since)
        for value in (chapter, rule, term):
            if value is not None:
                bounds.term(value, "chapter, rule or term")
        if sum(value is not None for value in (chapter, rule, term)) > 1:
            raise BadOption("name one of a chapter, a rule or a term, not several")
        try:
            date.fromisoformat(since)
        except ValueError:
            raise BadOption(f"--since takes a date, YYYY-MM-DD: not {since!r}") from None
        if chapter is not None and not (chapter.isdigit() and len(chapter) in (1, 3)):
            raise BadOption(
                f"a chapter is three digits (702) or a section one (7): not {chapter!r}"
            )
        with self._snapshot() as reader:
            last = reader.resolve_edition(until)
            if rule is not None:
                rule = self._number_for(rule, last)
                with self._redirecting(rule, last):
                    reader.rule(rule, last)
            if term is not None:
                found = self.define(term, last)
                if isinstance(found, RuleRecord):
                    raise UnknownTerm(f"no glossary entry {term!r} in {last}")
                term = found.term
            return changes(
                Library(reader), self.lineage, reader.dates(), since, last,
                chapter=chapter, rule=rule, term=term,
            )  # fmt: skip

    def term_changes(self, old: str, new: str) -> tuple[TermChange, ...]:
        """The phrases replaced across an edition ("in play" -> "on the battlefield")."""
        return self.diff(old, new).term_changes()

    def history(
        self, number_or_term: str, edition: str = "latest", *, subrules: bool = False
    ) -> History:
        """How a rule (or glossary entry) read in every edition, following renumbering and
        renames, from the stored lineage; typography-only versions are merged."""
        from rules_kb import bounds
        from rules_kb.read.history import find_history

        bounds.term(number_or_term, "rule number or term")

        with self._snapshot() as reader:
            day = reader.resolve_edition(edition)
            return find_history(self.lineage, number_or_term, day, subrules=subrules)

    def where(self, number: str, edition: str = "latest", to: str = "latest") -> Where:
        """The same rule's number in another edition, forwards or backwards, with each
        renumbering step; "removed" or "not yet" when it is not there. With no edition
        named, a number the latest edition lacks is read in the latest edition that
        printed it (`Where.from_edition` says which); when that number named different
        rules over the years, `AmbiguousRule` lists them."""
        from rules_kb import bounds
        from rules_kb.ingest.models import is_number, normalise_number

        bounds.term(number, "rule number or term")

        with self._snapshot() as reader:
            day, target = reader.resolve_edition(edition), reader.resolve_edition(to)
            if not is_number(number):
                return self._where_term(number, day, target)
            wanted = normalise_number(number)
            if self.lineage.rule_seq(wanted, day) is None and edition == "latest":
                # No edition named: the number's own edition, the latest that printed it.
                holder = self.lineage.holder(wanted)
                if holder is not None:
                    day = holder
            if self.lineage.rule_seq(wanted, day) is None:
                hint = self.lineage.redirect(wanted, day)
                message = reader.unknown_rule_message(day, wanted)
                raise UnknownRule(f"no rule {wanted} in {day}; {hint}" if hint else message)
            return self.lineage.where("rule", wanted, day, target)

    def _where_term(self, term: str, day: str, target: str) -> Where:
        from rules_kb.records import RuleRecord

        found = self.define(term, day)
        if isinstance(found, RuleRecord):
            return self.lineage.where("rule", found.number, day, target)
        return self.lineage.where("glossary", found.term, day, target)

    def cite(self, text: str, as_of: str = "latest", to: str = "latest") -> CitationReport:
        """Every CR citation of a text written on `as_of`, checked against `to`: current,
        changed since, moved (with the new number), removed, or unknown at that date.
        The report's `fixed` is the text with the moved citations renumbered."""
        from rules_kb import bounds
        from rules_kb.read.cite import check

        bounds.text(text)

        with self._snapshot() as reader:
            return check(
                self.lineage, text, reader.resolve_edition(as_of), reader.resolve_edition(to)
            )

    # writing ----------------------------------------------------------------------------

    def ingest(
        self, source: str | Path | bytes, *, replace: bool = False, name: str | None = None
    ) -> IngestResult:
        """Read one edition (a file, or its bytes) into the database in one transaction;
        raises on failure and leaves the database as it was."""
        with Session(self.path, self.progress) as writer:
            outcome = writer.ingest(source, replace=replace, name=name)
        self._reopen()
        if outcome.result is None:
            raise _IngestFailed(outcome.error or "failed")
        return outcome.result

    def ingest_files(
        self,
        paths: Iterable[str | Path],
        *,
        replace: bool = False,
        index: bool = True,
        jobs: int | None = None,
    ) -> list[IngestOutcome]:
        """Read files (folders mean the .txt files directly in them), each in its own
        transaction: a file that fails changes nothing and the others still go in. A file
        whose bytes are already stored is "unchanged" without being read again. Nothing is
        created when no file goes in. The search index is brought up to date at the end
        unless `index` is false (it raises SearchIndexError then; the editions stay).

        `jobs` is how many processes may work (default: the cores that are free now): with
        more than one, files are decoded and parsed in `jobs - 1` others while this one
        stores them, in order. Sending a parsed edition back costs about a third of
        parsing it, so a pool pays only on cores nobody else is using."""
        files = list(expand(paths))
        advance = self.progress("ingest", len(files))
        workers = 0 if len(files) < 2 else (free_cores() if jobs is None else max(1, jobs)) - 1
        outcomes = []
        with Session(self.path, self.progress) as writer:
            for outcome in writer.ingest_all(files, replace=replace, jobs=workers):
                outcomes.append(outcome)
                advance(1, outcome.source)
        self._reopen()
        changed = any(o.result and o.result.status != "unchanged" for o in outcomes)
        if index and self.path.exists() and (changed or not self._index_fresh()):
            self.build_index()
        return outcomes

    def stored_outcomes(
        self, paths: Iterable[str | Path], *, index: bool = True
    ) -> list[IngestOutcome] | None:
        """What `ingest_files(paths)` reports when it has nothing to do: every file's bytes
        stored already and, with `index`, the search index up to date. It is found with a
        read-only look at the database, loading neither the writer nor the parser nor
        Whoosh. None when a file is new, changed, missing or unreadable, or the database
        or the index needs work: `ingest_files` has something to do or to say then."""
        fresh = None
        if index:
            from rules_kb.search.stamp import up_to_date

            fresh = partial(up_to_date, folder=self.index_folder)
        return stored_outcomes(self.path, expand(paths), fresh)

    def _index_fresh(self) -> bool:
        """Whether the index needs nothing done (what `ensure_index` would leave alone)."""
        from rules_kb.search.stamp import up_to_date

        try:
            with self._snapshot() as reader:
                return up_to_date(reader.conn, self.index_folder)
        except RulesKbError:
            return True

    def update(
        self,
        *,
        url: str | None = None,
        page: str | None = None,
        policy: Policy | None = None,
        replace: bool = False,
        download_progress: Any = None,
    ) -> tuple[IngestResult, Download]:
        """Download the current Comprehensive Rules (the .txt the official rules page
        links, or `url`) and ingest them. Every failure raises before the database is
        opened, so it is left exactly as it was (not even created)."""
        from rules_kb.ingest import fetch, pipeline, store

        chosen = policy or fetch.Policy()
        if url:
            got = fetch.download(url, policy=chosen, progress=download_progress)
        else:
            got = fetch.latest(
                page or fetch.DEFAULT_PAGE, policy=chosen, progress=download_progress
            )
        edition, decoded = fetch.read(got)  # refuses HTML, non-editions and truncated text
        db = store.open_db(self.path, self.progress)
        try:
            result = pipeline.ingest_read(
                db, got.data, edition, decoded, source=got.name, replace=replace
            )
        finally:
            db.close()
        self._reopen()
        if result.status != "unchanged":
            self.build_index()
        return result, got


class _IngestFailed(RulesKbError):
    """An ingest through the API failed; the message says why."""


def _index_progress(progress: Progress) -> Any:
    """The search module's progress shape (total, done) -> tick, from ours."""

    def start(total: int, done: int) -> Any:
        advance = progress("indexing", total)
        if done:
            advance(done, "")
        return lambda count: advance(count, "")

    return start


def kind_of(record: GlossaryRecord | RuleRecord) -> Literal["rule", "glossary"]:
    """Whether a define() answer is a rule or a glossary entry."""
    from rules_kb.records import RuleRecord

    return "rule" if isinstance(record, RuleRecord) else "glossary"
