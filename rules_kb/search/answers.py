"""Answer-first ranking of a question's candidates (see :mod:`rules_kb.search.questions`).

The search index finds the texts that share words with a question; this module decides
which of them answers it. A question is a few concepts ("deathtouch", "trample"), each
a word, a phrase of the vocabulary, or a name the edition defines, and a rule answers
it as well as it covers them: the rarer the concept, the more it counts. Then:

- a rule that joins two of the question's concepts beats a rule about one;
- the rules a recognised concept governs (and their subrules) are lifted, and a
  concept counts as present in them even where their text does not repeat its name
  (702.2c, about deathtouch, speaks of "excess damage", not of trample);
- a heading ("Trample") stands for its best subrule, and a glossary definition comes
  after the rule that states the answer;
- an example speaks for its rule;
- a situation the question tells (words that come together: "in response", "sacrificed",
  "target") lifts the rules that answer it, like a concept of its own.

Everything here is plain Python over texts and stems; the caller runs the index.
"""

from __future__ import annotations

import contextlib
import hashlib
import math
import os
import pickle
import re
import sqlite3
import tempfile
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from functools import cache, lru_cache
from itertools import pairwise
from pathlib import Path
from typing import NamedTuple

from rules_kb.ingest.models import glossary_names
from rules_kb.search import questions as questions_module
from rules_kb.search.questions import (
    QUESTION_WORDS,
    Entry,
    Lexicon,
    Recognised,
    Situation,
    breaks,
    capitalised,
    cited_cards,
    name_runs,
    renumber,
    shown,
    situations,
    situations_in,
    tokens,
    vocabulary,
    vocabulary_digest,
    vocabulary_edition,
    vocabulary_lexicon,
)
from rules_kb.titles import TITLE_LENGTH, is_title

_CITED = re.compile(r"\b(\d{3}(?:\.\d+[a-z]{0,2})?)\b")
#: A range of subrules as a question writes it: "510.1c-d", "510.1c–e", "510.1c to e".
_LETTER_RANGE = re.compile(r"\b(\d{3}\.\d+)([a-y])\s*(?:-|\u2013|\u2014|to)\s*([b-z])\b")
#: Keyword abilities and actions, whose headings name a concept ("Deathtouch", "Scry").
_KEYWORD_CHAPTERS = ("701.", "702.")

#: How much each part of the evidence weighs (tuned on tests/fixtures/questions.toml's
#: development half; the held-out half is never used to choose them).
COVERAGE = 3.5
RELEVANCE = 3.3
LIFT = 2.1
JOINS = 0.25
HEADING = 2.25
PARENT = 0.2
GLOSSARY = 1.1
EXAMPLE = 0.8
LONG_TEXT = 0.17
#: How much more a named concept counts (a keyword, a term of the vocabulary) than a word.
NAMED = 1.5
#: How much a situation the question tells counts (see `situations` in vocabulary.toml),
#: as a share of the rest of the question.
SITUATION = 1.0
#: How much less a keyword's rule counts when the question does not name the keyword.
FOREIGN_KEYWORD = 1.0
#: How much a word written as a name mid-sentence counts ("Llanowar Elves"): a card's
#: name tells which card, rarely which rule.
CARD_NAME = 0.25
#: A glossary definition citing a whole chapter names its rules when the chapter holds at
#: most this many, itself included (a step: 514 Cleanup Step; not 302 Creatures).
SMALL_CHAPTER = 6
#: How much less a rule counts when it belongs to a setting the question does not name
#: (a multiplayer option, a casual variant, a predefined token).
ELSEWHERE = 1.5
#: How much a broad concept of the vocabulary lifts the rules it governs.
BROAD_LIFT = 1.0
#: The weight in the index query of a concept's other words, against the words as typed.
EXPANSION = 0.5
#: How much being cited by other rules counts.
CITED = 1.9
#: How much sharing the question's pairs of adjacent words counts ("a library with no
#: cards in it"), reaching its whole weight at PAIRS of them: the words of a rule as a
#: judge quotes it, function words included.
PHRASE = 0.3
PAIRS = 4
#: Subrules of one rule among the first answers, before other rules have had their turn.
PER_RULE = 2
#: The index finds candidates by at most RETRIEVE of a question's words, the rarest first,
#: reading at most about POSTINGS postings (the rest still count in the ranking); another
#: word for a concept names it only where it is in at most COMMON documents.
RETRIEVE = 12
POSTINGS = 6000
COMMON = 6000
#: BM25's parameters, and the length of a typical text in stems.
BM25_K1, BM25_B = 1.2, 0.75
AVERAGE_STEMS = 40.0
#: Candidates taken from the index, and subrules looked at per lifted rule.
CANDIDATES = 120
SUBTREE = 60


@dataclass(frozen=True, slots=True)
class Concept:
    """One thing a question asks about."""

    words: str
    """As typed ("etb", "deathtouch", "sacrificed")."""
    term: str | None
    """The name it was recognised as, or None for a plain word."""
    forms: tuple[tuple[str, ...], ...]
    """Its stemmed forms: a text containing any of them (in order) names it."""
    rules: tuple[str, ...] = ()
    """The rules it governs."""
    weight: float = 1.0
    """How much it counts: rare words more than common ones."""
    lift: float = 1.0
    """How much the rules it governs are lifted (less for a word of the setting)."""


@dataclass(slots=True)
class Node:
    """One rule of an edition, as ranking needs it."""

    number: str
    kind: str
    parent: str | None
    text_id: int
    children: list[str] = field(default_factory=list)


@dataclass(slots=True)
class Book:
    """An edition's rules tree and names, read once per process."""

    edition: str
    nodes: dict[str, Node]
    glossary: dict[str, tuple[int, tuple[str, ...]]]
    """Term -> (text id, the rules its definition cites)."""
    lexicon: Lexicon
    """The edition's glossary names and keyword headings, with the judge's vocabulary."""
    cited: dict[str, float] = field(default_factory=dict)
    """How often other rules cite each rule, 0 to 1 on a log scale."""
    settings: dict[str, frozenset[str]] = field(default_factory=dict)
    """The stems that name each section and chapter of the multiplayer rules and the
    casual variants ("903" Commander -> {"command"}; "8" -> {"multiplay"}), from their
    titles; section 6 held the multiplayer rules before 2009-07-11."""
    analysed: dict[int, list[str]] = field(default_factory=dict)
    """Stems of the texts ranked so far, by text id."""
    analyse: Callable[[str], list[str]] | None = None
    """The index's analyser."""
    paired: dict[int, frozenset[tuple[str, str]]] = field(default_factory=dict)
    """Pairs of adjacent words of the texts ranked so far, by text id."""
    situations: tuple[Situation, ...] = ()
    """The situations of the judge's vocabulary, their phrases stemmed by `analyse`."""

    def stems(self, text_id: int, text: str) -> list[str]:
        """A text's stems, analysed once per process."""
        found = self.analysed.get(text_id)
        if found is None:
            assert self.analyse is not None
            found = self.analysed[text_id] = self.analyse(text)
        return found

    def pairs(self, text_id: int, text: str) -> frozenset[tuple[str, str]]:
        """A text's pairs of adjacent words (see :func:`word_pairs`), read once per process."""
        found = self.paired.get(text_id)
        if found is None:
            found = self.paired[text_id] = word_pairs(text)
        return found


_ARTICLES = frozenset({"a", "an", "the"})


def word_pairs(text: str) -> frozenset[tuple[str, str]]:
    """The pairs of adjacent words of a text, lower case, a plural "s" dropped, but for
    pairs of two question words ("does it"): "no cards in it" -> (no, card), (card, in)."""
    found = [_singular(token) for token in tokens(text) if token not in _ARTICLES]
    return frozenset(
        (first, second)
        for first, second in pairwise(found)
        if first not in QUESTION_WORDS or second not in QUESTION_WORDS
    )


def _singular(token: str) -> str:
    return token[:-1] if len(token) > 3 and token.endswith("s") and token[-2] != "s" else token


def read_book(
    conn: sqlite3.Connection, edition_id: int, edition: str, analyse: Callable[[str], list[str]]
) -> Book:
    """The rules tree, glossary and names of one edition."""
    nodes: dict[str, Node] = {}
    for number, kind, parent, text_id in conn.execute(
        "SELECT number, kind, parent, text_id FROM rules WHERE edition_id = ? ORDER BY seq",
        [edition_id],
    ):
        if number in nodes:
            continue  # a repeated number: the first record answers for it
        nodes[number] = Node(number, kind, parent, int(text_id))
        if parent in nodes:
            nodes[parent].children.append(number)
    titles = [
        (str(text), str(number))
        for number, text in conn.execute(
            "SELECT r.number, t.text FROM rules r JOIN texts t ON t.id = r.text_id"
            " WHERE r.edition_id = ? AND r.kind = 'rule' AND (r.number LIKE '701.%'"
            " OR r.number LIKE '702.%') AND length(t.text) <= ?",
            [edition_id, TITLE_LENGTH],
        )
        if is_title(text)
    ]
    glossary: dict[str, tuple[int, tuple[str, ...]]] = {}
    told = situations(_single_stem(analyse))
    numbers = vocabulary_numbers(conn, edition_id, told)
    lexicon = vocabulary_lexicon().renumbered(numbers)
    told = tuple(replace(item, rules=renumber(item.rules, numbers)) for item in told)
    for term, text_id, text in conn.execute(
        "SELECT g.term, g.text_id, t.text FROM glossary g JOIN texts t ON t.id = g.text_id"
        " WHERE g.edition_id = ? ORDER BY g.seq",
        [edition_id],
    ):
        cited = tuple(dict.fromkeys(n for n in _CITED.findall(text) if n in nodes))
        glossary[term] = (int(text_id), cited)
        names = [name for name in glossary_names(term) if name.lower() not in QUESTION_WORDS]
        # A definition that sends the reader to a whole chapter ("Creature": see 302) names
        # a broad subject, not the rules that answer: only its words count; unless the
        # chapter is small ("Cleanup Step": see 514, four rules), when it is the answer.
        specific = tuple(
            number for number in cited if "." in number or _small(nodes, number, SMALL_CHAPTER)
        )
        lexicon.add(names, Entry(tuple(n.lower() for n in names), term, (), specific))
    for title, number in titles:
        lexicon.add([title], Entry((title.lower(),), title, (), (number,)))
    lexicon.sort()
    counts = {
        str(target): int(count)
        for target, count in conn.execute(
            "SELECT target, count(DISTINCT source_key) FROM refs WHERE edition_id = ?"
            " AND target_kind = 'rule' AND resolved = 1 GROUP BY target",
            [edition_id],
        )
    }
    most = math.log1p(max(counts.values(), default=1))
    cited_by = {number: math.log1p(count) / most for number, count in counts.items()}
    headings = {
        str(number): frozenset(analyse(str(text)))
        for number, text in conn.execute(
            "SELECT r.number, t.text FROM rules r JOIN texts t ON t.id = r.text_id"
            " WHERE r.edition_id = ? AND r.kind IN ('section', 'chapter')",
            [edition_id],
        )
    }
    # The sections of settings: "Multiplayer Rules" (6 before 2009-07-11, 8 since) and
    # "Casual Variants" (9), with their chapters.
    sections = {number for number, words in headings.items()
                if len(number) == 1 and words & _SETTING_SECTIONS}  # fmt: skip
    settings = {
        number: words - _GENERIC_TITLE_STEMS
        for number, words in headings.items()
        if number[:1] in sections
    }
    return Book(
        edition,
        nodes,
        glossary,
        lexicon,
        cited=cited_by,
        settings=settings,
        analyse=analyse,
        situations=told,
    )


def vocabulary_numbers(
    conn: sqlite3.Connection, edition_id: int, told: Sequence[Situation]
) -> dict[str, tuple[str, ...]]:
    """The rules of the judge's vocabulary and its situations, numbered as of the
    vocabulary's edition, as they are numbered in another edition: the record each one's
    line of descent reaches there in the stored lineage (702.19 Trample is 502.9 in
    2009-05-01), or nothing where the rule did not exist yet (or any more). Empty for the
    vocabulary's own edition, or a database without it (the numbers are read as given)."""
    from rules_kb.ingest.lineage import Lines

    anchor = conn.execute(
        "SELECT id, date FROM editions WHERE date = ?", [vocabulary_edition()]
    ).fetchone()
    if anchor is None or anchor[0] == edition_id:
        return {}
    wanted = sorted(
        {rule for entry in vocabulary() for rule in entry.rules}
        | {rule for item in told for rule in item.rules}
    )
    seqs = dict(
        conn.execute(
            f"SELECT number, seq FROM rules WHERE edition_id = ? AND number IN"
            f" ({', '.join('?' * len(wanted))}) ORDER BY seq DESC",  # (the first one stays)
            [anchor[0], *wanted],
        )
    )
    (date,) = conn.execute("SELECT date FROM editions WHERE id = ?", [edition_id]).fetchone()
    back = date < anchor[1]
    lines = Lines(conn)
    next_edition = lines.previous if back else lines.following
    at: dict[str, int] = dict(seqs)  # each rule's record in the edition reached so far
    here: int | None = anchor[0]
    while at and here is not None and here != edition_id:
        went = lines.steps("rule", here, at.values(), back=back)
        at = {rule: went[seq] for rule, seq in at.items() if seq in went}
        here = next_edition.get(here)
    if here != edition_id or not at:
        return dict.fromkeys(wanted, ())
    keys = dict(
        conn.execute(
            f"SELECT seq, number FROM rules WHERE edition_id = ? AND seq IN"
            f" ({', '.join('?' * len(at))})",
            [edition_id, *at.values()],
        )
    )
    return {rule: (str(keys[at[rule]]),) if rule in at else () for rule in wanted}


def _small(nodes: dict[str, Node], number: str, most: int) -> bool:
    """Whether a rule's subtree, itself included, holds at most `most` rules (counted only
    as far as that: a chapter of a hundred rules is not walked through)."""
    queue = [number] if number in nodes else []
    seen = 0
    while queue:
        seen += 1
        if seen > most:
            return False
        queue.extend(nodes[queue.pop()].children)
    return True


#: Words of the titles of the sections of settings, as stems.
_SETTING_SECTIONS = frozenset({"multiplay", "variant"})
#: Words of the multiplayer and variant titles that name no one setting ("Two-Headed Giant
#: Variant", "Attack Multiple Players Option"), as stems.
_GENERIC_TITLE_STEMS = frozenset(
    {"gener", "option", "variant", "rule", "casual", "two", "attack", "multipl", "player"}
    | {"left", "right", "creatur", "limit", "draft", "free", "all", "head"}
)


BOOK_FORMAT = 4
"""Raise it when what :func:`read_book` puts in a book changes by code outside this module
and the question reader (the index's analyser, the glossary's names): a change here or
there changes :func:`code_digest` already, and books saved before are read again."""


def book_key(index_stamp: str | None) -> str:
    """What a saved book must have been made from: this format and code, the index's
    database content and the judge's vocabulary."""
    return f"{BOOK_FORMAT} {code_digest()} {index_stamp} {vocabulary_digest()}"


@cache
def code_digest() -> str:
    """A digest of the code that makes a book (this module and the question reader): a
    book saved by another rules-kb is read again even where BOOK_FORMAT was not raised."""
    digest = hashlib.blake2b(digest_size=8)
    for name in (__file__, questions_module.__file__):
        try:
            digest.update(Path(name).read_bytes())
        except OSError:  # (no source beside the bytecode: the names must do)
            digest.update(name.encode("utf-8"))
    return digest.hexdigest()


def saved_book(folder: Path, edition: str, key: str) -> Book | None:
    """The book saved beside the search index for an edition, if it was made from `key`
    (a cold question reads it in a fifth of the time it takes to build); None if it is
    missing, stale or unreadable."""
    try:
        with (folder / f"book-{edition}.pickle").open("rb") as file:
            saved_key, book = pickle.load(file)
    except Exception:  # (a missing, partial or foreign file: build the book instead)
        return None
    if saved_key != key or not isinstance(book, Book) or book.edition != edition:
        return None
    return book


def save_book(folder: Path, book: Book, key: str) -> None:
    """Save a freshly read book beside the search index for the next process, atomically;
    a folder that cannot be written to is left alone (the next process reads it again)."""
    bare = Book(
        book.edition, book.nodes, book.glossary, book.lexicon, cited=book.cited,
        settings=book.settings, situations=book.situations,
    )  # fmt: skip
    try:
        handle, name = tempfile.mkstemp(dir=folder, prefix=".book-")
    except OSError:
        return
    try:
        with os.fdopen(handle, "wb") as file:
            pickle.dump((key, bare), file, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(name, folder / f"book-{book.edition}.pickle")
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(name)


def concepts(
    text: str,
    book: Book,
    stems: Callable[[str], list[str]],
    frequency: Callable[[str], int],
    documents: int,
) -> tuple[list[Concept], list[Recognised]]:
    """The concepts of a question, and the phrases recognised in it.

    `stems` analyses a text as the index does; `frequency` is a stem's document count."""
    found = tokens(text)
    marks = capitalised(text)
    recognised = _recognised(text, found, marks, book, stems)

    def weight(forms: Iterable[Sequence[str]]) -> float:
        """The idf of a form: of its rarest word (a phrase is at least that specific)."""
        found = [min(frequency(part) for part in form) for form in forms if form]
        return math.log(1 + documents / (1 + max(found, default=documents)))

    result: list[Concept] = []
    terms: set[str] = set()
    for item in recognised:
        if item.entry.term in terms:
            continue
        terms.add(item.entry.term)
        concept = _concept(item, stems, frequency, weight)
        if concept is not None:
            result.append(concept)
    covered = {at for item in recognised for at in range(item.start, item.end)}
    seen = {form for concept in result for form in concept.forms}
    # a symbol is asked about where nothing else is ("{C}", "what does {E} mean?")
    symbols_only = all(token[0] == "{" or token in QUESTION_WORDS for token in found)
    numbers = {token for token in found if "." in token and token in book.nodes}
    for start in _LETTER_RANGE.finditer(text):
        base, first, last = start.groups()
        for letter in map(chr, range(ord(first) + 1, ord(last) + 1)):
            number = base + letter
            if number in book.nodes and number not in numbers:
                # the numbers a range stands for between its ends ("510.1c-d": 510.1d)
                numbers.add(number)
                result.append(Concept(number, number, (), (number,), NAMED * weight([(number,)])))
    for at, token in enumerate(found):
        if at in covered or token in QUESTION_WORDS:
            continue
        if token[0] == "{" and not symbols_only:
            continue  # a card's cost or ability quoted ("({T}: Add {G})"), rarely the subject
        if token in numbers:
            # a rule number asked about ("what does 702.19b say?") names that rule (not a
            # chapter's bare number, which may be an amount: "100 damage")
            result.append(Concept(token, token, (), (token,), NAMED * weight([(token,)])))
            continue
        form = tuple(stems(token))
        if not form or form in seen or not all(frequency(part) for part in form):
            continue  # (a word the rules never use, such as a card's name, counts for nothing)
        seen.add(form)
        named = CARD_NAME if at < len(marks) and marks[at] else 1.0
        result.append(Concept(shown(token), None, (form,), (), named * weight([form])))
    # the situations it tells: concepts of their own, whose words still count as words
    told = situations_in(found, book.situations, _single_stem(stems))
    rest = sum(concept.weight for concept in result)
    for item in told:
        result.append(Concept(item.words, item.entry.term, (), item.entry.rules, SITUATION * rest))
        recognised.append(item)
    return result, recognised


def _recognised(
    text: str,
    found: list[str],
    marks: list[bool],
    book: Book,
    stems: Callable[[str], list[str]],
) -> list[Recognised]:
    """The lexicon's phrases in a question's tokens, less those that are a card's words: a
    term inside a longer name ("Shadow" of "Death's Shadow"), every word of a card cited
    in brackets, and a name that is a term only by its stem ("Exploration": explore)."""
    runs = name_runs(text, marks)
    cards = cited_cards(text)
    return [
        item
        for item in book.lexicon.recognise(found, normal=_single_stem(stems), ends=breaks(text))
        if not any(
            start <= item.start and item.end <= end and end - start > item.end - item.start
            for start, end in runs
        )
        and not any(start <= item.start < end for start, end in cards)
        and not (
            item.end - item.start == 1
            and item.start < len(marks)
            and marks[item.start]
            and not book.lexicon.spells(found[item.start])
        )
    ]


def _concept(
    item: Recognised,
    stems: Callable[[str], list[str]],
    frequency: Callable[[str], int],
    weight: Callable[[Iterable[Sequence[str]]], float],
) -> Concept | None:
    """The concept a recognised phrase names, with every form it may take in a rule; None
    if it has neither forms nor rules."""
    entry = item.entry
    forms = _forms((item.words,), stems) + tuple(
        # another word for it names it only where it is not a common word alone, nor
        # a phrase the analyser cut down to one word ("can't be targeted": "target")
        form
        for phrase in (*entry.words, *entry.means, entry.term)
        for form in _forms((phrase,), stems)
        if len(form) > 1 or (len(phrase.split()) == 1 and frequency(form[0]) <= COMMON)
    )
    forms = tuple(dict.fromkeys(forms))
    if not forms and not entry.rules:
        return None
    typed = _forms((item.words,), stems)
    if not typed or not all(frequency(part) for form in typed for part in form):
        typed = _forms((*entry.means[:1], entry.term), stems)[:1] or forms[:1]  # slang
    named = NAMED if entry.rules else 1.0
    return Concept(
        item.words,
        entry.term,
        forms,
        entry.rules,
        named * max(1.0, weight(typed)),
        lift=BROAD_LIFT if entry.broad else 1.0,
    )


@cache
def _single_stem(stems: Callable[[str], list[str]]) -> Callable[[str], str]:
    """A token's one stem ("" for none or several), by the analyser `stems`, each token
    analysed once per process."""

    @lru_cache(maxsize=65536)
    def normal(token: str) -> str:
        found = stems(token)
        return found[0] if len(found) == 1 else ""

    return normal


def _forms(
    phrases: Iterable[str], stems: Callable[[str], list[str]]
) -> tuple[tuple[str, ...], ...]:
    found: dict[tuple[str, ...], None] = {}
    for phrase in phrases:
        form = tuple(stems(phrase))
        if form:
            found[form] = None
    return tuple(found)


def governs(rule: str, number: str) -> bool:
    """Whether `number` is `rule` or inside it (702.2 governs 702.2c, not 702.20)."""
    if number == rule:
        return True
    if not number.startswith(rule):
        return False
    rest = number[len(rule)]
    return rest.isalpha() if "." in rule else rest == "."


class Evidence(NamedTuple):
    """What speaks for one candidate (see the module docstring); :func:`combine` weighs it."""

    coverage: float
    """The weighted share of the question's concepts it names or is governed by."""
    relevance: float
    """BM25 over the question's words, scaled to the best candidate's."""
    lifted: float
    """The weighted share of the concepts whose rules govern it."""
    joins: bool
    """It answers two or more of the concepts."""
    heading: bool
    """A heading's title ("Trample"), which stands for its subrules."""
    parent: bool
    """A rule with subrules."""
    glossary: bool
    """A glossary definition."""
    foreign: bool
    """A keyword's rule, and the question does not name that keyword."""
    length: float
    """How much longer than a typical rule it is (log of the excess)."""
    example: bool = False
    """An example, speaking for its rule."""
    cited: float = 0.0
    """How often the edition's other rules cite it, 0 to 1 (a log scale): the rules other
    rules lean on answer more questions."""
    pairs: float = 0.0
    """How many of the question's pairs of adjacent words it has, 0 to 1 (1 at PAIRS)."""
    elsewhere: bool = False
    """A rule of a setting the question does not name: a multiplayer option, a casual
    variant, or one of the predefined tokens (111.10a Treasure)."""


def combine(evidence: Evidence) -> float:
    """A candidate's score: its evidence, weighed."""
    score = (
        COVERAGE * evidence.coverage * evidence.coverage
        + RELEVANCE * evidence.relevance
        + LIFT * evidence.lifted
        + JOINS * evidence.joins
        - HEADING * evidence.heading
        - PARENT * (evidence.parent and not evidence.heading)
        - GLOSSARY * evidence.glossary
        - FOREIGN_KEYWORD * evidence.foreign
        - LONG_TEXT * evidence.length
        + CITED * evidence.cited
        + PHRASE * evidence.pairs
        - ELSEWHERE * evidence.elsewhere
    )
    return score * EXAMPLE if evidence.example else score


@dataclass(slots=True)
class Scored:
    """A candidate's score and the concepts it covers."""

    key: str
    """A rule number, or "g:" and a glossary term."""
    score: float
    matched: tuple[str, ...]
    evidence: Evidence


def has_form(text_stems: Sequence[str], present: set[str], form: tuple[str, ...]) -> bool:
    """Whether the stems contain the form, in order."""
    if len(form) == 1:
        return form[0] in present
    if not all(part in present for part in form):
        return False
    width = len(form)
    return any(tuple(text_stems[at : at + width]) == form for at in range(len(text_stems)))


def score_text(
    key: str,
    text: str,
    text_stems: Sequence[str],
    asked: Sequence[Concept],
    *,
    relevance: float,
    heading: bool,
    parent: bool,
    glossary: bool,
    example: bool = False,
    cited: float = 0.0,
    pairs: int = 0,
    settings: Settings | None = None,
) -> Scored:
    """One candidate's score: the share of the question it covers, weighted, and the rest
    of the evidence (see the module docstring)."""
    present = set(text_stems)
    total = sum(concept.weight for concept in asked) or 1.0
    matched: list[str] = []
    covered = lifted = 0.0
    for concept in asked:
        governed = not glossary and any(governs(rule, key) for rule in concept.rules)
        named = any(has_form(text_stems, present, form) for form in concept.forms)
        if named or governed:
            matched.append(concept.words)
            covered += concept.weight
        if governed:
            lifted += concept.lift * concept.weight / total
    foreign = key.startswith(_KEYWORD_CHAPTERS) and not any(
        governs(_keyword_rule(rule), key) or governs(_keyword_rule(key), rule)
        for concept in asked
        for rule in concept.rules
    )
    evidence = Evidence(
        coverage=covered / total,
        relevance=relevance,
        lifted=lifted,
        joins=len(matched) >= 2,
        heading=heading,
        parent=parent,
        glossary=glossary,
        foreign=foreign,
        length=long_text(text),
        example=example,
        cited=cited,
        pairs=min(pairs, PAIRS) / PAIRS,
        elsewhere=settings is not None and elsewhere(key, settings),
    )
    return Scored(key, combine(evidence), tuple(matched), evidence)


def long_text(text: str) -> float:
    """How much longer than a typical rule a text is: the log of its excess over 400
    characters, 0 below."""
    return math.log(len(text) / 400) if len(text) > 400 else 0.0


class Settings(NamedTuple):
    """The settings of an edition and those a question names (see :func:`elsewhere`)."""

    sections: frozenset[str] = frozenset()
    """The sections of settings: the multiplayer rules and the casual variants."""
    named: frozenset[str] = frozenset()
    """The sections, chapters and predefined tokens the question names."""


def settings_named(asked: Sequence[Concept], book: Book) -> Settings:
    """The settings a question names: the sections and chapters of the multiplayer rules
    and casual variants whose titles share a stem with it or hold a rule its concepts
    govern (a section's general chapter, 800, stands for the whole section), and the
    predefined tokens its concepts govern ("111.10a")."""
    sections = frozenset(key for key in book.settings if len(key) == 1)
    stems = {part for concept in asked for form in concept.forms for part in form}
    named = {key for key, words in book.settings.items() if words & stems}
    for concept in asked:
        for rule in concept.rules:
            if rule[:1] in sections:
                named.add(rule.split(".")[0])
            elif rule.startswith(_TOKEN_TYPES):
                named.add(rule)
    named |= {key[:1] for key in named if key[:1] in sections and key[1:] in ("", "00")}
    return Settings(sections, frozenset(named))


def elsewhere(key: str, settings: Settings) -> bool:
    """Whether a rule belongs to a setting the question does not name: a section or
    chapter of the multiplayer rules or casual variants, or a predefined token (111.10a)."""
    if key.startswith("g:"):
        return False
    named = settings.named
    if key[:1] in settings.sections:
        return key[:1] not in named and key.split(".")[0] not in named and key not in named
    if key.startswith(_TOKEN_TYPES) and len(key) > len(_TOKEN_TYPES):
        return key not in named and _TOKEN_TYPES not in named
    return False


#: The rule of the predefined tokens, each one a subrule (111.10a Treasure).
_TOKEN_TYPES = "111.10"


def _keyword_rule(number: str) -> str:
    """The rule a keyword's subrule belongs to: 702.19b -> 702.19."""
    return number.rstrip("abcdefghijklmnopqrstuvwxyz")


def family(key: str) -> str:
    """The rule a candidate belongs to, for variety: 702.19b and 702.19 -> 702.19."""
    if key.startswith("g:"):
        return key
    return _keyword_rule(key)


def asked_stems(asked: Sequence[Concept]) -> Iterator[tuple[str, float, float]]:
    """Every stem of the question's concepts: (stem, its concept's weight, its share: 1 for
    the words as typed, EXPANSION for the concept's other words)."""
    for concept in asked:
        for at, form in enumerate(concept.forms):
            share = 1.0 if at == 0 else EXPANSION
            for part in form:
                yield part, concept.weight, share


class Relevance:
    """BM25 of a text for a question's words: each concept's stems, weighted as the
    concept (a word of the vocabulary's `means` at EXPANSION of it)."""

    __slots__ = ("weights",)

    def __init__(
        self, asked: Sequence[Concept], frequency: Callable[[str], int], documents: int
    ) -> None:
        self.weights: dict[str, float] = {}
        for part, _weight, share in asked_stems(asked):
            idf = math.log(1 + (documents - frequency(part) + 0.5) / (frequency(part) + 0.5))
            weight = share * max(0.0, idf)
            self.weights[part] = max(self.weights.get(part, 0.0), weight)

    def __call__(self, text_stems: Sequence[str]) -> float:
        if not text_stems:
            return 0.0
        counts: dict[str, int] = {}
        for part in text_stems:
            if part in self.weights:
                counts[part] = counts.get(part, 0) + 1
        norm = BM25_K1 * (1 - BM25_B + BM25_B * len(text_stems) / AVERAGE_STEMS)
        return sum(
            self.weights[part] * count * (BM25_K1 + 1) / (count + norm)
            for part, count in counts.items()
        )
