"""The Typer app with every command registered and arranged for `--help`."""

from __future__ import annotations

import typer

from rules_kb.cli.base import app

# Importing the command modules registers their commands on the app.
from rules_kb.cli.commands import compare, faces, ingest, lookup, refs, search, site, update

__all__ = ["HELP_PANELS", "app", "command_name", "compare", "faces", "ingest", "lookup", "refs"]
__all__ += ["search", "site", "update"]

#: How `rules-kb --help` lists the commands: by what a user wants to do, in that order.
HELP_PANELS = {
    "Look up": ["rule", "define", "show", "search"],
    "Cross-references": ["refs", "check", "graph"],
    "Across editions": ["history", "where", "cite", "diff", "changes"],
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


def only(args: list[str]) -> None:
    """Keep on the app only the command the arguments run, if they name one: Typer then
    reads the parameters of one command instead of all of them (a tenth of a second of
    every start-up). `rules-kb --help`, an unknown command and shell completion still
    see them all."""
    import os

    if os.environ.get("_RULES_KB_COMPLETE"):
        return
    names = {command_name(info) for info in app.registered_commands}
    wanted, rest = None, iter(args)
    for arg in rest:
        if arg == "--db":
            next(rest, None)  # the global option's value, whatever it is called
        elif not arg.startswith("-"):
            wanted = arg
            break
    if wanted in names:
        app.registered_commands = [
            info for info in app.registered_commands if command_name(info) == wanted
        ]
