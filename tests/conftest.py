"""Shared fixtures: the real editions in ../shared, and a database that is never the user's."""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from sqlite_utils import Database
    from typer.testing import Result

#: The checkout, and the small fixtures written for the tests.
ROOT = Path(__file__).resolve().parents[1]
FIXTURES = Path(__file__).parent / "fixtures"
#: The shared editions; RULES_KB_SHARED points elsewhere (a missing folder shows what the
#: fast tier does without them).
SHARED = Path(
    os.environ.get("RULES_KB_SHARED")
    or Path(__file__).resolve().parents[2] / "shared" / "cr" / "editions"
)


#: Fixtures that read the shared editions: a test that uses one (directly or through
#: another fixture) is in the corpus tier.
CORPUS_FIXTURES = frozenset({"shared_editions", "all_editions_db", "small_db"})


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "corpus: reads the shared editions in ../shared; `pytest -m 'not corpus'` is the fast tier",
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the corpus tier; without ../shared its tests skip with one reason."""
    missing = pytest.mark.skip(reason=f"{SHARED} is not there (the corpus tier)")
    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        needs = any(
            "shared" in str(mark.kwargs.get("reason", "")) for mark in item.iter_markers("skipif")
        )
        if fixtures & CORPUS_FIXTURES or needs:
            item.add_marker(pytest.mark.corpus)
        if item.get_closest_marker("corpus") and not SHARED.is_dir():
            item.add_marker(missing)


def edition_files() -> list[Path]:
    """The 134 shared editions (empty when ../shared is missing)."""
    return sorted(SHARED.glob("*.txt")) if SHARED.is_dir() else []


def variant_files() -> list[Path]:
    """The damaged and re-encoded copies in variants/."""
    folder = SHARED / "variants"
    return sorted(folder.glob("*.txt")) if folder.is_dir() else []


@pytest.fixture(autouse=True)
def _private_database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Point every test at a temporary database and data dir, never the user's."""
    monkeypatch.setenv("RULES_KB_DB", str(tmp_path / "rules.db"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    yield


@pytest.fixture(scope="session")
def shared_editions() -> Path:
    """The shared editions folder, or skip."""
    if not SHARED.is_dir():
        pytest.skip("../shared/cr/editions is not there")
    return SHARED


@pytest.fixture(scope="session")
def all_editions_db(tmp_path_factory: pytest.TempPathFactory, shared_editions: Path) -> Path:
    """One database with every shared edition, ingested once per session through the CLI.

    Tests only read it (the search index may be built beside it).
    """
    from typer.testing import CliRunner

    from rules_kb.cli import app

    path = tmp_path_factory.mktemp("all") / "all.db"
    result = CliRunner().invoke(app, ["ingest", str(shared_editions), "--db", str(path), "--json"])
    assert result.exit_code == 0, result.output
    outcomes = json.loads(result.stdout)
    assert len(outcomes) == len(edition_files())
    assert {outcome["status"] for outcome in outcomes} == {"added"}
    return path


def run_cli(*args: str | Path) -> Result:
    """Invoke the app in-process; stderr is kept apart from stdout."""
    from typer.testing import CliRunner

    from rules_kb.cli import app

    return CliRunner().invoke(app, [str(arg) for arg in args])


def ok_cli(*args: str | Path) -> Result:
    """Invoke the app and require success, showing the output when it fails."""
    result = run_cli(*args)
    assert result.exit_code == 0, result.output
    return result


def dump_database(path: Path) -> list[str]:
    """Schema and every committed row, read through a separate connection."""
    conn = sqlite3.connect(path)
    try:
        return list(conn.iterdump())
    finally:
        conn.close()


def downgrade(db: Database, version: int) -> None:
    """Make a database look as an older rules-kb left it: drop what the migrations after
    `version` created (their tables and views) and set the schema version back."""
    later = {
        2: ("refs", "alignments", "lineage"),
        3: ("alignments", "lineage"),
        4: (),
        5: (),
    }[version]
    for (view,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'view'").fetchall():
        db.execute(f"DROP VIEW {view}")
    for table in later:
        db.execute(f"DROP TABLE {table}")
    db.execute(f"PRAGMA user_version = {version}")


def mcp_server_params(db: Path) -> Any:
    """How the MCP SDK's stdio client starts `rules-kb mcp` on a database."""
    import os
    import sys

    from mcp import StdioServerParameters

    return StdioServerParameters(
        command=sys.executable, args=["-m", "rules_kb", "--db", str(db), "mcp"],
        env={**os.environ, "RULES_KB_DB": str(db)},
    )  # fmt: skip
