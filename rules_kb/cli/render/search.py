"""Output of `search`: hits with highlighted fragments."""

from __future__ import annotations

import html
import re
from typing import TYPE_CHECKING

from rules_kb.cli.output import Screen, Span
from rules_kb.records.search import Hit, Results

if TYPE_CHECKING:
    from rules_kb.records import Answer

_MARK = re.compile(r"<b>(.*?)</b>", re.S)


def results(out: Screen, found: Results) -> None:
    """The hits of one search, each with its fragment."""
    where = f"edition {found.filters.edition}" if found.filters.edition else "all editions"
    if found.suggestion:
        out.add("Did you mean ", (found.suggestion, "bold"), "? Showing results for it.")
    if found.match == "most":
        out.add(
            ("No entry has every word; question words (what, how, when…) were left out.", "dim")
        )
    if found.match == "any":
        out.add(("No entry has every word; these have some of them.", "dim"))
    shown = f", showing {len(found.hits)}" if len(found.hits) < found.total else ""
    noun = "match" if found.total == 1 else "matches"
    out.add((f"{found.total} {noun} in {where}{shown}", "dim"))
    for hit in found.hits:
        out.add(*_heading(hit, all_editions=found.filters.edition is None))
        out.add(*marked(hit.highlight), indent=2, hang=0)
        if found.match == "question" and hit.matched:
            out.add(("matched: " + ", ".join(hit.matched), "dim"), indent=2, hang=2)


def answer(out: Screen, found: Answer) -> None:
    """The rules that answer a question, each quoted whole, with what it matched, the
    terms the question named and where to read on."""
    out.add((f"Comprehensive Rules, edition {found.edition}", "dim"))
    for item in found.recognised:
        where = f", {', '.join(item.rules[:3])}" if item.rules else ""
        if item.words.lower() != item.term.lower() or where:
            out.add(("recognised ", "dim"), (item.words, "bold"), f": {item.term}{where}")
    if not found.answers:
        out.add(("No rule answers this question in this edition; try other words.", "warn"))
    for answered in found.answers:
        out.blank()
        label = answered.number + ("" if answered.kind == "rule" else " (glossary)")
        out.add((label, "number"), " ", answered.text, indent=0, hang=2)
        if answered.matched:
            out.add(("matched: " + ", ".join(answered.matched), "dim"), indent=2, hang=2)
    if found.see_also:
        out.blank()
        out.add(("see also: ", "dim"), ", ".join(found.see_also))


def _heading(hit: Hit, *, all_editions: bool) -> list[Span]:
    spans: list[Span] = [(hit.label, "number")]
    if hit.kind != "rule":
        spans.append((f" ({hit.kind})", "dim"))
    if all_editions:
        first, last, count = hit.editions[0], hit.editions[-1], len(hit.editions)
        plural = "s" if count > 1 else ""
        spans.append((f"  {first} → {last} ({count} edition{plural})", "dim"))
    return spans


def marked(highlight: str) -> list[Span]:
    """A fragment's spans: <b>match</b> highlighted; the rest unescaped from HTML."""
    parts = _MARK.split(highlight)
    return [
        (html.unescape(part), "match" if index % 2 else "")
        for index, part in enumerate(parts)
        if part
    ]
