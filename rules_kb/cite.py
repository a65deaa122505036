"""The citation checker: find the CR citations of a document and follow each through the
lineage from the edition in force when it was written to another one (today's).

Citations with a lead word ("rule 702.19b", "rules 603.7d–f", "see 702.19", "section
7") are found by the reference grammar (`rules_kb.refs`); the bare forms that articles
use are found here: "CR 702.19b", "§702.19b", "702.19(b)", "Comprehensive Rules
702.19b" and a bare dotted number "702.19b". A range is checked at both ends.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass

from rules_kb.history import Lineage
from rules_kb.models import normalise_number
from rules_kb.records import Citation, CitationReport, CitationStatus

#: A bare citation: an optional lead, a dotted number (three-digit chapter), and
#: letters glued or in parentheses; never inside a longer number, a price or a version.
_BARE = re.compile(
    r"(?:(?P<lead>\bCR\s*|\bComprehensive\s+Rules?\s+|§\s*))?"
    r"(?<![\w.$/#-])(?P<base>[1-9]\d{2}\.\d{1,3})(?:(?P<letters>[a-z]{1,2})|\((?P<paren>[a-z]{1,2})\))?"
    r"(?![\w%]|\.\d)"
)
#: A chapter or section cited with a lead word the grammar does not know ("CR 702").
_LEAD_CHAPTER = re.compile(r"(?:\bCR\s*|§\s*)(?P<base>[1-9]\d{2}|[1-9])(?![\w.]|\.\d)")
#: Documents larger than this are refused: nothing cited in a text is that long.
MAX_CHARS = 5_000_000


@dataclass(frozen=True, slots=True)
class Found:
    """One cited number in a document."""

    raw: str
    """The citation it belongs to, as written."""
    start: int
    """Offset of the number as written (for a letter-only range end, of its letters)."""
    end: int
    """Offset just after it."""
    number: str
    """The full number it stands for."""
    written: str
    """How the number itself is written there: "702.19b", "f", "702.19(b)"."""


def find(text: str) -> list[Found]:
    """Every cited number of a document, in order."""
    from rules_kb import refs

    found: list[Found] = []
    taken: list[tuple[int, int]] = []
    for citation in refs.find(text):
        if citation.kind != "rule":
            continue
        for (first, last), (start, end, last_start, last_end) in zip(
            citation.items, citation.places, strict=True
        ):
            found.append(Found(citation.raw, start, end, first, text[start:end]))
            if last is not None and last_start >= 0:
                written = text[last_start:last_end]
                found.append(Found(citation.raw, last_start, last_end, last, written))
        taken.append((citation.start, citation.end))
    for match in _BARE.finditer(text):
        start = match.start("base")
        if _inside(start, taken):
            continue
        letters = match.group("letters") or match.group("paren") or ""
        number = match.group("base") + letters
        end = match.end()
        written = text[start:end]
        found.append(Found(match.group().strip(), start, end, number, written))
    for match in _LEAD_CHAPTER.finditer(text):
        start = match.start("base")
        if _inside(start, taken) or any(f.start == start for f in found):
            continue
        written = match.group("base")
        found.append(Found(match.group().strip(), start, match.end(), written, written))
    found.sort(key=lambda item: item.start)
    return found


def _inside(offset: int, spans: list[tuple[int, int]]) -> bool:
    return any(start <= offset < end for start, end in spans)


def check(lineage: Lineage, text: str, as_of: str, to: str) -> CitationReport:
    """Follow every citation of `text` from edition `as_of` to edition `to`."""
    if len(text) > MAX_CHARS:
        from rules_kb.errors import BadSearchQuery

        raise BadSearchQuery(f"the document has {len(text):,} characters; at most {MAX_CHARS:,}")
    line_starts = [0] + [match.end() for match in re.finditer("\n", text)]
    citations = []
    for item in find(text):
        line = bisect_right(line_starts, item.start)
        column = item.start - line_starts[line - 1] + 1
        citations.append(_follow(lineage, item, line, column, as_of, to))
    return CitationReport(as_of, to, tuple(citations), fixed=_fixed(text, citations))


def _follow(lineage: Lineage, item: Found, line: int, column: int, as_of: str, to: str) -> Citation:
    number = normalise_number(item.number)
    base = Citation(item.raw, line, column, number, "unknown", None, False, item.start, item.end)
    if lineage.rule_seq(number, as_of) is None:
        return base
    where = lineage.where("rule", number, as_of, to)
    status: CitationStatus
    if where.status == "removed":
        status = "removed"
    elif where.status == "not_yet":
        status = "unknown"
    elif where.now != number:
        status = "moved"
    else:
        status = "changed" if where.text_changed else "current"
    from dataclasses import replace

    return replace(
        base,
        status=status,
        now=where.now,
        text_changed=where.text_changed,
        removed_in=where.removed_in,
        then=where.text,
        text=where.now_text,
    )


def _fixed(text: str, citations: list[Citation]) -> str:
    """The text with every moved citation renumbered, written as it was written."""
    parts: list[str] = []
    last = 0
    previous: Citation | None = None
    for citation in citations:
        start_of_range = previous if previous is not None and previous.raw == citation.raw else None
        previous = citation
        if citation.status != "moved" or citation.now is None:
            continue
        written = text[citation.start : citation.end]
        parts.append(text[last : citation.start])
        parts.append(_rewrite(written, citation.now, start_of_range))
        last = citation.end
    parts.append(text[last:])
    return "".join(parts)


_LETTERS = "abcdefghijklmnopqrstuvwxyz"


def _rewrite(written: str, new: str, start: Citation | None) -> str:
    """The new number in the form the old was written: letters alone for the end of a
    range whose start has the same new rule ("702.19a–b"), "(b)" letters in parentheses,
    else the number."""
    if written.isalpha():
        begins = (start.now or start.number) if start is not None else ""
        same_rule = begins.rstrip(_LETTERS) == new.rstrip(_LETTERS)
        return new[len(new.rstrip(_LETTERS)) :] if same_rule else new
    paren = re.fullmatch(r"(\d{3}\.\d+)\(([a-z]{1,2})\)", written)
    if paren:
        match = re.fullmatch(r"(\d{3}\.\d+)([a-z]{0,2})", new)
        if match and match.group(2):
            return f"{match.group(1)}({match.group(2)})"
    return new
