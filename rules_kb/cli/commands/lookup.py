"""Lookups: `editions`, `rule`, `define`, `show`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from rules_kb.cli.base import (
    DbOption,
    EditionOption,
    FormatOption,
    JsonOption,
    SplitOption,
    answer,
    chosen_format,
    command,
    knowledge_base,
)
from rules_kb.cli.present import (
    show_definition,
    show_found,
    show_rule,
)
from rules_kb.cli.settings import Settings

if TYPE_CHECKING:
    from rules_kb.records import Shown


@command
def editions(db: DbOption = None, json_out: JsonOption = False, *, settings: Settings) -> None:
    """List the stored editions with their counts, warnings and the set each accompanies."""
    from rules_kb.cli.render import lookup as render

    answer(settings, list(knowledge_base(db, settings).editions()), json_out, render.editions)


@command
def rule(
    number: Annotated[
        str, typer.Argument(help="A rule number: 702.19, 702.19b, CR 702.19(b), 702, 7.")
    ],
    edition: EditionOption = "latest",
    form: FormatOption = None,
    split: SplitOption = False,
    db: DbOption = None,
    json_out: JsonOption = False,
    *,
    settings: Settings,
) -> None:
    """Show a rule with its subrules, examples and neighbours."""
    record = knowledge_base(db, settings).rule(number, edition)
    show_rule(record, chosen_format(form, json_out), settings, split=split)


@command
def define(
    term: Annotated[
        str, typer.Argument(help="A glossary term; case and small typos are forgiven.")
    ],
    edition: EditionOption = "latest",
    form: FormatOption = None,
    split: SplitOption = False,
    db: DbOption = None,
    json_out: JsonOption = False,
    *,
    settings: Settings,
) -> None:
    """Show the glossary entry for a term (or the rule a keyword names)."""
    found = knowledge_base(db, settings).define(term, edition)
    show_definition(found, term, chosen_format(form, json_out), settings, split=split)


@command
def show(
    query: Annotated[
        str, typer.Argument(help="A rule number, a glossary term, or words to search for.")
    ],
    edition: EditionOption = "latest",
    form: FormatOption = None,
    split: SplitOption = False,
    limit: Annotated[
        int | None,
        typer.Option(
            "--limit",
            "-n",
            min=1,
            max=500,
            help="How many rules answer a question (5), or hits when it searches (10).",
        ),
    ] = None,
    db: DbOption = None,
    json_out: JsonOption = False,
    *,
    settings: Settings,
) -> None:
    """Show a rule (for a number), a glossary entry (for a term), the rules that answer a
    question, else search results."""
    found: Shown = knowledge_base(db, settings).show(query, edition, limit=limit)
    show_found(found, chosen_format(form, json_out), settings, split=split)
