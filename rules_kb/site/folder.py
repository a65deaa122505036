"""The output folder: refuse one we did not write, build beside it, swap when done.

A build writes into a temporary folder next to OUT and renames it into place only when
every page is written, so a failed build leaves OUT exactly as it was.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from rules_kb.errors import RulesKbError

#: The file that marks a folder as written by `rules-kb site` (it may be rebuilt).
MARK = ".rules-kb-site"


class NotOurFolder(RulesKbError):
    """The output folder has files that `rules-kb site` did not write."""


def check(out: Path) -> None:
    """Refuse a file, or a non-empty folder without our mark."""
    if out.is_symlink() or (out.exists() and not out.is_dir()):
        raise NotOurFolder(f"{out} exists and is not a folder")
    if out.is_dir() and not (out / MARK).is_file() and any(out.iterdir()):
        raise NotOurFolder(
            f"{out} is not empty and was not written by rules-kb site; give a new or empty folder"
        )


@contextmanager
def staged(out: Path) -> Iterator[Path]:
    """A fresh folder to build in; on success it replaces `out`, on failure it goes."""
    check(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    temporary = Path(tempfile.mkdtemp(prefix=f".{out.name}.building-", dir=out.parent))
    try:
        yield temporary
        (temporary / MARK).write_text("written by rules-kb site; it may replace this folder\n")
        os.chmod(temporary, 0o755)
        swap(temporary, out)
    except BaseException:
        shutil.rmtree(temporary, ignore_errors=True)
        raise


def swap(new: Path, out: Path) -> None:
    """Put `new` where `out` is, then remove the old one."""
    check(out)  # it may have changed while we built
    if not out.exists():
        new.rename(out)
        return
    old = Path(tempfile.mkdtemp(prefix=f".{out.name}.old-", dir=out.parent))
    old.rmdir()
    out.rename(old)
    try:
        new.rename(out)
    except OSError:
        old.rename(out)
        raise
    shutil.rmtree(old, ignore_errors=True)
