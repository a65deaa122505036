"""A plain `pip install .` must carry the grammars and the data files, not only a checkout."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> zipfile.ZipFile:
    out = tmp_path_factory.mktemp("wheel")
    build = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(out), str(ROOT)],
        capture_output=True,
        text=True,
        check=False,
    )
    if build.returncode != 0:
        pytest.skip(f"pip could not build a wheel here: {build.stderr.strip()[-300:]}")
    return zipfile.ZipFile(next(out.glob("rules_kb-*.whl")))


def test_wheel_ships_every_grammar(wheel: zipfile.ZipFile) -> None:
    names = set(wheel.namelist())
    for grammar in (ROOT / "grammars").glob("*.lark"):
        assert f"rules_kb/grammars/{grammar.name}" in names


def test_wheel_ships_every_module(wheel: zipfile.ZipFile) -> None:
    """A package folder added under rules_kb/ must be listed in pyproject.toml too."""
    names = set(wheel.namelist())
    package = ROOT / "rules_kb"
    missing = [
        path.relative_to(ROOT).as_posix()
        for path in package.rglob("*.py")
        if "__pycache__" not in path.parts and path.relative_to(ROOT).as_posix() not in names
    ]
    assert not missing


def test_wheel_ships_data_files(wheel: zipfile.ZipFile) -> None:
    names = set(wheel.namelist())
    for data in (ROOT / "data").glob("*.toml"):
        assert f"rules_kb/data/{data.name}" in names


def test_wheel_has_the_console_script(wheel: zipfile.ZipFile) -> None:
    entry_points = next(name for name in wheel.namelist() if name.endswith("entry_points.txt"))
    assert "rules-kb = rules_kb.cli:main" in wheel.read(entry_points).decode()


def test_wheel_carries_no_rules_text(wheel: zipfile.ZipFile) -> None:
    """The CR belongs to its publisher: nothing of the shared editions goes in the package."""
    assert not [
        name for name in wheel.namelist() if name.endswith(".txt") and "dist-info" not in name
    ]
