"""What alignment works on and gives: the items of two editions, the pairs found, and
the indices not paired yet."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

LoadTexts = Callable[[list[int]], Mapping[int, str]]

# Levels of the fuzzy pass: a level's parents are aligned before it, so a subrule can
# be judged by whether it stays under the counterpart of its old rule.
LEVELS: tuple[frozenset[str], ...] = (
    frozenset({"section", "chapter"}),
    frozenset({"rule", "subrule"}),
    frozenset({"glossary"}),
)
ALL_KINDS = frozenset().union(*LEVELS)
GLOSSARY = frozenset({"glossary"})


class Item(NamedTuple):
    """One rule row or glossary entry, as alignment sees it (a tuple: editions have
    thousands and are read often)."""

    key: str
    """The rule number, or the glossary term."""
    kind: str
    """section, chapter, rule, subrule, or glossary."""
    parent: str | None
    """The number of the enclosing rule; None for sections and glossary entries."""
    text_id: int
    """The id of the stored text: equal ids mean identical texts."""


@dataclass(frozen=True, slots=True)
class Alignment:
    """Pairs of indices into the old and new item sequences, and what stayed alone."""

    pairs: tuple[tuple[int, int], ...]
    """(old index, new index), in new-edition order."""
    removed: tuple[int, ...]
    """Old indices with no counterpart."""
    added: tuple[int, ...]
    """New indices with no counterpart."""
    split: tuple[tuple[int, int], ...] = ()
    """(old index, new index): the new record was split off the old one, whose line
    continues in its own counterpart (in `pairs`)."""
    merged: tuple[tuple[int, int], ...] = ()
    """(old index, new index): the old record was merged into the new one, whose line
    continues another old record (in `pairs`)."""

    def went(self, old: Sequence[Item], new: Sequence[Item]) -> dict[str, frozenset[str]]:
        """Where the old records that went elsewhere went, by key: their counterpart, the
        parts split off them and the record they were merged into. A record that is not
        in it kept its number (or went nowhere): most of them, so they are not listed."""
        found: dict[str, set[str]] = {}
        for i, j in self.pairs:
            if old[i].key != new[j].key:
                found[old[i].key] = {new[j].key}
        if self.split or self.merged:
            paired = dict(self.pairs)
            for i, j in (*self.split, *self.merged):
                mine = old[i].key
                if mine not in found:
                    found[mine] = {new[paired[i]].key} if i in paired else set()
                found[mine].add(new[j].key)
        return {key: frozenset(keys) for key, keys in found.items()}

    def key_map(self, old: Sequence[Item], new: Sequence[Item]) -> dict[str, str]:
        """Old key -> new key for every pair (the number mapping of the alignment)."""
        return {old[i].key: new[j].key for i, j in self.pairs}


def went_to(numbers: set[str], went: Mapping[str, frozenset[str]]) -> set[str]:
    """Where old rule numbers went, by `Alignment.went` (one not in it kept its number)."""
    return {moved for number in numbers for moved in went.get(number, (number,))}


@dataclass(slots=True)
class Left:
    """The old and new indices not paired yet."""

    old: list[int]
    new: list[int]

    def update(self, pairs: Mapping[int, int]) -> Left:
        """Drop what `pairs` has paired since; returns itself."""
        used = set(pairs.values())
        self.old = [i for i in self.old if i not in pairs]
        self.new = [j for j in self.new if j not in used]
        return self

    def of(self, old: Sequence[Item], new: Sequence[Item], kinds: frozenset[str]) -> Left:
        """The leftovers of some kinds only."""
        return Left(
            [i for i in self.old if old[i].kind in kinds],
            [j for j in self.new if new[j].kind in kinds],
        )
