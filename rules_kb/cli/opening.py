"""Which database a command works on, and opening it: shared by the Typer commands and
the fast path (`rules_kb.cli.fast`), so it imports neither Typer nor, in a pipe, rich."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from rules_kb.cli.failures import Exit

if TYPE_CHECKING:
    from rules_kb.api import KnowledgeBase


def database_file(chosen: Path | None) -> Path:
    """The database file: the one chosen (--db), else $RULES_KB_DB, else user data; a
    folder is refused with a hint."""
    from rules_kb.api import default_path

    path = chosen if chosen is not None else default_path()
    if path.is_dir():
        raise Exit(f"{path} is a folder: give the database file, e.g. {path / 'rules.db'}")
    return path


def opened(path: Path, *, quiet: bool = False) -> KnowledgeBase:
    """The knowledge base at `path`, with progress bars on a terminal unless `quiet`."""
    import rules_kb
    from rules_kb.progress import Progress, silent

    progress: Progress = silent
    if not quiet:
        from rules_kb.cli.progress import bars

        progress = bars()
    return rules_kb.open(path, progress=progress)
