"""The records an edition is made of: frozen, slotted dataclasses."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

from rules_kb.errors import BadRuleNumber

RuleKind = Literal["section", "chapter", "rule", "subrule"]

#: The longest parts a rule number has: "702.190", "704.5aa" (a little room to grow).
MAX_HEAD_DIGITS, MAX_MINOR_DIGITS, MAX_LETTERS = 3, 4, 2
#: No way of writing a rule number ("Comprehensive Rules § 702.190aa.") is longer.
MAX_WRITTEN = 64

#: A section, a chapter and a rule number, whole (what `descends` tells apart).
_SECTION = re.compile(r"[1-9]")
_CHAPTER = re.compile(r"[0-9]{3}")
_RULE = re.compile(r"[0-9]{3}\.[0-9]+")
#: A number as stored: "7", "702", "702.19", "702.19b", "704.5aa", and "306.b", a typo
#: printed in 2008-10-01 (a letter straight after the chapter's dot).
_NUMBER = re.compile(r"([0-9]{1,3})(?:\.([0-9]{1,4})?([a-z]{0,2}))?", re.ASCII)
#: A number as people write it: "CR 702.19", "§ 702.19b", "rule 702.19b.", "r702.19",
#: "702.19(b)", "702.19 b", "702,19", "Rule 702.19B". Bounded quantifiers only, so
#: that a 100,000-digit "number" fails at its fourth or fifth digit.
_WRITTEN = re.compile(
    r"(?:(?:cr|rules?|r)\.?[ \t]*)?(?:§[ \t]*)?"
    r"(?P<head>[0-9]{1,3})"
    r"(?:[.,](?:(?P<minor>[0-9]{1,4})(?:[ \t]?\(?(?P<letters>[a-z]{1,2})\)?)?"
    r"|(?P<bare>[a-z]{1,2}))?)?"
    r"\.?",
    re.ASCII | re.IGNORECASE,
)
#: Anything that is clearly meant as a number, to refuse it clearly when it is too long.
_NUMERIC = re.compile(
    r"(?:(?:cr|rules?|r)\.?[ \t]*)?(?:§[ \t]*)?[0-9]+(?:[.,][0-9]*)?[a-z]*\.?",
    re.ASCII | re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class Rule:
    """One numbered node of the rules tree: a section, chapter, rule or subrule."""

    number: str
    """As printed, without a trailing dot: "7", "702", "702.19", "702.19b", "704.5aa"."""
    kind: RuleKind
    """Where it sits in the tree."""
    text: str
    """The text after the number (a heading's title for sections and chapters)."""
    parent: str | None
    """The number of the enclosing node; None for sections."""
    examples: tuple[str, ...] = ()
    """The rule's examples in order, without the leading "Example: "."""
    line: int = 0
    """The 1-based line of the decoded text the rule starts on."""


@dataclass(frozen=True, slots=True)
class GlossaryEntry:
    """One glossary entry; "Kicker, Kicked" is one entry with two names."""

    term: str
    """The heading as printed."""
    text: str
    """The definition; paragraphs and numbered senses separated by newlines."""
    line: int = 0
    """The 1-based line of the decoded text the entry starts on."""

    @property
    def names(self) -> tuple[str, ...]:
        """Every name the entry goes by ("Kicker, Kicked" -> "Kicker", "Kicked")."""
        return glossary_names(self.term)


def glossary_names(term: str) -> tuple[str, ...]:
    """The names a glossary heading stands for: itself without a trailing "(Obsolete)"-like
    note, and each comma-separated part ("Kicker, Kicked" -> "Kicker", "Kicked")."""
    bare = re.sub(r"\s*\([^)]*\)\s*$", "", term)
    names = [bare, *(part.strip() for part in bare.split(","))]
    return tuple(dict.fromkeys(name for name in names if name))


@dataclass(frozen=True, slots=True)
class Edition:
    """One published edition of the Comprehensive Rules, parsed."""

    date: str
    """Effective date, YYYY-MM-DD, read from the text."""
    title: str
    """The document title as printed in its first line."""
    intro: str
    """The front matter before the table of contents."""
    rules: tuple[Rule, ...]
    """Sections, chapters, rules and subrules in document order."""
    glossary: tuple[GlossaryEntry, ...]
    """Glossary entries in document order."""
    credits: str
    """The credits and everything after them, as one text."""
    index: str = ""
    """The index of early editions (1999), one line per entry."""
    body_lines: int = 0
    """Non-blank lines after the table of contents."""
    unparsed: tuple[tuple[int, str], ...] = ()
    """Body lines no record took: (line number, text)."""
    warnings: tuple[str, ...] = field(default=())
    """Damage, oddities and leftovers found while reading, one sentence each."""

    @property
    def example_count(self) -> int:
        """How many examples the rules carry."""
        return sum(len(rule.examples) for rule in self.rules)


def sort_key(number: str) -> tuple[int, int, int, str]:
    """Numeric order of rule numbers: 100.2 < 100.10, 704.5z < 704.5aa; a printed typo
    such as 306.b sorts after its chapter and before 306.1. Anything else sorts last."""
    match = _NUMBER.fullmatch(number)
    if not match:
        return (10**6, 0, 0, number)
    head, minor, letters = match.groups()
    return (int(head), int(minor) if minor else -1, len(letters or ""), letters or "")


def descends(number: str, ancestor: str) -> bool:
    """Whether a rule number sits under another: 613.1b under 613.1, 613.1 under 613
    and under 6. A subrule has nothing under it; a term is no number."""
    if not number.startswith(ancestor) or number == ancestor:
        return False
    rest = number[len(ancestor) :]
    if _SECTION.fullmatch(ancestor):
        return bool(_CHAPTER.match(number))
    if _CHAPTER.fullmatch(ancestor):
        return rest.startswith(".") and len(rest) > 1
    if _RULE.fullmatch(ancestor):
        return rest.isascii() and rest.isalpha()
    return False


def normalise_number(raw: str) -> str:
    """The stored form of a rule number as people write it.

    "702.19", "702.19.", "rule 702.19b.", "Rule 702.19B", "r702.19", "CR 702.19",
    "§702.19b", "§ 702.19b", "702.19(b)", "702.19 b" and "702,19" become "702.19" or
    "702.19b". Text that is no number comes back stripped and lower-cased, for the
    caller's "no rule ..." message; a number longer than any rule number can be, or
    any text longer than `MAX_WRITTEN` characters, raises BadRuleNumber.
    """
    value = raw.strip()
    match = _WRITTEN.fullmatch(value) if len(value) <= MAX_WRITTEN else None
    if match is None:
        if _NUMERIC.fullmatch(value):
            raise BadRuleNumber(
                f"{_shown(value)} is not a rule number: rule numbers have at most "
                f"{MAX_HEAD_DIGITS} digits before the dot, {MAX_MINOR_DIGITS} after it "
                f"and {MAX_LETTERS} letters"
            )
        if len(value) > MAX_WRITTEN:
            raise BadRuleNumber(f"{_shown(value)} is not a rule number: it is far too long")
        return value.rstrip(".").lower()
    head, minor, letters, bare = match.group("head", "minor", "letters", "bare")
    if minor is not None:
        return f"{head}.{minor}{(letters or '').lower()}"
    return f"{head}.{bare.lower()}" if bare else head


def range_end(start: str, end: str) -> str:
    """The end of a range as written after its start: its letters alone where both stand
    under one rule ("702.19a–b"), else the whole number ("702.19b–702.20")."""
    stem = end.rstrip(_LETTERS)
    return end[len(stem) :] if stem == start.rstrip(_LETTERS) and stem != end else end


_LETTERS = "abcdefghijklmnopqrstuvwxyz"

SUBRULE_LETTERS = "abcdefghijkmnpqrstuvwxyz"
"""The letters of subrules in order: the rules never letter one "l" or "o"."""


def is_number(raw: str) -> bool:
    """Whether a query is a rule, chapter or section number in one of the written forms
    `normalise_number` accepts ("702 and trample" and "2 players" are not)."""
    value = raw.strip()
    return len(value) <= MAX_WRITTEN and _WRITTEN.fullmatch(value) is not None


def _shown(value: str, limit: int = 24) -> str:
    return repr(value if len(value) <= limit else value[:limit] + "…")
