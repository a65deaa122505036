"""The Whoosh full-text index beside the database: its documents, schema, build and
incremental update, and the filters file.

Each distinct text is indexed once: a document is one (kind, number or term, text,
typography aside) with the editions that carried it, so all 134 editions make about
20,500 documents rather than 380,000 rows. The index lives in a folder beside the
database (``rules.db`` -> ``rules.db.search/``) and records the content stamp it was
built from; :func:`ensure_index` brings a stale or missing index up to date (built in a
staging folder and swapped in, or updated in place for the new texts only).

What the index holds, and what it does not:

- Whoosh postings with frequencies and positions (for Whoosh's phrase queries) for the
  stemmed ``text`` and ``term`` fields and for rule numbers, in separate (not compound)
  segment files.
- Stored per document, only to be read back by an update: its key, the text's id in
  the database, its glossary names, and its editions as a bit mask over the index's
  own list of edition dates. The text itself is read from the database, in the
  caller's read transaction.
- Beside the segments, a ``filters.<generation>`` file, memory-mapped by searches: for
  every edition, kind, section and chapter the sorted document numbers that belong to
  it; each document's record (kind, label, editions, text id, names); the words of the
  texts with their counts, for spelling. A filter is then one small array, not a
  posting list per edition (those were 40% of all postings and most of the build).

Whoosh is imported lazily, in functions: a cold `rules-kb rule` never pays for it.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import os
import re
import shutil
import sqlite3
import sys
import time
import zlib
from array import array
from collections import Counter
from collections.abc import Callable, Container, Iterable, Iterator, Sequence
from contextlib import contextmanager
from itertools import accumulate
from pathlib import Path
from typing import Any, Literal, NamedTuple

from rules_kb.errors import SearchIndexError
from rules_kb.ingest.readonly import rows_in
from rules_kb.ingest.readonly import texts as read_texts
from rules_kb.records.search import Kind as Kind
from rules_kb.search.index_writer import analysed_writer
from rules_kb.search.stamp import (
    FORMAT_FILE,
    INDEX_FORMAT,
    STAMP_FILE,
    content_stamp,
    current_format,
    database_identity,
    has_index,
    stamp_of,
    up_to_date,
)
from rules_kb.typography import plain

# whoosh3's annotations are partial: its objects are typed loosely here.
Index = Any
Reader = Any

KINDS: tuple[Kind, ...] = ("rule", "example", "glossary")
EDITIONS_FILE = "editions"
FILTERS_FILE = "filters"
#: Query-time boosts of the fields (also their index-time field boosts).
FIELD_BOOSTS = {"number": 6.0, "term": 2.0, "text": 1.0}
HEADINGS = {"section", "chapter", "rule"}
# A judge searching for a keyword wants the rule first; the glossary entry next.
KIND_BOOSTS: dict[str, float] = {"rule": 1.0, "example": 0.7, "glossary": 0.35}
# When more than this share of the documents must change, a full rebuild is faster.
REBUILD_SHARE = 0.5
#: A staging folder of a build whose name carries no process id (made by an older
#: rules-kb) is removed once it has not been touched for this long.
ORPHAN_SECONDS = 3600.0

_CITED = re.compile(r"\b(\d{3}(?:\.\d+[a-z]?)?)\b")
#: The tokenizer of StemmingAnalyzer as the schema sets it: whoosh's default (words, and
#: numbers with their dots), and a mana or tap symbol read whole ("{T}", "{2}", "{W/U}"),
#: which the default would cut to one letter and drop.
TOKEN = re.compile(r"\{[^{}\s]{1,5}\}|\w+(?:\.?\w+)*")
#: Only rule numbers reach the number field: "from" must not turn into number:from.
_NUMBER_PATTERN = r"\b\d{3}(?:\.\d+[a-z]{0,2})?\b"
_NUMBER = re.compile(_NUMBER_PATTERN)


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


def whoosh_module(module: str) -> Any:
    """A whoosh module, imported on first use (a cold lookup never pays for it)."""
    return importlib.import_module(f"whoosh.{module}")


# the database side -----------------------------------------------------------------


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


#: Each document's label, text, the editions carrying it (ids, comma-separated; dates
#: are looked up afterwards, which spares the join over every rule row) and its kind.
_DOCUMENT_QUERIES: dict[Kind, str] = {
    "rule": """
        SELECT r.number, r.text_id, group_concat(r.edition_id), max(r.kind)
        FROM rules r GROUP BY r.number, r.text_id""",
    "example": """
        SELECT r.number, x.text_id, group_concat(DISTINCT x.edition_id), 'example'
        FROM examples x
        JOIN rules r ON r.edition_id = x.edition_id AND r.seq = x.rule_seq
        GROUP BY r.number, x.text_id""",
    "glossary": """
        SELECT g.term, g.text_id, group_concat(DISTINCT g.edition_id), 'glossary'
        FROM glossary g GROUP BY g.term, g.text_id""",
}


_EDITION_DATES = "SELECT id, date FROM editions"


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
    dates = {str(edition_id): str(day) for edition_id, day in conn.execute(_EDITION_DATES)}
    digests: dict[int, str] = {}
    groups: dict[str, tuple[set[str], list[tuple[str, int]], bool]] = {}
    for kind, sql in _DOCUMENT_QUERIES.items():
        for label, text_id, edition_ids, node in conn.execute(sql):
            digest = digests.get(text_id)
            if digest is None:
                digest = digests[text_id] = _digest(texts[int(text_id)])
            key = f"{kind}\x1f{label}\x1f{digest}"
            days, variants, _heading = groups.setdefault(key, (set(), [], node in HEADINGS))
            found = {dates[edition_id] for edition_id in str(edition_ids).split(",")}
            days |= found
            variants.append((max(found), int(text_id)))
    return {
        key: Source(tuple(sorted(days)), tuple(i for _day, i in sorted(variants)), heading)
        for key, (days, variants, heading) in groups.items()
    }


def _digest(text: str) -> str:
    """A digest of the text with typography and spacing normalised."""
    return hashlib.blake2b(plain(text).encode(), digest_size=10).hexdigest()


def documents(conn: sqlite3.Connection, sources: dict[str, Source]) -> Iterator[Document]:
    """The documents for these sources, with the newest variant of their text."""
    texts = read_texts(conn, (source.text_ids[-1] for source in sources.values()))
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
            as_kind(kind),
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
    cited: dict[int, list[str]] = {}
    entries = []
    rows = conn.execute(
        "SELECT g.edition_id, g.term, g.text_id, t.text FROM glossary g"
        " JOIN texts t ON t.id = g.text_id"
    )
    for edition_id, term, text_id, text in rows:
        if text_id not in cited:
            cited[text_id] = _CITED.findall(text)
        entries.append((int(edition_id), str(term), int(text_id)))
    # Only the rules some definition cites (a few hundred numbers, not every rule row).
    numbers = sorted({number for found in cited.values() for number in found})
    sql = "SELECT edition_id, number, text_id FROM rules WHERE number IN ({marks})"
    versions = {
        (int(edition_id), str(number)): int(text_id)
        for edition_id, number, text_id in rows_in(conn, sql, numbers)
    }
    names: dict[tuple[str, int], set[str]] = {}
    for edition_id, term, text_id in entries:
        for number in cited[text_id]:
            version = versions.get((edition_id, number))
            if version is not None:
                names.setdefault((number, version), set()).add(term)
    return names


def as_kind(value: str) -> Kind:
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


def stem(lower: str) -> str:
    """The index term of one lowercased token, or "" when the analyzer drops it."""
    global _PORTER, _STOP
    found = _STEMS.get(lower)
    if found is not None:
        return found
    if _PORTER is None:
        _PORTER = whoosh_module("lang.porter").stem
        _STOP = stop_words()
    stem = "" if len(lower) < 2 or lower in _STOP else str(_PORTER(lower))
    if len(_STEMS) > 200_000:  # hostile queries must not grow it without end
        _STEMS.clear()
    _STEMS[lower] = stem
    return stem


def stop_words() -> frozenset[str]:
    """The words the analyzer drops (Whoosh's StemmingAnalyzer's stop list)."""
    return frozenset(whoosh_module("analysis.filters").STOP_WORDS)


def _lowered(text: str) -> list[str]:
    """The text's tokens, lowercased (the whole text at once where that splits it the same:
    only "İ" grows when lowercased)."""
    if "\u0130" in text:
        return [token.lower() for token in TOKEN.findall(text)]
    return TOKEN.findall(text.lower())


def _stems_of(tokens: list[str]) -> list[str]:
    for token in set(tokens).difference(_STEMS):
        stem(token)
    return [stem for stem in map(_STEMS.__getitem__, tokens) if stem]


def number_terms(label: str) -> list[str]:
    """The number field's terms of a label: what its analyzer (the number pattern,
    lowercased) yields."""
    return [token.lower() for token in _NUMBER.findall(label)]


def stems(text: str) -> list[str]:
    """The index terms of a text in order: what whoosh's StemmingAnalyzer yields (its
    tokenizer, lowercase, stop words, words of two letters or more, Porter stems),
    without its per-token objects. Phrases count positions in this list."""
    return _stems_of(_lowered(text))


# the index -------------------------------------------------------------------------

_TYPES: dict[str, type] = {}


def field_types() -> dict[str, type]:
    """rules-kb's whoosh field types, made on first use (the schema refers to them by name).

    StemmedText is Whoosh's TEXT with StemmingAnalyzer, frequencies and positions (for
    Whoosh's phrase queries); words that analyse to several terms ("state-based") are a
    phrase. The build does not run the analyzer: it indexes what `stems` yields, which is
    StemmingAnalyzer's analysis exactly (the query parser applies the analyzer to the
    query), so the index, the queries and the highlights never analyse a text
    differently. Positions count the stems, not the stop words between them, so that
    "spell or ability" matches as a phrase.
    """
    if _TYPES:
        return _TYPES
    fields, analysis = whoosh_module("fields"), whoosh_module("analysis")

    def init(self: Any, field_boost: float = 1.0) -> None:
        fields.TEXT.__init__(
            self,
            analyzer=analysis.StemmingAnalyzer(expression=TOKEN),
            phrase=True,
            field_boost=field_boost,
        )
        self.multitoken_query = "phrase"

    stemmed = type(
        "StemmedText",
        (fields.TEXT,),
        {"__init__": init, "__module__": __name__, "__qualname__": "StemmedText"},
    )
    globals()["StemmedText"] = stemmed  # where pickle finds it when the schema is read back
    _TYPES["StemmedText"] = stemmed
    return _TYPES


def schema() -> Any:
    """The index schema: boosted rule numbers and terms, stemmed text; what the filters
    file needs of each document, stored to be read back after an update."""
    analysis, fields = whoosh_module("analysis"), whoosh_module("fields")
    stemmed = field_types()["StemmedText"]
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
    codec = whoosh_module("codec.whoosh3").W3Codec(
        blocklimit=BLOCK_POSTINGS, compression=BLOCK_COMPRESSION
    )
    codec.length_stats = False
    return codec


def mask_bits(mask: int) -> list[int]:
    """The positions of the bits set in a mask, lowest first."""
    return [at for at, bit in enumerate(reversed(f"{mask:b}")) if bit == "1"]


def _fields(
    document: Document, ordinals: dict[str, int], text_terms: list[str]
) -> tuple[dict[str, Any], _Row]:
    """The whoosh fields of a document, analysed (`text_terms` are its text's stems), and
    its row for the filters file (numbered 0)."""
    values: dict[str, Any] = {"text": text_terms}
    names = ""
    if document.kind == "glossary":
        names = document.label
    else:
        titles = ([document.text] if _is_title(document) else []) + list(document.aliases)
        names = "\n".join(titles)
        values["number"] = number_terms(document.label)
    if names:
        values["term"] = stems(names)
    bits = [ordinals[day] for day in document.editions]
    row = _Row(0, document.key, sum(map((1).__lshift__, bits)), document.text_id, names)
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
    LockError = whoosh_module("writing").LockError

    try:
        # Separate files, not one compound file: whoosh copies every part of a compound
        # segment into memory when it opens it, which a cold search would pay for.
        writer = analysed_writer(ix, timeout=30.0, codec=_codec(), compound=False)
    except LockError as error:
        raise SearchIndexError(f"the search index {ix.storage} is locked: {error}") from error
    rows: list[_Row] = []
    try:
        for docnum in removed:
            writer.delete_document(docnum)
        count = 0
        for count, document in enumerate(docs, 1):
            tokens = _lowered(document.text)  # analysed once, for the index and the words
            values, row = _fields(document, ordinals, _stems_of(tokens))
            writer.add_terms(values, KIND_BOOSTS[document.kind])
            row.docnum = count - 1
            rows.append(row)
            if counted is None or document.key in counted:
                words.update(tokens)
                if document.kind == "glossary":
                    words.update(_lowered(document.label))
            if count % 500 == 0:
                tick(500)
        if count % 500:
            tick(count % 500)  # (the last, partial, batch)
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
    by_edition = [sets.setdefault(f"e:{day}", []) for day in dates]
    for row in sorted(rows, key=lambda row: row.docnum):
        docnum = row.docnum
        kind, label, _digest = row.key.split("\x1f")
        names = ["all", f"k:{kind}"]
        if kind != "glossary":
            names.append(f"s:{label[:1]}")
            if len(label) >= 3:
                names.append(f"c:{label[:3]}")
        for name in names:
            sets.setdefault(name, []).append(docnum)
        for bit in row.ordinals or mask_bits(row.mask):
            by_edition[bit].append(docnum)
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
    words: Counter[str],
) -> None:
    """Write filters.<generation> (atomically) and drop those older than the one before it.

    `words`: the words of the texts with their counts (spelling suggestions pick the
    most frequent near word)."""
    blobs: list[bytes] = []
    offsets: dict[str, list[int]] = {}
    position = 0
    packed = {name: _pack(numbers) for name, numbers in _sets_of(rows, dates).items()}
    records, starts = _records(rows, doccount)
    packed["#records"] = records
    packed["#offsets"] = starts.tobytes()
    spelled = "\n".join(f"{word} {n}" for word, n in sorted(words.items()) if word.isalpha())
    packed["#words"] = zlib.compress(spelled.encode(), 6)
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


class FiltersFile:
    """The filters file of one index generation, mapped into memory and decoded on demand
    (a search reads a few of its pieces: one edition's documents, ten records)."""

    __slots__ = ("_words", "blobs", "data", "dates", "offsets", "records", "sets")

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
        return _Record(as_kind(kind), label, int(mask, 16), int(text_id), names)

    def text_id(self, docnum: int) -> int:
        return int(self._record(docnum).split(b"\x1f", 4)[3])


def read_filters(folder: Path, reader: Reader) -> FiltersFile | None:
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
        return FiltersFile(tuple(dates.split()), data, blobs)
    except (ValueError, KeyError):
        data.close()
        return None


def filters_from_index(folder: Path, reader: Reader) -> FiltersFile:
    """The filters, computed from the stored fields (when the file is missing: slower)."""
    dates = _index_dates(folder)
    rows = _stored_rows(reader)
    records, offsets = _records(rows, reader.doc_count_all())
    sets = {name: frozenset(numbers) for name, numbers in _sets_of(rows, dates).items()}
    data = offsets.tobytes() + records
    blobs = {"#offsets": (0, len(offsets.tobytes())), "#records": (len(offsets.tobytes()), 0)}
    return FiltersFile(tuple(dates), data, blobs, sets)


def _index_dates(folder: Path) -> list[str]:
    """The edition dates the index was built from, in order (their bits in every mask)."""
    try:
        lines = (folder / EDITIONS_FILE).read_text(encoding="utf-8").split("\n")
    except OSError:
        return []
    return sorted({line.split(" ")[0] for line in lines if line})


# building and updating -------------------------------------------------------------


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
    index = whoosh_module("index")

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
                _write_filters(staging, reader.generation(), len(rows), dates, rows, words)
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


#: Times a finished index is put in place while other processes keep putting theirs.
SWAP_ATTEMPTS = 5


def _swap(staging: Path, folder: Path) -> None:
    """Put a finished index in place; readers of the old one keep their open files.

    Two processes may build at once (searches during an ingest): another's index can
    land in place between moving the old one aside and moving this one in. It is moved
    aside in turn, and the last build in wins; every reader checks freshness anyway."""
    old = _new_folder(folder, "old")
    try:
        for attempt in range(SWAP_ATTEMPTS):
            with contextlib.suppress(FileNotFoundError):  # another process moved it
                folder.replace(old / f"index-{attempt}")
            try:
                staging.replace(folder)
                return
            except OSError:
                # another index landed in place first: move it aside too, unless that
                # is not what failed
                if not folder.exists() or attempt == SWAP_ATTEMPTS - 1:
                    raise
    finally:
        shutil.rmtree(old, ignore_errors=True)


def _editions_digest(conn: sqlite3.Connection) -> set[str]:
    return {
        f"{date} {sha}" for date, sha in conn.execute("SELECT date, content_sha256 FROM editions")
    }


def _write_stamp(folder: Path, stamp: str, conn: sqlite3.Connection) -> None:
    """Record what the index was built from: written last, so a crash leaves it stale.
    The editions' books saved beside it (see :func:`rules_kb.search.answers.save_book`)
    were made for the content before, and go."""
    for book in (*folder.glob("book-*.pickle"), *folder.glob(".book-*")):
        with contextlib.suppress(OSError):
            book.unlink()
    lines = "\n".join(sorted(_editions_digest(conn)))
    (folder / EDITIONS_FILE).write_text(lines + "\n", encoding="utf-8")
    (folder / FORMAT_FILE).write_text(INDEX_FORMAT + "\n", encoding="utf-8")
    (folder / STAMP_FILE).write_text(stamp + "\n", encoding="utf-8")


def _needs_rebuild(conn: sqlite3.Connection, folder: Path) -> bool:
    """Whether the index was made from another database, or an edition it holds was
    replaced or dropped since, or a new one is older than one it holds (its bit would move
    every mask): then rebuild."""
    stamp = stamp_of(folder)
    if stamp is None or stamp.split(":", 1)[0] != database_identity(conn):
        return True  # made from another database: its text ids are not this one's
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
    index = whoosh_module("index")

    with reading(conn):
        if _needs_rebuild(conn, folder):
            return build(conn, folder, progress=progress)
        start = time.perf_counter()
        stamp = content_stamp(conn)
        wanted = document_sources(conn)
        dates = _dates(conn)
        field_types()  # the schema names rules-kb's field types
        ix = index.open_dir(str(folder))
        with ix.reader() as reader:
            held = _stored_rows(reader)
            before = read_filters(folder, reader)
        if before is None:  # no word counts to add to: start again
            return build(conn, folder, progress=progress, sources=wanted)
        have = {row.key: tuple(dates[bit] for bit in mask_bits(row.mask)) for row in held}
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
            generation, count = reader.generation(), reader.doc_count_all()
            _write_filters(folder, generation, count, dates, rows, words)
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
            if up_to_date(conn, folder):
                return UpdateReport("fresh")
            if has_index(folder) and current_format(folder):
                return update(conn, folder, progress=progress)
            return build(conn, folder, progress=progress)
    except OSError as error:
        raise SearchIndexError(f"cannot write the search index at {folder}: {error}") from error
