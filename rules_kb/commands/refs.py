"""The reference graph: `refs`, `check`, `graph`."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from rules_kb.app import DbOption, EditionOption, JsonOption, command, database_path, reader

if TYPE_CHECKING:
    from rules_kb.query import Reader


class GraphFormat(StrEnum):
    """The export formats of `rules-kb graph`."""

    dot = "dot"
    graphml = "graphml"
    gexf = "gexf"
    json = "json"
    csv = "csv"


def _references_reader(db: Path | None) -> Reader:
    """A reader whose database has references: a database made before they existed is
    upgraded first (the migration reads them from the stored rules)."""
    kb = reader(db)
    if kb.has_references():
        return kb
    kb.close()
    from rules_kb.store import open_db

    open_db(database_path(db)).close()
    return reader(db)


@command
def refs(
    number: Annotated[str, typer.Argument(help="A rule number: 702.19, 702.19b, 702, 7.")],
    edition: EditionOption = "latest",
    db: DbOption = None,
    json_out: JsonOption = False,
) -> None:
    """Show what a rule cites and what cites it (rules and glossary entries)."""
    from rules_kb.render import refs as render

    kb = _references_reader(db)
    render.refs(kb.refs(number, kb.resolve_edition(edition)), as_json=json_out)


@command
def check(
    edition: EditionOption = "latest",
    db: DbOption = None,
    json_out: JsonOption = False,
) -> None:
    """Report dangling references and numbering anomalies (gaps, duplicates, order)."""
    from rules_kb.render import refs as render

    kb = _references_reader(db)
    render.check(kb.check(kb.resolve_edition(edition)), as_json=json_out)


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
        typer.Option("--around", help="Only the rules within --depth references of this one."),
    ] = None,
    depth: Annotated[int, typer.Option("--depth", min=0, help="How far --around reaches.")] = 1,
    db: DbOption = None,
) -> None:
    """Export one edition's cross-reference graph, whole or around a rule."""
    from rules_kb import graph as graphs
    from rules_kb.errors import UnknownRule
    from rules_kb.models import normalise_number
    from rules_kb.render import refs as render

    kb = _references_reader(db)
    day = kb.resolve_edition(edition)
    built = graphs.build(*kb.graph_rows(day))
    if centre is not None:
        wanted = normalise_number(centre)
        if wanted not in built:
            raise UnknownRule(f"no rule {wanted} in the reference graph of {day}")
        built = graphs.around(built, wanted, depth)
    render.exported(graphs.export(built, form.value), output)
