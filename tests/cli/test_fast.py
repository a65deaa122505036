"""The fast path answers a plain lookup exactly as the Typer command would, and leaves
every other command line to Typer."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rules_kb.cli import fast_options, tables
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
    ["search", "trample"],
    ["search", "trampel", "--json", "-n", "3"],
    ["search", '"damage prevention"', "-e", "2022-11-18", "--limit=5", "-f", "markdown"],
    ["search", "zzzqqqxxy"],
    ["search", "AND"],
    ["-v", "rule", "799.99"],
    ["--no-pager", "show", "does deathtouch work with trample?", "--limit=3"],
    ["show", "deathtouch", "-n", "2", "--json"],
]


def _fresh_process(*args: str | Path) -> subprocess.CompletedProcess[str]:
    """`python -m rules_kb ARGS` as a fresh process, without $COLUMNS (as CliRunner)."""
    env = {name: value for name, value in os.environ.items() if name != "COLUMNS"}
    return subprocess.run(
        [sys.executable, "-m", "rules_kb", *map(str, args)],
        capture_output=True, text=True, env=env, check=False,
    )  # fmt: skip


@pytest.mark.parametrize("args", LOOKUPS, ids=lambda a: " ".join(a))
def test_the_fast_path_prints_what_typer_prints(all_editions_db: Path, args: list[str]) -> None:
    assert parse(["--db", str(all_editions_db), *args]) is not None
    fast = _fresh_process("--db", all_editions_db, *args)
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
        ["search", "trample", "--kind", "rule"],
        ["search", "trample", "-n", "0"],
        ["search", "trample", "--all-editions"],
        ["rule", "702.19", "-n", "3"],
        ["rule", "702.19", "--no-pager"],
        ["--version", "rule", "702.19"],
        ["search", "trample", "--chapter", "702"],
        ["search", "trample", "--section=7"],
        ["show", "trample", "-n", "501"],
        ["show", "trample", "-n3"],
        ["rule", "--", "702.19"],
    ],
    ids=lambda a: " ".join(a),
)
def test_anything_else_is_left_to_typer(args: list[str]) -> None:
    assert parse(args) is None


def _loaded_after(db: Path, args: list[str], wanted: str) -> tuple[str, list[str]]:
    """Run a command line in a fresh process through `rules_kb.cli.main`; what it printed,
    and the loaded modules for which the expression `wanted` (of `m`) holds."""
    code = (
        "import sys\n"
        "from rules_kb.cli import main\n"
        f"sys.argv = ['rules-kb', *{args!r}, '--db', sys.argv[1]]\n"
        "try:\n"
        "    main()\n"
        "except SystemExit:\n"
        "    pass\n"
        f"print(repr(sorted(m for m in sys.modules if {wanted})), file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", code, str(db)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout, ast.literal_eval(done.stderr.strip().splitlines()[-1])


@pytest.mark.parametrize("command", ["rule 702.19", "search trample"])
def test_a_lookup_in_a_pipe_imports_neither_typer_nor_rich(
    all_editions_db: Path, command: str
) -> None:
    shown, loaded = _loaded_after(
        all_editions_db, command.split(), "m.split('.')[0] in {'typer', 'rich', 'click'}"
    )
    assert loaded == []
    assert "Trample" in shown


@pytest.mark.parametrize(
    ("args", "records"),
    [
        (["search", "trample"], []),
        (["show", "does deathtouch work with trample?"], ["rules_kb.records.answers"]),
    ],
    ids=["search", "show QUESTION"],
)
def test_a_search_or_a_question_defines_only_the_records_it_makes(
    all_editions_db: Path, args: list[str], records: list[str]
) -> None:
    """Defining the records of `core` (two dozen slotted dataclasses) costs a cold process
    about a fifth of a search: a search makes none of them, and a question only the
    records of `answers`."""
    shown, loaded = _loaded_after(
        all_editions_db, args, "m in {'rules_kb.records.core', 'rules_kb.records.answers'}"
    )
    assert loaded == records
    assert "702.19" in shown or "702.2c" in shown


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
        " or m in {'rules_kb.ingest.store', 'rules_kb.ingest.parse'}))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(db), *map(str, files)], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    outcomes, modules = done.stdout.splitlines()
    assert outcomes == str([(f.stem, "unchanged") for f in files])
    assert modules == "[]"


def test_a_reingest_of_unchanged_files_never_loads_the_search_index(tmp_path: Path) -> None:
    """`rules-kb ingest` of stored files asks only whether the index is fresh: that is read
    from the index folder's stamp, without the index module or Whoosh (a tenth of the
    command's time)."""
    from tests.conftest import ok_cli

    db = tmp_path / "one.db"
    edition = Path(__file__).parent.parent / "fixtures" / "modern.txt"
    ok_cli("ingest", edition, "--db", db)
    script = (
        "import atexit, sys\n"
        "atexit.register(lambda: print('LOADED:', sorted(m for m in sys.modules"
        " if m.split('.')[0] == 'whoosh' or m == 'rules_kb.search.index')))\n"
        f"sys.argv = ['rules-kb', 'ingest', {str(edition)!r}, '--db', {str(db)!r}, '--json']\n"
        "from rules_kb.cli import main\n"
        "main()\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert '"unchanged"' in done.stdout
    assert done.stdout.strip().splitlines()[-1] == "LOADED: []"


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


@pytest.fixture(scope="module")
def two_editions(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Path]]:
    from tests.conftest import edition_files, ok_cli

    files = edition_files()[-3:]
    if len(files) < 3:
        pytest.skip("../shared/cr/editions is not there")
    db = tmp_path_factory.mktemp("fast-ingest") / "two.db"
    ok_cli("ingest", *files[:2], "--db", db)
    return db, files


@pytest.mark.parametrize("json_flag", [[], ["--json"]], ids=["text", "json"])
def test_an_ingest_with_nothing_to_do_prints_what_typer_prints(
    two_editions: tuple[Path, list[Path]], json_flag: list[str]
) -> None:
    db, files = two_editions
    args = ["ingest", *map(str, files[:2]), "--db", str(db), *json_flag]
    assert parse(args) is not None
    fast = _fresh_process(*args)
    typer = run_cli(*args)
    assert (fast.returncode, fast.stdout, fast.stderr) == (0, typer.stdout, typer.stderr)
    assert "unchanged" in fast.stdout and "added" not in fast.stdout


def test_an_ingest_with_work_to_do_is_left_to_typer(
    two_editions: tuple[Path, list[Path]], tmp_path: Path
) -> None:
    """A new file, a missing one, a missing database or a stale index: the command
    does the work (or says why it cannot), as before."""
    import rules_kb

    db, files = two_editions
    kb = rules_kb.open(db)
    assert kb.stored_outcomes(files[:2]) is not None
    assert kb.stored_outcomes(files) is None  # the third is new
    assert kb.stored_outcomes([*files[:1], tmp_path / "missing.txt"]) is None
    assert rules_kb.open(tmp_path / "none.db").stored_outcomes(files[:1]) is None
    copy = tmp_path / "copy.db"
    copy.write_bytes(db.read_bytes())  # the same editions, and no index beside it
    assert rules_kb.open(copy).stored_outcomes(files[:2]) is None
    assert rules_kb.open(copy).stored_outcomes(files[:2], index=False) is not None
    done = _fresh_process("ingest", str(files[0]), "--db", str(copy), "--json")
    assert done.returncode == 0 and '"unchanged"' in done.stdout
    assert rules_kb.open(copy).stored_outcomes(files[:2]) is not None  # the index was built


def test_an_ingest_with_nothing_to_do_loads_no_writer_parser_whoosh_or_typer(
    two_editions: tuple[Path, list[Path]],
) -> None:
    db, files = two_editions
    code = (
        "import sys\n"
        "from rules_kb.cli import main\n"
        "sys.argv = ['rules-kb', 'ingest', *sys.argv[1:]]\n"
        "try:\n"
        "    main()\n"
        "except SystemExit:\n"
        "    pass\n"
        "heavy = {'typer', 'click', 'rich', 'whoosh', 'sqlite_utils', 'lark', 'dataclasses'}\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in heavy), file=sys.stderr)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, *map(str, files[:2]), "--db", str(db)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stderr.strip() == "[]"
    assert done.stdout.count("unchanged") == 3  # two files, and the total


@pytest.mark.parametrize(
    "args",
    [
        ["ingest"],
        ["ingest", "--help"],
        ["ingest", "a.txt", "--replace"],
        ["ingest", "a.txt", "--jobs", "0"],
        ["ingest", "a.txt", "-j"],
        ["ingest", "a.txt", "--bogus"],
        ["ingest", "a.txt", "--jobs=65"],
    ],
    ids=lambda a: " ".join(a),
)
def test_other_ingests_are_left_to_typer(args: list[str]) -> None:
    assert parse(args) is None


def test_the_option_tables_are_the_typer_commands_own() -> None:
    """`fast_options.py` is what `python -m rules_kb.cli.tables` writes from the Typer app
    now: an option added to a command and not written there fails here."""
    assert Path(fast_options.__file__).read_text(encoding="utf-8") == tables.tables()


@pytest.mark.parametrize("width", range(20, 81))
def test_a_styled_word_and_its_punctuation_wrap_as_one(
    width: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A highlighted word and the comma after it (two spans, no space between) are one
    word to the wrapper: at any width, no line starts with the comma, and no word is lost
    or split."""
    from rules_kb.cli.output import Screen

    monkeypatch.setenv("COLUMNS", str(width))
    monkeypatch.setenv("NO_COLOR", "1")
    before = "If an attacking creature with trample over planeswalkers is "
    after = ", but no creatures block it, its damage is assigned to the defending player."
    screen = Screen(pager=False, terminal=False)
    screen.add(before, ("blocked", "bold"), after, indent=2, hang=0)
    lines = ["".join(text for text, _ in row) for row in screen.rendered()]
    assert all(len(line) <= width for line in lines), lines
    assert not any(line.lstrip().startswith(",") for line in lines), lines
    assert " ".join(line.strip() for line in lines).split() == (before + "blocked" + after).split()
