"""The Typer app: parse options, call the core, render, map errors to exit codes.

Exit codes: 0 success; 1 the request was understood but cannot be answered
(one line on stderr); 2 usage error, as Typer reports it.
"""

from __future__ import annotations

import functools
import os
import sqlite3
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NamedTuple, ParamSpec, TypeVar

import typer

from rules_kb.errors import RulesKbError

if TYPE_CHECKING:
    from rules_kb.query import Reader
    from rules_kb.store import IngestResult

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


class Outcome(NamedTuple):
    """What happened to one file given to `ingest`."""

    path: Path
    result: IngestResult | None
    error: str | None


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
    if option is not None:
        return option
    if _GLOBAL_DB:
        return _GLOBAL_DB[0]
    env = os.environ.get("RULES_KB_DB")
    if env:
        return Path(env)
    from platformdirs import user_data_path

    return user_data_path("rules-kb", appauthor=False) / "rules.db"


def _reader(db: Path | None) -> Reader:
    from rules_kb.query import Reader

    return Reader(database_path(db))


@command
def ingest(
    paths: Annotated[list[Path], typer.Argument(help="Files, or folders of .txt files.")],
    db: DbOption = None,
    replace: Annotated[
        bool, typer.Option("--replace", help="Overwrite an edition stored with different text.")
    ] = False,
    json_out: JsonOption = False,
) -> None:
    """Read CR text files into the database, one edition per file."""
    from rules_kb import render

    files = list(_expand(paths))
    if not files:
        raise Exit("no .txt files found in " + ", ".join(str(path) for path in paths))
    # A missing path is one failed file: the others still go in.
    outcomes = _ingest_files(database_path(db), files, replace=replace, quiet=json_out)
    render.ingest_summary(outcomes, as_json=json_out)
    failures = [outcome for outcome in outcomes if outcome.error]
    for failure in failures:
        typer.echo(f"rules-kb: {failure.path.name}: {failure.error}", err=True)
    if failures:
        raise typer.Exit(1)


def _ingest_files(path: Path, files: list[Path], *, replace: bool, quiet: bool) -> list[Outcome]:
    """Ingest each file in its own transaction; a failed file changes nothing."""
    from rules_kb import pipeline, render, store

    database = store.open_db(path)
    outcomes: list[Outcome] = []
    with render.progress(len(files), quiet=quiet) as advance:
        for file in files:
            try:
                result = pipeline.ingest_bytes(
                    database, file.read_bytes(), source=file.name, replace=replace
                )
                outcomes.append(Outcome(file, result, None))
            except RulesKbError as error:
                outcomes.append(Outcome(file, None, str(error)))
            except FileNotFoundError:
                outcomes.append(Outcome(file, None, "no such file or folder"))
            except OSError as error:
                outcomes.append(Outcome(file, None, error.strerror or str(error)))
            advance(file.name)
    database.close()
    return outcomes


def _expand(paths: list[Path]) -> Iterator[Path]:
    for path in paths:
        if path.is_dir():
            yield from sorted(
                child
                for child in path.iterdir()
                if child.suffix.lower() == ".txt" and child.is_file()
            )
        else:
            yield path  # a missing file fails on its own when it is read


@command
def editions(db: DbOption = None, json_out: JsonOption = False) -> None:
    """List the stored editions with their counts and warnings."""
    from rules_kb import render

    render.editions(_reader(db).editions(), as_json=json_out)


@command
def rule(
    number: Annotated[str, typer.Argument(help="A rule number: 702.19, 702.19b, 702, 7.")],
    edition: EditionOption = "latest",
    db: DbOption = None,
    json_out: JsonOption = False,
) -> None:
    """Show a rule with its subrules, examples and neighbours."""
    from rules_kb import render

    reader = _reader(db)
    render.rule(reader.rule(number, reader.resolve_edition(edition)), as_json=json_out)


@command
def define(
    term: Annotated[
        str, typer.Argument(help="A glossary term; case and small typos are forgiven.")
    ],
    edition: EditionOption = "latest",
    db: DbOption = None,
    json_out: JsonOption = False,
) -> None:
    """Show the glossary entry for a term."""
    from rules_kb import render

    reader = _reader(db)
    render.definition(reader.define(term, reader.resolve_edition(edition)), as_json=json_out)


@command
def show(
    query: Annotated[str, typer.Argument(help="A rule number or a glossary term.")],
    edition: EditionOption = "latest",
    db: DbOption = None,
    json_out: JsonOption = False,
) -> None:
    """Show a rule (for a number) or a glossary entry (for a term)."""
    from rules_kb import render
    from rules_kb.models import is_number

    reader = _reader(db)
    day = reader.resolve_edition(edition)
    if is_number(query):
        render.rule(reader.rule(query, day), as_json=json_out)
    else:
        render.definition(reader.define(query, day), as_json=json_out)


def main() -> None:
    """Console entry point."""
    try:
        app()
    except KeyboardInterrupt:
        typer.echo("rules-kb: interrupted", err=True)
        sys.exit(130)
