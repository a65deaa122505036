"""The records of `diff`: every change between two editions, and the phrases replaced
across an edition."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from rules_kb.records.shape import Record
from rules_kb.worddiff import WordOp

ChangeType = Literal["added", "removed", "changed", "moved", "typography", "split", "merged"]


@dataclass(frozen=True, slots=True)
class Change:
    """One rule or glossary entry that differs between two editions."""

    type: ChangeType
    """added, removed, changed (text differs), moved (same wording, new number),
    typography (same number, texts differ only in quotes, dashes, spacing or markup),
    split (a new record split off the old one, which continues elsewhere), merged (the
    old record merged into the new one, which continues another)."""
    kind: str
    """section, chapter, rule, subrule, or glossary."""
    old_key: str | None
    """The old number (or term); None when added."""
    new_key: str | None
    """The new number (or term); None when removed."""
    old_text: str | None
    """The old text exactly as stored."""
    new_text: str | None
    """The new text exactly as stored."""
    words: tuple[WordOp, ...]
    """The word diff: ("=", text), ("-", text), ("+", text)."""
    reference_only: bool = False
    """The text differs only in the rules it cites (and in typography): numbers
    renumbered as the alignment maps them, a closing "See rule ..." following where its
    rules went or a renamed entry's name; the stored lineage calls it `same` (or
    `moved`), not `changed`."""
    examples: tuple[ExampleChange, ...] = ()
    """The rule's examples, when they differ (the text itself may not)."""

    @property
    def real(self) -> bool:
        """Whether the record changed: not in typography alone, nor in the rule numbers
        it cites alone while it kept its number (a move is real, and so is a changed
        example, though the lineage calls the rule itself the same)."""
        if self.type == "typography":
            return False
        return not (self.reference_only and self.old_key == self.new_key)

    @property
    def example_only(self) -> bool:
        """Whether only its examples changed, its own text the same but for typography:
        the stored lineage calls the rule the same (or moved), and `history` says
        "example changed"."""
        changed = self.type == "changed" and not self.reference_only
        return changed and bool(self.examples) and all(op == "=" for op, _ in self.words)

    def as_json(self) -> dict[str, Any]:
        """The SPEC shape of one change."""
        document: dict[str, Any] = {"type": self.type, "kind": self.kind}
        if self.kind == "glossary":
            document |= {"old_term": self.old_key, "new_term": self.new_key}
        else:
            document |= {"old_number": self.old_key, "new_number": self.new_key}
        document |= {
            "old_text": self.old_text,
            "new_text": self.new_text,
            "reference_only": self.reference_only,
            "words": [list(op) for op in self.words],
        }
        if self.examples:
            document["examples"] = [example.as_json() for example in self.examples]
        return document


@dataclass(frozen=True, slots=True)
class ExampleChange(Record):
    """One example of a rule that was added, removed or reworded."""

    old_text: str | None
    """The old example, without "Example: "; None when added."""
    new_text: str | None
    """The new example; None when removed."""
    words: tuple[WordOp, ...]
    """The word diff of the two."""


@dataclass(frozen=True, slots=True)
class EditionDiff:
    """Every change between two editions: rules first, then the glossary."""

    old: str
    """The old edition's date."""
    new: str
    """The new edition's date."""
    rules: tuple[Change, ...]
    """Rule changes in new-edition order (removed rules where they stood)."""
    glossary: tuple[Change, ...]
    """Glossary changes in new-edition order."""
    stored: bool = False
    """Whether the pairs came from the stored lineage (the editions are neighbours)."""

    def summary(self) -> dict[str, Any]:
        """Counts by type; reference-only changes are counted apart from `changed`."""
        return {**_counts(self.rules), "glossary": _counts(self.glossary)}

    def as_json(self, *, typography: bool = False) -> dict[str, Any]:
        """The SPEC shape of `diff --json`; typography-only changes are listed only when
        asked for (they are always counted)."""
        return {
            "old": self.old,
            "new": self.new,
            "summary": self.summary(),
            "changes": [
                change.as_json()
                for change in (*self.rules, *self.glossary)
                if typography or change.type != "typography"
            ],
        }

    def term_changes(self, *, minimum: int = 2) -> tuple[TermChange, ...]:
        """The phrases replaced at least `minimum` times ("in play" -> "on the
        battlefield"), most frequent first."""
        return term_changes(self, minimum=minimum)


def _counts(changes: Iterable[Change]) -> dict[str, int]:
    counts = dict.fromkeys(
        ("added", "removed", "changed", "moved", "reference_only", "typography", "split",
         "merged"), 0
    )  # fmt: skip
    for change in changes:
        counts["reference_only" if change.reference_only else change.type] += 1
    return counts


MAX_PHRASE_WORDS = 5


@dataclass(frozen=True, slots=True)
class TermChange(Record):
    """A phrase replaced by another across an edition."""

    old: str
    """The phrase as it read (lower case)."""
    new: str
    """What replaced it (lower case)."""
    count: int
    """How many replacements in the word diffs of aligned rules and glossary entries."""


def term_changes(edition_diff: EditionDiff, *, minimum: int = 2) -> tuple[TermChange, ...]:
    """Phrases replaced at least `minimum` times, most frequent first: the replacement
    hunks (a deletion next to an insertion) of the word diffs of aligned pairs."""
    counts: Counter[tuple[str, str]] = Counter()
    for change in (*edition_diff.rules, *edition_diff.glossary):
        if change.type == "changed" and not change.reference_only:
            counts.update(_replacements(change.words))
    found = [
        TermChange(old, new, count) for (old, new), count in counts.items() if count >= minimum
    ]
    found.sort(key=lambda term: (-term.count, term.old, term.new))
    return tuple(found)


_EDGE = re.compile(r"^[\W_]+|[\W_]+$")


def _replacements(words: Sequence[WordOp]) -> Iterable[tuple[str, str]]:
    """(removed phrase, inserted phrase) for each run of - and + between equal parts."""
    removed: list[str] = []
    added: list[str] = []
    for op, text in (*words, ("=", "")):
        if op == "-":
            removed.append(text)
        elif op == "+":
            added.append(text)
        else:
            pair = _phrase("".join(removed)), _phrase("".join(added))
            if all(pair) and pair[0] != pair[1] and _short(pair) and not _numeric(pair):
                yield pair
            removed, added = [], []


def _phrase(text: str) -> str:
    return " ".join(_EDGE.sub("", text.lower()).split())


def _numeric(pair: tuple[str, str]) -> bool:
    """Renumbered references are not term changes."""
    return any(character.isdigit() for phrase in pair for character in phrase)


def _short(pair: tuple[str, str]) -> bool:
    return all(len(phrase.split()) <= MAX_PHRASE_WORDS for phrase in pair)
