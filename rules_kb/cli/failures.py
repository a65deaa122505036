"""How a failure ends a command: one line on stderr and an exit code; never a traceback.

Shared by the Typer commands and the fast path, so that an error reads the same
whichever way the command ran.
"""

from __future__ import annotations

import sqlite3
import sys

from rules_kb.errors import RulesKbError


class Exit(Exception):
    """Raised inside commands to end with a message and an exit code."""

    def __init__(self, message: str, code: int = 1) -> None:
        super().__init__(message)
        self.code = code


#: What is caught: the documented failures and what the machine can do to any command.
CAUGHT = (RulesKbError, Exit, OSError, sqlite3.Error, RecursionError, MemoryError)


def report(failure: BaseException, *, verbose: bool = False) -> int:
    """Print a failure's one line (and, `verbose`, its details: a parse error's context);
    its exit code."""
    from rules_kb.cli.output import error

    if isinstance(failure, RulesKbError | Exit):
        error(str(failure))
        details = getattr(failure, "details", None)
        if details and verbose:
            from rules_kb.controls import visible

            sys.stderr.write(visible(str(details)).rstrip() + "\n")
        return failure.code if isinstance(failure, Exit) else 1
    if isinstance(failure, OSError):
        where = f": {failure.filename}" if failure.filename else ""
        error(f"{failure.strerror or failure}{where}")
    elif isinstance(failure, sqlite3.Error):
        error(f"database error: {failure}")
    elif isinstance(failure, RecursionError):
        error("the input is nested too deeply to be read")
    else:
        error("out of memory: the input is too large")
    return 1
