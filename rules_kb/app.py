"""The Typer app and what every command shares: options, error mapping, the database path.

Exit codes: 0 success; 1 the request was understood but cannot be answered
(one line on stderr); 2 usage error, as Typer reports it.
"""

from __future__ import annotations

import functools
import os
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, ParamSpec, TypeVar

import typer

from rules_kb.errors import RulesKbError

if TYPE_CHECKING:
    from rules_kb.query import Reader

app = typer.Typer(
    name="rules-kb",
    help="Look up every edition of the Magic: The Gathering Comprehensive Rules.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

DbOption = Annotated[
    Path | None,
    typer.Option(
        "--db",
        help="Database file (default: $RULES_KB_DB, else rules.db in the user data dir).",
        show_default=False,
    ),
]
EditionOption = Annotated[
    str,
    typer.Option(
        "--edition",
        "-e",
        help="latest, oldest, an exact date, or any date (the edition in force then).",
    ),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print one JSON document.")]


P = ParamSpec("P")
R = TypeVar("R")


class Exit(Exception):
    """Raised inside commands to end with a message and an exit code."""

    def __init__(self, message: str, code: int = 1) -> None:
        super().__init__(message)
        self.code = code


def command(function: Callable[P, R]) -> Callable[P, R]:
    """Register a command whose domain errors end as one stderr line and exit code 1."""

    @functools.wraps(function)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return function(*args, **kwargs)
        except (RulesKbError, Exit) as error:
            typer.echo(f"rules-kb: {error}", err=True)
            raise typer.Exit(error.code if isinstance(error, Exit) else 1) from None
        except OSError as error:
            where = f": {error.filename}" if error.filename else ""
            typer.echo(f"rules-kb: {error.strerror or error}{where}", err=True)
            raise typer.Exit(1) from None
        except sqlite3.Error as error:
            typer.echo(f"rules-kb: database error: {error}", err=True)
            raise typer.Exit(1) from None

    app.command()(wrapper)
    return wrapper


_GLOBAL_DB: list[Path] = []


@app.callback()
def _global_options(db: DbOption = None) -> None:
    """Look up, search and compare every edition of the Comprehensive Rules."""
    _GLOBAL_DB.clear()
    if db is not None:
        _GLOBAL_DB.append(db)


def database_path(option: Path | None) -> Path:
    """The database file: --db (after or before the command), else $RULES_KB_DB, else user data."""
    path = _chosen_path(option)
    if path.is_dir():
        raise Exit(f"{path} is a folder: give the database file, e.g. {path / 'rules.db'}")
    return path


def _chosen_path(option: Path | None) -> Path:
    if option is not None:
        return option
    if _GLOBAL_DB:
        return _GLOBAL_DB[0]
    env = os.environ.get("RULES_KB_DB")
    if env:
        return Path(env)
    from platformdirs import user_data_path

    return user_data_path("rules-kb", appauthor=False) / "rules.db"


def reader(db: Path | None) -> Reader:
    from rules_kb.query import Reader

    return Reader(database_path(db))
