"""Progress bars on stderr for the core's long work, shown only when stderr is a terminal."""

from __future__ import annotations

import atexit
import sys

from rules_kb.progress import Advance, Progress, silent

#: Tasks with fewer items than this finish too fast to need a bar.
SMALL = 2


def bars() -> Progress:
    """A progress callback that draws one transient bar per task (rich, imported only when
    stderr is a terminal)."""
    if not sys.stderr.isatty():
        return silent
    return _start


def _start(label: str, total: int) -> Advance:
    if total < SMALL:
        return lambda _count, _note: None
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    bar = Progress(
        TextColumn("{task.fields[label]}", style="bold"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("{task.description}", markup=False),
        console=Console(stderr=True),
        transient=True,
    )
    bar.start()
    atexit.register(bar.stop)
    task = bar.add_task("", total=total, label=label)
    done = [0]

    def advance(count: int, note: str) -> None:
        done[0] += count
        bar.update(task, advance=count, description=_printable(note))
        if done[0] >= total:
            bar.stop()

    return advance


def _printable(note: str) -> str:
    from rules_kb.controls import visible

    return visible(note)
