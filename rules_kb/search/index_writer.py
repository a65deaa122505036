"""A Whoosh segment writer for documents whose fields rules-kb has analysed already.

Whoosh's own ``add_document`` runs each field's analyzer, hands every posting to a
generic pool that checks and sizes it one by one, and sorts all of them at the commit.
rules-kb analyses its texts itself (``index.stems`` is the stemming analyzer's
output, ``index.number_terms`` the number field's), so this writer takes each
indexed field as its terms in order and files the postings under their term as they
come: the commit sorts the 11,000 terms, not the 449,000 postings.

Everything else is Whoosh's: the segment, its per-document writer (field lengths, stored
values), the term table and the postings format. The commit hands each term's postings
to whoosh3's postings writer a block at a time rather than one call (and four type
checks) per posting; that reaches into whoosh3's writer classes, which the version pin
(``whoosh3 <4``) and the tests hold still. A merge of small segments at the commit goes
through the same pool by Whoosh's own path. The segments name plain whoosh3 as their
codec: Whoosh alone reads them. A test builds an index both ways and compares every
term, posting, weight, position, length and stored value.

Whoosh is imported on first use: the class is made then.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from typing import Any

Posting = tuple[int, float, bytes]
"""(document number, weight, encoded positions)."""

#: field name -> term -> its postings, in adding order.
Postings = dict[str, dict[str, list[Posting]]]

_CLASSES: dict[str, type] = {}


class TermPool:
    """The postings of the segment being written, by field and term.

    It answers what Whoosh's SegmentWriter asks of its pool: ``add`` (a merged segment's
    postings), ``iter_postings`` (all of them in order) and ``cleanup``. Terms are kept
    as text, encoded once each when written: UTF-8 sorts as the text does, so the order
    is Whoosh's (by field, then term bytes, then document).
    """

    __slots__ = ("merged", "terms")

    def __init__(self) -> None:
        self.terms: Postings = {}
        self.merged = False
        """Postings came through `add`: their document numbers may need sorting."""

    def add(self, item: tuple[str, bytes, int, float, bytes | None]) -> None:
        fieldname, tbytes, docnum, weight, vbytes = item
        words = self.terms.setdefault(fieldname, {})
        posting = (docnum, weight, b"" if vbytes is None else vbytes)
        found = words.get(word := tbytes.decode("utf-8"))  # text fields only: see _check
        if found is None:
            words[word] = [posting]
        else:
            found.append(posting)
        self.merged = True

    def iter_postings(self) -> Iterator[tuple[str, bytes, int, float, bytes]]:
        """(field, term, document, weight, value), by field, term and document number."""
        for fieldname, tbytes, postings in self.sorted():
            for docnum, weight, vbytes in postings:
                yield fieldname, tbytes, docnum, weight, vbytes

    def sorted(self) -> Iterator[tuple[str, bytes, list[Posting]]]:
        """(field, term, its postings by document), by field and term."""
        for fieldname in sorted(self.terms):
            words = self.terms[fieldname]
            for word in sorted(words):
                postings = words[word]
                if self.merged:
                    postings.sort(key=_docnum)
                yield fieldname, word.encode(), postings

    def cleanup(self) -> None:
        self.terms = {}


def _docnum(posting: Posting) -> int:
    return posting[0]


def analysed_writer(ix: Any, *, codec: Any, **options: Any) -> Any:
    """A writer for `ix` with `add_terms`: Whoosh's SegmentWriter with these `options`,
    writing segments of `codec` (a whoosh3 codec without length statistics).

    Raises TypeError when the schema has what `add_terms` does not write: term vectors,
    sortable columns, separate spelling fields, indexed fields that are also stored or
    that are not text; or when the codec is not such a whoosh3 codec."""
    _check(ix.schema, codec)  # before the writer takes the lock
    writer_class = _CLASSES.get("AnalysedWriter") or _make_classes()
    return writer_class(ix, codec=_CLASSES["ListCodec"](codec), **options)


def _check(schema: Any, codec: Any) -> None:
    w3 = importlib.import_module("whoosh.codec.whoosh3")
    text = importlib.import_module("whoosh.fields").TEXT
    if type(codec) is not w3.W3Codec or codec.length_stats:
        raise TypeError("the analysed writer writes whoosh3 segments without length stats")
    for name, field in schema.items():
        if (
            field.vector
            or field.column_type
            or field.separate_spelling()
            or (field.indexed and (field.stored or not isinstance(field, text)))
        ):
            raise TypeError(f"add_terms cannot write field {name!r}: use add_document")


def _make_classes() -> type:
    # Whoosh's annotations are partial: its classes are typed loosely here.
    w3: Any = importlib.import_module("whoosh.codec.whoosh3")
    segment_writer: Any = importlib.import_module("whoosh.writing").SegmentWriter

    class ListCodec(w3.W3Codec):  # type: ignore[misc]
        """The codec given, whose field writer also takes a term's postings as a list.
        New segments record the codec given, which is what reads them."""

        def __init__(self, plain: Any) -> None:
            super().__init__()
            self.__dict__.update(plain.__dict__)  # its settings: block size, compression
            self.plain = plain

        def new_segment(self, storage: Any, indexname: str) -> Any:
            return self.plain.new_segment(storage, indexname)

        def field_writer(self, storage: Any, segment: Any) -> Any:
            return ListFieldWriter(self, storage, segment)

    class ListFieldWriter(w3.W3FieldWriter):  # type: ignore[misc]
        def add_list(self, postings: list[Posting]) -> None:
            """The term's postings, sorted by document: what one `add` per posting does
            (no field lengths), a block of the postings writer at a time."""
            block = self._postwriter
            limit = block._blocklimit
            for start in range(0, len(postings), limit):
                if block._ids:  # a full block: add_posting writes it before the next
                    block._write_block()
                ids, weights, values = zip(*postings[start : start + limit], strict=True)
                block._ids.extend(ids)
                block._weights.extend(weights)
                block._values.extend(value for value in values if value)
                block._maxweight = max(block._maxweight, *weights)

    class AnalysedWriter(segment_writer):  # type: ignore[misc]
        def __init__(self, ix: Any, **options: Any) -> None:
            super().__init__(ix, **options)
            whoosh_pool: Any = self.pool
            whoosh_pool.cleanup()
            self.pool: TermPool = TermPool()
            self._single: dict[int, dict[int, bytes]] = {}

        def _flush_segment(self) -> None:
            """Whoosh's flush, each term's postings handed over as one list."""
            self.perdocwriter.close()
            writer = self.fieldwriter
            current = None
            for fieldname, tbytes, postings in self.pool.sorted():
                if fieldname != current:
                    if current is not None:
                        writer.finish_field()
                    writer.start_field(fieldname, self.schema[fieldname])
                    current = fieldname
                writer.start_term(tbytes)
                writer.add_list(postings)
                writer.finish_term()
            if current is not None:
                writer.finish_field()
            writer.close()

        def add_terms(self, fields: Mapping[str, Any], boost: float = 1.0) -> None:
            """Add one document, as ``add_document(**fields, _boost=boost)`` would.

            An indexed field's value is its terms in order (what its analyzer would
            yield, positions counting from 0); any other field's value is stored."""
            self._check_state()
            docnum = self.docnum
            perdoc = self.perdocwriter
            schema = self.schema
            perdoc.start_doc(docnum)
            for name in sorted(fields):
                field = schema[name]
                value = fields[name]
                if field.indexed:
                    words = self.pool.terms.setdefault(name, {})
                    length = self._add_postings(words, field, value, docnum, boost)
                    perdoc.add_field(name, field, None, length)
                else:
                    perdoc.add_field(name, field, value if field.stored else None, 0)
            perdoc.finish_doc()
            self._added = True
            self.docnum += 1

        def _add_postings(
            self, terms: dict[str, list[Posting]], field: Any, words: list[str], docnum: int,
            boost: float,
        ) -> int:  # fmt: skip
            """File the document's postings of one field; returns the field's length."""
            positions: dict[str, list[int]] = {}
            for at, word in enumerate(words):
                found = positions.get(word)
                if found is None:
                    positions[word] = [at]
                else:
                    found.append(at)
            form = field.format
            encode, field_boost = form.encode, form.field_boost
            single = self._single.setdefault(id(form), {})
            # Whoosh's order: the format's weight (count x field boost), then the
            # document's boost; floats, so the same order gives the same bits.
            once = (1 * field_boost) * boost
            length = 0
            for word, where in positions.items():
                if len(where) == 1:  # most postings: one position, encoded once
                    length += 1
                    vbytes = single.get(at := where[0])
                    if vbytes is None:
                        vbytes = single[at] = encode(where)
                    posting = (docnum, once, vbytes)
                else:
                    count = len(where)
                    length += count
                    posting = (docnum, count * field_boost * boost, encode(where))
                postings = terms.get(word)
                if postings is None:
                    terms[word] = [posting]
                else:
                    postings.append(posting)
            return length if field.scorable else 0

    for cls in (ListCodec, ListFieldWriter, AnalysedWriter):
        _CLASSES[cls.__name__] = cls
    return AnalysedWriter
