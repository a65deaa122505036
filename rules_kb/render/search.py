"""Output of `search`: hits with highlighted fragments, or the SPEC's JSON."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from rules_kb.render import console, print_json, stderr_terminal

if TYPE_CHECKING:
    from rich.progress import Progress

    from rules_kb.search import Hit, Results

_MARK = re.compile(r"<b>(.*?)</b>", re.S)
# Fewer documents than this index in about a second: no bar for them.
PROGRESS_FROM = 2000

Tick = Callable[[int], None]


def results(found: Results, *, as_json: bool) -> None:
    """The hits of one search."""
    if as_json:
        print_json(found.as_dict())
        return
    from rich.markup import escape

    out = console()
    where = f"edition {found.filters.edition}" if found.filters.edition else "all editions"
    if found.suggestion:
        out.print(f"Did you mean [bold]{escape(found.suggestion)}[/]? Showing results for it.")
    if found.match == "most":
        out.print(
            "[dim]No entry has every word; question words (what, how, when…) were left out.[/]"
        )
    if found.match == "any":
        out.print("[dim]No entry has every word; these have some of them.[/]")
    shown = f", showing {len(found.hits)}" if len(found.hits) < found.total else ""
    out.print(f"[dim]{found.total} matches in {where}{shown}[/]")
    for hit in found.hits:
        out.print(_heading(hit, all_editions=found.filters.edition is None))
        out.print("  " + marked(hit.highlight))


def _heading(hit: Hit, *, all_editions: bool) -> str:
    from rich.markup import escape

    label = f"[bold cyan]{escape(hit.label)}[/]"
    if hit.kind != "rule":
        label += f" [dim]({hit.kind})[/]"
    if all_editions:
        first, last, count = hit.editions[0], hit.editions[-1], len(hit.editions)
        plural = "s" if count > 1 else ""
        label += f"  [dim]{first} → {last} ({count} edition{plural})[/]"
    return label


def marked(highlight: str) -> str:
    """Rich markup for a fragment: <b>match</b> becomes bold yellow, the rest is escaped."""
    from rich.markup import escape

    parts = _MARK.split(highlight)
    return "".join(
        f"[bold yellow]{escape(part)}[/]" if odd else escape(part)
        for odd, part in ((index % 2 == 1, part) for index, part in enumerate(parts))
    )


@contextmanager
def indexing(*, quiet: bool) -> Iterator[Callable[[int, int], Tick]]:
    """A factory for a progress bar on stderr while the index is built or updated."""
    stderr = stderr_terminal()
    bars: list[Progress] = []

    def start(total: int, done: int) -> Tick:
        if quiet or total < PROGRESS_FROM or stderr is None:
            return lambda _n: None
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

        bar = Progress(
            TextColumn("[bold]indexing[/]"),
            BarColumn(),
            MofNCompleteColumn(),
            console=stderr,
            transient=True,
        )
        bar.start()
        bars.append(bar)
        task = bar.add_task("", total=total, completed=done)
        return lambda n: bar.update(task, advance=n)

    try:
        yield start
    finally:
        for bar in bars:
            bar.stop()
