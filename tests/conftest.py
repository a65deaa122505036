"""Shared fixtures: the real editions in ../shared, and a database that is never the user's."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

SHARED = Path(__file__).resolve().parents[2] / "shared" / "cr" / "editions"


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
