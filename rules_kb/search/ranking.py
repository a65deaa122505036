"""Ranking a question's candidates: the rules the index found and the rules its concepts
govern, each scored by `rules_kb.search.answers` (a heading stands for its best subrule,
an example for its rule), and no rule allowed to fill the top with its subrules."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Any, NamedTuple

from rules_kb.ingest.readonly import texts as read_texts
from rules_kb.records.search import Filters, Kind
from rules_kb.titles import is_title


def ranked(
    conn: sqlite3.Connection,
    book: Any,
    asked: list[Any],
    found: dict[int, float],
    filters: Filters,
    records: Any,
    frequency: Callable[[str], int],
    documents: int,
    pairs: frozenset[tuple[str, str]],
) -> list[tuple[Any, Kind, int]]:
    """Every candidate of a question, best first: (its score, kind, text id).

    Candidates are the documents the index found (an example stands for its rule), the
    rules the question's concepts govern with their subrules, and the subrules of the
    headings found: a heading stands for its best subrule. Each is scored by BM25 over
    all of the question's words (the index was asked for the rarer ones only)."""
    from rules_kb.search import answers

    rules, examples, glossary = _gathered(book, asked, found, records)
    allowed = sorted(n for n in rules if _allowed(n, filters))
    narrowed = filters.kind not in (None, "glossary") or filters.section or filters.chapter
    terms = [] if narrowed else glossary
    rows = _candidates(conn, book, allowed, examples, terms)
    weigh = answers.Relevance(asked, frequency, documents)
    raw = [weigh(row.stems) for row in rows]
    top = max(raw, default=0.0) or 1.0
    named = answers.settings_named(asked, book)
    best: dict[str, tuple[Any, Kind, int]] = {}
    for row, relevance in zip(rows, raw, strict=True):
        if filters.kind == "example" and not row.example:
            continue
        scored = answers.score_text(
            row.key, row.text, row.stems, asked, relevance=relevance / top,
            heading=row.heading, parent=row.parent, glossary=row.glossary, example=row.example,
            cited=book.cited.get(row.key, 0.0), pairs=len(pairs & row.pairs), settings=named,
        )  # fmt: skip
        kind: Kind = "example" if filters.kind == "example" else row.kind
        if row.key not in best or scored.score > best[row.key][0].score:
            best[row.key] = (scored, kind, row.text_id)
    # a text that names none of the question's concepts answers none of it
    ranked = sorted(
        (item for item in best.values() if item[0].matched),
        key=lambda item: (-item[0].score, item[0].key),
    )
    return _varied(ranked)


def _gathered(
    book: Any, asked: list[Any], found: dict[int, float], records: Any
) -> tuple[set[str], dict[str, list[int]], list[str]]:
    """What may answer a question: rule numbers (those the index found, those its concepts
    govern, and the subrules of both), the examples found by rule, and the glossary terms
    found, in the index's order."""
    nodes = book.nodes
    rules: set[str] = set()
    examples: dict[str, list[int]] = {}
    glossary: list[str] = []
    for docnum in found:
        record = records.record(docnum)
        if record.kind == "glossary":
            if record.label in book.glossary and record.label not in glossary:
                glossary.append(record.label)
        elif record.label in nodes:
            if record.kind == "example":
                examples.setdefault(record.label, []).append(record.text_id)
            rules.add(record.label)
    for concept in asked:
        for rule in concept.rules:
            _with_subtree(nodes, rule, rules)
    for number in [n for n in rules if nodes[n].children]:
        _with_subtree(nodes, number, rules)
    return rules, examples, glossary


def _candidates(
    conn: sqlite3.Connection,
    book: Any,
    allowed: list[str],
    examples: dict[str, list[int]],
    terms: list[str],
) -> list[_Candidate]:
    """The texts to score: each rule's, each of its examples', each glossary term's."""
    nodes = book.nodes
    ids = [nodes[n].text_id for n in allowed]
    ids += [text_id for n in allowed for text_id in examples.get(n, ())]
    ids += [book.glossary[term][0] for term in terms]
    texts = read_texts(conn, ids)
    rows: list[_Candidate] = []
    for number in allowed:
        node = nodes[number]
        text = texts.get(node.text_id, "")
        heading = node.kind in HEADINGS_KINDS and is_title(text)
        rows.append(
            _Candidate(number, "rule", node.text_id, text, book.stems(node.text_id, text),
                       book.pairs(node.text_id, text), heading=heading,
                       parent=bool(node.children))
        )  # fmt: skip
        for text_id in examples.get(number, ()):
            example = texts.get(text_id, "")
            rows.append(
                _Candidate(number, "rule", node.text_id, example,
                           book.stems(text_id, example), book.pairs(text_id, example),
                           example=True)
            )  # fmt: skip
    for term in terms:
        text_id = book.glossary[term][0]
        text = term + "\n" + texts.get(text_id, "")
        rows.append(
            _Candidate("g:" + term, "glossary", text_id, text, book.stems(-text_id, text),
                       book.pairs(-text_id, text), glossary=True)
        )  # fmt: skip
    return rows


def _varied(ranked: list[tuple[Any, Kind, int]]) -> list[tuple[Any, Kind, int]]:
    """The ranking with at most two subrules of one rule before every other rule has had
    its turn: an answer is more often one of several rules than the fifth of one."""
    from rules_kb.search import answers

    first: list[tuple[Any, Kind, int]] = []
    later: list[tuple[Any, Kind, int]] = []
    seen: dict[str, int] = {}
    for item in ranked:
        family = answers.family(item[0].key)
        seen[family] = seen.get(family, 0) + 1
        (first if seen[family] <= answers.PER_RULE else later).append(item)
    return first + later


class _Candidate(NamedTuple):
    """A text that may answer a question: a rule's, one of its examples', or a glossary
    entry's."""

    key: str
    """The rule number, or "g:" and the glossary term."""
    kind: Kind
    text_id: int
    """The text shown for it (an example shows its rule's)."""
    text: str
    stems: list[str]
    pairs: frozenset[tuple[str, str]]
    """Its pairs of adjacent words."""
    heading: bool = False
    parent: bool = False
    glossary: bool = False
    example: bool = False


HEADINGS_KINDS = frozenset({"section", "chapter", "rule"})


def _with_subtree(nodes: dict[str, Any], number: str, into: set[str]) -> None:
    """Add a rule and its subrules (up to answers.SUBTREE of them) to the candidates."""
    from rules_kb.search import answers

    if number not in nodes:
        return
    into.add(number)
    queue = list(nodes[number].children)
    added = 0
    while queue and added < answers.SUBTREE:
        child = queue.pop(0)
        into.add(child)
        added += 1
        queue.extend(nodes[child].children)


def _allowed(number: str, filters: Filters) -> bool:
    """Whether a rule passes a search's section and chapter filters."""
    if filters.kind == "glossary":
        return False
    if filters.section and not number.startswith(filters.section):
        return False
    return not (filters.chapter and not number.startswith(filters.chapter))
