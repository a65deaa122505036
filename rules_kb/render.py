"""Presentation only: rich output for people, JSON for programs."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from functools import cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.console import Console

    from rules_kb.cli import Outcome


@cache
def console() -> Console:
    """The stdout console; rich is imported only when something is printed."""
    from rich.console import Console

    return Console(highlight=False)


def print_json(document: Any) -> None:
    """One JSON document on stdout."""
    sys.stdout.write(json.dumps(document, ensure_ascii=False, indent=2) + "\n")


@contextmanager
def progress(total: int, *, quiet: bool) -> Iterator[Callable[[str], None]]:
    """A progress bar on stderr; yields a function to call after each item."""
    from rich.console import Console

    stderr = Console(stderr=True)
    if quiet or total < 2 or not stderr.is_terminal:
        yield lambda _name: None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    bar = Progress(
        TextColumn("[bold]ingest[/]"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("{task.description}"),
        console=stderr,
        transient=True,
    )
    with bar:
        task = bar.add_task("", total=total)
        yield lambda name: bar.update(task, advance=1, description=name)


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


def editions(rows: list[dict[str, Any]], *, as_json: bool) -> None:
    """The stored editions."""
    if as_json:
        print_json(rows)
        return
    from rich.table import Table

    table = Table(title=f"{len(rows)} editions", title_justify="left")
    for column in ("edition", "rules", "examples", "glossary", "unparsed", "source", "warnings"):
        table.add_column(
            column,
            justify="right" if column in {"rules", "examples", "glossary", "unparsed"} else "left",
        )
    for row in rows:
        table.add_row(
            row["edition"],
            str(row["rules"]),
            str(row["examples"]),
            str(row["glossary"]),
            str(row["unparsed"]),
            row["source"] or "",
            "; ".join(row["warnings"]),
        )
    console().print(table)


def rule(node: dict[str, Any], *, as_json: bool) -> None:
    """A rule with its children, indented, and its neighbours."""
    if as_json:
        print_json(node)
        return
    from rich.markup import escape

    out = console()
    out.print(f"[dim]Comprehensive Rules, edition {node['edition']}[/]")
    _print_node(node, 0)
    neighbours = [
        f"{label} {node[key]}"
        for label, key in (("previous", "previous"), ("next", "next"))
        if node.get(key)
    ]
    if neighbours:
        out.print(f"[dim]{escape(' · '.join(neighbours))}[/]")


def _print_node(node: dict[str, Any], depth: int) -> None:
    from rich.markup import escape

    out = console()
    indent = "  " * depth
    number = node["number"]
    if node["kind"] in {"section", "chapter"}:
        out.print(f"{indent}[bold]{escape(number)}. {escape(node['text'])}[/]")
    else:
        out.print(f"{indent}[bold cyan]{escape(number)}[/] {escape(node['text'])}")
    for example in node.get("examples", []):
        out.print(f"{indent}  [italic]Example:[/] {escape(example)}")
    for child in node.get("children", []):
        _print_node(child, depth + 1)


def definition(entry: dict[str, Any], *, as_json: bool) -> None:
    """A glossary entry."""
    if as_json:
        print_json(entry)
        return
    from rich.markup import escape

    out = console()
    out.print(f"[dim]Glossary, edition {entry['edition']}[/]")
    out.print(f"[bold]{escape(entry['term'])}[/]")
    out.print(escape(entry["text"]))
