"""How a ranking is scored against the labelled questions (tests/fixtures/questions.toml);
shared by tests/site/test_site.py and bench/questions.py.

A hit answers a question strictly when it is a labelled number, leniently also when it
is the labelled number's parent or one of its subrules (702.19 for 702.19b, or the other
way round).
"""

from __future__ import annotations

import re
from collections.abc import Sequence


def parent(number: str) -> str | None:
    """The number of the rule a number sits in: 702.19b -> 702.19 -> 702 -> 7."""
    if re.fullmatch(r"\d{3}\.\d+[a-z]+", number):
        return number.rstrip("abcdefghijklmnopqrstuvwxyz")
    if re.fullmatch(r"\d{3}\.\d+", number):
        return number.split(".")[0]
    return None


def close(number: str, other: str) -> bool:
    """Whether two rule numbers name the same answer, leniently (one is the other's
    parent)."""
    return number == other or parent(number) == other or parent(other) == number


def answers(found: Sequence[str], wanted: Sequence[str], *, lenient: bool) -> int | None:
    """The 1-based rank of the first answering hit, or None."""
    for rank, number in enumerate(found, 1):
        for answer in wanted:
            if number == answer or (lenient and close(number, answer)):
                return rank
    return None
