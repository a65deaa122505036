"""How the core reports progress without printing: a callback that faces turn into bars."""

from __future__ import annotations

from collections.abc import Callable

Advance = Callable[[int, str], None]
"""Called with how many more items are done and a note on the last one (may be "")."""
Progress = Callable[[str, int], Advance]
"""Called once per task with its label and total; returns the function to advance it."""


def silent(_label: str, _total: int) -> Advance:
    """A progress callback that shows nothing."""
    return _ignore


def _ignore(_count: int, _note: str) -> None:
    pass
