"""Lookups: `editions`, `rule`, `define`, `show`."""

from __future__ import annotations

from typing import Annotated

import typer

from rules_kb.app import DbOption, EditionOption, JsonOption, command, reader


@command
def editions(db: DbOption = None, json_out: JsonOption = False) -> None:
    """List the stored editions with their counts, warnings and the set each accompanies."""
    from rules_kb import catalogue
    from rules_kb.render import lookup as render

    render.editions(catalogue.with_sets(reader(db).editions()), as_json=json_out)


@command
def rule(
    number: Annotated[str, typer.Argument(help="A rule number: 702.19, 702.19b, 702, 7.")],
    edition: EditionOption = "latest",
    db: DbOption = None,
    json_out: JsonOption = False,
) -> None:
    """Show a rule with its subrules, examples and neighbours."""
    from rules_kb.render import lookup as render

    kb = reader(db)
    render.rule(kb.rule(number, kb.resolve_edition(edition)), as_json=json_out)


@command
def define(
    term: Annotated[
        str, typer.Argument(help="A glossary term; case and small typos are forgiven.")
    ],
    edition: EditionOption = "latest",
    db: DbOption = None,
    json_out: JsonOption = False,
) -> None:
    """Show the glossary entry for a term."""
    from rules_kb.render import lookup as render

    kb = reader(db)
    render.definition(kb.define(term, kb.resolve_edition(edition)), as_json=json_out)


@command
def show(
    query: Annotated[
        str, typer.Argument(help="A rule number, a glossary term, or words to search for.")
    ],
    edition: EditionOption = "latest",
    db: DbOption = None,
    json_out: JsonOption = False,
) -> None:
    """Show a rule (for a number), a glossary entry (for a term), else search results."""
    from rules_kb.errors import UnknownTerm
    from rules_kb.models import is_number
    from rules_kb.render import lookup as render

    kb = reader(db)
    day = kb.resolve_edition(edition)
    if is_number(query):
        render.rule(kb.rule(query, day), as_json=json_out)
        return
    try:
        entry = kb.define(query, day)
    except UnknownTerm:
        from rules_kb.commands.search import search_and_render

        search_and_render(kb, db, query, edition=day, json_out=json_out)
    else:
        render.definition(entry, as_json=json_out)
