"""Texts reduced for likeness, and the likeness of word sets: normalisation (typography
folded, rule numbers masked, the Magic 2010 renames applied), word ids, shared-word
matrices, and the names of glossary headings."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from functools import lru_cache
from operator import itemgetter
from typing import TYPE_CHECKING

from rules_kb.ingest.align.model import Item
from rules_kb.ingest.models import SUBRULE_LETTERS, glossary_names, range_end
from rules_kb.titles import is_title
from rules_kb.typography import fold, key

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray


# normalisation -------------------------------------------------------------------

SHORT = 30
"""Normalised texts shorter than this are headings or names: judged by edit ratio alone."""
RULE_REFERENCE = re.compile(
    r"\b(?P<number>\d{3}(?:\.\d+(?P<letters>[a-z]*))?)"
    r"(?:(?P<dash>\s*[-\u2013\u2014]\s*)(?P<last>[a-z]{1,2})(?![\w-]))?\b"
)
"""A rule number cited, with the last letter of a range after it ("601.2e\u2013g")."""


def cited_numbers(text: str) -> set[str]:
    """The rule numbers a text cites (a range's first number: "510.1a-c" cites 510.1a)."""
    return {match.group("number") for match in RULE_REFERENCE.finditer(text)}


def renumber_references(text: str, number_map: Mapping[str, str]) -> str:
    """The text with every rule number it cites replaced by its counterpart's number; a
    range ("601.2e\u2013g") by its two ends' counterparts, written short when they stand
    under one rule ("601.2f\u2013h"), or, where its members were reordered under one rule,
    by the run they make there ("Rules 301.7a-d" of 2009-10-01 is "301.5a-d" of
    2010-02-01, where 301.7a-d went to 301.5b, c, a and d)."""

    def renumbered(match: re.Match[str]) -> str:
        number = match.group("number")
        first = number_map.get(number, number)
        last_letters = match.group("last")
        if last_letters is None or not match.group("letters"):
            return first + match.group(0)[len(number) :]
        stem = number[: len(number) - len(match.group("letters"))]
        last = number_map.get(stem + last_letters, stem + last_letters)
        run = _reordered_run(stem, match.group("letters"), last_letters, number_map)
        if run is not None:
            first, last = run
        return first + match.group("dash") + range_end(first, last)

    return RULE_REFERENCE.sub(renumbered, text)


def _reordered_run(
    stem: str, first: str, last: str, number_map: Mapping[str, str]
) -> tuple[str, str] | None:
    """The first and last of the numbers a range's members went to, where they went
    under one rule as an unbroken run of letters; None for a range of two-letter
    subrules or one whose members went apart."""
    if first not in SUBRULE_LETTERS or last not in SUBRULE_LETTERS:
        return None
    members = SUBRULE_LETTERS[SUBRULE_LETTERS.index(first) : SUBRULE_LETTERS.index(last) + 1]
    went = sorted(
        (number_map[stem + letter] for letter in members if stem + letter in number_map),
        key=lambda number: (len(number), number),
    )
    if len(went) < 2:
        return None
    stems = {number.rstrip(SUBRULE_LETTERS) for number in went}
    letters = "".join(number[len(number.rstrip(SUBRULE_LETTERS)) :] for number in went)
    if len(stems) != 1 or letters not in SUBRULE_LETTERS:
        return None
    return went[0], went[-1]


def numbers_masked(text: str) -> str:
    """The text, typography folded, with the rule numbers it cites masked."""
    return RULE_REFERENCE.sub("#", key(text))


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
    ("play spells and abilities", "cast spells and activate abilities"),
    ("playing spells and abilities", "casting spells and activating abilities"),
)
_RENAME_PATTERN = re.compile(r"\b(" + "|".join(re.escape(old) for old, _ in _RENAMES) + r")\b")
_RENAME_TO = dict(_RENAMES)
#: (key, text id) of an Item.
KEY_TEXT = itemgetter(0, 3)
#: The key of an Item.
KEY = itemgetter(0)
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


class Normalised(dict[int, str]):
    """Normalised texts by id, each normalised when first asked for (most editions leave
    few records to the passes that read them)."""

    def __init__(self, raw: Mapping[int, str]) -> None:
        super().__init__()
        self.raw = raw
        self._sentences: dict[int, tuple[str, ...]] = {}

    def __missing__(self, text_id: int) -> str:
        self[text_id] = found = normalise(self.raw[text_id])
        return found

    def sentences(self, text_id: int) -> tuple[str, ...]:
        """The text's sentences, normalised (`sentences`), split once per text."""
        found = self._sentences.get(text_id)
        if found is None:
            found = self._sentences[text_id] = sentences(self.raw[text_id])
        return found

    def content(self, text_id: int) -> str:
        """The normalised text without its pointers to other rules ("See rule 503,
        "Copying Objects.""): a part that gained one gained no content."""
        raw = self.raw[text_id]
        if "ee rule" not in raw and "ee section" not in raw:
            return self[text_id]
        return normalise(_POINTER.sub("", raw))


class Titles:
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


_QUOTES = re.compile(r"[\"“”‘’']")


#: A sentence of this many words or fewer ("(See rule 708.)") says nothing of identity.
CARRIED_WORDS = 4
_SENTENCE = re.compile(r"(?:(?<=[.!?)])|(?<=[.!?][\"”’']))\s+(?=[A-Z(“\"])")


def sentences(text: str) -> tuple[str, ...]:
    """A text's sentences, normalised, but those of CARRIED_WORDS words or fewer."""
    parts = (normalise(part) for part in _SENTENCE.split(text))
    return tuple(part for part in parts if len(part.split()) > CARRIED_WORDS)


def opening(text: str) -> str | None:
    """A text's first sentence, normalised; None if it has CARRIED_WORDS words or fewer."""
    first = normalise(_SENTENCE.split(text, maxsplit=1)[0])
    return first if len(first.split()) > CARRIED_WORDS else None


#: Likeness (0-100) at which a new sentence carries an old one (a word or two changed).
CARRIED_RATIO = 88.0


def carries_sentence(texts: Normalised, sentence: str, text_id: int) -> bool:
    """Whether a text carries a (normalised) sentence, word for word or almost."""
    from rapidfuzz import fuzz

    mine = texts.sentences(text_id)
    return sentence in mine or any(fuzz.ratio(sentence, other) >= CARRIED_RATIO for other in mine)


def singular(words: Iterable[str]) -> list[str]:
    """Words with plurals folded, as names are compared ("Teams" is "Team")."""
    return [w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w for w in words]


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
        words = singular(plain.split())
        if words:
            names.add(" ".join(words))
    return frozenset(names)


def name_similarity(old: list[str], new: list[str]) -> NDArray[np.float32]:
    """How alike the headings of glossary entries are, 0..1: the best of the edit ratio
    and the token-set ratio (which forgives a word added: "Teams" -> "Teams Variant"),
    but never more than the share of their words that are alike (`word_share`) where
    that share is under `WORDS_ALIKE`: "Floor Rules" and "World Rule" have letters in
    common, and only one word."""
    import numpy as np
    from rapidfuzz import fuzz, process

    def spelled(terms: list[str], renamed: bool) -> list[str]:
        return [" ".join(sorted(heading_names(term, renamed=renamed))) for term in terms]

    result: NDArray[np.float32] = np.zeros((len(old), len(new)), np.float32)
    words: NDArray[np.float32] = np.zeros((len(old), len(new)), np.float32)
    # With the Magic 2010 renames and without ("End of Turn" was "End of Turn Step"
    # before it was "End Step").
    for renamed in (True, False):
        a, b = spelled(old, renamed), spelled(new, renamed)
        ratio = process.cdist(a, b, scorer=fuzz.ratio, dtype=np.float32, workers=-1)
        tokens = process.cdist(a, b, scorer=fuzz.token_set_ratio, dtype=np.float32, workers=-1)
        alike = np.maximum(ratio, tokens) / np.float32(100.0)
        result = np.maximum(result, alike)
        # Only names alike enough to count are read word by word.
        for row, col in np.argwhere(alike >= WORDS_READ).tolist():
            words[row, col] = max(words[row, col], word_share(a[row], b[col]))
    veto = (result >= WORDS_READ) & (words < WORDS_ALIKE)
    result[veto] = np.minimum(result[veto], words[veto])
    return result


def defined_as(old: list[str], new: list[str]) -> NDArray[np.float32]:
    """1 where a new definition (normalised) opens with an old heading's name, plurals
    folded ("Turn-Based Action: Game actions that happen automatically..." opens with
    "Game Action"), else 0. Only names of two words or more count: "Could" opens no
    definition that is about it."""
    import numpy as np

    found: NDArray[np.float32] = np.zeros((len(old), len(new)), np.float32)
    openings = [" ".join(singular(text.split()[:6])) for text in new]
    for row, term in enumerate(old):
        for name in heading_names(term, renamed=False):
            if " " not in name:
                continue
            for col, opening in enumerate(openings):
                if opening == name or opening.startswith(name + " "):
                    found[row, col] = 1.0
    return found


def _starts(word: str, other: str) -> bool:
    return word.startswith(other) or other.startswith(word)


WORDS_READ = 0.5
"""Name likeness (0..1) from which the names are also compared word by word."""
WORDS_ALIKE = 0.6
"""Share of alike words under which names are no more alike than that share."""
_NAME_FILLERS = frozenset({"a", "an", "the", "of", "on", "to", "from", "in", "and", "or"})


def word_share(a: str, b: str) -> float:
    """The share of the words of one name or the other (fillers aside), the higher, that
    have an alike word in the other name: the same word, one the start of the other
    ("Flip" and "Flipping", "Depend" and "Dependency"), or the same but for a letter or
    two ("Landhome", "Islandhome")."""
    from rapidfuzz import fuzz

    mine = [word for word in a.split() if word not in _NAME_FILLERS]
    theirs = [word for word in b.split() if word not in _NAME_FILLERS]
    if not mine or not theirs:
        return 0.0

    def alike(word: str, others: list[str]) -> bool:
        return any(
            word == other
            or (min(len(word), len(other)) >= 3 and _starts(word, other))
            or fuzz.ratio(word, other) >= 80
            for other in others
        )

    # The better side: a name with a word added ("Order", "Damage Assignment Order") has
    # all its words in the other.
    return max(
        sum(alike(word, theirs) for word in mine) / len(mine),
        sum(alike(word, mine) for word in theirs) / len(theirs),
    )


def likeness(old: list[str], new: list[str]) -> NDArray[np.float32]:
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
        [word_ids(text, ordered=True) for text in old],
        [word_ids(text, ordered=True) for text in new],
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
def word_ids(text: str, *, ordered: bool = False) -> tuple[int, ...]:
    """A normalised text's words as ids: all of them in order, or the distinct ones sorted
    (cached: texts recur in every edition)."""
    if ordered:
        return tuple(map(_VOCABULARY.__getitem__, text.split()))
    return tuple(sorted(set(map(_VOCABULARY.__getitem__, text.split()))))


def _dice(old: list[str], new: list[str]) -> NDArray[np.float32]:
    """Dice coefficient of the word sets, for all pairs at once (one sparse product)."""
    import numpy as np

    common, old_sizes, new_sizes = _overlap(
        [word_ids(text) for text in old], [word_ids(text) for text in new]
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


def share_within(part: Iterable[int], whole: set[int]) -> float:
    """The share of a part's distinct words found in a whole."""
    distinct = set(part)
    return sum(1 for word in distinct if word in whole) / max(len(distinct), 1)


_OBSOLETE = "(obsolete)"


def is_stub(term: str) -> bool:
    """Whether a glossary heading is an "(Obsolete)" stub (any case)."""
    return _OBSOLETE in term.lower()


_REMARK = re.compile(r"\([^()]*\)")
_SENTENCE_END = re.compile(r"[.!?][)\"”’']*\s+(?=[A-Z(“\"])")


def first_words(item: Item, texts: Normalised) -> set[int]:
    """The words of a record's first sentence, remarks in parentheses left out (a
    sentence may end inside quotation marks)."""
    first = _SENTENCE_END.split(_REMARK.sub("", texts.raw[item.text_id]), maxsplit=1)[0]
    return set(word_ids(normalise(first)))


def containment(
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
