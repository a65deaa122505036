"""Align two editions: pair each rule (or glossary entry) of the old with its counterpart.

Three passes, cheapest first:

1. identical: same number (or term) and the same stored text (texts are deduplicated,
   so equal text ids mean equal texts) - this settles almost every rule of two
   consecutive editions;
2. moved: a text that occurs once among the leftovers of each side is the same rule
   under another number (trample 702.18 -> 702.19 in July 2013);
3. fuzzy: the rest, level by level (headings, rules, subrules), by similarity of
   normalised words (rapidfuzz) plus small bonuses for keeping the number or staying
   under the counterpart of the old parent, with a one-to-one assignment that
   maximises the total score (the Hungarian method, scipy's linear_sum_assignment),
   never greedy first matches.

The normalisation folds typography, masks rule numbers (renumbered references must
not make texts look different) and applies the Magic 2010 renames ("in play" ->
"on the battlefield", "removed from the game" -> "exiled"), for similarity only.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rules_kb.typography import fold

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

ACCEPT = 0.62
"""Similarity (0..1) at which two texts are the same rule wherever they stand."""
ACCEPT_IN_PLACE = 0.40
"""Lower similarity accepted when the number is kept or the parent corresponds."""
ACCEPT_SHORT = 0.75
"""Similarity at which two headings or names are the same (unless the number is kept)."""
SHORT = 30
"""Normalised texts shorter than this are headings or names: judged by edit ratio alone."""
SAME_NUMBER_BONUS = 0.12
SAME_PARENT_BONUS = 0.08
SAME_LETTERS_BONUS = 0.03


@dataclass(frozen=True, slots=True)
class Item:
    """One rule row or glossary entry, as alignment sees it."""

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
_NON_WORD = re.compile(r"[^\w#]+")


def normalise(text: str) -> str:
    """Text reduced for similarity: lower case, typography folded, rule numbers masked,
    the Magic 2010 renames applied, punctuation dropped, words single-spaced."""
    folded = fold(text).lower()
    folded = RULE_REFERENCE.sub("#", folded)
    folded = _RENAME_PATTERN.sub(lambda match: _RENAME_TO[match.group(1)], folded)
    return " ".join(_NON_WORD.sub(" ", folded).split())


# the passes ----------------------------------------------------------------------


def align(old: Sequence[Item], new: Sequence[Item], load_texts: LoadTexts) -> Alignment:
    """Pair old items with new ones, one to one. `load_texts` is asked only for the texts
    of the items left after the identical and moved passes."""
    pairs: dict[int, int] = {}
    _identical(old, new, pairs)
    _unique_texts(old, new, pairs)
    left_old = [i for i in range(len(old)) if i not in pairs]
    used = set(pairs.values())
    left_new = [j for j in range(len(new)) if j not in used]
    if left_old and left_new:
        ids = [old[i].text_id for i in left_old] + [new[j].text_id for j in left_new]
        texts = {text_id: normalise(text) for text_id, text in load_texts(ids).items()}
        _fuzzy(old, new, pairs, texts)
    return _result(len(old), len(new), pairs)


def _identical(old: Sequence[Item], new: Sequence[Item], pairs: dict[int, int]) -> None:
    """Same key, same text: unchanged (the first occurrence wins for repeated keys)."""
    where: dict[tuple[str, int], int] = {}
    for j, item in enumerate(new):
        where.setdefault((item.key, item.text_id), j)
    taken: set[int] = set()
    for i, item in enumerate(old):
        found = where.get((item.key, item.text_id))
        if found is not None and found not in taken:
            pairs[i] = found
            taken.add(found)


def _unique_texts(old: Sequence[Item], new: Sequence[Item], pairs: dict[int, int]) -> None:
    """A text found once among the leftovers on each side: the same rule, moved."""
    used = set(pairs.values())
    old_by_text = [i for i in range(len(old)) if i not in pairs]
    new_by_text = [j for j in range(len(new)) if j not in used]
    old_counts = Counter(old[i].text_id for i in old_by_text)
    new_counts = Counter(new[j].text_id for j in new_by_text)
    new_of_text = {new[j].text_id: j for j in new_by_text}
    for i in old_by_text:
        text_id = old[i].text_id
        if old_counts[text_id] == 1 and new_counts[text_id] == 1:
            pairs[i] = new_of_text[text_id]


def _fuzzy(
    old: Sequence[Item], new: Sequence[Item], pairs: dict[int, int], texts: Mapping[int, str]
) -> None:
    """Assign the leftovers level by level. A level is assigned twice: the first round's
    pairs tell the second which parents correspond (a subrule's rule is in its level)."""
    for level in LEVELS:
        left_old, left_new = _leftovers(old, new, pairs, level)
        draft = dict(pairs)
        _assign(old, new, left_old, left_new, draft, texts)
        _assign(old, new, left_old, left_new, pairs, texts, parents=draft)


def _leftovers(
    old: Sequence[Item], new: Sequence[Item], pairs: dict[int, int], kinds: frozenset[str]
) -> tuple[list[int], list[int]]:
    used = set(pairs.values())
    left_old = [i for i, item in enumerate(old) if i not in pairs and item.kind in kinds]
    left_new = [j for j, item in enumerate(new) if j not in used and item.kind in kinds]
    return left_old, left_new


def _assign(
    old: Sequence[Item],
    new: Sequence[Item],
    left_old: list[int],
    left_new: list[int],
    pairs: dict[int, int],
    texts: Mapping[int, str],
    *,
    parents: Mapping[int, int] | None = None,
) -> None:
    """Hungarian assignment of one group of leftovers; pairs below the bar stay apart.
    `parents` (default: `pairs`) says which old and new parents correspond."""
    if not left_old or not left_new:
        return
    import numpy as np
    from scipy.optimize import linear_sum_assignment  # type: ignore[import-untyped]

    similarity = _similarity(
        [texts[old[i].text_id] for i in left_old], [texts[new[j].text_id] for j in left_new]
    )
    same_number, same_parent, same_letters = _context(
        old, new, left_old, left_new, pairs if parents is None else parents
    )
    short = np.array([len(texts[old[i].text_id]) < SHORT for i in left_old])[:, None]
    acceptable = np.where(
        short,
        (similarity >= ACCEPT_SHORT) | ((similarity >= ACCEPT) & same_number),
        (similarity >= ACCEPT) | ((similarity >= ACCEPT_IN_PLACE) & (same_number | same_parent)),
    )
    score = (
        similarity
        + SAME_NUMBER_BONUS * same_number
        + SAME_PARENT_BONUS * same_parent
        + SAME_LETTERS_BONUS * same_letters
    )
    score = np.where(acceptable, score, 0.0)
    rows, cols = linear_sum_assignment(score, maximize=True)
    for row, col in zip(rows.tolist(), cols.tolist(), strict=True):
        if acceptable[row, col]:
            pairs[left_old[row]] = left_new[col]


def _similarity(old: list[str], new: list[str]) -> NDArray[np.float32]:
    """Similarity 0..1 of every old text to every new one.

    The mean of the edit-distance ratio and the Dice coefficient of the word sets: the
    first punishes rewording, the second forgives a rule that was split, merged or had
    a sentence added. Short texts (headings, keyword names) use the ratio alone, where
    word sets would call "Tap" and "Tap and Untap" much the same.
    """
    import numpy as np
    from rapidfuzz import fuzz, process

    ratio = process.cdist(old, new, scorer=fuzz.ratio, dtype=np.float32, workers=-1)
    ratio /= np.float32(100.0)
    short = (np.array([len(text) for text in old])[:, None] < SHORT) | (
        np.array([len(text) for text in new])[None, :] < SHORT
    )
    result: NDArray[np.float32] = np.where(short, ratio, (ratio + _dice(old, new)) / 2)
    return result


def _dice(old: list[str], new: list[str]) -> NDArray[np.float32]:
    """Dice coefficient of the word sets, for all pairs at once (one sparse product)."""
    import numpy as np
    from scipy.sparse import csr_matrix  # type: ignore[import-untyped]

    vocabulary: dict[str, int] = {}

    def rows(texts: list[str]) -> Any:
        indptr, indices = [0], []
        for text in texts:
            indices.extend(
                sorted({vocabulary.setdefault(w, len(vocabulary)) for w in text.split()})
            )
            indptr.append(len(indices))
        return indptr, indices

    old_ptr, old_idx = rows(old)
    new_ptr, new_idx = rows(new)
    shape = len(vocabulary)
    a = csr_matrix((np.ones(len(old_idx), np.float32), old_idx, old_ptr), (len(old), shape))
    b = csr_matrix((np.ones(len(new_idx), np.float32), new_idx, new_ptr), (len(new), shape))
    common = (a @ b.T).toarray()
    sizes = np.asarray(a.sum(axis=1)) + np.asarray(b.sum(axis=1)).T
    result: NDArray[np.float32] = (2 * common / np.maximum(sizes, 1)).astype(np.float32)
    return result


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

    parent_map = {old[i].key: new[j].key for i, j in pairs.items()}
    codes: dict[str | None, int] = {None: -1}

    def code(value: str | None) -> int:
        return codes.setdefault(value, len(codes))

    def letters(key: str) -> str | None:
        match = _LETTERS.search(key)
        return match.group(0) if match else None

    old_number = np.array([code(old[i].key) for i in left_old])
    new_number = np.array([code(new[j].key) for j in left_new])
    mapped_parent = np.array(
        [code(parent_map.get(old[i].parent or "", "\0none")) for i in left_old]
    )
    new_parent = np.array([code(new[j].parent) for j in left_new])
    old_letters = np.array([code(letters(old[i].key)) for i in left_old])
    new_letters = np.array([code(letters(new[j].key)) for j in left_new])
    same_number = old_number[:, None] == new_number[None, :]
    same_parent = mapped_parent[:, None] == new_parent[None, :]
    same_letters = (old_letters[:, None] == new_letters[None, :]) & (old_letters[:, None] >= 0)
    return same_number, same_parent, same_letters


def _result(old_count: int, new_count: int, pairs: dict[int, int]) -> Alignment:
    used = set(pairs.values())
    ordered = tuple(sorted(pairs.items(), key=lambda pair: pair[1]))
    return Alignment(
        pairs=ordered,
        removed=tuple(i for i in range(old_count) if i not in pairs),
        added=tuple(j for j in range(new_count) if j not in used),
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
