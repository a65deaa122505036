"""Output of `diff` and `history`: a coloured word diff in the terminal, JSON, an HTML page."""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

from rules_kb.cli.output import Screen
from rules_kb.controls import visible

if TYPE_CHECKING:
    from rules_kb.records.changes import Changes
    from rules_kb.records.diff import Change, EditionDiff, TermChange
    from rules_kb.records.history import History, Version


def edition_diff(out: Screen, result: EditionDiff, *, typography: bool = False) -> None:
    """The summary, then every real change with its word diff, then moves and
    reference-only changes, then the glossary; typography-only changes are counted and
    listed only when asked for."""
    out.add((f"Comprehensive Rules {result.old} → {result.new}", "bold"))
    out.add(_summary_line(result.summary()))
    real, moved, references, glossary, typographic = _sections(result)
    for change in real:
        _print_change(out, change)
    if moved:
        out.blank()
        out.add((f"Moved, text unchanged ({len(moved)})", "bold"))
        out.add(", ".join(f"{c.old_key} → {c.new_key}" for c in moved))
    if references:
        out.blank()
        out.add((f"{_RENUMBERED_ONLY} ({len(references)})", "bold"))
        out.add(", ".join(_label(c) for c in references))
    if glossary:
        out.blank()
        out.add((f"Glossary ({len(glossary)})", "bold"))
        for change in glossary:
            _print_change(out, change)
    if typographic and typography:
        out.blank()
        out.add((f"Typography only ({len(typographic)})", "bold"))
        for change in typographic:
            _print_change(out, change)
    elif typographic:
        out.blank()
        out.add(
            (
                f"{len(typographic)} {_records_differ(len(typographic))}"
                " only in typography (quotes, dashes, spacing); --typography lists them",
                "dim",
            )
        )
    if not real and not moved and not references and not glossary and not typographic:
        out.add("no changes")


class _Sections(NamedTuple):
    """A diff's changes as both renderings list them."""

    real: list[Change]
    """Rules reworded, added, removed, split or merged."""
    moved: list[Change]
    """Rules renumbered with their text unchanged."""
    references: list[Change]
    """Rules and glossary entries whose only change is a renumbered reference."""
    glossary: list[Change]
    """The glossary's other changes, typography apart."""
    typographic: list[Change]
    """Rules and glossary entries that differ in typography alone."""


#: The heading of the records whose only change is a number they print: a rule they cite,
#: renumbered, or their own letter in a label ("Layer 7e:" of 613.3e is "Layer 7d:" of
#: 613.4d, 2020-04-17).
_RENUMBERED_ONLY = "Only rule references or labels renumbered"


def _sections(result: EditionDiff) -> _Sections:
    everything = (*result.rules, *result.glossary)
    return _Sections(
        real=[
            c
            for c in result.rules
            if c.type not in {"moved", "typography"} and not c.reference_only
        ],
        moved=[c for c in result.rules if c.type == "moved"],
        references=[c for c in everything if c.reference_only],
        glossary=[c for c in result.glossary if c.type != "typography" and not c.reference_only],
        typographic=[c for c in everything if c.type == "typography"],
    )


def _records_differ(count: int) -> str:
    return "record differs" if count == 1 else "records differ"


def _summary_line(summary: dict[str, object]) -> str:
    glossary = summary["glossary"]
    assert isinstance(glossary, dict)
    keys = ("changed", "added", "removed", "moved", "reference_only", "typography")
    parts = [f"{summary[key]} {key.replace('_', '-')}" for key in keys]
    parts += [f"{summary[key]} {key}" for key in ("split", "merged") if summary.get(key)]
    extra = ", ".join(
        f"{count} {key.replace('_', '-')}" for key, count in glossary.items() if count
    )
    return "rules: " + ", ".join(parts) + (f"; glossary: {extra}" if extra else "")


def _label(change: Change) -> str:
    if change.type == "split":
        return f"{change.new_key} (off {change.old_key})"
    if change.type == "merged":
        return f"{change.old_key} (into {change.new_key})"
    if change.old_key == change.new_key or change.old_key is None:
        return str(change.new_key)
    if change.new_key is None:
        return str(change.old_key)
    return f"{change.old_key} → {change.new_key}"


def _print_change(out: Screen, change: Change) -> None:
    out.blank()
    only = (" (example only)", "dim") if change.example_only else ""
    out.add((change.type, change.type), " ", (_label(change), "bold"), only)
    out.words(change.words)
    for example in change.examples:
        out.words((("=", "Example: "), *example.words), indent=2, hang=2)


def changes(out: Screen, found: Changes) -> None:
    """The editions of the span that changed, each with its real changes and their word
    diffs; those that did not, in one line."""
    scope = ", ".join(f"{name} {value}" for name, value in found.scope.items())
    span = f"{found.since} … {found.until}" + (f" ({scope})" if scope else "")
    changed = [edition for edition in found.editions if edition.changes]
    out.add(
        (f"Real changes, {span}: {found.count} in {len(changed)} of", "bold"),
        (f" {len(found.editions)} editions", "bold"),
    )
    for edition in changed:
        out.blank()
        count = len(edition.changes)
        noun = "change" if count == 1 else "changes"
        out.add((edition.edition, "heading"), (f"  from {edition.previous}: {count} {noun}", "dim"))
        for change in edition.changes:
            _print_change(out, change)
    quiet = [edition.edition for edition in found.editions if not edition.changes]
    if quiet:
        out.blank()
        out.add(("no change in: ", "dim"), (", ".join(quiet), "dim"), hang=2)


def terms(out: Screen, result: EditionDiff, found: Sequence[TermChange]) -> None:
    """The phrases replaced across the edition, with counts."""
    out.add((f"Phrases replaced, {result.old} → {result.new}", "bold"))
    if not found:
        out.add("no phrase was replaced more than once")
        return
    width = max(len(str(term.count)) for term in found)
    for term in found:
        out.add(
            f"{term.count:>{width}}  ", (term.old, "del"), " → ", (term.new, "add"), hang=width + 2
        )


def history(out: Screen, found: History, *, typography: bool = False) -> None:
    """Each version: its span of editions, the number it had, and a word diff against the
    version before it; "introduced in" and "removed in" lines."""
    what = "Glossary entry" if found.kind == "glossary" else "Rule"
    out.add((f"{what} {found.key}, as of {found.edition}", "dim"))
    if found.merged_into is not None:
        via = found.merged_into
        out.add((f"merged into {via.number} in {via.edition}", "removed"))
    elif found.removed_in:
        out.add((f"removed in {found.removed_in}", "removed"))
    for version in found.versions:
        _version(out, version, typography=typography)
    if found.split_from is not None:
        via = found.split_from
        out.add((f"split off {via.number} ({via.edition}) in {found.introduced_in}", "dim"))
    else:
        out.add((f"introduced in {found.introduced_in}", "dim"))
    for subrule in found.subrules:
        out.blank()
        history(out, subrule, typography=typography)


def _version(out: Screen, version: Version, *, typography: bool) -> None:
    span = version.first if version.first == version.last else f"{version.first} … {version.last}"
    note = version.note
    out.blank()
    out.add((span, "dim"), "  ", (version.key, "number"), (f"  {note}" if note else "", "dim"))
    if version.words is None:
        out.text(version.text, indent=2, hang=0)
    else:
        out.words(version.words, indent=2, hang=0)
    for note in version.branch_notes:
        out.add((note, "dim"), indent=2, hang=2)
    if version.example_words is None:
        for example in version.examples:
            out.add(("Example: ", "italic"), example, indent=4, hang=2)
    else:
        for words in version.example_words:
            out.words((("=", "Example: "), *words), indent=4, hang=2)
    if typography and len(version.forms) > 1:
        for form in version.forms:
            when = form.first if form.first == form.last else f"{form.first} … {form.last}"
            out.add((f"as printed {when}: ", "dim"), (form.text, "typography"), indent=4, hang=2)


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
.change.typography { border-color: #ccc; }
.head { font: bold .9em system-ui, sans-serif; color: #555; }
del { background: #fdd; color: #900; text-decoration: line-through; }
ins { background: #dfd; color: #060; text-decoration: none; }
p.list { font: .9em system-ui, sans-serif; color: #444; }
.example { margin: .4em 0 0 1.5em; font-style: italic; }
"""


def render_html(result: EditionDiff, *, typography: bool = False) -> str:
    """The diff as one standalone HTML document (control characters shown as escapes)."""
    title = f"Comprehensive Rules {result.old} → {result.new}"
    real, moved, references, glossary, typographic = _sections(result)
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
        listed = ", ".join(_html(_label(c)) for c in moved)
        parts += [f"<h2>Moved, text unchanged ({len(moved)})</h2>", f'<p class="list">{listed}</p>']
    if references:
        parts.append(f"<h2>{_RENUMBERED_ONLY} ({len(references)})</h2>")
        parts += [_html_change(change) for change in references]
    if glossary:
        parts.append(f"<h2>Glossary ({len(glossary)})</h2>")
        parts += [_html_change(change) for change in glossary]
    if typographic:
        parts.append(f"<h2>Typography only ({len(typographic)})</h2>")
        if typography:
            parts += [_html_change(change) for change in typographic]
        else:
            parts.append('<p class="list">Quotes, dashes and spacing; not listed.</p>')
    parts.append("</body></html>\n")
    return "\n".join(parts)


def _html_summary(result: EditionDiff) -> str:
    summary = result.summary()
    keys = ("changed", "added", "removed", "moved", "reference_only", "typography", "split",
            "merged")  # fmt: skip
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
    only = " (example only)" if change.example_only else ""
    head = f"{change.type} {_html(_label(change))}{only}"
    return f'<div class="change {change.type}"><div class="head">{head}</div>{body}</div>'


def _html_words(ops: Sequence[tuple[str, str]]) -> str:
    tags = {"-": "del", "+": "ins"}
    return "".join(
        f"<{tags[op]}>{_html(chunk)}</{tags[op]}>" if op in tags else _html(chunk)
        for op, chunk in ops
    )


def _html(text: str) -> str:
    """Text for an HTML page: escaped, control characters shown as escapes."""
    return html.escape(visible(text))
