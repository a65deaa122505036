"""What the global options ask of a command's output, made once by whichever path read the
command line (Typer's callback, or the fast path) and passed down: no module keeps it."""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple


class Settings(NamedTuple):
    """The global options of one command line (a named tuple: the fast path loads no
    dataclass machinery)."""

    db: Path | None = None
    """--db given before the command (a command's own --db comes first)."""
    pager: bool = True
    """Whether long output may go through $PAGER (--no-pager turns it off)."""
    verbose: bool = False
    """Whether a failure prints its details after its line (--verbose)."""
