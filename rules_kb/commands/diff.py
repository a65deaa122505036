"""Comparisons across editions: `diff OLD NEW` and `history NUMBER|TERM`."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from rules_kb.app import DbOption, EditionOption, Exit, JsonOption, command, reader

if TYPE_CHECKING:
    from rules_kb.query import Reader


class Format(StrEnum):
    """Output formats of `diff`."""

    text = "text"
    html = "html"


@command
def diff(
    old: Annotated[str, typer.Argument(help="The old edition: a date, latest or oldest.")],
    new: Annotated[str, typer.Argument(help="The new edition: a date, latest or oldest.")],
    rule: Annotated[
        str | None, typer.Option("--rule", "-r", help="Only this rule and its subrules.")
    ] = None,
    terms: Annotated[
        bool, typer.Option("--terms", help="Summarise the phrases replaced across the edition.")
    ] = False,
    output_format: Annotated[
        Format, typer.Option("--format", "-f", help="text (terminal) or html (a page).")
    ] = Format.text,
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Write the HTML page to this file.")
    ] = None,
    db: DbOption = None,
    json_out: JsonOption = False,
) -> None:
    """Show what changed between two editions, word by word."""
    from rules_kb import diff as core
    from rules_kb.render import diff as render

    if output is not None and output_format is not Format.html:
        raise Exit("--output writes an HTML page: use it with --format html", code=2)
    kb = reader(db)
    library = core.Library(kb)
    before, after = kb.resolve_edition(old), kb.resolve_edition(new)
    with render.working(f"aligning {before} and {after}"):
        result = core.diff(library, before, after)
    if rule is not None:
        result = result.only(rule)
        if not result.rules:
            _require_rule(kb, rule, before, after)
    if terms:
        render.terms(result, core.term_changes(result), as_json=json_out)
    elif output_format is Format.html:
        render.html_page(result, output)
    else:
        render.edition_diff(result, as_json=json_out)


def _require_rule(kb: Reader, number: str, before: str, after: str) -> None:
    """Fail (exit 1) when the rule is in neither edition; a rule that did not change is fine."""
    from rules_kb.errors import UnknownRule

    last: UnknownRule | None = None
    for edition in (after, before):
        try:
            kb.rule(number, edition)
            return
        except UnknownRule as error:
            last = error
    if last is not None:
        raise last


@command
def history(
    query: Annotated[str, typer.Argument(help="A rule number (702.19) or a glossary term.")],
    edition: EditionOption = "latest",
    db: DbOption = None,
    json_out: JsonOption = False,
) -> None:
    """Show how a rule or glossary entry read in every edition, following renumbering."""
    from rules_kb import diff as core
    from rules_kb.render import diff as render

    kb = reader(db)
    library = core.Library(kb)
    with render.working(f"following {query} through {len(kb.dates())} editions"):
        found = core.history(library, query, until=kb.resolve_edition(edition))
    render.history(found, as_json=json_out)
