"""Passes 7 to 10, on what splits and merges left over: rules that go where their
subrules went (7), new rules over an old rule's parts, that go on from it or introduce
them (8), rules whose example went on in a new rule (9), and rules left over on both
sides that are each other's nearest (10); see `rules_kb.ingest.align`."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Container, Mapping, Sequence
from typing import TYPE_CHECKING

from rules_kb.ingest.align.model import LEVELS, Item, LoadTexts
from rules_kb.ingest.align.pairs import ACCEPT_IN_PLACE, ACCEPT_KEPT
from rules_kb.ingest.align.parts import SPLIT_WORDS
from rules_kb.ingest.align.words import (
    Normalised,
    first_words,
    likeness,
    normalise,
    numbers_masked,
    share_within,
    word_ids,
)
from rules_kb.ingest.models import descends

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray


FOLLOWED_CHILDREN = 2
"""How many subrules an old rule left over needs, all gone under one new rule, for its
line to be known from theirs."""
FOLLOWED_SUPPORT = 0.5
"""The share of an old rule's subrules that must have gone on for their new parent to
be where it went; and the share of its subrules inside a new rule below which an old
rule paired with that rule gives way to one whose subrules all went there."""


def followed_headings(
    old: Sequence[Item],
    new: Sequence[Item],
    pairs: dict[int, int],
    split: Mapping[int, int],
    merged: dict[int, int],
    texts: Normalised,
    titles: Container[int] = frozenset(),
) -> None:
    """Pass 7: a rule left over whose subrules that went on (at least FOLLOWED_CHILDREN,
    and FOLLOWED_SUPPORT of them) all went under one new rule went there too. It continues
    in that rule where nothing else does ("Tribals" 308 is "Kindreds" 308 of 2024-06-07,
    "EDH" 903 is "Commander" 903 of 2011-02-04, "Tap" 501.7 is "Tap and Untap" 701.15 of
    2009-07-11), or where the old rule paired with it has subrules and fewer than
    FOLLOWED_SUPPORT of them went inside it ("Spells" 401 of 2003-03-15 is "Spells on the
    Stack" 401, not "Spells" 213, which continues "Spell Type" 213); else it was merged
    into it ("Triggered Abilities" 404 into "Handling Triggered Abilities" 603 of
    2009-07-11). Pairs and merges are added to `pairs` and `merged`; an old rule that
    gives way is left over and looked at again; a new rule split off another keeps its
    source, and only a title went into it, as the heading of the rules now under it
    ("Continuous Effects from Spells or Abilities" 418.3 of 2009-05-01 into 610.2, split
    off 418.1: 610.2 says what 418.1 said of those rules). First, a heading paired by
    its title alone follows its rules where they left it (`_headings_left_behind`)."""
    children: dict[str, list[int]] = {}
    for i, item in enumerate(old):
        if item.parent is not None:
            children.setdefault(item.parent, []).append(i)

    def support(i: int, home: int) -> float:
        """The share of old `i`'s subrules that went inside new `home` (1 for a rule with
        fewer than FOLLOWED_CHILDREN: its words, not its subrules, paired it)."""
        below = children.get(old[i].key, [])
        if len(below) < FOLLOWED_CHILDREN:
            return 1.0
        keys = [new[pairs[child]].key for child in below if child in pairs]
        where = new[home].key
        return sum(key == where or descends(key, where) for key in keys) / len(below)

    if len(pairs) + len(split) < len(new):  # (a new rule left over)
        _headings_left_behind(old, new, pairs, split, children, support, texts, titles)
    if len(pairs) + len(merged) == len(old):  # (no old rule left over)
        return
    old_of = {j: i for i, j in pairs.items()}

    waiting = [i for i, item in enumerate(old) if item.kind != "glossary"]
    for _ in range(3):  # (an old rule that gave way is looked at again, a few times at most)
        given_way: list[int] = []
        for i in waiting:
            if i in pairs or i in merged:
                continue
            below = children.get(old[i].key, [])
            # Its subrules merged into others count where those that went on are too few.
            home = _followed_home(new, pairs, below, old[i], old_of)
            if home is None and any(child in merged for child in below):
                home = _followed_home(new, {**merged, **pairs}, below, old[i], old_of)
            if home is None:
                continue
            if home in split:
                # A title over rules that all went under one new rule split off another
                # (whose words that rule says) went into it as their heading.
                if old[i].text_id in titles:
                    merged[i] = home
                continue
            holder = old_of.get(home)
            if holder is not None and support(holder, home) >= FOLLOWED_SUPPORT:
                merged[i] = home
                continue
            if holder is not None:
                del pairs[holder]
                given_way.append(holder)
            pairs[i], old_of[home] = home, i
        if not given_way:
            break
        waiting = given_way
    _joined_headings(old, new, pairs, merged, children, old_of)


def _joined_headings(
    old: Sequence[Item],
    new: Sequence[Item],
    pairs: Mapping[int, int],
    merged: dict[int, int],
    children: Mapping[str, list[int]],
    old_of: Mapping[int, int],
) -> None:
    """A section or chapter of one rule, left over, went into the new heading of its kind
    its rule went into, where that heading goes on from another: merged into it
    ("Collector Number" 211 of 2007-09-07, whose 211.1 became 210.1c, into "Information
    Below the Text Box" 210, which goes on from "Legal Text" 210; so did "Illustration
    Credit" 209, whose 209.1 became 210.1a). Looked at once every heading has found its
    place, as the heading it joins may be placed after it."""
    for i, item in enumerate(old):
        if item.kind not in LEVELS[0] or i in pairs or i in merged:
            continue
        below = children.get(item.key, [])
        if len(below) != 1 or below[0] not in pairs:
            continue
        home = _heading_over(new, pairs[below[0]], item.kind)
        if home is not None and home in old_of:
            merged[i] = home


def kept_under_followed_headings(
    old: Sequence[Item],
    new: Sequence[Item],
    pairs: dict[int, int],
    split: Mapping[int, int],
    merged: Mapping[int, int],
    texts: Normalised,
    titles: Container[int],
) -> None:
    """After pass 7: a rule left over on both sides under one number, whose parents were
    paired only by their subrules, is the same rule rewritten where it shares some words
    with its old self, as in pass 5 when the parents were known ("Checklist Cards" 713 of
    2020-08-07 is "Substitute Cards" 713 of 2020-09-25, and its 713.2, on what such a card
    shows, is 713.2 rewritten); unless a better counterpart exists elsewhere: a new rule,
    not one of its own subrules, BETTER_ELSEWHERE more like it (504.3 of 2002-02-20, on
    turning a face-down creature face up, is much more like 408.2h than the new 504.3)."""
    taken = set(pairs.values()) | set(split)
    waiting = {
        new[j].key: j
        for j in range(len(new))
        if j not in taken and new[j].parent is not None and new[j].kind != "glossary"
    }
    if not waiting:
        return
    found = [
        (i, waiting[item.key])
        for i, item in enumerate(old)
        if item.key in waiting and i not in pairs and i not in merged and item.parent is not None
    ]
    if not found:
        return
    index_of = {item.key: i for i, item in enumerate(old) if item.kind != "glossary"}
    new_of = {item.key: j for j, item in enumerate(new) if item.kind != "glossary"}
    loaded = [
        j for j, item in enumerate(new) if item.kind != "glossary" and item.text_id in texts.raw
    ]
    for i, j in found:
        item = old[i]
        parent = index_of.get(item.parent or "")
        if parent is None or pairs.get(parent) != new_of.get(new[j].parent or ""):
            continue
        if item.text_id in titles or new[j].text_id in titles:
            continue
        here = float(likeness([texts[item.text_id]], [texts[new[j].text_id]])[0, 0])
        if here < ACCEPT_KEPT:
            continue
        # unless a better counterpart exists elsewhere than under it (its words went on in
        # another rule, not in a subrule of its own)
        others = [k for k in loaded if k != j and not descends(new[k].key, new[j].key)]
        if others:
            best = likeness([texts[item.text_id]], [texts[new[k].text_id] for k in others]).max()
            if float(best) >= max(ACCEPT_IN_PLACE, here + BETTER_ELSEWHERE):
                continue
        pairs[i] = j


BETTER_ELSEWHERE = 0.2
"""How much more like another new rule an old rule must be for its kept number not to
hold it (`kept_under_followed_headings`)."""


LEFT_BEHIND_CHILDREN = 3
"""How many of a heading's rules must stand under one other new heading for the heading
to follow them there."""
LEFT_BEHIND_SHARE = 2 / 3
"""The share of a heading's rules that went on that must stand under that heading."""


def _headings_left_behind(
    old: Sequence[Item],
    new: Sequence[Item],
    pairs: dict[int, int],
    split: Mapping[int, int],
    children: Mapping[str, list[int]],
    support: Callable[[int, int], float],
    texts: Normalised,
    titles: Container[int],
) -> None:
    """Before pass 7: a section or chapter heading is its title, and a title says little
    ("General" heads every chapter); its rules say where it went. A heading paired with
    a new one that holds fewer than FOLLOWED_SUPPORT of its rules, whose rules stand
    instead under one new heading of its kind left over (at least LEFT_BEHIND_CHILDREN and
    LEFT_BEHIND_SHARE of those that went on), went there: "Copying Spells and
    Abilities" 503 of 2003-03-15 is "Copying Objects" 503, not "Targeted Spells and
    Abilities" 415; "General" 300 of 2009-05-01, over the turn's rules, is "General" 500.
    The heading it leaves is left over. Its rules paired under that heading, on the
    strength of standing under it, follow it to their number under its new home where that
    is left over and as like them ("Teams Variant" 809 of 2010-04-23 is "Alternating Teams
    Variant" 811, not "Team vs. Team Variant" 808, and its 809.2 is 811.2, not 808.3).
    So does a rule that is a title, paired with one of two new headings of one title, to
    the other, of whatever kind, where its rules went: "Removed from the Game" 217.7 of
    2009-05-01 is the zone "Exile" 406 of 2009-07-11, not the keyword action "Exile"
    701.9."""
    taken = set(pairs.values()) | set(split)
    for i, j in list(pairs.items()):
        heading = old[i].kind in LEVELS[0]
        if not heading and (old[i].text_id not in texts.raw or old[i].text_id not in titles):
            continue
        gone = [child for child in children.get(old[i].key, []) if child in pairs]
        if len(gone) < LEFT_BEHIND_CHILDREN:
            continue
        ((parent, count),) = Counter(new[pairs[child]].parent for child in gone).most_common(1)
        if count < LEFT_BEHIND_CHILDREN or count < LEFT_BEHIND_SHARE * len(gone):
            continue
        first = min(pairs[child] for child in gone if new[pairs[child]].parent == parent)
        home = _nearest_before(new, first, parent)
        if home is None or home == j or home in taken:
            continue
        # A title rule goes to a heading of another kind only where that heading has the
        # title its counterpart has: its rules decide between the two.
        if new[home].kind != old[i].kind and (heading or not _same_title(new, home, j, texts)):
            continue
        if support(i, j) >= FOLLOWED_SUPPORT:
            continue
        pairs[i] = home
        taken.discard(j)
        taken.add(home)
        _rules_follow(old, new, pairs, taken, gone, i, j, home, texts)


def _same_title(new: Sequence[Item], one: int, other: int, texts: Normalised) -> bool:
    """Whether two new records print one title, normalised."""
    ids = (new[one].text_id, new[other].text_id)
    return all(i in texts.raw for i in ids) and texts[ids[0]] == texts[ids[1]]


def _rules_follow(
    old: Sequence[Item],
    new: Sequence[Item],
    pairs: dict[int, int],
    taken: set[int],
    rules: list[int],
    i: int,
    left: int,
    home: int,
    texts: Normalised,
) -> None:
    """Old heading `i`'s `rules` paired under `left`, the heading it left for `home`, go
    to their number under `home` where that is left over and at least as like them."""
    number = {item.key: k for k, item in enumerate(new) if item.kind != "glossary"}
    for child in rules:
        now = pairs[child]
        if new[now].parent != new[left].key:
            continue
        there = number.get(new[home].key + old[child].key[len(old[i].key) :])
        if there is None or there in taken or new[there].text_id not in texts.raw:
            continue
        said = [texts[old[child].text_id]]
        alike = likeness(said, [texts[new[now].text_id], texts[new[there].text_id]])
        if alike[0, 1] >= alike[0, 0]:
            pairs[child] = there
            taken.discard(now)
            taken.add(there)


def _followed_home(
    new: Sequence[Item],
    pairs: Mapping[int, int],
    below: list[int],
    item: Item,
    taken: Container[int],
) -> int | None:
    """The new rule all of old `item`'s subrules that went on went under (the nearest
    before them of that number), if they are at least FOLLOWED_CHILDREN and at least
    FOLLOWED_SUPPORT of them; one is enough for a section or chapter whose number that
    rule keeps, renamed in place ("Type" 205 is "Type Line" 205 of 2003-07-01, its one
    rule 205.1 reworded); else None. A section or chapter's rules need only stand in one
    new heading of its kind, at any depth ("Ending the Turn" 716 of 2019-07-12 is
    "Ending Turns and Phases" 716: its 716.2 and 716.3 became 716.1f and 716.1e), even
    all under one rule of it ("Legal Text" 210 of 2007-09-07 is "Information Below the
    Text Box" 210, its 210.1 now 210.1b). A rule whose subrules went under several rules
    of one new chapter not `taken` (paired already) became that chapter ("Timing of Team
    Turns" 806.7 of 2010-04-23 is "Shared Team Turns Option" 805)."""
    gone = [child for child in below if child in pairs]
    if not gone or len(gone) < FOLLOWED_SUPPORT * len(below):
        return None
    parents = {new[pairs[child]].parent for child in gone}
    home = None
    if len(parents) == 1 and None not in parents:
        (parent,) = parents
        home = _nearest_before(new, min(pairs[child] for child in gone), parent)
    if item.kind in LEVELS[0] and (home is None or new[home].kind not in LEVELS[0]):
        home = _one_heading_over(new, [pairs[child] for child in gone], item.kind)
    elif home is None and len(gone) >= FOLLOWED_CHILDREN:
        home = _one_heading_over(new, [pairs[child] for child in gone], "chapter")
        if home in taken:
            return None
    if home is None:
        return None
    if len(gone) >= FOLLOWED_CHILDREN:
        return home
    in_place = new[home].key == item.key and new[home].kind == item.kind
    return home if in_place and item.kind in LEVELS[0] else None


def _one_heading_over(new: Sequence[Item], indices: list[int], kind: str) -> int | None:
    """The one new heading of `kind` all the records at `indices` stand in; None if they
    stand in several, or in none."""
    homes = {_heading_over(new, index, kind) for index in indices}
    return homes.pop() if len(homes) == 1 else None


def _heading_over(new: Sequence[Item], index: int, kind: str) -> int | None:
    """The new heading of `kind` (section or chapter) the record at `index` stands in:
    the nearest before it; None for a heading of that kind or above, which stands in
    none of its kind."""
    if new[index].kind == kind or new[index].kind == "section":
        return None
    return next((j for j in range(index - 1, -1, -1) if new[j].kind == kind), None)


def _nearest_before(new: Sequence[Item], index: int, key: str | None) -> int | None:
    """The nearest new record before `index` numbered `key`: the rule a run of rules
    starting there stands under."""
    return next((j for j in range(index - 1, -1, -1) if new[j].key == key), None)


HEAD_OPENING = 0.4
HEAD_LEAD = 0.1
"""The share of an old rule's first sentence the new rule over its counterpart must hold,
and by how much more than the counterpart, to be where its line goes on."""


def heads_saying_openings(
    old: Sequence[Item],
    new: Sequence[Item],
    pairs: dict[int, int],
    split: dict[int, int],
    texts: Normalised,
    titles: Container[int],
) -> None:
    """Pass 8, first: an old rule whose counterpart is a subrule of a new rule left over,
    where that rule says more of what the old one said first, goes on in it, and the
    counterpart was split from it (what a rule says first is what it is about): 420.1 of
    2009-05-01, "State-based effects are a special category that apply only to those
    conditions listed below. Abilities that watch for a specified game state are
    triggered abilities ...", is 704.1 of 2009-07-11, "State-based actions are game
    actions that happen automatically whenever certain conditions (listed below) are
    met.", and 704.1a, on the abilities that watch for a game state, was split from it;
    104.1 of 2007-02-01 is 104.1 ("The Magic game uses only integers."), not 104.1a."""
    came_of = {j: i for i, j in pairs.items()} | split
    if len(came_of) == len(new):  # (no new rule left over: most neighbouring editions)
        return
    first_of = _first_of(new)
    for i, k in list(pairs.items()):
        head = first_of.get(new[k].parent or "")
        if head is None or head in came_of or new[head].text_id in titles:
            continue
        if new[head].kind not in LEVELS[1] or old[i].text_id not in texts.raw:
            continue
        first = first_words(old[i], texts)
        if not first:
            continue
        over = share_within(first, set(word_ids(texts[new[head].text_id])))
        under = share_within(first, set(word_ids(texts[new[k].text_id])))
        if over >= HEAD_OPENING and over >= under + HEAD_LEAD:
            pairs[i] = head
            split[k] = i
            came_of[head] = i
            del came_of[k]


def _first_of(items: Sequence[Item]) -> dict[str, int]:
    """The index of the first item printed under each key (a number printed twice, the
    first)."""
    first: dict[str, int] = {}
    for index, item in enumerate(items):
        first.setdefault(item.key, index)
    return first


INTRODUCED_PARTS = 2
"""How many of a new rule's subrules must have come of one old rule (its counterpart or
parts split from it), and none of another, for the new rule to introduce that rule."""
INTRODUCES = 0.25
"""The share of such a new rule's words that the old rule must hold: its subrules are
the evidence, and an introduction is written anew ("Which player has priority is
determined by the following rules:" has 4 of its 10 words in 408.1c), but one that says
nothing the old rule said was only put there."""


def introductions(
    old: Sequence[Item],
    new: Sequence[Item],
    pairs: Mapping[int, int],
    split: dict[int, int],
    texts: Normalised,
    titles: Container[int],
) -> None:
    """Pass 8: a new rule left over, not a title, whose subrules that came of an old rule
    (at least INTRODUCED_PARTS) all came of one, and INTRODUCES of whose words that rule
    holds, was split from it: it says first what the old rule went on to say in its
    subrules. 605.1 of 2009-07-11 ("Some activated abilities and some triggered abilities
    are mana abilities...") was split from 406.1, which went on as 605.1a and 605.1b; 115.3
    ("Which player has priority is determined by the following rules:") from 408.1c, now
    115.3a to 115.3d. The old rule's line stays where it went. Added to `split`."""
    came_of = {j: i for i, j in pairs.items()} | split
    if len(came_of) == len(new):  # (no new rule left over: most neighbouring editions)
        return
    first_of = _first_of(new)
    origins: dict[int, list[int]] = {}
    for j, item in enumerate(new):
        if j in came_of and item.parent is not None and item.parent in first_of:
            origins.setdefault(first_of[item.parent], []).append(came_of[j])
    for j, sources in origins.items():
        item = new[j]
        if j in came_of or item.kind not in LEVELS[1] or item.text_id in titles:
            continue
        if len(sources) < INTRODUCED_PARTS or len(set(sources)) != 1:
            continue
        i = sources[0]
        # (an old rule printed again as it was, its text not read, lost nothing to it)
        if old[i].kind not in LEVELS[1] or old[i].text_id not in texts.raw:
            continue
        held = set(word_ids(texts[old[i].text_id]))
        if share_within(word_ids(texts[item.text_id]), held) >= INTRODUCES:
            split[j] = i


#: Characters an example needs (rule numbers masked) to say which rule it belongs to.
EXAMPLE_CHARACTERS = 60
#: Likeness (0-100) of two examples, typography folded and numbers masked, to be one.
EXAMPLE_RATIO = 90.0

Examples = Mapping[int, Sequence[int]]
"""The text ids of the examples of each rule that has some, by the rule's index."""


def carried_examples(
    old: Sequence[Item],
    new: Sequence[Item],
    pairs: dict[int, int],
    split: Mapping[int, int],
    merged: dict[int, int],
    examples: tuple[Examples, Examples],
    load_texts: LoadTexts,
) -> None:
    """Pass 9: an old rule left over whose example one new rule prints (almost word for
    word) went on there, however its own text was rewritten: in that rule, if it is left
    over too (419.8b of 2001-07-23, rewritten around the same example), else merged into
    it (502.9e of 2009-05-01, whose example 702.17b prints)."""
    from rapidfuzz import fuzz, process

    old_examples, new_examples = examples
    used = set(pairs.values())
    lone = [i for i in old_examples if i < len(old) and i not in pairs and i not in merged]
    if not lone or not new_examples:
        return
    every = [(i, text_id) for i, ids in old_examples.items() for text_id in ids]
    theirs = [(j, text_id) for j, ids in new_examples.items() if j < len(new) for text_id in ids]
    raw = load_texts([text_id for _, text_id in every] + [text_id for _, text_id in theirs])
    # As compared: typography folded, rule numbers masked, case folded.
    keyed = {text_id: numbers_masked(text).lower() for text_id, text in raw.items()}
    # An example another old rule prints too says nothing of where this one went.
    printed = Counter(keyed[t] for _, t in every)
    mine = [
        (i, t)
        for i in lone
        for t in old_examples[i]
        if len(keyed[t]) >= EXAMPLE_CHARACTERS and printed[keyed[t]] == 1
    ]
    if not mine:
        return
    ratios = process.cdist(
        [keyed[t] for _, t in mine],
        [keyed[t] for _, t in theirs],
        scorer=fuzz.ratio,
        score_cutoff=EXAMPLE_RATIO,
    )
    homes: dict[int, set[int]] = {}
    for row, col in zip(*ratios.nonzero(), strict=True):
        homes.setdefault(mine[row][0], set()).add(theirs[col][0])
    # A new rule that is the one home of two old rules' examples continues neither.
    claimed = Counter(next(iter(found)) for found in homes.values() if len(found) == 1)
    for i, found in homes.items():
        if len(found) != 1:
            continue
        (j,) = found
        if j not in used and j not in split and claimed[j] == 1:
            pairs[i] = j
            used.add(j)
        elif j in used or j in split:
            merged[i] = j


MUTUAL_LIKENESS = 0.4
"""How like each other a rule left over on each side must be, at least, to be paired for
being each other's most like rule (`mutual_leftovers`); the fuzzy pass asks 0.62."""
MUTUAL_MARGIN = 0.1
"""How much less like either of them every other rule read must be."""


def mutual_leftovers(
    old: Sequence[Item],
    new: Sequence[Item],
    pairs: dict[int, int],
    split: Mapping[int, int],
    merged: Mapping[int, int],
    texts: Normalised,
    titles: Container[int],
    load_texts: LoadTexts,
) -> None:
    """Pass 10: a rule left over on both sides went on in the other where each is the
    other's most like rule of all the rules of both editions, by MUTUAL_MARGIN, and they
    are at least MUTUAL_LIKENESS alike: the local-enchantment rule 214.8h of 2003-03-15
    ("Only the enchantment spell targets the permanent it will enchant ...") is 415.3 of
    2003-07-01 ("Local-enchantment spells are always targeted ..."), rewritten as it
    moved among the targeting rules. A removal beside an unrelated addition is further
    apart than that, or nearer to another rule, paired or printed again as it was.
    Candidates are found among the rules left over alone; the few found are held
    against every rule of both editions."""

    def readable(item: Item, text: str) -> bool:
        return item.kind in LEVELS[1] and len(word_ids(text)) >= SPLIT_WORDS

    def read(item: Item) -> bool:
        return (
            item.kind in LEVELS[1]
            and item.text_id in texts.raw
            and item.text_id not in titles
            and readable(item, texts[item.text_id])
        )

    # (set differences: most editions leave few rules alone, and this runs for each)
    alone_old = set(range(len(old))).difference(pairs, merged)
    alone_new = set(range(len(new))).difference(pairs.values(), split)
    lone_old = sorted(i for i in alone_old if read(old[i]))
    lone_new = sorted(j for j in alone_new if read(new[j]))
    if not lone_old or not lone_new:
        return
    older = [texts[old[i].text_id] for i in lone_old]
    newer = [texts[new[j].text_id] for j in lone_new]
    alike = likeness(older, newer)
    found = _mutual(lone_old, lone_new, alike, alike)
    if not found:
        return
    # Held against every rule of both editions, paired or printed again as they were.
    every = load_texts([item.text_id for item in (*old, *new) if item.kind in LEVELS[1]])
    whole = {text_id: normalise(text) for text_id, text in every.items()}
    all_old = [i for i, item in enumerate(old) if readable(item, whole.get(item.text_id, ""))]
    all_new = [j for j, item in enumerate(new) if readable(item, whole.get(item.text_id, ""))]
    lone_old, lone_new = list(found), list(found.values())
    forward = likeness(
        [whole[old[i].text_id] for i in lone_old], [whole[new[j].text_id] for j in all_new]
    )
    backward = likeness(
        [whole[old[i].text_id] for i in all_old], [whole[new[j].text_id] for j in lone_new]
    )
    kept = _mutual(lone_old, lone_new, forward, backward, all_old, all_new)
    pairs.update((i, j) for i, j in kept.items() if found.get(i) == j)


def _mutual(
    lone_old: list[int],
    lone_new: list[int],
    forward: NDArray[np.float32],
    backward: NDArray[np.float32],
    read_old: list[int] | None = None,
    read_new: list[int] | None = None,
) -> dict[int, int]:
    """Lone old rule -> lone new rule, where each is the other's most like rule, by
    MUTUAL_MARGIN, and they are at least MUTUAL_LIKENESS alike. `forward`: the likeness
    of each lone old rule to each of `read_new`; `backward`: of each of `read_old` to
    each lone new rule (the lone rules themselves where these are None)."""
    import numpy as np

    read_old = lone_old if read_old is None else read_old
    read_new = lone_new if read_new is None else read_new
    column_of = {j: column for column, j in enumerate(lone_new)}
    row_of = {i: row for row, i in enumerate(read_old)}
    found: dict[int, int] = {}
    for row, i in enumerate(lone_old):
        best = int(forward[row].argmax())
        j, here = read_new[best], float(forward[row, best])
        if j not in column_of or here < MUTUAL_LIKENESS:
            continue
        others = np.delete(forward[row], best)
        theirs = np.delete(backward[:, column_of[j]], row_of[i])
        nearest = max(float(others.max(initial=0.0)), float(theirs.max(initial=0.0)))
        if here - nearest >= MUTUAL_MARGIN:
            found[i] = j
            del column_of[j]
    return found
