"""Full-text search over the Whoosh index (see :mod:`rules_kb.search.index`).

Queries are Whoosh's from end to end: parsed by ``whoosh.qparser`` (a MultifieldParser
over rule numbers, terms and text with their field boosts; words, "phrases",
AND/OR/NOT, parentheses, prefix*, wild?cards, and fuzzy~, fuzzy~2 and fuzzy~2/0 by a
FuzzyTermPlugin whose first letter must match unless told otherwise), matched and
scored with BM25F by a Whoosh searcher. Every word must match; a plain query of words
also scores extra where they stand together (a Whoosh phrase, ANDMAYBE); misspelled
words are corrected first (did-you-mean, from the word list of the filters file); when
nothing has every word, the words of a question are left out, then any word will do
(Whoosh's OrGroup, where documents with more of the words rank higher).

A filter (edition, kind, section, chapter) is a set of document numbers from the
memory-mapped filters file: it narrows each term's postings before Whoosh combines
them, so phrases and intersections are checked on one edition's documents, and it is
Whoosh's collector filter too. Hits read their text from the database, in the
caller's read transaction, and are highlighted from it; :func:`answer` checks the
index's stamp after the search, so a search never answers from an index that
disagrees with the database. An :class:`Engine` keeps the open searcher, its parsers
and the filter sets for the life of a process; it is reopened when the index folder
changes.

Whoosh is imported lazily, in functions: a cold `rules-kb rule` never pays for it.
"""

from __future__ import annotations

import heapq
import math
import os
import pickle
import re
import sqlite3
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator
from functools import cache
from itertools import islice
from pathlib import Path
from typing import Any, TypeVar

from rules_kb.errors import BadSearchQuery, SearchIndexError
from rules_kb.ingest.readonly import texts as read_texts
from rules_kb.records.search import Filters as Filters
from rules_kb.records.search import Hit as Hit
from rules_kb.records.search import Match, Recognition
from rules_kb.records.search import Results as Results
from rules_kb.search.index import (
    EDITIONS_FILE as EDITIONS_FILE,
)
from rules_kb.search.index import (
    FIELD_BOOSTS,
    TOKEN,
    Reader,
    field_types,
    filters_from_index,
    mask_bits,
    read_filters,
    reading,
    schema,
    stem,
    whoosh_module,
)
from rules_kb.search.index import (
    ORPHAN_SECONDS as ORPHAN_SECONDS,
)
from rules_kb.search.index import (
    Document as Document,
)
from rules_kb.search.index import (
    Kind as Kind,
)
from rules_kb.search.index import (
    UpdateReport as UpdateReport,
)
from rules_kb.search.index import (
    build as build,
)
from rules_kb.search.index import (
    clean_staging as clean_staging,
)
from rules_kb.search.index import (
    document_sources as document_sources,
)
from rules_kb.search.index import (
    documents as documents,
)
from rules_kb.search.index import (
    ensure_index as ensure_index,
)
from rules_kb.search.index import (
    stems as stems,
)
from rules_kb.search.questions import (
    is_question,
    is_syntax,
    may_be_copied,
    plain_text,
    tokens,
)
from rules_kb.search.ranking import ranked as rank_question
from rules_kb.search.stamp import FORMAT_FILE as FORMAT_FILE
from rules_kb.search.stamp import STAMP_FILE as STAMP_FILE
from rules_kb.search.stamp import content_stamp as content_stamp
from rules_kb.search.stamp import index_dir as index_dir
from rules_kb.search.stamp import is_fresh as is_fresh
from rules_kb.search.stamp import stamp_of as stamp_of
from rules_kb.typography import fold

_T = TypeVar("_T")

MARK_OPEN, MARK_CLOSE = "<b>", "</b>"
ELLIPSIS = "…"
PHRASE_BOOST = 2.0
#: Whoosh's BM25F defaults, which the scores have always used.
BM25_B, BM25_K1 = 0.75, 1.2
#: Bounds on hostile queries: each answers or fails in well under a second.
MAX_QUERY_CHARS = 1000
MAX_FUZZY_EDITS = 2
MAX_NESTING = 20
MIN_PATTERN_LETTERS = 2
MAX_EXPANSIONS = 1000
MAX_CORRECTIONS = 8
#: When nothing has every word, any of at most this many of them (the rarest) will do.
MAX_ANY_WORDS = 24
#: Plain words score extra where they stand together, for queries of up to this many.
MAX_PHRASE_WORDS = 32
#: Highlights: texts up to WHOLE_TEXT characters are shown whole; longer ones as up to
#: two fragments of about FRAGMENT_CHARS around the densest matches.
WHOLE_TEXT = 240
FRAGMENT_CHARS = 200
CONTEXT_CHARS = 50
FRAGMENTS = 2
MAX_ENGINES = 4
#: Editions whose rules tree an engine keeps for questions, and (filter, word) posting
#: lists it keeps.
MAX_BOOKS = 8
MAX_POSTED = 4096
#: Texts whose stems and word pairs an engine keeps for questions, across editions (a text
#: id is the same text in every edition that prints it): about every text of the index.
MAX_ANALYSED = 30_000
#: What a question's card names are told back as: the rules hold no card's text.
CARDS_TERM = "cards named; the rules hold no card's text: say what a card does to find its rules"

_WORD = re.compile(r"[A-Za-z][A-Za-z']*[A-Za-z]|[A-Za-z]")  # in a folded query, ’ is '
_SYNTAX = re.compile(r"[*?~]")
_OPERATORS = {"AND", "OR", "NOT", "ANDNOT", "ANDMAYBE", "TO"}
#: Words of a question asked in plain English ("what happens when a player concedes"):
#: the rules rarely contain them next to the words that matter.
_QUESTION_WORDS = {
    "what", "happens", "happen", "when", "how", "does", "do", "did", "why", "which",
    "who", "whom", "whose", "where", "is", "are", "was", "were", "can", "could", "should",
    "would", "i", "my", "me", "if", "there", "it", "its", "a", "an", "the",
}  # fmt: skip


# the engine: one open index per process ---------------------------------------------


class Engine:
    """An open index, reused by every search of a process (an MCP server answers many):
    one Whoosh searcher with BM25F, the query parsers, the filters file and the filter
    sets made from it."""

    def __init__(self, folder: Path) -> None:
        field_types()  # the schema names rules-kb's field types
        index, scoring = whoosh_module("index"), whoosh_module("scoring")
        self.folder = folder
        self.identity = _identity(folder)
        try:
            self.ix = index.open_dir(str(folder))
            weighting = scoring.BM25F(B=BM25_B, K1=BM25_K1)
            reader = self.ix.reader()
            self.searcher: Any = _searcher()(reader, fromindex=self.ix, weighting=weighting)
        except FileNotFoundError as error:  # a build swapping its index in: try again
            raise IndexChanging(f"the search index at {folder} changed while opening") from error
        except (OSError, index.EmptyIndexError, pickle.UnpicklingError, ImportError) as error:
            # An unreadable table of contents, or a schema naming types that are gone.
            raise SearchIndexError(f"cannot open the search index at {folder}: {error}") from error
        self.reader: Reader = self.searcher.reader()
        self.lock = threading.Lock()
        self.leaves: list[tuple[Reader, int]] = list(self.reader.leaf_readers())
        try:
            self.filters = read_filters(folder, self.reader) or filters_from_index(
                folder, self.reader
            )
        except Exception as error:  # (whoosh's reader fails in many ways on files replaced)
            self.searcher.close()
            raise IndexChanging(f"the search index at {folder} changed while opening") from error
        self._bases: dict[Filters, set[int] | None] = {}
        self._lexicons: dict[str, list[str]] = {}
        self._books: dict[str, Any] = {}
        self._posted: dict[tuple[Filters, str], list[int]] = {}
        self._analysed: dict[int, list[str]] = {}
        self._paired: dict[int, frozenset[tuple[str, str]]] = {}

    def close(self) -> None:
        """Release the index files."""
        self.searcher.close()
        self.filters.close()

    @property
    def documents(self) -> int:
        """How many documents the index holds (the vocabulary aside)."""
        return len(self.filters.docs("all"))

    def search(
        self, conn: sqlite3.Connection, text: str, filters: Filters, *, limit: int = 10
    ) -> Results:
        """Run one query: every word must match; misspelled words are corrected; if nothing
        has every word, plain words are tried again as alternatives (best match first).

        A query in plain language is read as words (its punctuation is never syntax), and a
        question is answered by :meth:`ask`. Texts are read through `conn`, inside its
        transaction (or one begun here)."""
        cleaned, question = read_query(text)
        if question and filters.edition:
            copied = (
                self._copied(conn, text, cleaned, filters, limit) if may_be_copied(text) else None
            )
            return copied or self.ask(conn, text, filters, limit=limit)
        _check_nesting(cleaned)
        with self.lock, reading(conn):
            base = self.base(filters)
            if base is not None and not base:  # (whoosh reads an empty filter as none)
                return Results(text, filters, 0, (), None)
            suggestion = suggest(self, cleaned)
            wanted = suggestion or cleaned
            # (query run, spelling suggestion shown, how much of the query had to match)
            tries: list[tuple[str, str | None, Match]] = [(wanted, suggestion, "all")]
            if suggestion:
                tries.append((cleaned, None, "all"))
            plain = _plain_words(cleaned)
            if plain and not filters.edition:
                essential = _without_question_words(wanted)
                if essential:
                    tries.append((essential, suggestion, "most"))
                tries.append((wanted, suggestion, "any"))
            for query_text, shown, match in tries:
                query = self.query(query_text, any_word=match == "any")
                if query is None:
                    continue
                found = self._collect(query, base, limit)
                if found.scored_length():
                    hits = self._hits(conn, query, found)
                    return Results(text, filters, len(found), hits, shown, match)
        if plain and filters.edition:
            # Nothing has every word ("deathtouch trample"): answer it as a question.
            return self.ask(conn, text, filters, limit=limit)
        return Results(text, filters, 0, (), None)

    def _copied(
        self, conn: sqlite3.Connection, text: str, cleaned: str, filters: Filters, limit: int
    ) -> Results | None:
        """The texts that hold a described situation word for word, or None: such a
        "situation" is a passage copied from the rules (a fragment not ending as a sentence
        does), and the texts it was copied from are what is looked for."""
        words = stems(cleaned)
        if not 2 <= len(words) <= MAX_PHRASE_WORDS:
            return None
        query = whoosh_module("query").Phrase("text", words)
        with self.lock, reading(conn):
            base = self.base(filters)
            if base is not None and not base:
                return None
            found = self._collect(query, base, limit)
            if not found.scored_length():
                return None
            return Results(text, filters, len(found), self._hits(conn, query, found), None, "all")

    def ask(
        self, conn: sqlite3.Connection, text: str, filters: Filters, *, limit: int = 10
    ) -> Results:
        """Answer a plain-language question from one edition: the index finds the texts that
        share its words and concepts, and :mod:`rules_kb.search.answers` ranks them answer first."""
        from rules_kb.search import answers

        edition = filters.edition
        assert edition is not None  # (questions are asked of one edition)
        with self.lock, reading(conn):
            book = self.book(conn, edition)
            base = self.base(filters)
            asked, recognised = answers.concepts(
                text, book, stems, self._frequency, max(1, self.documents)
            )
            recognition = tuple(
                Recognition(item.words, item.entry.term, item.entry.rules)
                for item in recognised
                if item.entry.rules or item.words != item.entry.term.lower()
            ) + self._cards(text, recognised)
            if not asked or (base is not None and not base):
                return Results(text, filters, 0, (), None, "question", recognition)
            relevance = self._relevance(asked, filters)
            documents = max(1, self.documents)
            ranked = rank_question(
                conn, book, asked, relevance, filters, self.filters, self._frequency, documents,
                answers.word_pairs(text),
            )  # fmt: skip
            shown = ranked[:limit]
            marked = frozenset(part for concept in asked for form in concept.forms for part in form)
            texts = read_texts(conn, (text_id for _scored, _kind, text_id in shown))
            hits = tuple(
                Hit(
                    kind,
                    scored.key.removeprefix("g:"),
                    texts.get(text_id, ""),
                    scored.score,
                    highlight(texts.get(text_id, ""), marked),
                    (edition,),
                    scored.matched,
                )
                for scored, kind, text_id in shown
            )
            return Results(text, filters, len(ranked), hits, None, "question", recognition)

    def book(self, conn: sqlite3.Connection, edition: str) -> Any:
        """An edition's rules tree and names (see :func:`rules_kb.search.answers.read_book`), read
        once per engine, and saved beside the index for the next process."""
        from rules_kb.search import answers

        found = self._books.get(edition)
        if found is None:
            row = conn.execute("SELECT id FROM editions WHERE date = ?", [edition]).fetchone()
            if row is None:
                raise SearchIndexError(f"no edition {edition} in the database")
            if len(self._books) >= MAX_BOOKS:
                self._books.clear()
            key = answers.book_key(self.identity[2])
            found = answers.saved_book(self.folder, edition, key)
            if found is None:
                found = answers.read_book(conn, int(row[0]), edition, stems)
                answers.save_book(self.folder, found, key)
            found.analyse = stems
            if len(self._analysed) + len(self._paired) >= 2 * MAX_ANALYSED:
                self._analysed.clear()
                self._paired.clear()
            # every book reads its texts' stems and pairs through the engine's, so that a
            # text analysed for one edition is not analysed again for the next
            found.analysed, found.paired = self._analysed, self._paired
            self._books[edition] = found
        return found

    def _postings(self, word: str, filters: Filters) -> list[int]:
        """The documents a filter allows whose text has `word`, kept for the next questions
        (the same words recur: reading a posting list is most of a question's time)."""
        key = (filters, word)
        base = self.base(filters)
        found = self._posted.get(key)
        if found is None:
            docs = self.reader.postings("text", word).all_ids()
            found = [doc for doc in docs if base is None or doc in base]
            if len(self._posted) >= MAX_POSTED:
                self._posted.clear()
            self._posted[key] = found
        return found

    def _cards(self, text: str, recognised: list[Any]) -> tuple[Recognition, ...]:
        """The cards a question names, told back as one thing recognised: the rules hold no
        card's text, so an asker learns to say what a card does ("loses all abilities")."""
        from rules_kb.search import questions

        covered = {
            at
            for item in recognised
            if questions.SITUATION_JOIN not in item.words  # (a situation's stand apart)
            for at in range(item.start, item.end)
        }
        names = questions.card_names(
            text, covered, lambda token: any(self._frequency(part) for part in stems(token))
        )
        return (Recognition("; ".join(names), CARDS_TERM, ()),) if names else ()

    def _frequency(self, stem_text: str) -> int:
        return int(self.reader.doc_frequency("text", stem_text))

    def _relevance(self, asked: list[Any], filters: Filters) -> dict[int, float]:
        """The documents (of `base`) that contain the question's rarer words, the
        answers.CANDIDATES best by the summed weights of the words they contain.

        Only the postings' document numbers are read: answers.Relevance scores the
        candidates over all of the question's words."""
        from rules_kb.search import answers

        words: dict[str, float] = {}
        for part, weight, share in answers.asked_stems(asked):
            words[part] = max(words.get(part, 0.0), weight * share)
        # Common words ("creature") would bring in thousands of documents; they still
        # count in the ranking.
        rare = [word for word in sorted(words, key=self._frequency) if self._frequency(word)]
        kept: list[str] = []
        postings = 0
        for word in rare:
            postings += self._frequency(word)
            if len(kept) >= answers.RETRIEVE or (postings > answers.POSTINGS and len(kept) >= 2):
                break
            kept.append(word)
        found: dict[int, float] = {}
        documents = max(1, self.documents)
        for word in kept:
            weight = words[word] * math.log(1 + documents / (1 + self._frequency(word)))
            for docnum in self._postings(word, filters):
                found[docnum] = found.get(docnum, 0.0) + weight
        best = heapq.nlargest(answers.CANDIDATES, found.items(), key=lambda item: item[1])
        return dict(best)

    def _collect(self, query: Any, base: set[int] | None, limit: int) -> Any:
        """Whoosh's results of a query: the best `limit` documents of `base` (every
        document, if None), and how many matched. Whoosh's top-N shortcuts are off (block
        quality skipping, replacing matchers as the scores rise): they leave the number
        of matches uncounted or wrong, and counting them apart costs a second pass."""
        collectors = whoosh_module("collectors")
        top = collectors.TopCollector(limit, usequality=False, replace=0)
        collector = top if base is None else collectors.FilterCollector(top, allow=base)
        self.searcher.narrow(base)
        self.searcher.search_with_collector(query, collector)
        return collector.results()

    def query(self, text: str, *, any_word: bool = False) -> Any:
        """The Whoosh query of a search: words must all match (with `any_word`, any of
        them) in number, term or text; "phrases", AND, OR, NOT, ( ), prefix*, wild?card,
        fuzzy~ and fuzzy~2. Plain words also score extra where they stand together, in
        that order. None when nothing is left to search for (only stop words)."""
        query = whoosh_module("query")
        parsed = parser(any_word).parse(text)
        if parsed is query.NullQuery or isinstance(parsed, type(query.NullQuery)):
            return None
        self._check(parsed)
        fuzzy = query.FuzzyTerm
        parsed = parsed.accept(lambda node: self._near(node) if isinstance(node, fuzzy) else node)
        if any_word and isinstance(parsed, query.Or) and len(parsed.subqueries) > MAX_ANY_WORDS:
            parsed = query.Or(self._rarest(parsed.subqueries), scale=parsed.scale)
        if _plain_words(text):
            words = stems(text)
            if 2 <= len(words) <= MAX_PHRASE_WORDS:
                parsed = query.AndMaybe(parsed, query.Phrase("text", words, boost=PHRASE_BOOST))
        return parsed

    def _rarest(self, words: list[Any]) -> list[Any]:
        """The MAX_ANY_WORDS parts of an any-word query found in the fewest documents (but
        some), each once: a pasted page must not make Whoosh score every document by a
        hundred words."""
        reader = self.reader

        def frequency(word: Any) -> int:
            return sum(reader.doc_frequency(name, text) for name, text in word.iter_all_terms())

        found = [(frequency(word), at, word) for at, word in enumerate(dict.fromkeys(words))]
        return [word for _n, _at, word in sorted(item for item in found if item[0])][:MAX_ANY_WORDS]

    def _near(self, fuzzy: Any) -> Any:
        """A FuzzyTerm as the OR of the field's terms within its edits (and its prefix),
        each scored as a term: rapidfuzz over the field's terms, listed once, where
        Whoosh's automaton over the term file took 100-600 ms a word."""
        query = whoosh_module("query")
        name, word = fuzzy.fieldname, fuzzy.text
        terms = self._lexicons.get(name)
        if terms is None:
            terms = self._lexicons[name] = [_text(term) for term in self.reader.lexicon(name)]
        start = word[: fuzzy.prefixlength]
        choices = [term for term in terms if term.startswith(start)] if start else terms
        near = sorted({word, *_within(word, choices, fuzzy.maxdist)})
        return query.Or([query.Term(name, term, boost=fuzzy.boost) for term in near])

    def _check(self, parsed: Any) -> None:
        """BadSearchQuery for a query beyond the bounds (see :func:`check_bounds`)."""
        check_bounds(parsed, self.reader)

    def base(self, filters: Filters) -> set[int] | None:
        """The documents a filter allows (None, for all of them, without one)."""
        if filters not in self._bases:
            names = []
            if filters.edition:
                names.append(f"e:{filters.edition}")
            if filters.kind:
                names.append(f"k:{filters.kind}")
            if filters.section:
                names.append(f"s:{filters.section}")
            if filters.chapter:
                names.append(f"c:{filters.chapter}")
            sets = sorted((self.filters.docs(name) for name in names), key=len)
            if len(self._bases) > 64:
                self._bases.clear()
            self._bases[filters] = set(sets[0].intersection(*sets[1:])) if sets else None
        return self._bases[filters]

    def _hits(self, conn: sqlite3.Connection, query: Any, found: Any) -> tuple[Hit, ...]:
        """The shown hits, their texts read from the database and highlighted."""
        best = [(hit.docnum, hit.score) for hit in found]
        records = [self.filters.record(docnum) for docnum, _score in best]
        texts = read_texts(conn, (record.text_id for record in records))
        terms = query.existing_terms(self.reader, phrases=True, expand=True)
        marked = frozenset(_text(term) for _name, term in terms)
        hits = []
        for (_docnum, score), record in zip(best, records, strict=True):
            text = texts.get(record.text_id, "")
            editions = tuple(self.filters.dates[bit] for bit in mask_bits(record.mask))
            hits.append(
                Hit(record.kind, record.label, text, score, highlight(text, marked), editions)
            )
        return tuple(hits)


_SEARCHER: list[type] = []


def _searcher() -> type:
    """Whoosh's Searcher, made to narrow every term's postings to the documents a filter
    allows before they are combined, so that intersections and phrase checks run over one
    edition's documents rather than all editions' (Whoosh applies `filter=` to the
    matches only). The filter is applied to the matches too: a NOT alone matches without
    postings."""
    if _SEARCHER:
        return _SEARCHER[0]
    searching, wrappers = whoosh_module("searching"), whoosh_module("matching.wrappers")

    class NarrowingSearcher(searching.Searcher):  # type: ignore[misc, name-defined]
        narrowed: set[int] | None = None
        """This searcher's (segment's) document numbers that a search may match."""

        def postings(self, fieldname: str, text: bytes, weighting: Any = None, qf: int = 1) -> Any:
            found = super().postings(fieldname, text, weighting=weighting, qf=qf)
            allowed = self.narrowed
            return found if allowed is None else wrappers.FilterMatcher(found, allowed)

        def narrow(self, allowed: set[int] | None) -> None:
            """Narrow the postings of the next searches to `allowed` (None: every document)."""
            if allowed is self.narrowed:
                return
            self.narrowed = allowed
            for sub, offset in self.subsearchers or []:
                end = offset + sub.reader().doc_count_all()
                if allowed is None:
                    sub.narrowed = None
                else:
                    sub.narrowed = {d - offset for d in allowed if offset <= d < end}

    _SEARCHER.append(NarrowingSearcher)
    return NarrowingSearcher


def check_bounds(parsed: Any, reader: Reader | None = None) -> None:
    """BadSearchQuery for fuzziness beyond MAX_FUZZY_EDITS and for wildcards too broad:
    too few letters, or (given the index's `reader`) more than MAX_EXPANSIONS words."""
    query = whoosh_module("query")
    for node in _nodes(parsed):
        if isinstance(node, query.FuzzyTerm):
            if node.maxdist > MAX_FUZZY_EDITS:
                written = f"{node.text}~{node.maxdist}"
                raise BadSearchQuery(
                    f"{written!r} asks for {node.maxdist} edits; fuzzy"
                    f" matching allows at most {MAX_FUZZY_EDITS} (write word~ or word~2)"
                )
        elif isinstance(node, query.Every):
            raise BadSearchQuery(
                f"'*' is too broad: a wildcard needs at least {MIN_PATTERN_LETTERS} letters"
            )
        elif isinstance(node, (query.Prefix, query.Wildcard)):
            written = node.text + ("*" if isinstance(node, query.Prefix) else "")
            if sum(1 for char in written if char not in "*?") < MIN_PATTERN_LETTERS:
                raise BadSearchQuery(
                    f"{written!r} is too broad: a wildcard needs at least"
                    f" {MIN_PATTERN_LETTERS} letters"
                )
            if reader is None:
                continue
            expansions = node.expanded_terms(reader)
            if sum(1 for _ in islice(expansions, MAX_EXPANSIONS + 1)) > MAX_EXPANSIONS:
                raise BadSearchQuery(
                    f"{written!r} matches more than {MAX_EXPANSIONS:,} words; give more letters"
                )


def refuse_early(text: str) -> None:
    """BadSearchQuery for what no index could answer (too long, empty, nested too deep,
    too fuzzy, a wildcard too broad), said before any index is opened or built."""
    cleaned, question = read_query(text)
    if question:
        return  # (a question is read as words: nothing in it is syntax to check)
    _check_nesting(cleaned)
    check_bounds(parser(any_word=False).parse(cleaned))


def read_query(text: str) -> tuple[str, bool]:
    """The query as the parser should read it, and whether it is a question.

    A query written as syntax is kept as written; plain language loses the punctuation a
    parser would misread (`work?`, `(remark)`, `"dies"`, `1/1`), so it never fails or
    matches nothing by accident. A query of punctuation alone is BadSearchQuery."""
    cleaned = checked_query(text)
    if not any(char.isalnum() for char in cleaned):
        # "?", "...", "(?": punctuation alone is no wildcard and no search.
        raise BadSearchQuery("nothing to search for: the query has no words or rule numbers")
    if is_syntax(cleaned):
        return cleaned, False
    return plain_text(cleaned) or " ".join(tokens(cleaned)), is_question(cleaned)


def _nodes(query: Any) -> Iterator[Any]:
    """A Whoosh query and every query inside it."""
    yield query
    for child in query.children():
        yield from _nodes(child)


@cache
def parser(any_word: bool) -> Any:
    """The query parser of every search in this process (see :func:`_parser`): made once,
    over the schema every current index is built with (its format file says so)."""
    return _parser(schema(), any_word)


def _parser(schema: Any, any_word: bool) -> Any:
    """Whoosh's query parser over number, term and text, with the syntax rules-kb offers:
    words, "phrases", AND/OR/NOT/ANDNOT/ANDMAYBE, ( ), prefix*, wild?card, fuzzy~N/prefix.
    Field names, ranges, ^boosts and single quotes are not syntax (rule texts have
    colons, brackets and apostrophes)."""
    qparser = whoosh_module("qparser")
    group = qparser.OrGroup.factory(0.9) if any_word else qparser.AndGroup
    parser = qparser.MultifieldParser(
        list(FIELD_BOOSTS), schema, fieldboosts=FIELD_BOOSTS, group=group
    )
    for plugin in (
        qparser.SingleQuotePlugin,
        qparser.FieldsPlugin,
        qparser.RangePlugin,
        qparser.BoostPlugin,
        qparser.EveryPlugin,
    ):
        parser.remove_plugin_class(plugin)
    parser.add_plugin(_fuzzy_plugin()())
    return parser


def _fuzzy_plugin() -> type:
    """Whoosh's FuzzyTermPlugin, where the first letter must match unless word~N/0 says
    otherwise (its own default is no prefix, and it reads no /0)."""
    plugins, rcompile = whoosh_module("qparser.plugins"), whoosh_module("util.text").rcompile

    class FuzzyPlugin(plugins.FuzzyTermPlugin):  # type: ignore[misc, name-defined]
        expr = rcompile(r"(?<=\S)~(?P<maxdist>[0-9]+)?(/(?P<prefix>[0-9]+))?")

        def create(self, parser: Any, match: Any) -> Any:
            node = super().create(parser, match)
            if match.group("prefix") is None:
                node.prefixlength = 1
            return node

    return FuzzyPlugin


def _check_nesting(text: str) -> None:
    """BadSearchQuery for parentheses nested more than MAX_NESTING deep (outside quotes)."""
    depth = deepest = 0
    for part in re.sub(r'"[^"]*"?', " ", text):
        if part == "(":
            depth += 1
            deepest = max(deepest, depth)
        elif part == ")":
            depth = max(0, depth - 1)
    if deepest > MAX_NESTING:
        raise BadSearchQuery(f"the search query nests parentheses more than {MAX_NESTING} deep")


def _identity(folder: Path) -> tuple[int, int, str | None, tuple[str, ...]]:
    """What tells one state of the index folder from another: the folder itself (a build
    swaps in a new one), its stamp and its tables of contents (an update writes both)."""
    try:
        info = folder.stat()
        tocs = tuple(sorted(n for n in os.listdir(folder) if n.endswith(".toc")))
    except FileNotFoundError as error:  # a build swapping its index in: try again
        raise IndexChanging(f"the search index at {folder} changed while opening") from error
    except OSError as error:
        raise SearchIndexError(f"cannot open the search index at {folder}: {error}") from error
    return info.st_dev, info.st_ino, stamp_of(folder), tocs


_ENGINES: OrderedDict[Path, Engine] = OrderedDict()
_ENGINES_LOCK = threading.Lock()


def engine(folder: Path) -> Engine:
    """The process's engine for an index folder, reopened when the folder has changed.

    An engine dropped from the cache is not closed: whoever still holds it may finish its
    search (on the old files); its files close when it is garbage."""
    identity = _identity(folder)
    with _ENGINES_LOCK:
        found = _ENGINES.get(folder)
        if found is not None and found.identity == identity:
            _ENGINES.move_to_end(folder)
            return found
        found = _ENGINES[folder] = Engine(folder)
        _ENGINES.move_to_end(folder)
        while len(_ENGINES) > MAX_ENGINES:
            _ENGINES.popitem(last=False)
        return found


def open_index(folder: Path) -> Engine:
    """The index folder, opened for searching (shared within the process)."""
    return engine(folder)


# queries ---------------------------------------------------------------------------


def normalise_query(text: str) -> str:
    """Straight quotes and dashes; rule numbers as the index stores them (702.19B -> 702.19b)."""
    straight = fold(text).strip()
    return re.sub(r"\b(\d{3}\.\d+[A-Za-z]{0,2})\.?(?=\s|$)", lambda m: m.group(1).lower(), straight)


def checked_query(text: str) -> str:
    """The normalised query, or BadSearchQuery (one line) if it is empty or too long."""
    if len(text) > MAX_QUERY_CHARS:
        raise BadSearchQuery(
            f"the search query is {len(text):,} characters long; the limit is {MAX_QUERY_CHARS:,}"
        )
    cleaned = normalise_query(text)
    if not cleaned:
        raise BadSearchQuery("empty search query")
    return cleaned


def suggest(owner: Engine, text: str) -> str | None:
    """The query with unknown words replaced by the nearest known words, or None.

    At most MAX_CORRECTIONS words are looked up: a query of unknown words stays fast."""
    changed = False
    budget = MAX_CORRECTIONS

    def fix(match: re.Match[str]) -> str:
        nonlocal changed, budget
        word = match.group(0)
        syntax = text[match.end() : match.end() + 1] in {"*", "?", "~"}
        if word in _OPERATORS or len(word) < 3 or syntax:
            return word
        lower = word.lower()
        if _known(owner, lower) or budget <= 0:
            return word
        budget -= 1
        found = _nearest(owner.filters.words(), lower)
        if found is None:
            return word
        changed = True
        return found

    corrected = _WORD.sub(fix, text)
    return corrected if changed else None


def _known(owner: Engine, word: str) -> bool:
    """Whether a word is no misspelling: a stop word, a word whose stems are indexed
    ("tramples"), or a word of the texts."""
    if stem(word) == "":
        return True
    words = stems(word)
    if words and all(owner.reader.doc_frequency("text", stem) > 0 for stem in words):
        return True
    return word in owner.filters.words()


def _nearest(words: dict[str, int], word: str) -> str | None:
    """The most frequent known word at the smallest edit distance (1, else 2)."""
    found = _within(word, words.keys(), MAX_FUZZY_EDITS)
    if not found:
        return None
    return min(found, key=lambda known: (found[known], -words[known], known))


def _within(word: str, choices: Iterable[str], edits: int) -> dict[str, int]:
    """The choices within `edits` (Levenshtein) of `word`, with their distances: rapidfuzz
    over a list in memory, where whoosh's automaton over the term file took 20-160 ms."""
    from rapidfuzz.distance import Levenshtein
    from rapidfuzz.process import extract

    distance: Any = Levenshtein.distance  # its stub's overloads do not match extract's
    found = extract(word, choices, scorer=distance, score_cutoff=edits, limit=None)
    return {str(choice): int(distance) for choice, distance, _at in found if choice != word}


def _without_question_words(text: str) -> str | None:
    """The query without the words of a question, when that leaves a shorter query."""
    words = text.split()
    kept = [word for word in words if word.lower() not in _QUESTION_WORDS]
    return " ".join(kept) if kept and len(kept) < len(words) else None


def _plain_words(text: str) -> bool:
    """Whether the query is just words (no operators, wildcards, fuzzy marks or phrases)."""
    return not (_SYNTAX.search(text) or '"' in text or set(text.split()) & _OPERATORS)


def _text(term: str | bytes) -> str:
    return term.decode() if isinstance(term, bytes) else str(term)


# highlights ------------------------------------------------------------------------


def highlight(text: str, terms: frozenset[str]) -> str:
    """The text, or up to two fragments of it, HTML-escaped, with every token whose index
    term is in `terms` between <b> and </b>.

    A fragment is a quotation: an exact piece of the text that starts and ends where a
    word does (on white space, so "[this object’s]" stays whole); " … " stands between
    fragments, and at either end, only where text was left out."""
    marks = _marks(text, terms)
    if len(text) <= WHOLE_TEXT:
        return _marked(text, 0, len(text), marks)
    windows = _windows(text, marks)
    pieces = [_marked(text, start, end, marks) for start, end in windows]
    lead = f"{ELLIPSIS} " if text[: windows[0][0]].strip() else ""
    tail = f" {ELLIPSIS}" if text[windows[-1][1] :].strip() else ""
    return lead + f" {ELLIPSIS} ".join(pieces) + tail


def _windows(text: str, marks: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Up to FRAGMENTS pieces of the text around the best clusters of marks, in order."""
    if not marks:
        return [(0, _word_end(text, FRAGMENT_CHARS, 1))]
    clusters: list[list[tuple[int, int]]] = []
    for mark in marks:
        if clusters and mark[1] - clusters[-1][0][0] <= FRAGMENT_CHARS - 2 * CONTEXT_CHARS:
            clusters[-1].append(mark)
        else:
            clusters.append([mark])

    def worth(cluster: list[tuple[int, int]]) -> tuple[int, int, int]:
        distinct = len({text[s:e].lower() for s, e in cluster})
        return distinct, len(cluster), -cluster[0][0]

    chosen = sorted(sorted(clusters, key=worth, reverse=True)[:FRAGMENTS])
    windows: list[tuple[int, int]] = []
    for cluster in chosen:
        first, last = cluster[0][0], cluster[-1][1]
        room = max(0, FRAGMENT_CHARS - (last - first)) // 2
        start = _word_start(text, max(0, first - room), first)
        end = _word_end(text, min(len(text), last + room), last)
        if windows and not text[windows[-1][1] : start].strip():
            windows[-1] = (windows[-1][0], max(end, windows[-1][1]))  # nothing between them
        else:
            windows.append((start, end))
    return windows


def _word_start(text: str, at: int, limit: int | None = None) -> int:
    """The start of the first whole word at or after `at` (not past `limit`, the start of a
    mark: then the start of the word that holds it)."""
    if at > 0 and not text[at - 1].isspace():
        following = re.compile(r"\s").search(text, at)
        at = following.end() if following else len(text)
    if limit is not None and at > limit:
        at = limit
        while at > 0 and not text[at - 1].isspace():
            at -= 1
    while at < len(text) and text[at].isspace():
        at += 1
    return at


def _word_end(text: str, at: int, limit: int | None = None) -> int:
    """The end of the last whole word at or before `at` (not before `limit`, the end of a
    mark: then the end of the word that holds it)."""
    if at < len(text) and not text[at].isspace():
        while at > 0 and not text[at - 1].isspace():
            at -= 1
    if limit is not None and at < limit:
        at = limit
        while at < len(text) and not text[at].isspace():
            at += 1
    while at > 0 and text[at - 1].isspace():
        at -= 1
    return at


def _marked(text: str, start: int, end: int, marks: list[tuple[int, int]]) -> str:
    """text[start:end], HTML-escaped, with the marks inside it in <b></b>."""
    out = []
    at = start
    for mark_start, mark_end in marks:
        if mark_start < start or mark_end > end:
            continue
        out.append(_escape(text[at:mark_start]))
        out.append(MARK_OPEN + _escape(text[mark_start:mark_end]) + MARK_CLOSE)
        at = mark_end
    out.append(_escape(text[at:end]))
    return "".join(out)


def _escape(text: str) -> str:
    """html.escape (quotes too), without importing html and its table of entities."""
    if not any(char in text for char in "&<>\"'"):
        return text
    return (
        text.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&quot;")
        .replace("'", "&#x27;")
    )


def _marks(text: str, terms: frozenset[str]) -> list[tuple[int, int]]:
    """(start, end) of every token of the text whose index term is one of `terms`.

    A stem keeps the first two letters of its word (Porter changes endings only), so the
    tokens that cannot match are not stemmed at all."""
    starts = {term[:2] for term in terms} if all(len(term) > 1 for term in terms) else None
    marks = []
    for found in TOKEN.finditer(text):
        lower = found.group().lower()
        if (starts is None or lower[:2] in starts) and stem(lower) in terms:
            marks.append((found.start(), found.end()))
    return marks


# searching -------------------------------------------------------------------------


def search(
    conn: sqlite3.Connection, folder: Path, text: str, filters: Filters, *, limit: int = 10
) -> Results:
    """Search an index folder that is known to be fresh (see :func:`answer`)."""
    return engine(folder).search(conn, text, filters, limit=limit)


def answer(
    conn: sqlite3.Connection,
    folder: Path,
    text: str,
    filters: Filters,
    *,
    limit: int = 10,
    progress: Callable[[int, int], Callable[[int], None]] | None = None,
) -> Results:
    """Bring the index up to date, search it, and make sure the database did not move meanwhile.

    Every read of the database goes through `conn`, in one read transaction (the
    caller's, or one begun here)."""
    refuse_early(text)
    return _read_fresh(
        conn, folder, lambda: search(conn, folder, text, filters, limit=limit), progress
    )


def frequencies(
    conn: sqlite3.Connection, folder: Path, terms: Iterable[str]
) -> tuple[int, dict[str, int]]:
    """How many documents the index holds, and how many of them hold each of `terms` (index
    terms) in their text: the document frequencies, over every edition, that the ranking of
    questions reads. Terms no document holds are left out."""
    wanted = sorted(set(terms))

    def count() -> tuple[int, dict[str, int]]:
        found = engine(folder)
        return found.documents, {term: n for term in wanted if (n := found._frequency(term))}

    return _read_fresh(conn, folder, count)


def _read_fresh(
    conn: sqlite3.Connection,
    folder: Path,
    read: Callable[[], _T],
    progress: Callable[[int, int], Callable[[int], None]] | None = None,
) -> _T:
    """`read` the index, brought up to date first, in one read transaction of `conn`; again
    while an update of the index is being swapped in or the database moved meanwhile."""
    with reading(conn):
        for attempt in range(ATTEMPTS):
            ensure_index(conn, folder, progress=progress)
            try:
                found = read()
            except IndexChanging:
                time.sleep(0.05 * 2**attempt)  # an update of the index is being swapped in
                continue
            if is_fresh(conn, folder):
                return found
    raise SearchIndexError("the database kept changing during the search; try again")


class IndexChanging(SearchIndexError):
    """The index's files changed under a reader opening them (an update swapped them in)."""


#: Searches tried while the database or its index keeps changing.
ATTEMPTS = 5
