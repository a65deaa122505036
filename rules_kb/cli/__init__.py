"""The rules-kb command line: the Typer app with every command registered.

Exit codes: 0 success; 1 the request was understood but cannot be answered
(one line on stderr); 2 usage error, as Typer reports it; 3 `cite --check`
found stale citations.
"""

from __future__ import annotations

import sys

import typer

from rules_kb.cli.app import app
from rules_kb.cli.commands import compare, ingest, lookup, refs, search, site, update  # noqa: F401

__all__ = ["app", "compare", "ingest", "lookup", "main", "refs", "search", "update"]

#: How `rules-kb --help` lists the commands: by what a user wants to do, in that order.
HELP_PANELS = {
    "Look up": ["rule", "define", "show", "search"],
    "Cross-references": ["refs", "check", "graph"],
    "Across editions": ["history", "where", "cite", "diff"],
    "Publish and share": ["site", "mcp", "serve"],
    "Database": ["ingest", "update", "editions"],
}


def command_name(info: typer.models.CommandInfo) -> str:
    """The name a registered command is called by."""
    return info.name or (info.callback.__name__ if info.callback else "")


def _arrange_help() -> None:
    order = [name for names in HELP_PANELS.values() for name in names]
    panel_of = {name: panel for panel, names in HELP_PANELS.items() for name in names}
    for info in app.registered_commands:
        info.rich_help_panel = panel_of.get(command_name(info))
    app.registered_commands.sort(
        key=lambda info: (
            order.index(command_name(info)) if command_name(info) in order else len(order)
        )
    )


_arrange_help()


def main() -> None:
    """Console entry point."""
    try:
        app()
    except KeyboardInterrupt:
        sys.stderr.write("rules-kb: interrupted\n")
        sys.exit(130)
    except BrokenPipeError:
        sys.stderr.close()  # the reader went away (| head): nothing more to say
        sys.exit(0)
