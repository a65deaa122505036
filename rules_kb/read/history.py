"""History, `where` and old-number redirects: questions answered from the stored lineage.

Each follows one line of descent (`rules_kb.ingest.lineage.Lines`), one edition at a time,
through indexed lookups: no edition is read whole and nothing is aligned here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import replace
from typing import Literal

from rules_kb.errors import UnknownRule, UnknownTerm
from rules_kb.ingest.lineage import (
    Branching,
    Forest,
    Kind,
    Lines,
    Node,
    Relations,
    TextCache,
    forest,
    same_examples,
)
from rules_kb.ingest.models import sort_key
from rules_kb.read.query import Reader, find_term
from rules_kb.records import Branch, Redirect, Step, Where
from rules_kb.records.history import Form, History, Version, VersionStatus
from rules_kb.typography import same_wording


class Lineage:
    """The lineage of one database, read through a Reader."""

    def __init__(self, reader: Reader) -> None:
        self.reader = reader
        self.lines = Lines(reader.conn)
        self._forests: dict[Kind, Forest] = {}

    # finding a record ---------------------------------------------------------------

    def rule_seq(self, number: str, edition: str) -> int | None:
        """The position of the (first) record with this number in an edition."""
        row = self.reader.conn.execute(
            "SELECT min(seq) FROM rules WHERE edition_id = ? AND number = ?",
            [self.reader.edition_id(edition), number],
        ).fetchone()
        return None if row is None or row[0] is None else int(row[0])

    def term_seq(self, term: str, edition: str) -> int | None:
        """The position of the glossary entry with this exact term in an edition."""
        row = self.reader.conn.execute(
            "SELECT min(seq) FROM glossary WHERE edition_id = ? AND term = ?",
            [self.reader.edition_id(edition), term],
        ).fetchone()
        return None if row is None or row[0] is None else int(row[0])

    def editions_with(self, number: str) -> list[str]:
        """The editions that print this rule number, oldest first."""
        conn = self.reader.conn
        return [
            day
            for day in self.reader.dates()
            if conn.execute(
                "SELECT 1 FROM rules WHERE edition_id = ? AND number = ?",
                [self.reader.edition_id(day), number],
            ).fetchone()
        ]

    def holder(self, number: str) -> str | None:
        """The latest edition that printed a rule number, when every edition that printed
        it printed the same rule (one line of descent); None if none printed it.

        Raises AmbiguousRule, listing each rule and its editions, when the number named
        different rules."""
        from rules_kb.errors import AmbiguousRule

        having = self.editions_with(number)
        if not having:
            return None
        date_of = self._date_of()
        rules: list[tuple[str, str, str]] = []
        covered: set[str] = set()
        for day in reversed(having):
            if day in covered:
                continue
            seq = self.rule_seq(number, day)
            assert seq is not None
            line = self.line("rule", day, seq)
            nodes = [n for n in line if n.key == number]
            run = [date_of[n.edition_id] for n in nodes]
            covered.update(run)
            text = self.reader.texts([nodes[-1].text_id])[nodes[-1].text_id]
            rules.append((run[0], run[-1], _title(text)))
        if len(rules) == 1:
            return having[-1]
        listed = "; ".join(f"{_span(first, last)}: {title}" for first, last, title in rules)
        raise AmbiguousRule(
            f"{number} was {len(rules)} different rules ({listed}); name one with -e"
        )

    def line(self, kind: Kind, edition: str, seq: int) -> list[Node]:
        """The line of descent through a record, oldest first."""
        return self.lines.line(kind, self.reader.edition_id(edition), seq)

    # history --------------------------------------------------------------------------

    def history(
        self, kind: Kind, key: str, edition: str, *, query: str = "", subrules: bool = False
    ) -> History:
        """The history of the record `key` of an edition (which must have it)."""
        seq = self.rule_seq(key, edition) if kind == "rule" else self.term_seq(key, edition)
        if seq is None:
            raise UnknownRule(f"no {key} in {edition}")
        found = self._history(kind, self.line(kind, edition, seq), query or key, edition, key)
        if kind == "rule" and subrules:
            tree = self.reader.rule_at(edition, seq)
            children = tuple(
                self._history(
                    "rule", self.line("rule", edition, node.seq), node.number, edition, node.number
                )
                for node in tree.walk()
                if node.number != tree.number
            )
            found = replace(found, subrules=children)
        return found

    def _history(
        self,
        kind: Kind,
        line: Sequence[Node],
        query: str,
        edition: str,
        key: str,
        *,
        example_ids: Callable[[Node], tuple[int, ...]] | None = None,
        load: Callable[[list[int]], Mapping[int, str]] | None = None,
        split_from: Node | None = None,
        merged_into: Node | None = None,
        branching: Sequence[Branching] = (),
    ) -> History:
        """The versions of one line. `split_from`, `merged_into` and `branching` (what
        left the line or joined it) default to what the stored lineage says of it."""
        dates = self.reader.dates()
        date_of = self._date_of()
        ids_of = example_ids or self._example_ids
        examples = {node: ids_of(node) for node in line} if kind == "rule" else {}
        ids = [node.text_id for node in line] + [i for ids in examples.values() for i in ids]
        texts = dict((load or self.reader.texts)(ids))
        if example_ids is None:  # one line: what the stored lineage says of its ends
            split_from = split_from or self.lines.split_from(kind, line[0])
            merged_into = merged_into or self.lines.merged_into(kind, line[-1])
            branching = self.lines.branches(kind, line)
        groups = _grouped(line, examples, texts)
        versions = _versions(
            groups,
            examples,
            texts,
            date_of,
            split=split_from is not None,
            glossary=kind == "glossary",
        )
        if branching:
            versions = _branched(versions, _branches(branching, date_of))
        last_day = date_of[line[-1].edition_id]
        removed = dates[dates.index(last_day) + 1] if last_day != dates[-1] else None
        return History(
            query=query,
            kind=kind,
            edition=edition,
            key=key,
            versions=tuple(reversed(versions)),
            introduced_in=date_of[line[0].edition_id],
            removed_in=removed,
            split_from=None
            if split_from is None
            else Step(date_of[split_from.edition_id], split_from.key),
            merged_into=None
            if merged_into is None
            else Step(date_of[merged_into.edition_id], merged_into.key),
        )

    def _date_of(self) -> dict[int, str]:
        return {self.reader.edition_id(day): day for day in self.reader.dates()}

    # every line at once ---------------------------------------------------------------

    def forest(self, kind: Kind) -> Forest:
        """Every line of descent of one kind, computed once per Lineage."""
        if kind not in self._forests:
            self._forests[kind] = forest(self.reader.conn, kind)
        return self._forests[kind]

    def histories(self, edition: str, kind: Kind = "rule") -> Iterator[History]:
        """The history of every record of an edition, in document order (one pass over the
        lineage instead of one walk per record)."""
        found = self.forest(kind)
        edition_id = self.reader.edition_id(edition)
        cache = TextCache(self.reader.conn)
        relations = Relations.of(found)

        def node(place: tuple[int, int] | None) -> Node | None:
            return None if place is None else found.node(place)

        def at(edition_id: int, seq: int) -> Node:
            return found.node((edition_id, seq))

        for seq, item in enumerate(found.records[edition_id].items):
            places = found.lines[found.line_of[edition_id, seq]]
            line = [found.node(place) for place in places]
            yield self._history(
                kind, line, item.key, edition, item.key,
                example_ids=lambda node: found.records[node.edition_id].examples.get(node.seq, ()),
                load=cache,
                split_from=node(found.split_from.get(places[0])),
                merged_into=node(found.merged_into.get(places[-1])),
                branching=relations.along(line, at),
            )  # fmt: skip

    def redirects(self, edition: str) -> Iterator[Redirect]:
        """Every rule number some stored edition had and `edition` lacks, with where the
        rule of its most recent holder is in `edition` (or when it was removed)."""
        found = self.forest("rule")
        date_of = self._date_of()
        dates = self.reader.dates()
        target = self.reader.edition_id(edition)
        present = {item.key for item in found.records[target].items}
        latest: dict[str, tuple[str, str, int, tuple[int, int]]] = {}
        for number, line in enumerate(found.lines):
            for run in _runs(
                [Node(e, s, found.records[e].items[s].key, 0, "same") for e, s in line]
            ):
                key = run[0].key
                if key in present:
                    continue
                first, last = date_of[run[0].edition_id], date_of[run[-1].edition_id]
                if key not in latest or last > latest[key][1]:
                    latest[key] = (first, last, number, (run[-1].edition_id, run[-1].seq))
        cache = TextCache(self.reader.conn)
        for key in sorted(latest, key=sort_key):
            first, last, number, (eid, seq) = latest[key]
            line = found.lines[number]
            here = [s for e, s in line if e == target]
            text = cache([found.records[eid].items[seq].text_id])
            kept = text[found.records[eid].items[seq].text_id]
            line_first, line_last = date_of[line[0][0]], date_of[line[-1][0]]
            if not here and line_last < edition:
                here = self._joined_line(found, line, target, found.merged_into, -1)
            elif not here and line_first > edition:
                here = self._joined_line(found, line, target, found.split_from, 0)
            if here:
                yield Redirect(key, kept, first, last, found.records[target].items[here[0]].key)
            elif line_last < edition:
                yield Redirect(
                    key, kept, first, last, None, removed_in=dates[dates.index(line_last) + 1]
                )
            else:
                yield Redirect(key, kept, first, last, None, introduced_in=line_first)

    @staticmethod
    def _joined_line(
        found: Forest,
        line: Sequence[tuple[int, int]],
        target: int,
        joins: Mapping[tuple[int, int], tuple[int, int]],
        end: int,
    ) -> list[int]:
        """The seq in edition `target` of the line a line was merged into (`joins` the
        forest's merges, `end` -1) or split off (its splits, `end` 0), and so on, as
        `where` follows them; [] if none reaches the edition."""
        for _ in range(len(found.lines)):
            if line[end] not in joins:
                break
            line = found.lines[found.line_of[joins[line[end]]]]
            here = [s for e, s in line if e == target]
            if here:
                return here
        return []

    def _example_ids(self, node: Node) -> tuple[int, ...]:
        return tuple(
            text_id
            for (text_id,) in self.reader.conn.execute(
                "SELECT text_id FROM examples WHERE edition_id = ? AND rule_seq = ? ORDER BY seq",
                [node.edition_id, node.seq],
            )
        )

    # where ----------------------------------------------------------------------------

    def where(self, kind: Kind, key: str, from_edition: str, to_edition: str) -> Where:
        """The counterpart in `to_edition` of the record `key` of `from_edition`."""
        seq = (
            self.rule_seq(key, from_edition) if kind == "rule" else self.term_seq(key, from_edition)
        )
        if seq is None:
            raise UnknownRule(f"no {key} in {from_edition}")
        line = self.line(kind, from_edition, seq)
        return self._where(kind, key, line, from_edition, to_edition)

    def _where(
        self, kind: Kind, key: str, line: Sequence[Node], from_edition: str, to_edition: str
    ) -> Where:
        dates = self.reader.dates()
        date_of = {self.reader.edition_id(day): day for day in dates}
        start = next(i for i, node in enumerate(line) if date_of[node.edition_id] == from_edition)
        forward = to_edition >= from_edition
        low, high = sorted((from_edition, to_edition))
        window = [node for node in line if low <= date_of[node.edition_id] <= high]
        path = (
            window[window.index(line[start]) :]
            if forward
            else window[: window.index(line[start]) + 1][::-1]
        )
        branches = _branches(self.lines.branches(kind, window), date_of)
        steps: list[Step] = []
        for run in _runs(path):
            earliest = min(date_of[node.edition_id] for node in run)
            steps.append(Step(earliest, run[0].key))
        reached = path[-1]
        texts = self.reader.texts([line[start].text_id, reached.text_id])
        # Changed as the stored lineage says: the rule numbers it cites, renumbered since,
        # are no change (each node's status is how it came from the node before it).
        steps_taken = path[1:] if forward else path[:-1]
        text_changed = not same_wording(texts[line[start].text_id], texts[reached.text_id]) and any(
            node.status in _CHANGED for node in steps_taken
        )
        reached_day = date_of[reached.edition_id]
        if reached_day != to_edition:
            # The line ends on the way: merged into another record going forwards, split
            # off another going backwards; the answer follows that record's line on.
            other = (
                self.lines.merged_into(kind, reached)
                if forward
                else self.lines.split_from(kind, reached)
            )
            if other is not None:
                joined = self._joined(
                    kind, key, line[start], steps, other, from_edition, to_edition
                )
                return replace(joined, branches=(*branches, *joined.branches))
        now: str | None = reached.key
        status: Literal["same", "changed", "moved", "removed", "not_yet"]
        removed_in = introduced_in = None
        if reached_day == to_edition:
            status = "moved" if reached.key != key else "changed" if text_changed else "same"
        elif forward:
            status, now = "removed", None
            removed_in = dates[dates.index(reached_day) + 1]
        else:
            status, now = "not_yet", None
            introduced_in = reached_day
        homonym = None
        if now != key:
            seq = (
                self.rule_seq(key, to_edition) if kind == "rule" else self.term_seq(key, to_edition)
            )
            if seq is not None:
                other = self.lines.node(kind, self.reader.edition_id(to_edition), seq)
                homonym = self.reader.texts([other.text_id])[other.text_id]
        return Where(
            from_edition=from_edition,
            number=key,
            to_edition=to_edition,
            now=now,
            status=status,
            text_changed=text_changed,
            steps=tuple(steps),
            removed_in=removed_in,
            introduced_in=introduced_in,
            text=texts[line[start].text_id],
            now_text=texts[reached.text_id] if now is not None else None,
            kind=kind,
            homonym=homonym,
            branches=branches,
        )

    def _joined(
        self,
        kind: Kind,
        key: str,
        start: Node,
        steps: list[Step],
        other: Node,
        from_edition: str,
        to_edition: str,
    ) -> Where:
        """`where` across a merge (forwards) or a split (backwards): the record's own
        steps, then those of the record it joined."""
        day = self._date_of()[other.edition_id]
        onwards = self._where(
            kind, other.key, self.lines.line(kind, other.edition_id, other.seq), day, to_edition
        )
        texts = self.reader.texts([start.text_id])
        merged = to_edition >= from_edition
        status: Literal["merged", "split", "removed", "not_yet"] = (
            ("merged" if merged else "split")
            if onwards.now is not None
            else ("removed" if merged else "not_yet")
        )
        return replace(
            onwards,
            from_edition=from_edition,
            number=key,
            status=status,
            text_changed=onwards.now_text is None
            or not same_wording(texts[start.text_id], onwards.now_text),
            steps=(*steps, *onwards.steps),
            text=texts[start.text_id],
            homonym=None,
            via=Step(day, other.key),
        )

    # redirects ------------------------------------------------------------------------

    def redirect(self, number: str, edition: str) -> str | None:
        """Where a number the edition lacks went, or what it was then, in words:
        "502.9 Trample (1999-04-23 … 2009-05-01) is now 702.19"."""
        having = self.editions_with(number)
        if not having:
            return None
        source = having[-1]
        seq = self.rule_seq(number, source)
        assert seq is not None
        line = self.line("rule", source, seq)
        found = self._where("rule", number, line, source, edition)
        date_of = {self.reader.edition_id(day): day for day in self.reader.dates()}
        run = [node for node in line if node.key == number]
        span = _span(date_of[run[0].edition_id], date_of[run[-1].edition_id])
        label = f"{number} {_title(found.text)} ({span})"
        later = edition > source
        if found.status == "removed":
            return f"{label} was removed in {found.removed_in}"
        if found.status == "not_yet":
            return f"{label} did not exist yet (it appeared in {found.introduced_in})"
        if found.via is not None:
            verb = "was merged into" if found.status == "merged" else "was split off"
            joined = f"{label} {verb} {found.via.number} in {found.via.edition}"
            if found.now == found.via.number:
                return joined
            return f"{joined}, {'now' if later else 'then'} {found.now}"
        return f"{label} {'is now' if later else 'was then'} {found.now}"

    def removed_term(self, query: str, edition: str) -> str | None:
        """When a term the edition lacks was in the glossary, and what became of it."""
        terms = [term for (term,) in self.reader.conn.execute("SELECT DISTINCT term FROM glossary")]
        found = find_term(query, terms)
        if found is None:
            return None
        term = terms[found[0]]
        having = [day for day in self.reader.dates() if self.term_seq(term, day) is not None]
        source = having[-1]
        seq = self.term_seq(term, source)
        assert seq is not None
        line = self.line("glossary", source, seq)
        where = self._where("glossary", term, line, source, edition)
        date_of = {self.reader.edition_id(day): day for day in self.reader.dates()}
        named = [date_of[node.edition_id] for node in line if node.key == term]
        span = _span(named[0], named[-1])
        if where.status == "removed":
            return f"{term}: in the glossary {span}"
        if where.now is not None and where.now != term:
            if edition > source:
                return f"{term} ({span}) is now {where.now!r}"
            return f"{term} ({span}) was {where.now!r} then"
        if where.status in {"not_yet", "split"}:
            return f"{term}: in the glossary {span}"
        return None


def _forms(
    group: Sequence[Node], texts: Mapping[int, str], date_of: Mapping[int, str]
) -> tuple[Form, ...]:
    forms: list[Form] = []
    for node in group:
        text = texts[node.text_id]
        day = date_of[node.edition_id]
        if forms and forms[-1].text == text:
            forms[-1] = Form(forms[-1].first, day, text)
        else:
            forms.append(Form(day, day, text))
    return tuple(reversed(forms))


def _runs(path: Sequence[Node]) -> list[list[Node]]:
    """Consecutive nodes with the same number."""
    runs: list[list[Node]] = []
    for node in path:
        if runs and runs[-1][-1].key == node.key:
            runs[-1].append(node)
        else:
            runs.append([node])
    return runs


def _span(first: str, last: str) -> str:
    return first if first == last else f"{first} … {last}"


def _title(text: str, words: int = 6) -> str:
    """The first words of a text: the whole of a heading, the start of a sentence."""
    parts = " ".join(text.split()).split(" ")
    return " ".join(parts) if len(parts) <= words else " ".join(parts[:words]) + "…"


def find_history(lineage: Lineage, query: str, edition: str, *, subrules: bool = False) -> History:
    """The history of a rule number or glossary term as of an edition: the record with
    that number in the edition (else in the latest earlier edition that has it)."""
    from rules_kb.ingest.models import is_number, normalise_number

    reader = lineage.reader
    dates = [day for day in reader.dates() if day <= edition]
    if is_number(query):
        number = normalise_number(query)
        for day in reversed(dates):
            if lineage.rule_seq(number, day) is not None:
                return lineage.history("rule", number, day, query=query, subrules=subrules)
        hint = lineage.redirect(number, edition)
        raise UnknownRule(
            f"no rule {number} in any edition up to {edition}" + (f"; {hint}" if hint else "")
        )
    for day in reversed(dates):
        terms = [term for term, _ in reader.edition_glossary(day)]
        found = find_term(query, terms)
        if found is not None:
            return lineage.history("glossary", terms[found[0]], day, query=query)
    heading = reader.heading(query, edition)
    if heading is not None:
        return lineage.history("rule", heading.number, edition, query=query, subrules=subrules)
    raise UnknownTerm(f"no rule or glossary entry for {query!r} in any edition up to {edition}")


#: How a record may come from the one before it and still be the same version: the
#: stored lineage's statuses for the same wording (typography and the rule numbers it
#: cites, once renumbered, aside).
_SAME_VERSION = frozenset({"same", "typography"})


def _grouped(
    line: Sequence[Node], examples: Mapping[Node, tuple[int, ...]], texts: Mapping[int, str]
) -> list[list[Node]]:
    """A line's records in runs that the stored lineage calls the same version and whose
    examples say the same (`same_examples`): each run is a version."""
    groups: list[list[Node]] = []
    before: tuple[int, ...] = ()
    for node in line:
        ids = examples.get(node, ())
        if (
            groups
            and node.status in _SAME_VERSION
            and (ids == before or _same_examples(before, ids, texts))
        ):
            groups[-1].append(node)
        else:
            groups.append([node])
        before = ids
    return groups


def _same_examples(old: tuple[int, ...], new: tuple[int, ...], texts: Mapping[int, str]) -> bool:
    return same_examples([texts[i] for i in old], [texts[i] for i in new])


#: The lineage statuses of a step that changes wording.
_CHANGED = frozenset({"changed", "moved_changed"})

#: The version status of a record that starts a new version, by its lineage status.
_VERSION_STATUS: Mapping[str, VersionStatus] = {
    "same": "same",
    "typography": "same",
    "changed": "changed",
    "moved": "moved",
    "moved_changed": "moved_changed",
}


def _branches(branching: Sequence[Branching], date_of: Mapping[int, str]) -> tuple[Branch, ...]:
    """What left a line or joined it, as records: the edition, the other's number."""
    return tuple(
        Branch(relation, date_of[here.edition_id], other.key) for here, relation, other in branching
    )


def _branched(versions: list[Version], branches: Sequence[Branch]) -> list[Version]:
    """The versions with the records that left the line or joined it, each in the version
    whose span holds the edition where it happened."""
    found: dict[int, list[Branch]] = {}
    for branch in branches:
        index = next(i for i, v in enumerate(versions) if v.first <= branch.edition <= v.last)
        found.setdefault(index, []).append(branch)
    return [
        replace(version, branches=tuple(found[i])) if i in found else version
        for i, version in enumerate(versions)
    ]


def _versions(
    groups: list[list[Node]],
    examples: Mapping[Node, tuple[int, ...]],
    texts: Mapping[int, str],
    date_of: Mapping[int, str],
    *,
    split: bool,
    glossary: bool = False,
) -> list[Version]:
    """The versions of a line, oldest first, each with what happened since the one before
    it, as the stored lineage says (the first: `added`, or `split` if the line was split
    from another)."""
    from rules_kb.worddiff import word_diff

    versions: list[Version] = []
    previous: Version | None = None
    for group in groups:
        newest = group[-1]
        text = texts[newest.text_id]
        status: VersionStatus = "split" if split else "added"
        words = None
        shown = tuple(texts[i] for i in examples.get(newest, ()))
        examples_changed, example_words = False, None
        if previous is not None:
            status = _VERSION_STATUS.get(group[0].status, "changed")
            words = word_diff(previous.text, text)
            examples_changed = not same_examples(previous.examples, shown)
            if examples_changed:
                before = previous.examples
                example_words = tuple(
                    word_diff(
                        before[k] if k < len(before) else "", shown[k] if k < len(shown) else ""
                    )
                    for k in range(max(len(before), len(shown)))
                )
        version = Version(
            first=date_of[group[0].edition_id],
            last=date_of[newest.edition_id],
            key=newest.key,
            text=text,
            examples=shown,
            status=status,
            words=words,
            forms=_forms(group, texts, date_of),
            examples_changed=examples_changed,
            example_words=example_words,
            glossary=glossary,
        )
        versions.append(version)
        previous = version
    return versions
