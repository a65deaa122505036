"""The analysed writer against Whoosh's own `add_document`: the same index, posting by
posting, on the documents of real editions (a fresh build, and a merge of segments)."""

from __future__ import annotations

import sqlite3
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from rules_kb.search import index as si
from rules_kb.search.index_writer import TermPool, analysed_writer
from tests.conftest import SHARED, ok_cli

FIELDS = ("number", "term", "text")


@pytest.fixture(scope="module")
def documents(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[si.Document], list[str]]:
    """The documents of three editions: the 1999 first, the 2009 overhaul, the newest."""
    db = tmp_path_factory.mktemp("writer") / "three.db"
    days = ("1999-04-23", "2009-10-01", "2026-08-07")
    ok_cli("ingest", *(SHARED / f"{day}.txt" for day in days), "--db", db, "--no-index")
    with sqlite3.connect(db) as conn:
        docs = list(si.documents(conn, si.document_sources(conn)))
        return docs, si._dates(conn)


def raw_fields(doc: si.Document, ordinals: dict[str, int]) -> dict[str, Any]:
    """What Whoosh's add_document takes: the number as printed (Whoosh's analyzer of the
    field runs), the stems of the text and names as token lists (positions count the
    stems, so a phrase with a stop word in it matches), the document boost."""
    values, row = si._fields(doc, ordinals, [])
    raw = {"text": si.stems(doc.text), "doc": values["doc"], "_boost": si.KIND_BOOSTS[doc.kind]}
    if "number" in values:
        raw["number"] = doc.label
    if row.names:
        raw["term"] = si.stems(row.names)
    return raw


def whoosh_writes(folder: Path, docs: list[si.Document], dates: list[str]) -> Any:
    """The reference: Whoosh's own add_document, its pool and its sort."""
    folder.mkdir()
    ix = si.whoosh_module("index").create_in(str(folder), si.schema())
    writer = ix.writer(codec=si._codec(), compound=False)
    ordinals = {day: i for i, day in enumerate(dates)}
    for doc in docs:
        writer.add_document(**raw_fields(doc, ordinals))
    writer.commit()
    return ix


def analysed_writes(folder: Path, docs: list[si.Document], dates: list[str]) -> Any:
    folder.mkdir()
    ix = si.whoosh_module("index").create_in(str(folder), si.schema())
    ordinals = {day: i for i, day in enumerate(dates)}
    si._write(ix, docs, (), lambda _n: None, ordinals=ordinals, words=Counter())
    return ix


def contents(ix: Any) -> dict[str, Any]:
    """Everything a search reads of an index: per field every term's postings (document,
    weight, positions) and statistics, field lengths per document, stored values."""
    found: dict[str, Any] = {}
    with ix.reader() as reader:
        found["documents"] = reader.doc_count_all()
        found["stored"] = [reader.stored_fields(n) for n in range(reader.doc_count_all())]
        for field in FIELDS:
            found[f"{field} length"] = reader.field_length(field)
            found[f"{field} lengths"] = [
                reader.doc_field_length(n, field) for n in range(reader.doc_count_all())
            ]
            terms = {}
            for term in reader.lexicon(field):
                info = reader.term_info(field, term)
                matcher = reader.postings(field, term)
                postings = []
                while matcher.is_active():
                    postings.append((matcher.id(), matcher.weight(), matcher.value()))
                    matcher.next()
                stats = (info.weight(), info.doc_frequency(), info.max_weight())
                terms[term] = (stats, postings)
            found[field] = terms
    return found


@pytest.mark.corpus
def test_the_analysed_writer_writes_what_whoosh_writes(
    tmp_path: Path, documents: tuple[list[si.Document], list[str]]
) -> None:
    docs, dates = documents
    assert len(docs) > 6000
    mine = contents(analysed_writes(tmp_path / "mine", docs, dates))
    theirs = contents(whoosh_writes(tmp_path / "whoosh", docs, dates))
    assert mine["documents"] == theirs["documents"] == len(docs)
    for key in theirs:
        assert mine[key] == theirs[key], key
    # the segment names plain whoosh3 as its codec: Whoosh alone reads it
    (toc,) = (tmp_path / "mine").glob("*.toc")
    assert b"index_writer" not in toc.read_bytes() and b"whoosh3" in toc.read_bytes()
    # the numbers, the glossary terms, repeated words with several positions all occur
    assert b"702.19b" in mine["number"] and b"trampl" in mine["term"]
    assert any(len(postings) > 100 for _stats, postings in mine["text"].values())


@pytest.mark.corpus
def test_a_merge_of_segments_goes_through_the_pool(
    tmp_path: Path, documents: tuple[list[si.Document], list[str]]
) -> None:
    """A commit that merges earlier segments into the new one (optimize) writes what
    Whoosh writes: the merged postings come through `TermPool.add`."""
    docs, dates = documents
    first, second = docs[:3000], docs[3000:3500]
    ordinals = {day: i for i, day in enumerate(dates)}
    mine = analysed_writes(tmp_path / "mine", first, dates)
    writer = analysed_writer(mine, codec=si._codec(), compound=False)
    for doc in second:
        values, _row = si._fields(doc, ordinals, si.stems(doc.text))
        writer.add_terms(values, si.KIND_BOOSTS[doc.kind])
    assert isinstance(writer.pool, TermPool)
    writer.commit(optimize=True)
    theirs = whoosh_writes(tmp_path / "whoosh", first, dates)
    reference = theirs.writer(codec=si._codec(), compound=False)
    for doc in second:
        reference.add_document(**raw_fields(doc, ordinals))
    reference.commit(optimize=True)
    assert len(mine.reader().leaf_readers()) == 1
    merged, expected = contents(mine), contents(theirs)
    assert merged["documents"] == 3500
    for key in expected:
        assert merged[key] == expected[key], key


def test_the_pool_gives_postings_in_whooshs_order() -> None:
    """By field, term and document, whatever order `add` saw (Whoosh's pool sorts)."""
    pool = TermPool()
    pool.add(("text", b"trampl", 7, 1.0, b"x"))
    pool.add(("number", b"702.19", 3, 6.0, None))
    pool.add(("text", b"trampl", 2, 2.0, b"y"))
    pool.add(("text", b"damag", 9, 1.0, b"z"))
    assert list(pool.iter_postings()) == [
        ("number", b"702.19", 3, 6.0, b""),
        ("text", b"damag", 9, 1.0, b"z"),
        ("text", b"trampl", 2, 2.0, b"y"),
        ("text", b"trampl", 7, 1.0, b"x"),
    ]
    pool.cleanup()
    assert list(pool.iter_postings()) == []


def test_the_writer_refuses_fields_it_cannot_write(tmp_path: Path) -> None:
    fields, index = si.whoosh_module("fields"), si.whoosh_module("index")
    ix = index.create_in(str(tmp_path), fields.Schema(title=fields.TEXT(stored=True)))
    with pytest.raises(TypeError, match="'title'"):
        analysed_writer(ix, codec=si._codec())
    numeric = index.create_in(str(tmp_path), fields.Schema(year=fields.NUMERIC()), "n")
    with pytest.raises(TypeError, match="'year'"):
        analysed_writer(numeric, codec=si._codec())
    plain = index.create_in(str(tmp_path), si.schema(), "plain")
    with_lengths = si.whoosh_module("codec.whoosh3").W3Codec()
    with pytest.raises(TypeError, match="length stats"):
        analysed_writer(plain, codec=with_lengths)
    ix.writer().cancel()  # the refusal left the index unlocked
