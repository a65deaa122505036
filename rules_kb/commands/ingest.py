"""`rules-kb ingest`: read CR text files into the database."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NamedTuple

import typer

from rules_kb.app import DbOption, Exit, JsonOption, command, database_path
from rules_kb.errors import RulesKbError

if TYPE_CHECKING:
    from rules_kb.store import IngestResult


class Outcome(NamedTuple):
    """What happened to one file given to `ingest`."""

    path: Path
    result: IngestResult | None
    error: str | None


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
    from rules_kb.render import ingest as render

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
    from rules_kb import pipeline, store
    from rules_kb.render import progress

    database = store.open_db(path)
    outcomes: list[Outcome] = []
    with progress(len(files), quiet=quiet) as advance:
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
