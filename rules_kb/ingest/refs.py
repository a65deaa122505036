"""Find and resolve rule references: grammars/refs.lark over rule, example and glossary text.

References are embedded in prose, so a regular expression first finds candidate
spans ("rule 702.19", "rules 603.7d–f", "section 8", "see 806.7f", the glossary's
"See also Untapped") and the Lark grammar then parses each span into its
targets. Parsing depends only on the span's text, so it is cached: the same
text recurs in every edition. Resolution is per edition: ranges expand to the
numbers that edition has, and every target knows whether it exists there.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any, Literal

from rules_kb.ingest.models import SUBRULE_LETTERS, Edition, glossary_names
from rules_kb.ingest.models import sort_key as _sort_key

#: Rule numbers recur in every edition: their order keys are computed once.
sort_key = lru_cache(maxsize=65536)(_sort_key)

if TYPE_CHECKING:
    from lark import Lark, Token, Tree

SourceKind = Literal["rule", "example", "glossary"]
TargetKind = Literal["rule", "glossary"]

_NUM = r"\d{1,3}(?:\.\d+[a-z]{0,2})?(?![\d.]\d)"
_LIST_NUM = r"\d{3}(?:\.\d+[a-z]{0,2})?(?![\d.]\d)"
_DASH = r"\s*(?:--|[-–—\ufffd])\s*"
_RANGE_END = r"(?:\d{1,3}(?:\.\d+)?[a-z]{0,2}|[a-z]{1,2})(?![\w])"
_TITLE = r"[“\"][^”\"\n]{1,60}[”\"]\s*"
_SEP = rf"(?:\s*,\s*(?:{_TITLE})?(?:(?:and|or)\s+)?|\s+(?:and|or|through)\s+)"
_KIND = r"(?:[Rr]ules?|[Ss]ections?|[Ss]ubrules?)"
_TARGET = rf"(?:{_DASH}{_RANGE_END})?"
#: A candidate number reference: a lead word, a number, more numbers after separators.
_CITATION = re.compile(
    rf"\b(?:[Ss]ee(?:\s+also)?\s+(?:{_KIND}\s+)?|{_KIND}\s+|(?:in|to|steps)\s+(?=\d{{3}}\.\d))"
    rf"{_NUM}{_TARGET}(?:{_SEP}(?:{_KIND}\s+)?{_LIST_NUM}{_TARGET})*"
)
#: A candidate glossary cross-reference: "See X." / "See also X, Y, and Z."
_CROSSREF = re.compile(r"\b[Ss]ee(?:\s+also)?\s+(?=[A-Z])[^.;:()\n]+")


@dataclass(frozen=True, slots=True)
class Citation:
    """One reference as written: a span of text and the targets it names, unresolved."""

    raw: str
    """The span as printed: "rules 603.7d–f", "See also Untapped"."""
    start: int
    """Offset of the span's first character in the text."""
    end: int
    """Offset just after the span's last character."""
    kind: TargetKind
    """"rule" for numbers (sections, chapters, rules, subrules); "glossary" for terms."""
    items: tuple[tuple[str, str | None], ...]
    """Numbers as (first, last) with last None when not a range; terms as (term, None)."""
    places: tuple[Place, ...] = ()
    """Where each item is printed in the text: (start, end) of its first number (or term)
    and (start, end) of a range's printed end ("f" in "603.7d–f"), (-1, -1) without one."""


Place = tuple[int, int, int, int]


@dataclass(frozen=True, slots=True)
class Source:
    """A text that may cite: a rule's text, one of its examples, or a glossary definition."""

    kind: SourceKind
    """Where the text comes from."""
    key: str
    """The rule number (for rules and examples) or the glossary term."""
    text: str
    """The text itself."""


@dataclass(frozen=True, slots=True)
class Reference:
    """One edge of the reference graph: a source citing one target, resolved."""

    source_kind: SourceKind
    """Rule, example or glossary entry."""
    source_key: str
    """The citing rule's number or glossary entry's term."""
    raw: str
    """The reference as printed ("rules 603.7d–f" for each of its three targets)."""
    start: int
    """Offset of the reference in the source text."""
    end: int
    """Offset just after the reference in the source text."""
    target_kind: TargetKind
    """A numbered node ("rule") or a glossary entry ("glossary")."""
    target: str
    """The cited number ("603.7e") or glossary term."""
    exists: bool
    """Whether the target exists in the same edition."""

    def as_row(self) -> tuple[str, str, int, int, str, str, int]:
        """The fields in the column order of the `refs` table, after edition, seq and text id.

        The raw text is not stored: it is the citing text between start and end.
        """
        return (
            self.source_kind,
            self.source_key,
            self.start,
            self.end,
            self.target_kind,
            self.target,
            int(self.exists),
        )


@cache
def grammar() -> Lark:
    """Load the reference grammar once per process."""
    from lark import Lark

    return Lark(_grammar_text(), parser="lalr", start=["citation", "crossref"])


def _grammar_text() -> str:
    from rules_kb.resources import read_text

    return read_text("rules_kb.grammars", "refs.lark")


# finding ------------------------------------------------------------------


@lru_cache(maxsize=65536)
def find(text: str, glossary: bool = False) -> tuple[Citation, ...]:
    """Every reference in a text, in order; glossary text also yields "See X." cross-references."""
    found = [c for m in _CITATION.finditer(text) if (c := _citation(m.group(), m.start()))]
    if glossary:
        taken = [(c.start, c.end) for c in found]
        for match in _CROSSREF.finditer(text):
            # "See Creature Types and rule 212": the terms end where a number reference starts.
            stop = min((s for s, e in taken if match.start() < e and s < match.end()), default=None)
            raw = match.group() if stop is None else text[match.start() : stop]
            raw = re.sub(r"(?:\s|,|\band\b|\bor\b)+$", "", raw)
            crossref = _crossref(raw, match.start())
            if crossref is not None:
                found.append(crossref)
        found.sort(key=lambda c: c.start)
    return tuple(found)


def _citation(raw: str, start: int) -> Citation | None:
    parsed = _parse_citation(raw)
    if parsed is None:
        return None
    items, places = parsed
    return Citation(raw, start, start + len(raw), "rule", items, _shifted(places, start))


def _shifted(places: tuple[Place, ...], by: int) -> tuple[Place, ...]:
    """Places within a span made places within the text (-1 stays -1)."""
    return tuple(
        (a + by, b + by, c + by if c >= 0 else -1, d + by if d >= 0 else -1)
        for a, b, c, d in places
    )


@lru_cache(maxsize=65536)
def _parse_citation(
    raw: str,
) -> tuple[tuple[tuple[str, str | None], ...], tuple[Place, ...]] | None:
    """The items of a citation span and where each is printed in it (None: no citation)."""
    from lark import UnexpectedInput

    try:
        tree = grammar().parse(raw, start="citation")
    except UnexpectedInput:
        return None
    lead = tree.children[0]
    words = [str(token).lower() for token in lead.children]  # type: ignore[union-attr]
    targets = [_target(child) for child in tree.find_data("target")]
    items = tuple(item for item, _ in targets)
    first = items[0][0]
    is_section = any(word.startswith("section") for word in words)
    if is_section and not re.fullmatch(r"\d|\d{3}(?:\.\d+[a-z]{0,2})?", first):
        return None
    if not is_section and not re.match(r"\d{3}", first):
        return None  # "rule 7" or "see 3": not a reference
    return items, tuple(place for _, place in targets)


def _target(tree: Tree[Token]) -> tuple[tuple[str, str | None], Place]:
    tokens = list(tree.scan_values(lambda _: True))
    head = tokens[0]
    place = (head.start_pos or 0, head.end_pos or 0)
    first = str(head)
    if len(tokens) == 1:
        return (first, None), (*place, -1, -1)
    tail = tokens[-1]
    return (first, _range_end(first, str(tail))), (*place, tail.start_pos or 0, tail.end_pos or 0)


def _range_end(first: str, last: str) -> str:
    """The full number a range ends on: 603.7d–f ends on 603.7f, 119.7–8 on 119.8."""
    head, _, tail = first.partition(".")
    if last.isalpha():
        return first.rstrip(SUBRULE_LETTERS + "lo") + last
    if "." in last or not tail:
        return last
    return f"{head}.{last}"


@lru_cache(maxsize=16384)
def _parse_crossref(raw: str) -> tuple[tuple[str, Place], ...]:
    """The terms of a "See X, Y" span and where each is printed in it."""
    from lark import UnexpectedInput

    try:
        tree = grammar().parse(raw, start="crossref")
    except UnexpectedInput:
        return ()
    found = []
    for term in tree.find_data("term"):
        words: list[Token] = list(term.children)  # type: ignore[arg-type]
        text = " ".join(str(word) for word in words)
        if text[:1].isupper():
            found.append((text, (words[0].start_pos or 0, words[-1].end_pos or 0, -1, -1)))
    return tuple(found)


def _crossref(raw: str, start: int) -> Citation | None:
    terms = _parse_crossref(raw)
    if not terms:
        return None
    items = tuple((term, None) for term, _ in terms)
    places = _shifted(tuple(place for _, place in terms), start)
    return Citation(raw, start, start + len(raw), "glossary", items, places)


# resolving ----------------------------------------------------------------


class Resolver:
    """Resolves citations against one edition's numbers and glossary terms."""

    def __init__(self, numbers: Iterable[str], terms: Iterable[str]) -> None:
        self._known = set(numbers)
        self._terms = _term_index(terms)
        self._order: _Order | None = None

    @property
    def numbers(self) -> list[str]:
        """The edition's numbers in order."""
        return self._ordered()[0]

    def _ordered(self) -> _Order:
        """The numbers in order, their order keys and depths, made when a range (or
        `numbers`) first needs them."""
        if self._order is None:
            self._order = _order_of(self._known)
        return self._order

    def targets(self, citation: Citation) -> list[tuple[str, bool]]:
        """The citation's targets in order, each with whether it exists."""
        return [(target, exists) for target, exists, _, _ in self.placed(citation)]

    def placed(self, citation: Citation) -> list[tuple[str, bool, int, int]]:
        """The citation's targets in order, each with whether it exists and where it is
        printed in the text ((-1, -1) for the numbers a range spans without naming)."""
        if citation.kind == "glossary":
            return self._terms_of(citation)
        found: dict[str, tuple[str, bool, int, int]] = {}
        places = citation.places or tuple((-1, -1, -1, -1) for _ in citation.items)
        for (first, last), (start, end, last_start, last_end) in zip(
            citation.items, places, strict=True
        ):
            numbers = self._expand(first, last)
            for index, number in enumerate(numbers):
                if number in found:
                    continue
                if index == 0:
                    where = (start, end)
                elif number == last and index == len(numbers) - 1:
                    where = (last_start, last_end)
                else:
                    where = (-1, -1)
                found[number] = (number, number in self._known, *where)
        return list(found.values())

    def _expand(self, first: str, last: str | None) -> list[str]:
        if last is None:
            return [first]
        low, high = sort_key(first), sort_key(last)
        if high < low:
            return [first, last]
        depths = {_depth(first), _depth(last)}
        numbers, keys, depth_of = self._ordered()
        start, stop = bisect_left(keys, low), bisect_right(keys, high)
        inside = [
            number
            for number, depth in zip(numbers[start:stop], depth_of[start:stop], strict=True)
            if depth in depths
        ]
        return list(dict.fromkeys([first, *inside, last])) if inside else [first, last]

    def _terms_of(self, citation: Citation) -> list[tuple[str, bool, int, int]]:
        pieces = [term for term, _ in citation.items]
        places = citation.places or tuple((-1, -1, -1, -1) for _ in pieces)
        result: list[tuple[str, bool, int, int]] = []
        index = 0
        while index < len(pieces):
            # Terms may contain commas ("Kicker, Kicked"): try the longest run first.
            for stop in range(len(pieces), index, -1):
                joined = ", ".join(pieces[index:stop]).lower()
                if joined in self._terms:
                    where = (places[index][0], places[stop - 1][1])
                    result.append((self._terms[joined], True, *where))
                    index = stop
                    break
            else:
                singular = pieces[index].lower().removesuffix("s")
                found = self._terms.get(singular)
                where = (places[index][0], places[index][1])
                result.append((found, True, *where) if found else (pieces[index], False, *where))
                index += 1
        return result


#: The numbers of an edition in order, their order keys and their depths (`_depth`).
_Order = tuple[list[str], list[tuple[int, int, int, str]], list[int]]

#: The numbers last put in order, with their order: the next edition's differ from them
#: in a few numbers, which are taken out or put in rather than sorting 5,000 again.
_LAST_ORDER: tuple[frozenset[str], _Order] = (frozenset(), ([], [], []))
_FEW = 256


def _order_of(known: set[str]) -> _Order:
    """The numbers in order, their order keys and depths."""
    global _LAST_ORDER
    last, (numbers, keys, depths) = _LAST_ORDER
    gone, new = last - known, known - last
    if len(gone) + len(new) > _FEW:
        numbers = sorted(known, key=sort_key)
        keys = [sort_key(number) for number in numbers]
        depths = [_depth(number) for number in numbers]
    else:
        if gone:
            kept = [at for at, number in enumerate(numbers) if number not in gone]
            numbers = [numbers[at] for at in kept]
            keys, depths = [keys[at] for at in kept], [depths[at] for at in kept]
        else:
            numbers, keys, depths = numbers[:], keys[:], depths[:]
        for number in new:
            at = bisect_left(keys, sort_key(number))
            numbers.insert(at, number)
            keys.insert(at, sort_key(number))
            depths.insert(at, _depth(number))
    order = numbers, keys, depths
    _LAST_ORDER = frozenset(known), order
    return order


def _depth(number: str) -> int:
    if "." in number:
        return 3 if number[-1].isalpha() else 2
    return 1 if len(number) == 3 else 0


def _term_index(terms: Iterable[str]) -> dict[str, str]:
    """Every lower-cased name of every term ("kicker", "kicked", "kicker, kicked") to the term
    (the glossary changes little from one edition to the next: the last few are kept)."""
    return _term_index_of(tuple(terms))


@lru_cache(maxsize=4)
def _term_index_of(terms: tuple[str, ...]) -> dict[str, str]:
    index: dict[str, str] = {}
    for term in terms:
        for name in _names(term):
            index.setdefault(name, term)
    return index


@lru_cache(maxsize=16384)
def _names(term: str) -> tuple[str, ...]:
    """The lower-cased names a glossary term is found by: the heading as printed and the
    names it stands for (`glossary_names`); terms recur in every edition."""
    return tuple(name.lower() for name in (term, *glossary_names(term)))


def resolve(
    sources: Iterable[Source], numbers: Iterable[str], terms: Iterable[str]
) -> list[Reference]:
    """Every reference of the sources, resolved against one edition's numbers and terms."""
    return [reference for _, reference in resolve_each(sources, numbers, terms)]


def resolve_each(
    sources: Iterable[Source], numbers: Iterable[str], terms: Iterable[str]
) -> Iterator[tuple[int, Reference]]:
    """Like `resolve`, with the index of the source each reference comes from."""
    for index, kind, key, raw, start, end, target_kind, target, exists in rows(
        sources, numbers, terms
    ):
        yield index, Reference(kind, key, raw, start, end, target_kind, target, exists)


def rows(
    sources: Iterable[Source], numbers: Iterable[str], terms: Iterable[str]
) -> Iterator[tuple[int, SourceKind, str, str, int, int, TargetKind, str, bool]]:
    """Every reference of the sources as a plain tuple: (source index, source kind, source
    key, raw, start, end, target kind, target, exists) - what the store writes, without
    an object per reference (an ingest meets 190,000 of them)."""
    return plain_rows(((s.kind, s.key, s.text) for s in sources), numbers, terms)


def plain_rows(
    sources: Iterable[tuple[SourceKind, str, str]], numbers: Iterable[str], terms: Iterable[str]
) -> Iterator[tuple[int, SourceKind, str, str, int, int, TargetKind, str, bool]]:
    """`rows` over sources given as (kind, key, text) tuples: an edition has 8,000 texts
    that may cite and most cite nothing, so each costs a lookup of its prepared
    citations (`_prepared`) and no object."""
    resolver = Resolver(numbers, terms)
    known = resolver._known
    for index, (kind, key, text) in enumerate(sources):
        prepared = _prepared(text, kind == "glossary")
        if not prepared:
            continue
        for citation, numbered in prepared:
            raw, start, end, target_kind = citation.raw, citation.start, citation.end, citation.kind
            if numbered is None:
                for target, exists in resolver.targets(citation):
                    yield index, kind, key, raw, start, end, target_kind, target, exists
            else:
                for target in numbered:
                    yield index, kind, key, raw, start, end, target_kind, target, target in known


@lru_cache(maxsize=65536)
def _prepared(text: str, glossary: bool) -> tuple[tuple[Citation, tuple[str, ...] | None], ...]:
    """A text's citations (`find`), each with its targets when they are numbers that name no
    range (such targets are the same in every edition: only whether each exists changes),
    else None (a range spans the numbers an edition has; terms go through its glossary)."""
    return tuple(
        (
            citation,
            tuple(dict.fromkeys(first for first, _ in citation.items))
            if citation.kind == "rule" and all(last is None for _, last in citation.items)
            else None,
        )
        for citation in find(text, glossary)
    )


def edition_texts(edition: Edition) -> Iterator[tuple[SourceKind, str, str]]:
    """The texts of an edition that may cite, as (kind, key, text), in document order:
    each rule followed by its examples, then the glossary definitions."""
    for rule in edition.rules:
        yield "rule", rule.number, rule.text
        for example in rule.examples:
            yield "example", rule.number, example
    for entry in edition.glossary:
        yield "glossary", entry.term, entry.text


def edition_sources(edition: Edition) -> list[Source]:
    """The texts of an edition that may cite: rules, their examples, glossary definitions."""
    return [Source(kind, key, text) for kind, key, text in edition_texts(edition)]


def edition_references(edition: Edition) -> list[Reference]:
    """Every reference of an edition, resolved against that edition."""
    return resolve(
        edition_sources(edition),
        (rule.number for rule in edition.rules),
        (entry.term for entry in edition.glossary),
    )


def letter_after(letters: str) -> str:
    """The subrule letters that follow: a → b, k → m (l is skipped), z → aa, az → ba."""
    if not letters:
        return "a"
    last = letters[-1]
    if last in "lo":
        last = chr(ord(last) - 1)
    position = SUBRULE_LETTERS.index(last)
    if position + 1 < len(SUBRULE_LETTERS):
        return letters[:-1] + SUBRULE_LETTERS[position + 1]
    return letter_after(letters[:-1]) + "a" if len(letters) > 1 else "aa"


def numbers_between(first: str, last: str) -> Sequence[str]:
    """Subrule numbers strictly between two siblings ("702.19a", "702.19c" → "702.19b")."""
    base = first.rstrip(SUBRULE_LETTERS + "lo")
    wanted = sort_key(last)
    current = first[len(base) :]
    between: list[str] = []
    while len(between) < 50:
        current = letter_after(current)
        if sort_key(base + current) >= wanted:
            break
        between.append(base + current)
    return between


# reading back -------------------------------------------------------------

#: A stored edge with its citing text: source kind, source key, target kind, target,
#: resolved, raw, start, end, text.
EdgeRow = tuple[str, str, str, str, int, str, int, int, str]


def edge_entries(rows: Iterable[EdgeRow], *, cited_by: bool) -> list[dict[str, Any]]:
    """One entry per distinct node on the far side of the edges (its first reference wins):
    the targets of a rule's references, or the rules and glossary entries citing it."""
    entries: dict[tuple[str, str], dict[str, Any]] = {}
    for kind, key, target_kind, target, resolved, raw, start, end, text in rows:
        if cited_by:
            node_kind, node, exists = ("glossary" if kind == "glossary" else "rule"), key, True
        else:
            node_kind, node, exists = target_kind, target, bool(resolved)
        if (node_kind, node) in entries:
            continue
        entry: dict[str, Any] = {"number": node if node_kind == "rule" else None}
        if node_kind == "glossary":
            entry["term"] = node
        entry.update(kind=node_kind, exists=exists, source=kind, raw=raw)
        entry["snippet"] = snippet(text, start, end)
        entries[node_kind, node] = entry
    return list(entries.values())


# checking -----------------------------------------------------------------


def snippet(text: str, start: int, end: int, width: int = 50) -> str:
    """The reference with some of the text around it, on one line."""
    left, right = max(0, start - width), min(len(text), end + width)
    body = " ".join(text[left:right].split())
    return ("…" if left else "") + body + ("…" if right < len(text) else "")


def numbering_anomalies(rows: Iterable[tuple[str, str, str | None]]) -> list[dict[str, str]]:
    """Duplicates, numbers out of order, gaps and letters l/o in sibling sequences, from
    (number, kind, parent) rows in document order."""
    rows = list(rows)
    found: list[tuple[int, dict[str, str]]] = []
    seen: dict[str, int] = {}
    for position, (number, _, _) in enumerate(rows):
        if number in seen:
            after = rows[position - 1][0]
            found.append((position, {"number": number, "problem": f"duplicate (after {after})"}))
        seen.setdefault(number, position)
    duplicates = {position for position, _ in found}
    misplaced = _out_of_order(rows, duplicates)
    found.extend((position, problem) for position, problem in misplaced.items())
    last_child: dict[str | None, str] = {}
    for position, (number, kind, parent) in enumerate(rows):
        if position in duplicates or position in misplaced:
            continue
        before = last_child.get(parent)
        found.extend((position, p) for p in _sibling_problems(number, kind, parent, before))
        if before is None or sort_key(number) > sort_key(before):
            last_child[parent] = number
    found.sort(key=lambda item: item[0])
    return [problem for _, problem in found]


def _out_of_order(
    rows: list[tuple[str, str, str | None]], skip: set[int]
) -> dict[int, dict[str, str]]:
    """Numbers that do not sit between their neighbours of the same family while those
    neighbours are in order: a typo such as 606.8b among 609.2b and 609.2c."""
    families: dict[str, list[int]] = {}
    for position, (_, kind, _) in enumerate(rows):
        if position not in skip:
            families.setdefault("rule" if kind == "subrule" else kind, []).append(position)
    misplaced: dict[int, dict[str, str]] = {}
    for positions in families.values():
        keys = [sort_key(rows[p][0]) for p in positions]
        for index in range(len(positions)):
            low = keys[index - 1] if index else None
            high = keys[index + 1] if index + 1 < len(keys) else None
            if (low is not None and keys[index] < low and (high is None or low < high)) or (
                high is not None and keys[index] > high and (low is None or low < high)
            ):
                previous = rows[positions[index - 1]][0] if index else "the start"
                problem = f"out of order: follows {previous}"
                number = rows[positions[index]][0]
                misplaced[positions[index]] = {"number": number, "problem": problem}
    return misplaced


def _sibling_problems(
    number: str, kind: str, parent: str | None, before: str | None
) -> list[dict[str, str]]:
    problems = []
    if kind == "subrule" and number[-1] in "lo":
        problems.append(
            {"number": number, "problem": f"uses the letter {number[-1]}, which numbering skips"}
        )
    expected = _next_sibling(kind, parent, before)
    if expected is None or (before is not None and sort_key(number) <= sort_key(before)):
        return problems
    missing = _missing(kind, expected, number)
    if missing:
        where = f"follows {before}" if before else f"first under {parent or 'the rules'}"
        shown = ", ".join(missing) if len(missing) <= 3 else f"{missing[0]}–{missing[-1]}"
        problems.append({"number": number, "problem": f"{where}: {shown} missing"})
    return problems


def _next_sibling(kind: str, parent: str | None, before: str | None) -> str | None:
    if kind == "subrule" and parent:
        return parent + letter_after(before[len(parent) :] if before else "")
    if kind == "rule" and parent:
        return f"{parent}.{int(before.split('.')[1]) + 1}" if before else f"{parent}.1"
    if kind == "chapter" and parent:
        return str(int(before) + 1) if before else f"{parent}00"
    if kind == "section":
        return str(int(before) + 1) if before else "1"
    return None


def _missing(kind: str, expected: str, number: str) -> list[str]:
    """Siblings from `expected` up to, not including, `number`."""
    if sort_key(number) <= sort_key(expected):
        return []
    if kind == "subrule":
        return [expected, *numbers_between(expected, number)]
    head, _, minor = expected.rpartition(".")
    stop = int(number.rpartition(".")[2] if head else number)
    first = int(minor if head else expected)
    return [f"{head}.{n}" if head else str(n) for n in range(first, stop)][:200]
