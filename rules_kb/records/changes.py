"""The records of `changes`: the real changes of every edition in a span."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from rules_kb.records.diff import Change
from rules_kb.records.shape import Record


@dataclass(frozen=True, slots=True)
class EditionChanges(Record):
    """The real changes of one edition against the edition before it."""

    edition: str
    """The edition's date."""
    previous: str
    """The date of the edition before it."""
    changes: tuple[Change, ...]
    """Its changes that touch what was asked for, rules first, typography apart."""


@dataclass(frozen=True, slots=True)
class Changes:
    """The real changes of every edition in a span, oldest edition first."""

    since: str
    """The first day of the span (an edition in force from then on is in it)."""
    until: str
    """The last edition of the span."""
    editions: tuple[EditionChanges, ...]
    """Every edition of the span, each with its changes (possibly none)."""
    scope: dict[str, str]
    """What was asked for: {"chapter": "702"}, {"rule": "702.19"}, {"term": …} or {}."""

    def as_json(self) -> dict[str, Any]:
        """The SPEC shape of `changes --json`."""
        return {
            "since": self.since,
            "until": self.until,
            **self.scope,
            "editions": [edition.as_json() for edition in self.editions],
        }

    @property
    def count(self) -> int:
        """How many changes the span holds."""
        return sum(len(edition.changes) for edition in self.editions)


def chapters(change: Change) -> set[str]:
    """Where a rule change stands, on either side: the chapter of each of its numbers
    ("702"), or the section itself for a section's heading ("7"); none for the glossary."""
    if change.kind == "glossary":
        return set()
    return {key.split(".", 1)[0] for key in (change.old_key, change.new_key) if key}


def in_chapter(change: Change, chapter: str) -> bool:
    """Whether a rule change is in a chapter ("702") or a section ("7") on either side."""
    return any(found[: len(chapter)] == chapter for found in chapters(change))


def in_rule(change: Change, old: str | None, new: str | None) -> bool:
    """Whether a change is of the rule (or one of its subrules) numbered `old` before and
    `new` after."""

    def under(key: str | None, number: str | None) -> bool:
        return (
            key is not None
            and number is not None
            and (key == number or (key.startswith(number) and key[len(number) :].isalpha()))
        )

    return under(change.old_key, old) or under(change.new_key, new)


#: Keyword rules: the keyword actions (701.N) and keyword abilities (702.N).
KEYWORD_RULE = re.compile(r"70[12]\.\d+")


def rule_of(key: str) -> str:
    """The rule a rule number belongs to: 702.19b -> 702.19 (702.19 stays)."""
    return key.rstrip("abcdefghijklmnopqrstuvwxyz")


def by_rule(edition: EditionChanges) -> dict[str, list[Change]]:
    """An edition's rule changes by the rule they belong to, on either side (a change
    from 502.9b to 702.19b is under both 502.9 and 702.19): `in_rule` as a lookup."""
    found: dict[str, list[Change]] = {}
    for change in edition.changes:
        if change.kind == "glossary":
            continue
        for rule in {rule_of(key) for key in (change.old_key, change.new_key) if key}:
            found.setdefault(rule, []).append(change)
    return found
