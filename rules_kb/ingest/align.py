"""Align two editions: pair each rule (or glossary entry) of the old with its counterpart.

Passes, cheapest first; each works on what the previous ones left:

1. identical: same number (or term) and the same stored text (texts are deduplicated,
   so equal text ids mean equal texts) - this settles almost every rule of two
   consecutive editions;
2. typography: same number (or term) and the same wording once typography is folded
   (`rules_kb.typography.key`): curly quotes, dashes, "_Magic_" and the like are never
   a reason to look further;
3. moved: a wording that occurs once among the leftovers of each side is the same rule
   under another number (trample 702.18 -> 702.19 in July 2013); then the same for the
   normalised wording below (renames applied, rule numbers masked);
4. renamed (glossary): an entry that shares a name with exactly one leftover entry
   ("Kicker" -> "Kicker, Kicked", "Mana Burn" -> "Mana Burn (Obsolete)");
5. fuzzy: the rest, level by level (headings, rules, subrules), by similarity of
   normalised words (rapidfuzz) plus small bonuses for keeping the number or staying
   under the counterpart of the old parent, with a one-to-one assignment that
   maximises the total score (the Hungarian method, scipy's linear_sum_assignment),
   never greedy first matches. A rule (not a heading) that keeps its number and its
   parent is the same rule when it was rewritten but still shares words with its old
   self, unless a better counterpart exists elsewhere: the assignment prefers the better
   total. A subrule whose parent's line is known and that keeps its letters under it
   follows it on less likeness (a keyword's definition rewritten, "triggered" ->
   "static", follows its keyword);
6. splits and merges: a record left new whose words are almost all those of one old
   record was split off it (420.5a of 1999-11-01: the life clause stays 420.5a, the
   draw clause becomes 420.5g); the old record's line continues in the part that keeps
   its number, else its first part. An old record left over whose words are almost all
   in one new record was merged into it. An old record left over with no part yet
   continues in its first part (the layer rule 418.5a of 2009-05-01 became 612.1-612.3).

The normalisation folds typography, masks rule numbers (renumbered references must
not make texts look different) and applies the Magic 2010 renames ("in play" ->
"on the battlefield", "removed from the game" -> "exiled"), for similarity only.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Container, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from operator import itemgetter
from typing import TYPE_CHECKING, NamedTuple

from rules_kb.ingest.models import glossary_names
from rules_kb.records.core import is_title
from rules_kb.typography import fold, key

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

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
SHORT = 30
"""Normalised texts shorter than this are headings or names: judged by edit ratio alone."""
BASELINE = 0.3
"""Subtracted from the score of every acceptable pair before the assignment."""
MINIMUM_GAIN = 0.001
"""What a pair accepted below the baseline (a rule rewritten in place) still scores."""
ACCEPT_FOLLOW = 0.3
"""Similarity at which a subrule that keeps its letters under its parent's counterpart
follows it (a keyword's definition rewritten)."""
ACCEPT_KEPT = 0.15
"""Similarity below which a kept number and parent do not make two rules the same."""
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
LEADING = 0.5
"""The share of a rule's first sentence that a part (or a source) must hold to be the
core, where the line goes on: what a rule says first is what it is about."""
SAME_NUMBER_BONUS = 0.12
SAME_PARENT_BONUS = 0.08
SAME_LETTERS_BONUS = 0.03


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

    def key_map(self, old: Sequence[Item], new: Sequence[Item]) -> dict[str, str]:
        """Old key -> new key for every pair (the number mapping of the alignment)."""
        return {old[i].key: new[j].key for i, j in self.pairs}


# normalisation -------------------------------------------------------------------

RULE_REFERENCE = re.compile(r"\b\d{3}(?:\.\d+[a-z]*)?\b")
# The Magic 2010 renames, longest first; applied to both sides, they are idempotent
# on new text, which no longer has the old phrases.
_RENAMES: tuple[tuple[str, str], ...] = (
    ("comes into play", "enters the battlefield"),
    ("come into play", "enter the battlefield"),
    ("came into play", "entered the battlefield"),
    ("coming into play", "entering the battlefield"),
    ("put into play", "put onto the battlefield"),
    ("puts into play", "puts onto the battlefield"),
    ("into play", "onto the battlefield"),
    ("leaves play", "leaves the battlefield"),
    ("leave play", "leave the battlefield"),
    ("left play", "left the battlefield"),
    ("from play", "from the battlefield"),
    ("in play", "on the battlefield"),
    ("removed from the game", "exiled"),
    ("remove from the game", "exile"),
    ("removes from the game", "exiles"),
    ("end of turn step", "end step"),
    ("end phase", "ending phase"),
    ("play a spell", "cast a spell"),
    ("plays a spell", "casts a spell"),
    ("played a spell", "cast a spell"),
    ("playing a spell", "casting a spell"),
    ("play an ability", "activate an ability"),
    ("played an ability", "activated an ability"),
)
_RENAME_PATTERN = re.compile(r"\b(" + "|".join(re.escape(old) for old, _ in _RENAMES) + r")\b")
_RENAME_TO = dict(_RENAMES)
#: (key, text id) of an Item.
_KEY_TEXT = itemgetter(0, 3)
#: The key of an Item.
_KEY = itemgetter(0)
#: Every phrase renamed contains one of these.
_RENAME_HINTS = ("play", "from the game", "end ")
#: A pointer to another rule, with its title: "(See rule 214, "Permanents.")".
_POINTER = re.compile(
    r"\s*\(?\b[Ss]ee (?:also )?(?:rules?|sections?)\s+\d{1,3}(?:\.\d+[a-z]?)?"
    r"[^.;\"“”()]{0,60}?(?:,?\s*[“\"][^”\"]{1,80}[”\"])?\.?\)?(?=\s|$)"
)
#: A word once punctuation is dropped (rule numbers are masked as "#").
_WORD = re.compile(r"[\w#]+")


@lru_cache(maxsize=65536)
def normalise(text: str) -> str:
    """Text reduced for similarity: lower case, typography folded, rule numbers masked,
    the Magic 2010 renames applied, punctuation dropped, words single-spaced."""
    folded = fold(text).lower()
    folded = RULE_REFERENCE.sub("#", folded)
    if any(hint in folded for hint in _RENAME_HINTS):  # the renames are rare; the test cheap
        folded = _RENAME_PATTERN.sub(lambda match: _RENAME_TO[match.group(1)], folded)
    return " ".join(_WORD.findall(folded))


# the passes ----------------------------------------------------------------------


def align(old: Sequence[Item], new: Sequence[Item], load_texts: LoadTexts) -> Alignment:
    """Pair old items with new ones, one to one. `load_texts` is asked only for the texts
    of the items left after the identical pass."""
    pairs = _identical(old, new)
    used = set(pairs.values())
    left = _Left(
        [i for i in range(len(old)) if i not in pairs],
        [j for j in range(len(new)) if j not in used],
    )
    if not left.old and not left.new:
        return _result(len(old), len(new), pairs)
    raw = load_texts([old[i].text_id for i in left.old] + [new[j].text_id for j in left.new])
    wording = {text_id: key(text) for text_id, text in raw.items()}
    _same_key(old, new, pairs, left.update(pairs), wording)
    # What is not the same text under the same number: where parts can come from.
    reworded = _Left(list(left.update(pairs).old), list(left.new))
    _renamed(old, new, pairs, left.update(pairs))
    _unique_wording(old, new, pairs, left.update(pairs), wording)
    texts = _Normalised(raw)
    titles = _Titles(raw)
    if left.update(pairs).old and left.new:
        _unique_wording(old, new, pairs, left.update(pairs), texts, shortest=SHORT)
        _renamed_headings(old, new, pairs, left.update(pairs))
        _fuzzy(old, new, pairs, left.update(pairs), texts, titles)
    split, merged = _parts(old, new, pairs, left.update(pairs), reworded, texts, titles)
    split.update(_stubs(old, new, pairs, reworded, texts))
    split.update(_named_stubs(old, new, pairs, split, reworded))
    return _result(len(old), len(new), pairs, split, merged)


class _Normalised(dict[int, str]):
    """Normalised texts by id, each normalised when first asked for (most editions leave
    few records to the passes that read them)."""

    def __init__(self, raw: Mapping[int, str]) -> None:
        super().__init__()
        self.raw = raw

    def __missing__(self, text_id: int) -> str:
        self[text_id] = found = normalise(self.raw[text_id])
        return found

    def content(self, text_id: int) -> str:
        """The normalised text without its pointers to other rules ("See rule 503,
        "Copying Objects.""): a part that gained one gained no content."""
        raw = self.raw[text_id]
        if "ee rule" not in raw and "ee section" not in raw:
            return self[text_id]
        return normalise(_POINTER.sub("", raw))


class _Titles:
    """Whether a text (by id) is a title, decided when first asked."""

    def __init__(self, raw: Mapping[int, str]) -> None:
        self.raw = raw
        self.known: dict[int, bool] = {}

    def __contains__(self, text_id: object) -> bool:
        assert isinstance(text_id, int)
        found = self.known.get(text_id)
        if found is None:
            found = self.known[text_id] = is_title(self.raw[text_id])
        return found


@dataclass(slots=True)
class _Left:
    """The old and new indices not paired yet."""

    old: list[int]
    new: list[int]

    def update(self, pairs: Mapping[int, int]) -> _Left:
        """Drop what `pairs` has paired since; returns itself."""
        used = set(pairs.values())
        self.old = [i for i in self.old if i not in pairs]
        self.new = [j for j in self.new if j not in used]
        return self

    def of(self, old: Sequence[Item], new: Sequence[Item], kinds: frozenset[str]) -> _Left:
        """The leftovers of some kinds only."""
        return _Left(
            [i for i in self.old if old[i].kind in kinds],
            [j for j in self.new if new[j].kind in kinds],
        )


def _identical(old: Sequence[Item], new: Sequence[Item]) -> dict[int, int]:
    """Same key, same text: unchanged (the first occurrence wins for repeated keys)."""
    # Built from the end, so that the first occurrence of a (key, text) is the one kept.
    where = dict(zip(map(_KEY_TEXT, reversed(new)), range(len(new) - 1, -1, -1), strict=True))
    found = map(where.get, map(_KEY_TEXT, old))
    pairs = {i: j for i, j in enumerate(found) if j is not None}
    if len(set(pairs.values())) < len(pairs):  # a repeated (key, text): one to one still
        taken: set[int] = set()
        for i, j in list(pairs.items()):
            if j in taken:
                del pairs[i]
            taken.add(j)
    return pairs


def _same_key(
    old: Sequence[Item],
    new: Sequence[Item],
    pairs: dict[int, int],
    left: _Left,
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


def _unique_wording(
    old: Sequence[Item],
    new: Sequence[Item],
    pairs: dict[int, int],
    left: _Left,
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


def _renamed_headings(
    old: Sequence[Item], new: Sequence[Item], pairs: dict[int, int], left: _Left
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


def _renamed(old: Sequence[Item], new: Sequence[Item], pairs: dict[int, int], left: _Left) -> None:
    """Glossary entries sharing a name with exactly one leftover on the other side
    ("Kicker" -> "Kicker, Kicked", "Mana Burn" -> "Mana Burn (Obsolete)", "Comes into
    Play" -> "Enters the Battlefield"; a term kept but redefined shares its own name)."""
    group = left.of(old, new, frozenset({"glossary"}))
    if not group.old or not group.new:
        return
    old_names = {i: heading_names(old[i].key) for i in group.old}
    new_names = {j: heading_names(new[j].key) for j in group.new}
    for i, names in old_names.items():
        found = [j for j, others in new_names.items() if names & others]
        if len(found) == 1:
            mine = [k for k, others in old_names.items() if new_names[found[0]] & others]
            if mine == [i]:
                pairs[i] = found[0]
                del new_names[found[0]]


_QUOTES = re.compile(r"[\"“”‘’']")


@lru_cache(maxsize=16384)
def heading_names(term: str, *, renamed: bool = True) -> frozenset[str]:
    """The names a glossary heading goes by, as compared: each of "A, B" and "A/B", its
    "(Obsolete)"-like note dropped, quotes, case, hyphens and plurals folded, and the
    Magic 2010 renames applied ("Comes into Play" is "Enters the Battlefield") unless
    `renamed` is false."""
    names = set()
    for name in glossary_names(term.replace("/", ", ")):
        plain = " ".join(_QUOTES.sub("", name).lower().replace("-", " ").split())
        if renamed:
            plain = _RENAME_PATTERN.sub(lambda match: _RENAME_TO[match.group(1)], plain)
        words = [w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w
                 for w in plain.split()]  # fmt: skip
        if words:
            names.add(" ".join(words))
    return frozenset(names)


def _name_similarity(old: list[str], new: list[str]) -> NDArray[np.float32]:
    """How alike the headings of glossary entries are, 0..1: the best of the edit ratio
    and the token-set ratio (which forgives a word added: "Teams" -> "Teams Variant")."""
    import numpy as np
    from rapidfuzz import fuzz, process

    def spelled(terms: list[str], renamed: bool) -> list[str]:
        return [" ".join(sorted(heading_names(term, renamed=renamed))) for term in terms]

    result: NDArray[np.float32] = np.zeros((len(old), len(new)), np.float32)
    # With the Magic 2010 renames and without ("End of Turn" was "End of Turn Step"
    # before it was "End Step").
    for renamed in (True, False):
        a, b = spelled(old, renamed), spelled(new, renamed)
        ratio = process.cdist(a, b, scorer=fuzz.ratio, dtype=np.float32, workers=-1)
        tokens = process.cdist(a, b, scorer=fuzz.token_set_ratio, dtype=np.float32, workers=-1)
        result = np.maximum(result, np.maximum(ratio, tokens) / np.float32(100.0))
    return result


def _fuzzy(
    old: Sequence[Item],
    new: Sequence[Item],
    pairs: dict[int, int],
    left: _Left,
    texts: _Normalised,
    titles: Container[int],
) -> None:
    """Assign the leftovers level by level. A level is assigned twice: the first round's
    pairs tell the second which parents correspond (a subrule's rule is in its level)."""
    import numpy as np

    for level in LEVELS:
        group = left.update(pairs).of(old, new, level)
        if not group.old or not group.new:
            continue
        similarity = _similarity(
            [texts[old[i].text_id] for i in group.old], [texts[new[j].text_id] for j in group.new]
        )
        if level == GLOSSARY:
            # A glossary entry is its heading as much as its definition.
            names = _name_similarity(
                [old[i].key for i in group.old], [new[j].key for j in group.new]
            )
            # Names alike ("Source" is a word of two new headings) are told apart by content.
            similarity = np.maximum(similarity, NAME_WEIGHT * names) + NAME_TIE * similarity
            # An "(Obsolete)" stub names a term the rules no longer use: it goes on under
            # its own name (the note dropped, "(Informal)", a hyphen) or as another stub
            # ("Landhome" -> "Islandhome (Obsolete)"), never as a term in use under another
            # name ("Phase Ability (Obsolete)" is not "Characteristic-Setting Ability").
            for row, i in enumerate(group.old):
                if _is_stub(old[i].key):
                    own = heading_names(old[i].key)
                    for col, j in enumerate(group.new):
                        if not _is_stub(new[j].key) and not own & heading_names(new[j].key):
                            similarity[row, col] = 0.0
        kept = ~np.array([old[i].text_id in titles for i in group.old])[:, None]
        if level != GLOSSARY:
            similarity = np.maximum(similarity, _carried(old, new, group, similarity, texts))
        draft = dict(pairs)
        _assign(old, new, group, similarity, kept, draft, texts)
        _assign(old, new, group, similarity, kept, pairs, texts, parents=draft)


#: A sentence of this many words or fewer ("(See rule 708.)") says nothing of identity.
CARRIED_WORDS = 4
#: Likeness (0-100) at which a new sentence carries an old one (a word or two changed).
CARRIED_RATIO = 88.0
_SENTENCE = re.compile(r"(?<=[.!?)])\s+(?=[A-Z(“\"])")


def _carried(
    old: Sequence[Item],
    new: Sequence[Item],
    group: _Left,
    similarity: NDArray[np.float32],
    texts: _Normalised,
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

    @cache
    def sentences(text_id: int) -> tuple[str, ...]:
        parts = (normalise(part) for part in _SENTENCE.split(texts.raw[text_id]))
        return tuple(part for part in parts if len(part.split()) > CARRIED_WORDS)

    for row, col in np.argwhere(plausible).tolist():
        mine = sentences(old[group.old[row]].text_id)
        if not mine:
            continue
        theirs = sentences(new[group.new[col]].text_id)
        words = sum(len(sentence.split()) for sentence in mine)
        kept = sum(
            len(sentence.split())
            for sentence in mine
            if any(fuzz.ratio(sentence, other) >= CARRIED_RATIO for other in theirs)
        )
        found[row, col] = kept / words
    return found


def _assign(
    old: Sequence[Item],
    new: Sequence[Item],
    group: _Left,
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
    acceptable |= same_number & same_parent & sentences & (similarity >= ACCEPT_KEPT)
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


def _similarity(old: list[str], new: list[str]) -> NDArray[np.float32]:
    """Similarity 0..1 of every old text to every new one.

    The mean of the edit ratio and the Dice coefficient of the word sets: the first
    punishes rewording, the second forgives a rule that was split, merged or had a
    sentence added. The edit ratio of sentences is taken over their words (a rule has an
    eighth as many words as characters, and rewording is a matter of words); short texts
    (headings, keyword names) use the ratio of their characters alone, where word sets
    would call "Tap" and "Tap and Untap" much the same. Ratios under `RATIO_CUTOFF`
    count as 0: no pair that weak is accepted on its wording.
    """
    import numpy as np
    from rapidfuzz import fuzz, process

    ratio = process.cdist(
        [_word_ids(text, ordered=True) for text in old],
        [_word_ids(text, ordered=True) for text in new],
        scorer=fuzz.ratio, dtype=np.float32, workers=1, score_cutoff=RATIO_CUTOFF,
    )  # fmt: skip
    old_short = np.array([len(text) < SHORT for text in old])
    new_short = np.array([len(text) < SHORT for text in new])
    if old_short.any():
        rows = np.flatnonzero(old_short)
        ratio[rows, :] = process.cdist(
            [old[i] for i in rows], new, scorer=fuzz.ratio, dtype=np.float32, workers=1,
            score_cutoff=RATIO_CUTOFF,
        )  # fmt: skip
    if new_short.any():
        cols = np.flatnonzero(new_short)
        ratio[:, cols] = process.cdist(
            old, [new[j] for j in cols], scorer=fuzz.ratio, dtype=np.float32, workers=1,
            score_cutoff=RATIO_CUTOFF,
        )  # fmt: skip
    ratio /= np.float32(100.0)
    short = old_short[:, None] | new_short[None, :]
    result: NDArray[np.float32] = np.where(short, ratio, (ratio + _dice(old, new)) / 2)
    return result


#: Ratio (0-100) below which rapidfuzz may report 0.
RATIO_CUTOFF = 30


class _Vocabulary(dict[str, int]):
    """Word -> id, a new id for each word not met before."""

    def __missing__(self, word: str) -> int:
        self[word] = found = len(self)
        return found


_VOCABULARY = _Vocabulary()


@lru_cache(maxsize=131072)
def _word_ids(text: str, *, ordered: bool = False) -> tuple[int, ...]:
    """A normalised text's words as ids: all of them in order, or the distinct ones sorted
    (cached: texts recur in every edition)."""
    if ordered:
        return tuple(map(_VOCABULARY.__getitem__, text.split()))
    return tuple(sorted(set(map(_VOCABULARY.__getitem__, text.split()))))


def _dice(old: list[str], new: list[str]) -> NDArray[np.float32]:
    """Dice coefficient of the word sets, for all pairs at once (one sparse product)."""
    import numpy as np

    common, old_sizes, new_sizes = _overlap(
        [_word_ids(text) for text in old], [_word_ids(text) for text in new]
    )
    sizes = old_sizes + new_sizes
    result: NDArray[np.float32] = (2 * common / np.maximum(sizes, 1)).astype(np.float32)
    return result


def _overlap(
    left: list[tuple[int, ...]], right: list[tuple[int, ...]]
) -> tuple[NDArray[np.float32], NDArray[np.float32], NDArray[np.float32]]:
    """How many distinct words each left text shares with each right text (a matrix), the
    left texts' word counts (a column) and the right texts' (a row): one sparse product
    over word ids of `_VOCABULARY`, which holds them all already."""
    import numpy as np
    from scipy.sparse import csr_matrix  # type: ignore[import-untyped]

    def matrix(rows: list[tuple[int, ...]]) -> csr_matrix:
        indptr = [0]
        indices: list[int] = []
        for ids in rows:
            indices.extend(ids)
            indptr.append(len(indices))
        data = np.ones(len(indices), np.float32)
        return csr_matrix((data, indices, indptr), (len(rows), len(_VOCABULARY)))

    a, b = matrix(left), matrix(right)
    common = (a @ b.T).toarray()
    return common, np.asarray(a.sum(axis=1)), np.asarray(b.sum(axis=1)).T


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
            map(_KEY, map(old.__getitem__, pairs.keys())),
            map(_KEY, map(new.__getitem__, pairs.values())),
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


@dataclass(slots=True)
class _Parting:
    """What the search for splits and merges among the rules left over works on: both
    editions, the pairs so far (changed as it goes), and what it found."""

    old: Sequence[Item]
    new: Sequence[Item]
    pairs: dict[int, int]
    texts: _Normalised
    titles: Container[int]
    #: New index -> old index of the pairs.
    old_of: dict[int, int]
    #: Old number -> new number of the pairs: where an old parent stands now.
    new_key: dict[str, str]
    #: Split records: new index -> old index.
    split: dict[int, int]
    #: Merged records: old index -> new index.
    merged: dict[int, int]

    @classmethod
    def of(
        cls,
        old: Sequence[Item],
        new: Sequence[Item],
        pairs: dict[int, int],
        texts: _Normalised,
        titles: Container[int],
    ) -> _Parting:
        """The state before any split or merge is found."""
        old_of = {j: i for i, j in pairs.items()}
        new_key = {old[i].key: new[j].key for i, j in pairs.items()}
        return cls(old, new, pairs, texts, titles, old_of, new_key, {}, {})

    def words(self, item: Item) -> tuple[int, ...]:
        """An item's word ids (none for a title)."""
        return () if item.text_id in self.titles else _word_ids(self.texts[item.text_id])

    def content(self, item: Item) -> tuple[int, ...]:
        """An item's word ids without its pointers to other rules (none for a title)."""
        if item.text_id in self.titles:
            return ()
        return _word_ids(self.texts.content(item.text_id))

    def pair(self, i: int, j: int) -> None:
        """Record old `i` and new `j` as counterparts."""
        self.pairs[i], self.old_of[j] = j, i


def _parts(
    old: Sequence[Item],
    new: Sequence[Item],
    pairs: dict[int, int],
    left: _Left,
    reworded: _Left,
    texts: _Normalised,
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
    sources = reworded.of(old, new, LEVELS[1]).old
    targets = reworded.of(old, new, LEVELS[1]).new
    # Parts: new records left over, each from the one old rule holding its words.
    parts = [j for j in group.new if len(state.words(new[j])) >= SPLIT_WORDS]
    found, namesake_parts = _namesake_parts(state, group.new, sources)
    _contained_parts(state, parts, sources, found, namesake_parts)
    lost_parts = _lost_clauses(old, new, pairs, parts, sources, found, state.words)
    for i, pieces in found.items():
        _settle_parts(state, i, pieces, namesake_parts | lost_parts)
    _namesake_merges(state, group.old, targets)
    _contained_merges(state, group.old, targets)
    _merge_cores(old, new, pairs, state.split, state.merged, group.old, state.words, texts)
    _second_copies(state, group.old)
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
    namesakes = {old[i].key: i for i in sources}
    candidates = [j for j in left_new if new[j].key in namesakes and state.words(new[j])]
    if not candidates or not sources:
        return found, set()
    # Each part's share of words in every source: its namesake must hold it best.
    shares, _ = _contained(
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
    contained, covered = _contained(
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
    if kept is not None:
        # A part holds what the old rule's counterpart lost, not what it kept.
        lost = set(words(old[i])) - set(words(new[kept]))
        pieces = [j for j in pieces if j in sure or _carries(words(new[j]), lost)]
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
        kept = next((j for j in long if new[j].key == old[i].key), None)
        if kept is None:
            first = min(long)
            others = [j for j in pieces if j != first]
            kept = _leading(old[i], [first, *others], lambda j: words(new[j]), state.texts)
        state.pair(i, kept)
    elif new[kept].key != old[i].key:
        # The core is the part keeping the number, else the part that carries the old
        # rule's first sentence (what it was about).
        same = [j for j in pieces if new[j].key == old[i].key]
        core = (
            same[0]
            if same
            else _leading(old[i], [kept, *pieces], lambda j: words(new[j]), state.texts)
        )
        if core != kept:
            pieces = [*pieces, kept]
            pieces.remove(core)
            del state.old_of[kept]
            state.pair(i, core)
            kept = core
    for j in pieces:
        if j != kept:
            state.split[j] = i


def _namesake_merges(state: _Parting, left_old: list[int], targets: list[int]) -> None:
    """Merges into a record keeping the number of an old one left over, whose words it
    all holds: that old record is the core, the one paired with it so far was merged
    in."""
    old, new, words = state.old, state.new, state.words
    targets_by_key = {new[j].key: j for j in targets}
    for i in left_old:
        home = targets_by_key.get(old[i].key)
        own = words(old[i])
        if i in state.pairs or home is None or home in state.split or not own:
            continue
        holds = set(words(new[home]))
        share = sum(1 for word in own if word in holds) / len(own)
        if share < (1.0 if len(own) < SPLIT_WORDS else SPLIT_CONTAINED_ALONE):
            continue
        other = state.old_of.get(home)
        if other is not None:
            if old[other].key == new[home].key:
                continue
            del state.pairs[other]
            state.merged[other] = home
        state.pair(i, home)


def _contained_merges(state: _Parting, left_old: list[int], targets: list[int]) -> None:
    """Old records left over, each merged into the one new rule holding its words (or,
    when that rule has no counterpart and the record is long, continued by it)."""
    import numpy as np

    old, new, words = state.old, state.new, state.words
    absorbed = [i for i in left_old if i not in state.pairs and len(words(old[i])) >= SPLIT_WORDS]
    if not absorbed or not targets:
        return
    contained, covered = _contained(
        [words(old[i]) for i in absorbed], [words(new[j]) for j in targets]
    )
    target_parents = np.array([new[j].parent or "\1" for j in targets])
    for row, i in enumerate(absorbed):
        placed = target_parents == state.new_key.get(old[i].parent or "", "\0")
        target = _unique_best(contained[row], covered[row], MERGE_CONTAINED, placed)
        if target is None:
            continue
        j = targets[target]
        if j in state.split:
            continue
        if j in state.old_of:
            # The merged rule brought words its new home did not have.
            gained = set(words(new[j])) - set(words(old[state.old_of[j]]))
            carried = words(old[i])
            if _carries(carried, gained, MERGE_CARRIES_SHARE) or _explains(carried, gained):
                state.merged[i] = j
        elif len(words(old[i])) >= ALONE_WORDS:
            state.pair(i, j)


def _second_copies(state: _Parting, left_old: list[int]) -> None:
    """A rule printed twice, word for word, whose second copy goes: it lives on in the
    copy that stays (2018-04-27 dropped 810.7e, which 805.10f had said all along)."""
    old, new = state.old, state.new
    kept_texts: dict[int, list[int]] = {}
    for j in state.old_of:
        if new[j].kind in LEVELS[1]:
            kept_texts.setdefault(new[j].text_id, []).append(j)
    for i in left_old:
        copies = kept_texts.get(old[i].text_id, ())
        if (
            i in state.pairs
            or i in state.merged
            or len(copies) != 1
            or len(state.words(old[i])) < ALONE_WORDS
        ):
            continue
        state.merged[i] = copies[0]


def _lost_clauses(
    old: Sequence[Item],
    new: Sequence[Item],
    pairs: Mapping[int, int],
    parts: list[int],
    sources: list[int],
    found: dict[int, list[int]],
    words: Callable[[Item], tuple[int, ...]],
) -> set[int]:
    """Parts found by what their source lost: a new rule holding nearly all the words an
    old rule's counterpart no longer has, and half its own words in that old rule, was
    split from it, though reworded too much to be found by its share of words alone
    (603.12a of 2021-09-24, the 'any number of times' clause 603.12 lost). Returns them."""
    taken = {j for pieces in found.values() for j in pieces}
    added: set[int] = set()
    claims: dict[int, list[int]] = {}
    losses: dict[int, set[int]] = {}
    for i in sources:
        kept = pairs.get(i)
        if kept is not None and old[i].text_id != new[kept].text_id:
            lost = set(words(old[i])) - set(words(new[kept]))
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
        if _within(mine, set(words(old[i]))) >= LOST_CONTAINED:
            claims.setdefault(i, []).append(j)
    # What one rule lost went to one place: parts that both claim it are only alike.
    for i, (j, *others) in claims.items():
        if not others:
            found.setdefault(i, []).append(j)
            added.add(j)
    return added


def _merge_cores(
    old: Sequence[Item],
    new: Sequence[Item],
    pairs: dict[int, int],
    split: dict[int, int],
    merged: dict[int, int],
    left_old: list[int],
    words: Callable[[Item], tuple[int, ...]],
    texts: _Normalised,
) -> None:
    """A rule that took in others continues the one its first sentence comes from: the
    one whose number it kept if that one holds its first sentence, else the one holding
    most of it (712.8 of 2023-04-14 opens with old 712.4 and ends with old 713.4, which it
    holds word for word; 500.5 of 2025-11-14 opens with old 500.5 and ends with old 500.4).
    The counterpart it had is merged into it, and a record the core had continued, all of
    whose words the core had, was split from it."""
    old_of = {j: i for i, j in pairs.items()}
    by_key = {old[i].key: i for i in range(len(old)) if old[i].kind in LEVELS[1]}
    spare = [i for i in left_old if i not in pairs and len(words(old[i])) >= SPLIT_WORDS]

    def reworded(i: int, j: int) -> bool:
        return old[i].text_id != new[j].text_id and words(old[i]) != words(new[j])

    changed = [
        j
        for j, i in old_of.items()
        if new[j].kind in LEVELS[1] and j not in split and reworded(i, j)
    ]
    for j in changed:
        i = old_of[j]
        first = _first_words(new[j], texts)
        if len(first) < SPLIT_WORDS or old[i].key == new[j].key:
            continue
        own = set(words(new[j]))
        namesake = by_key.get(new[j].key)
        candidates = [k for k in spare if merged.get(k, j) == j]
        if namesake is not None and namesake in pairs and reworded(namesake, pairs[namesake]):
            candidates.append(namesake)
        if not candidates or _within(words(old[i]), own) < MERGE_CONTAINED:
            continue
        shares = {k: _within(first, set(words(old[k]))) for k in (i, *candidates)}
        core = max(candidates, key=shares.__getitem__)
        if shares[core] < LEADING or shares[core] <= shares[i] + SPLIT_MARGIN:
            continue
        if core != namesake and _within(words(old[core]), own) < SPLIT_CONTAINED_ALONE:
            continue
        elsewhere = pairs.get(core)
        if elsewhere is not None:
            # Its own first sentence must have come here, not stayed where it went; what
            # it continued there is a part of it.
            if _leading(old[core], [elsewhere, j], lambda k: words(new[k]), texts) != j:
                continue
            if _within(words(new[elsewhere]), set(words(old[core]))) < SPLIT_CONTAINED_ALONE:
                continue
            split[elsewhere] = core
        merged.pop(core, None)
        del pairs[i]
        merged[i] = j
        pairs[core] = j
        old_of[j] = core
        if core in spare:
            spare.remove(core)


def _within(part: Iterable[int], whole: set[int]) -> float:
    """The share of a part's distinct words found in a whole."""
    distinct = set(part)
    return sum(1 for word in distinct if word in whole) / max(len(distinct), 1)


def _stubs(
    old: Sequence[Item],
    new: Sequence[Item],
    pairs: dict[int, int],
    reworded: _Left,
    texts: Mapping[int, str],
) -> dict[int, int]:
    """Glossary renames that leave an "(Obsolete)" stub ("Totem Armor" -> "Umbra Armor"
    and "Totem Armor (Obsolete)"): the name pass paired the old entry with its stub; the
    entry carrying the old definition continues it, and the stub was split off it.
    Returns the stubs (new index -> old index)."""
    group = reworded.of(old, new, GLOSSARY)
    new_stubs = {j for j in group.new if _is_stub(new[j].key)}
    if not new_stubs:
        return {}
    stubs = {i: j for i, j in pairs.items() if j in new_stubs and not _is_stub(old[i].key)}
    if not stubs:
        return {}
    candidates = [j for j in group.new if not _is_stub(new[j].key)]
    if not candidates:
        return {}
    olds = list(stubs)
    similarity = _similarity(
        [texts[old[i].text_id] for i in olds], [texts[new[j].text_id] for j in candidates]
    )
    owner = {j: i for i, j in pairs.items()}
    split: dict[int, int] = {}
    for row, i in enumerate(olds):
        col = int(similarity[row].argmax())
        best, k = float(similarity[row, col]), candidates[col]
        if best < STUB_ACCEPT or k in split:
            continue
        holder = owner.get(k)
        if holder is not None:
            if holder in stubs:
                continue
            held = _similarity([texts[old[holder].text_id]], [texts[new[k].text_id]])[0, 0]
            if best < held + STUB_MARGIN:
                continue
            del pairs[holder]
        pairs[i] = k
        owner[k] = i
        split[stubs[i]] = i
    return split


def _named_stubs(
    old: Sequence[Item],
    new: Sequence[Item],
    pairs: dict[int, int],
    split: dict[int, int],
    reworded: _Left,
) -> dict[int, int]:
    """A new "(Obsolete)" stub left alone by the other passes, named after a name that an
    old entry went on without ("Legend (Obsolete)" of 2004-10-01, where "Legend, Legendary"
    went on as "Legendary"; "At End of Turn (Obsolete)" of 2009-07-11, where "End of Turn
    Step" went on as "End Step"): it was split off that entry, when only one fits.
    Returns the stubs (new index -> old index)."""
    group = reworded.of(old, new, GLOSSARY)
    taken = set(pairs.values()) | set(split)
    lone = [j for j in group.new if j not in taken and _is_stub(new[j].key)]
    if not lone:
        return {}
    went_on = {
        i: j for i, j in pairs.items() if old[i].kind == "glossary" and old[i].key != new[j].key
    }
    found: dict[int, int] = {}
    for j in lone:
        names = [
            set(name.split()) - _NAME_LINKS for name in heading_names(new[j].key, renamed=False)
        ]
        names = [name for name in names if name]
        fits = [
            i
            for i, k in went_on.items()
            if not _is_stub(old[i].key)
            and _names_hold(heading_names(old[i].key, renamed=False), names)
            and not _names_hold(heading_names(new[k].key, renamed=False), names)
        ]
        if len(fits) == 1:
            found[j] = fits[0]
    return found


#: Words that link a name's words and tell no name from another ("At End of Turn").
_NAME_LINKS = frozenset({"a", "an", "at", "from", "in", "of", "on", "the", "to"})


def _names_hold(names: Iterable[str], wanted: list[set[str]]) -> bool:
    """Whether one of `names` holds every word of one of the `wanted` word sets."""
    return any(words <= set(name.split()) for name in names for words in wanted)


_OBSOLETE = "(obsolete)"


def _is_stub(term: str) -> bool:
    """Whether a glossary heading is an "(Obsolete)" stub (any case)."""
    return _OBSOLETE in term.lower()


STUB_ACCEPT = 0.5
"""Likeness of definitions at which an entry continues one whose name went to a stub."""
STUB_MARGIN = 0.1
"""How much more like the old definition it must be than what it continued before."""


def _carries(part: tuple[int, ...], words: set[int], share: float = SPLIT_CARRIES_SHARE) -> bool:
    """Whether a part holds enough of some words to be where they went (or came from)."""
    shared = sum(1 for word in part if word in words)
    return shared >= max(SPLIT_CARRIES, share * len(part))


def _leading(
    whole: Item,
    parts: list[int],
    words: Callable[[int], tuple[int, ...]],
    texts: _Normalised,
) -> int:
    """Of the parts a rule split into (new indices, the one it continues first), the one
    holding most of its first sentence's words; the first keeps it unless another holds
    LEADING of them and leads by SPLIT_MARGIN."""
    first = _first_words(whole, texts)
    if not first:
        return parts[0]
    shares = [_within(first, set(words(j))) for j in parts]
    best = max(range(len(parts)), key=shares.__getitem__)
    leads = shares[best] >= LEADING and shares[best] > shares[0] + SPLIT_MARGIN
    return parts[best] if leads else parts[0]


_REMARK = re.compile(r"\([^()]*\)")
_SENTENCE_END = re.compile(r"[.!?][)\"”’']*\s+(?=[A-Z(“\"])")


def _first_words(item: Item, texts: _Normalised) -> set[int]:
    """The words of a record's first sentence, remarks in parentheses left out (a
    sentence may end inside quotation marks)."""
    first = _SENTENCE_END.split(_REMARK.sub("", texts.raw[item.text_id]), maxsplit=1)[0]
    return set(_word_ids(normalise(first)))


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


def _contained(
    parts: list[tuple[int, ...]],
    wholes: list[tuple[int, ...]],
    contents: list[tuple[int, ...]] | None = None,
) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
    """Share of each part's distinct words found in each whole, and share of each whole's
    words found in each part. Given each part's `contents` (its words without its
    pointers to other rules), a pointer's words a whole lacks do not count against the
    part: a part that gained "See rule 503, "Copying Objects."" gained no content."""
    import numpy as np

    common, part_sizes, whole_sizes = _overlap(parts, wholes)
    if contents is not None:
        common_content, content_sizes, _ = _overlap(contents, wholes)
        # The part's content, and those of its pointer's words the whole has too.
        part_sizes = content_sizes + (common - common_content)
    contained: NDArray[np.float32] = (common / np.maximum(part_sizes, 1)).astype(np.float32)
    covered: NDArray[np.float32] = (common / np.maximum(whole_sizes, 1)).astype(np.float32)
    return contained, covered


def _result(
    old_count: int,
    new_count: int,
    pairs: dict[int, int],
    split: Mapping[int, int] | None = None,
    merged: Mapping[int, int] | None = None,
) -> Alignment:
    split = split or {}
    merged = merged or {}
    used = set(pairs.values())
    ordered = tuple(sorted(pairs.items(), key=lambda pair: pair[1]))
    return Alignment(
        pairs=ordered,
        removed=tuple(i for i in range(old_count) if i not in pairs and i not in merged),
        added=tuple(j for j in range(new_count) if j not in used and j not in split),
        split=tuple(sorted(((i, j) for j, i in split.items()), key=lambda pair: pair[1])),
        merged=tuple(sorted(merged.items(), key=lambda pair: pair[1])),
    )


def precision_recall(
    predicted: Mapping[str, str],
    pairs: Iterable[tuple[str, str]],
    unmatched_old: Iterable[str] = (),
    unmatched_new: Iterable[str] = (),
) -> tuple[float, float]:
    """Score an alignment (old key -> new key) against labelled pairs and labelled
    unmatched keys. Only predictions touching a labelled key are judged: a pair made
    for a key labelled unmatched is a false positive."""
    labelled = set(pairs)
    backward = {new: old for old, new in predicted.items()}
    judged = {(old, predicted[old]) for old, _ in labelled if old in predicted}
    judged |= {(old, predicted[old]) for old in unmatched_old if old in predicted}
    judged |= {(backward[new], new) for new in unmatched_new if new in backward}
    correct = len(judged & labelled)
    precision = correct / len(judged) if judged else 1.0
    recall = correct / len(labelled) if labelled else 1.0
    return precision, recall
