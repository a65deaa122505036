"""The Whoosh full-text index: build, incremental update, query.

Each distinct text is indexed once: a document is one (kind, number or term, text,
typography aside) with the list of edition dates that carried it, so all 134
editions make about 20,600 documents rather than 380,000 rows. The index lives in
a folder beside the database (``rules.db`` -> ``rules.db.search/``) and records the
content stamp it was built from; :func:`ensure_index` brings a stale or missing
index up to date before a query, and :func:`answer` checks the stamp again after
it, so a search never answers from an index that disagrees with the database.

Whoosh is imported lazily, in functions: a cold `rules-kb rule` never pays for it.
"""

from __future__ import annotations

import hashlib
import importlib
import re
import shutil
import sqlite3
import tempfile
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from rules_kb.errors import BadSearchQuery, SearchIndexError
from rules_kb.typography import fold, plain

# whoosh3's annotations are partial: its objects are typed loosely here.
Index = Any
Query = Any
Searcher = Any

Kind = Literal["rule", "example", "glossary"]
Match = Literal["all", "most", "any"]
KINDS: tuple[Kind, ...] = ("rule", "example", "glossary")
STAMP_FILE = "stamp"
VOCABULARY = "vocabulary"
WRITER_MB = 1024
EDITIONS_FILE = "editions"
MARK_OPEN, MARK_CLOSE = "<b>", "</b>"
FIELD_BOOSTS = {"number": 6.0, "term": 2.0, "text": 1.0}
# A judge searching for a keyword wants the rule first; the glossary entry next.
HEADINGS = {"section", "chapter", "rule"}
KIND_BOOSTS: dict[str, float] = {"rule": 1.0, "example": 0.7, "glossary": 0.35}
# When more than this share of the documents must change, a full rebuild is faster.
REBUILD_SHARE = 0.5
_WORD = re.compile(r"[A-Za-z][A-Za-z'’]*[A-Za-z]|[A-Za-z]")
_CITED = re.compile(r"\b(\d{3}(?:\.\d+[a-z]?)?)\b")
_SYNTAX = re.compile(r"[*?~]")
PHRASE_BOOST = 2.0
_OPERATORS = {"AND", "OR", "NOT", "ANDNOT", "ANDMAYBE", "TO"}
#: Words of a question asked in plain English ("what happens when a player concedes"):
#: the rules rarely contain them next to the words that matter.
_QUESTION_WORDS = {
    "what", "happens", "happen", "when", "how", "does", "do", "did", "why", "which",
    "who", "whom", "whose", "where", "is", "are", "was", "were", "can", "could", "should",
    "would", "i", "my", "me", "if", "there", "it", "its", "a", "an", "the",
}  # fmt: skip


@dataclass(frozen=True, slots=True)
class Document:
    """One distinct text as indexed."""

    key: str
    """Unique id: kind, number or term, and the text's id in the database."""
    kind: Kind
    """rule (sections, chapters, rules, subrules), example or glossary."""
    label: str
    """The rule number (for rules and examples) or the glossary term."""
    text: str
    """The text as stored."""
    editions: tuple[str, ...]
    """The edition dates that carried this text under this label, oldest first."""
    aliases: tuple[str, ...] = ()
    """Glossary terms whose definition cites this rule version."""
    heading: bool = False
    """A section, chapter or rule: a short text without a full stop is its title."""


@dataclass(frozen=True, slots=True)
class Hit:
    """One search result."""

    kind: Kind
    """rule, example or glossary."""
    label: str
    """The rule number, or the glossary term."""
    text: str
    """The full text."""
    score: float
    """BM25F score."""
    highlight: str
    """Fragments with matches between <b> and </b>."""
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


@dataclass(frozen=True, slots=True)
class Filters:
    """What a search is restricted to."""

    edition: str | None = None
    """One edition date; None for all editions."""
    kind: Kind | None = None
    section: str | None = None
    """A section digit, 1-9 (rules and examples only)."""
    chapter: str | None = None
    """A chapter, three digits (rules and examples only)."""


@dataclass(frozen=True, slots=True)
class Results:
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


@dataclass(slots=True)
class UpdateReport:
    """What ensure_index did."""

    action: Literal["fresh", "built", "updated"] = "fresh"
    added: int = 0
    changed: int = 0
    removed: int = 0
    documents: int = 0
    seconds: float = 0.0
    details: dict[str, Any] = field(default_factory=dict)


def _whoosh(module: str) -> Any:
    """A whoosh module, imported on first use (a cold lookup never pays for it)."""
    return importlib.import_module(f"whoosh.{module}")


# the database side -----------------------------------------------------------------


def index_dir(database: Path) -> Path:
    """The index folder beside a database file."""
    return database.with_name(database.name + ".search")


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


@dataclass(frozen=True, slots=True)
class Source:
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
    groups: dict[str, tuple[set[str], list[tuple[str, int]], bool]] = {}
    for kind, sql in _DOCUMENT_QUERIES.items():
        for label, text_id, dates, node in conn.execute(sql):
            key = _key(kind, label, texts[int(text_id)])
            days, variants, _heading = groups.setdefault(key, (set(), [], node in HEADINGS))
            found = set(re.split(r"[ ,]", dates))
            days |= found
            variants.append((max(found), int(text_id)))
    return {
        key: Source(tuple(sorted(days)), tuple(i for _day, i in sorted(variants)), heading)
        for key, (days, variants, heading) in groups.items()
    }


def _key(kind: str, label: str, text: str) -> str:
    """kind, label and a digest of the text with typography and spacing normalised."""
    digest = hashlib.blake2b(plain(text).encode(), digest_size=10).hexdigest()
    return f"{kind}\x1f{label}\x1f{digest}"


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
        text = texts[source.text_ids[-1]]
        yield Document(
            key,
            _as_kind(kind),
            label,
            text,
            source.editions,
            tuple(sorted(aliases)),
            source.heading,
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


# the index -------------------------------------------------------------------------


def schema() -> Any:
    """The index schema: boosted number and term, stemmed text, plain words for spelling."""
    analysis, fields = _whoosh("analysis"), _whoosh("fields")

    stemmed = analysis.StemmingAnalyzer()
    unstemmed = analysis.StandardAnalyzer(stoplist=None)
    # Only rule numbers reach the number field: "from" must not turn into number:from.
    numbers = analysis.RegexTokenizer(r"\b\d{3}(?:\.\d+[a-z]{0,2})?\b") | analysis.LowercaseFilter()
    return fields.Schema(
        key=fields.ID(unique=True, stored=True),
        kind=fields.ID(stored=True),
        number=fields.TEXT(
            analyzer=numbers, stored=True, phrase=False, field_boost=FIELD_BOOSTS["number"]
        ),
        term=fields.TEXT(analyzer=stemmed, stored=True, field_boost=FIELD_BOOSTS["term"]),
        text=fields.TEXT(analyzer=stemmed, stored=True, multitoken_query="phrase"),
        plain=fields.TEXT(analyzer=unstemmed, phrase=False),
        section=fields.ID(),
        chapter=fields.ID(),
        editions=fields.KEYWORD(stored=True),
    )


def _fields(document: Document) -> dict[str, Any]:
    text = document.text  # stored as published; curly quotes tokenise like straight ones
    values: dict[str, Any] = {
        "key": document.key,
        "kind": document.kind,
        "text": text,
        "editions": " ".join(document.editions),
        "_boost": KIND_BOOSTS[document.kind],
    }
    if document.kind == "glossary":
        values["term"] = document.label
    else:
        names = ([text] if _is_title(document) else []) + list(document.aliases)
        if names:
            values["term"] = "\n".join(names)
        values["number"] = document.label
        values["section"] = document.label[:1]
        if len(document.label) >= 3:
            values["chapter"] = document.label[:3]
    return values


def _is_title(document: Document) -> bool:
    """A heading ("702.19 Trample", "704. State-Based Actions") acts as a term: it names a rule."""
    text = document.text
    return document.heading and len(text) <= 60 and not text.endswith(".")


def _write(
    ix: Index,
    docs: Iterable[Document],
    removed: Iterable[str],
    tick: Callable[[int], None],
    *,
    fresh: bool,
) -> None:
    """Write documents (and the vocabulary) in one commit; readers never see half of it."""
    LockError = _whoosh("writing").LockError

    words: Counter[str] = Counter() if fresh else _vocabulary(ix)
    try:
        writer = ix.writer(timeout=30.0, limitmb=WRITER_MB)
    except LockError as error:
        raise SearchIndexError(f"the search index {ix.storage} is locked: {error}") from error
    add = writer.add_document if fresh else writer.update_document
    try:
        for key in removed:
            writer.delete_by_term("key", key)
        for count, document in enumerate(docs, 1):
            add(**_fields(document))
            words.update(_words(document))
            if count % 500 == 0:
                tick(500)
        writer.update_document(key=VOCABULARY, kind=VOCABULARY, plain=_vocabulary_text(words))
    except BaseException:
        writer.cancel()
        raise
    writer.commit()  # an update adds a small segment; whoosh merges small ones itself


def _words(document: Document) -> list[str]:
    text = f"{document.label}\n{document.text}" if document.kind == "glossary" else document.text
    return [word.lower() for word in _WORD.findall(fold(text))]


def _vocabulary(ix: Index) -> Counter[str]:
    """The words the index knows with their (approximate) counts, for spelling suggestions."""
    with ix.reader() as reader:
        return Counter(
            {
                word.decode() if isinstance(word, bytes) else str(word): 2 ** int(info.weight() - 1)
                for word, info in reader.iter_field("plain")
            }
        )


def _vocabulary_text(words: Counter[str]) -> str:
    """One document of every unstemmed word, repeated 1 + log2(count) times.

    Spelling needs only a lexicon with frequencies to rank suggestions: one document
    instead of a plain copy of every text keeps a third of the postings out of the index.
    """
    return " ".join(" ".join([word] * count.bit_length()) for word, count in words.items())


def _stored_editions(ix: Index) -> dict[str, tuple[str, ...]]:
    with ix.reader() as reader:
        return {
            stored["key"]: tuple(stored["editions"].split())
            for stored in reader.all_stored_fields()
            if stored["key"] != VOCABULARY
        }


def _stamp_of(folder: Path) -> str | None:
    try:
        return (folder / STAMP_FILE).read_text(encoding="utf-8").strip()
    except OSError:
        return None


def is_fresh(conn: sqlite3.Connection, folder: Path) -> bool:
    """Whether the index folder was built from exactly this database content."""
    return _stamp_of(folder) == content_stamp(conn)


def build(
    conn: sqlite3.Connection,
    folder: Path,
    *,
    progress: Callable[[int, int], Callable[[int], None]] | None = None,
    sources: dict[str, Source] | None = None,
) -> UpdateReport:
    """Build the index from scratch (in a temporary folder, then swapped in).

    `sources` are the document sources when the caller has read them already.
    """
    import time

    index = _whoosh("index")

    start = time.perf_counter()
    stamp = content_stamp(conn)
    wanted = document_sources(conn) if sources is None else sources
    tick = progress(len(wanted), 0) if progress else (lambda _n: None)
    folder.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=folder.name + ".new-", dir=folder.parent))
    ix = index.create_in(str(staging), schema())
    _write(ix, documents(conn, wanted), (), tick, fresh=True)
    _write_stamp(staging, stamp, conn)
    _swap(staging, folder)
    return UpdateReport(
        "built", added=len(wanted), documents=len(wanted), seconds=time.perf_counter() - start
    )


def _swap(staging: Path, folder: Path) -> None:
    """Put a finished index in place; readers of the old one keep their open files."""
    old = Path(tempfile.mkdtemp(prefix=folder.name + ".old-", dir=folder.parent))
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
    (folder / STAMP_FILE).write_text(stamp + "\n", encoding="utf-8")


def _replaced_editions(conn: sqlite3.Connection, folder: Path) -> bool:
    """Whether an edition the index holds was replaced or dropped since (then: rebuild)."""
    try:
        before = set((folder / EDITIONS_FILE).read_text(encoding="utf-8").split("\n")) - {""}
    except OSError:
        return True
    return not before <= _editions_digest(conn)


def update(
    conn: sqlite3.Connection,
    folder: Path,
    *,
    progress: Callable[[int, int], Callable[[int], None]] | None = None,
) -> UpdateReport:
    """Add only the new texts and rewrite the documents whose edition lists changed."""
    import time

    index = _whoosh("index")

    if _replaced_editions(conn, folder):
        return build(conn, folder, progress=progress)
    start = time.perf_counter()
    stamp = content_stamp(conn)
    wanted = document_sources(conn)
    ix = index.open_dir(str(folder))
    have = _stored_editions(ix)
    changed = {key: src for key, src in wanted.items() if have.get(key) != src.editions}
    removed = [key for key in have if key not in wanted]
    if len(changed) + len(removed) > REBUILD_SHARE * max(len(wanted), 1):
        return build(conn, folder, progress=progress, sources=wanted)
    tick = progress(len(changed), 0) if progress else (lambda _n: None)
    (folder / STAMP_FILE).unlink(missing_ok=True)
    _write(ix, documents(conn, changed), removed, tick, fresh=False)
    _write_stamp(folder, stamp, conn)
    added = sum(1 for key in changed if key not in have)
    return UpdateReport(
        "updated",
        added=added,
        changed=len(changed) - added,
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
    index = _whoosh("index")

    if folder.exists() and not folder.is_dir():
        raise SearchIndexError(f"{folder} is in the way of the search index: it is not a folder")
    try:
        if is_fresh(conn, folder) and index.exists_in(str(folder)):
            return UpdateReport("fresh")
        if index.exists_in(str(folder)):
            return update(conn, folder, progress=progress)
        return build(conn, folder, progress=progress)
    except OSError as error:
        raise SearchIndexError(f"cannot write the search index at {folder}: {error}") from error


# querying --------------------------------------------------------------------------


def _parser(ix: Index, *, any_word: bool = False) -> Any:
    """Words of the query must all match (any of them, when relaxed) in number, term or text."""
    qparser = _whoosh("qparser")

    group = qparser.OrGroup.factory(0.9) if any_word else qparser.AndGroup
    parser = qparser.MultifieldParser(
        ["number", "term", "text"], ix.schema, fieldboosts=FIELD_BOOSTS, group=group
    )
    parser.add_plugin(qparser.FuzzyTermPlugin())
    # Pasted rule text is full of {2}, [quality] and "Example:"; none of it is syntax here.
    for plugin in (qparser.RangePlugin, qparser.FieldsPlugin, qparser.BoostPlugin):
        parser.remove_plugin_class(plugin)
    return parser


def normalise_query(text: str) -> str:
    """Straight quotes and dashes; rule numbers as the index stores them (702.19B -> 702.19b)."""
    straight = fold(text).strip()
    return re.sub(r"\b(\d{3}\.\d+[A-Za-z]{0,2})\.?(?=\s|$)", lambda m: m.group(1).lower(), straight)


def _restrict(query: Query) -> Query:
    """Fuzzy terms search the stemmed text (the plain field holds only the vocabulary)."""
    FuzzyTerm = _whoosh("query").FuzzyTerm

    def visit(node: Query) -> Query:
        if isinstance(node, FuzzyTerm) and node.fieldname != "text":
            return FuzzyTerm(
                "text",
                node.text,
                boost=node.boost,
                maxdist=node.maxdist,
                prefixlength=node.prefixlength,
            )
        if node.is_leaf():
            return node
        return node.apply(visit)

    return visit(query).normalize()


def _filter(filters: Filters) -> Query | None:
    And, Term = _whoosh("query").And, _whoosh("query").Term

    terms = []
    if filters.edition:
        terms.append(Term("editions", filters.edition))
    if filters.kind:
        terms.append(Term("kind", filters.kind))
    if filters.section:
        terms.append(Term("section", filters.section))
    if filters.chapter:
        terms.append(Term("chapter", filters.chapter))
    if not terms:
        return None
    return terms[0] if len(terms) == 1 else And(terms)


def suggest(searcher: Searcher, text: str) -> str | None:
    """The query with unknown words replaced by the nearest indexed words, or None."""
    corrector = searcher.corrector("plain")
    reader = searcher.reader()
    changed = False

    def fix(match: re.Match[str]) -> str:
        nonlocal changed
        word = match.group(0)
        syntax = text[match.end() : match.end() + 1] in {"*", "?", "~"}
        if word in _OPERATORS or len(word) < 3 or syntax:
            return word
        lower = word.lower()
        if reader.doc_frequency("plain", lower) > 0 or _known_stem(searcher, lower):
            return word
        found = _nearest(reader, corrector, lower)
        if found is None:
            return word
        changed = True
        return found

    corrected = _WORD.sub(fix, text)
    return corrected if changed else None


def _nearest(reader: Any, corrector: Any, word: str) -> str | None:
    """The most frequent known word at the smallest edit distance (1, else 2)."""
    for distance in (1, 2):
        found = corrector.suggest(word, limit=8, maxdist=distance)
        if found:
            return str(max(found, key=lambda known: reader.frequency("plain", known)))
    return None


def _known_stem(searcher: Searcher, word: str) -> bool:
    """Whether the word's stem is indexed ("tramples" is no misspelling of "trample")."""
    stems = [token.text for token in searcher.schema["text"].analyzer(word)]
    return bool(stems) and all(searcher.doc_frequency("text", stem) > 0 for stem in stems)


def _highlight(hit: Any, text: str) -> str:
    fragments = hit.highlights("text", text=text, top=2)
    if fragments:
        return str(fragments)
    return text if len(text) <= 200 else text[:199].rstrip() + "…"


def _formatter() -> Any:
    """A whoosh formatter that wraps matches in <b></b> and joins fragments with an ellipsis."""
    highlight = _whoosh("highlight")

    class Marks(highlight.Formatter):  # type: ignore[misc,name-defined]
        between = " … "

        def format_token(self, text: str, token: Any, replace: bool = False) -> str:
            return f"{MARK_OPEN}{highlight.get_text(text, token, replace)}{MARK_CLOSE}"

    return Marks()


def _run(searcher: Searcher, query: Query, filters: Filters, limit: int) -> tuple[int, list[Hit]]:
    highlight = _whoosh("highlight")

    results = searcher.search(query, filter=_filter(filters), limit=limit)
    results.fragmenter = highlight.ContextFragmenter(maxchars=200, surround=60)
    results.formatter = _formatter()
    hits = []
    for hit in results:
        stored = hit.fields()
        kind = _as_kind(stored["kind"])
        label = stored.get("term") if kind == "glossary" else stored.get("number")
        text = stored["text"]
        hits.append(
            Hit(
                kind,
                str(label),
                text,
                float(hit.score),
                _highlight(hit, text),
                tuple(stored["editions"].split()),
            )
        )
    return len(results), hits


def _query(ix: Index, parser: Any, text: str) -> Query:
    """The parsed query; plain words also score extra where they occur as one phrase."""
    AndMaybe, Phrase = _whoosh("query").AndMaybe, _whoosh("query").Phrase

    parsed = _restrict(parser.parse(text))
    if _SYNTAX.search(text) or set(text.split()) & _OPERATORS:
        return parsed
    words = [token.text for token in ix.schema["text"].analyzer(text)]
    if len(words) < 2:
        return parsed
    return AndMaybe(parsed, Phrase("text", words, boost=PHRASE_BOOST))


def open_index(folder: Path) -> Index:
    """Open the index folder for reading."""
    index = _whoosh("index")

    try:
        return index.open_dir(str(folder))
    except (OSError, index.EmptyIndexError) as error:
        raise SearchIndexError(f"cannot open the search index at {folder}: {error}") from error


def search(ix: Index, text: str, filters: Filters, *, limit: int = 10) -> Results:
    """Run one query: every word must match; misspelled words are corrected; if nothing
    has every word, plain words are tried again as alternatives (best match first)."""
    cleaned = normalise_query(text)
    if not cleaned:
        raise BadSearchQuery("empty search query")
    with ix.searcher() as searcher:
        suggestion = suggest(searcher, cleaned)
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
            query = _query(ix, _parser(ix, any_word=match == "any"), query_text)
            total, hits = _run(searcher, query, filters, limit)
            if total:
                return Results(text, filters, total, tuple(hits), shown, match)
    return Results(text, filters, 0, (), None)


def _without_question_words(text: str) -> str | None:
    """The query without the words of a question, when that leaves a shorter query."""
    words = text.split()
    kept = [word for word in words if word.lower() not in _QUESTION_WORDS]
    return " ".join(kept) if kept and len(kept) < len(words) else None


def _plain_words(text: str) -> bool:
    """Whether the query is just words (no operators, wildcards, fuzzy marks or phrases)."""
    return not (_SYNTAX.search(text) or '"' in text or set(text.split()) & _OPERATORS)


def answer(
    conn: sqlite3.Connection,
    folder: Path,
    text: str,
    filters: Filters,
    *,
    limit: int = 10,
    progress: Callable[[int, int], Callable[[int], None]] | None = None,
) -> Results:
    """Bring the index up to date, search it, and make sure the database did not move meanwhile."""
    for _attempt in range(3):
        ensure_index(conn, folder, progress=progress)
        results = search(open_index(folder), text, filters, limit=limit)
        if is_fresh(conn, folder):
            return results
    raise SearchIndexError("the database kept changing during the search; try again")
