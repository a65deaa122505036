"""The other faces, started from the command line: `mcp` and `serve`."""

from __future__ import annotations

from typing import Annotated

import typer

from rules_kb.cli.base import DbOption, command, database_path
from rules_kb.cli.settings import Settings


@command
def mcp(db: DbOption = None, *, settings: Settings) -> None:
    """Serve the rules to AI assistants: a Model Context Protocol server over stdio."""
    from rules_kb.mcp.start import serve

    serve(database_path(db, settings))


@command
def serve(
    port: Annotated[int, typer.Option("--port", min=1, max=65535, help="The port.")] = 8001,
    host: Annotated[
        str, typer.Option("--host", help="The address to listen on (default: this machine only).")
    ] = "127.0.0.1",
    allow_sql: Annotated[
        bool,
        typer.Option(
            "--allow-sql", help="Allow arbitrary SQL on an address beyond this machine too."
        ),
    ] = False,
    db: DbOption = None,
    *,
    settings: Settings,
) -> None:
    """Explore the database in Datasette, read-only (optional extra: rules-kb[serve])."""
    import os
    import subprocess
    import sys

    from rules_kb.serve import command as datasette

    argv = datasette(database_path(db, settings), host=host, port=port, allow_sql=allow_sql or None)
    sys.stderr.write(
        f"rules-kb: serving {database_path(db, settings)} on http://{host}:{port}/ (Ctrl-C stops)\n"
    )
    sys.stderr.flush()
    if hasattr(os, "execv"):
        os.execv(argv[0], argv)  # Datasette takes over this process (and its signals)
    raise typer.Exit(subprocess.call(argv))  # pragma: no cover - Windows
