"""`rules-kb ingest`: read CR text files into the database."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from rules_kb.cli.base import (
    DbOption,
    Exit,
    JsonOption,
    command,
    database_path,
    fewer_collections,
    knowledge_base,
)
from rules_kb.cli.settings import Settings


@command
def ingest(
    paths: Annotated[
        list[Path], typer.Argument(help="Files, or folders of .txt files.", readable=False)
    ],
    db: DbOption = None,
    replace: Annotated[
        bool, typer.Option("--replace", help="Overwrite an edition stored with different text.")
    ] = False,
    jobs: Annotated[
        int | None,
        typer.Option(
            "--jobs",
            "-j",
            min=1,
            max=64,
            help="Processes that decode and parse files while one stores them"
            " (default: the cores available).",
            show_default=False,
        ),
    ] = None,
    no_index: Annotated[
        bool,
        typer.Option("--no-index", help="Do not build the search index (the next search will)."),
    ] = False,
    json_out: JsonOption = False,
    *,
    settings: Settings,
) -> None:
    """Read CR text files into the database, one edition per file, then index them."""
    from rules_kb.api import expand
    from rules_kb.cli.output import error
    from rules_kb.cli.render.ingest import printed

    files = list(expand(paths))
    if not files:
        raise Exit("no .txt files found in " + ", ".join(str(path) for path in paths))
    database_path(db, settings)
    kb = knowledge_base(db, settings, quiet=json_out)
    with fewer_collections():
        outcomes = kb.ingest_files(files, replace=replace, index=False, jobs=jobs)
    index_error = None
    if not no_index and kb.path.exists():
        from rules_kb.errors import RulesKbError

        try:
            kb.build_index()
        except RulesKbError as problem:
            index_error = f"the editions are stored, but the search index was not built: {problem}"
    printed(outcomes, settings, as_json=json_out)
    failures = [outcome for outcome in outcomes if outcome.error]
    for failure in failures:
        error(f"{failure.source}: {failure.error}")
    if index_error:
        error(index_error)
    if failures or index_error:
        raise typer.Exit(1)
