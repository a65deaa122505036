"""Presentation only: rich output for people, JSON for programs. Shared helpers here."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.console import Console


@cache
def console() -> Console:
    """The stdout console; rich is imported only when something is printed."""
    from rich.console import Console

    return Console(highlight=False)


def print_json(document: Any) -> None:
    """One JSON document on stdout."""
    sys.stdout.write(json.dumps(document, ensure_ascii=False, indent=2) + "\n")


def stderr_terminal() -> Console | None:
    """A console on stderr when stderr is a terminal; progress shows nowhere else."""
    from rich.console import Console

    stderr = Console(stderr=True)
    return stderr if stderr.is_terminal else None


@contextmanager
def progress(total: int, *, quiet: bool) -> Iterator[Callable[[str], None]]:
    """A progress bar on stderr; yields a function to call after each item."""
    stderr = stderr_terminal()
    if quiet or total < 2 or stderr is None:
        yield lambda _name: None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    bar = Progress(
        TextColumn("[bold]ingest[/]"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("{task.description}"),
        console=stderr,
        transient=True,
    )
    with bar:
        task = bar.add_task("", total=total)
        yield lambda name: bar.update(task, advance=1, description=name)
