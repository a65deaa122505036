"""Comparisons across editions: `diff`, `history`, `where`, `cite`."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from rules_kb.cli.base import (
    DbOption,
    EditionOption,
    Exit,
    Format,
    FormatOption,
    JsonOption,
    SplitOption,
    answer,
    chosen_format,
    command,
    knowledge_base,
    screen,
)
from rules_kb.cli.settings import Settings
from rules_kb.controls import visible

TypographyOption = Annotated[
    bool,
    typer.Option("--typography", help="Also list the changes of quotes, dashes and spacing alone."),
]


class DiffFormat(StrEnum):
    """Output formats of `diff`."""

    text = "text"
    json = "json"
    html = "html"


@command
def diff(
    old: Annotated[
        str, typer.Argument(help="The old edition: a date, latest, oldest, a set code.")
    ],
    new: Annotated[
        str, typer.Argument(help="The new edition: a date, latest, oldest, a set code.")
    ],
    rule: Annotated[
        str | None,
        typer.Option(
            "--rule",
            "-r",
            help="Only this rule and its subrules (its old number, or its new one), or all of"
            " a chapter (702) or section (7).",
        ),
    ] = None,
    terms: Annotated[
        bool, typer.Option("--terms", help="Summarise the phrases replaced across the edition.")
    ] = False,
    typography: TypographyOption = False,
    output_format: Annotated[
        DiffFormat | None,
        typer.Option(
            "--format", "-f", help="text (terminal), json, or html (a page).", show_default=False
        ),
    ] = None,
    output: Annotated[
        Path | None,
        typer.Option(
            "--output", "-o", help="Write to this file instead of stdout.", dir_okay=False
        ),
    ] = None,
    db: DbOption = None,
    json_out: JsonOption = False,
    *,
    settings: Settings,
) -> None:
    """Show what changed between two editions, word by word."""
    from rules_kb.cli.render import diff as render

    if json_out and output_format not in (None, DiffFormat.json):
        raise Exit("--json and --format html do not go together", code=2)
    form = DiffFormat.json if json_out else output_format or DiffFormat.text
    kb = knowledge_base(db, settings)
    result = kb.diff(old, new, rule=rule)
    if terms:
        found = result.term_changes()
        if form is DiffFormat.json:
            document = {"old": result.old, "new": result.new, "terms": [t.as_json() for t in found]}
            _write_json(document, output)
            return
        out = screen(settings)
        render.terms(out, result, found)
        _write_screen(out, output)
    elif form is DiffFormat.json:
        _write_json(result.as_json(typography=typography), output)
    elif form is DiffFormat.html:
        _write_text(render.render_html(result, typography=typography), output)
    else:
        out = screen(settings)
        render.edition_diff(out, result, typography=typography)
        _write_screen(out, output)


@command
def changes(
    since: Annotated[
        str, typer.Option("--since", help="The first day: editions in force from then on.")
    ],
    until: Annotated[
        str, typer.Option("--until", help="The last edition (a date, latest, a set code).")
    ] = "latest",
    chapter: Annotated[
        str | None, typer.Option("--chapter", help="Only this chapter (702) or section (7).")
    ] = None,
    rule: Annotated[
        str | None,
        typer.Option(
            "--rule",
            "-r",
            help="Only this rule and its subrules, through renumberings (a chapter or section"
            " number: all of it, as --chapter).",
        ),
    ] = None,
    term: Annotated[
        str | None, typer.Option("--term", help="Only this glossary entry, through renames.")
    ] = None,
    atom: Annotated[
        bool, typer.Option("--atom", help="An Atom feed, an entry per edition, instead.")
    ] = False,
    base_url: Annotated[
        str | None,
        typer.Option("--base-url", help="Where the web edition is published (the feed's links)."),
    ] = None,
    db: DbOption = None,
    json_out: JsonOption = False,
    *,
    settings: Settings,
) -> None:
    """List the real changes of every edition since a date, typography apart."""
    from rules_kb.cli.render import diff as render

    if json_out and atom:
        raise Exit("--json and --atom do not go together", code=2)
    found = knowledge_base(db, settings).changes(
        since, until, chapter=chapter, rule=rule, term=term
    )
    if json_out:
        _write_json(found.as_json(), None)
        return
    if atom:
        from rules_kb.records.feeds import atom as feed
        from rules_kb.site.places import diff_page

        base = base_url.rstrip("/") + "/" if base_url else ""
        scope = "".join(f", {name} {value}" for name, value in found.scope.items())
        name = "-".join(["changes", *(f"{k}-{v}" for k, v in found.scope.items())])
        _write_text(
            feed(
                found.editions, title=f"Comprehensive Rules: real changes{scope}", name=name,
                link=lambda e: base + diff_page(e.previous, e.edition),
            ) + "\n",
            None,
        )  # fmt: skip
        return
    out = screen(settings)
    render.changes(out, found)
    _write_screen(out, None)


def _write_json(document: object, output: Path | None) -> None:
    import json

    if output is None:
        from rules_kb.cli.output import json_out

        json_out(document)
    else:
        _write_text(json.dumps(document, ensure_ascii=False, indent=2) + "\n", output)


def _write_text(text: str, output: Path | None) -> None:
    import sys

    if output is None:
        sys.stdout.write(text)
    else:
        output.write_text(text, encoding="utf-8")


def _write_screen(out: object, output: Path | None) -> None:
    from rules_kb.cli.output import Screen, _plain

    assert isinstance(out, Screen)
    if output is None:
        out.flush()
        return
    out.terminal = False
    _write_text("".join(_plain(row) + "\n" for row in out.rendered()), output)


@command
def history(
    query: Annotated[
        str, typer.Argument(help="A rule number (702.19), a keyword or a glossary term.")
    ],
    edition: EditionOption = "latest",
    subrules: Annotated[
        bool, typer.Option("--subrules", help="Also the history of each of its subrules.")
    ] = False,
    typography: Annotated[
        bool, typer.Option("--typography", help="Show every printed form of each version.")
    ] = False,
    form: FormatOption = None,
    split: SplitOption = False,
    db: DbOption = None,
    json_out: JsonOption = False,
    *,
    settings: Settings,
) -> None:
    """Show how a rule or glossary entry read in every edition, following renumbering."""
    from rules_kb.cli.render import diff as render

    found = knowledge_base(db, settings).history(query, edition, subrules=subrules)
    chosen = chosen_format(form, json_out)
    if chosen is Format.json:
        from rules_kb.cli.output import json_out as print_json

        print_json(found.as_json())
    elif chosen is Format.markdown:
        from rules_kb.cli.present import print_markdown
        from rules_kb.records import markdown

        print_markdown(markdown.history_blocks(found), None, split=split)
    else:
        out = screen(settings)
        render.history(out, found, typography=typography)
        out.flush()


@command
def where(
    number: Annotated[str, typer.Argument(help="A rule number as it was in --edition (702.85a).")],
    edition: EditionOption = "latest",
    to: Annotated[
        str, typer.Option("--to", help="The edition to look in (default: the latest).")
    ] = "latest",
    db: DbOption = None,
    json_out: JsonOption = False,
    *,
    settings: Settings,
) -> None:
    """Show the same rule's number in another edition, with each renumbering step."""
    from rules_kb.cli.render import lineage as render

    answer(
        settings, knowledge_base(db, settings).where(number, edition, to), json_out, render.where
    )


@command
def cite(
    files: Annotated[
        list[Path],
        typer.Argument(help="Text or Markdown files that cite the rules.", readable=False),
    ],
    as_of: Annotated[
        str,
        typer.Option("--as-of", help="When the text was written: the edition then in force."),
    ] = "latest",
    to: Annotated[
        str, typer.Option("--to", help="The edition to check against (default: the latest).")
    ] = "latest",
    fix: Annotated[
        bool, typer.Option("--fix", help="Print the text with every moved citation renumbered.")
    ] = False,
    output: Annotated[
        Path | None,
        typer.Option(
            "--output", "-o", help="With --fix: write the fixed text here.", dir_okay=False
        ),
    ] = None,
    check: Annotated[
        bool, typer.Option("--check", help="Exit 3 when a citation is moved, removed or unknown.")
    ] = False,
    words: Annotated[
        bool, typer.Option("--words", help="Show how the wording of changed rules changed.")
    ] = False,
    db: DbOption = None,
    json_out: JsonOption = False,
    *,
    settings: Settings,
) -> None:
    """Check the CR citations of a text written on --as-of against today's rules."""
    from rules_kb.cli.render import lineage as render

    if output is not None and (not fix or len(files) != 1):
        raise Exit("--output writes the fixed text of one file: use it with --fix", code=2)
    kb = knowledge_base(db, settings)
    reports = []
    for file in files:
        text, encoding = _read_document(file)
        reports.append((file, kb.cite(text, as_of, to), encoding))
    stale = any(report.stale for _, report, _ in reports)
    if fix:
        for _file, report, encoding in reports:
            if output is not None:
                output.write_bytes(report.fixed.encode(encoding))
            else:
                import sys

                # (the document itself, byte for byte, except on a terminal)
                fixed = report.fixed
                sys.stdout.write(visible(fixed) if sys.stdout.isatty() else fixed)
    elif json_out:
        from rules_kb.cli.output import json_out as print_json

        documents = [{"file": str(file), **report.as_json()} for file, report, _ in reports]
        print_json(documents[0] if len(documents) == 1 else documents)
    else:
        out = screen(settings)
        for file, report, _ in reports:
            render.citations(out, file.name, report, words=words)
        out.flush()
    if check and stale:
        raise typer.Exit(3)


def _read_document(path: Path) -> tuple[str, str]:
    """A document's text and its encoding (UTF-8, else cp1252), its line endings kept."""
    from rules_kb.errors import NotText

    data = path.read_bytes()
    if b"\x00" in data[:65536]:
        raise NotText(f"{path.name} is binary, not a text document")
    for encoding in ("utf-8-sig", "cp1252"):
        try:
            return data.decode(encoding), "utf-8" if encoding == "utf-8-sig" else encoding
        except UnicodeDecodeError:
            continue
    raise NotText(f"{path.name} is not text in UTF-8 or cp1252")
