"""The reference graph: `refs`, `check`, `graph`."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from rules_kb.cli.base import (
    DbOption,
    EditionOption,
    JsonOption,
    answer,
    command,
    knowledge_base,
)
from rules_kb.cli.settings import Settings


class GraphFormat(StrEnum):
    """The export formats of `rules-kb graph`."""

    dot = "dot"
    graphml = "graphml"
    gexf = "gexf"
    json = "json"
    csv = "csv"


@command
def refs(
    number: Annotated[
        str, typer.Argument(help="A rule number (702.19), a keyword (Trample) or a glossary term.")
    ],
    edition: EditionOption = "latest",
    subrules: Annotated[
        bool, typer.Option("--subrules", help="Count the references of its subrules too.")
    ] = False,
    db: DbOption = None,
    json_out: JsonOption = False,
    *,
    settings: Settings,
) -> None:
    """Show what a rule cites and what cites it (rules and glossary entries)."""
    from rules_kb.cli.render import refs as render

    answer(
        settings,
        knowledge_base(db, settings).refs(number, edition, subrules=subrules),
        json_out,
        render.refs,
    )


@command
def check(
    edition: EditionOption = "latest",
    db: DbOption = None,
    json_out: JsonOption = False,
    *,
    settings: Settings,
) -> None:
    """Report dangling references and numbering anomalies (gaps, duplicates, order)."""
    from rules_kb.cli.render import refs as render

    answer(settings, knowledge_base(db, settings).check(edition), json_out, render.check)


@command
def graph(
    edition: EditionOption = "latest",
    form: Annotated[
        GraphFormat, typer.Option("--format", "-f", help="The export format.")
    ] = GraphFormat.dot,
    output: Annotated[
        Path | None,
        typer.Option(
            "--output", "-o", help="Write to this file (default: stdout).", dir_okay=False
        ),
    ] = None,
    centre: Annotated[
        str | None,
        typer.Option(
            "--around",
            help="Only what is within --depth references of this rule (and its subrules),"
            " keyword or glossary term.",
        ),
    ] = None,
    depth: Annotated[
        int, typer.Option("--depth", min=0, max=20, help="How far --around reaches.")
    ] = 1,
    db: DbOption = None,
    *,
    settings: Settings,
) -> None:
    """Export one edition's cross-reference graph, whole or around a rule."""
    from rules_kb.cli.render import refs as render

    written = knowledge_base(db, settings).export_graph(
        form.value, edition, around=centre, depth=depth
    )
    render.exported(written, output)
