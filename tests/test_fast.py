"""The fast path answers a plain lookup exactly as the Typer command would, and leaves
every other command line to Typer."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from rules_kb.cli.fast import parse
from tests.conftest import run_cli

LOOKUPS = [
    ["rule", "702.19"],
    ["rule", "CR 702.19(b)", "-e", "2022-11-18"],
    ["rule", "702.19", "--json"],
    ["rule", "--edition=BRO", "702.19", "--format", "markdown"],
    ["rule", "702.175", "-e", "2024-09-20", "--json"],
    ["rule", "502.9"],
    ["rule", "799.99", "--json"],
    ["rule", "702.19", "-e", "1990-01-01"],
    ["define", "APNAP order"],
    ["define", "trampel", "--json"],
    ["define", "Substance"],
    ["define", "flash back", "-f", "markdown", "--split"],
]


@pytest.mark.parametrize("args", LOOKUPS, ids=lambda a: " ".join(a))
def test_the_fast_path_prints_what_typer_prints(all_editions_db: Path, args: list[str]) -> None:
    assert parse(["--db", str(all_editions_db), *args]) is not None
    env = {name: value for name, value in os.environ.items() if name != "COLUMNS"}
    fast = subprocess.run(
        [sys.executable, "-m", "rules_kb", "--db", str(all_editions_db), *args],
        capture_output=True, text=True, env=env, check=False,
    )  # fmt: skip
    typer = run_cli("--db", all_editions_db, *args)
    assert (fast.returncode, fast.stdout, fast.stderr) == (
        typer.exit_code,
        typer.stdout,
        typer.stderr,
    )


@pytest.mark.parametrize(
    "args",
    [
        ["rule"],
        ["rule", "--help"],
        ["--help"],
        ["--version"],
        ["rule", "702.19", "702.20"],
        ["rule", "702.19", "--bogus"],
        ["rule", "702.19", "-e"],
        ["rule", "702.19", "--json", "--format", "markdown"],
        ["rule", "702.19", "--format", "yaml"],
        ["search", "trample"],
        ["-v", "rule", "702.19"],
        ["rule", "702.19", "--no-pager"],
    ],
    ids=lambda a: " ".join(a),
)
def test_anything_else_is_left_to_typer(args: list[str]) -> None:
    assert parse(args) is None


def test_a_lookup_in_a_pipe_imports_neither_typer_nor_rich(all_editions_db: Path) -> None:
    code = (
        "import sys\n"
        "from rules_kb.cli import main\n"
        "sys.argv = ['rules-kb', 'rule', '702.19', '--db', sys.argv[1]]\n"
        "try:\n"
        "    main()\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in {'typer', 'rich', 'click'}),"
        " file=sys.stderr)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(all_editions_db)], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr.strip() == "[]"
    assert "Trample" in done.stdout


def test_a_reingest_of_unchanged_files_never_loads_the_writer(tmp_path: Path) -> None:
    """Unchanged bytes are recognised from a read-only look at the database: neither
    sqlite-utils nor the parser is imported, and the answer is the stored edition's."""
    from tests.conftest import edition_files, ok_cli

    files = edition_files()[-2:]
    if len(files) < 2:
        pytest.skip("../shared/cr/editions is not there")
    db = tmp_path / "two.db"
    ok_cli("ingest", *files, "--db", db, "--no-index")
    code = (
        "import sys, rules_kb\n"
        "kb = rules_kb.open(sys.argv[1])\n"
        "done = kb.ingest_files(sys.argv[2:], index=False)\n"
        "print([(o.result.date, o.result.status) for o in done])\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in {'sqlite_utils', 'lark'}"
        " or m in {'rules_kb.store', 'rules_kb.parse'}))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(db), *map(str, files)], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    outcomes, modules = done.stdout.splitlines()
    assert outcomes == str([(f.stem, "unchanged") for f in files])
    assert modules == "[]"


@pytest.mark.parametrize(
    ("args", "kept"),
    [
        (["search", "trample"], ["search"]),
        (["--db", "diff", "-v", "history", "702.19"], ["history"]),
        (["--db=x.db", "rule", "702.19", "702.20"], ["rule"]),
        (["--help"], None),
        (["serch", "trample"], None),
        ([], None),
    ],
)
def test_typer_reads_only_the_command_it_runs(args: list[str], kept: list[str] | None) -> None:
    code = (
        "import sys, json\n"
        "from rules_kb.cli.registry import app, command_name, only\n"
        "every = [command_name(i) for i in app.registered_commands]\n"
        "only(json.loads(sys.argv[1]))\n"
        "names = [command_name(i) for i in app.registered_commands]\n"
        "print(json.dumps(None if names == every else names))\n"
    )
    import json

    done = subprocess.run(
        [sys.executable, "-c", code, json.dumps(args)], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == kept


def test_the_entry_point_still_answers_every_command_line(all_editions_db: Path) -> None:
    def entry(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "rules_kb", *args], capture_output=True, text=True
        )

    listed = entry("--help")
    assert listed.returncode == 0
    assert all(name in listed.stdout for name in ("search", "history", "ingest", "mcp"))
    found = entry("--db", str(all_editions_db), "search", "trample", "--json")
    assert found.returncode == 0, found.stderr
    assert '"702.19' in found.stdout
    typo = entry("serch", "trample")
    assert typo.returncode == 2 and "No such command" in typo.stderr
    helped = entry("where", "--help")
    assert helped.returncode == 0 and "--to" in helped.stdout
