"""The Whoosh full-text index: build, incremental update, query.

Each distinct text is indexed once: a document is one (kind, number or term, text,
typography aside) with the editions that carried it, so all 134 editions make about
20,500 documents rather than 380,000 rows. The index lives in a folder beside the
database (``rules.db`` -> ``rules.db.search/``) and records the content stamp it was
built from; :func:`ensure_index` brings a stale or missing index up to date before a
query, and :func:`answer` checks the stamp again after it, so a search never answers
from an index that disagrees with the database.

What the index holds, and what it does not:

- Whoosh postings with frequencies (no positions) for the stemmed ``text`` and
  ``term`` fields and for rule numbers, in separate (not compound) segment files.
- Stored per document, only to be read back by an update: its key, the text's id in
  the database, its glossary names, and its editions as a bit mask over the index's
  own list of edition dates. The text itself is read from the database, in the
  caller's read transaction.
- Beside the segments, a ``filters.<generation>`` file, memory-mapped by searches: for
  every edition, kind, section and chapter the sorted document numbers that belong to
  it; each document's record (kind, label, editions, text id, names); the words of the
  texts with their counts, for spelling; the text field's terms, for fuzzy~ queries. A
  filter is then one small array, not a posting list per edition (those were 40% of
  all postings and most of the build).

Queries are parsed here (words, "phrases", AND/OR/NOT, parentheses, prefix*,
wild?cards, fuzzy~ and fuzzy~2) and evaluated over Whoosh's postings with set
algebra restricted to the filter first, scored with Whoosh's BM25F formula. Phrases
are checked on the database text of the few documents that hold every word of
them, analysed exactly as the index analysed it. An :class:`Engine` keeps the open
index, the decoded postings and the analysed texts for the life of a process.

Whoosh is imported lazily, in functions: a cold `rules-kb rule` never pays for it.
"""

from __future__ import annotations

import hashlib
import importlib
import os
import re
import shutil
import sqlite3
import sys
import threading
import time
import zlib
from array import array
from collections import Counter, OrderedDict
from collections.abc import Callable, Container, Iterable, Iterator, Sequence
from contextlib import contextmanager
from itertools import accumulate, islice
from pathlib import Path
from typing import Any, Literal, NamedTuple

from rules_kb.errors import BadSearchQuery, SearchIndexError
from rules_kb.typography import fold, plain

# whoosh3's annotations are partial: its objects are typed loosely here.
Index = Any
Reader = Any

Kind = Literal["rule", "example", "glossary"]
Match = Literal["all", "most", "any"]
KINDS: tuple[Kind, ...] = ("rule", "example", "glossary")
STAMP_FILE = "stamp"
EDITIONS_FILE = "editions"
FILTERS_FILE = "filters"
FORMAT_FILE = "format"
#: 2: no stored text, editions as masks, the filters file (rules-kb 0.2); 3: positions.
INDEX_FORMAT = "3"
WRITER_MB = 256
MARK_OPEN, MARK_CLOSE = "<b>", "</b>"
ELLIPSIS = "…"
FIELD_BOOSTS = {"number": 6.0, "term": 2.0, "text": 1.0}
# A judge searching for a keyword wants the rule first; the glossary entry next.
HEADINGS = {"section", "chapter", "rule"}
KIND_BOOSTS: dict[str, float] = {"rule": 1.0, "example": 0.7, "glossary": 0.35}
# When more than this share of the documents must change, a full rebuild is faster.
REBUILD_SHARE = 0.5
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
#: Highlights: texts up to WHOLE_TEXT characters are shown whole; longer ones as up to
#: two fragments of about FRAGMENT_CHARS around the densest matches.
WHOLE_TEXT = 240
FRAGMENT_CHARS = 200
CONTEXT_CHARS = 50
FRAGMENTS = 2
#: A staging folder of a build whose name carries no process id (made by an older
#: rules-kb) is removed once it has not been touched for this long.
ORPHAN_SECONDS = 3600.0
MAX_ENGINES = 4

_WORD = re.compile(r"[A-Za-z][A-Za-z']*[A-Za-z]|[A-Za-z]")  # in a folded query, ’ is '
_CITED = re.compile(r"\b(\d{3}(?:\.\d+[a-z]?)?)\b")
_SYNTAX = re.compile(r"[*?~]")
#: Whoosh's RegexTokenizer default, which StemmingAnalyzer uses.
_TOKEN = re.compile(r"\w+(?:\.?\w+)*")
#: Only rule numbers reach the number field: "from" must not turn into number:from.
_NUMBER_PATTERN = r"\b\d{3}(?:\.\d+[a-z]{0,2})?\b"
_OPERATORS = {"AND", "OR", "NOT", "ANDNOT", "ANDMAYBE", "TO"}
#: Words of a question asked in plain English ("what happens when a player concedes"):
#: the rules rarely contain them next to the words that matter.
_QUESTION_WORDS = {
    "what", "happens", "happen", "when", "how", "does", "do", "did", "why", "which",
    "who", "whom", "whose", "where", "is", "are", "was", "were", "can", "could", "should",
    "would", "i", "my", "me", "if", "there", "it", "its", "a", "an", "the",
}  # fmt: skip


class Document(NamedTuple):
    """One distinct text as indexed (a named tuple: cheaper to define than a slotted
    dataclass, and a cold search defines it)."""

    key: str
    """Unique id: kind, number or term, and a digest of the text."""
    kind: Kind
    """rule (sections, chapters, rules, subrules), example or glossary."""
    label: str
    """The rule number (for rules and examples) or the glossary term."""
    text: str
    """The text as stored (its newest variant)."""
    editions: tuple[str, ...]
    """The edition dates that carried this text under this label, oldest first."""
    aliases: tuple[str, ...] = ()
    """Glossary terms whose definition cites this rule version."""
    heading: bool = False
    """A section, chapter or rule: a short text without a full stop is its title."""
    text_id: int = 0
    """The id of `text` in the database's texts table."""


class Hit(NamedTuple):
    """One search result.

    Hit, Filters and Results are named tuples, frozen like the API's dataclass records:
    defining three slotted dataclasses cost a cold search 4-9 ms, a sixth of its margin
    over a cold rule lookup."""

    kind: Kind
    """rule, example or glossary."""
    label: str
    """The rule number, or the glossary term."""
    text: str
    """The full text."""
    score: float
    """BM25F score."""
    highlight: str
    """Quoted fragments, HTML-escaped, with matches between <b> and </b> and " … " where
    text was left out."""
    editions: tuple[str, ...]
    """The editions that carried this text (all of them, whatever the filter)."""

    def as_dict(self, edition: str | None) -> dict[str, Any]:
        """The SPEC's JSON shape; with no edition filter, the span of editions too."""
        where = "term" if self.kind == "glossary" else "number"
        item: dict[str, Any] = {"edition": edition or self.editions[-1], "kind": self.kind}
        item[where] = self.label
        item.update(text=self.text, score=round(self.score, 4), highlight=self.highlight)
        if edition is None:
            item.update(first=self.editions[0], last=self.editions[-1])
            item["editions"] = len(self.editions)
        return item


class Filters(NamedTuple):
    """What a search is restricted to."""

    edition: str | None = None
    """One edition date; None for all editions."""
    kind: Kind | None = None
    section: str | None = None
    """A section digit, 1-9 (rules and examples only)."""
    chapter: str | None = None
    """A chapter, three digits (rules and examples only)."""


class Results(NamedTuple):
    """The answer to one query."""

    query: str
    """The query as typed."""
    filters: Filters
    total: int
    """How many documents matched (before --limit)."""
    hits: tuple[Hit, ...]
    suggestion: str | None = None
    """The corrected query whose results these are, when words were misspelled."""
    match: Match = "all"
    """all: hits have every word; any: none had, so these have some of them."""

    def as_json(self) -> dict[str, Any]:
        """The SPEC's JSON document."""
        return self.as_dict()

    def as_dict(self) -> dict[str, Any]:
        """The SPEC's JSON document."""
        edition = self.filters.edition
        return {
            "query": self.query,
            "edition": edition,
            "total": self.total,
            "hits": [hit.as_dict(edition) for hit in self.hits],
            "suggestion": self.suggestion,
            "match": self.match,
        }


class UpdateReport(NamedTuple):
    """What ensure_index did."""

    action: Literal["fresh", "built", "updated"] = "fresh"
    added: int = 0
    """New documents."""
    changed: int = 0
    """Documents rewritten because their list of editions changed."""
    removed: int = 0
    documents: int = 0
    """How many documents the index holds now."""
    seconds: float = 0.0


def _whoosh(module: str) -> Any:
    """A whoosh module, imported on first use (a cold lookup never pays for it)."""
    return importlib.import_module(f"whoosh.{module}")


# the database side -----------------------------------------------------------------


def index_dir(database: Path) -> Path:
    """The index folder beside a database file."""
    return database.with_name(database.name + ".search")


@contextmanager
def reading(conn: sqlite3.Connection) -> Iterator[None]:
    """Every read inside sees one state of the database: the caller's transaction if it
    has one open, else a read transaction begun (and ended) here."""
    if conn.in_transaction:
        yield
        return
    conn.execute("BEGIN")
    try:
        yield
    finally:
        conn.rollback()


def content_stamp(conn: sqlite3.Connection) -> str:
    """The database's stamp plus a digest of its editions, so a new database is never fresh."""
    row = conn.execute("SELECT value FROM meta WHERE key = 'stamp'").fetchone()
    digest = hashlib.sha256()
    for date, sha in conn.execute("SELECT date, content_sha256 FROM editions ORDER BY date"):
        digest.update(f"{date} {sha}\n".encode())
    return f"{row[0] if row else 0}:{digest.hexdigest()[:16]}"


_DOCUMENT_QUERIES: dict[Kind, str] = {
    "rule": """
        SELECT r.number, r.text_id, group_concat(e.date, ' '), max(r.kind)
        FROM rules r JOIN editions e ON e.id = r.edition_id
        GROUP BY r.number, r.text_id""",
    "example": """
        SELECT r.number, x.text_id, group_concat(DISTINCT e.date), 'example'
        FROM examples x
        JOIN rules r ON r.edition_id = x.edition_id AND r.seq = x.rule_seq
        JOIN editions e ON e.id = x.edition_id
        GROUP BY r.number, x.text_id""",
    "glossary": """
        SELECT g.term, g.text_id, group_concat(DISTINCT e.date), 'glossary'
        FROM glossary g JOIN editions e ON e.id = g.edition_id
        GROUP BY g.term, g.text_id""",
}


class Source(NamedTuple):
    """Where one document's text comes from in the database."""

    editions: tuple[str, ...]
    """The edition dates that carried it, oldest first."""
    text_ids: tuple[int, ...]
    """Its stored variants (differing only in typography), the newest edition's last."""
    heading: bool
    """A section, chapter or rule, whose short text may be a title."""


def document_sources(conn: sqlite3.Connection) -> dict[str, Source]:
    """Every document the database implies: one per kind, label and text (up to typography)."""
    texts = {
        int(text_id): str(text) for text_id, text in conn.execute("SELECT id, text FROM texts")
    }
    digests: dict[int, str] = {}
    groups: dict[str, tuple[set[str], list[tuple[str, int]], bool]] = {}
    for kind, sql in _DOCUMENT_QUERIES.items():
        for label, text_id, dates, node in conn.execute(sql):
            digest = digests.get(text_id)
            if digest is None:
                digest = digests[text_id] = _digest(texts[int(text_id)])
            key = f"{kind}\x1f{label}\x1f{digest}"
            days, variants, _heading = groups.setdefault(key, (set(), [], node in HEADINGS))
            found = set(re.split(r"[ ,]", dates))
            days |= found
            variants.append((max(found), int(text_id)))
    return {
        key: Source(tuple(sorted(days)), tuple(i for _day, i in sorted(variants)), heading)
        for key, (days, variants, heading) in groups.items()
    }


def _digest(text: str) -> str:
    """A digest of the text with typography and spacing normalised."""
    return hashlib.blake2b(plain(text).encode(), digest_size=10).hexdigest()


def _texts(conn: sqlite3.Connection, ids: Iterable[int]) -> dict[int, str]:
    wanted = sorted(set(ids))
    found: dict[int, str] = {}
    for start in range(0, len(wanted), 500):
        chunk = wanted[start : start + 500]
        marks = ",".join("?" * len(chunk))
        rows = conn.execute(f"SELECT id, text FROM texts WHERE id IN ({marks})", chunk)
        found.update((int(text_id), str(text)) for text_id, text in rows)
    return found


def documents(conn: sqlite3.Connection, sources: dict[str, Source]) -> Iterator[Document]:
    """The documents for these sources, with the newest variant of their text."""
    texts = _texts(conn, (source.text_ids[-1] for source in sources.values()))
    names = cited_by_terms(conn)
    for key, source in sources.items():
        kind, label, _digest = key.split("\x1f")
        aliases: set[str] = set()
        if kind != "glossary":
            for text_id in source.text_ids:
                aliases |= names.get((label, text_id), set())
        text_id = source.text_ids[-1]
        yield Document(
            key,
            _as_kind(kind),
            label,
            texts[text_id],
            source.editions,
            tuple(sorted(aliases)),
            source.heading,
            text_id,
        )


def cited_by_terms(conn: sqlite3.Connection) -> dict[tuple[str, int], set[str]]:
    """(rule number, text id) -> the glossary terms whose definition cites that rule version.

    "Copiable Values ... See rules 613.2, 707.2" makes 707.2 answer "copiable values".
    """
    versions: dict[tuple[int, str], int] = {
        (int(edition_id), str(number)): int(text_id)
        for edition_id, number, text_id in conn.execute(
            "SELECT edition_id, number, text_id FROM rules"
        )
    }
    cited: dict[int, list[str]] = {}
    names: dict[tuple[str, int], set[str]] = {}
    rows = conn.execute(
        "SELECT g.edition_id, g.term, g.text_id, t.text FROM glossary g"
        " JOIN texts t ON t.id = g.text_id"
    )
    for edition_id, term, text_id, text in rows:
        if text_id not in cited:
            cited[text_id] = _CITED.findall(text)
        for number in cited[text_id]:
            version = versions.get((int(edition_id), number))
            if version is not None:
                names.setdefault((number, version), set()).add(str(term))
    return names


def _as_kind(value: str) -> Kind:
    for kind in KINDS:
        if kind == value:
            return kind
    raise ValueError(value)


def _dates(conn: sqlite3.Connection) -> list[str]:
    return [str(date) for (date,) in conn.execute("SELECT date FROM editions ORDER BY date")]


# analysis --------------------------------------------------------------------------

_STEMS: dict[str, str] = {}
_STOP: frozenset[str] = frozenset()
_PORTER: Callable[[str], str] | None = None


def _stem(lower: str) -> str:
    """The index term of one lowercased token, or "" when the analyzer drops it."""
    global _PORTER, _STOP
    found = _STEMS.get(lower)
    if found is not None:
        return found
    if _PORTER is None:
        _PORTER = _whoosh("lang.porter").stem
        _STOP = frozenset(_whoosh("analysis.filters").STOP_WORDS)
    stem = "" if len(lower) < 2 or lower in _STOP else str(_PORTER(lower))
    if len(_STEMS) > 200_000:  # hostile queries must not grow it without end
        _STEMS.clear()
    _STEMS[lower] = stem
    return stem


def _lowered(text: str) -> list[str]:
    """The text's tokens, lowercased (the whole text at once where that splits it the same:
    only "İ" grows when lowercased)."""
    if "\u0130" in text:
        return [token.lower() for token in _TOKEN.findall(text)]
    return _TOKEN.findall(text.lower())


def _stems_of(tokens: list[str]) -> list[str]:
    for token in set(tokens).difference(_STEMS):
        _stem(token)
    return [stem for stem in map(_STEMS.__getitem__, tokens) if stem]


def stems(text: str) -> list[str]:
    """The index terms of a text in order: what whoosh's StemmingAnalyzer yields (its
    tokenizer, lowercase, stop words, words of two letters or more, Porter stems),
    without its per-token objects. Phrases count positions in this list."""
    return _stems_of(_lowered(text))


def _marks(text: str, terms: frozenset[str]) -> list[tuple[int, int]]:
    """(start, end) of every token of the text whose index term is one of `terms`.

    A stem keeps the first two letters of its word (Porter changes endings only), so the
    tokens that cannot match are not stemmed at all."""
    starts = {term[:2] for term in terms} if all(len(term) > 1 for term in terms) else None
    marks = []
    for found in _TOKEN.finditer(text):
        lower = found.group().lower()
        if (starts is None or lower[:2] in starts) and _stem(lower) in terms:
            marks.append((found.start(), found.end()))
    return marks


# the index -------------------------------------------------------------------------

_TYPES: dict[str, type] = {}


def _field_types() -> dict[str, type]:
    """rules-kb's whoosh field types, made on first use (the schema refers to them by name).

    StemmedText indexes what `stems` yields (or a list of stems made by it), with
    frequencies and positions for Whoosh's phrase queries, without the analyzer's
    per-token objects; `stems` is StemmingAnalyzer's analysis exactly, which Whoosh's
    query parser applies to the query, so the index, the queries and the highlights can
    never analyse a text differently. Words that analyse to several terms
    ("state-based") are a phrase.
    """
    if _TYPES:
        return _TYPES
    fields, analysis = _whoosh("fields"), _whoosh("analysis")

    def index(self: Any, value: Any, **_kwargs: Any) -> list[tuple[bytes, int, float, bytes]]:
        """(term, frequency, weight, positions) per term: `value` is a text or its stems."""
        boost = self.format.field_boost
        positions: dict[str, list[int]] = {}
        for at, word in enumerate(stems(value) if isinstance(value, str) else value):
            positions.setdefault(word, []).append(at)
        encode = self.format.encode
        return [
            (word.encode(), len(where), len(where) * boost, encode(where))
            for word, where in positions.items()
        ]

    def init(self: Any, field_boost: float = 1.0) -> None:
        fields.TEXT.__init__(
            self, analyzer=analysis.StemmingAnalyzer(), phrase=True, field_boost=field_boost
        )
        self.multitoken_query = "phrase"

    stemmed = type(
        "StemmedText",
        (fields.TEXT,),
        {"__init__": init, "index": index, "__module__": __name__, "__qualname__": "StemmedText"},
    )
    globals()["StemmedText"] = stemmed  # where pickle finds it when the schema is read back
    _TYPES["StemmedText"] = stemmed
    return _TYPES


def schema() -> Any:
    """The index schema: boosted rule numbers and terms, stemmed text; what the filters
    file needs of each document, stored to be read back after an update."""
    analysis, fields = _whoosh("analysis"), _whoosh("fields")
    stemmed = _field_types()["StemmedText"]
    numbers = analysis.RegexTokenizer(_NUMBER_PATTERN) | analysis.LowercaseFilter()
    return fields.Schema(
        number=fields.TEXT(analyzer=numbers, field_boost=FIELD_BOOSTS["number"]),
        term=stemmed(field_boost=FIELD_BOOSTS["term"]),
        text=stemmed(),
        # (key, text id, editions mask, names): one stored value costs a build less than four
        doc=fields.STORED(),
    )


#: Postings per block, and zlib's level for them (whoosh3: 128 and 3).
BLOCK_POSTINGS = 128
BLOCK_COMPRESSION = 3


def _codec() -> Any:
    """Whoosh's codec, without the per-posting field lengths it records for block-quality
    skipping: the engine never skips by quality, and looking them up was a fifth of a build."""
    codec = _whoosh("codec.whoosh3").W3Codec(
        blocklimit=BLOCK_POSTINGS, compression=BLOCK_COMPRESSION
    )
    codec.length_stats = False
    return codec


def _bits(mask: int) -> list[int]:
    """The positions of the bits set in a mask, lowest first."""
    return [at for at, bit in enumerate(reversed(f"{mask:b}")) if bit == "1"]


def _fields(document: Document, ordinals: dict[str, int]) -> tuple[dict[str, Any], _Row]:
    """The whoosh fields of a document, and its row for the filters file (numbered 0)."""
    values: dict[str, Any] = {"text": document.text, "_boost": KIND_BOOSTS[document.kind]}
    names = ""
    if document.kind == "glossary":
        values["term"] = names = document.label
    else:
        titles = ([document.text] if _is_title(document) else []) + list(document.aliases)
        if titles:
            values["term"] = names = "\n".join(titles)
        values["number"] = document.label
    bits = [ordinals[day] for day in document.editions]
    row = _Row(0, document.key, sum(1 << bit for bit in bits), document.text_id, names)
    row.ordinals = bits
    values["doc"] = (row.key, row.text_id, row.mask, row.names)
    return values, row


def _is_title(document: Document) -> bool:
    """A heading ("702.19 Trample", "704. State-Based Actions") acts as a term: it names a rule."""
    text = document.text
    return document.heading and len(text) <= 60 and not text.endswith(".")


class _Row:
    """What the filters file keeps of one document.

    (Internal records are plain classes: a slotted dataclass costs a cold search about a
    millisecond and a half to define.)"""

    __slots__ = ("docnum", "key", "mask", "names", "ordinals", "text_id")

    def __init__(self, docnum: int, key: str, mask: int, text_id: int, names: str = "") -> None:
        self.docnum, self.key, self.mask, self.text_id, self.names = (
            docnum, key, mask, text_id, names
        )  # fmt: skip
        self.ordinals: list[int] = []
        """The bits of `mask`, when known already."""


def _write(
    ix: Index,
    docs: Iterable[Document],
    removed: Iterable[int],
    tick: Callable[[int], None],
    *,
    ordinals: dict[str, int],
    words: Counter[str],
    counted: Container[str] | None = None,
) -> list[_Row]:
    """Delete documents (by number) and add documents, in one commit: readers never see
    half of it. Counts the words of the documents (of those whose keys are `counted`, if
    given) into `words`.

    Returns the rows of what was added, numbered in the order of adding (the numbers of a
    fresh index; after an update the caller reads them back, since a merge may renumber)."""
    LockError = _whoosh("writing").LockError

    try:
        # Separate files, not one compound file: whoosh copies every part of a compound
        # segment into memory when it opens it, which a cold search would pay for.
        writer = ix.writer(timeout=30.0, limitmb=WRITER_MB, codec=_codec(), compound=False)
    except LockError as error:
        raise SearchIndexError(f"the search index {ix.storage} is locked: {error}") from error
    rows: list[_Row] = []
    try:
        for docnum in removed:
            writer.delete_document(docnum)
        for count, document in enumerate(docs, 1):
            tokens = _lowered(document.text)
            values, row = _fields(document, ordinals)
            values["text"] = _stems_of(tokens)  # analysed once, for the index and the words
            writer.add_document(**values)
            row.docnum = count - 1
            rows.append(row)
            if counted is None or document.key in counted:
                words.update(tokens)
                if document.kind == "glossary":
                    words.update(_lowered(document.label))
            if count % 500 == 0:
                tick(500)
    except BaseException:
        writer.cancel()
        raise
    writer.commit()  # an update adds a small segment; whoosh merges small ones itself
    return rows


def _stored_rows(reader: Reader) -> list[_Row]:
    """Every live document's row, read back from the index."""
    rows = []
    for docnum, stored in reader.iter_docs():
        key, text_id, mask, names = stored["doc"]
        rows.append(_Row(docnum, str(key), int(mask), int(text_id), str(names)))
    return rows


# the filters file ------------------------------------------------------------------

_FILTERS_MAGIC = b"rules-kb filters 1\n"


def _sets_of(rows: Iterable[_Row], dates: Sequence[str]) -> dict[str, list[int]]:
    """Document numbers by edition ("e:2026-08-07"), kind, section and chapter, and "all"."""
    sets: dict[str, list[int]] = {"all": []}
    for row in sorted(rows, key=lambda row: row.docnum):
        kind, label, _digest = row.key.split("\x1f")
        names = ["all", f"k:{kind}"]
        if kind != "glossary":
            names.append(f"s:{label[:1]}")
            if len(label) >= 3:
                names.append(f"c:{label[:3]}")
        names.extend(f"e:{dates[bit]}" for bit in row.ordinals or _bits(row.mask))
        for name in names:
            sets.setdefault(name, []).append(row.docnum)
    return sets


def _pack(numbers: Sequence[int]) -> bytes:
    deltas = array("I", (b - a for a, b in zip([0, *numbers], numbers, strict=False)))
    return zlib.compress(deltas.tobytes(), 6)


def _unpack(blob: bytes) -> list[int]:
    deltas = array("I")
    deltas.frombytes(zlib.decompress(blob))
    return list(accumulate(deltas))


def _records(rows: list[_Row], doccount: int) -> tuple[bytes, array[int]]:
    """Each document's kind, label, editions, text id and names, in document order, and
    where each starts: what a hit needs, without whoosh's stored fields (reading those
    loads an offset per document first)."""
    encoded = [b""] * doccount
    for row in rows:
        kind, label, _digest = row.key.split("\x1f")
        fields = (kind, label, f"{row.mask:x}", str(row.text_id), row.names)
        encoded[row.docnum] = "\x1f".join(fields).encode()
    offsets = array("I", accumulate((len(record) for record in encoded), initial=0))
    return b"".join(encoded), offsets


def _write_filters(
    folder: Path,
    generation: int,
    doccount: int,
    dates: Sequence[str],
    rows: list[_Row],
    lexicon: tuple[Counter[str], Iterable[str]],
) -> None:
    """Write filters.<generation> (atomically) and drop those older than the one before it.

    `lexicon`: the words of the texts with their counts (spelling suggestions pick the
    most frequent near word) and the index terms of the text field (for fuzzy~ terms)."""
    words, terms = lexicon
    blobs: list[bytes] = []
    offsets: dict[str, list[int]] = {}
    position = 0
    packed = {name: _pack(numbers) for name, numbers in _sets_of(rows, dates).items()}
    records, starts = _records(rows, doccount)
    packed["#records"] = records
    packed["#offsets"] = starts.tobytes()
    spelled = "\n".join(f"{word} {n}" for word, n in sorted(words.items()) if word.isalpha())
    packed["#words"] = zlib.compress(spelled.encode(), 6)
    packed["#terms"] = zlib.compress("\n".join(sorted(terms)).encode(), 6)
    for name, blob in packed.items():
        offsets[name] = [position, len(blob)]
        blobs.append(blob)
        position += len(blob)
    lines = [
        f"{generation} {doccount} {starts.itemsize} {sys.byteorder}",
        " ".join(dates),
        *(f"{name} {start} {length}" for name, (start, length) in offsets.items()),
    ]
    header = "\n".join(lines).encode()
    target = folder / f"{FILTERS_FILE}.{generation}"
    partial = folder / f"{FILTERS_FILE}.{generation}.{os.getpid()}.part"
    with partial.open("wb") as out:
        out.write(_FILTERS_MAGIC + len(header).to_bytes(4, "big") + header)
        out.writelines(blobs)
    partial.replace(target)
    for old in folder.glob(f"{FILTERS_FILE}.*"):
        suffix = old.name.split(".")[1]
        if suffix.isdigit() and int(suffix) < generation - 1 and old.suffix != ".part":
            old.unlink(missing_ok=True)


class _Record:
    """What a hit, or a phrase check, needs of one document."""

    __slots__ = ("kind", "label", "mask", "names", "text_id")

    def __init__(self, kind: Kind, label: str, mask: int, text_id: int, names: str) -> None:
        self.kind, self.label, self.mask, self.text_id, self.names = (
            kind, label, mask, text_id, names
        )  # fmt: skip


class _Filters:
    """The filters file of one index generation, mapped into memory and decoded on demand
    (a search reads a few of its pieces: one edition's documents, ten records)."""

    __slots__ = ("_terms", "_words", "blobs", "data", "dates", "offsets", "records", "sets")

    def __init__(
        self,
        dates: tuple[str, ...],
        data: Any,
        blobs: dict[str, tuple[int, int]],
        sets: dict[str, frozenset[int]] | None = None,
    ) -> None:
        """`data`: bytes or a memory map; `blobs`: where each piece of it starts, and its size."""
        self.dates, self.data, self.blobs = dates, data, blobs
        self.sets = sets or {}
        self.offsets = array("I")
        self.offsets.frombytes(self._blob("#offsets"))
        self.records = blobs.get("#records", (0, 0))[0]
        self._words: dict[str, int] | None = None
        self._terms: list[str] | None = None

    def close(self) -> None:
        if hasattr(self.data, "close"):
            self.data.close()

    def _blob(self, name: str) -> bytes:
        start, size = self.blobs.get(name, (0, 0))
        return bytes(self.data[start : start + size])

    def _text(self, name: str) -> list[str]:
        blob = self._blob(name)
        return zlib.decompress(blob).decode().split("\n") if blob else []

    def words(self) -> dict[str, int]:
        """The words of the texts and how often they occur."""
        if self._words is None:
            pairs = (line.rpartition(" ") for line in self._text("#words") if line)
            self._words = {word: int(count) for word, _, count in pairs}
        return self._words

    def terms(self) -> list[str]:
        """The text field's index terms, sorted."""
        if self._terms is None:
            self._terms = self._text("#terms")
        return self._terms

    def docs(self, name: str) -> frozenset[int]:
        """The documents of one edition ("e:2026-08-07"), kind, section, chapter or "all"."""
        found = self.sets.get(name)
        if found is None:
            blob = self._blob(name)
            found = self.sets[name] = frozenset(_unpack(blob) if blob else ())
        return found

    def _record(self, docnum: int) -> bytes:
        start, end = self.offsets[docnum], self.offsets[docnum + 1]
        return bytes(self.data[self.records + start : self.records + end])

    def record(self, docnum: int) -> _Record:
        kind, label, mask, text_id, names = self._record(docnum).decode().split("\x1f")
        return _Record(_as_kind(kind), label, int(mask, 16), int(text_id), names)

    def text_id(self, docnum: int) -> int:
        return int(self._record(docnum).split(b"\x1f", 4)[3])


def _read_filters(folder: Path, reader: Reader) -> _Filters | None:
    """The filters file for the reader's generation, or None if it is missing or foreign."""
    import mmap

    try:
        with (folder / f"{FILTERS_FILE}.{reader.generation()}").open("rb") as file:
            data = mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ)
    except (OSError, ValueError):
        return None
    try:
        if data[: len(_FILTERS_MAGIC)] != _FILTERS_MAGIC:
            raise ValueError("not a filters file")
        start = len(_FILTERS_MAGIC) + 4
        size = int.from_bytes(data[start - 4 : start], "big")
        first, dates, *names = data[start : start + size].decode().split("\n")
        _generation, doccount, itemsize, byteorder = first.split(" ")
        if (
            int(doccount) != reader.doc_count_all()
            or int(itemsize) != array("I").itemsize
            or byteorder != sys.byteorder
        ):
            raise ValueError("made for another index")
        base = start + size
        blobs = {}
        for line in names:
            name, offset, length = line.split(" ")
            blobs[name] = (base + int(offset), int(length))
        return _Filters(tuple(dates.split()), data, blobs)
    except (ValueError, KeyError):
        data.close()
        return None


def _filters_from_index(folder: Path, reader: Reader) -> _Filters:
    """The filters, computed from the stored fields (when the file is missing: slower)."""
    dates = _index_dates(folder)
    rows = _stored_rows(reader)
    records, offsets = _records(rows, reader.doc_count_all())
    sets = {name: frozenset(numbers) for name, numbers in _sets_of(rows, dates).items()}
    data = offsets.tobytes() + records
    blobs = {"#offsets": (0, len(offsets.tobytes())), "#records": (len(offsets.tobytes()), 0)}
    return _Filters(tuple(dates), data, blobs, sets)


def _index_dates(folder: Path) -> list[str]:
    """The edition dates the index was built from, in order (their bits in every mask)."""
    try:
        lines = (folder / EDITIONS_FILE).read_text(encoding="utf-8").split("\n")
    except OSError:
        return []
    return sorted({line.split(" ")[0] for line in lines if line})


# building and updating -------------------------------------------------------------


def _stamp_of(folder: Path) -> str | None:
    try:
        return (folder / STAMP_FILE).read_text(encoding="utf-8").strip()
    except OSError:
        return None


def is_fresh(conn: sqlite3.Connection, folder: Path) -> bool:
    """Whether the index folder was built from exactly this database content, in the
    format this rules-kb writes."""
    return _stamp_of(folder) == content_stamp(conn) and _current_format(folder)


def _current_format(folder: Path) -> bool:
    """Whether the index is in INDEX_FORMAT (one made by an older rules-kb is rebuilt)."""
    try:
        return (folder / FORMAT_FILE).read_text(encoding="utf-8").strip() == INDEX_FORMAT
    except OSError:
        return False


def build(
    conn: sqlite3.Connection,
    folder: Path,
    *,
    progress: Callable[[int, int], Callable[[int], None]] | None = None,
    sources: dict[str, Source] | None = None,
) -> UpdateReport:
    """Build the index from scratch (in a staging folder, then swapped in).

    `sources` are the document sources when the caller has read them already.
    """
    index = _whoosh("index")

    start = time.perf_counter()
    with reading(conn):
        stamp = content_stamp(conn)
        wanted = document_sources(conn) if sources is None else sources
        dates = _dates(conn)
        tick = progress(len(wanted), 0) if progress else (lambda _n: None)
        folder.parent.mkdir(parents=True, exist_ok=True)
        clean_staging(folder)
        staging = _new_folder(folder, "new")
        try:
            ix = index.create_in(str(staging), schema())
            ordinals = {day: i for i, day in enumerate(dates)}
            words: Counter[str] = Counter()
            rows = _write(ix, documents(conn, wanted), (), tick, ordinals=ordinals, words=words)
            with ix.reader() as reader:
                lexicon = (words, map(_text, reader.lexicon("text")))
                _write_filters(staging, reader.generation(), len(rows), dates, rows, lexicon)
            _write_stamp(staging, stamp, conn)
            _swap(staging, folder)
        except BaseException:
            shutil.rmtree(staging, ignore_errors=True)
            raise
    return UpdateReport(
        "built", added=len(wanted), documents=len(wanted), seconds=time.perf_counter() - start
    )


def _new_folder(folder: Path, what: str) -> Path:
    """A new, empty folder rules.db.search.new-<pid>-<random> beside the index: the process
    id tells a live build's folder from a dead one's."""
    import tempfile

    prefix = f"{folder.name}.{what}-{os.getpid()}-"
    return Path(tempfile.mkdtemp(prefix=prefix, dir=folder.parent))


def _alive(pid: int) -> bool:
    """Whether a process of that id runs (on Windows, where signal 0 would kill it: assume so)."""
    if pid == os.getpid() or os.name == "nt":
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # it exists, under another user
    return True


def clean_staging(folder: Path) -> list[Path]:
    """Remove the staging folders of builds that died (killed, crashed) beside `folder`.

    A folder named ``<index>.new-<pid>-…`` or ``.old-<pid>-…`` is removed only when no
    process of that id runs; one without a process id only when untouched for an hour.
    Returns what was removed."""
    removed = []
    for what in ("new", "old"):
        for path in folder.parent.glob(f"{folder.name}.{what}-*"):
            rest = path.name[len(folder.name) + len(what) + 2 :]
            pid, _, _random = rest.partition("-")
            if pid.isdigit() and _random:
                dead = not _alive(int(pid))
            else:
                try:
                    dead = time.time() - path.stat().st_mtime > ORPHAN_SECONDS
                except OSError:
                    continue
            if dead and path.is_dir():
                shutil.rmtree(path, ignore_errors=True)
                removed.append(path)
    return removed


def _swap(staging: Path, folder: Path) -> None:
    """Put a finished index in place; readers of the old one keep their open files."""
    old = _new_folder(folder, "old")
    if folder.exists():
        folder.replace(old / "index")
    staging.replace(folder)
    shutil.rmtree(old, ignore_errors=True)


def _editions_digest(conn: sqlite3.Connection) -> set[str]:
    return {
        f"{date} {sha}" for date, sha in conn.execute("SELECT date, content_sha256 FROM editions")
    }


def _write_stamp(folder: Path, stamp: str, conn: sqlite3.Connection) -> None:
    """Record what the index was built from: written last, so a crash leaves it stale."""
    lines = "\n".join(sorted(_editions_digest(conn)))
    (folder / EDITIONS_FILE).write_text(lines + "\n", encoding="utf-8")
    (folder / FORMAT_FILE).write_text(INDEX_FORMAT + "\n", encoding="utf-8")
    (folder / STAMP_FILE).write_text(stamp + "\n", encoding="utf-8")


def _needs_rebuild(conn: sqlite3.Connection, folder: Path) -> bool:
    """Whether an edition the index holds was replaced or dropped since, or a new one is
    older than one it holds (its bit would move every mask): then rebuild."""
    try:
        before = set((folder / EDITIONS_FILE).read_text(encoding="utf-8").split("\n")) - {""}
    except OSError:
        return True
    if not before <= _editions_digest(conn):
        return True
    held = sorted(line.split(" ")[0] for line in before)
    return _dates(conn)[: len(held)] != held


def update(
    conn: sqlite3.Connection,
    folder: Path,
    *,
    progress: Callable[[int, int], Callable[[int], None]] | None = None,
) -> UpdateReport:
    """Add only the new texts and rewrite the documents whose edition lists changed."""
    index = _whoosh("index")

    with reading(conn):
        if _needs_rebuild(conn, folder):
            return build(conn, folder, progress=progress)
        start = time.perf_counter()
        stamp = content_stamp(conn)
        wanted = document_sources(conn)
        dates = _dates(conn)
        _field_types()  # the schema names rules-kb's field types
        ix = index.open_dir(str(folder))
        with ix.reader() as reader:
            held = _stored_rows(reader)
            before = _read_filters(folder, reader)
        if before is None:  # no word counts to add to: start again
            return build(conn, folder, progress=progress, sources=wanted)
        have = {row.key: tuple(dates[bit] for bit in _bits(row.mask)) for row in held}
        changed = {key: src for key, src in wanted.items() if have.get(key) != src.editions}
        removed = [key for key in have if key not in wanted]
        if len(changed) + len(removed) > REBUILD_SHARE * max(len(wanted), 1):
            return build(conn, folder, progress=progress, sources=wanted)
        tick = progress(len(changed), 0) if progress else (lambda _n: None)
        (folder / STAMP_FILE).unlink(missing_ok=True)
        ordinals = {day: i for i, day in enumerate(dates)}
        gone = set(removed) | set(changed)
        numbers = [row.docnum for row in held if row.key in gone]
        words = Counter(before.words())
        new = {key for key in changed if key not in have}  # a re-listed text's words count once
        docs = documents(conn, changed)
        _write(ix, docs, numbers, tick, ordinals=ordinals, words=words, counted=new)
        with ix.reader() as reader:
            rows = _stored_rows(reader)
            lexicon = (words, map(_text, reader.lexicon("text")))
            generation, count = reader.generation(), reader.doc_count_all()
            _write_filters(folder, generation, count, dates, rows, lexicon)
        _write_stamp(folder, stamp, conn)
    return UpdateReport(
        "updated",
        added=len(new),
        changed=len(changed) - len(new),
        removed=len(removed),
        documents=len(wanted),
        seconds=time.perf_counter() - start,
    )


def ensure_index(
    conn: sqlite3.Connection,
    folder: Path,
    *,
    progress: Callable[[int, int], Callable[[int], None]] | None = None,
) -> UpdateReport:
    """Make the index agree with the database: nothing, an update, or a full build."""
    if folder.exists() and not folder.is_dir():
        raise SearchIndexError(f"{folder} is in the way of the search index: it is not a folder")
    try:
        with reading(conn):
            if is_fresh(conn, folder) and _has_index(folder):
                return UpdateReport("fresh")
            if _has_index(folder) and _current_format(folder):
                return update(conn, folder, progress=progress)
            return build(conn, folder, progress=progress)
    except OSError as error:
        raise SearchIndexError(f"cannot write the search index at {folder}: {error}") from error


def _has_index(folder: Path) -> bool:
    """Whether the folder holds a whoosh index (a table of contents), without importing whoosh."""
    try:
        names = os.listdir(folder)
    except OSError:
        return False
    return any(name.startswith("_MAIN_") and name.endswith(".toc") for name in names)


# the engine: one open index per process ---------------------------------------------


class Engine:
    """An open index, reused by every search of a process (an MCP server answers many):
    one Whoosh searcher with BM25F, the query parsers, the filters file and the filter
    sets made from it."""

    def __init__(self, folder: Path) -> None:
        _field_types()  # the schema names rules-kb's field types
        index, scoring = _whoosh("index"), _whoosh("scoring")
        self.folder = folder
        self.identity = _identity(folder)
        try:
            self.ix = index.open_dir(str(folder))
            weighting = scoring.BM25F(B=BM25_B, K1=BM25_K1)
            reader = self.ix.reader()
            self.searcher: Any = _searcher()(reader, fromindex=self.ix, weighting=weighting)
        except (OSError, index.EmptyIndexError) as error:
            raise SearchIndexError(f"cannot open the search index at {folder}: {error}") from error
        self.reader: Reader = self.searcher.reader()
        self.lock = threading.Lock()
        self.leaves: list[tuple[Reader, int]] = list(self.reader.leaf_readers())
        self.filters = _read_filters(folder, self.reader) or _filters_from_index(
            folder, self.reader
        )
        self.parsers = {any_word: _parser(self.ix.schema, any_word) for any_word in (False, True)}
        self._bases: dict[Filters, set[int] | None] = {}

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

        Texts are read through `conn`, inside its transaction (or one begun here)."""
        cleaned = checked_query(text)
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
            if _plain_words(cleaned):
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
        return Results(text, filters, 0, (), None)

    def _collect(self, query: Any, base: set[int] | None, limit: int) -> Any:
        """Whoosh's results of a query: the best `limit` documents of `base` (every
        document, if None), and how many matched. Whoosh's top-N shortcuts are off (block
        quality skipping, replacing matchers as the scores rise): they leave the number
        of matches uncounted or wrong."""
        collectors = _whoosh("collectors")
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
        query = _whoosh("query")
        parsed = self.parsers[any_word].parse(text)
        if parsed is query.NullQuery or isinstance(parsed, query.qcore._NullQuery):
            return None
        self._check(parsed)
        if _plain_words(text):
            words = stems(text)
            if len(words) >= 2:
                parsed = query.AndMaybe(parsed, query.Phrase("text", words, boost=PHRASE_BOOST))
        return parsed

    def _check(self, parsed: Any) -> None:
        """BadSearchQuery for fuzziness beyond MAX_FUZZY_EDITS and for wildcards too broad."""
        query = _whoosh("query")
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
                expansions = node._btexts(self.reader)
                if sum(1 for _ in islice(expansions, MAX_EXPANSIONS + 1)) > MAX_EXPANSIONS:
                    raise BadSearchQuery(
                        f"{written!r} matches more than {MAX_EXPANSIONS:,} words; give more letters"
                    )

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
        texts = _texts(conn, (record.text_id for record in records))
        terms = query.existing_terms(self.reader, phrases=True, expand=True)
        marked = frozenset(_text(term) for _name, term in terms)
        hits = []
        for (_docnum, score), record in zip(best, records, strict=True):
            text = texts.get(record.text_id, "")
            editions = tuple(self.filters.dates[bit] for bit in _bits(record.mask))
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
    searching, wrappers = _whoosh("searching"), _whoosh("matching.wrappers")

    class NarrowingSearcher(searching.Searcher):  # type: ignore[misc, name-defined]
        narrowed: set[int] | None = None
        """This searcher's (segment's) document numbers that a search may match."""

        def postings(self, fieldname: str, text: bytes, weighting: Any = None, qf: int = 1) -> Any:
            found = super().postings(fieldname, text, weighting=weighting, qf=qf)
            allowed = self.narrowed
            return found if allowed is None else wrappers.FilterMatcher(found, allowed)

        def narrow(self, allowed: set[int] | None) -> None:
            """Narrow the postings of the next searches to `allowed` (None: every document)."""
            self.narrowed = allowed
            for sub, offset in self.subsearchers or []:
                end = offset + sub.reader().doc_count_all()
                if allowed is None:
                    sub.narrowed = None
                else:
                    sub.narrowed = {d - offset for d in allowed if offset <= d < end}

    _SEARCHER.append(NarrowingSearcher)
    return NarrowingSearcher


def _nodes(query: Any) -> Iterator[Any]:
    """A Whoosh query and every query inside it."""
    yield query
    for child in query.children():
        yield from _nodes(child)


def _parser(schema: Any, any_word: bool) -> Any:
    """Whoosh's query parser over number, term and text, with the syntax rules-kb offers:
    words, "phrases", AND/OR/NOT/ANDNOT/ANDMAYBE, ( ), prefix*, wild?card, fuzzy~N/prefix.
    Field names, ranges, ^boosts and single quotes are not syntax (rule texts have
    colons, brackets and apostrophes)."""
    qparser = _whoosh("qparser")
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
    plugins, rcompile = _whoosh("qparser.plugins"), _whoosh("util.text").rcompile

    class FuzzyPlugin(plugins.FuzzyTermPlugin):  # type: ignore[misc, name-defined]
        expr = rcompile(r"(?<=\S)~(?P<maxdist>[0-9])?(/(?P<prefix>[0-9]+))?")

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
    except OSError as error:
        raise SearchIndexError(f"cannot open the search index at {folder}: {error}") from error
    return info.st_dev, info.st_ino, _stamp_of(folder), tocs


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


def _text(term: str | bytes) -> str:
    return term.decode() if isinstance(term, bytes) else str(term)


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
    if _stem(word) == "":
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
    checked_query(text)
    with reading(conn):
        for _attempt in range(3):
            ensure_index(conn, folder, progress=progress)
            results = search(conn, folder, text, filters, limit=limit)
            if is_fresh(conn, folder):
                return results
    raise SearchIndexError("the database kept changing during the search; try again")
