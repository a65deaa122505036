"""Output of `diff` and `history`: a coloured word diff in the terminal, JSON, an HTML page."""

from __future__ import annotations

import html
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from rules_kb.render import console, print_json, stderr_terminal

if TYPE_CHECKING:
    from rich.text import Text

    from rules_kb.diff import Change, EditionDiff, History, TermChange

_STYLES = {"=": "", "-": "bold red strike", "+": "bold green underline"}


@contextmanager
def working(label: str) -> Iterator[None]:
    """A spinner on stderr while something slow runs (only when stderr is a terminal)."""
    stderr = stderr_terminal()
    if stderr is None:
        yield
        return
    with stderr.status(label):
        yield


#: Without colours (a pipe, a file, NO_COLOR) the changes are marked as git's --word-diff does.
_MARKS = {"=": ("", ""), "-": ("[-", "-]"), "+": ("{+", "+}")}


def words(ops: Sequence[tuple[str, str]]) -> Text:
    """A word diff as rich Text: deletions struck through in red, insertions in green;
    [-deleted-] and {+inserted+} where the output has no colours."""
    from rich.text import Text

    plain = console().no_color or not console().is_terminal
    text = Text()
    for op, chunk in ops:
        if plain:
            opening, closing = _MARKS[op]
            text.append(f"{opening}{chunk}{closing}")
        else:
            text.append(chunk, style=_STYLES[op])
    return text


def edition_diff(result: EditionDiff, *, as_json: bool) -> None:
    """The summary, then every real change with its word diff, then moves and
    reference-only changes, then the glossary."""
    if as_json:
        print_json(result.as_json())
        return
    out = console()
    out.print(f"[bold]Comprehensive Rules {result.old} → {result.new}[/]")
    out.print(_summary_line(result.summary()))
    real = [c for c in result.rules if c.type != "moved" and not c.reference_only]
    moved = [c for c in result.rules if c.type == "moved"]
    references = [c for c in result.rules if c.reference_only]
    for change in real:
        _print_change(change)
    if moved:
        out.print(f"\n[bold]Moved, text unchanged ({len(moved)})[/]")
        out.print(", ".join(f"{c.old_key} → {c.new_key}" for c in moved))
    if references:
        out.print(f"\n[bold]Only rule references renumbered ({len(references)})[/]")
        out.print(", ".join(_label(c) for c in references))
    if result.glossary:
        out.print(f"\n[bold]Glossary ({len(result.glossary)})[/]")
        for change in result.glossary:
            _print_change(change)
    if not result.rules and not result.glossary:
        out.print("no changes")


def _summary_line(summary: dict[str, object]) -> str:
    glossary = summary["glossary"]
    assert isinstance(glossary, dict)
    parts = [
        f"{summary[key]} {key.replace('_', '-')}"
        for key in ("changed", "added", "removed", "moved", "reference_only")
    ]
    extra = ", ".join(
        f"{count} {key.replace('_', '-')}" for key, count in glossary.items() if count
    )
    return "rules: " + ", ".join(parts) + (f"; glossary: {extra}" if extra else "")


def _label(change: Change) -> str:
    if change.old_key == change.new_key or change.old_key is None:
        return str(change.new_key)
    if change.new_key is None:
        return str(change.old_key)
    return f"{change.old_key} → {change.new_key}"


def _print_change(change: Change) -> None:
    from rich.markup import escape

    out = console()
    colour = {"added": "green", "removed": "red", "changed": "yellow", "moved": "blue"}
    out.print(f"\n[bold {colour[change.type]}]{change.type}[/] [bold]{escape(_label(change))}[/]")
    out.print(words(change.words))
    for example in change.examples:
        out.print(words((("=", "  Example: "), *example.words)))


def terms(result: EditionDiff, found: Sequence[TermChange], *, as_json: bool) -> None:
    """The phrases replaced across the edition, with counts."""
    if as_json:
        print_json(
            {"old": result.old, "new": result.new, "terms": [term.as_json() for term in found]}
        )
        return
    from rich.table import Table

    table = Table(title=f"Phrases replaced, {result.old} → {result.new}", title_justify="left")
    table.add_column("count", justify="right")
    table.add_column("was")
    table.add_column("now")
    for term in found:
        table.add_row(str(term.count), term.old, term.new)
    console().print(table if found else "no phrase was replaced more than once")


def history(found: History, *, as_json: bool) -> None:
    """Each span of editions with the number and text the rule had."""
    if as_json:
        print_json(found.as_json())
        return
    from rich.markup import escape

    out = console()
    for span in found.spans:
        when = span.first if span.first == span.last else f"{span.first} … {span.last}"
        out.print(f"[dim]{when}[/]  [bold cyan]{escape(span.key)}[/] {escape(span.text)}")


# HTML ----------------------------------------------------------------------------

_CSS = """
body { font: 16px/1.5 Georgia, serif; max-width: 52em; margin: 2em auto; padding: 0 1em;
       color: #222; background: #fdfdfb; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 2em; border-bottom: 1px solid #ccc; }
table.summary { border-collapse: collapse; } .summary td, .summary th { padding: .2em .8em;
       border: 1px solid #ddd; text-align: right; }
.change { margin: 1em 0; padding: .5em 1em; border-left: 4px solid #bbb; background: #fff; }
.change.added { border-color: #2a7; } .change.removed { border-color: #c33; }
.change.changed { border-color: #d90; } .change.moved { border-color: #36c; }
.head { font: bold .9em system-ui, sans-serif; color: #555; }
del { background: #fdd; color: #900; text-decoration: line-through; }
ins { background: #dfd; color: #060; text-decoration: none; }
p.list { font: .9em system-ui, sans-serif; color: #444; }
.example { margin: .4em 0 0 1.5em; font-style: italic; }
"""


def html_page(result: EditionDiff, path: Path | None) -> None:
    """A standalone page (inline CSS) of the diff, written to `path` or stdout."""
    page = render_html(result)
    if path is None:
        import sys

        sys.stdout.write(page)
    else:
        path.write_text(page, encoding="utf-8")
        console().print(f"wrote {path}")


def render_html(result: EditionDiff) -> str:
    """The diff as one standalone HTML document."""
    title = f"Comprehensive Rules {result.old} → {result.new}"
    real = [c for c in result.rules if c.type != "moved" and not c.reference_only]
    moved = [c for c in result.rules if c.type == "moved"]
    references = [c for c in result.rules if c.reference_only]
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{html.escape(title)}</title><style>{_CSS}</style></head><body>",
        f"<h1>{html.escape(title)}</h1>",
        _html_summary(result),
        f"<h2>Changes ({len(real)})</h2>",
        *(_html_change(change) for change in real),
    ]
    if moved:
        listed = ", ".join(html.escape(_label(c)) for c in moved)
        parts += [f"<h2>Moved, text unchanged ({len(moved)})</h2>", f'<p class="list">{listed}</p>']
    if references:
        parts.append(f"<h2>Only rule references renumbered ({len(references)})</h2>")
        parts += [_html_change(change) for change in references]
    if result.glossary:
        parts.append(f"<h2>Glossary ({len(result.glossary)})</h2>")
        parts += [_html_change(change) for change in result.glossary]
    parts.append("</body></html>\n")
    return "\n".join(parts)


def _html_summary(result: EditionDiff) -> str:
    summary = result.summary()
    keys = ("changed", "added", "removed", "moved", "reference_only")
    header = "".join(f"<th>{key.replace('_', '-')}</th>" for key in keys)
    rules = "".join(f"<td>{summary[key]}</td>" for key in keys)
    glossary = "".join(f"<td>{summary['glossary'][key]}</td>" for key in keys)
    return (
        f'<table class="summary"><tr><th></th>{header}</tr>'
        f"<tr><th>rules</th>{rules}</tr><tr><th>glossary</th>{glossary}</tr></table>"
    )


def _html_change(change: Change) -> str:
    body = _html_words(change.words)
    for example in change.examples:
        body += f'<div class="example">Example: {_html_words(example.words)}</div>'
    head = f"{change.type} {html.escape(_label(change))}"
    return f'<div class="change {change.type}"><div class="head">{head}</div>{body}</div>'


def _html_words(ops: Sequence[tuple[str, str]]) -> str:
    tags = {"-": "del", "+": "ins"}
    return "".join(
        f"<{tags[op]}>{html.escape(chunk)}</{tags[op]}>" if op in tags else html.escape(chunk)
        for op, chunk in ops
    )
