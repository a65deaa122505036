"""Full-text search: `search`."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from rules_kb.app import DbOption, EditionOption, JsonOption, command, database_path, reader

if TYPE_CHECKING:
    from rules_kb.query import Reader
    from rules_kb.search import Kind


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
    limit: Annotated[int, typer.Option("--limit", "-n", min=1, help="How many hits to show.")] = 10,
    db: DbOption = None,
    json_out: JsonOption = False,
) -> None:
    """Search the rules, examples and glossary, ranked, with highlighted matches."""
    kb = reader(db)
    search_and_render(
        kb,
        db,
        query,
        edition=None if all_editions else kb.resolve_edition(edition),
        kind=kind.value if kind else None,
        section=section,
        chapter=chapter,
        limit=limit,
        json_out=json_out,
    )


def search_and_render(
    kb: Reader,
    db: Path | None,
    query: str,
    *,
    edition: str | None,
    kind: Kind | None = None,
    section: str | None = None,
    chapter: str | None = None,
    limit: int = 10,
    json_out: bool = False,
) -> None:
    """Search with an up-to-date index beside the database and print the hits (also for `show`)."""
    from rules_kb import search as core
    from rules_kb.render import search as render

    filters = core.Filters(edition=edition, kind=kind, section=section, chapter=chapter)
    folder = core.index_dir(database_path(db))
    with render.indexing(quiet=json_out) as progress:
        results = core.answer(kb.conn, folder, query, filters, limit=limit, progress=progress)
    render.results(results, as_json=json_out)
