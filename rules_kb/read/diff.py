"""What changed between two editions: changes with word diffs, and replaced phrases.

Which old rule became which new one comes from the lineage stored at ingest when the
two editions are neighbours (`rules_kb.ingest.lineage`), and from aligning them directly
otherwise (`rules_kb.ingest.align`); this module turns either into changes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from rules_kb.ingest.align import Alignment, Item, align, renumber_references
from rules_kb.ingest.lineage import status, stored_alignment
from rules_kb.ingest.models import normalise_number
from rules_kb.records.changes import in_chapter
from rules_kb.records.diff import (
    Change,
    ChangeType,
    EditionDiff,
    ExampleChange,
)
from rules_kb.typography import heading_key, same_wording, spaced_alike
from rules_kb.worddiff import WordOp, word_diffs

if TYPE_CHECKING:
    from rules_kb.read.query import Reader


def only(edition_diff: EditionDiff, number: str) -> EditionDiff:
    """The changes of one rule and its subrules in `edition_diff`: the number as the old
    edition had it, or as the new one has it when the old edition did not have it. A
    chapter ("702") or a section ("7") keeps every change that stands in it, on either
    side."""
    wanted = normalise_number(number)
    if "." not in wanted:
        within = tuple(change for change in edition_diff.rules if in_chapter(change, wanted))
        return EditionDiff(edition_diff.old, edition_diff.new, within, (), edition_diff.stored)

    def mine(key: str | None) -> bool:
        return key is not None and (
            key == wanted or (key.startswith(wanted) and key[len(wanted) :].isalpha())
        )

    old_side = any(mine(change.old_key) for change in edition_diff.rules)
    kept = tuple(
        change
        for change in edition_diff.rules
        if (mine(change.old_key) if old_side else mine(change.new_key))
    )
    return EditionDiff(edition_diff.old, edition_diff.new, kept, (), edition_diff.stored)


# editions, texts and alignments, cached --------------------------------------------


class Library:
    """The editions of one database as alignment items, with texts and alignments cached.

    Alignments of a pair are kept for the life of the object, so a second history or
    diff in the same process costs only lookups.
    """

    def __init__(self, reader: Reader) -> None:
        self.reader = reader
        self._rules: dict[str, tuple[Item, ...]] = {}
        self._glossary: dict[str, tuple[Item, ...]] = {}
        self._texts: dict[int, str] = {}
        self._examples: dict[str, dict[int, tuple[int, ...]]] = {}
        self._alignments: dict[tuple[str, str, bool], Alignment] = {}
        self._went: dict[tuple[str, str], dict[str, frozenset[str]]] = {}

    def dates(self) -> list[str]:
        """Every edition date, oldest first."""
        return self.reader.dates()

    def items(self, edition: str, *, glossary: bool = False) -> tuple[Item, ...]:
        """The rules (or glossary entries) of an edition, in document order."""
        cache = self._glossary if glossary else self._rules
        if edition not in cache:
            if glossary:
                rows = self.reader.edition_glossary(edition)
                cache[edition] = tuple(Item(term, "glossary", None, tid) for term, tid in rows)
            else:
                cache[edition] = tuple(Item(*row) for row in self.reader.edition_rules(edition))
        return cache[edition]

    def examples(self, edition: str) -> dict[int, tuple[int, ...]]:
        """Example text ids by the position of their rule among `items(edition)`."""
        if edition not in self._examples:
            self._examples[edition] = self.reader.edition_examples(edition)
        return self._examples[edition]

    def texts(self, ids: Iterable[int]) -> dict[int, str]:
        """Texts by id, loading the ones not seen yet."""
        wanted = set(ids)
        missing = [text_id for text_id in wanted if text_id not in self._texts]
        if missing:
            self._texts.update(self.reader.texts(missing))
        return {text_id: self._texts[text_id] for text_id in wanted}

    def alignment(self, old: str, new: str, *, glossary: bool = False) -> Alignment:
        """The alignment of two editions' rules (or glossary): the stored lineage when they
        are neighbours, else computed (once per object)."""
        key = (old, new, glossary)
        if key not in self._alignments:
            self._alignments[key] = self.stored(old, new, glossary=glossary) or align(
                self.items(old, glossary=glossary),
                self.items(new, glossary=glossary),
                lambda ids: self.texts(ids),
                None if glossary else (self.examples(old), self.examples(new)),
                self.went(old, new) if glossary else None,
            )
        return self._alignments[key]

    def went(self, old: str, new: str) -> dict[str, frozenset[str]]:
        """Where the rules' alignment of two editions took each old rule (what the
        glossary's alignment reads, as at ingest)."""
        if (old, new) not in self._went:
            went = self.alignment(old, new).went(self.items(old), self.items(new))
            self._went[old, new] = went
        return self._went[old, new]

    def stored(self, old: str, new: str, *, glossary: bool = False) -> Alignment | None:
        """The alignment stored at ingest, when `old` is the edition `new` was aligned with."""
        return stored_alignment(
            self.reader.conn,
            self.reader.edition_id(old),
            self.reader.edition_id(new),
            "glossary" if glossary else "rule",
            self.items(old, glossary=glossary),
            self.items(new, glossary=glossary),
        )


# diff ----------------------------------------------------------------------------


def diff(library: Library, old: str, new: str) -> EditionDiff:
    """Every rule and glossary change from edition `old` to edition `new`."""
    rules = _changes(library, old, new, glossary=False)
    glossary = _changes(library, old, new, glossary=True)
    stored = library.stored(old, new) is not None
    return EditionDiff(old, new, rules, glossary, stored)


def _changes(library: Library, old: str, new: str, *, glossary: bool) -> tuple[Change, ...]:
    before = library.items(old, glossary=glossary)
    after = library.items(new, glossary=glossary)
    alignment = library.alignment(old, new, glossary=glossary)
    # References inside glossary definitions are renumbered as the rules were.
    number_map = library.alignment(old, new).key_map(library.items(old), library.items(new))
    went = library.went(old, new)
    old_examples = {} if glossary else library.examples(old)
    new_examples = {} if glossary else library.examples(new)
    touched = [
        (i, j)
        for i, j in alignment.pairs
        if before[i].text_id != after[j].text_id
        or before[i].key != after[j].key
        or old_examples.get(i, ()) != new_examples.get(j, ())
    ]
    ids = [before[i].text_id for i, _ in touched] + [after[j].text_id for _, j in touched]
    ids += [tid for i, _ in touched for tid in old_examples.get(i, ())]
    ids += [tid for _, j in touched for tid in new_examples.get(j, ())]
    ids += [before[i].text_id for i in alignment.removed]
    ids += [after[j].text_id for j in alignment.added]
    ids += [before[i].text_id for i, _ in (*alignment.split, *alignment.merged)]
    ids += [after[j].text_id for _, j in (*alignment.split, *alignment.merged)]
    texts = library.texts(ids)
    # A text that differs only in its white space is the same text.
    touched = [
        (i, j)
        for i, j in touched
        if before[i].key != after[j].key
        or old_examples.get(i, ()) != new_examples.get(j, ())
        or not spaced_alike(texts[before[i].text_id], texts[after[j].text_id])
    ]
    example_texts = [
        (
            [texts[tid] for tid in old_examples.get(i, ())],
            [texts[tid] for tid in new_examples.get(j, ())],
        )
        for i, j in touched
    ]
    wanted = [(texts[before[i].text_id], texts[after[j].text_id]) for i, j in touched]
    wanted += [
        (before or "", after or "")
        for old, new in example_texts
        for before, after in _example_pairs(old, new)
    ]
    wanted = [(old, new) for old, new in dict.fromkeys(wanted) if old != new]
    words = dict(zip(wanted, word_diffs(wanted), strict=True))
    placed: list[tuple[tuple[Any, ...], Change]] = []
    for (i, j), (old_example_texts, new_example_texts) in zip(touched, example_texts, strict=True):
        change = _paired(before[i], after[j], texts, number_map, went, words)
        examples = _example_changes(old_example_texts, new_example_texts, words)
        if examples:
            change = _with_examples(change, examples, number_map)
        placed.append(((j, 0), change))
    for j in alignment.added:
        item = after[j]
        text = texts[item.text_id]
        change = Change("added", item.kind, None, item.key, None, text, (("+", text),))
        placed.append(((j, 0), change))
    for i in alignment.removed:
        item = before[i]
        text = texts[item.text_id]
        change = Change("removed", item.kind, item.key, None, text, None, (("-", text),))
        placed.append(((_position_after(i, alignment), 1, i), change))
    for i, j in alignment.split:
        text = texts[after[j].text_id]
        change = Change(
            "split", after[j].kind, before[i].key, after[j].key, texts[before[i].text_id], text,
            (("+", text),),
        )  # fmt: skip
        placed.append(((j, 0), change))
    for i, j in alignment.merged:
        text = texts[before[i].text_id]
        change = Change(
            "merged", before[i].kind, before[i].key, after[j].key, text,
            texts[after[j].text_id], (("-", text),),
        )  # fmt: skip
        placed.append(((j, 2, i), change))
    placed.sort(key=lambda entry: entry[0])
    return tuple(change for _, change in placed)


def _example_pairs(
    old: Sequence[str], new: Sequence[str]
) -> Iterable[tuple[str | None, str | None]]:
    """Examples pair up in order: the k-th old one with the k-th new one."""
    for index in range(max(len(old), len(new))):
        yield (old[index] if index < len(old) else None, new[index] if index < len(new) else None)


def _example_changes(
    old: Sequence[str], new: Sequence[str], words: Mapping[tuple[str, str], tuple[WordOp, ...]]
) -> tuple[ExampleChange, ...]:
    changes = []
    for before, after in _example_pairs(old, new):
        if before == after:
            continue
        pair = (before or "", after or "")
        # An example gone or new diffs against ""; one missing against an empty one is
        # no words at all (the batch leaves out pairs of equal texts).
        changes.append(ExampleChange(before, after, words[pair] if pair[0] != pair[1] else ()))
    return tuple(changes)


def _with_examples(
    change: Change, examples: tuple[ExampleChange, ...], number_map: Mapping[str, str]
) -> Change:
    """A rule whose examples changed is changed, even when its own text is not; when the
    text and the examples differ only in typography, it is a typography change."""
    text_same = change.old_text == change.new_text
    typographic = _each_example(examples, same_wording)
    if (typographic and change.type in {"typography", "moved"}) or (
        typographic and text_same and change.old_key == change.new_key
    ):
        kind: ChangeType = "typography" if change.old_key == change.new_key else "moved"
        return replace(change, type=kind, reference_only=False, examples=examples)
    renumbered_only = _each_example(
        examples, lambda old, new: same_wording(renumber_references(old, number_map), new)
    )
    return replace(
        change,
        type="changed",
        reference_only=(change.reference_only or text_same) and renumbered_only,
        examples=examples,
    )


def _each_example(examples: tuple[ExampleChange, ...], alike: Callable[[str, str], bool]) -> bool:
    """Whether every example was there before and after, and the two are `alike`."""
    return all(
        example.old_text is not None
        and example.new_text is not None
        and alike(example.old_text, example.new_text)
        for example in examples
    )


def _position_after(old_index: int, alignment: Alignment) -> int:
    """Where a removed rule goes in new-edition order: after its old predecessor's match."""
    forward = dict(alignment.pairs)
    for i in range(old_index - 1, -1, -1):
        if i in forward:
            return forward[i]
    return -1


def _paired(
    old: Item,
    new: Item,
    texts: Mapping[int, str],
    number_map: Mapping[str, str],
    went: Mapping[str, frozenset[str]],
    words: Mapping[tuple[str, str], tuple[WordOp, ...]],
) -> Change:
    """One pair's change. Whether a changed text differs only in the rules it cites is
    the stored lineage's word (`rules_kb.ingest.lineage.status`), so that `diff` and
    `history` say the same of it: a number renumbered, a closing "See rule ..." that
    follows where the rules it cited went; a glossary entry renamed, pointing at its rule
    under the new name, is moved."""
    old_text, new_text = texts[old.text_id], texts[new.text_id]
    # A heading whose quotes or italics alone changed is the same name (`heading_key`).
    renamed = old.key != new.key and heading_key(old.key) != heading_key(new.key)
    if spaced_alike(old_text, new_text) and (renamed or old.key == new.key):
        return Change("moved", new.kind, old.key, new.key, old_text, new_text, (("=", new_text),))
    if same_wording(old_text, new_text):
        # Typography is never a change: renumbered, the record moved with its text (400.10
        # of 2009-07-11 is 400.11, its full stop outside the closing quotation mark).
        ops = words.get((old_text, new_text), (("=", new_text),))
        kind: ChangeType = "moved" if renamed else "typography"
        return Change(kind, new.kind, old.key, new.key, old_text, new_text, ops)
    said = status(old.key, old.text_id, new.key, new.text_id, _loaded(texts), number_map, went)
    ops = words[old_text, new_text]
    if renamed and new.kind == "glossary" and said == "moved":
        # A glossary entry renamed, its pointer following the rename ("See rule 702.89,
        # "Umbra Armor."" of 2024-06-07): a rename, listed with the glossary's changes.
        return Change("moved", new.kind, old.key, new.key, old_text, new_text, ops)
    return Change(
        "changed",
        new.kind,
        old.key,
        new.key,
        old_text,
        new_text,
        ops,
        reference_only=said in _REFERENCES_ONLY,
    )


#: The statuses of a pair whose texts differ in the rules they cite alone.
_REFERENCES_ONLY = frozenset({"same", "typography", "moved"})


def _loaded(texts: Mapping[int, str]) -> Callable[[list[int]], Mapping[int, str]]:
    """The texts already read, as `status` asks for them."""
    return lambda ids: {text_id: texts[text_id] for text_id in ids}


# term changes --------------------------------------------------------------------
