"""Text to records: the grammar in grammars/cr.lark and its line lexer.

An edition is read in three steps:

1. the front matter (title, effective date, introduction, table of contents)
   is split off: the table of contents repeats the headings of the body;
2. `LineLexer` turns the body into logical lines (hard-wrapped lines of early
   editions rejoined) and names each one: SECTION, CHAPTER, RULE, EXAMPLE...;
3. Lark's LALR automaton for the grammar (`Automaton`, Lark's own parse table) decides
   whether each line may stand where it is, and `Nester` builds the records, one
   method per terminal of the grammar.

Lark compiles the grammar; its table is run as a recogniser over the line kinds and
the records are built as the lines arrive, rather than through Lark's parse tree and a
Transformer, which took three quarters of the parse time. The tests also run the
grammar through Lark's own parser and Transformer (`grammar()`) on the shared editions
and on random line sequences, and require the same records.

Every non-blank body line belongs to one token; tokens the grammar cannot
place are kept as `Edition.unparsed` and named in the warnings.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import date as Date
from datetime import datetime, timedelta
from itertools import pairwise
from typing import TYPE_CHECKING

from rules_kb.errors import GrammarRejected, NotAnEdition
from rules_kb.ingest.lalr import Automaton
from rules_kb.ingest.models import Edition, GlossaryEntry, Rule, RuleKind

if TYPE_CHECKING:
    from lark import Token

_DATE = re.compile(r"(?:effective|current) as of\s+([A-Z][a-z]+\.?\s+\d{1,2},\s*\d{4})", re.I)
_OLD_HEADER_DATE = re.compile(r"COMPREHENSIVE RULES\s+(\d\d)/(\d\d)/(\d\d)")
_SECTION = re.compile(r"^(\d)\.\s+(\S.*)$")
_CHAPTER = re.compile(r"^(\d{3})\.\s+(\S.*)$")
_RULE = re.compile(r"^(\d{3})\.( ?)(\d+)([a-z]{0,2})(?:\.\s*|\s+)([^\s)\],.;:].*)$")
#: A wrapped line that ends like this continues into the next one, even when that
#: next line starts with a number: "... see rule" / "103.4. If a player ...".
_OPEN_END = re.compile(r"(?:\brules?|\bsee|\band|\bor|\bin|,|–|-)$", re.I)
#: A typo printed in real editions: a letter straight after the chapter's dot, with the
#: rule's own number left out ("306.b If an effect ..." in 2008-10-01, "408.f" in 1999-11-01).
_LETTERED = re.compile(r"^(\d{3})\.([a-z]{1,2})(?:\.\s*|\s+)([^\s)\],.;:].*)$")
_EXAMPLE = re.compile(r"^(?:example|examples):\s*", re.I)
_DECORATION = re.compile(r"^[\s=\-_*~]+$")
#: The characters a decoration line can start with, to skip the regex for the rest.
_DECORATION_START = frozenset("=-_*~")
_INDENTED_PARAGRAPH = re.compile(r"^\s{3,}\S")
_TOC_LEADER = re.compile(r"\.{4,}\s*\d*\s*$")
_SENSE = re.compile(r"^\d+\.\s+\S")
_GLUED_SENSE = re.compile(r"^([A-Z][^0-9]*?[a-z)])(1\.\s+\S.*)$")
#: "Abilities, 402" or "activated ability, 403, 406.1d": the index of 1999, never a term.
_SHORT_LINE = 200
_INDEX_ENTRY = re.compile(r",\s*\d{3}(?:\.\d+[a-z]*)?(?:\s*[,–-]\s*\d{3}(?:\.\d+[a-z]*)?)*\s*$")
_WRAP_WIDTH = 150
#: A glossary heading is short and ends no sentence; a definition ends one.
_TERM_LENGTH = 60
_SENTENCE_END = re.compile(r"[.:;,”\")]$")
_DEFINITION_END = re.compile(r"[.”\")]$")
_MAX_UNPARSED = 500
#: The Comprehensive Rules began with Magic itself; an effective date far ahead is a typo
#: (editions are published weeks ahead of their date).
FIRST_YEAR = 1993
YEARS_AHEAD = 2
#: The longest credits of the 134 known editions are 3,101 characters (1999-04-23); text
#: twenty times longer after the "Credits" heading is not credits.
MAX_CREDITS = 64 * 1024
#: A second copy of the text begins with the same first lines (title, date, intro).
_REPEAT_LINES = 6
_REPEAT_WINDOW = 5000
#: How many reappearances of the first line are checked for a second copy of the text.
_REPEAT_CHECKS = 10


@dataclass(slots=True)
class LogicalLine:
    """One line of the body as the grammar sees it: hard-wrapped lines rejoined."""

    kind: str
    """The terminal of grammars/cr.lark: SECTION, CHAPTER, RULE, EXAMPLE, PARA..."""
    text: str
    """The line's text, stripped; wrapped lines joined with a space."""
    line: int
    """The 1-based line of the decoded text it starts on."""
    end_line: int
    """The line it ends on."""
    number: tuple[str, str, str, int] | None = None
    """For a RULE: its number, parent, letters and where its text starts in `text`."""


def edition(text: str) -> Edition:
    """Parse the decoded text of one edition into records.

    A file holding several copies of the text (its first lines again after the first
    copy) is read up to the second copy, with a warning: the first copy is the
    edition, and the work stays bounded by it.
    """
    date = effective_date(text)
    warnings: list[str] = []
    text = _first_copy(text, warnings)
    lines = text.split("\n")
    body_start = _body_start(lines)
    lexer = LineLexer(lines, body_start, warnings)
    built = Nester().nest(lexer.logical_lines())
    if not built.rules:
        raise NotAnEdition("no numbered rules found: this is not a Comprehensive Rules edition")
    warnings.extend(built.warnings)
    for line_no, value in built.unparsed:
        warnings.append(f"line {line_no} not placed by the grammar: {value[:60]!r}")
    credits = "\n".join(built.credits)
    if not built.glossary:
        warnings.append("truncated: the file stops before the glossary")
    elif not credits:
        warnings.append("truncated: the file stops before the credits")
    return Edition(
        date=date,
        title=_title(lines),
        intro=_intro(lines, body_start),
        rules=tuple(built.rules),
        glossary=tuple(built.glossary),
        credits=credits,
        index="\n".join(built.index),
        body_lines=lexer.content_lines,
        unparsed=tuple(built.unparsed),
        warnings=tuple(warnings),
    )


def effective_date(text: str) -> str:
    """The edition's effective date as YYYY-MM-DD, from "effective/current as of", or
    the MM/DD/YY of the oldest headers. An impossible date, or one outside the life of
    the Comprehensive Rules, is NotAnEdition."""
    match = _DATE.search(text[:20000])
    if match:
        raw = re.sub(r"\s+", " ", match.group(1).replace(".", ""))
        for pattern in ("%B %d, %Y", "%b %d, %Y"):
            try:
                return _in_range(datetime.strptime(raw, pattern).date()).isoformat()
            except ValueError:
                continue
    old = _OLD_HEADER_DATE.search(text[:5000])
    if old:
        month, day, year = (int(part) for part in old.groups())
        try:
            found = Date(1900 + year if year > 50 else 2000 + year, month, day)
        except ValueError:
            raise NotAnEdition(f"the header date {old.group(0)[-8:]} is not a date") from None
        return _in_range(found).isoformat()
    if match:
        raise NotAnEdition(f"the effective date {' '.join(match.group(1).split())!r} is not a date")
    raise NotAnEdition("no effective date found: this is not a Comprehensive Rules edition")


def _in_range(found: Date) -> Date:
    latest = Date.today() + timedelta(days=365 * YEARS_AHEAD)
    if not Date(FIRST_YEAR, 1, 1) <= found <= latest:
        raise NotAnEdition(
            f"the effective date {found.isoformat()} is outside the life of the Comprehensive"
            f" Rules ({FIRST_YEAR} to {latest.year})"
        )
    return found


def _first_copy(text: str, warnings: list[str]) -> str:
    """The text up to a second copy of itself: a line where its first lines begin again
    (after a byte-order mark, when whole files were concatenated)."""
    opening = _opening(text)
    if len(opening) < _REPEAT_LINES:
        return text
    title = opening[0]
    at = text.find(title, text.find(title) + len(title))
    for _ in range(_REPEAT_CHECKS):
        if at == -1:
            return text
        start = text.rfind("\n", 0, at) + 1
        again = _opening(text[start : start + _REPEAT_WINDOW])
        if not text[start:at].strip(" \t\ufeff") and again == opening:
            line = text.count("\n", 0, start) + 1
            warnings.append(
                f"the text starts again at line {line} (a second copy): only the first copy"
                " was read"
            )
            return text[:start]
        at = text.find(title, at + len(title))
    return text


def _opening(text: str) -> list[str]:
    """The first few content lines of a text, stripped (of a byte-order mark too)."""
    found: list[str] = []
    for line in text[:_REPEAT_WINDOW].split("\n"):
        if _content(line):
            found.append(line.replace("\ufeff", "").strip())
            if len(found) == _REPEAT_LINES:
                break
    return found


def _content(line: str) -> bool:
    """Whether a line carries text (not blank, not a row of dashes)."""
    return bool(line.strip()) and not _DECORATION.match(line)


def _title(lines: list[str]) -> str:
    return next((" ".join(line.split()) for line in lines if _content(line)), "")


def _intro(lines: list[str], body_start: int) -> str:
    """The front matter up to the table of contents."""
    end = next(
        (i for i, line in enumerate(lines[:body_start]) if line.strip().lower() == "contents"),
        body_start,
    )
    return "\n".join(line.rstrip() for line in lines[:end] if _content(line))


def _body_start(lines: list[str]) -> int:
    """Index of the first section heading that is followed by real rules."""
    first_rule = next((i for i, line in enumerate(lines) if _RULE.match(line.strip())), None)
    if first_rule is None:
        raise NotAnEdition("no numbered rules found: this is not a Comprehensive Rules edition")
    for i in range(first_rule - 1, -1, -1):
        if _SECTION.match(lines[i].strip()):
            return i
    return first_rule


class LineLexer:
    """Names every logical line of the body; rejoins hard-wrapped lines."""

    def __init__(self, lines: list[str], start: int, warnings: list[str]) -> None:
        self.lines = lines
        self.start = start
        self.warnings = warnings
        self.wrapped = is_hard_wrapped(lines[start:])
        self.part = "body"
        self.credits_size = 0
        self.content_lines = 0
        """Non-blank, non-decoration lines seen so far."""
        self._number: tuple[str, str, str, int] | None = None
        self._index_like = False
        self._parts: list[str] = []
        self._tail = ""
        self._line_no = 0
        self._previous_raw = ""
        self._previous_kind = ""
        self._text = ""
        """The line `_classify` read last, stripped."""

    def tokens(self) -> Iterator[Token]:
        """Yield one Lark token per logical line, with its line span (for `grammar()`)."""
        from lark import Token

        for logical in self.logical_lines():
            token = Token(logical.kind, logical.text)
            token.line = logical.line
            token.end_line = logical.end_line
            yield token

    def logical_lines(self) -> Iterator[LogicalLine]:
        """Yield each logical line once it is complete."""
        current: LogicalLine | None = None
        blank_before = True
        wrapped = self.wrapped
        for line_no, line in enumerate(self.lines[self.start :], start=self.start + 1):
            raw = line.rstrip()
            if not raw:
                blank_before = True
                continue
            self._line_no = line_no
            first = raw[0]
            if (first in _DECORATION_START or first.isspace()) and _DECORATION.match(raw):
                if current is not None:
                    current.end_line = line_no
                continue
            self.content_lines += 1
            if self.part == "credits":
                self._count_credits(raw)
            if (
                wrapped
                and not blank_before
                and current
                and current.kind != "TERM"
                and _OPEN_END.search(self._tail[-12:])
            ):
                kind = None  # a hard-wrapped sentence goes on, whatever the line starts with
            elif first.isdecimal() and self.part == "body":
                # Most lines: a numbered line of the body, as `_classify` reads it (no heading
                # starts with a digit, and the line has no white space to strip).
                self._text = raw
                kind = self._classify_body(raw, raw, blank_before)
            else:
                kind = self._classify(raw, blank_before, current.kind if current else None)
            blank_before = False
            self._previous_raw = raw
            if kind is None and current is not None:
                self._extend(raw.strip())
                current.end_line = line_no
                continue
            if current is not None:
                yield self._finished(current) if wrapped else current
            current = LogicalLine(kind or "PARA", self._text, line_no, line_no)
            self._previous_kind = current.kind
            if wrapped:
                self._started(current)
            if kind == "RULE":
                current.number = self._number
                if current.text[4:5].isalpha():
                    self._lettered(current)
            if (
                kind == "TERM"
                and not self._index_like
                and len(current.text) < _SHORT_LINE  # the pattern is slow on long lines
                and _INDEX_ENTRY.search(current.text)
            ):
                self._index_like = True
                self.warnings.append(
                    f"line {line_no}: glossary term {current.text[:40]!r} reads like an index"
                    " entry: the Index heading may be missing or damaged"
                )
            glued = _GLUED_SENSE.match(current.text) if kind == "TERM" else None
            if glued:
                # "Ability1. Text on an object ..." (2021-06-18): the term lost its line break.
                self.warnings.append(f"line {line_no}: glossary term glued to its first sense")
                yield LogicalLine("TERM", glued.group(1), line_no, line_no)
                current = self._started(LogicalLine("DEF", glued.group(2), line_no, line_no))
            if not wrapped and current.kind in {"PARA", "DEF", "CREDIT_LINE", "INDEX_LINE"}:
                yield current
                current = None
        if current is not None:
            yield self._finished(current) if wrapped else current

    def _started(self, logical: LogicalLine) -> LogicalLine:
        """Begin a logical line of a hard-wrapped edition; the lines that continue it are
        joined onto it at the end, in one go (one by one made a long paragraph quadratic)."""
        self._parts = [logical.text]
        self._tail = logical.text[-16:]
        return logical

    def _extend(self, following: str) -> None:
        """Rejoin a hard-wrapped line: keep a hyphen that ended the line, else a space."""
        tail = self._tail
        separator = "" if tail.endswith("-") and tail[-2:-1].isalpha() else " "
        self._parts += (separator, following)
        self._tail = (tail + separator + following)[-16:]

    def _finished(self, logical: LogicalLine) -> LogicalLine:
        if len(self._parts) > 1:
            logical.text = "".join(self._parts)
        return logical

    def _count_credits(self, raw: str) -> None:
        self.credits_size += len(raw) + 1
        if self.credits_size > MAX_CREDITS:
            raise NotAnEdition(
                f"the credits run past {MAX_CREDITS // 1024} KB (no edition's reach 4 KB):"
                " what follows the rules is not an edition's credits"
            )

    def _classify(self, raw: str, blank_before: bool, previous: str | None) -> str | None:
        """The token kind of a line, or None when it continues the previous line."""
        text = self._text = raw.strip()
        if len(text) <= 8:  # the headings that start the glossary, index and credits
            heading = text.lower()
            if heading == "glossary" and self.part == "body":
                self.part = "glossary"
                return "GLOSSARY"
            if heading == "index" and self.part == "glossary":
                self.part = "index"
                return "INDEX"
            if heading == "credits" and self.part in {"glossary", "index", "body"}:
                self.part = "credits"
                return "CREDITS"
        if self.part == "body":
            return self._classify_body(raw, text, blank_before)
        if self.part == "glossary":
            return self._classify_glossary(raw, blank_before, previous)
        if self.part == "index":
            return "INDEX_LINE"
        return "CREDIT_LINE" if blank_before or not self.wrapped else None

    def _classify_body(self, raw: str, text: str, blank_before: bool) -> str | None:
        if text[0].isdecimal():  # what \d matches: the numbered kinds start with one
            kind = self._numbered(text, blank_before)
            if kind:
                return kind
        elif text[0] in "Ee" and _EXAMPLE.match(text):
            return "EXAMPLE"
        if self.wrapped and not blank_before and not _INDENTED_PARAGRAPH.match(raw):
            return None
        return "PARA"

    def _numbered(self, text: str, blank_before: bool) -> str | None:
        rule = _RULE.match(text)
        if rule:
            if rule.group(2):
                self.warnings.append(f"irregular rule number {text[:8]!r} read without the space")
            self._number = _numbered_parts(rule)
            return "RULE"
        if _CHAPTER.match(text) and (blank_before or not self.wrapped):
            return "CHAPTER"
        if _SECTION.match(text) and (blank_before or not self.wrapped):
            return "SECTION"
        lettered = _LETTERED.match(text)
        if lettered:
            self._number = _lettered_parts(lettered)
            return "RULE"
        return None

    def _lettered(self, logical: LogicalLine) -> None:
        """Name a typo'd number such as "306.b" (kept as printed) in a warning."""
        match = _LETTERED.match(logical.text)
        assert match is not None
        number = f"{match.group(1)}.{match.group(2)}"
        self.warnings.append(
            f"line {logical.line}: rule number {number!r} has no number before its letter"
            f" (as printed); kept as a subrule of {match.group(1)}"
        )

    def _classify_glossary(self, raw: str, blank_before: bool, previous: str | None) -> str | None:
        """A block after a blank line starts with its term; 1999 indents definitions."""
        if blank_before and not raw[:1].isspace() and not _SENSE.match(raw):
            return "TERM"
        if not self.wrapped and self._previous_kind == "DEF" and self._unseparated_term(raw):
            return "TERM"
        if not self.wrapped or blank_before or previous == "TERM":
            return "DEF"
        if _INDENTED_PARAGRAPH.match(raw) or _EXAMPLE.match(raw.strip()):
            return "DEF"
        return None

    def _unseparated_term(self, raw: str) -> bool:
        """A glossary heading that lost the blank line before it ("Concede" right after
        the definition of "Companion", 2020-06-01): a short line that is no sentence,
        after a definition that ended one, and followed by a definition of its own."""
        if len(raw) > _TERM_LENGTH or raw[:1].isspace() or _SENSE.match(raw):
            return False
        if _SENTENCE_END.search(raw) or not _DEFINITION_END.search(self._previous_raw):
            return False
        following = self.lines[self._line_no] if self._line_no < len(self.lines) else ""
        if not following.strip():
            return False
        self.warnings.append(
            f"line {self._line_no}: glossary term {raw.strip()[:40]!r} has no blank line"
            " before it; read as a new entry"
        )
        return True


def is_hard_wrapped(lines: list[str]) -> bool:
    """Whether paragraphs are broken over several lines (1999-2004) or one line each.

    In a hard-wrapped edition many numbered rules go on in the next line; in a
    modern one a rule is followed by a blank line or the next numbered item.
    """
    if any(len(line) >= _WRAP_WIDTH for line in lines):
        return False
    rules = continued = 0
    for line, following in pairwise(lines):
        if _RULE.match(line.strip()):
            rules += 1
            text = following.strip()
            if text and not (_RULE.match(text) or _EXAMPLE.match(text)):
                continued += 1
    return rules > 0 and continued > 0.2 * rules


@dataclass(slots=True)
class Nested:
    """The records of one edition's body, glossary, index and credits."""

    rules: list[Rule] = field(default_factory=list)
    glossary: list[GlossaryEntry] = field(default_factory=list)
    index: list[str] = field(default_factory=list)
    credits: list[str] = field(default_factory=list)
    unparsed: list[tuple[int, str]] = field(default_factory=list)
    """Lines the grammar has no place for: (line number, text)."""
    warnings: list[str] = field(default_factory=list)
    """Headings that seem to be missing: chapters under another section's heading."""


def _rule_number(text: str) -> tuple[str, str, str, int]:
    """Number, parent, letters and text offset of a RULE line not made by LineLexer."""
    match = _RULE.match(text)
    if match is not None:
        return _numbered_parts(match)
    lettered = _LETTERED.match(text)
    assert lettered is not None
    return _lettered_parts(lettered)


def _numbered_parts(match: re.Match[str]) -> tuple[str, str, str, int]:
    """Number, parent, letters and text offset from a `_RULE` match: 702.19b, 702.19."""
    chapter, _space, minor, letters, _text = match.groups()
    parent = f"{chapter}.{minor}" if letters else chapter
    return f"{chapter}.{minor}{letters}", parent, letters, match.start(5)


def _lettered_parts(match: re.Match[str]) -> tuple[str, str, str, int]:
    """The same from a `_LETTERED` match: 306.b, a subrule of chapter 306."""
    chapter, letters, _text = match.groups()
    return f"{chapter}.{letters}", chapter, letters, match.start(3)


class Nester:
    """Nests logical lines into records as grammars/cr.lark says; methods are named
    after grammar rules. A line with no place where it stands is skipped and kept in
    `unparsed`; more than `_MAX_UNPARSED` of them is a GrammarRejected."""

    def __init__(self) -> None:
        self.place = "start"
        self.automaton = Automaton()
        self.out = Nested()
        self._section: str | None = None
        self._rule: LogicalLine | None = None
        self._paras: list[str] = []
        self._examples: list[str] = []
        self._example: list[str] | None = None
        self._term: LogicalLine | None = None
        self._defs: list[str] = []
        self._misplaced: str | None = None

    def nest(self, lines: Iterable[LogicalLine]) -> Nested:
        """Read every line, then close what is open."""
        handlers = {
            "SECTION": self.section,
            "CHAPTER": self.chapter,
            "RULE": self.rule,
            "EXAMPLE": self.example,
            "PARA": self.para,
            "GLOSSARY": self.glossary,
            "TERM": self.entry,
            "DEF": self.definition,
            "INDEX": self.index,
            "INDEX_LINE": self.index_line,
            "CREDITS": self.credits,
            "CREDIT_LINE": self.credit_line,
        }
        automaton = self.automaton
        for line in lines:
            if automaton.feed(line.kind):
                handlers[line.kind](line)
            else:
                self._skip(line)
        if self.place == "start" or not automaton.finishes():
            raise self._rejected("the text ends where more rules were expected", None)
        self._close_rule()
        self._close_entry()
        return self.out

    # the body

    def section(self, line: LogicalLine) -> None:
        self._close_rule()
        match = _SECTION.match(line.text)
        assert match is not None
        self._section = match.group(1)
        self.out.rules.append(Rule(self._section, "section", match.group(2), None, line=line.line))
        self.place = "section"

    def chapter(self, line: LogicalLine) -> None:
        self._close_rule()
        match = _CHAPTER.match(line.text)
        assert match is not None
        number = match.group(1)
        section = self._section
        if section and not number.startswith(section) and self._misplaced != section:
            self._misplaced = section  # once for each section that holds them
            self.out.warnings.append(
                f"line {line.line}: chapter {number} follows the chapters of section {section}:"
                f" the heading of section {number[0]} is missing or damaged"
            )
        self.out.rules.append(Rule(number, "chapter", match.group(2), section, line=line.line))
        self.place = "chapter"

    def rule(self, line: LogicalLine) -> None:
        self._close_rule()
        self._rule, self._paras, self._examples = line, [], []
        self.place = "rule"

    def example(self, line: LogicalLine) -> None:
        self._close_example()
        text = line.text
        while _EXAMPLE.match(text):
            text = _EXAMPLE.sub("", text, count=1)
        self._example = [text]
        self.place = "example"

    def para(self, line: LogicalLine) -> None:
        (self._example if self._example is not None else self._paras).append(line.text)

    def _close_example(self) -> None:
        if self._example is not None:
            self._examples.append("\n".join(self._example))
            self._example = None

    def _close_rule(self) -> None:
        head = self._rule
        if head is None:
            return
        self._close_example()
        number, parent, letters, start = head.number or _rule_number(head.text)
        kind: RuleKind = "subrule" if letters else "rule"
        paragraphs = "\n".join([head.text[start:], *self._paras])
        self.out.rules.append(
            Rule(number, kind, paragraphs, parent, tuple(self._examples), head.line)
        )
        self._rule = None

    # the glossary, index and credits

    def glossary(self, line: LogicalLine) -> None:
        self._close_rule()
        self.place = "glossary"

    def entry(self, line: LogicalLine) -> None:
        self._close_entry()
        self._term, self._defs = line, []
        self.place = "entry"

    def definition(self, line: LogicalLine) -> None:
        self._defs.append(line.text)

    def _close_entry(self) -> None:
        if self._term is not None:
            term = self._term
            self.out.glossary.append(GlossaryEntry(term.text, "\n".join(self._defs), term.line))
            self._term = None

    def index(self, line: LogicalLine) -> None:
        self._close_rule()
        self._close_entry()
        self.place = "index"

    def index_line(self, line: LogicalLine) -> None:
        self.out.index.append(line.text)

    def credits(self, line: LogicalLine) -> None:
        self._close_rule()
        self._close_entry()
        self.place = "credits"

    def credit_line(self, line: LogicalLine) -> None:
        self.out.credits.append(line.text)

    # lines with no place

    def _skip(self, line: LogicalLine) -> None:
        if len(self.out.unparsed) > _MAX_UNPARSED:
            first = self.out.unparsed[0][0]
            what = f"more than {_MAX_UNPARSED} lines the grammar cannot place"
            raise self._rejected(what, first)
        self.out.unparsed.append((line.line, line.text))

    def _rejected(self, what: str, line: int | None) -> GrammarRejected:
        """One line for the failure; `details` says what each place may hold."""
        where = f" at line {line}, column 1" if line else ""
        shown = "\n".join(
            f"line {number}: {text[:60]!r} cannot follow a {self.place}"
            for number, text in self.out.unparsed[:5]
        )
        expected = ", ".join(self.automaton.expected())
        details = f"{shown}\nafter a {self.place}, the grammar expects one of: {expected}"
        return GrammarRejected(
            f"the rules could not be parsed: {what}{where}",
            line=line or 0,
            column=1 if line else 0,
            details=details.strip(),
        )
