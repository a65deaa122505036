"""Where the command line's text goes: plain in a pipe, styled in a terminal, paged when
it is longer than the screen (as git does; `--no-pager` turns that off).

Renderers add lines of styled spans with an indent and a hanging indent; this module
wraps them to the width (80 columns in a pipe unless $COLUMNS says otherwise), never
leaves trailing spaces, and shows control characters from the rules text visibly
("\\x1b") so that no escape sequence from a document reaches the terminal. Text is
never read as markup. rich is imported only when the output is a terminal.
"""

from __future__ import annotations

import os
import re
import shutil
import sys
from collections.abc import Iterable, Mapping, Sequence
from typing import NamedTuple

from rules_kb.controls import visible

Span = tuple[str, str]
"""A piece of text and its style name ("" for none)."""

#: Style names used by the renderers, and how a terminal shows them (rich styles).
STYLES = {
    "": "",
    "bold": "bold",
    "dim": "dim",
    "italic": "italic",
    "number": "bold cyan",
    "heading": "bold",
    "term": "bold",
    "match": "bold yellow",
    "add": "bold green underline",
    "del": "bold red strike",
    "added": "bold green",
    "removed": "bold red",
    "changed": "bold yellow",
    "moved": "bold blue",
    "split": "bold magenta",
    "merged": "bold magenta",
    "typography": "dim",
    "warn": "yellow",
    "error": "bold red",
    "good": "green",
}
#: Without colours, insertions and deletions are marked as git's --word-diff does.
MARKS = {"add": ("{+", "+}"), "del": ("[-", "-]")}
_ITALIC = re.compile(r"(?<![^\W_])_([^_\n]+?)_(?![^\W_])")
_PAGER_ENV = {"LESS": "FRX", "LV": "-c"}
#: The width of a pipe's output when $COLUMNS does not say: lines are not wrapped.
UNWRAPPED = 1 << 20
#: The width of a table in a pipe that does not wrap.
TABLE_COLUMNS = 80


def pager_environment(environ: Mapping[str, str]) -> dict[str, str]:
    """The pager's environment: `less -FRX` unless $LESS says otherwise, and always with
    R (raw colour codes), or the styles show as `ESC[1m`; an empty $LESS says nothing."""
    env = dict(environ)
    for name, default in _PAGER_ENV.items():
        if not env.get(name, "").strip():
            env[name] = default
    if "R" not in env["LESS"] and "-r" not in env["LESS"]:
        env["LESS"] = env["LESS"] + ("R" if not env["LESS"].startswith("-") else " -R")
    return env


def emphasis(text: str, style: str = "") -> list[Span]:
    """Text whose "_Magic_" underscores are the italics they stand for."""
    spans: list[Span] = []
    last = 0
    for match in _ITALIC.finditer(text):
        spans.append((text[last : match.start()], style))
        spans.append((match.group(1), f"{style} italic".strip()))
        last = match.end()
    spans.append((text[last:], style))
    return [span for span in spans if span[0]]


class Line(NamedTuple):
    """One paragraph of output: wrapped to the width, continuation lines indented."""

    spans: list[Span]
    indent: int = 0
    hang: int = 2
    wrap: bool = True
    width: int = 0
    """Wrap to this many columns (a table's), not the screen's; 0: the screen's."""


class Screen:
    """Collects a command's output and writes it once, wrapped, styled and maybe paged.
    (Plain classes here: a lookup in a pipe should not import dataclasses.)"""

    __slots__ = ("lines", "pager", "terminal")

    def __init__(self, pager: bool = True, terminal: bool | None = None) -> None:
        self.pager = pager
        self.lines: list[Line] = []
        self.terminal = sys.stdout.isatty() if terminal is None else terminal

    @property
    def width(self) -> int:
        """The columns to wrap to: the terminal's; in a pipe $COLUMNS, else no wrapping
        (a pipe's reader greps lines; nesting still shows in the indentation)."""
        if self.terminal:
            return max(20, shutil.get_terminal_size((80, 24)).columns)
        try:
            return max(20, int(os.environ["COLUMNS"]))
        except (KeyError, ValueError):
            return UNWRAPPED

    @property
    def colour(self) -> bool:
        """Whether styles show (a terminal, and NO_COLOR unset)."""
        return self.terminal and not os.environ.get("NO_COLOR")

    @property
    def table_width(self) -> int:
        """The columns a table fits: the screen's, and 80 in a pipe that does not wrap
        (a table's columns must line up, whatever reads them)."""
        width = self.width
        return TABLE_COLUMNS if width == UNWRAPPED else width

    def add(
        self,
        *spans: Span | str,
        indent: int = 0,
        hang: int = 2,
        wrap: bool = True,
        width: int = 0,
    ) -> None:
        """One paragraph made of spans (a plain string is an unstyled span), wrapped to
        `width` columns if given, else the screen's."""
        parts = [(span, "") if isinstance(span, str) else span for span in spans]
        self.lines.append(Line(parts, indent, hang, wrap, width))

    def text(self, text: str, style: str = "", *, indent: int = 0, hang: int = 0) -> None:
        """A text of one or more paragraphs (one per line), "_x_" as italics."""
        for paragraph in text.split("\n"):
            self.add(*emphasis(paragraph, style), indent=indent, hang=hang)

    def blank(self) -> None:
        """An empty line."""
        self.lines.append(Line([]))

    def words(self, ops: Sequence[tuple[str, str]], *, indent: int = 0, hang: int = 0) -> None:
        """A word diff: deletions struck through in red, insertions green; marked
        [-deleted-] and {+inserted+} where colours do not show."""
        styles = {"=": "", "-": "del", "+": "add"}
        spans = [(chunk, styles[op]) for op, chunk in ops]
        for paragraph in _split_paragraphs(spans):
            self.add(*paragraph, indent=indent, hang=hang)

    # writing ----------------------------------------------------------------------------

    def rendered(self) -> list[list[Span]]:
        """Every output line, wrapped, as spans (controls made visible, marks added)."""
        width = self.width
        result: list[list[Span]] = []
        for line in self.lines:
            spans = [(visible(text), style) for text, style in line.spans]
            if not self.colour:
                spans = [_marked(span) for span in spans]
            if not line.wrap:
                result.append([(" " * line.indent, ""), *spans])
                continue
            columns = line.width or width
            result.extend(_wrap(spans, columns, line.indent, line.indent + line.hang))
        return result

    def flush(self) -> None:
        """Write everything collected, through the pager when it does not fit the screen."""
        rows = self.rendered()
        self.lines.clear()
        if not self.colour:
            text = "".join(_plain(row) + "\n" for row in rows)
            if self._page(text, len(rows)):
                return
            sys.stdout.write(text)
            sys.stdout.flush()
            return
        ansi = _ansi(rows, self.width)
        if not self._page(ansi, len(rows)):
            sys.stdout.write(ansi)
            sys.stdout.flush()

    def _page(self, text: str, count: int) -> bool:
        """Send the text to $PAGER when stdout is a terminal it does not fit; True if so."""
        if not (self.pager and self.terminal):
            return False
        if count < shutil.get_terminal_size((80, 24)).lines:
            return False
        command = os.environ.get("RULES_KB_PAGER", os.environ.get("PAGER", "less"))
        if not command.strip() or command.strip() == "cat":
            return False
        import shlex
        import subprocess  # only a terminal's pager needs these: a pipe never loads them

        env = pager_environment(os.environ)
        try:
            pager = subprocess.Popen(shlex.split(command), stdin=subprocess.PIPE, env=env)
        except (OSError, ValueError):
            return False
        assert pager.stdin is not None
        try:
            pager.stdin.write(text.encode(sys.stdout.encoding or "utf-8", "replace"))
            pager.stdin.close()
        except BrokenPipeError:
            pass  # the reader quit the pager early
        pager.wait()
        return True


def _marked(span: Span) -> Span:
    text, style = span
    opening, closing = MARKS.get(style, ("", ""))
    return (f"{opening}{text}{closing}", style) if opening else span


def _split_paragraphs(spans: list[Span]) -> list[list[Span]]:
    """Spans cut at newlines into paragraphs."""
    paragraphs: list[list[Span]] = [[]]
    for text, style in spans:
        pieces = text.split("\n")
        for index, piece in enumerate(pieces):
            if index:
                paragraphs.append([])
            if piece:
                paragraphs[-1].append((piece, style))
    return paragraphs


_TOKEN = re.compile(r"\s+|\S+")


def _wrap(spans: list[Span], width: int, first: int, rest: int) -> list[list[Span]]:
    """Greedy word wrap of styled spans; words longer than a line are cut. A word made of
    several spans ("<b>blocked</b>," is a bold word and a plain comma) breaks as one: the
    comma never starts a line."""
    lines: list[list[Span]] = []
    current: list[Span] = [(" " * first, "")]
    used = first
    pending_space: Span | None = None
    word_at, word_size = 1, 0  # where the word being written starts in `current`, its width
    for text, style in spans:
        for token in _TOKEN.findall(text):
            if token.isspace():
                pending_space = (" ", style)
                continue
            size = len(token)
            start = first if not lines else rest
            glued = pending_space is None and used > start
            gap = 1 if pending_space and used > start else 0
            if used + gap + size > width and used > start:
                if glued and word_at > 1 and rest + word_size + size <= width:
                    # carry the start of the word over with it
                    word = current[word_at:]
                    lines.append(current[:word_at])
                    current, used = [(" " * rest, ""), *word], rest + word_size
                    word_at = 1
                else:
                    lines.append(current)
                    current, used, gap, glued = [(" " * rest, "")], rest, 0, False
            if gap and pending_space:
                current.append(pending_space)
                used += 1
            pending_space = None
            if not glued:
                word_at, word_size = len(current), 0
            while used + size > width and width - used > 0:
                room = width - used
                current.append((token[:room], style))
                lines.append(current)
                token, size = token[room:], size - room
                current, used = [(" " * rest, "")], rest
                word_at, word_size = 1, 0
            current.append((token, style))
            used += size
            word_size += size
    lines.append(current)
    return [_rstrip(line) for line in lines]


def _rstrip(line: list[Span]) -> list[Span]:
    while line and not line[-1][0].strip():
        line = line[:-1]
    if line:
        line = [*line[:-1], (line[-1][0].rstrip(), line[-1][1])]
    return line


def _plain(row: Iterable[Span]) -> str:
    return "".join(text for text, _ in row).rstrip()


def _ansi(rows: list[list[Span]], width: int) -> str:
    """The rows with terminal styles, rendered by rich."""
    import io

    from rich.console import Console
    from rich.text import Text

    buffer = io.StringIO()
    console = Console(file=buffer, force_terminal=True, width=width, highlight=False)
    for row in rows:
        line = Text(no_wrap=True, end="\n")
        for text, style in row:
            line.append(
                text, style=" ".join(STYLES.get(name, "") for name in style.split()) or None
            )
        console.print(line, soft_wrap=True)
    return buffer.getvalue()


def error(message: str) -> None:
    """One line on stderr, controls made visible, never markup."""
    sys.stderr.write("rules-kb: " + visible(" ".join(message.split("\n"))) + "\n")


_JSON_UNSAFE = re.compile("[\x7f-\x9f\u2028\u2029]")


def json_out(document: object) -> None:
    """One JSON document on stdout (control characters escaped, C1 and DEL too, so that
    none reaches a terminal that shows it)."""
    import json

    text = json.dumps(document, ensure_ascii=False, indent=2)
    sys.stdout.write(_JSON_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text) + "\n")
