"""Typography folded for comparison and search; storage keeps the text as published.

Two texts are "the same but for typography" when they have the same `key`. The
classes folded were found by diffing every pair of consecutive editions, rule by
rule (`tests/test_typography.py` has one case per class):

- quotes: straight, curly, primes, backticks (' " ‘ ’ “ ” ′ ″ `);
- dashes: hyphen, en and em dash, minus, the double hyphen of pre-2009 editions
  ("--"), with or without spaces around them;
- a "?" or U+FFFD where a damaged copy lost one of those (2008-05-01's "player?s");
- trademark signs: ™ ® © and their spelled forms "(tm)", "(r)", "(c)"; and the ™ that
  the copies of 2001-07-23 to 2002-02-20 lost as a "T" or a U+FFFD glued to the name
  ("OracleT", "Oracle" and a U+FFFD, "DCIT"), after a capitalised word or DCI, never before a
  letter or an apostrophe; and "TM" glued to an italic name ("_Odyssey_TM" of 2009-07-11
  and 2011-07-15);
- the ellipsis character against three dots, and a full stop printed twice against once
  ("main phases.." of the glossary's "Main Phase" of 1999-11-01);
- underscores used as italic markup ("_Magic_");
- the "o" inside a symbol that the editions of 2003-07-01 to 2004-10-01 print ("{oT}",
  "{o1}" are "{T}", "{1}");
- angle brackets around a web address ("found at <www.wizards.com/wpn/Events/Rules.aspx>"),
  which editions put on and took off, back and forth, from 2009 to 2014;
- angle brackets around a placeholder against square ones ("Protection from <quality>"
  of 1999-04-23 is "Protection from [quality]" of 1999-11-01);
- white space: runs of spaces, line breaks between paragraphs, no-break spaces;
- a full stop put inside a closing quotation mark or parenthesis or after it
  ('(such as "Shuffle your hand into your library.")' of 400.10, 2009-07-11, is
  '(such as "Shuffle your hand into your library").' of 400.11, 2009-09-04);
- quotation marks put around a term or taken off it (`same_wording` compares texts
  without them too): "a bands with other ability" of 2009-05-01 is 'a "bands with other"
  ability' of 2009-07-11.
"""

from __future__ import annotations

import re
from functools import lru_cache

#: Curly quotes, en and em dashes and the non-breaking hyphen, as their ASCII forms.
_FOLD = (("‘", "'"), ("’", "'"), ("“", '"'), ("”", '"'), ("–", "-"), ("—", "-"), ("‑", "-"))

#: Quotes, dashes and the marks damaged copies put in their place: one class in `key`.
_MARK = "\x00"
_MARKS = re.compile("[" + re.escape("'\"‘’‚‛“”„‟′″`´?\ufffd-‐‑‒–—―−") + "]")
_TRADEMARK = re.compile(r"\((?:tm|TM|Tm|r|R|c|C)\)|[™®©]")
#: A ™ lost as a "T" or U+FFFD glued to the name it follows: a capitalised word with a
#: lowercase second letter ("GREAT" keeps its T), or DCI, the one trademark in capitals.
#: Or spelled "TM" against the underscore of italics ("_Odyssey_TM", 2009 and 2011).
_GLUED_TRADEMARK = re.compile(r"\b([A-Z][a-z][A-Za-z]*|DCI)[T\ufffd](?![\w'\ufffd])|(?<=_)TM\b")
_ITALIC = re.compile(r"(?<![^\W_])_+|_+(?![^\W_])")
_DOUBLE_HYPHEN = re.compile(r"--+")
#: A full stop and the closing marks (quotes, dashes, parentheses) it stands before,
#: which `key` writes after them. Not a comma: no two records differ by one moved alone,
#: and moving it would change how `rules_kb.ingest.lineage` reads a closing cross-reference
#: that names two rules ('See rule 409, "Playing Spells," and rule 413, ...').
_STOP_INSIDE = re.compile(r"(\.)((?:\x00|\))+)")
#: Two full stops, no third: a typing slip, never an ellipsis.
_DOUBLED_STOP = re.compile(r"(?<!\.)\.\.(?!\.)")
#: A web address as the rules print one, without the punctuation closing its sentence.
WEB_ADDRESS = (
    r"(?:https?://|(?=[\w-]+\.[\w.-]*\b(?:com|org|net)\b))[\w-]+(?:\.[\w-]+)*"
    r"(?:/(?:[^\s<>()]*[^\s<>().,;:!?\"'])?)*"
)
_WEB_ADDRESS = re.compile(r"<(" + WEB_ADDRESS + r")>", re.IGNORECASE)
#: A placeholder in angle brackets: a few words, no address (those go first).
_PLACEHOLDER = re.compile(r"<([^<>\s][^<>]{0,40})>")
_OLD_SYMBOL = re.compile(r"\{o([0-9A-Z][^{}\s]{0,4})\}")
_TRADEMARK_HINTS = ("(", "™", "®", "©")


def fold(text: str) -> str:
    """The text with curly quotes and dashes made straight.

    A replace per character present, not `str.translate`: on a text with any non-ASCII
    character, translate looks every character up in its table (about 20 times slower)."""
    for curly, straight in _FOLD:
        if curly in text:
            text = text.replace(curly, straight)
    return text


def plain(text: str) -> str:
    """The text with typography folded and white space collapsed."""
    return " ".join(fold(text).split())


@lru_cache(maxsize=65536)
def key(text: str) -> str:
    """The text with every typographic class above folded: equal keys, equal wording.

    Cached: the same texts recur in every edition.
    """
    folded = text
    if any(hint in folded for hint in _TRADEMARK_HINTS):
        folded = _TRADEMARK.sub("", folded)
    folded = _GLUED_TRADEMARK.sub(r"\1", folded)
    if "…" in folded:
        folded = folded.replace("…", "...")
    if ".." in folded:
        folded = _DOUBLED_STOP.sub(".", folded)
    if "_" in folded:
        folded = _ITALIC.sub("", folded)
    if "--" in folded:
        folded = _DOUBLE_HYPHEN.sub("-", folded)
    if "<" in folded:
        folded = _PLACEHOLDER.sub(r"[\1]", _WEB_ADDRESS.sub(r"\1", folded))
    if "{o" in folded:
        folded = _OLD_SYMBOL.sub(r"{\1}", folded)
    folded = " ".join(_MARKS.sub(_MARK, folded).split())
    if "." + _MARK in folded or ".)" in folded:
        folded = _STOP_INSIDE.sub(r"\2\1", folded)
    # White space next to a quote or dash is typography too ("a -- b", "a—b").
    return folded.replace(" " + _MARK, _MARK).replace(_MARK + " ", _MARK)


def heading_key(term: str) -> str:
    """The `key` of a heading as a name: a pair of quotes around the whole of it dropped
    ('"As Though"' of 2009-05-01 is "As Though"); quotes and apostrophes inside it stay
    ("Player's" is not "Players")."""
    folded = key(term)
    if len(folded) > 1 and folded[0] == folded[-1] == _MARK:
        return folded[1:-1]
    return folded


def is_mark(token: str) -> bool:
    """Whether a token is one quote or dash (or a mark a damaged copy left for one): the
    class `key` folds, white space next to it included."""
    return key(token) == _MARK


#: A single quote at a word's edge, where it opens or closes a quotation ("'If'"); one
#: inside a word is an apostrophe ("player's") and stays.
_SINGLE_QUOTE = re.compile(r"(?<![\w'])'(?=\w)|(?<=[\w.,!?;:)\]])'(?![\w'])")


def unquoted(text: str) -> str:
    """The `key` of a text with its quotation marks left out: a term put in quotes, or
    taken out of them, is the same wording ('a "bands with other" ability' of 2009-07-11
    is 'a bands with other ability' of 2009-05-01). Apostrophes stay."""
    folded = fold(text)
    if '"' in folded:
        folded = folded.replace('"', "")
    if "'" in folded:
        folded = _SINGLE_QUOTE.sub("", folded)
    return key(folded)


def spaced_alike(old: str, new: str) -> bool:
    """Whether two texts differ at most in their white space: a line break where a space
    was, or two spaces for one ("Untap" of the glossary, 2002-02-20 and 2002-10-07). Such
    texts are the same text, not even a change of typography."""
    return old.split() == new.split()


def same_wording(old: str, new: str) -> bool:
    """Whether two texts differ at most in typography: the same `key`, or the same once
    their quotation marks are left out (`unquoted`)."""
    if old == new:
        return True
    folded, other = key(old), key(new)
    if folded == other:
        return True
    # Only where the keys differ in marks and spaces alone can the quotes be the change
    # (most texts that differ differ in words: they are not read again).
    if _bare(folded) != _bare(other):
        return False
    return unquoted(old) == unquoted(new)


def _bare(folded: str) -> str:
    """A key without its marks and spaces."""
    return folded.replace(_MARK, "").replace(" ", "")
