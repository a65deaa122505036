"""What a one-byte mutant of an edition changed: shared by tests/ingest/test_fuzz.py and
bench/hostile.py, which count the same things."""

from __future__ import annotations

import re
from typing import Any

from rules_kb.ingest.models import Edition


def records(edition: Edition) -> list[tuple[Any, ...]]:
    """Everything parsed, in order, without line numbers (a new line break moves them)."""
    items: list[tuple[Any, ...]] = [
        ("title", edition.title),
        ("date", edition.date),
        ("intro", edition.intro),
    ]
    items += [("rule", r.number, r.kind, r.parent, r.text, r.examples) for r in edition.rules]
    items += [("term", entry.term, entry.text) for entry in edition.glossary]
    items += [("index", edition.index), ("credits", edition.credits)]
    return items


def changed(before: list[tuple[Any, ...]], after: list[tuple[Any, ...]]) -> int:
    """How many records differ: what is left between the common start and end."""
    shortest = min(len(before), len(after))
    head = 0
    while head < shortest and before[head] == after[head]:
        head += 1
    tail = 0
    while tail < shortest - head and before[-1 - tail] == after[-1 - tail]:
        tail += 1
    return max(len(before) - head - tail, len(after) - head - tail)


def masked_warnings(edition: Edition, decoded: Any) -> set[str]:
    """The warnings, with numbers masked (line numbers move with a new line break)."""
    return {re.sub(r"\d+", "#", w) for w in (*decoded.warnings, *edition.warnings)}
