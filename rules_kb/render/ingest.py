"""Output of `rules-kb ingest`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rules_kb.render import console, print_json

if TYPE_CHECKING:
    from rules_kb.commands.ingest import Outcome


def ingest_summary(outcomes: Sequence[Outcome], *, as_json: bool) -> None:
    """A table (or JSON list) of what each ingested file became."""
    if as_json:
        print_json(
            [
                {
                    "source": outcome.path.name,
                    "edition": outcome.result.date if outcome.result else None,
                    "status": outcome.result.status if outcome.result else "failed",
                    "rules": outcome.result.rules if outcome.result else 0,
                    "examples": outcome.result.examples if outcome.result else 0,
                    "glossary": outcome.result.glossary if outcome.result else 0,
                    "unparsed": outcome.result.unparsed if outcome.result else 0,
                    "warnings": list(outcome.result.warnings) if outcome.result else [],
                    "error": outcome.error,
                }
                for outcome in outcomes
            ]
        )
        return
    from rich.table import Table

    table = Table(title="Ingested editions", title_justify="left")
    for column in ("edition", "file", "status", "rules", "examples", "glossary", "warnings"):
        table.add_column(
            column, justify="right" if column in {"rules", "examples", "glossary"} else "left"
        )
    counts: dict[str, int] = {}
    for outcome in outcomes:
        result = outcome.result
        status = result.status if result else "failed"
        counts[status] = counts.get(status, 0) + 1
        if result is None:
            table.add_row("", outcome.path.name, "[red]failed[/]", "", "", "", outcome.error or "")
            continue
        style = {"added": "green", "replaced": "yellow", "unchanged": "dim"}[result.status]
        table.add_row(
            result.date,
            outcome.path.name,
            f"[{style}]{result.status}[/]",
            str(result.rules),
            str(result.examples),
            str(result.glossary),
            "; ".join(result.warnings),
        )
    console().print(table)
    console().print(", ".join(f"{count} {status}" for status, count in sorted(counts.items())))
