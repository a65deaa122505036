"""Word diffs: diff-match-patch over words, for `diff`, `history` and `cite`.

diff-match-patch diffs characters. Each word and punctuation mark is mapped to one
private-use character (its lines-to-chars trick applied to words), so its bisection and
semantic cleanup work on words. Whitespace is not a token: each word carries the spaces
in front of it, which are put back afterwards. That halves the sequences the bisection
walks (its cost grows with their length times the edit distance), and a space never
pairs with another space by accident.

A batch of many diffs (an edition's worth, as in the 2009 overhaul) is spread over the
free cores when the process may fork.
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Iterable, Sequence

from rules_kb.typography import WEB_ADDRESS, is_mark, key, same_wording, unquoted

WordOp = tuple[str, str]

DIFF_TIMEOUT = 0.0
"""diff-match-patch's time limit per diff. Its default, 1 s, silently degrades large
diffs; a rule is at most a few hundred words, so no limit (0) is both exact and fast."""

PARALLEL_CHARACTERS = 80_000
"""A batch of diffs over at least this many characters (old and new) is split over
processes; below it, starting them costs more than they save."""

#: A token: a web address with or without the angle brackets some editions put around
#: it, a symbol ("{T}", "{oT}", "{2/W}"), a word, one mark, or a typographic unit of
#: several marks ("(tm)", "--", "...", "..") that `typography.key` equates with one
#: character ("™", "—", "…", ".").
_WORD = re.compile(
    r"(\s*)(<"
    + WEB_ADDRESS
    + r">|"
    + WEB_ADDRESS
    + r"|\{[^{}\s]{1,6}\}|\((?:tm|TM|Tm|r|R|c|C)\)|--+|\.\.\.?|\w+|[^\w\s])",
    re.IGNORECASE,
)
_PRIVATE_USE = 0xF0000  # plane 15: one code point per distinct token, never in the text
_SYMBOLS = {-1: "-", 0: "=", 1: "+"}


def word_diff(old: str, new: str) -> tuple[WordOp, ...]:
    """The word diff of two texts: ("=", kept), ("-", deleted) and ("+", inserted)
    runs, in order; the kept and inserted runs join to `new`, the kept and deleted ones
    to `old` up to typography. A replacement lists its deletion first.

    Typography is never a change (`rules_kb.typography`): a curly apostrophe against a
    straight one, a dash against a hyphen, quotation marks put around a term or taken
    off it, or other white space between two words is kept, and a kept run is written as
    the new text has it. Words joined or parted (a
    space where there was none) are a change; a space put on or taken off beside a quote
    or a dash is not ("happen -- they" is "happen—they").
    """
    from diff_match_patch import diff_match_patch

    if same_wording(old, new):
        return (("=", new),) if new else ()

    engine = diff_match_patch()
    engine.Diff_Timeout = DIFF_TIMEOUT
    old_spaces, old_words, _ = _split(old)
    new_spaces, new_words, new_tail = _split(new)
    vocabulary: dict[str, str] = {}
    encoded_old = "".join(_codes(old_words, vocabulary))
    encoded_new = "".join(_codes(new_words, vocabulary))
    diffs = engine.diff_main(encoded_old, encoded_new, False)
    engine.diff_cleanupSemantic(diffs)
    runs: list[list[str]] = []
    at_old = at_new = 0
    quoted = False  # quotation marks alone were just put in or taken out
    for op, chunk in diffs:
        count = len(chunk)
        if op == 0:
            for offset in range(count):
                before, after = old_spaces[at_old + offset], new_spaces[at_new + offset]
                if (
                    bool(before) != bool(after)
                    and not (quoted and offset == 0)  # 'a bands' is 'a "bands'
                    and not _beside_mark(old_words, at_old + offset, new_words, at_new + offset)
                ):  # words joined or parted: not typography
                    _add(runs, "-", before)
                    _add(runs, "+", after)
                    _add(runs, "=", new_words[at_new + offset])
                else:
                    _add(runs, "=", after + new_words[at_new + offset])
            at_old += count
            at_new += count
            quoted = False
        elif op < 0:
            quoted = _quotation(old_words[at_old : at_old + count])
            if not quoted:
                _add(runs, "-", _joined(old_spaces, old_words, at_old, count))
            at_old += count
        else:
            quoted = _quotation(new_words[at_new : at_new + count])
            _add(runs, "=" if quoted else "+", _joined(new_spaces, new_words, at_new, count))
            at_new += count
    _add(runs, "=", new_tail)
    return _tidy(runs)


def word_diffs(pairs: Sequence[tuple[str, str]]) -> list[tuple[WordOp, ...]]:
    """`word_diff` of each (old, new) pair, in order; a large batch runs on several
    cores when this process may fork and has no other thread (as a server has)."""
    workers = _workers(pairs)
    if workers < 2:
        from rules_kb.giving_up import checkpoint

        found = []
        for old, new in pairs:
            checkpoint()
            found.append(word_diff(old, new))
        return found
    import multiprocessing

    chunk = max(1, len(pairs) // (workers * 8))
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        return pool.starmap(word_diff, pairs, chunksize=chunk)


def _workers(pairs: Sequence[tuple[str, str]]) -> int:
    if sum(len(old) + len(new) for old, new in pairs) < PARALLEL_CHARACTERS:
        return 1
    if threading.active_count() > 1 or not hasattr(os, "fork"):
        return 1
    from rules_kb.cores import usable

    return min(usable(), 4)


def _split(text: str) -> tuple[list[str], list[str], str]:
    """The spaces before each word, the words, and the whitespace after the last."""
    found = _WORD.findall(text)
    spaces = [space for space, _ in found]
    words = [word for _, word in found]
    consumed = sum(len(space) + len(word) for space, word in found)
    return spaces, words, text[consumed:]


#: The angle brackets of a placeholder ("<name>") are its square ones ("[name]"), as
#: `typography.key` reads them in a whole text.
_BRACKETS = {"<": "[", ">": "]"}


def _codes(words: Iterable[str], vocabulary: dict[str, str]) -> Iterable[str]:
    """One code per token, typography folded: "’" and "'" are the same token."""
    for word in words:
        folded = key(word) if not word.isalnum() else word
        folded = _BRACKETS.get(folded, folded)
        code = vocabulary.get(folded)
        if code is None:
            code = vocabulary[folded] = chr(_PRIVATE_USE + len(vocabulary))
        yield code


#: Quotation marks, straight or curly, double or single.
_QUOTATION_MARKS = frozenset("\"“”'‘’")


def _quotation(tokens: Sequence[str]) -> bool:
    """Whether tokens put in or taken out are quotation marks alone: a term put in quotes
    is the same wording (`typography.same_wording`), inside a real change too."""
    return all(token in _QUOTATION_MARKS for token in tokens)


def _beside_mark(old: Sequence[str], at_old: int, new: Sequence[str], at_new: int) -> bool:
    """Whether the space before a kept word stands beside a quote or dash on both sides:
    the word is one, or the word before it is one in both texts."""
    if is_mark(new[at_new]):
        return True
    return at_old > 0 and at_new > 0 and is_mark(old[at_old - 1]) and is_mark(new[at_new - 1])


def _joined(spaces: Sequence[str], words: Sequence[str], start: int, count: int) -> str:
    return "".join(spaces[i] + words[i] for i in range(start, start + count))


def _add(runs: list[list[str]], op: str, text: str) -> None:
    if not text:
        return
    if runs and runs[-1][0] == op:
        runs[-1][1] += text
    else:
        runs.append([op, text])


def _tidy(runs: list[list[str]]) -> tuple[WordOp, ...]:
    """Each stretch between kept runs becomes one deletion then one insertion, and the
    spaces a word carried in front move to where a reader expects them: a replacement's
    shared leading space into the kept text before it, an insertion's leading space to
    its end when the kept text after it starts with the same space."""
    out: list[list[str]] = []
    index = 0
    while index < len(runs):
        if runs[index][0] == "=":
            _add(out, "=", runs[index][1])
            index += 1
            continue
        end = index
        while end < len(runs) and runs[end][0] != "=":
            end += 1
        deleted = "".join(text for op, text in runs[index:end] if op == "-")
        inserted = "".join(text for op, text in runs[index:end] if op == "+")
        if deleted.strip() and inserted.strip() and unquoted(deleted) == unquoted(inserted):
            _add(out, "=", inserted)  # a term put in quotes, or taken out of them
            deleted = inserted = ""
        elif deleted and inserted:
            space = _shared_space(deleted, inserted)
            _add(out, "=", space)
            deleted, inserted = deleted[len(space) :], inserted[len(space) :]
        else:
            alone = deleted or inserted
            space = _leading_space(alone)
            following = runs[end] if end < len(runs) else None
            if space and following is not None and following[1].startswith(space):
                _add(out, "=", space)
                alone = alone[len(space) :] + space
                following[1] = following[1][len(space) :]
            deleted, inserted = (alone, "") if deleted else ("", alone)
        _add(out, "-", deleted)
        _add(out, "+", inserted)
        index = end
    return tuple((op, text) for op, text in out)


def _shared_space(first: str, second: str) -> str:
    """The whitespace both texts start with."""
    ours, theirs = _leading_space(first), _leading_space(second)
    length = 0
    while length < min(len(ours), len(theirs)) and ours[length] == theirs[length]:
        length += 1
    return ours[:length]


def _leading_space(text: str) -> str:
    return text[: len(text) - len(text.lstrip())]
