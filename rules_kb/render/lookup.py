"""Output of the lookups: editions, rule, define."""

from __future__ import annotations

from typing import Any

from rules_kb.render import console, print_json


def editions(rows: list[dict[str, Any]], *, as_json: bool) -> None:
    """The stored editions."""
    if as_json:
        print_json(rows)
        return
    from rich.markup import escape
    from rich.table import Table

    table = Table(title=f"{len(rows)} editions", title_justify="left")
    columns = ("edition", "set", "rules", "examples", "glossary", "unparsed", "source", "warnings")
    for column in columns:
        table.add_column(
            column,
            justify="right" if column in {"rules", "examples", "glossary", "unparsed"} else "left",
            no_wrap=column == "edition",
        )
    for row in rows:
        release = row.get("set")
        table.add_row(
            row["edition"],
            f"{release['code']} {escape(release['name'])}" if release else "",
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
    if node.get("cites"):
        out.print(f"{indent}  [dim]cites {escape(', '.join(node['cites']))}[/]")
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
