"""The citation checker: find the CR citations of a document and follow each through the
lineage from the edition in force when it was written to another one (today's).

Citations with a lead word ("rule 702.19b", "rules 603.7d–f", "see 702.19", "section
7") are found by the reference grammar (`rules_kb.ingest.refs`); the bare forms that articles
use are found here: "CR 702.19b", "§702.19b", "702.19(b)", "Comprehensive Rules
702.19b" and a bare dotted number "702.19b". A bare number is a citation only where the
words around it read as one: not an amount ("a price of 702.17 dollars", "$702.17"), a
version ("version 702.17", "v702.17") or a score ("702.17 points"). A range cites every
number of the edition between its ends ("rules 510.1a–c" is 510.1a, 510.1b and 510.1c),
of the kind its ends are (subrules between subrules, rules between rules).

A quotation written next to a citation ("702.19b says “…”", "702.19b: “…”", "“…”
(CR 702.19b)") is checked against what the rule (with its examples and subrules) said
in the edition in force then, and says in the edition checked against: `quote_ok`,
`quote_changed` (it said it then, not now) or `quote_not_found` (it did not say it
then). Words are compared with typography, case and punctuation folded; an ellipsis in
the quotation stands for words left out.
"""

from __future__ import annotations

import itertools
import re
from bisect import bisect_right
from dataclasses import dataclass, replace

from rules_kb.giving_up import checkpoint
from rules_kb.ingest.models import normalise_number, range_end
from rules_kb.read.history import Lineage
from rules_kb.records import Citation, CitationReport, CitationStatus, QuoteStatus

#: A bare citation: an optional lead, a dotted number (three-digit chapter), and
#: letters glued or in parentheses; never inside a longer number, a price or a version.
_BARE = re.compile(
    r"(?:(?P<lead>\bCR\s*|\bComprehensive\s+Rules?\s+|§\s*))?"
    r"(?<![\w.$/#-])(?P<base>[1-9]\d{2}\.\d{1,3})(?:(?P<letters>[a-z]{1,2})|\((?P<paren>[a-z]{1,2})\))?"
    r"(?![\w%]|\.\d)"
)
#: Words before a bare number that make it an amount, a version or a score.
_NOT_BEFORE = re.compile(
    r"(?:\b(?:price|prices|priced|cost|costs|costing|paid|pay|pays|paying|worth|sold|buy|"
    r"bought|spent|version|versions|ver|release|build|score|scored|scores|scoring|rated|"
    r"rating|weighs|weighed|measures|measured|about|approximately|roughly|around)\s+"
    r"(?:(?:of|at|for|is|was|to|a|an|the|about|roughly|around)\s+){0,2}"
    r"|[$€£¥]\s*|\bv\s*|\b(?:USD|EUR|GBP)\s*)$",
    re.IGNORECASE,
)
#: Words after a bare number that make it an amount or a measure.
_NOT_AFTER = re.compile(
    r"^\s*(?:%|percent\b|per\s*cent\b|dollars?\b|cents?\b|euros?\b|pounds?\b|yen\b|"
    r"usd\b|eur\b|gbp\b|bucks?\b|points?\b|pts\b|votes?\b|kg\b|g\b|km\b|m\b|cm\b|"
    r"mm\b|mi\b|miles?\b|hours?\b|minutes?\b|seconds?\b|ms\b|s\b|mb\b|gb\b|kb\b|"
    r"degrees?\b|°)",
    re.IGNORECASE,
)
#: How far before a bare number the words that read it are looked for.
_CONTEXT = 40
#: A chapter or section cited with a lead word the grammar does not know ("CR 702").
_LEAD_CHAPTER = re.compile(r"(?:\bCR\s*|§\s*)(?P<base>[1-9]\d{2}|[1-9])(?![\w.]|\.\d)")
#: A quotation after a citation: "says", "reads", a colon or a dash, then the quoted words.
_QUOTE_AFTER = re.compile(
    r"\)?\s*(?:(?:says|said|reads|read|states|stated|provides|explains)\s*(?:that\s*)?,?\s*"
    r"|[:,–—-]\s*)?[\"“]((?:[^\"“”\n]|\n(?![ \t]*\n)){8,1000})[\"”]"
)
#: A quotation before a citation in parentheses: “…” (CR 702.19b), "…" (rule 702.19b).
_QUOTE_BEFORE = re.compile(
    r"[\"“]((?:[^\"“”\n]|\n(?![ \t]*\n)){8,1000})[\"”][.,]?\s*[(\[]\s*(?:see\s+)?"
    r"(?:CR\s*|rules?\s+|§\s*)?$",
    re.IGNORECASE,
)
_ELLIPSIS = re.compile(r"\s*(?:\[\s*(?:\.\s*){3}\]|\[…\]|\.\s*\.\s*\.|…)\s*")
_QUOTED_WORD = re.compile(r"\w+")
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
    """How the number itself is written there: "702.19b", "f", "702.19(b)"; "" for a
    number a range stands for between its ends."""
    ends_range: bool = False
    """Whether it is the printed end of a range (the number before it is the start)."""
    quote: str | None = None
    """The quotation written next to it, if any."""


def find(text: str) -> list[Found]:
    """Every cited number of a document, in order."""
    from rules_kb.ingest import refs

    found: list[Found] = []
    taken: list[tuple[int, int]] = []
    for citation in refs.find(text):
        checkpoint()
        if citation.kind != "rule":
            continue
        for (first, last), (start, end, last_start, last_end) in zip(
            citation.items, citation.places, strict=True
        ):
            found.append(Found(citation.raw, start, end, first, text[start:end]))
            if last is not None and last_start >= 0:
                written = text[last_start:last_end]
                found.append(
                    Found(citation.raw, last_start, last_end, last, written, ends_range=True)
                )
        taken.append((citation.start, citation.end))
    inside = _Spans(taken)
    for match in _BARE.finditer(text):
        start = match.start("base")
        if inside(start):
            continue
        if not match.group("lead") and not _reads_as_citation(text, match.start(), match.end()):
            continue
        letters = match.group("letters") or match.group("paren") or ""
        number = match.group("base") + letters
        end = match.end()
        written = text[start:end]
        found.append(Found(match.group().strip(), start, end, number, written))
    starts = {item.start for item in found}
    for match in _LEAD_CHAPTER.finditer(text):
        start = match.start("base")
        if inside(start) or start in starts:
            continue
        written = match.group("base")
        found.append(Found(match.group().strip(), start, match.end(), written, written))
    found.sort(key=lambda item: item.start)
    return _quoted(text, found)


def _quoted(text: str, found: list[Found]) -> list[Found]:
    """Each citation with the quotation written next to it (after it, or just before it
    when it stands in parentheses); a list or range quotes with its first number."""
    out: list[Found] = []
    for index, item in enumerate(found):
        checkpoint()
        previous = out[-1] if out else None
        if item.ends_range or (
            previous is not None
            and previous.raw == item.raw
            and previous.start < item.start <= previous.start + len(item.raw) + 2
        ):
            out.append(item)  # a range's end, or a later number of one citation
            continue
        # The end of this citation: its last number (a list or range is one citation).
        reach = item.start + len(item.raw) + 2
        last = item.end
        for other in (found[at] for at in range(index + 1, len(found))):
            if other.start > reach:
                break  # (found is in order)
            if other.raw == item.raw:
                last = max(last, other.end)
        after = _QUOTE_AFTER.match(text, last)
        if after is not None:
            out.append(replace(item, quote=" ".join(after.group(1).split())))
            continue
        lead = text.rfind(item.raw.split()[0], max(0, item.start - 40), item.start + 1)
        before = _QUOTE_BEFORE.search(text, max(0, (lead if lead >= 0 else item.start) - 1100),
                                      lead if lead >= 0 else item.start)  # fmt: skip
        quote = None if before is None else " ".join(before.group(1).split())
        out.append(item if quote is None else replace(item, quote=quote))
    return out


def _reads_as_citation(text: str, start: int, end: int) -> bool:
    """Whether the words around a bare number read as a citation, not an amount, a
    version or a score."""
    before = text[max(0, start - _CONTEXT) : start]
    return not _NOT_BEFORE.search(before) and not _NOT_AFTER.match(text[end : end + 20])


class _Spans:
    """Whether an offset falls inside any of some spans, in logarithmic time."""

    def __init__(self, spans: list[tuple[int, int]]) -> None:
        ordered = sorted(spans)
        self._starts = [start for start, _end in ordered]
        self._reach = list(itertools.accumulate((end for _start, end in ordered), max))

    def __call__(self, offset: int) -> bool:
        at = bisect_right(self._starts, offset) - 1
        return at >= 0 and self._reach[at] > offset


def check(lineage: Lineage, text: str, as_of: str, to: str) -> CitationReport:
    """Follow every citation of `text` from edition `as_of` to edition `to`."""
    if len(text) > MAX_CHARS:
        from rules_kb.errors import BadSearchQuery

        raise BadSearchQuery(f"the document has {len(text):,} characters; at most {MAX_CHARS:,}")
    line_starts = [0] + [match.end() for match in re.finditer("\n", text)]
    citations = []
    said = _Said(lineage)
    for item in _between(lineage, find(text), as_of):
        checkpoint()
        line = bisect_right(line_starts, item.start)
        column = item.start - line_starts[line - 1] + 1
        citation = _follow(lineage, item, line, column, as_of, to)
        if item.quote is not None:
            citation = _checked(citation, item.quote, said, as_of, to)
        citations.append(citation)
    return CitationReport(as_of, to, tuple(citations), fixed=_fixed(text, citations))


def _checked(citation: Citation, quote: str, said: _Said, as_of: str, to: str) -> Citation:
    """The citation with its quotation checked then (`as_of`) and now (`to`)."""
    status: QuoteStatus
    if citation.status == "unknown" or not said(citation.number, as_of, quote):
        status = "quote_not_found"
    elif citation.now is not None and said(citation.now, to, quote):
        status = "quote_ok"
    else:
        status = "quote_changed"
    return replace(citation, quote=quote, quote_status=status)


class _Said:
    """Whether a rule (its text, examples and subrules) said some words in an edition;
    each rule's words are read once."""

    def __init__(self, lineage: Lineage) -> None:
        self.lineage = lineage
        self.words: dict[tuple[str, str], str] = {}

    def __call__(self, number: str, edition: str, quote: str) -> bool:
        key = (number, edition)
        if key not in self.words:
            self.words[key] = self._read(number, edition)
        told = self.words[key]
        at = 0
        for fragment in _ELLIPSIS.split(quote):
            wanted = _folded(fragment)
            if not wanted.strip():
                continue
            at = told.find(wanted, at)
            if at < 0:
                return False
            at += len(wanted)
        return True

    def _read(self, number: str, edition: str) -> str:
        from rules_kb.errors import UnknownRule

        try:
            record = self.lineage.reader.rule(number, edition)
        except UnknownRule:
            return ""
        texts = [text for node in record.walk() for text in (node.text, *node.examples)]
        # A rule's texts are apart: no quotation runs from one into the next.
        return "\0".join(_folded(text) for text in texts)


def _folded(text: str) -> str:
    """Words only, lower case, typography folded, one space between them (and around)."""
    from rules_kb.typography import fold

    return " " + " ".join(_QUOTED_WORD.findall(fold(text).lower())) + " "


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
    return replace(
        base,
        status=status,
        now=where.now,
        text_changed=where.text_changed,
        removed_in=where.removed_in,
        then=where.text,
        text=where.now_text,
    )


def _between(lineage: Lineage, found: list[Found], edition: str) -> list[Found]:
    """The cited numbers with each range's numbers in between put in after its start
    (the numbers of the edition, of the kind its ends are, in document order)."""
    from rules_kb.ingest.models import sort_key

    if not any(item.ends_range for item in found):
        return found
    numbers = [(number, kind) for number, kind, _, _ in lineage.reader.edition_rules(edition)]
    kinds = dict(numbers)
    out: list[Found] = []
    for item in found:
        start = out[-1] if out and item.ends_range else None
        if start is not None:
            low, high = sort_key(start.number), sort_key(item.number)
            kind = kinds.get(start.number)
            if kind is not None and kinds.get(item.number) == kind and low < high:
                out += [
                    Found(start.raw, start.start, start.start, number, "")
                    for number, other in numbers
                    if other == kind and low < sort_key(number) < high
                ][:RANGE_LIMIT]
        out.append(item)
    return out


#: Most numbers one range stands for between its ends ("rules 100.1-905.6" is a typo).
RANGE_LIMIT = 200


def _fixed(text: str, citations: list[Citation]) -> str:
    """The text with every moved citation renumbered, written as it was written."""
    parts: list[str] = []
    last = 0
    previous: Citation | None = None
    for citation in citations:
        start_of_range = previous if previous is not None and previous.raw == citation.raw else None
        previous = citation
        if citation.status != "moved" or citation.now is None or citation.start == citation.end:
            continue  # not moved, or a number a range stands for (not written)
        written = text[citation.start : citation.end]
        parts.append(text[last : citation.start])
        parts.append(_rewrite(written, citation.now, start_of_range))
        last = citation.end
    parts.append(text[last:])
    return "".join(parts)


def _rewrite(written: str, new: str, start: Citation | None) -> str:
    """The new number in the form the old was written: letters alone for the end of a
    range whose start has the same new rule ("702.19a–b"), "(b)" letters in parentheses,
    else the number."""
    if written.isalpha():
        return range_end((start.now or start.number) if start is not None else "", new)
    paren = re.fullmatch(r"(\d{3}\.\d+)\(([a-z]{1,2})\)", written)
    if paren:
        match = re.fullmatch(r"(\d{3}\.\d+)([a-z]{0,2})", new)
        if match and match.group(2):
            return f"{match.group(1)}({match.group(2)})"
    return new
