"""The Typer app and what every command shares: options, error mapping, the knowledge base.

Exit codes: 0 success; 1 the request was understood but cannot be answered (one line
on stderr); 2 usage error, as Typer reports it; 3 `cite --check` found stale citations.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, ParamSpec, TypeVar

import typer

from rules_kb.cli.failures import CAUGHT, report
from rules_kb.cli.failures import Exit as Exit
from rules_kb.cli.present import Format as Format
from rules_kb.cli.settings import Settings

if TYPE_CHECKING:
    from rules_kb.api import KnowledgeBase
    from rules_kb.cli.output import Screen


def _version(value: bool) -> None:
    if value:
        from rules_kb import __version__

        typer.echo(f"rules-kb {__version__}")
        raise typer.Exit()


app = typer.Typer(
    name="rules-kb",
    help="Look up every edition of the Magic: The Gathering Comprehensive Rules.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)

DbOption = Annotated[
    Path | None,
    typer.Option(
        "--db",
        help="Database file (default: $RULES_KB_DB, else rules.db in the user data dir).",
        show_default=False,
        dir_okay=True,
        readable=False,
    ),
]
EditionOption = Annotated[
    str,
    typer.Option(
        "--edition",
        "-e",
        help="latest, oldest, a date (the edition in force then), or a set code or name"
        " (BRO, 'The Brothers' War').",
    ),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print one JSON document.")]
SplitOption = Annotated[
    bool,
    typer.Option("--split", help="With --format markdown: messages of at most 2,000 characters."),
]


FormatOption = Annotated[
    Format | None,
    typer.Option(
        "--format",
        "-f",
        help="text (terminal), json, or markdown (chat-ready).",
        show_default=False,
    ),
]

P = ParamSpec("P")
R = TypeVar("R")


def command(function: Callable[..., R]) -> Callable[..., R]:
    """Register a command whose failures end as one stderr line and an exit code.

    A command that declares a keyword-only `settings: Settings` is given the global
    options of its command line (`--db`, `--no-pager`, `--verbose`), which Typer's
    callback leaves in the root context; Typer sees the context parameter in its place."""
    signature = inspect.signature(function, eval_str=True)
    wants = "settings" in signature.parameters
    shown = [p for p in signature.parameters.values() if p.name != "settings"]
    shown.append(
        inspect.Parameter("typer_context", inspect.Parameter.KEYWORD_ONLY, annotation=typer.Context)
    )

    @functools.wraps(function)
    def wrapper(*args: Any, typer_context: typer.Context, **kwargs: Any) -> R:
        given = typer_context.find_root().obj
        chosen = given if isinstance(given, Settings) else Settings()
        try:
            return function(*args, **kwargs, **({"settings": chosen} if wants else {}))
        except CAUGHT as failure:
            raise typer.Exit(report(failure, verbose=chosen.verbose)) from None

    wrapper.__signature__ = signature.replace(parameters=shown)  # type: ignore[attr-defined]
    wrapper.__annotations__ = {
        **{p.name: p.annotation for p in shown},
        "return": signature.return_annotation,
    }
    app.command()(wrapper)
    return function


@app.callback()
def _global_options(
    context: typer.Context,
    db: DbOption = None,
    no_pager: Annotated[
        bool, typer.Option("--no-pager", help="Never page long output through $PAGER.")
    ] = False,
    verbose: Annotated[
        bool, typer.Option("--verbose", "-v", help="After an error, print its details too.")
    ] = False,
    version: Annotated[
        bool,
        typer.Option(
            "--version", help="Print the version and exit.", callback=_version, is_eager=True
        ),
    ] = False,
) -> None:
    """Look up, search and compare every edition of the Comprehensive Rules."""
    context.obj = Settings(db=db, pager=not no_pager, verbose=verbose)


def database_path(option: Path | None, settings: Settings) -> Path:
    """The database file: --db (after or before the command), else $RULES_KB_DB, else user data."""
    from rules_kb.cli.opening import database_file

    return database_file(option if option is not None else settings.db)


def knowledge_base(db: Path | None, settings: Settings, *, quiet: bool = False) -> KnowledgeBase:
    """The knowledge base the command works on, with progress bars on a terminal."""
    from rules_kb.cli.opening import opened

    return opened(database_path(db, settings), quiet=quiet)


def screen(settings: Settings) -> Screen:
    """The output of a command (paged unless --no-pager)."""
    from rules_kb.cli.present import screen as made

    return made(settings)


def answer(
    settings: Settings, found: Any, json_out: bool, draw: Callable[[Screen, Any], None]
) -> None:
    """Print what a command found: its JSON (`as_json()`, or each record's for a list)
    with --json, else drawn on the (paged) screen by `draw`."""
    if json_out:
        from rules_kb.cli.output import json_out as print_json

        shown = [item.as_json() for item in found] if isinstance(found, list) else found.as_json()
        print_json(shown)
        return
    out = screen(settings)
    draw(out, found)
    out.flush()


def chosen_format(form: Format | None, json_out: bool) -> Format:
    """--format, with --json as its shorthand."""
    if json_out:
        if form not in (None, Format.json):
            raise Exit("--json and --format markdown do not go together", code=2)
        return Format.json
    return form or Format.text


#: The cyclic collector's thresholds while a command ingests. An ingest allocates
#: millions of short-lived tuples and lists, almost none of them in cycles (reference
#: counting frees them), so the collector's passes at Python's defaults (700, 10, 10) are
#: wasted work; the peak memory is the same either way. Set by the commands, never by the
#: library: an MCP server or a program calling `rules_kb` keeps its own.
INGEST_GC_THRESHOLDS = (50_000, 20, 20)


@contextmanager
def fewer_collections() -> Iterator[None]:
    """The collector at INGEST_GC_THRESHOLDS for the block, as it was afterwards."""
    import gc

    before = gc.get_threshold()
    gc.set_threshold(*INGEST_GC_THRESHOLDS)
    try:
        yield
    finally:
        gc.set_threshold(*before)
