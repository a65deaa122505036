"""Chat-ready Markdown of the records: pastes cleanly into Discord or GitHub.

The number is bold, subrules are a nested list, examples are in italics, and the
edition is named at the end, so that a quotation always says where it comes from.
`messages()` cuts the blocks into messages of at most 2,000 characters (Discord's
limit), on rule boundaries, each ending with the edition line.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from rules_kb.controls import visible
from rules_kb.records import Answer, GlossaryRecord, RuleRecord

if TYPE_CHECKING:
    from rules_kb.records.history import History
    from rules_kb.records.search import Results

LIMIT = 2000
"""Discord's message limit, in characters."""

_SPECIAL = re.compile(r"([\\`*\[\]<>|~#])")
_ITALIC = re.compile(r"(?<![^\W_])_([^_\n]+?)_(?![^\W_])")
_LINE_START = re.compile(r"^(\s*)([-+]|\d+\.)(\s)", re.M)


def escape(text: str) -> str:
    """Text as Markdown: characters with a meaning escaped, "_Magic_" kept as emphasis,
    control characters shown as escapes."""
    text = visible(text)
    parts = []
    last = 0
    for match in _ITALIC.finditer(text):
        parts.append(_escape_plain(text[last : match.start()]))
        parts.append(f"_{_escape_plain(match.group(1))}_")
        last = match.end()
    parts.append(_escape_plain(text[last:]))
    return _LINE_START.sub(lambda m: f"{m.group(1)}\\{m.group(2)}{m.group(3)}", "".join(parts))


def _escape_plain(text: str) -> str:
    return _SPECIAL.sub(r"\\\1", text).replace("_", "\\_")


def edition_line(edition: str, what: str = "Comprehensive Rules") -> str:
    """The last line of every message: where the quotation comes from."""
    return f"*{what}, edition {edition}*"


# blocks --------------------------------------------------------------------------------


def rule_blocks(record: RuleRecord) -> list[str]:
    """One block per rule and subrule (with its examples), nested as a list."""
    records = [record, *record.repeats]
    blocks: list[str] = []
    for item in records:
        blocks.extend(_rule_blocks(item, 0))
    if record.repeats:
        count = len(records)
        blocks.insert(0, f"_{record.edition} prints {record.number} {count} times:_")
    return blocks


def _rule_blocks(record: RuleRecord, depth: int) -> list[str]:
    indent = "  " * depth
    bullet = "" if depth == 0 else f"{indent[:-2]}- "
    head = f"{bullet}**{escape(record.number)}** {_inline(record.text)}"
    lines = [head]
    for example in record.examples:
        lines.append(
            f"{indent}  *Example: {_inline(example)}*"
            if depth
            else f"*Example: {_inline(example)}*"
        )
    blocks = ["\n".join(lines)]
    for child in record.children:
        blocks.extend(_rule_blocks(child, depth + 1))
    return blocks


def _inline(text: str) -> str:
    """A text on one line (paragraphs joined), escaped."""
    return " ".join(escape(paragraph) for paragraph in text.split("\n") if paragraph.strip())


def glossary_blocks(record: GlossaryRecord) -> list[str]:
    """The entry, then the entries its "See X" points to."""
    blocks = [f"**{escape(record.term)}**\n{_paragraphs(record.text)}"]
    blocks += [f"**{escape(other.term)}**\n{_paragraphs(other.text)}" for other in record.see]
    return blocks


def _paragraphs(text: str) -> str:
    return "\n".join(escape(paragraph) for paragraph in text.split("\n") if paragraph.strip())


def history_blocks(history: History) -> list[str]:
    """One block per version: its span, its number and its text."""
    name = "Glossary" if history.kind == "glossary" else "History"
    blocks = [f"{name} of **{escape(history.key)}** ({len(history.versions)} versions)"]
    for version in history.versions:
        span = (
            version.first if version.first == version.last else f"{version.first} – {version.last}"
        )
        note = f" ({version.note})" if version.note else ""
        blocks.append(f"- {span}: **{escape(version.key)}**{note} {_inline(version.text)}")
        blocks.extend(f"  - {escape(note)}" for note in version.branch_notes)
    if history.split_from is not None:
        via = history.split_from
        blocks.append(
            f"Split off **{escape(via.number)}** ({via.edition}) in {history.introduced_in}."
        )
    if history.merged_into is not None:
        via = history.merged_into
        blocks.append(f"Merged into **{escape(via.number)}** in {via.edition}.")
    for subrule in history.subrules:
        blocks.extend(history_blocks(subrule))
    return blocks


def search_blocks(results: Results) -> list[str]:
    """One block per hit: its number or term in bold, the highlighted fragment."""
    blocks = [f"{results.total} matches for “{escape(results.query)}”"]
    if results.suggestion:
        blocks[0] += f" (did you mean “{escape(results.suggestion)}”?)"
    for hit in results.hits:
        label = f"**{escape(hit.label)}**" + ("" if hit.kind == "rule" else f" ({hit.kind})")
        blocks.append(f"- {label}: {_highlight(hit.highlight)}")
    return blocks


def answer_blocks(found: Answer) -> list[str]:
    """The answer to a question: each answering rule in bold with its whole text, then
    the terms the question named and where to read on."""
    blocks = [f"Answering “{escape(found.query)}”"]
    for item in found.answers:
        label = f"**{escape(item.number)}**" + ("" if item.kind == "rule" else " (glossary)")
        blocks.append(f"- {label} {_inline(item.text)}")
    named = [
        f"{escape(item.words)}: {escape(item.term)}"
        + (f" ({', '.join(item.rules[:3])})" if item.rules else "")
        for item in found.recognised
    ]
    if named:
        blocks.append("Recognised: " + "; ".join(named))
    if found.see_also:
        blocks.append("See also: " + ", ".join(f"**{n}**" for n in found.see_also))
    return blocks


def _highlight(fragment: str) -> str:
    """A search fragment with its <b>matches</b> in bold."""
    import html

    parts = re.split(r"<b>(.*?)</b>", fragment)
    return "".join(
        f"**{escape(html.unescape(part))}**" if index % 2 else escape(html.unescape(part))
        for index, part in enumerate(parts)
        if part
    )


# messages -------------------------------------------------------------------------------


def document(blocks: Sequence[str], edition: str | None, what: str = "Comprehensive Rules") -> str:
    """All blocks as one Markdown document, the edition named at the end."""
    body = "\n".join(blocks)
    return f"{body}\n\n{edition_line(edition, what)}\n" if edition else body + "\n"


def messages(
    blocks: Sequence[str], edition: str | None, *, limit: int = LIMIT,
    what: str = "Comprehensive Rules",
) -> list[str]:  # fmt: skip
    """The blocks as messages of at most `limit` characters, cut between blocks (a block
    longer than a message is cut between sentences, then words); each message ends with
    the edition line, and each after the first starts by naming the rule it continues
    ("*702.19, continued*")."""
    footer = f"\n\n{edition_line(edition, what)}" if edition else ""
    room = limit - len(footer) - CONTINUED_ROOM
    found: list[str] = []
    current = ""
    enclosing: list[tuple[int, str]] = []  # (indent, label) of the blocks open so far
    for block, label, cut in _pieces(blocks, room):
        indent = len(block) - len(block.lstrip(" "))
        if not cut:
            while enclosing and enclosing[-1][0] >= indent:
                enclosing.pop()
        joined = f"{current}\n{block}" if current else block
        if len(joined) <= room or not current:
            current = joined
        else:
            found.append(current + footer)
            continued = label if cut else (enclosing[-1][1] if enclosing else None)
            current = (f"*{escape(continued)}, continued*\n" if continued else "") + block
        if label and not cut:
            enclosing.append((indent, label))
    if current:
        found.append(current + footer)
    return found


#: Room kept in each message for the line naming what it continues.
CONTINUED_ROOM = 80
_LABEL = re.compile(r"\*\*(.+?)\*\*")


def _pieces(blocks: Iterable[str], room: int) -> Iterable[tuple[str, str | None, bool]]:
    """Each block, or the pieces of one too long for a message: (text, the block's label
    in bold, whether it is a later piece of a cut block)."""
    for block in blocks:
        found = _LABEL.search(block)
        label = found.group(1).replace("\\", "") if found else None
        if len(block) <= room:
            yield block, label, False
            continue
        for at, piece in enumerate(_cut(block, room)):
            yield piece, label, at > 0


def _cut(text: str, room: int) -> Iterable[str]:
    """A long block in pieces that fit, cut after a sentence where one ends, else a word."""
    while len(text) > room:
        window = text[:room]
        cut = max(window.rfind(". "), window.rfind("\n"))
        if cut < room // 2:
            cut = window.rfind(" ")
        if cut <= 0:
            cut = room - 1
        yield text[: cut + 1].rstrip()
        text = text[cut + 1 :].lstrip()
    if text:
        yield text
