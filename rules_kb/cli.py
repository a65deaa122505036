"""The rules-kb command line: the Typer app with every command registered.

Exit codes: 0 success; 1 the request was understood but cannot be answered
(one line on stderr); 2 usage error, as Typer reports it.
"""

from __future__ import annotations

import sys

import typer

from rules_kb.app import app
from rules_kb.commands import diff, ingest, lookup, refs, search, update

__all__ = ["app", "diff", "ingest", "lookup", "main", "refs", "search", "update"]


def main() -> None:
    """Console entry point."""
    try:
        app()
    except KeyboardInterrupt:
        typer.echo("rules-kb: interrupted", err=True)
        sys.exit(130)
