"""`rules-kb serve`: Datasette on the database, read-only, with the package's metadata.

Datasette is an optional extra (`pip install 'rules-kb[serve]'`); this module only
prepares what it is given: the database opened immutable (nobody writes it while it
is served), bound to 127.0.0.1 unless another host is asked for, and a metadata file
describing every table, view and column.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

from rules_kb.errors import RulesKbError


class ServeUnavailable(RulesKbError):
    """Datasette is not installed (it is the optional extra `serve`)."""


def metadata(database: Path) -> dict[str, object]:
    """The Datasette metadata for a database file: title, description, and a description
    of every table, view and column (from `data/datasette.json`)."""
    from rules_kb.resources import read_text

    described = json.loads(read_text("rules_kb.data", "datasette.json"))
    tables = described.pop("tables")
    return {**described, "databases": {database.stem: {"tables": tables}}}


def command(database: Path, *, host: str = "127.0.0.1", port: int = 8001) -> list[str]:
    """The Datasette command line that serves `database`; its metadata is written to the
    user cache directory (one file per database name, rewritten each time)."""
    if importlib.util.find_spec("datasette") is None:
        raise ServeUnavailable(
            "serve needs Datasette, the optional extra: pip install 'rules-kb[serve]'"
        )
    if not database.is_file():
        raise RulesKbError(f"no database at {database}: run `rules-kb ingest PATH` first")
    from platformdirs import user_cache_path

    folder = user_cache_path("rules-kb", appauthor=False)
    folder.mkdir(parents=True, exist_ok=True)
    described = folder / f"datasette-{database.stem}.json"
    described.write_text(json.dumps(metadata(database), ensure_ascii=False), encoding="utf-8")
    return [
        sys.executable, "-m", "datasette", "serve", "--immutable", str(database),
        "--metadata", str(described), "--host", host, "--port", str(port),
        "--setting", "sql_time_limit_ms", "3000",
    ]  # fmt: skip
