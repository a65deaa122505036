"""Pass 6: splits and merges among the records left over: a record left new that is a
part of an old one, an old one left over that went into a new one; see
`rules_kb.ingest.align`."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Container, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from typing import TYPE_CHECKING

from rules_kb.ingest.align.model import LEVELS, Item, Left
from rules_kb.ingest.align.pairs import Subjects, other_subject
from rules_kb.ingest.align.words import (
    CARRIED_RATIO,
    Normalised,
    carries_sentence,
    containment,
    first_words,
    normalise,
    opening,
    share_within,
    word_ids,
)
from rules_kb.typography import fold

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray


SPLIT_CONTAINED = 0.8
"""Share of a record's distinct words found in another for it to be a part of it."""
MERGE_CONTAINED = 0.6
"""The same, for an old record left over that went into one new record: rules merged
in are reworded to fit their new home (214.4b into 212.1b of 2003-07-01 keeps 62% of
its words; 400.1 of 2009-05-01 is 112.1a). Into a record that continues another, the
words it brought must be new there, which is asked apart."""
SPLIT_CONTAINED_ALONE = 0.7
"""The same, for a part of a record that has no counterpart otherwise."""
SPLIT_WORDS = 8
"""Distinct words a record needs before its words say where it came from."""
ALONE_WORDS = 15
"""Distinct words a record left alone needs to be paired by its words alone."""
NAMESAKE_MARGIN = 0.05
"""How much more of a part's words another source may hold than the old rule whose
number it keeps, for it still to be a part of that rule."""
PLACED_BONUS = 0.15
"""What standing under the counterpart of a part's parent adds to a source's rank."""
SPLIT_MARGIN = 0.1
"""How much better than the next candidate the source of a part must be."""
SPLIT_CARRIES = 3
SPLIT_CARRIES_SHARE = 0.2
"""A part must hold this many (and this share) of the words its source's counterpart
lost (or, merged, of the words its new home gained)."""
MERGE_CARRIES_SHARE = 0.1
"""The share for a merge into a record that continues another: a rule merged in brings a
clause, most of whose words its new home had already (701.16d into 701.16c, 2015-07-17)."""
MERGE_EXPLAINS = 0.5
"""Or a rule merged in holds this share of the words its new home gained, at least two
(713.11 into 712.16 of 2023-04-14 brought "melded" and "and")."""
LOST_WORDS = 6
LOST_CARRIED = 0.85
LOST_CONTAINED = 0.5
"""A part found by what its source lost: the source's counterpart lost at least
LOST_WORDS words, the part holds LOST_CARRIED of them, and LOST_CONTAINED of its own
words are in the source."""
PHRASE_HELD = 0.9
"""The share of a part's words its source must hold for a phrase of it that the source's
counterpart lost to place the part (`_says_lost_phrase`)."""
LOST_SENTENCE = 0.6
"""The share of the words of a sentence an old rule's counterpart dropped that a new rule
placed beside that counterpart must hold to be the sentence said apart (203.1a of
2005-08-01, on the mana cost of lands and tokens, holds 75% of what 203.1 said of it;
400.7b of 2022-10-07, "grant" for "give", 64% of the sentence 400.7a dropped)."""
BESIDE = 3
"""How many places from an old rule's counterpart (after it, under it; or before or after
it, beside it under one parent) a rule split from it stands, at most."""
PARALLEL = 0.45
"""The share of the words of two old rules together that both hold, for them to say the
same thing of two cases (723.2a and 723.2d of 2022-09-08, on the planar deck and the
scheme deck as a subgame starts, share 72%)."""
ALIKE = 0.5
"""How far apart the shares of each case's own words a rewritten rule keeps may be for
the rewrite to treat both cases alike."""
TAKEN_KEPT = 0.25
"""The share of an old rule's words, in sentences said again, under which the new rule
keeping its number is not a part of it but another rule that took the number, where
another part says its opening again (101.4a of 2007-07-13 says again one short sentence
of nine)."""
OPENING_KEPT = 0.8
"""The share of a new record's opening sentence's words an old rule must hold for the
opening to be its sentence, a word or two changed ("Layer 1a: Copiable effects are
applied." of 2020-04-17 is not "Layer 1: Copy effects are applied.")."""
LEADING = 0.5
"""The share of a rule's first sentence that a part (or a source) must hold to be the
core, where the line goes on: what a rule says first is what it is about."""

CASE_WORDS = 3
"""At most this many of an old rule's words, kept by its counterpart and not by another
new rule like it, for the two to be the old rule said of each of its cases apart."""
TWINS = 0.8
"""The share of the longer of two rules' distinct words that both hold, for one to say
of one case what the other says of another."""
CASES_APART = 2
"""How many words apart, at most, an old rule names the two cases it is said of ("an
activated or triggered ability")."""
CASE_CONTAINED = 0.5
"""The share of a new rule's words an old rule must hold, at least, to be read as the
rule it says of one case (113.1d of 2009-07-11 holds 60% of 415.2's)."""
FRAME_SHARE = 0.6
"""The share of the longer of two new rules that is the same words in the same order,
at least, for one to be the other written again for another case (`_new_case`)."""
FRAME_SLOTS = 2
"""At most this many places where such a rule's words differ from the other's."""
PARALLEL_SLOTS = 3
"""At most this many places where a rule written for the case an old rule named beside
the one its counterpart kept differs from that counterpart (`_parallel_parts`: "hand
size", "seven" and "hand" of 103.4a of 2013-07-13 for "life total", "20" and "life")."""


@dataclass(slots=True)
class _Parting:
    """What the search for splits and merges among the rules left over works on: both
    editions, the pairs so far (changed as it goes), and what it found."""

    old: Sequence[Item]
    new: Sequence[Item]
    pairs: dict[int, int]
    texts: Normalised
    titles: Container[int]
    #: New index -> old index of the pairs.
    old_of: dict[int, int]
    #: Old number -> new number of the pairs: where an old parent stands now.
    new_key: dict[str, str]
    #: Split records: new index -> old index.
    split: dict[int, int]
    #: Merged records: old index -> new index.
    merged: dict[int, int]
    #: (old index, its counterpart) -> the sentences the counterpart no longer says.
    _dropped: dict[tuple[int, int], tuple[str, ...]] = field(default_factory=dict)

    @classmethod
    def of(
        cls,
        old: Sequence[Item],
        new: Sequence[Item],
        pairs: dict[int, int],
        texts: Normalised,
        titles: Container[int],
    ) -> _Parting:
        """The state before any split or merge is found."""
        old_of = {j: i for i, j in pairs.items()}
        new_key = {old[i].key: new[j].key for i, j in pairs.items()}
        return cls(old, new, pairs, texts, titles, old_of, new_key, {}, {})

    def words(self, item: Item) -> tuple[int, ...]:
        """An item's word ids (none for a title)."""
        return () if item.text_id in self.titles else word_ids(self.texts[item.text_id])

    def content(self, item: Item) -> tuple[int, ...]:
        """An item's word ids without its pointers to other rules (none for a title)."""
        if item.text_id in self.titles:
            return ()
        return word_ids(self.texts.content(item.text_id))

    def dropped(self, i: int) -> tuple[str, ...]:
        """The sentences of old `i` (normalised) that its counterpart no longer says, word
        for word or almost; none where it has no counterpart or is printed again."""
        kept = self.pairs.get(i)
        if kept is None or self.old[i].text_id == self.new[kept].text_id:
            return ()
        found = self._dropped.get((i, kept))
        if found is None:
            found = self._dropped[i, kept] = tuple(
                sentence
                for sentence in self.texts.sentences(self.old[i].text_id)
                if not carries_sentence(self.texts, sentence, self.new[kept].text_id)
            )
        return found

    def pair(self, i: int, j: int) -> None:
        """Record old `i` and new `j` as counterparts."""
        self.pairs[i], self.old_of[j] = j, i

    def namesakes(self, i: int) -> tuple[str, ...]:
        """The numbers old `i` goes by in the new edition: its own, and its letters (or
        its number) under its parent's counterpart where that moved (502.5b is 702.10b
        once haste 502.5 is 702.10, in 2009-07-11; 713.3 is 714.3 once "Subgames" 713 is
        714, in 2011-05-01)."""
        item = self.old[i]
        parent = item.parent
        moved = self.new_key.get(parent) if parent is not None else None
        if parent is None or moved is None or moved == parent:
            return (item.key,)
        letters = item.key[len(parent) :]
        numbered = letters[:1] == "." and letters[1:].isdigit()
        if not item.key.startswith(parent) or not (letters.isalpha() or numbered):
            return (item.key,)
        return (item.key, moved + letters)


def splits_and_merges(
    old: Sequence[Item],
    new: Sequence[Item],
    pairs: dict[int, int],
    left: Left,
    reworded: Left,
    texts: Normalised,
    titles: Container[int],
) -> tuple[dict[int, int], dict[int, int]]:
    """Splits and merges among the rules left over: (split: new -> old, merged: old ->
    new). May re-pair a split record with the part that keeps its number, or pair a
    record left over with its first part. A part's source, or a merge's target, is among
    the `reworded` records (a record printed again as it was lost nothing to a part)."""
    group = left.of(old, new, LEVELS[1])
    if not group.old and not group.new:
        return {}, {}
    state = _Parting.of(old, new, pairs, texts, titles)
    changed = reworded.of(old, new, LEVELS[1])
    sources, targets = changed.old, changed.new
    # Parts: new records left over, each from the one old rule holding its words.
    parts = [j for j in group.new if len(state.words(new[j])) >= SPLIT_WORDS]
    found, namesake_parts = _namesake_parts(state, group.new, sources)
    _contained_parts(state, parts, sources, found, namesake_parts)
    lost_parts = _lost_clauses(state, parts, sources, found)
    lost_parts |= _lost_openings(state, group.new, sources, found)
    lost_parts |= _lost_sentences(state, parts, sources, targets, found)
    _sentences_said_again(state, sources, targets)
    for i, pieces in found.items():
        _settle_parts(state, i, pieces, namesake_parts | lost_parts)
    _other_cases(state, parts, sources)
    _complements(state, parts, sources)
    _parallel_parts(state, parts, sources)
    _namesake_merges(state, group.old, targets)
    _contained_merges(state, group.old, targets)
    _merge_cores(state, group.old, sources)
    _second_copies(state, group.old)
    _parallel_merges(state, group.old, targets)
    _openings_brought(state, group.old, targets, group.new)
    _better_homes(state, sources, group.new)
    return state.split, state.merged


def _namesake_parts(
    state: _Parting, left_new: list[int], sources: list[int]
) -> tuple[dict[int, list[int]], set[int]]:
    """A short part keeping its old number and all of whose words its old namesake had
    ("Lifelink is a static ability." left at 702.13a in 2010-02-01, the rest moved on); a
    pointer to another rule that it gained is no new content. Returns the parts found by
    source (old index -> new indices) and the set of them."""
    old, new = state.old, state.new
    found: dict[int, list[int]] = {}
    # A number kept outright wins over letters kept under a moved parent.
    namesakes = {key: i for i in sources for key in state.namesakes(i)[1:]}
    namesakes.update({old[i].key: i for i in sources})
    candidates = [j for j in left_new if new[j].key in namesakes and state.words(new[j])]
    if not candidates or not sources:
        return found, set()
    # Each part's share of words in every source: its namesake must hold it best.
    shares, _ = containment(
        [state.words(new[j]) for j in candidates],
        [state.words(old[i]) for i in sources],
        [state.content(new[j]) for j in candidates],
    )
    place = {i: column for column, i in enumerate(sources)}
    chosen: set[int] = set()
    for row, j in enumerate(candidates):
        i = namesakes[new[j].key]
        share = float(shares[row, place[i]])
        least = 1.0 if len(state.words(new[j])) < SPLIT_WORDS else SPLIT_CONTAINED_ALONE
        if share >= least and share >= float(shares[row].max()) - NAMESAKE_MARGIN:
            found.setdefault(i, []).append(j)
            chosen.add(j)
    return found, chosen


def _contained_parts(
    state: _Parting,
    parts: list[int],
    sources: list[int],
    found: dict[int, list[int]],
    namesake_parts: set[int],
) -> None:
    """Parts whose words one source holds best, by a margin (added to `found`); a source
    that has a counterpart already needs more of them."""
    import numpy as np

    old, new = state.old, state.new
    if not parts or not sources:
        return
    contained, covered = containment(
        [state.words(new[j]) for j in parts], [state.words(old[i]) for i in sources]
    )
    source_parents = np.array([state.new_key.get(old[i].parent or "", "\0") for i in sources])
    for row, j in enumerate(parts):
        if j in namesake_parts:
            continue
        placed = source_parents == (new[j].parent or "\1")
        source = _unique_best(contained[row], covered[row], SPLIT_CONTAINED_ALONE, placed)
        if source is None:
            continue
        i = sources[source]
        if i in state.pairs and contained[row, source] < SPLIT_CONTAINED:
            continue  # a source with a counterpart already needs more
        found.setdefault(i, []).append(j)


def _settle_parts(state: _Parting, i: int, pieces: list[int], sure: set[int]) -> None:
    """Old `i` and the parts found of it: the part it continues, and the others split
    from it. Parts in `sure` (found by name or by what `i` lost) need no further proof."""
    old, new, words = state.old, state.new, state.words
    kept = state.pairs.get(i)
    if kept is not None and _printed_again(state, i, kept):
        # Printed again word for word, it lost nothing to a part ("Vanguard is a card type
        # ..." 310.1 of 2012-05-01 is 311.1, not the new 310.1 on phenomena). Printed twice,
        # it goes on in the copy that keeps its number, or its letters under its heading's
        # new number, a pointer aside, and the other copy was split from it.
        names = state.namesakes(i)
        own = state.content(old[i])
        twin = next(
            (j for j in pieces if new[j].key in names and state.content(new[j]) == own), None
        )
        if twin is not None:
            del state.old_of[kept]
            state.pair(i, twin)
            state.split[kept] = i
        elif new[kept].key in names:
            # Printed twice, the copy keeping its number or letters in hand: the other copy
            # was split from it (205.2b of 2009-05-01 is 204.2b, and 300.2 was split off).
            for j in pieces:
                if j != kept and state.content(new[j]) == own:
                    state.split[j] = i
        return
    if kept is not None:
        # A part holds what the old rule's counterpart lost, not what it kept; and the
        # counterpart is the one its line goes on in: where a part keeping its number was
        # found by name, that part, not the one the fuzzy pass gave it under another
        # number (212.4e of 2006-05-01 goes on as 212.4e, its first sentence; 212.4k, on
        # moving an Aura, holds what that lost, though 212.4j, paired first, says some).
        here = kept
        if new[kept].key != old[i].key:
            here = next((j for j in pieces if j in sure and new[j].key == old[i].key), kept)
        lost = set(words(old[i])) - set(words(new[here]))
        pieces = [
            j
            for j in pieces
            if j in sure or _carries(words(new[j]), lost) or _says_lost_phrase(state, i, j, lost)
        ]
        if not pieces:
            return
    if kept is None:
        # No counterpart yet: it continues in the part keeping its number, else in the
        # part carrying its first sentence (200.7 of 2009-05-01 is 112.1, "An ability can
        # be one of two things:"), else in its first part. Only where a long part came of
        # it: short ones alone are boilerplate the fuzzy pass judged already ("Multiple
        # instances of X are redundant").
        long = [j for j in pieces if len(words(new[j])) >= ALONE_WORDS]
        if not long:
            return
        first = min(long)
        kept = _core(state, i, [first, *(j for j in pieces if j != first)], long)
        state.pair(i, kept)
    else:
        if new[kept].key != old[i].key:
            core = _core(state, i, [kept, *pieces], [kept, *pieces])
        else:
            core = _opening_elsewhere(state, i, kept, pieces) or kept
        if core != kept:
            pieces = [*pieces, kept]
            pieces.remove(core)
            del state.old_of[kept]
            state.pair(i, core)
            kept = core
    for j in pieces:
        if j != kept and (j in sure or not _new_case(state, i, j, [kept, *pieces])):
            state.split[j] = i


def _new_case(state: _Parting, i: int, j: int, siblings: list[int]) -> bool:
    """Whether new `j`, found among the parts of old `i`, is one of `siblings` written
    again for a case `i` never named: the two say the same words in the same order (FRAME_SHARE
    of the longer) but in FRAME_SLOTS places at most, where the sibling's words are said in
    `i` and `j`'s are not, with a word beside them ("If a player wants to name the
    combined back face of a meld pair ..." 201.3d of 2016-07-22, after 201.3c on
    double-faced cards, which 201.3 named; "Abilities that trigger when a player loses the
    game look back in time." 603.10f of 2016-11-11, after 603.10d, "... loses control of
    an object ..."). A part saying less than its sibling and nothing else names no case."""
    said = f" {state.texts[state.old[i].text_id]} "

    def in_source(words: list[str], start: int, end: int) -> bool:
        return _phrase_in(said, words, start, end, alone_at_edges=True)

    mine = state.texts[state.new[j].text_id].split()
    for k in siblings:
        theirs = state.texts[state.new[k].text_id].split()
        if k == j or not (found := _slots(mine, theirs)):
            continue
        slots, same = found
        if same < FRAME_SHARE * max(len(mine), len(theirs)) or len(slots) > FRAME_SLOTS:
            continue
        ours = [(start, end) for start, end, _, _ in slots if end > start]
        others = [(start, end) for _, _, start, end in slots if end > start]
        if (
            ours
            and not any(in_source(mine, *slot) for slot in ours)
            and any(in_source(theirs, *slot) for slot in others)
        ):
            return True
    return False


def _slots(
    mine: list[str], theirs: list[str]
) -> tuple[list[tuple[int, int, int, int]], int] | None:
    """Where two word sequences differ, as (start, end) in each, labels aside ("7b"
    beside "7c" of "Layer 7b:" and "Layer 7c:" is no case), and how many of `mine` they
    share in order; None where they differ only in labels."""
    from difflib import SequenceMatcher

    opcodes = SequenceMatcher(None, mine, theirs, autojunk=False).get_opcodes()
    same = sum(end - start for tag, start, end, _, _ in opcodes if tag == "equal")
    slots = [
        (a1, a2, b1, b2)
        for tag, a1, a2, b1, b2 in opcodes
        if tag != "equal" and not all(map(_numbered, (*mine[a1:a2], *theirs[b1:b2])))
    ]
    return (slots, same) if slots else None


def _numbered(word: str) -> bool:
    """Whether a normalised word is a number, a label ("7b") or a masked rule number."""
    return word == "#" or any(character.isdigit() for character in word)


def _says_lost_phrase(state: _Parting, i: int, j: int, lost: set[int]) -> bool:
    """Whether new `j`, nearly all of whose words old `i` holds, says a phrase of two or
    more words of `i` that `i`'s counterpart lost: the case it named beside the one its
    counterpart kept ("an instant spell or an activated ability" 408.1d of 2009-05-01;
    115.1a keeps the spells and 115.1b says "activated ability")."""
    mine = word_ids(state.texts[state.new[j].text_id], ordered=True)
    if share_within(mine, set(state.words(state.old[i]))) < PHRASE_HELD:
        return False
    said = word_ids(state.texts[state.old[i].text_id], ordered=True)
    runs: list[tuple[int, ...]] = []
    run: list[int] = []
    for word in (*said, -1):
        if word in lost:
            run.append(word)
            continue
        if len(run) >= 2:
            runs.append(tuple(run))
        run = []
    text = f" {' '.join(map(str, mine))} "
    return any(f" {' '.join(map(str, phrase))} " in text for phrase in runs)


def _other_cases(state: _Parting, parts: list[int], sources: list[int]) -> None:
    """Parts still left over that say of one case what an old rule said of two, and its
    counterpart says of the other (`_other_case`), were split from it: 113.1d of
    2009-07-11, "A triggered ability is targeted if ...", from 415.2 "An activated or
    triggered ability is targeted if ...", which is 113.1c on activated abilities. Their
    sources are the old rules holding CASE_CONTAINED of their words; one must fit."""
    left = [j for j in parts if j not in state.old_of and j not in state.split]
    placed = [i for i in sources if i in state.pairs]
    if not left or not placed:
        return
    import numpy as np

    contained, _ = containment(
        [state.words(state.new[j]) for j in left], [state.words(state.old[i]) for i in placed]
    )
    # The counterparts' lengths: a twin is within TWINS of the part's (`_other_case`).
    lengths = np.array([len(state.words(state.new[state.pairs[i]])) for i in placed])
    subjects = (Subjects(state.old, state.texts, state.titles),
                Subjects(state.new, state.texts, state.titles))  # fmt: skip
    for row, j in enumerate(left):
        size = len(state.words(state.new[j]))
        near = (
            (contained[row] >= CASE_CONTAINED)
            & (lengths >= TWINS * size)
            & (TWINS * lengths <= size)
        )
        fits = [
            i
            for column in near.nonzero()[0].tolist()
            if _other_case(state, (i := placed[column]), state.pairs[i], j, subjects)
        ]
        if len(fits) == 1:
            state.split[j] = fits[0]


def _parallel_parts(state: _Parting, parts: list[int], sources: list[int]) -> None:
    """Parts still left over written for the case an old rule named beside the one its
    counterpart kept, in that counterpart's words and in the rule it stands in, were split
    from it: the two say the same words in the same order (FRAME_SHARE of the longer) but
    in PARALLEL_SLOTS places at most, and the old rule names the part's case there
    (`_names_the_case`). "In a Vanguard game, each player's starting hand size is seven
    plus or minus the hand modifier of his or her vanguard card." (103.4a of 2013-07-13)
    was split from 103.3b, which said the life total and the hand "as modified by the hand
    modifier" in one sentence and goes on as the rule on the life modifier. The mirror of
    `_new_case`: a rule in a sibling's words for a case never named is new. A part two old
    rules would claim is only like them."""
    old, new, texts = state.old, state.new, state.texts
    left = [j for j in parts if j not in state.old_of and j not in state.split]
    words = state.words
    # The rewritten rules by the rule their counterpart stands in ("103" of 103.3b), where
    # a part stands, with the words the counterpart lost, one of which a part must say,
    # and its words, counted.
    rewritten: dict[str, list[tuple[int, set[int], list[str], Counter[str]]]] = {
        _rule_of(new[j].key): [] for j in left
    }
    for i in sources:
        k = state.pairs.get(i)
        if k is None or _rule_of(new[k].key) not in rewritten:
            continue
        if old[i].text_id != new[k].text_id and (
            lost := set(words(old[i])).difference(words(new[k]))
        ):
            kept = texts[new[k].text_id].split()
            rewritten[_rule_of(new[k].key)].append((i, lost, kept, Counter(kept)))
    claims: dict[int, list[int]] = {}
    for j in left:
        mine, said = texts[new[j].text_id].split(), set(words(new[j]))
        own = Counter(mine)
        for i, lost, kept, theirs in rewritten[_rule_of(new[j].key)]:
            least = FRAME_SHARE * max(len(mine), len(kept))
            if min(len(mine), len(kept)) < least or said.isdisjoint(lost):
                continue
            # The words both say, as often as either says them, bound those both say in
            # the same order.
            both = own.keys() & theirs.keys()
            if min(sum(own[w] for w in both), sum(theirs[w] for w in both)) < least:
                continue
            found = _slots(mine, kept)
            if (
                found is not None
                and found[1] >= least
                and len(found[0]) <= PARALLEL_SLOTS
                and _names_the_case(texts[old[i].text_id], mine, kept, found[0])
            ):
                claims.setdefault(j, []).append(i)
    for j, i in _claimed_once(claims):
        state.split[j] = i


def _claimed_once(claims: Mapping[int, list[int]]) -> Iterator[tuple[int, int]]:
    """The claims of `claims` (what is claimed: who claims it) that one claimant alone
    makes, as (claimed, claimant): what two rules would claim is only like both, not
    where either went."""
    for claimed, (claimant, *others) in claims.items():
        if not others:
            yield claimed, claimant


def _rule_of(key: str) -> str:
    """The rule a number stands in: "103" of "103.3b" (and of "103")."""
    return key.split(".")[0]


def _names_the_case(
    said: str, mine: list[str], kept: list[str], slots: list[tuple[int, int, int, int]]
) -> bool:
    """Whether an old rule (`said`, normalised) named the case a new rule (`mine`, its
    words) is written for in the words of the old rule's counterpart (`kept`): in every
    place where the two differ (`slots`) the new rule says a word the old rule said and
    the counterpart lost, and the counterpart says words of the old rule; and in one of
    them the new rule's words and a word beside them are a phrase of the old rule."""
    words = set(said.split())
    lost = words.difference(kept)
    if not all(
        lost.intersection(mine[a1:a2]) and words.issuperset(kept[b1:b2]) for a1, a2, b1, b2 in slots
    ):
        return False
    text = f" {said} "
    return any(
        end > start and _phrase_in(text, mine, start, end, alone_at_edges=False)
        for start, end, _, _ in slots
    )


def _phrase_in(said: str, words: list[str], start: int, end: int, *, alone_at_edges: bool) -> bool:
    """Whether `words[start:end]`, with the word before or the word after them, is a
    phrase of `said` (a normalised text with a space at each end). At the first or last
    word of `words` there is no word on that side: `alone_at_edges` lets the words stand
    there alone, as `_new_case` reads them (a case word opening a rule is its case: 703.4n
    and 602.5 of 2009-07-11 are parts of 300.3 and 409.4 so); `_names_the_case` asks for a
    neighbour always ("Partner" opening 702.124h of 2023-10-13 names no case of
    702.124g)."""
    runs = []
    if start or alone_at_edges:
        runs.append(words[max(start - 1, 0) : end])
    if end < len(words) or alone_at_edges:
        runs.append(words[start : end + 1])
    return any(f" {' '.join(run)} " in said for run in runs)


def _complements(state: _Parting, parts: list[int], sources: list[int]) -> None:
    """Parts still left over that say what an old rule said, of the case its counterpart
    was narrowed away from, were split from it: the counterpart gained a qualifier, and
    the part says the old rule's words with that qualifier negated. 704.5w of 2026-08-07,
    "If a non-Siege battle has defense 0, it's put into its owner's graveyard.", from
    704.5v, "If a battle has defense 0 ...", which is 704.5v on Siege battles. Its words
    SPLIT_CONTAINED_ALONE the old rule's at least; of two sources that fit, the one holding
    more of them, or as many and whose counterpart it stands beside (310.7 says the same
    of a battle's defense, and went on as 310.7 on Siege battles: 310.8, on the others,
    was split from it, and 704.5w from 704.5v)."""
    left = [j for j in parts if j not in state.old_of and j not in state.split]
    placed = [i for i in sources if i in state.pairs]
    if not left or not placed:
        return
    negations = set(word_ids(" ".join(NEGATIONS)))
    narrowed = {}
    for i in placed:
        own = set(state.words(state.old[i]))
        gained = set(state.words(state.new[state.pairs[i]])) - own
        if gained:
            narrowed[i] = (own, gained)
    for j in left:
        mine = set(state.words(state.new[j]))
        order = word_ids(state.texts[state.new[j].text_id], ordered=True)
        # The words negated ("non siege"): the qualifier the part denies.
        denied = {after for word, after in pairwise(order) if word in negations}
        if not denied:
            continue
        fits = []
        for i, (own, gained) in narrowed.items():
            qualifier = mine - own - negations
            held = len(mine & own)
            if (
                denied & gained
                and qualifier <= gained
                and held >= SPLIT_CONTAINED_ALONE * len(mine)
            ):
                beside = state.new[state.pairs[i]].parent == state.new[j].parent
                fits.append((held, beside, i))
        fits.sort(reverse=True)
        if fits and (len(fits) == 1 or fits[0][:2] > fits[1][:2]):
            state.split[j] = fits[0][2]


NEGATIONS = ("non", "not")
"""The words that negate a qualifier ("non-Siege", normalised "non siege")."""


def _other_case(
    state: _Parting, i: int, kept: int, j: int, subjects: tuple[Subjects, Subjects]
) -> bool:
    """Whether new `j` says of one case what old `i` said of two, and `kept`, its
    counterpart, says of the other: "There are no special restrictions on ... a replacement
    or prevention effect." (419.3 of 2009-05-01) is 613.3 "... a replacement effect.", and
    614.3 "... a prevention effect." was split from it. The two new rules share TWINS of
    their words; `kept` holds CASE_WORDS words of `i` at most that `j` lacks, and `j` one
    that `kept` dropped, which `i` names beside one of those in a sentence, CASES_APART
    words apart at most ("replacement or prevention"). A rule copied whole lacks none; a
    rule written after another of a like pattern shows no two cases side by side in its
    source (703.4f of 2009-07-11, "... the defending player declares blockers", after
    703.4e on the active player's attackers, from 308.1, is no case of 308.1). The same
    words said of another keyword are another rule ("To "fateseal N" means ..." 501.9a of
    2007-05-01, after scry's 502.36a; `subjects`: each edition's, as `Subjects` reads them)."""
    was, now, part = (set(state.words(x)) for x in (state.old[i], state.new[kept], state.new[j]))
    own, dropped = (was & now) - part, (was - now) & part
    if not (
        dropped
        and 0 < len(own) <= CASE_WORDS
        and len(now & part) >= TWINS * max(len(now), len(part))
    ):
        return False
    if not any(
        word in dropped
        for sentence in state.texts.sentences(state.old[i].text_id)
        for said in [word_ids(sentence, ordered=True)]
        for k, case in enumerate(said)
        if case in own
        for word in said[max(k - CASES_APART, 0) : k + CASES_APART + 1]
    ):
        return False
    mine, theirs = subjects[0](i), subjects[1](j)
    if not mine or not theirs:
        return True
    text = state.texts[state.new[j].text_id]
    return other_subject(mine, theirs, text, state.pairs, state.old_of) is False


def _core(state: _Parting, i: int, parts: list[int], named: list[int]) -> int:
    """Of the parts old `i` split into (new indices, the one it continues so far first),
    the one its line goes on in. Where one of `named` keeps its letters (or number) under
    its heading's new number, the part that says first what the old rule said first (its
    own words come earliest there: haste 502.5b "can attack or use activated abilities"
    goes on as 702.10b, attacking, not as 702.10c, though that holds more of its words),
    even against one keeping its number under another heading (713.3 of 2011-04-01, on
    subgames, is 714.3, not the new 713.3 on restarting the game, written after it); else
    the part keeping its number; else the part carrying its first sentence."""
    old, new, words = state.old, state.new, state.words
    key = old[i].key
    names = state.namesakes(i)[1:]
    moved = any(new[j].key in names for j in named)
    same = next((j for j in named if new[j].key == key), None)
    if same is not None and not moved:
        return _opening_elsewhere(state, i, same, [j for j in parts if j != same]) or same
    if moved:
        return _opening_part(state, i, parts)
    return _leading(old[i], parts, lambda j: words(new[j]), state.texts)


def _opening_elsewhere(state: _Parting, i: int, same: int, others: list[int]) -> int | None:
    """The one of `others` that says again, almost word for word, the opening sentence of
    old `i`, a rule of several sentences, which `same`, the part keeping its number, does
    not say: what a rule says first is what it is about, and the line goes on there (the
    hybrid cost-reduction rule 116.7a of 2010-02-01 is 116.7c; the new 116.7a, on colored
    reductions, is another rule that took the number). Not where the part keeping the
    number says again TAKEN_KEPT of its words or more, sentence by sentence: that is one
    of its parts (203.1a of 2007-05-01 kept "A copy of an object copies that object's mana
    cost.", and 203.1c, saying first what it said first, was split from it); nor where
    it had one sentence, split in two (420.5a of 1999-11-01 keeps the life clause)."""
    texts, here = state.texts, state.new[same].text_id
    sentences = texts.sentences(state.old[i].text_id)
    if len(sentences) < 2 or carries_sentence(texts, sentences[0], here):
        return None
    kept = sum(
        len(sentence.split()) for sentence in sentences if carries_sentence(texts, sentence, here)
    )
    if kept >= TAKEN_KEPT * sum(len(sentence.split()) for sentence in sentences):
        return None  # a part of it, though not its opening (203.1a of 2007-05-01)
    carriers = [j for j in others if carries_sentence(texts, sentences[0], state.new[j].text_id)]
    return carriers[0] if len(carriers) == 1 else None


def _opening_part(state: _Parting, i: int, parts: list[int]) -> int:
    """The part whose own words (held by no other part) come first in old `i`'s text;
    the first part where none has words of its own there."""
    held = [set(state.words(state.new[j])) for j in parts]
    order = word_ids(state.texts[state.old[i].text_id], ordered=True)
    first_at: dict[int, int] = {}
    for at, word in enumerate(order):
        first_at.setdefault(word, at)
    best, best_at = parts[0], len(order)
    for column, j in enumerate(parts):
        others = set().union(*(held[k] for k in range(len(parts)) if k != column))
        own = [first_at[word] for word in held[column] - others if word in first_at]
        if own and min(own) < best_at:
            best, best_at = j, min(own)
    return best


def _namesake_merges(state: _Parting, left_old: list[int], targets: list[int]) -> None:
    """Merges into a record keeping the number of an old one left over, whose words it
    all holds: that old record is the core, the one paired with it so far was merged
    in; unless that one is printed there word for word, which no kept number outweighs
    (the "world rule" 801.13 of 2013-05-01 is 801.12 of 2013-07-13, and the "legend
    rule" 801.12 before it, whose words it nearly all has, went)."""
    old, new, words = state.old, state.new, state.words
    targets_by_key = {new[j].key: j for j in targets}
    old_subject, new_subject = (Subjects(items, state.texts, state.titles) for items in (old, new))
    for i in left_old:
        home = targets_by_key.get(old[i].key)
        own = words(old[i])
        if i in state.pairs or home is None or home in state.split or not own:
            continue
        holds = set(words(new[home]))
        share = sum(1 for word in own if word in holds) / len(own)
        if share < (1.0 if len(own) < SPLIT_WORDS else SPLIT_CONTAINED_ALONE):
            continue
        mine, theirs = old_subject(i), new_subject(home)
        said = state.texts[new[home].text_id]
        if (
            mine
            and theirs
            and other_subject(mine, theirs, said, state.pairs, state.old_of) is not False
        ):
            continue  # said of another keyword, or of one not yet known to be the same
        other = state.old_of.get(home)
        if other is not None:
            if old[other].key == new[home].key or not _reworded(state, other, home):
                continue
            del state.pairs[other]
            state.merged[other] = home
        state.pair(i, home)


def _printed_again(state: _Parting, i: int, j: int) -> bool:
    """Whether new `j` prints old `i` again, word for word in order (typography and the
    numbers it cites aside)."""
    old, new, texts = state.old[i], state.new[j], state.texts
    return old.text_id == new.text_id or texts[old.text_id] == texts[new.text_id]


def _reworded(state: _Parting, i: int, j: int) -> bool:
    """Whether new `j` words old `i` otherwise: not printed word for word (typography and
    the numbers it cites aside)."""
    old, new = state.old[i], state.new[j]
    return old.text_id != new.text_id and state.words(old) != state.words(new)


def _contained_merges(state: _Parting, left_old: list[int], targets: list[int]) -> None:
    """Old records left over, each merged into the one new rule holding its words (or,
    when that rule has no counterpart and the record is long, continued by it)."""
    import numpy as np

    old, new, words = state.old, state.new, state.words
    absorbed = [i for i in left_old if i not in state.pairs and len(words(old[i])) >= SPLIT_WORDS]
    if not absorbed or not targets:
        return
    contained, covered = containment(
        [words(old[i]) for i in absorbed], [words(new[j]) for j in targets]
    )
    target_parents = np.array([new[j].parent or "\1" for j in targets])
    for row, i in enumerate(absorbed):
        placed = target_parents == state.new_key.get(old[i].parent or "", "\0")
        target = _unique_best(contained[row], covered[row], MERGE_CONTAINED, placed)
        if target is None:
            target = _holds_the_others(state, i, targets, contained[row], MERGE_CONTAINED)
            if target is not None and targets[target] in state.old_of:
                continue  # a rule that continues another is not enough of a home on that
        if target is None:
            continue
        j = targets[target]
        if j in state.split:
            continue
        if j in state.old_of:
            # The merged rule brought words its new home did not have.
            gained = set(words(new[j])) - set(words(old[state.old_of[j]]))
            carried = words(old[i])
            if (
                _carries(carried, gained, MERGE_CARRIES_SHARE)
                or _explains(carried, gained)
                or _brings_sentence(state, i, j)
            ):
                state.merged[i] = j
        elif len(words(old[i])) >= ALONE_WORDS:
            state.pair(i, j)


BROUGHT_WORDS = 6
"""Words a sentence needs for a rule merged in to be known by it."""


def _brings_sentence(state: _Parting, i: int, j: int) -> bool:
    """Whether old `i` brought new `j`, which continues another old rule, a sentence
    (BROUGHT_WORDS words at least) that `j` says word for word or almost and that rule
    never said: the intervening "if" rule 410.8 of 2009-05-01 brought "Note that this
    mirrors the check for legal targets." to 603.4, which goes on from 404.3, though
    603.4 reworded the rest of both."""
    return any(
        _brought(state, sentence, j) for sentence in state.texts.sentences(state.old[i].text_id)
    )


def _brought(state: _Parting, sentence: str, j: int) -> bool:
    """Whether new `j`, which continues an old rule, says a sentence (normalised,
    BROUGHT_WORDS words at least) word for word or almost that the old rule never said:
    a sentence another rule brought it (`_brings_sentence`, `_openings_brought`)."""
    texts = state.texts
    return (
        len(sentence.split()) >= BROUGHT_WORDS
        and carries_sentence(texts, sentence, state.new[j].text_id)
        and not carries_sentence(texts, sentence, state.old[state.old_of[j]].text_id)
    )


def _openings_brought(
    state: _Parting, left_old: list[int], targets: list[int], left_new: list[int]
) -> None:
    """An old rule left over whose opening sentence (BROUGHT_WORDS words at least) one new
    rule continuing another says word for word or almost, and no other new rule says,
    where the rule it continues never said it, was merged into it, whatever became of
    the rest: "Sometimes the results of one effect determine whether another effect
    applies or what another effect does." (418.5b of 2003-10-01, which went on with an
    example in its text) follows "One continuous effect can override another." in 418.5h
    of 2003-12-01, which prints that example apart, as an example of its own."""
    import numpy as np

    old, new, texts = state.old, state.new, state.texts
    alone: list[int] = []
    openings: list[str] = []
    for i in left_old:
        if i in state.pairs or i in state.merged or old[i].text_id in state.titles:
            continue
        first = opening(texts.raw[old[i].text_id])
        if first is not None and len(first.split()) >= BROUGHT_WORDS:
            alone.append(i)
            openings.append(first)
    homes = [j for j in targets if j in state.old_of] + [
        j for j in left_new if j not in state.old_of and j not in state.split
    ]
    if not alone or not homes:
        return
    contained, _ = containment(
        [word_ids(first) for first in openings], [state.words(new[j]) for j in homes]
    )
    for row, i in enumerate(alone):
        first = openings[row]
        found = [
            homes[column]
            for column in np.flatnonzero(contained[row] >= PHRASE_HELD).tolist()
            if carries_sentence(texts, first, new[homes[column]].text_id)
        ]
        if len(found) == 1 and found[0] in state.old_of and _brought(state, first, found[0]):
            state.merged[i] = found[0]


def _better_homes(state: _Parting, sources: list[int], left_new: list[int]) -> None:
    """A rule paired with a rewrite, where one new rule left over holds every word of it
    the rewrite holds and SPLIT_MARGIN of its words more, SPLIT_CONTAINED of them at
    least, went on in that one, and the rewrite is left over: "Fourth, any abilities that
    triggered on blockers being declared go on the stack." (509.4 of 2016-08-26) is 509.4a
    of 2016-09-30, which holds all of it but "Fourth" and "go", not 509.1i ("Any abilities
    that trigger on blockers being declared trigger."), as short as it and so as alike
    (the parallel 508.2 is 508.2b, `_holds_the_others`)."""
    import numpy as np

    old, new, words = state.old, state.new, state.words
    free = [j for j in left_new if j not in state.old_of and j not in state.split]
    paired = [
        i
        for i in sources
        if i in state.pairs
        and len(words(old[i])) >= SPLIT_WORDS
        and _reworded(state, i, state.pairs[i])
    ]
    if not free or not paired:
        return
    contained, _ = containment([words(old[i]) for i in paired], [words(new[j]) for j in free])
    for row, i in enumerate(paired):
        columns = np.flatnonzero(contained[row] >= SPLIT_CONTAINED).tolist()
        if not columns:
            continue
        mine, j = set(words(old[i])), state.pairs[i]
        held = mine.intersection(words(new[j]))
        better = [
            free[column]
            for column in columns
            if held < (theirs := mine.intersection(words(new[free[column]])))
            and len(theirs) - len(held) >= SPLIT_MARGIN * len(mine)
        ]
        if len(better) == 1 and better[0] not in state.old_of:
            del state.old_of[j]
            state.pair(i, better[0])


def _second_copies(state: _Parting, left_old: list[int]) -> None:
    """A rule printed twice, word for word, whose second copy goes: it lives on in the
    copy that stays (2018-04-27 dropped 810.7e, which 805.10f had said all along)."""
    old, new = state.old, state.new
    alone = [
        i
        for i in left_old
        if i not in state.pairs
        and i not in state.merged
        and len(state.words(old[i])) >= ALONE_WORDS
    ]
    if not alone:
        return
    wanted = {old[i].text_id for i in alone}
    kept_texts: dict[int, list[int]] = {}
    for j in state.old_of:
        if new[j].text_id in wanted and new[j].kind in LEVELS[1]:
            kept_texts.setdefault(new[j].text_id, []).append(j)
    for i in alone:
        copies = kept_texts.get(old[i].text_id, ())
        if len(copies) == 1:
            state.merged[i] = copies[0]


def _parallel_merges(state: _Parting, left_old: list[int], targets: list[int]) -> None:
    """An old rule left over that said for one case what another old rule said for
    another went into the new rule continuing that one, where the rewrite treats the two
    cases alike: names both (903.11 of 2015-07-17: a commander exiled, or put into its
    owner's hand, graveyard or library, where 903.12 had said exile and 903.11 the
    graveyard) or neither (724.2a of 2022-10-07 speaks of supplementary decks, where 723.2a
    and 723.2d had named the planar deck and the scheme deck). A rewrite that keeps one
    case's own words and drops the other's is that rule alone, the other removed."""
    import numpy as np

    old, new, words = state.old, state.new, state.words
    alone = [
        i
        for i in left_old
        if i not in state.pairs and i not in state.merged and len(words(old[i])) >= SPLIT_WORDS
    ]
    homes = [
        j
        for j in targets
        if j in state.old_of and j not in state.split and new[j].kind in LEVELS[1]
    ]
    if not alone or not homes:
        return
    contained, _ = containment([words(old[i]) for i in alone], [words(new[j]) for j in homes])
    chosen: dict[int, int] = {}
    for row, i in enumerate(alone):
        mine = set(words(old[i]))
        found = []
        for column in np.flatnonzero(contained[row] >= MERGE_CONTAINED):
            j = homes[int(column)]
            if not _reworded(state, state.old_of[j], j):
                continue
            theirs, now = set(words(old[state.old_of[j]])), set(words(new[j]))
            own, other = mine - theirs, theirs - mine
            if not own or not other:
                continue
            if len(mine & theirs) < PARALLEL * len(mine | theirs):
                continue
            kept_own, kept_other = len(own & now) / len(own), len(other & now) / len(other)
            if abs(kept_own - kept_other) <= ALIKE:
                found.append(j)
        if len(found) == 1:
            chosen[i] = found[0]
    # A home that several such rules would go into is one they were all like, not where
    # they went (the variants' "normal rules for winning and losing the game" of
    # 2009-09-04, dropped but for the Emperor's, rewritten).
    claims = Counter(chosen.values())
    state.merged.update((i, j) for i, j in chosen.items() if claims[j] == 1)


def _lost_clauses(
    state: _Parting, parts: list[int], sources: list[int], found: dict[int, list[int]]
) -> set[int]:
    """Parts found by what their source lost: a new rule holding nearly all the words an
    old rule's counterpart no longer has, and half its own words in that old rule, was
    split from it, though reworded too much to be found by its share of words alone
    (603.12a of 2021-09-24, the 'any number of times' clause 603.12 lost). What the old
    rule said only inside quotation marks is not counted lost (`_words_outside_quotes`).
    Returns them."""
    old, new, pairs, words = state.old, state.new, state.pairs, state.words
    taken = {j for pieces in found.values() for j in pieces}
    added: set[int] = set()
    claims: dict[int, list[int]] = {}
    losses: dict[int, set[int]] = {}
    for i in sources:
        kept = pairs.get(i)
        if kept is not None and old[i].text_id != new[kept].text_id:
            lost = set(_words_outside_quotes(state, old[i])) - set(words(new[kept]))
            if len(lost) >= LOST_WORDS:
                losses[i] = lost
    if not losses:
        return added
    for j in parts:
        if j in taken:
            continue
        mine = set(words(new[j]))
        shares = sorted(
            ((len(lost & mine) / len(lost), i) for i, lost in losses.items()), reverse=True
        )
        best, i = shares[0]
        runner_up = shares[1][0] if len(shares) > 1 else 0.0
        if best < LOST_CARRIED or runner_up > best - SPLIT_MARGIN:
            continue
        if share_within(mine, set(words(old[i]))) >= LOST_CONTAINED:
            claims.setdefault(i, []).append(j)
    # What one rule lost went to one place: parts that both claim it are only alike.
    for i, j in _claimed_once(claims):
        found.setdefault(i, []).append(j)
        added.add(j)
    return added


def _words_outside_quotes(state: _Parting, item: Item) -> tuple[int, ...]:
    """An item's word ids, less those it says only inside quotation marks: the wording of
    a template it quotes, which an edition may rewrite everywhere at once ("Activate this
    ability only any time you could cast an instant" of 605.1, 2021-02-15, became
    "Activate only as an instant"), is no clause of the rule that another rule could take
    with it (602.5f of 2021-04-22, a note quoting the old wording, is new). None for a
    title, as `_Parting.words`."""
    if item.text_id in state.titles:
        return ()
    return word_ids(normalise(_QUOTED.sub(" ", fold(state.texts.raw[item.text_id]))))


#: A span in double quotation marks, typography folded.
_QUOTED = re.compile(r'"[^"]*"')


def _lost_openings(
    state: _Parting, left_new: list[int], sources: list[int], found: dict[int, list[int]]
) -> set[int]:
    """Parts found by the sentence they open with: a new record that opens, word for word
    or a word or two changed, with a sentence one old rule printed and its counterpart no
    longer does was split from it, however much it added (203.1c of 2007-05-01 opens with
    the sentence on lands that 203.1a dropped; 217.6b of 2003-07-01 with the one on the
    order of the stack that 217.6a dropped). Then the part keeping the old number is where
    the line goes on: 807.4c of 2010-07-16 opens with what 807.4c said first, "When" become
    "After", and 807.4d, first paired with the old 807.4c, says its second sentence. What
    a record opens with outweighs where most of its words were: a part found among another
    rule's is moved here (807.4c has more words of old 807.4d, printed again as 807.4i),
    and a part found among its own source's words needs no more proof (213.3 of 2003-07-01
    opens with the sentence on spells that 214.3 dropped, "often" gone, but holds few of
    the words 214.3 lost, most of them said again in its first sentence). Returns them."""
    old, new, pairs, raw = state.old, state.new, state.pairs, state.texts.raw
    taken = {j: i for i, pieces in found.items() for j in pieces}
    openings = {j: first for j in left_new if (first := opening(raw[new[j].text_id])) is not None}
    added: set[int] = set()
    if not openings:
        return added
    # The sentences old rules dropped (their counterparts reworded, not saying them again),
    # against the openings at once (rapidfuzz's cdist).
    from rapidfuzz import fuzz, process

    said: list[str] = []
    owners: list[int] = []
    for i in sources:
        for sentence in state.dropped(i):
            said.append(sentence)
            owners.append(i)
    if not said:
        return added
    columns = list(openings)
    ratios = process.cdist(
        [openings[j] for j in columns], said, scorer=fuzz.ratio, score_cutoff=CARRIED_RATIO
    )
    # Or, at the old rule's number, an opening that says a dropped sentence and goes on
    # ("Some effects allow a player to change the target(s) of a spell or ability, and
    # other effects ...", 113.6 of 2010-02-01): its words as long as the sentence, against
    # it. Elsewhere such a rule says it of another case (801.18 of 2010-07-16, the loop
    # rule of the limited range of influence, is new beside 104.4b).
    at_number: dict[str, list[int]] = {}
    for col, owner in enumerate(owners):
        for key in state.namesakes(owner):
            at_number.setdefault(key, []).append(col)
    for row, j in enumerate(columns):
        first = openings[j]
        said_by = {owners[col]: first for col in ratios[row].nonzero()[0].tolist()}
        words = first.split()
        for col in at_number.get(new[j].key, ()):
            head = " ".join(words[: said[col].count(" ") + 1])
            if head != first and fuzz.ratio(head, said[col]) >= CARRIED_RATIO:
                said_by.setdefault(owners[col], head)
        holders = sorted(
            i
            for i, head in said_by.items()
            if len((needed := set(word_ids(head))).intersection(state.words(old[i])))
            >= OPENING_KEPT * len(needed)
            and not carries_sentence(state.texts, head, new[pairs[i]].text_id)
        )
        if len(holders) == 1:
            before = taken.get(j)
            if before == holders[0]:
                added.add(j)  # found among its words, and sure now
                continue
            if before is not None:
                found[before].remove(j)
                if not found[before]:
                    del found[before]
            found.setdefault(holders[0], []).append(j)
            added.add(j)
    return added


def _lost_sentences(
    state: _Parting,
    parts: list[int],
    sources: list[int],
    targets: list[int],
    found: dict[int, list[int]],
) -> set[int]:
    """Parts found by a sentence their source dropped and said apart, reworded: of the new
    rules standing just after an old rule's counterpart (under it, or beside it) or just
    before it (beside it) with half their words in the old rule, the one most nearly a
    sentence the counterpart no longer says, holding LOST_SENTENCE of its words, was
    split from it, unless another rewritten rule (`targets`; one printed again said it
    before) or the counterpart says it more (`_holds_most`) (614.13a of 2012-07-01, on
    the choices an effect that modifies how a permanent enters can't make, from 614.13's
    "Such an effect can't cause the permanent itself to not enter"; 203.1a of
    2005-08-01, on the mana cost of lands and tokens, from 203.1; 212.6c of 2007-10-01,
    "A player may normally play only one land card during his or her turn", from 212.6b,
    whose last sentences 212.6e says word for word after it, and which goes on there as
    it says what 212.6b said first). Returns them."""
    old, new, pairs, words = state.old, state.new, state.pairs, state.words
    taken = {j for pieces in found.values() for j in pieces}
    free = set(parts) - taken
    added: set[int] = set()
    if not free:
        return added
    claims: dict[int, list[int]] = {}
    for i in sources:
        kept = pairs.get(i)
        if kept is None or old[i].text_id == new[kept].text_id:
            continue
        beside = [j for j in _beside(state, kept) if j in free]
        if not beside:
            continue
        mine = set(words(old[i]))
        beside = [j for j in beside if share_within(words(new[j]), mine) >= LOST_CONTAINED]
        if not beside:
            continue
        dropped = [set(word_ids(sentence)) for sentence in state.dropped(i)]
        for sentence in dropped:
            # The rule beside most nearly the sentence says it again: 603.7e of 2010-04-23,
            # on delayed triggers abilities create, not 603.7f, on those a static ability
            # makes, which says the same of its own source.
            j = max(beside, key=lambda j: _nearness(sentence, set(words(new[j]))))
            held = len(sentence.intersection(words(new[j])))
            if (
                held >= LOST_SENTENCE * len(sentence)
                and _holds_most(state, sentence, held, j, kept, targets)
                and i not in claims.get(j, ())
            ):
                claims.setdefault(j, []).append(i)
    # A part two old rules' sentences would claim ("(Players can always pay 0 life.)" of
    # both 119.4 and 119.4a, 2021-02-05) is only like them.
    for j, i in _claimed_once(claims):
        found.setdefault(i, []).append(j)
        added.add(j)
    return added


def _beside(state: _Parting, kept: int) -> list[int]:
    """The new rules standing within BESIDE places of new `kept`, before or after it under
    its parent, or after it under it."""
    new = state.new
    return [
        j
        for j in range(max(kept - BESIDE, 0), min(kept + 1 + BESIDE, len(new)))
        if j != kept
        and (new[j].parent == new[kept].parent or (j > kept and new[j].parent == new[kept].key))
    ]


def _sentences_said_again(state: _Parting, sources: list[int], targets: list[int]) -> None:
    """Rewritten rules paired by likeness with one old rule that say again, every word of
    it, a sentence another old rule's counterpart beside them dropped, holding more of its
    words than of their partner's, were split from that other rule, and the partner is
    left over: 712.11a of 2023-04-14, on double-faced cards cast "transformed", says again
    the sentence 712.7 dropped as it went on as 712.11, and was paired with 713.8, on meld
    cards cast as spells, a rule of the same mould saying another thing. A rule two old
    rules' sentences would claim is only like them (`_lost_sentences`)."""
    old, new, pairs, words = state.old, state.new, state.pairs, state.words
    paired = {j for j in targets if j in state.old_of}
    claims: dict[int, list[int]] = {}
    for k in sources:
        kept = pairs.get(k)
        if kept is None or old[k].text_id == new[kept].text_id:
            continue
        beside = [j for j in _beside(state, kept) if j in paired and state.old_of[j] != k]
        if not beside:
            continue
        for sentence in state.dropped(k):
            said = set(word_ids(sentence))
            if len(said) < SPLIT_WORDS:
                continue
            for j in beside:
                mine = set(words(new[j]))
                partner = mine.intersection(words(old[state.old_of[j]]))
                if said <= mine and len(said) > len(partner) and k not in claims.get(j, ()):
                    claims.setdefault(j, []).append(k)
    for j, k in _claimed_once(claims):
        del state.pairs[state.old_of.pop(j)]
        state.split[j] = k


def _holds_most(
    state: _Parting, sentence: set[int], held: int, j: int, kept: int, targets: list[int]
) -> bool:
    """Whether new `j`, holding `held` of a sentence's words, is the rule that says it
    again: no other of `targets` holds as many of them and is as much made of them (the
    new 611.3d of 2022-10-07 holds more of what 400.7a dropped than 400.7b, which says
    it apart, but says much else), and `kept`, which went on from the sentence's old
    rule, holds no more (610.3b of 2020-07-03 says of triggered abilities what 610.3a,
    keeping the number, says of spells: both rewrote the sentence). Another rule holding
    just as many because its own old rule said them too, or the old rule it was written
    after (`_written_after`), took nothing from the sentence's rule: 702.155b of
    2026-04-17, on read ahead, says what it always said in the words of 714.3b, split
    from 714.3a beside it; the new planeswalker rule 212.9a of 2007-10-01 says what 212.3a
    said of creatures in the words of 212.6b, split from 212.6a."""
    new, words = state.new, state.words
    mine = held / len(set(words(new[j])))

    def beats(other: int) -> bool:
        theirs = set(words(new[other]))
        found = len(sentence & theirs)
        if other == kept:
            return found > held
        if found < held or found / len(theirs) < mine:
            return False
        if found > held:
            return True
        # As many: unless its own old rule, or the one it was written after, held them too.
        source = state.old_of.get(other)
        if source is None:
            source = _written_after(state, other)
        return (
            source is None
            or source == state.old_of.get(kept)
            or len(sentence.intersection(words(state.old[source]))) < found
        )

    return not any(beats(other) for other in targets if other != j)


def _written_after(state: _Parting, j: int) -> int | None:
    """The old rule a new rule left over was written after: of those whose texts are
    loaded (none printed again word for word), the one holding the most of its words,
    SPLIT_CONTAINED of them at least (212.9a of 2007-10-01, on playing a planeswalker,
    after 212.3a on playing a creature)."""
    mine = set(state.words(state.new[j]))
    if len(mine) < SPLIT_WORDS:
        return None
    loaded = state.texts.raw
    share, i = max(
        (
            (share_within(mine, set(state.words(item))), i)
            for i, item in enumerate(state.old)
            if item.text_id in loaded
        ),
        default=(0.0, -1),
    )
    return i if share >= SPLIT_CONTAINED else None


def _nearness(sentence: set[int], words: set[int]) -> float:
    """How nearly a rule's words are a sentence's: twice the words both hold, over both
    counts."""
    return 2 * len(sentence & words) / (len(sentence) + len(words))


def _opens_with(state: _Parting, j: int, core: int, other: int) -> bool:
    """Whether new `j` opens with a sentence old `core` says word for word (or almost)
    and old `other` does not: "Multiple instances of banding on the same creature are
    redundant." opens 702.19m of 2009-07-11, said so by 502.10i, while 502.11d, whose
    sentence on bands with other follows it, holds all but one of its words."""
    first = opening(state.texts.raw[state.new[j].text_id])
    if first is None:
        return False
    texts, old = state.texts, state.old
    return carries_sentence(texts, first, old[core].text_id) and not carries_sentence(
        texts, first, old[other].text_id
    )


def _merge_cores(state: _Parting, left_old: list[int], sources: list[int]) -> None:
    """A rule that took in others continues the one its first sentence comes from: the
    one whose number it kept if that one holds its first sentence, else the one holding
    most of it (712.8 of 2023-04-14 opens with old 712.4 and ends with old 713.4, which it
    holds word for word; 500.5 of 2025-11-14 opens with old 500.5 and ends with old 500.4),
    and that one holds SPLIT_CONTAINED_ALONE of its words there, or MERGE_CONTAINED where
    the rule opens with its first sentence word for word, which the other never said
    (406.4 of 2003-07-01 opens with 406.1d, whose second sentence it dropped, and goes on
    with 406.1e). The counterpart it had is merged into it, and a record the core had
    continued, all of whose words the core had, was split from it. Only `sources`, the old
    records not printed again as they were, can have been reworded."""
    old, new, pairs, words, texts = state.old, state.new, state.pairs, state.words, state.texts
    split, merged = state.split, state.merged
    # Its own inverse of the pairs: the pass after it reads the state's as it stood.
    old_of = {j: i for i, j in pairs.items()}

    sourced = set(sources)
    changed = [
        j
        for j, i in old_of.items()
        if i in sourced and new[j].kind in LEVELS[1] and j not in split and _reworded(state, i, j)
    ]
    if not changed:
        return
    by_key = {old[i].key: i for i in range(len(old)) if old[i].kind in LEVELS[1]}
    spare = [i for i in left_old if i not in pairs and len(words(old[i])) >= SPLIT_WORDS]
    for j in changed:
        i = old_of[j]
        first = first_words(new[j], texts)
        if len(first) < SPLIT_WORDS or old[i].key == new[j].key:
            continue
        own = set(words(new[j]))
        namesake = by_key.get(new[j].key)
        candidates = [k for k in spare if merged.get(k, j) == j]
        if (
            namesake is not None
            and namesake in pairs
            and _reworded(state, namesake, pairs[namesake])
        ):
            candidates.append(namesake)
        if not candidates or share_within(words(old[i]), own) < MERGE_CONTAINED:
            continue
        shares = {k: share_within(first, set(words(old[k]))) for k in (i, *candidates)}
        core = max(candidates, key=shares.__getitem__)
        if shares[core] < LEADING or (
            shares[core] <= shares[i] + SPLIT_MARGIN and not _opens_with(state, j, core, i)
        ):
            continue
        held = share_within(words(old[core]), own)
        if (
            core != namesake
            and held < SPLIT_CONTAINED_ALONE
            and (held < MERGE_CONTAINED or not _opens_with(state, j, core, i))
        ):
            continue
        elsewhere = pairs.get(core)
        if elsewhere is not None:
            # Its own first sentence must have come here, not stayed where it went; what
            # it continued there is a part of it.
            if _leading(old[core], [elsewhere, j], lambda k: words(new[k]), texts) != j:
                continue
            if share_within(words(new[elsewhere]), set(words(old[core]))) < SPLIT_CONTAINED_ALONE:
                continue
            split[elsewhere] = core
        merged.pop(core, None)
        del pairs[i]
        merged[i] = j
        pairs[core] = j
        old_of[j] = core
        if core in spare:
            spare.remove(core)


def _carries(part: tuple[int, ...], words: set[int], share: float = SPLIT_CARRIES_SHARE) -> bool:
    """Whether a part holds enough of some words to be where they went (or came from)."""
    shared = sum(1 for word in part if word in words)
    return shared >= max(SPLIT_CARRIES, share * len(part))


def _leading(
    whole: Item,
    parts: list[int],
    words: Callable[[int], tuple[int, ...]],
    texts: Normalised,
) -> int:
    """Of the parts a rule split into (new indices, the one it continues first), the one
    holding most of its first sentence's words; the first keeps it unless another holds
    LEADING of them and leads by SPLIT_MARGIN."""
    first = first_words(whole, texts)
    if not first:
        return parts[0]
    shares = [share_within(first, set(words(j))) for j in parts]
    best = max(range(len(parts)), key=shares.__getitem__)
    leads = shares[best] >= LEADING and shares[best] > shares[0] + SPLIT_MARGIN
    return parts[best] if leads else parts[0]


def _explains(part: tuple[int, ...], gained: set[int]) -> bool:
    """Whether a rule merged in accounts for most of what its new home gained."""
    shared = sum(1 for word in part if word in gained)
    return shared >= 2 and shared >= MERGE_EXPLAINS * len(gained)


def _unique_best(
    contained: NDArray[np.float32],
    covered: NDArray[np.float32],
    least: float,
    placed: NDArray[np.bool_],
) -> int | None:
    """The one candidate a record is part of, or None. It holds at least `least` of the
    record's words and leads the others by SPLIT_MARGIN on that share, with a bonus for
    standing where the record stands (`placed`: its parent corresponds). When two lead
    together, the share of the candidate's own words the record holds decides (a long
    rule holds the words of many short ones; the source the part is most of is the one
    it came from), again by SPLIT_MARGIN."""
    import numpy as np

    if not len(contained):
        return None
    for rank in (contained + PLACED_BONUS * placed, contained + covered + PLACED_BONUS * placed):
        best = int(np.argmax(rank))
        if contained[best] < least:
            return None
        if len(rank) < 2 or float(np.partition(rank, -2)[-2]) <= rank[best] - SPLIT_MARGIN:
            return best
    return None


def _holds_the_others(
    state: _Parting, i: int, targets: list[int], contained: NDArray[np.float32], least: float
) -> int | None:
    """Of the new rules holding `least` of old `i`'s words, none leading the others by
    SPLIT_MARGIN, the one holding every word of it that each other within that margin
    holds, and more; None if none does. A rule rewritten beside its parallel for another
    case shares most of its words with both, the parallel lacking the one naming its
    case: "Second, any abilities that triggered on attackers being declared go on the
    stack." (508.2 of 2016-08-26) is 508.2b of 2016-09-30, which holds all of it but
    "Second" and "go", not 509.4a, which says the same of blockers."""
    import numpy as np

    top = float(contained.max()) if len(contained) else 0.0
    candidates = np.flatnonzero(contained >= max(least, top - SPLIT_MARGIN)).tolist()
    if len(candidates) < 2:
        return None
    mine = set(state.words(state.old[i]))
    held = {c: mine.intersection(state.words(state.new[targets[c]])) for c in candidates}
    best = max(candidates, key=lambda c: len(held[c]))
    if all(held[c] < held[best] for c in candidates if c != best):
        return best
    return None
