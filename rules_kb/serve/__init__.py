"""`rules-kb serve`: Datasette on the database, read-only, with the package's metadata.

Datasette is an optional extra (`pip install 'rules-kb[serve]'`); this module only
prepares what it is given: the database opened immutable (nobody writes it while it
is served), bound to 127.0.0.1 unless another host is asked for (arbitrary SQL is then
off unless allowed), Datasette's time and row limits, the guard plugin of
`rules_kb/serve/plugins/` (no costly functions, clean refusals), and a metadata file
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


#: Addresses that only this machine reaches: arbitrary SQL is on there by default.
LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1"})
#: Datasette's limits: a query's time, the rows a page or query returns.
SQL_TIME_LIMIT_MS = 3000
MAX_RETURNED_ROWS = 1000


def command(
    database: Path, *, host: str = "127.0.0.1", port: int = 8001, allow_sql: bool | None = None
) -> list[str]:
    """The Datasette command line that serves `database`; its metadata is written to the
    user cache directory (one file per database name, rewritten each time).

    Arbitrary SQL is allowed on a loopback address and refused on any other unless
    `allow_sql`; the guard plugin (rules_kb/serve/plugins) is always loaded."""
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
    sql = allow_sql if allow_sql is not None else host in LOOPBACK or host.startswith("127.")
    plugins = Path(__file__).resolve().parent / "plugins"
    return [
        sys.executable, "-m", "datasette", "serve", "--immutable", str(database),
        "--metadata", str(described), "--host", host, "--port", str(port),
        "--plugins-dir", str(plugins),
        "--setting", "sql_time_limit_ms", str(SQL_TIME_LIMIT_MS),
        "--setting", "max_returned_rows", str(MAX_RETURNED_ROWS),
        "--setting", "default_allow_sql", "on" if sql else "off",
    ]  # fmt: skip
