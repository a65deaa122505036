"""Output of the reference commands: refs, check, graph."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from rules_kb.render import console, print_json


def refs(result: dict[str, Any], *, as_json: bool) -> None:
    """What a rule cites and what cites it, with the citing text around each reference."""
    if as_json:
        print_json(result)
        return
    from rich.markup import escape

    out = console()
    missing = "" if result["exists"] else " [red](not in this edition)[/]"
    out.print(f"[dim]References, edition {result['edition']}[/]")
    out.print(f"[bold cyan]{escape(result['number'])}[/]{missing}")
    for title, key in (("cites", "cites"), ("cited by", "cited_by")):
        entries = result[key]
        out.print(f"[bold]{title}[/] ({len(entries)})" + ("" if entries else ": nothing"))
        for entry in entries:
            out.print("  " + _entry_line(entry))


def _entry_line(entry: dict[str, Any]) -> str:
    from rich.markup import escape

    name = entry["number"] if entry["kind"] == "rule" else f"glossary: {entry['term']}"
    flag = "" if entry["exists"] else " [red](dangling)[/]"
    where = " [dim](example)[/]" if entry["source"] == "example" else ""
    return f"[cyan]{escape(name)}[/]{flag}{where}  [dim]{escape(entry['snippet'])}[/]"


def check(result: dict[str, Any], *, as_json: bool) -> None:
    """Dangling references and numbering anomalies."""
    if as_json:
        print_json(result)
        return
    from rich.markup import escape
    from rich.table import Table

    out = console()
    total, resolved = result["references"], result["resolved"]
    share = f"{100 * resolved / total:.2f}%" if total else "—"
    out.print(
        f"[dim]Check, edition {result['edition']}[/]\n"
        f"{total} references, {resolved} resolved ({share}), {len(result['dangling'])} dangling,"
        f" {len(result['anomalies'])} numbering anomalies"
    )
    if result["dangling"]:
        table = Table(title="dangling references", title_justify="left")
        for column in ("from", "raw", "target"):
            table.add_column(column)
        for item in result["dangling"]:
            table.add_row(escape(item["from"]), escape(item["raw"]), escape(item["target"]))
        out.print(table)
    if result["anomalies"]:
        table = Table(title="numbering anomalies", title_justify="left")
        table.add_column("number")
        table.add_column("problem")
        for item in result["anomalies"]:
            table.add_row(escape(item["number"]), escape(item["problem"]))
        out.print(table)


def exported(text: str, output: Path | None) -> None:
    """An exported graph, to a file or stdout."""
    if output is None:
        sys.stdout.write(text)
    else:
        output.write_text(text, encoding="utf-8")
