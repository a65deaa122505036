"""An ingest session: files read, decoded and parsed (in worker processes when there are
several), and stored in order, each in its own transaction.

The one place that answers "are these bytes stored already?": a plain read-only look at
the database (`stored_digests`) until the session writes, the writer's own afterwards.
`KnowledgeBase.ingest_files` drives a session; `stored_outcomes` answers an ingest that
has nothing to do without loading the writer, the parser or Whoosh.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import stat
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from rules_kb.errors import RulesKbError
from rules_kb.progress import Progress
from rules_kb.records.outcomes import IngestOutcome, IngestResult

#: Whether the search index is up to date with the database read through a connection
#: (the search stage's answer; an ingest with nothing to do asks it in the same snapshot).
IndexFresh = Callable[[sqlite3.Connection], bool]


def stored_outcomes(
    path: Path, files: Iterable[Path], index_fresh: IndexFresh | None
) -> list[IngestOutcome] | None:
    """What ingesting `files` into the database at `path` reports when it has nothing to
    do: every file's bytes stored already and, given `index_fresh`, the search index up to
    date with the database by its say. None when a file is new, changed, missing or
    unreadable, or the database or the index needs work."""
    files = list(files)
    if not files or not path.is_file():
        return None
    stored = stored_digests(path, index_fresh)
    if stored is None:
        return None
    outcomes = []
    for file in files:
        data = read_bytes(file)
        if isinstance(data, IngestOutcome):
            return None
        known = stored.get(hashlib.sha256(data).hexdigest())
        if known is None:
            return None
        outcomes.append(IngestOutcome(display_name(file), known))
    return outcomes


class Session:
    """One writing session on the database at `path`: it is opened on the first file that
    needs it (so a run that fails everywhere creates nothing) and kept open for the rest.
    Process-wide settings, such as the collector's thresholds, are the caller's (`rules-kb
    ingest` sets them; a library never does)."""

    def __init__(self, path: Path, progress: Progress) -> None:
        self.path = path
        self.progress = progress
        self.db: Any = None
        self.digests: dict[str, IngestResult] | None = None

    def __enter__(self) -> Session:
        return self

    def __exit__(self, *_exc: object) -> None:
        if self.db is not None:
            self.db.close()

    def database(self) -> Any:
        """The writable database, opened (created, migrated) now if it was not."""
        if self.db is None:
            from rules_kb.ingest.store import open_db

            self.db = open_db(self.path, self.progress)
        return self.db

    def ingest(
        self, source: str | Path | bytes, *, replace: bool, name: str | None = None
    ) -> IngestOutcome:
        """Read and store one file (or bytes); failures are outcomes, not exceptions."""
        label = name or ("<bytes>" if isinstance(source, bytes) else display_name(Path(source)))
        data = read_bytes(source)
        if isinstance(data, IngestOutcome):
            return IngestOutcome(label, error=data.error)
        known = self.known(data, replace=replace)
        if known is not None:
            return IngestOutcome(label, known)
        return self.store(label, data, parse_bytes(data), replace=replace)

    def ingest_all(self, files: list[Path], *, replace: bool, jobs: int) -> Iterator[IngestOutcome]:
        """Each file's outcome, in order; with `jobs` worker processes, the files still to be
        read are decoded and parsed in them, a few ahead of the one being stored."""
        if jobs < 1 or len(files) < 2:
            for file in files:
                yield self.ingest(file, replace=replace)
            return
        from concurrent.futures import Future, ProcessPoolExecutor

        # Each file: its label, its bytes (or why they cannot be read), and either the stored
        # edition of the same bytes or the worker parsing them.
        pending: list[tuple[str, bytes | IngestOutcome, IngestResult | Future[Parsed] | None]]
        pending = []
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            queue = iter(files)
            while True:
                while len(pending) < 2 * jobs:
                    upcoming = next(queue, None)
                    if upcoming is None:
                        break
                    data = read_bytes(upcoming)
                    work: IngestResult | Future[Parsed] | None = None
                    if not isinstance(data, IngestOutcome):
                        work = self.known(data, replace=replace) or pool.submit(parse_bytes, data)
                    pending.append((display_name(upcoming), data, work))
                if not pending:
                    return
                label, data, work = pending.pop(0)
                if isinstance(data, IngestOutcome):
                    yield IngestOutcome(label, error=data.error)
                elif isinstance(work, IngestResult):
                    yield IngestOutcome(label, work)
                elif work is not None:
                    yield self.store(label, data, work.result(), replace=replace)

    def known(self, data: bytes, *, replace: bool) -> IngestResult | None:
        """The stored edition these very bytes were read into before, if any. Until this
        session writes, that is read from a plain read-only look at the database, so a
        re-ingest of unchanged files never loads the writer."""
        if replace or not self.path.exists():
            return None
        digest = hashlib.sha256(data).hexdigest()
        if self.db is None:
            if self.digests is None:
                self.digests = stored_digests(self.path)
            if self.digests is not None:
                return self.digests.get(digest)
        from rules_kb.ingest import store

        return store.stored_copy(self.database(), digest)

    def store(self, label: str, data: bytes, parsed: Parsed, *, replace: bool) -> IngestOutcome:
        """Store what was read from `data`, in one transaction."""
        from rules_kb.ingest import pipeline

        if isinstance(parsed, str):
            return IngestOutcome(label, error=parsed)
        edition, decoded = parsed
        try:
            result = pipeline.ingest_read(
                self.database(), data, edition, decoded, source=label, replace=replace
            )
        except RulesKbError as error:
            return IngestOutcome(label, error=one_line(str(error)))
        return IngestOutcome(label, result)


def stored_digests(
    path: Path, index_fresh: IndexFresh | None = None
) -> dict[str, IngestResult] | None:
    """Every stored edition by the digest of its bytes, read without the writer; None
    when the database needs the writer first (an older schema, or not a database), or,
    given `index_fresh`, when it says the search index is not up to date."""
    from rules_kb.ingest import schema
    from rules_kb.ingest.readonly import connect_read_only, stored_copies

    try:
        conn = connect_read_only(path)
        try:
            conn.execute("BEGIN")  # one snapshot for the editions and the index stamp
            if int(conn.execute("PRAGMA user_version").fetchone()[0]) != schema.VERSION:
                return None
            if index_fresh is not None and not index_fresh(conn):
                return None
            return stored_copies(conn)
        finally:
            conn.close()
    except sqlite3.Error:
        return None


#: What reading a file's bytes gave: the edition and how it was decoded, or an error.
Parsed = Any


#: The largest file an ingest reads: an edition is about 1 MB (2 MB in UTF-16).
MAX_INPUT_BYTES = 16 * 1024 * 1024


def read_bytes(source: str | Path | bytes) -> bytes | IngestOutcome:
    """A file's bytes, or an outcome saying why they cannot be read: only a regular file of
    at most MAX_INPUT_BYTES is read (a FIFO or device would block or never end), and never
    more than that, whatever the file does meanwhile."""
    if isinstance(source, bytes):
        return source
    try:
        descriptor = os.open(source, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except IsADirectoryError:
        return IngestOutcome("", error="is a folder")
    except FileNotFoundError:
        return IngestOutcome("", error="no such file or folder")
    except PermissionError:
        return IngestOutcome("", error="permission denied")
    except OSError as error:
        return IngestOutcome("", error=error.strerror or str(error))
    with os.fdopen(descriptor, "rb") as file:
        info = os.fstat(file.fileno())
        if stat.S_ISDIR(info.st_mode):
            return IngestOutcome("", error="is a folder")
        if not stat.S_ISREG(info.st_mode):
            return IngestOutcome("", error="not a regular file (a pipe, device or socket)")
        if info.st_size > MAX_INPUT_BYTES:
            return IngestOutcome("", error=_too_large(info.st_size))
        try:
            # Asked for its size and a byte more, not for the limit: a read of 16 MB would
            # set aside 16 MB for each file (three times the cost of reading an edition).
            # A file that grew since it was measured is read on, up to the limit.
            data = file.read(info.st_size + 1)
            if len(data) > info.st_size:
                data += file.read(MAX_INPUT_BYTES + 1 - len(data))
        except OSError as error:
            return IngestOutcome("", error=error.strerror or str(error))
    if len(data) > MAX_INPUT_BYTES:
        return IngestOutcome("", error=_too_large(len(data)))
    return data


def _too_large(size: int) -> str:
    return (
        f"{size / 1048576:,.1f} MB is too large for an edition"
        f" (at most {MAX_INPUT_BYTES // 1048576} MB)"
    )


def parse_bytes(data: bytes) -> Parsed:
    """Decode and parse (in a worker process, or here): the records, or one error line."""
    from rules_kb.ingest import pipeline

    try:
        return pipeline.read_edition(data)
    except RulesKbError as error:
        return one_line(str(error))


def expand(paths: Iterable[str | Path]) -> Iterator[Path]:
    """Files as given; folders as the .txt files directly in them, sorted."""
    for given in paths:
        path = Path(given)
        if path.is_dir():
            yield from sorted(
                child
                for child in path.iterdir()
                # (a broken link is listed, to fail with its own message)
                if child.suffix.lower() == ".txt" and (child.is_file() or child.is_symlink())
            )
        else:
            yield path  # a missing file fails on its own when it is read


def display_name(path: Path) -> str:
    """A file's name as it can be printed and stored (undecodable bytes shown as U+FFFD)."""
    return path.name.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def one_line(message: str) -> str:
    """The first line of a message (errors are one line; details stay on the exception)."""
    return message.strip().splitlines()[0] if message.strip() else message
