"""Full-text search: `search`."""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING, Annotated

import typer

from rules_kb.cli.base import (
    DbOption,
    EditionOption,
    Format,
    FormatOption,
    JsonOption,
    SplitOption,
    chosen_format,
    command,
    knowledge_base,
)
from rules_kb.cli.present import show_results
from rules_kb.cli.settings import Settings

if TYPE_CHECKING:
    pass


class KindChoice(StrEnum):
    """What --kind accepts."""

    rule = "rule"
    example = "example"
    glossary = "glossary"


def _section(value: str | None) -> str | None:
    if value is not None and not (len(value) == 1 and value in "123456789"):
        raise typer.BadParameter(f"{value!r} is not a section: use 1 to 9")
    return value


def _chapter(value: str | None) -> str | None:
    if value is not None and not (len(value) == 3 and value.isdigit() and value[0] != "0"):
        raise typer.BadParameter(f"{value!r} is not a chapter: use three digits, like 702")
    return value


@command
def search(
    query: Annotated[
        str,
        typer.Argument(
            help='Words, "phrases", AND/OR/NOT, prefix*, fuzzy~ ; misspellings are corrected.'
        ),
    ],
    edition: EditionOption = "latest",
    all_editions: Annotated[
        bool,
        typer.Option("--all-editions", help="Search every edition; hits show their span."),
    ] = False,
    section: Annotated[
        str | None,
        typer.Option("--section", help="Only rules of one section (1-9).", callback=_section),
    ] = None,
    chapter: Annotated[
        str | None,
        typer.Option("--chapter", help="Only rules of one chapter (702).", callback=_chapter),
    ] = None,
    kind: Annotated[
        KindChoice | None, typer.Option("--kind", help="Only rules, examples or glossary entries.")
    ] = None,
    limit: Annotated[
        int, typer.Option("--limit", "-n", min=1, max=500, help="How many hits to show.")
    ] = 10,
    form: FormatOption = None,
    split: SplitOption = False,
    db: DbOption = None,
    json_out: JsonOption = False,
    *,
    settings: Settings,
) -> None:
    """Search the rules, examples and glossary, ranked, with highlighted matches."""
    chosen = chosen_format(form, json_out)
    found = knowledge_base(db, settings, quiet=chosen is not Format.text).search(
        query,
        edition,
        limit=limit,
        all_editions=all_editions,
        kind=kind.value if kind else None,
        section=section,
        chapter=chapter,
    )
    show_results(found, chosen, settings, split=split)
