"""The real changes of every edition in a span, typography apart: `rules-kb changes`.

A change is real as the stored lineage says (`Change.real`): not typography alone, nor
the rule numbers a text cites, renumbered with the rules, while it keeps its number.

Each edition of the span is compared with the edition before it, as `diff` compares
them (the stored lineage of neighbours), and its changes are kept when they touch what
was asked for: a chapter (or section), a rule and its subrules followed through their
renumberings, or a glossary entry followed through its renames.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rules_kb.read.diff import Library, diff
from rules_kb.records.changes import Changes, EditionChanges, in_chapter, in_rule

if TYPE_CHECKING:
    from rules_kb.read.history import Lineage


def changes(
    library: Library,
    lineage: Lineage,
    dates: Sequence[str],
    since: str,
    until: str,
    *,
    chapter: str | None = None,
    rule: str | None = None,
    term: str | None = None,
) -> Changes:
    """The real changes of the editions dated from `since` to `until` (dates of stored
    editions, oldest first, in `dates`). `rule` and `term` are named as `until` has them;
    their earlier numbers and names come from the lineage. A chapter ("702") or a section
    ("7") given as `rule` is taken as `chapter`: the rules in it, not its heading alone."""
    if rule is not None and chapter is None and "." not in rule:
        chapter, rule = rule, None
    found: list[EditionChanges] = []
    for index, day in enumerate(dates):
        if index == 0 or not since <= day <= until:
            continue
        previous = dates[index - 1]
        result = diff(library, previous, day)
        everything = [c for c in (*result.rules, *result.glossary) if c.real]
        if chapter is not None:
            kept = [c for c in result.rules if c.real and in_chapter(c, chapter)]
        elif rule is not None:
            old, new = (
                _counterpart(lineage, "rule", rule, until, side) for side in (previous, day)
            )
            kept = [c for c in result.rules if c.real and in_rule(c, old, new)]
        elif term is not None:
            old, new = (
                _counterpart(lineage, "glossary", term, until, side) for side in (previous, day)
            )
            kept = [c for c in result.glossary if c.real and (c.old_key == old or c.new_key == new)]
        else:
            kept = everything
        found.append(EditionChanges(day, previous, tuple(kept)))
    scope = {
        name: value
        for name, value in (("chapter", chapter), ("rule", rule), ("term", term))
        if value is not None
    }
    return Changes(since, until, tuple(found), scope)


def _counterpart(lineage: Lineage, kind: str, key: str, edition: str, day: str) -> str | None:
    """The number (or term) in `day` of the record `key` of `edition`, or None."""
    found = lineage.where("rule" if kind == "rule" else "glossary", key, edition, day)
    return found.now
