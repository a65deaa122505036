"""The read-only queries: what `show` reads of a rule without making its record."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules_kb.read.query import Links, Reader


@pytest.mark.parametrize("edition", ["1999-04-23", "2009-05-01", "2009-07-11", "2026-08-07"])
def test_links_say_what_the_rule_record_says(all_editions_db: Path, edition: str) -> None:
    """`links` is `rule`'s parent and citations without the subtree: for every number of
    an edition (a repeated number answers with its first printing, as `rule` does)."""
    reader = Reader(all_editions_db)
    try:
        numbers = reader.numbers(edition)
        assert len(numbers) > 400
        cited = 0
        for number in numbers:
            record = reader.rule(number, edition)
            assert reader.links(number, edition) == Links(record.parent, record.cites), number
            cited += bool(record.cites)
        assert cited > 40  # (rules that cite others, with their examples' citations)
    finally:
        reader.close()
