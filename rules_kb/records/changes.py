"""The records of `changes`: the real changes of every edition in a span."""

from __future__ import annotations

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
