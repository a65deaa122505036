"""Text to records: the Lark grammar in grammars/cr.lark and its line lexer.

An edition is read in three steps:

1. the front matter (title, effective date, introduction, table of contents)
   is split off: the table of contents repeats the headings of the body;
2. `LineLexer` turns the body into logical lines (hard-wrapped lines of early
   editions rejoined) and names each one: SECTION, CHAPTER, RULE, EXAMPLE...;
3. the LALR grammar nests them and `EditionBuilder` turns the tree into records.

Every non-blank body line belongs to one token; tokens the grammar cannot
place are kept as `Edition.unparsed` and named in the warnings.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date as Date
from datetime import datetime, timedelta
from functools import cache
from itertools import pairwise
from typing import Any

from lark import Lark, Token, Transformer, UnexpectedInput
from lark.lexer import Lexer

from rules_kb.errors import GrammarRejected, NotAnEdition
from rules_kb.models import Edition, GlossaryEntry, Rule, RuleKind

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
_INDENTED_PARAGRAPH = re.compile(r"^\s{3,}\S")
_TOC_LEADER = re.compile(r"\.{4,}\s*\d*\s*$")
_SENSE = re.compile(r"^\d+\.\s+\S")
_GLUED_SENSE = re.compile(r"^([A-Z][^0-9]*?[a-z)])(1\.\s+\S.*)$")
_WRAP_WIDTH = 150
_MAX_UNPARSED = 500
#: The Comprehensive Rules began with Magic itself; an effective date far ahead is a typo.
#: (Editions are published weeks ahead; ten years leaves room for the invented rulebooks
#: dated 2031 and 2033 that the tests of other modules ingest.)
FIRST_YEAR = 1993
YEARS_AHEAD = 10
#: The longest credits of the 134 known editions are 3,101 characters (1999-04-23); text
#: twenty times longer after the "Credits" heading is not credits.
MAX_CREDITS = 64 * 1024
#: A second copy of the text begins with the same first lines (title, date, intro).
_REPEAT_LINES = 6
_REPEAT_WINDOW = 5000
#: How many reappearances of the first line are checked for a second copy of the text.
_REPEAT_CHECKS = 10


@cache
def grammar() -> Lark:
    """Load the CR grammar once per process."""
    return Lark(_grammar_text(), parser="lalr", lexer=_PassThroughLexer)


def _grammar_text() -> str:
    from rules_kb.resources import read_text

    return read_text("rules_kb.grammars", "cr.lark")


class _PassThroughLexer(Lexer):
    """Hands the tokens made by `LineLexer` to the parser unchanged."""

    def __init__(self, lexer_conf: Any) -> None:
        pass

    def lex(self, data: Any) -> Iterator[Token]:  # type: ignore[override]
        yield from data


@dataclass(slots=True)
class _Logical:
    kind: str
    text: str
    line: int
    end_line: int


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
    tokens = list(LineLexer(lines, body_start, warnings).tokens())
    unparsed: list[tuple[int, str]] = []

    def skip(error: UnexpectedInput) -> bool:
        token = getattr(error, "token", None)
        if token is None or token.type == "$END" or len(unparsed) > _MAX_UNPARSED:
            return False
        unparsed.append((token.line, str(token)))
        return True

    try:
        # An iterator, not a list: after an error Lark resumes by lexing again,
        # and must continue where it stopped rather than start over.
        tree = grammar().parse(iter(tokens), on_error=skip)
    except UnexpectedInput as error:
        raise _rejected(error, unparsed) from error
    built = EditionBuilder().transform(tree)
    rules: list[Rule] = built["rules"]
    if not rules:
        raise NotAnEdition("no numbered rules found: this is not a Comprehensive Rules edition")
    for line_no, value in unparsed:
        warnings.append(f"line {line_no} not placed by the grammar: {value[:60]!r}")
    glossary: list[GlossaryEntry] = built["glossary"]
    credits: str = built["credits"]
    if not glossary:
        warnings.append("truncated: the file stops before the glossary")
    elif not credits:
        warnings.append("truncated: the file stops before the credits")
    return Edition(
        date=date,
        title=_title(lines),
        intro=_intro(lines, body_start),
        rules=tuple(rules),
        glossary=tuple(glossary),
        credits=credits,
        index=built["index"],
        body_lines=sum(1 for line in lines[body_start:] if _content(line)),
        unparsed=tuple(unparsed),
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


def _rejected(error: UnexpectedInput, unparsed: list[tuple[int, str]]) -> GrammarRejected:
    """One line for the parse failure; the parser's own report goes in `details`."""
    token = getattr(error, "token", None)
    line, column = getattr(error, "line", -1), getattr(error, "column", -1)
    if len(unparsed) > _MAX_UNPARSED:
        line, column = unparsed[0][0], 1
        what = f"more than {_MAX_UNPARSED} lines the grammar cannot place"
    elif token is None or token.type == "$END":
        what = "the text ends where more rules were expected"
    else:
        what = f"unexpected {token.type.lower()} {str(token)[:40]!r}"
    where = f" at line {line}, column {column}" if line > 0 else ""
    return GrammarRejected(
        f"the rules could not be parsed: {what}{where}",
        line=max(line, 0),
        column=max(column, 0),
        details=str(error).strip(),
    )


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

    def tokens(self) -> Iterator[Token]:
        """Yield one token per logical line, with its line span."""
        for logical in self._logical_lines():
            token = Token(logical.kind, logical.text)
            token.line = logical.line
            token.end_line = logical.end_line
            yield token

    def _logical_lines(self) -> Iterator[_Logical]:
        current: _Logical | None = None
        blank_before = True
        for index in range(self.start, len(self.lines)):
            raw = self.lines[index].rstrip()
            line_no = index + 1
            if not raw.strip():
                blank_before = True
                continue
            if _DECORATION.match(raw):
                if current is not None:
                    current.end_line = line_no
                continue
            if (
                self.wrapped
                and not blank_before
                and current
                and current.kind != "TERM"
                and _OPEN_END.search(current.text)
            ):
                kind = None  # a hard-wrapped sentence goes on, whatever the line starts with
            else:
                kind = self._classify(raw, blank_before, current.kind if current else None)
            blank_before = False
            if kind is None and current is not None:
                current.text = _join(current.text, raw.strip())
                current.end_line = line_no
                continue
            if current is not None:
                yield current
            current = _Logical(kind or "PARA", raw.strip(), line_no, line_no)
            if kind == "RULE" and current.text[4:5].isalpha():
                self._lettered(current)
            glued = _GLUED_SENSE.match(current.text) if kind == "TERM" else None
            if glued:
                # "Ability1. Text on an object ..." (2021-06-18): the term lost its line break.
                self.warnings.append(f"line {line_no}: glossary term glued to its first sense")
                yield _Logical("TERM", glued.group(1), line_no, line_no)
                current = _Logical("DEF", glued.group(2), line_no, line_no)
            if current.kind in {"PARA", "DEF", "CREDIT_LINE", "INDEX_LINE"} and not self.wrapped:
                yield current
                current = None
        if current is not None:
            yield current

    def _classify(self, raw: str, blank_before: bool, previous: str | None) -> str | None:
        """The token kind of a line, or None when it continues the previous line."""
        text = raw.strip()
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
        self.credits_size += len(text) + 1
        if self.credits_size > MAX_CREDITS:
            raise NotAnEdition(
                f"the credits run past {MAX_CREDITS // 1024} KB (no edition's reach 4 KB):"
                " what follows the rules is not an edition's credits"
            )
        return "CREDIT_LINE" if blank_before or not self.wrapped else None

    def _classify_body(self, raw: str, text: str, blank_before: bool) -> str | None:
        rule = _RULE.match(text)
        if rule:
            if rule.group(2):
                self.warnings.append(f"irregular rule number {text[:8]!r} read without the space")
            return "RULE"
        if _EXAMPLE.match(text):
            return "EXAMPLE"
        if _CHAPTER.match(text) and (blank_before or not self.wrapped):
            return "CHAPTER"
        if _SECTION.match(text) and (blank_before or not self.wrapped):
            return "SECTION"
        if _LETTERED.match(text):
            return "RULE"
        if self.wrapped and not blank_before and not _INDENTED_PARAGRAPH.match(raw):
            return None
        return "PARA"

    def _lettered(self, logical: _Logical) -> None:
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
        if not self.wrapped or blank_before or previous == "TERM":
            return "DEF"
        if _INDENTED_PARAGRAPH.match(raw) or _EXAMPLE.match(raw.strip()):
            return "DEF"
        return None


def is_hard_wrapped(lines: list[str]) -> bool:
    """Whether paragraphs are broken over several lines (1999-2004) or one line each.

    In a hard-wrapped edition many numbered rules go on in the next line; in a
    modern one a rule is followed by a blank line or the next numbered item.
    """
    if max((len(line) for line in lines), default=0) >= _WRAP_WIDTH:
        return False
    rules = continued = 0
    for line, following in pairwise(lines):
        if _RULE.match(line.strip()):
            rules += 1
            text = following.strip()
            if text and not (_RULE.match(text) or _EXAMPLE.match(text)):
                continued += 1
    return rules > 0 and continued > 0.2 * rules


def _join(previous: str, following: str) -> str:
    """Rejoin a hard-wrapped line: keep a hyphen that ended the line, else add a space."""
    if previous.endswith("-") and previous[-2:-1].isalpha():
        return previous + following
    return f"{previous} {following}"


class EditionBuilder(Transformer[Token, dict[str, Any]]):
    """Turns the parse tree into records; methods are named after grammar rules."""

    def start(self, parts: list[Any]) -> dict[str, Any]:
        result: dict[str, Any] = {"rules": [], "glossary": [], "credits": "", "index": ""}
        for part in parts:
            if part is None:
                continue
            result[part[0]] = part[1]
        return result

    def body(self, sections: list[list[Rule]]) -> tuple[str, list[Rule]]:
        return "rules", [rule for section in sections for rule in section]

    def section(self, items: list[Any]) -> list[Rule]:
        heading: Token = items[0]
        match = _SECTION.match(str(heading))
        assert match is not None
        number = match.group(1)
        rules = [Rule(number, "section", match.group(2), None, line=heading.line or 0)]
        for chapter in items[1:]:
            rules.extend(
                _reparent(rule, number) if rule.kind == "chapter" else rule for rule in chapter
            )
        return rules

    def chapter(self, items: list[Any]) -> list[Rule]:
        heading: Token = items[0]
        match = _CHAPTER.match(str(heading))
        assert match is not None
        rules = [Rule(match.group(1), "chapter", match.group(2), "", line=heading.line or 0)]
        for rule in items[1:]:
            rules.append(rule)
        return rules

    def rule(self, items: list[Any]) -> Rule:
        head: Token = items[0]
        match = _RULE.match(str(head))
        if match is not None:
            chapter, _space, minor, letters, text = match.groups()
            number = f"{chapter}.{minor}{letters}"
            parent = f"{chapter}.{minor}" if letters else chapter
        else:
            lettered = _LETTERED.match(str(head))
            assert lettered is not None
            chapter, letters, text = lettered.groups()
            number, parent = f"{chapter}.{letters}", chapter
        paragraphs = [text, *(item for item in items[1:] if isinstance(item, str))]
        examples = tuple(item[1] for item in items[1:] if isinstance(item, tuple))
        kind: RuleKind = "subrule" if letters else "rule"
        return Rule(number, kind, "\n".join(paragraphs), parent, examples, head.line or 0)

    def example(self, items: list[Any]) -> tuple[str, str]:
        text = str(items[0])
        while _EXAMPLE.match(text):
            text = _EXAMPLE.sub("", text, count=1)
        return ("example", "\n".join([text, *items[1:]]))

    def para(self, items: list[Token]) -> str:
        return str(items[0])

    def glossary(self, items: list[Any]) -> tuple[str, list[GlossaryEntry]]:
        return "glossary", items[1:]

    def entry(self, items: list[Token]) -> GlossaryEntry:
        term = items[0]
        return GlossaryEntry(str(term), "\n".join(str(item) for item in items[1:]), term.line or 0)

    def index(self, items: list[Token]) -> tuple[str, str]:
        return "index", "\n".join(str(item) for item in items[1:])

    def credits(self, items: list[Token]) -> tuple[str, str]:
        return "credits", "\n".join(str(item) for item in items[1:])


def _reparent(rule: Rule, section: str) -> Rule:
    return Rule(rule.number, rule.kind, rule.text, section, rule.examples, rule.line)
