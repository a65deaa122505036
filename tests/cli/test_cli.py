"""The rules-kb command line, against a database of all the shared editions."""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from typer.testing import Result

from rules_kb.cli import app
from tests.conftest import (
    ROOT,
    SHARED,
    dump_database,
    edition_files,
    ok_cli,
    run_cli,
    variant_files,
)

OLDEST = "1999-04-23"
SMALL = SHARED / f"{OLDEST}.txt"


run = run_cli


ok = ok_cli


def as_json(*args: str | Path) -> Any:
    return json.loads(ok(*args, "--json").stdout)


def one_error_line(result: Result) -> str:
    """The single stderr line of a clean exit-1 failure."""
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    assert "Traceback" not in result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("rules-kb: ")
    return lines[0]


dump = dump_database


def command_line() -> list[str]:
    """How to run the installed tool in a real subprocess."""
    script = Path(sys.executable).with_name("rules-kb")
    if script.exists():
        return [str(script)]
    found = shutil.which("rules-kb")
    return [found] if found else [sys.executable, str(ROOT / "cli.py")]


# fixtures ---------------------------------------------------------------------


@pytest.fixture(scope="session")
def full_db(all_editions_db: Path) -> Path:
    """All 134 shared editions (the session database of conftest, ingested via the CLI)."""
    return all_editions_db


@pytest.fixture(scope="session")
def one_edition_template(tmp_path_factory: pytest.TempPathFactory, shared_editions: Path) -> Path:
    path = tmp_path_factory.mktemp("one") / "one.db"
    ok("ingest", shared_editions / f"{OLDEST}.txt", "--db", path, "--json")
    return path


@pytest.fixture
def one_edition_db(tmp_path: Path, one_edition_template: Path) -> Path:
    """A fresh database that already holds the oldest edition."""
    path = tmp_path / "one.db"
    shutil.copyfile(one_edition_template, path)
    return path


def query(full_db: Path, *args: str) -> Any:
    return as_json(*args, "--db", full_db)


# editions ---------------------------------------------------------------------


def test_editions_lists_every_shared_edition(full_db: Path) -> None:
    rows = query(full_db, "editions")
    assert isinstance(rows, list)
    assert len(rows) == 134
    by_file = {path.stem: path for path in edition_files()}
    assert sorted(row["edition"] for row in rows) == sorted(by_file)
    for row in rows:
        for key in ("rules", "examples", "glossary", "sha256", "source", "warnings", "unparsed"):
            assert key in row, (row["edition"], key)
        assert row["source"] == f"{row['edition']}.txt"
        assert row["rules"] > 0 and row["glossary"] >= 0 and row["examples"] >= 0
        assert len(row["sha256"]) == 64
        assert isinstance(row["warnings"], list)
        assert row["unparsed"] == 0 or row["warnings"], row["edition"]


def test_editions_table_for_people(full_db: Path) -> None:
    result = ok("editions", "--db", full_db)
    assert "134 editions" in result.stdout
    assert "2026-08-07" in result.stdout and OLDEST in result.stdout


def test_editions_sha256_matches_the_file(full_db: Path) -> None:
    import hashlib

    rows = {row["edition"]: row for row in query(full_db, "editions")}
    assert rows[OLDEST]["sha256"] == hashlib.sha256(SMALL.read_bytes()).hexdigest()


# rule -------------------------------------------------------------------------


def test_rule_examples(full_db: Path) -> None:
    node = query(full_db, "rule", "510.1c", "-e", "2022-11-18")
    assert node["edition"] == "2022-11-18"
    assert node["number"] == "510.1c"
    assert len(node["examples"]) == 4
    assert all(not example.lower().startswith("example") for example in node["examples"])


def test_rule_children_skip_l_and_o(full_db: Path) -> None:
    node = query(full_db, "rule", "704.5", "-e", "2026-08-07")
    numbers = [child["number"] for child in node["children"]]
    k = numbers.index("704.5k")
    assert numbers[k + 1] == "704.5m"
    assert numbers[-1] == "704.5aa"
    assert not [number for number in numbers if number[-1] in "lo"]
    assert numbers == sorted(numbers, key=lambda n: (len(n), n))


def check_node(node: dict[str, Any]) -> None:
    for key in ("number", "kind", "text", "examples", "children"):
        assert key in node, key
    assert isinstance(node["examples"], list)
    for child in node["children"]:
        assert child["number"].startswith(node["number"])
        check_node(child)


def test_rule_json_shape(full_db: Path) -> None:
    node = query(full_db, "rule", "702.19")
    for key in ("edition", "number", "kind", "text", "examples", "parent", "previous", "next"):
        assert key in node, key
    assert node["edition"] == "2026-08-07"
    assert (node["number"], node["kind"], node["text"]) == ("702.19", "rule", "Trample")
    assert (node["parent"], node["previous"], node["next"]) == ("702", "702.18", "702.20")
    assert node["examples"] == []
    assert node["children"][0]["number"] == "702.19a"
    assert node["children"][0]["kind"] == "subrule"
    check_node(node)


def test_rule_text_output(full_db: Path) -> None:
    out = ok("rule", "702.19", "--db", full_db).stdout
    assert "702.19" in out and "Trample" in out and "702.19a" in out


@pytest.mark.parametrize(
    ("raw", "number"),
    [
        ("702.19", "702.19"),
        ("702.19.", "702.19"),
        ("rule 702.19", "702.19"),
        ("702.19B", "702.19b"),
        ("702.19b", "702.19b"),
    ],
)
def test_rule_number_forms(full_db: Path, raw: str, number: str) -> None:
    assert query(full_db, "rule", raw)["number"] == number


@pytest.mark.parametrize(
    ("value", "edition"),
    [
        ("latest", "2026-08-07"),
        ("oldest", OLDEST),
        ("2009-10-01", "2009-10-01"),
        ("2010-01-01", "2009-10-01"),
        (OLDEST, OLDEST),
        ("2099-01-01", "2026-08-07"),
    ],
)
def test_edition_option(full_db: Path, value: str, edition: str) -> None:
    assert query(full_db, "rule", "100.1", "--edition", value)["edition"] == edition


def test_edition_before_the_first_is_an_error(full_db: Path) -> None:
    line = one_error_line(run("rule", "100.1", "-e", "1999-04-22", "--db", full_db))
    assert OLDEST in line
    assert run("rule", "100.1", "-e", "1999-04-22", "--db", full_db).stdout == ""


@pytest.mark.parametrize("value", ["yesterday", "2010-13-01", "2010-1-1", "20100101"])
def test_unknown_edition_string(full_db: Path, value: str) -> None:
    line = one_error_line(run("rule", "100.1", "-e", value, "--db", full_db))
    assert value in line


def test_unknown_rule_names_the_nearest(full_db: Path) -> None:
    result = run("rule", "702.19z", "-e", "2026-08-07", "--db", full_db)
    line = one_error_line(result)
    assert "702.19z" in line and "2026-08-07" in line
    assert "nearest: 702.19g" in line
    assert result.stdout == ""


# define and show ----------------------------------------------------------------


@pytest.mark.parametrize("term", ["trample", "TRAMPLE", "trampel", "  Trample "])
def test_define_trample(full_db: Path, term: str) -> None:
    entry = query(full_db, "define", term)
    assert entry["term"] == "Trample"
    assert entry["edition"] == "2026-08-07"
    assert "702.19" in entry["rules"]


def test_define_one_name_of_a_two_name_entry(full_db: Path) -> None:
    entry = query(full_db, "define", "kicked", "-e", "2026-08-07")
    assert entry["term"] == "Kicker, Kicked"


def test_define_old_edition_json_shape(full_db: Path) -> None:
    entry = query(full_db, "define", "Last Known Information", "-e", "2006-02-01")
    assert set(entry) >= {"edition", "term", "text", "rules"}
    assert entry["edition"] == "2006-02-01"
    assert entry["term"] == "Last Known Information"
    assert entry["text"]
    assert isinstance(entry["rules"], list)


def test_unknown_term(full_db: Path) -> None:
    result = run("define", "xyzzy plover", "--db", full_db)
    assert "xyzzy plover" in one_error_line(result)
    assert result.stdout == ""


def test_show_a_number_shows_the_rule(full_db: Path) -> None:
    out = ok("show", "702.19", "--db", full_db).stdout
    assert "702.19a" in out and "Trample" in out
    assert query(full_db, "show", "702.19")["number"] == "702.19"


def test_show_a_term_shows_the_glossary_entry(full_db: Path) -> None:
    out = ok("show", "trample", "--db", full_db).stdout
    assert "Glossary" in out and "Trample" in out
    assert query(full_db, "show", "trample")["term"] == "Trample"


# errors -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ["rule", "702.19", "--bogus"],
        ["rule"],
        ["define"],
        ["nonsense-command"],
        ["editions", "--json=maybe"],
    ],
)
def test_usage_errors_exit_2(full_db: Path, args: list[str]) -> None:
    result = run(*args, "--db", full_db)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output


def test_missing_database_is_one_line(tmp_path: Path) -> None:
    one_error_line(run("rule", "702.19", "--db", tmp_path / "none.db"))
    assert not (tmp_path / "none.db").exists()


def test_real_subprocess(full_db: Path) -> None:
    base = command_line()
    done = subprocess.run(
        [*base, "rule", "702.19", "--db", str(full_db), "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["next"] == "702.20"
    failed = subprocess.run(
        [*base, "rule", "702.19z", "--db", str(full_db)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert failed.returncode == 1
    assert failed.stdout == ""
    assert failed.stderr.count("\n") == 1 and "nearest" in failed.stderr
    usage = subprocess.run([*base, "rule", "--bogus"], capture_output=True, text=True, check=False)
    assert usage.returncode == 2
    assert "Traceback" not in usage.stderr + usage.stdout


# ingest -----------------------------------------------------------------------------


def bad_inputs(folder: Path) -> dict[str, Path]:
    """Files that are not CR text, written into folder."""
    html = (
        "<!DOCTYPE html>\n<html><head><title>Rules</title></head>\n<body>\n"
        "<p>These rules are effective as of March 3, 2027.</p>\n"
        "<p>100.1. A game is played by two players.</p>\n</body></html>\n"
    )
    prose = (
        "The weather was fine and the players arrived early.\n"
        "Nobody had brought a rulebook, so they talked about lunch instead.\n"
    ) * 30
    contents = {
        "binary.txt": random.Random(7).randbytes(4096) + b"\0" * 64,
        "rules.pdf": b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog >>\nendobj\n",
        "empty.txt": b"",
        "page.html": html.encode(),
        "prose.txt": prose.encode(),
    }
    files = {}
    for name, data in contents.items():
        files[name] = folder / name
        files[name].write_bytes(data)
    return files


@pytest.mark.parametrize(
    "name", ["binary.txt", "rules.pdf", "empty.txt", "page.html", "prose.txt", "missing.txt"]
)
def test_bad_ingest_input_changes_nothing(tmp_path: Path, one_edition_db: Path, name: str) -> None:
    files = bad_inputs(tmp_path)
    path = files.get(name, tmp_path / name)
    before = dump(one_edition_db)
    result = run("ingest", path, "--db", one_edition_db)
    assert name in one_error_line(result)
    assert dump(one_edition_db) == before
    json_result = run("ingest", path, "--db", one_edition_db, "--json")
    assert name in one_error_line(json_result)
    assert dump(one_edition_db) == before


def test_several_bad_files_one_line_each(tmp_path: Path, one_edition_db: Path) -> None:
    files = bad_inputs(tmp_path)
    before = dump(one_edition_db)
    result = run("ingest", *files.values(), "--db", one_edition_db, "--json")
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    lines = result.stderr.splitlines()
    assert len(lines) == len(files), result.stderr
    for name, line in zip(files, lines, strict=True):
        assert name in line
    outcomes = json.loads(result.stdout)
    assert [outcome["status"] for outcome in outcomes] == ["failed"] * len(files)
    assert dump(one_edition_db) == before


def test_good_file_goes_in_beside_bad_ones(tmp_path: Path, one_edition_db: Path) -> None:
    files = bad_inputs(tmp_path)
    good = SHARED / "1999-11-01.txt"
    result = run("ingest", files["prose.txt"], good, files["empty.txt"], "--db", one_edition_db)
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    editions = as_json("editions", "--db", one_edition_db)
    assert {row["edition"] for row in editions} == {OLDEST, "1999-11-01"}
    # Exactly one line per failed file, nothing else (the progress bar is transient).
    lines = result.stderr.splitlines()
    assert len(lines) == 2, result.stderr
    assert "prose.txt" in lines[0] and "empty.txt" in lines[1]


def test_good_file_goes_in_beside_a_missing_path(tmp_path: Path, one_edition_db: Path) -> None:
    good = SHARED / "1999-11-01.txt"
    result = run("ingest", good, tmp_path / "missing.txt", "--db", one_edition_db)
    assert "missing.txt" in one_error_line(result)
    editions = as_json("editions", "--db", one_edition_db)
    assert {row["edition"] for row in editions} == {OLDEST, "1999-11-01"}


def test_folder_without_txt_files(tmp_path: Path, one_edition_db: Path) -> None:
    (tmp_path / "notes.md").write_text("nothing here")
    one_error_line(run("ingest", tmp_path, "--db", one_edition_db))


def ingest_json(*paths: Path, db: Path, replace: bool = False) -> tuple[Result, list[Any]]:
    args: Sequence[str | Path] = ["ingest", *paths, "--db", db, "--json"]
    if replace:
        args = [*args, "--replace"]
    result = run(*args)
    return result, json.loads(result.stdout)


def test_reingest_same_file_is_unchanged(one_edition_db: Path) -> None:
    before = dump(one_edition_db)
    result, outcomes = ingest_json(SMALL, db=one_edition_db)
    assert result.exit_code == 0, result.output
    assert len(outcomes) == 1
    assert outcomes[0]["status"] == "unchanged"
    assert outcomes[0]["edition"] == OLDEST
    assert outcomes[0]["source"] == SMALL.name
    assert dump(one_edition_db) == before


def test_reingest_counts_the_warnings_it_showed_the_first_time(one_edition_db: Path) -> None:
    stored = as_json("editions", "--db", one_edition_db)[0]["warnings"]
    assert stored, "the oldest edition has damage warnings"
    first = run("ingest", SMALL, "--db", one_edition_db, "--no-index")
    assert first.exit_code == 0, first.output
    lines = first.stdout.splitlines()
    assert lines[0].split()[2] == "unchanged"
    assert lines[1].strip() == (
        f"! {len(stored)} warning{'s' if len(stored) > 1 else ''} from its first ingest:"
        " `rules-kb editions` lists them"
    )
    assert not any(warning in first.stdout for warning in stored)


def variant(name_start: str) -> Path:
    found = [path for path in variant_files() if path.name.startswith(name_start)]
    if not found:
        pytest.skip(f"no variant {name_start}*")
    return found[0]


@pytest.mark.corpus
def test_variant_with_identical_records_is_unchanged(tmp_path: Path) -> None:
    db = tmp_path / "v.db"
    ok("ingest", SHARED / "2017-09-29.txt", "--db", db, "--json")
    before = dump(db)
    result, outcomes = ingest_json(variant("2017-09-29.pit142857-mtg-cr.utf8.crlf"), db=db)
    assert result.exit_code == 0, result.output
    assert [(o["edition"], o["status"]) for o in outcomes] == [("2017-09-29", "unchanged")]
    assert dump(db) == before


@pytest.mark.corpus
def test_variant_with_different_text_needs_replace(tmp_path: Path) -> None:
    db = tmp_path / "v.db"
    ok("ingest", SHARED / "2011-09-30.txt", "--db", db, "--json")
    before = dump(db)
    truncated = variant("2011-09-30.pit142857-mtg-cr.ascii.lf.truncated")
    result = run("ingest", truncated, "--db", db)
    line = one_error_line(result)
    assert "--replace" in line and "2011-09-30" in line
    assert dump(db) == before
    result, outcomes = ingest_json(truncated, db=db, replace=True)
    assert result.exit_code == 0, result.output
    assert outcomes[0]["status"] == "replaced"
    rows = as_json("editions", "--db", db)
    assert [row["source"] for row in rows] == [truncated.name]


# the database path ---------------------------------------------------------------------


@pytest.mark.corpus
def test_rules_kb_db_is_the_default(tmp_path: Path) -> None:
    env_db = Path(os.environ["RULES_KB_DB"])
    assert not env_db.exists()
    ok("ingest", SMALL, "--json")
    assert env_db.is_file()
    assert [row["edition"] for row in as_json("editions")] == [OLDEST]
    assert as_json("rule", "100.1")["edition"] == OLDEST


@pytest.mark.corpus
def test_db_option_beats_the_environment(tmp_path: Path) -> None:
    other = tmp_path / "other.db"
    ok("ingest", SMALL, "--db", other, "--json")
    assert other.is_file()
    assert not Path(os.environ["RULES_KB_DB"]).exists()
    one_error_line(run("editions"))


def test_help_lists_every_command_in_a_panel() -> None:
    from rules_kb.cli import HELP_PANELS, command_name

    registered = {command_name(info) for info in app.registered_commands}
    listed = {name for names in HELP_PANELS.values() for name in names}
    assert registered == listed
    result = run("--help")
    assert result.exit_code == 0, result.output
    for panel in HELP_PANELS:
        assert panel in result.stdout


def test_a_folder_given_as_database_is_one_line(tmp_path: Path) -> None:
    line = one_error_line(run("rule", "100.1", "--db", tmp_path))
    assert "is a folder" in line


def test_an_empty_rule_number_is_one_line(full_db: Path) -> None:
    assert "no rule number given" in one_error_line(run("rule", "", "--db", full_db))


HEAVY = {
    "lark",
    "networkx",
    "whoosh",
    "sqlite_utils",
    "httpx",
    "scipy",
    "numpy",
    "diff_match_patch",
}


@pytest.mark.parametrize("args", [["rule", "702.19"], ["define", "trample"], ["editions"]])
def test_a_lookup_imports_no_heavy_library(full_db: Path, args: list[str]) -> None:
    """A cold lookup must start fast: parsing, graph, search and diff libraries stay unloaded."""
    script = (
        "import atexit, sys\n"
        f"heavy = {sorted(HEAVY)!r}\n"
        "atexit.register(lambda: print('LOADED:', sorted(m for m in sys.modules"
        " if m.split('.')[0] in heavy)))\n"
        f"sys.argv = ['rules-kb', *{args!r}, '--db', {str(full_db)!r}, '--json']\n"
        "from rules_kb.cli import main\n"
        "main()\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "LOADED: []"


def test_show_searches_a_phrase_that_only_resembles_a_term(full_db: Path) -> None:
    """A typo keeps the number of words; a longer phrase is searched, not taken for a term."""
    entry = json.loads(ok("define", "last known informaton", "--db", full_db, "--json").stdout)
    assert entry["term"] == "Last Known Information"
    shown = json.loads(ok("show", "copy of a permanent spell", "--db", full_db, "--json").stdout)
    assert "hits" in shown
