"""Progress on stderr for the core's long work: bars on a terminal, a line per stage
otherwise (a build that takes minutes in a log or a CI job is not silent until it ends)."""

from __future__ import annotations

import atexit
import sys
import time

from rules_kb.progress import Advance, Progress

#: Tasks with fewer items than this finish too fast to need a bar.
SMALL = 2


#: Outside a terminal, a task says how far it is every EVERY seconds, and that it is done
#: when it took LONG seconds or more: quick work (and its one-line errors) stays quiet.
EVERY = 10.0
LONG = 2.0


def bars() -> Progress:
    """A progress callback that draws one transient bar per task on a terminal (rich,
    imported only then), and otherwise writes a line for each long task (see _stage)."""
    if not sys.stderr.isatty():
        return _stage
    return _start


def _stage(label: str, total: int) -> Advance:
    """Lines for a log: how far a task is, every EVERY seconds, and its time at the end
    when it took LONG seconds or more."""
    if total < SMALL:
        return lambda _count, _note: None
    started = time.monotonic()
    said = [started]
    done = [0]
    shown = _printable(label)

    def advance(count: int, _note: str) -> None:
        done[0] += count
        now = time.monotonic()
        if done[0] >= total and count:
            if now - started >= LONG:
                sys.stderr.write(f"rules-kb: {shown}: {total:,} in {now - started:.1f} s\n")
                sys.stderr.flush()
        elif now - said[0] >= EVERY:
            said[0] = now
            sys.stderr.write(f"rules-kb: {shown}: {done[0]:,} of {total:,}…\n")
            sys.stderr.flush()

    return advance


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
