"""Passes 1-5: records paired one to one, cheapest first (identical, typography, moved,
renamed, fuzzy), and the rules still left over after splits and merges paired by a
sentence one carries of the other; see `rules_kb.ingest.align`."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Container, Mapping, Sequence
from typing import TYPE_CHECKING

from rules_kb.ingest.align.model import GLOSSARY, LEVELS, Item, Left, went_to
from rules_kb.ingest.align.words import (
    CARRIED_RATIO,
    KEY,
    KEY_TEXT,
    SHORT,
    Normalised,
    cited_numbers,
    defined_as,
    first_words,
    heading_names,
    is_stub,
    likeness,
    name_similarity,
    share_within,
    singular,
    word_ids,
)
from rules_kb.ingest.models import descends

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray


NAME_WEIGHT = 0.9
"""How much a heading's likeness counts against a definition's (names are short)."""
NAME_TIE = 0.05
"""How much a definition's likeness adds to a glossary pair's, so that headings alike
("Source" is a word of "Source of an Ability" and of "Source of Damage") are told apart
by what the entries say."""

ACCEPT = 0.62
"""Similarity (0..1) at which two texts are the same rule wherever they stand."""
ACCEPT_IN_PLACE = 0.35
"""Lower similarity accepted when the number is kept or the parent corresponds: a rule
that gained a long paragraph (205.4b is 204.4c of 2009-07-11) or was rewritten in place
(513.2 is 513.1 of 2016-09-30). At 0.30 unrelated neighbours pair (502.15e of 2009-05-01
with 702.23c)."""
ACCEPT_SHORT = 0.75
"""Similarity at which two headings or names are the same (unless the number is kept)."""
BASELINE = 0.3
"""Subtracted from the score of every acceptable pair before the assignment."""
MINIMUM_GAIN = 0.001
"""What a pair accepted below the baseline (a rule rewritten in place) still scores."""
ACCEPT_FOLLOW = 0.3
"""Similarity at which a subrule that keeps its letters under its parent's counterpart
follows it (a keyword's definition rewritten)."""
ACCEPT_KEPT = 0.15
"""Similarity below which a kept number and parent do not make two rules the same."""
KEPT_SHORT_WORDS = 8
"""Distinct words under which a rule at a kept number and parent shares enough with its
rewrite when `KEPT_SHARE` of them (plurals folded) stand in it."""
KEPT_SHARE = 0.6
SAME_NUMBER_BONUS = 0.12
SAME_PARENT_BONUS = 0.08
SAME_LETTERS_BONUS = 0.03


def identical(old: Sequence[Item], new: Sequence[Item]) -> dict[int, int]:
    """Same key, same text: unchanged (the first occurrence wins for repeated keys)."""
    # Built from the end, so that the first occurrence of a (key, text) is the one kept.
    where = dict(zip(map(KEY_TEXT, reversed(new)), range(len(new) - 1, -1, -1), strict=True))
    found = map(where.get, map(KEY_TEXT, old))
    pairs = {i: j for i, j in enumerate(found) if j is not None}
    if len(set(pairs.values())) < len(pairs):  # a repeated (key, text): one to one still
        taken: set[int] = set()
        for i, j in list(pairs.items()):
            if j in taken:
                del pairs[i]
            taken.add(j)
    return pairs


def same_key(
    old: Sequence[Item],
    new: Sequence[Item],
    pairs: dict[int, int],
    left: Left,
    wording: Mapping[int, str],
) -> None:
    """Same key, same wording once typography is folded (first occurrence first)."""
    where: dict[tuple[str, str], list[int]] = {}
    for j in left.new:
        where.setdefault((new[j].key, wording[new[j].text_id]), []).append(j)
    for i in left.old:
        found = where.get((old[i].key, wording[old[i].text_id]))
        if found:
            pairs[i] = found.pop(0)


def unique_wording(
    old: Sequence[Item],
    new: Sequence[Item],
    pairs: dict[int, int],
    left: Left,
    wording: Mapping[int, str],
    *,
    shortest: int = 0,
) -> None:
    """A wording found once among the leftovers on each side: the same rule, moved.
    Wordings shorter than `shortest` are left to the later passes."""
    old_counts = Counter(wording[old[i].text_id] for i in left.old)
    new_counts = Counter(wording[new[j].text_id] for j in left.new)
    new_of = {wording[new[j].text_id]: j for j in left.new}
    for i in left.old:
        text = wording[old[i].text_id]
        if old_counts[text] == 1 and new_counts[text] == 1 and len(text) >= shortest:
            pairs[i] = new_of[text]


def renamed_headings(
    old: Sequence[Item], new: Sequence[Item], pairs: dict[int, int], left: Left
) -> None:
    """A section or chapter renamed is the heading its records now stand under: when most
    of an old heading's paired records (at least two) stand under one new heading of its
    kind that is left over, the two are one heading renamed ("The Game" -> "Game
    Concepts", section 1 of 2009-10-01)."""
    group = left.of(old, new, LEVELS[0])
    if not group.old or not group.new:
        return
    free = {new[j].key: j for j in group.new}
    wanted = {old[i].key: i for i in group.old}
    votes: dict[str, Counter[str]] = {}
    for i, j in pairs.items():
        parent = old[i].parent
        if parent in wanted and new[j].parent in free:
            votes.setdefault(parent, Counter())[new[j].parent] += 1  # type: ignore[index]
    children = Counter(item.parent for item in old if item.parent in wanted)
    taken = set(pairs.values())
    for key_, counter in votes.items():
        ((target, count),) = counter.most_common(1)
        i, j = wanted[key_], free[target]
        majority = count >= 2 and count > children[key_] / 2
        if majority and old[i].kind == new[j].kind and j not in taken:
            pairs[i] = j
            taken.add(j)


def renamed_entries(
    old: Sequence[Item], new: Sequence[Item], pairs: dict[int, int], left: Left
) -> None:
    """Glossary entries sharing a name with exactly one leftover on the other side
    ("Kicker" -> "Kicker, Kicked", "Mana Burn" -> "Mana Burn (Obsolete)", "Comes into
    Play" -> "Enters the Battlefield"; a term kept but redefined shares its own name)."""
    group = left.of(old, new, frozenset({"glossary"}))
    if not group.old or not group.new:
        return
    old_names = {i: heading_names(old[i].key) for i in group.old}
    new_names = {j: heading_names(new[j].key) for j in group.new}
    # A heading kept whole, though another shares a name with it ("Play" and "Play/Draw"
    # of 2003-07-01), when no other entry on either side has that heading.
    same: dict[frozenset[str], tuple[list[int], list[int]]] = {}
    for i, names in old_names.items():
        same.setdefault(names, ([], []))[0].append(i)
    for j, names in new_names.items():
        if names in same:
            same[names][1].append(j)
    for olds, news in same.values():
        if len(olds) == 1 and len(news) == 1:
            pairs[olds[0]] = news[0]
            del old_names[olds[0]], new_names[news[0]]
    for i, names in old_names.items():
        found = [j for j, others in new_names.items() if names & others]
        if len(found) == 1:
            mine = [k for k, others in old_names.items() if new_names[found[0]] & others]
            if mine == [i]:
                pairs[i] = found[0]
                del new_names[found[0]]


def fuzzy(
    old: Sequence[Item],
    new: Sequence[Item],
    pairs: dict[int, int],
    left: Left,
    texts: Normalised,
    titles: Container[int],
    went: Mapping[str, frozenset[str]] | None = None,
) -> None:
    """Assign the leftovers level by level. A level is assigned twice: the first round's
    pairs tell the second which parents correspond (a subrule's rule is in its level).
    `went`: where each rule of the old edition went in the new (for the glossary: see
    `_cited_elsewhere`)."""
    import numpy as np

    for level in LEVELS:
        group = left.update(pairs).of(old, new, level)
        if not group.old or not group.new:
            continue
        similarity = likeness(
            [texts[old[i].text_id] for i in group.old], [texts[new[j].text_id] for j in group.new]
        )
        if level == GLOSSARY:
            # A glossary entry is its heading as much as its definition.
            names = name_similarity(
                [old[i].key for i in group.old], [new[j].key for j in group.new]
            )
            # A term renamed whose new entry is defined as what the old name said
            # ("Game Action" -> "Turn-Based Action: Game actions that happen ...").
            names = np.maximum(
                names,
                defined_as(
                    [old[i].key for i in group.old], [texts[new[j].text_id] for j in group.new]
                ),
            )
            # A name held whole in another ("Order", "Damage Assignment Order") says nothing
            # where the definitions are unalike and send the reader to unrelated rules.
            apart = _cited_elsewhere(old, new, group, texts, went or {})
            names[apart & (similarity < CITED_APART)] = 0.0
            # Names alike ("Source" is a word of two new headings) are told apart by content.
            similarity = np.maximum(similarity, NAME_WEIGHT * names) + NAME_TIE * similarity
            # An "(Obsolete)" stub names a term the rules no longer use: it goes on under
            # its own name (the note dropped, "(Informal)", a hyphen) or as another stub
            # ("Landhome" -> "Islandhome (Obsolete)"), never as a term in use under another
            # name ("Phase Ability (Obsolete)" is not "Characteristic-Setting Ability").
            for row, i in enumerate(group.old):
                if is_stub(old[i].key):
                    own = heading_names(old[i].key)
                    for col, j in enumerate(group.new):
                        if not is_stub(new[j].key) and not own & heading_names(new[j].key):
                            similarity[row, col] = 0.0
        if level == LEVELS[1]:
            similarity[_other_subjects(old, new, group, pairs, texts, titles, similarity)] = 0.0
        kept = ~np.array([old[i].text_id in titles for i in group.old])[:, None]
        if level != GLOSSARY:
            similarity = np.maximum(similarity, _carried(old, new, group, similarity, texts))
        draft = dict(pairs)
        _assign(old, new, group, similarity, kept, draft, texts)
        _assign(old, new, group, similarity, kept, pairs, texts, parents=draft)
        if level != GLOSSARY:
            _openings_decide_ties(old, new, group, similarity, pairs, texts)


NEAR_TIE = 0.1
"""How much less like an old rule a new rule left over may be than its counterpart, for
what each says of its opening to decide between them."""
OPENING_HELD = 0.5
OPENING_LEAD = 0.1
"""The share of an old rule's first sentence a rule nearly as like it must hold, and by
how much more than its counterpart, to be where it went."""


def _openings_decide_ties(
    old: Sequence[Item],
    new: Sequence[Item],
    group: Left,
    similarity: NDArray[np.float32],
    pairs: dict[int, int],
    texts: Normalised,
) -> None:
    """A rule paired under another number, where a rule left over is nearly as like it
    (and like no other old rule more), goes on in the one that says what it said first,
    and no less of the rest (what a rule says first is what it is about): 200.7a of
    2009-05-01, on the controllers of activated, triggered and delayed triggered
    abilities, is 112.7 of 2009-07-11, which says all three, not 603.3a (a little more
    like it by its words), which says the last two. A kept number stands; where the
    counterpart holds more of the rest, the parts decide (410.2 of 2009-05-01 goes on in
    603.2, saying its opening, and 603.3, saying more of it, was split from it)."""
    column = {j: col for col, j in enumerate(group.new)}
    used = set(pairs.values())
    free = [col for col, j in enumerate(group.new) if j not in used]
    if not free:
        return
    most = similarity.max(axis=0)  # each new rule's likeness to its nearest old rule
    for row, i in enumerate(group.old):
        j = pairs.get(i)
        if j is None or j not in column or new[j].key == old[i].key:
            continue
        bar = similarity[row, column[j]] - NEAR_TIE
        near = [col for col in free if similarity[row, col] >= max(bar, most[col])]
        first = first_words(old[i], texts)
        if not near or not first:
            continue
        mine = word_ids(texts[old[i].text_id])

        def holds(part: set[int] | tuple[int, ...], k: int) -> float:
            return share_within(part, set(word_ids(texts[new[k].text_id])))

        best = max(near, key=lambda col: holds(first, group.new[col]))
        k = group.new[best]
        if (
            holds(first, k) >= OPENING_HELD
            and holds(first, k) > holds(first, j) + OPENING_LEAD
            and holds(mine, k) >= holds(mine, j)
        ):
            free.remove(best)
            free.append(column[j])
            pairs[i] = k


class Subjects:
    """The keyword each rule of one edition speaks of, as far as its texts were read: the
    name of the heading rule it stands under ("Banding"), where its own text says it."""

    def __init__(self, items: Sequence[Item], texts: Normalised, titles: Container[int]):
        self.items, self.texts, self.titles = items, texts, titles
        self.parents: dict[str, int | None] = {}

    def parent(self, index: int) -> int | None:
        """The index of an item's parent, which stands before it in document order (read
        back from it: few items are asked about, and their parents are near)."""
        key = self.items[index].parent
        if key is None:
            return None
        if key not in self.parents:
            self.parents[key] = next(
                (k for k in range(index - 1, -1, -1) if self.items[k].key == key), None
            )
        return self.parents[key]

    def __call__(self, index: int) -> tuple[int, str] | None:
        """(heading index, normalised name), or None."""
        parent = self.parent(index)
        if parent is None or self.items[parent].kind != "rule":
            return None
        heading = self.items[parent].text_id
        if heading not in self.texts.raw or heading not in self.titles:  # printed as it was
            return None
        name = self.texts[heading]
        return (
            (parent, name) if f" {name} " in f" {self.texts[self.items[index].text_id]} " else None
        )


def other_subject(
    mine: tuple[int, str],
    theirs: tuple[int, str],
    said: str,
    pairs: Mapping[int, int],
    old_of: Mapping[int, int],
) -> bool | None:
    """Whether an old rule speaking of `mine` and a new one speaking of `theirs` (heading
    index, name), whose text is `said`, say the same of two keywords: True where either
    heading's line is known and goes elsewhere, None where neither is known yet (a
    keyword renamed, maybe), False where they are one keyword."""
    (heading, name), (other, other_name) = mine, theirs
    if name == other_name or f" {name} " in f" {said} ":
        return False
    if pairs.get(heading) == other or old_of.get(other) == heading:
        return False
    return True if heading in pairs or other in old_of else None


def _other_subjects(
    old: Sequence[Item],
    new: Sequence[Item],
    group: Left,
    pairs: Mapping[int, int],
    texts: Normalised,
    titles: Container[int],
    similarity: NDArray[np.float32],
) -> NDArray[np.bool_]:
    """For each pair of rules of a group, whether they say the same of two subjects: each
    stands under a heading rule (a keyword) whose name it says, the new one not the old
    one's, and the two headings are not each other's counterparts ("Multiple instances of
    banding on the same creature are redundant." 502.10i of 2009-05-01, under banding,
    which went on as 702.19, is not "Multiple instances of intimidate ..." 702.11c, under
    a keyword new in 2009-07-11). Where neither heading's line is known yet, two rules or
    more of one alike rules of the other, each with its own keyword, are one keyword
    renamed ("Tribal" 308 is "Kindred" 308 of 2024-06-07): those pairs stand."""
    import numpy as np

    found = np.zeros((len(group.old), len(group.new)), dtype=bool)
    old_subject, new_subject = Subjects(old, texts, titles), Subjects(new, texts, titles)
    rows = [(row, found_) for row, i in enumerate(group.old) if (found_ := old_subject(i))]
    if not rows:
        return found
    columns = [(col, found_) for col, j in enumerate(group.new) if (found_ := new_subject(j))]
    old_of = {j: i for i, j in pairs.items()}
    unknown: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for row, mine in rows:
        for col, theirs in columns:
            said = texts[new[group.new[col]].text_id]
            other = other_subject(mine, theirs, said, pairs, old_of)
            if other:
                found[row, col] = True
            elif other is None:
                unknown.setdefault((mine[0], theirs[0]), []).append((row, col))
    for cells in unknown.values():
        alike = {row for row, col in cells if similarity[row, col] >= ACCEPT}
        if len(alike) < RENAMED_ALIKE:
            for row, col in cells:
                found[row, col] = True
    return found


RENAMED_ALIKE = 2
"""Rules of one keyword heading alike rules of another, each naming its own keyword, for
the two to be one keyword renamed where neither's line is known."""
CITED_APART = 0.25
"""Likeness of two definitions under which their headings' likeness counts for nothing
when the entries cite only unrelated rules (`_cited_elsewhere`)."""


def _cited_elsewhere(
    old: Sequence[Item],
    new: Sequence[Item],
    group: Left,
    texts: Normalised,
    went: Mapping[str, frozenset[str]],
) -> NDArray[np.bool_]:
    """For each pair of glossary entries of a group under different names, whether both
    cite rules and none the old one cites (where `went` says it went: its counterpart, its
    parts, what it merged into; else under its own number) is, holds or falls under one
    the new one cites: "Order" of 2009-05-01 (see 217.1b, the order of cards in a zone)
    is not "Damage Assignment Order" (see 509.2 and 509.3), though its name is a word of
    that one; "Teams" (601, 602, 604, 609) is "Teams Variant" (809, where 609 went)."""
    import numpy as np

    found = np.zeros((len(group.old), len(group.new)), dtype=bool)
    theirs = [cited_numbers(texts.raw[new[j].text_id]) for j in group.new]
    names = [heading_names(new[j].key) for j in group.new]
    for row, i in enumerate(group.old):
        mine = went_to(cited_numbers(texts.raw[old[i].text_id]), went)
        if not mine:
            continue
        own = heading_names(old[i].key)
        for col, other in enumerate(theirs):
            if other and names[col] != own:
                found[row, col] = not any(
                    a == b or descends(a, b) or descends(b, a) for a in mine for b in other
                )
    return found


def _carried(
    old: Sequence[Item],
    new: Sequence[Item],
    group: Left,
    similarity: NDArray[np.float32],
    texts: Normalised,
) -> NDArray[np.float32]:
    """For each plausible pair of a group, the share of the old text's words that stand in
    sentences the new text carries almost word for word: a rule whose sentences went on
    under another number, with a sentence added, is that rule (201.3a of 2017-01-20 is
    201.3b of 2017-04-28, whose number a new rule took), which likeness of the whole texts
    and the kept number outweighed. Read only for old records whose number the new edition
    still prints (elsewhere nothing outweighs likeness), and pairs already near the bar."""
    import numpy as np
    from rapidfuzz import fuzz

    found = np.zeros_like(similarity)
    numbers = {item.key for item in new}
    # No kept number to outweigh: likeness decides, as elsewhere.
    plausible = similarity >= ACCEPT_FOLLOW
    plausible[[old[i].key not in numbers for i in group.old]] = False

    for row, col in np.argwhere(plausible).tolist():
        mine = texts.sentences(old[group.old[row]].text_id)
        if not mine:
            continue
        theirs = texts.sentences(new[group.new[col]].text_id)
        words = sum(len(sentence.split()) for sentence in mine)
        kept = sum(
            len(sentence.split())
            for sentence in mine
            if any(fuzz.ratio(sentence, other) >= CARRIED_RATIO for other in theirs)
        )
        found[row, col] = kept / words
    return found


#: Words a sentence needs for the new rule carrying it to be where its old rule went,
#: when nothing else pairs them ("This action doesn't use the stack." says too little).
CARRIED_ALONE_WORDS = 8


def carried_sentences(
    old: Sequence[Item],
    new: Sequence[Item],
    pairs: dict[int, int],
    left: Left,
    texts: Normalised,
    titles: Container[int],
    split: Container[int],
    merged: Container[int],
) -> None:
    """Rules left over on both sides after splits and merges (new records `split` off
    others and old ones `merged` into others are not): where an old rule has a sentence
    (CARRIED_ALONE_WORDS words at least) that one new rule carries almost word for word
    (CARRIED_RATIO), and that new rule carries a sentence of no other old rule, the old
    rule went on in it, rewritten around that sentence though the whole texts are too
    unlike to pair (310.2c of 2009-05-01 is 510.1c, "If no creatures are currently
    blocking it..."; 405.1 is 604.1, "A static ability does something all the time"),
    unless the sentence is said of another keyword (`other_subject`)."""
    import numpy as np
    from rapidfuzz import fuzz, process

    group = left.update(pairs).of(old, new, LEVELS[1])
    group = Left(
        [i for i in group.old if i not in merged], [j for j in group.new if j not in split]
    )
    if not group.old or not group.new:
        return

    def long(items: Sequence[Item], indices: list[int]) -> tuple[list[str], list[int]]:
        found: list[str] = []
        owners: list[int] = []
        for index in indices:
            for sentence in texts.sentences(items[index].text_id):
                if len(sentence.split()) >= CARRIED_ALONE_WORDS:
                    found.append(sentence)
                    owners.append(index)
        return found, owners

    mine, old_owners = long(old, group.old)
    theirs, new_owners = long(new, group.new)
    if not mine or not theirs:
        return
    ratios = process.cdist(mine, theirs, scorer=fuzz.ratio, score_cutoff=CARRIED_RATIO)
    found: dict[int, set[int]] = {}
    for row, col in np.argwhere(ratios >= CARRIED_RATIO).tolist():
        found.setdefault(old_owners[row], set()).add(new_owners[col])
    claimed = Counter(j for carriers in found.values() for j in carriers)
    old_subject, new_subject = Subjects(old, texts, titles), Subjects(new, texts, titles)
    old_of = {j: i for i, j in pairs.items()}
    for i, carriers in found.items():
        (j, *others) = carriers
        if others or claimed[j] != 1:
            continue
        spoken, spoken_of = old_subject(i), new_subject(j)
        said = texts[new[j].text_id]
        if spoken and spoken_of and other_subject(spoken, spoken_of, said, pairs, old_of):
            continue
        pairs[i] = j


def _assign(
    old: Sequence[Item],
    new: Sequence[Item],
    group: Left,
    similarity: NDArray[np.float32],
    sentences: NDArray[np.bool_],
    pairs: dict[int, int],
    texts: Mapping[int, str],
    *,
    parents: Mapping[int, int] | None = None,
) -> None:
    """Hungarian assignment of one group of leftovers; pairs below the bar stay apart.
    `sentences` (a column) marks old items that are not titles; `parents` (default:
    `pairs`) says which old and new parents correspond."""
    import numpy as np

    from rules_kb.ingest.assignment import linear_sum_assignment

    same_number, same_parent, same_letters = _context(
        old, new, group.old, group.new, pairs if parents is None else parents
    )
    short = np.array([len(texts[old[i].text_id]) < SHORT for i in group.old])[:, None]
    acceptable = np.where(
        short,
        (similarity >= ACCEPT_SHORT) | ((similarity >= ACCEPT) & same_number),
        (similarity >= ACCEPT)
        | ((similarity >= ACCEPT_IN_PLACE) & (same_number | same_parent))
        | ((similarity >= ACCEPT_FOLLOW) & same_parent & same_letters),
    )
    # A rule that keeps its number and its parent is the same rule though rewritten, as
    # long as it shares some words with its old self: a kept number alone is not enough
    # (214.4 of 2003-07-01 says something else than 214.4 said); titles never are (a
    # keyword replaced by another at its number keeps nothing).
    kept = same_number & same_parent & sentences
    acceptable |= kept & (similarity >= ACCEPT_KEPT)
    # A short rule is judged by its characters, alike nothing long: it shares enough when
    # most of its words stand in the rewrite ("Instants have no subtypes." 212.5c of
    # 2004-06-01 is 212.5c, "Instant subtypes are always single words ...").
    for row, col in np.argwhere(kept & ~acceptable).tolist():
        mine = set(singular(texts[old[group.old[row]].text_id].split()))
        if len(mine) < KEPT_SHORT_WORDS:
            theirs = set(singular(texts[new[group.new[col]].text_id].split()))
            acceptable[row, col] = len(mine & theirs) >= KEPT_SHARE * len(mine)
    score = (
        similarity
        + SAME_NUMBER_BONUS * same_number
        + SAME_PARENT_BONUS * same_parent
        + SAME_LETTERS_BONUS * same_letters
    )
    # Only what an accepted pair scores above the baseline counts: one good pair must beat
    # two weak ones, which a plain total would not ("unless a better counterpart exists").
    score = np.where(acceptable, np.maximum(score - BASELINE, MINIMUM_GAIN), 0.0)
    rows, cols = linear_sum_assignment()(score, maximize=True)
    for row, col in zip(rows.tolist(), cols.tolist(), strict=True):
        if acceptable[row, col]:
            pairs[group.old[row]] = group.new[col]


_LETTERS = re.compile(r"[a-z]+$")


def _context(
    old: Sequence[Item],
    new: Sequence[Item],
    left_old: list[int],
    left_new: list[int],
    pairs: Mapping[int, int],
) -> tuple[NDArray[np.bool_], NDArray[np.bool_], NDArray[np.bool_]]:
    """Boolean matrices: same number; parent maps to parent; same subrule letters."""
    import numpy as np

    parent_map = dict(
        zip(
            map(KEY, map(old.__getitem__, pairs.keys())),
            map(KEY, map(new.__getitem__, pairs.values())),
            strict=True,
        )
    )
    codes: dict[str | None, int] = {None: -1}

    def code(value: str | None) -> int:
        return codes.setdefault(value, len(codes))

    def letters(key: str) -> str | None:
        match = _LETTERS.search(key)
        return match.group(0) if match else None

    old_number = np.array([code(old[i].key) for i in left_old])
    new_number = np.array([code(new[j].key) for j in left_new])

    # Sections (no parent) stand in corresponding places; glossary entries have no place.
    def mapped(item: Item) -> int:
        if item.kind == "glossary":
            return code("\0glossary")
        return code(None if item.parent is None else parent_map.get(item.parent, "\0none"))

    mapped_parent = np.array([mapped(old[i]) for i in left_old])
    new_parent = np.array([code(new[j].parent) for j in left_new])
    old_letters = np.array([code(letters(old[i].key)) for i in left_old])
    new_letters = np.array([code(letters(new[j].key)) for j in left_new])
    same_number = old_number[:, None] == new_number[None, :]
    same_parent = mapped_parent[:, None] == new_parent[None, :]
    same_letters = (old_letters[:, None] == new_letters[None, :]) & (old_letters[:, None] >= 0)
    return same_number, same_parent, same_letters
