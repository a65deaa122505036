"""The records an edition is made of: frozen, slotted dataclasses."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

RuleKind = Literal["section", "chapter", "rule", "subrule"]

_NUMBER = re.compile(r"^(\d{1,3})(?:\.(\d+)([a-z]*))?$")


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
    """Numeric order of rule numbers: 100.2 < 100.10, 704.5z < 704.5aa."""
    match = _NUMBER.match(number)
    if not match:
        return (10**6, 0, 0, number)
    head, minor, letters = match.groups()
    return (int(head), int(minor) if minor else -1, len(letters or ""), letters or "")


def normalise_number(raw: str) -> str:
    """Accept "702.19", "702.19.", "rule 702.19", "702.19B" and return "702.19" / "702.19b"."""
    value = raw.strip()
    value = re.sub(r"^(?:rules?|r\.?)\s*", "", value, flags=re.I).strip().rstrip(".")
    return value.lower()


def is_number(raw: str) -> bool:
    """Whether a query looks like a rule, chapter or section number."""
    return bool(_NUMBER.match(normalise_number(raw)))
