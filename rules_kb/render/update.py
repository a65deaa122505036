"""Output of `rules-kb update`: the download bar and what the update did."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from rules_kb.render import console, print_json, stderr_terminal

if TYPE_CHECKING:
    from rules_kb.fetch import Download
    from rules_kb.store import IngestResult


@contextmanager
def download_progress(*, quiet: bool) -> Iterator[Callable[[int, int | None], None]]:
    """A byte-counting bar on stderr (terminals only); yields the fetch progress callback."""
    stderr = stderr_terminal()
    if quiet or stderr is None:
        yield lambda _done, _total: None
        return
    from rich.progress import (
        BarColumn,
        DownloadColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
        TransferSpeedColumn,
    )

    bar = Progress(
        TextColumn("[bold]download[/]"),
        BarColumn(),
        DownloadColumn(),
        TransferSpeedColumn(),
        TimeRemainingColumn(),
        console=stderr,
        transient=True,
    )
    with bar:
        task = bar.add_task("", total=None)

        def advance(done: int, total: int | None) -> None:
            bar.update(task, completed=done, total=total)

        yield advance


def update_result(result: IngestResult, download: Download, *, as_json: bool) -> None:
    """One line saying what the update did, or one JSON document."""
    if as_json:
        print_json(
            {
                "edition": result.date,
                "status": result.status,
                "source": download.name,
                "url": download.url,
                "rules": result.rules,
                "examples": result.examples,
                "glossary": result.glossary,
                "warnings": list(result.warnings),
            }
        )
        return
    from rich.markup import escape

    out = console()
    source = escape(download.name)
    if result.status == "unchanged":
        out.print(
            f"edition {result.date} is already present ({source}); nothing changed", soft_wrap=True
        )
        return
    verb = "[green]added[/]" if result.status == "added" else "[yellow]replaced[/]"
    out.print(
        f"{verb} edition {result.date} from {source}: {result.rules} rules,"
        f" {result.examples} examples, {result.glossary} glossary entries",
        soft_wrap=True,
    )
    for warning in result.warnings:
        out.print(f"[dim]warning: {escape(warning)}[/]", soft_wrap=True)
