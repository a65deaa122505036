"""The edition catalogue in data/editions.toml, and where it shows: -e CODE, `editions`."""

from __future__ import annotations

import datetime
import json
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from typer.testing import CliRunner

from rules_kb.cli import app
from rules_kb.errors import BadCatalogue
from rules_kb.ingest import catalogue, fetch
from tests.conftest import ROOT, SHARED, edition_files, run_cli

ENTRIES = catalogue.load().entries


run = run_cli


# the data ---------------------------------------------------------------------


def test_catalogue_and_shared_editions_list_the_same_dates(shared_editions: Path) -> None:
    assert [entry.date for entry in ENTRIES] == [path.stem for path in edition_files()]


def test_dates_are_sorted_unique_and_real() -> None:
    dates = [entry.date for entry in ENTRIES]
    assert dates == sorted(set(dates))
    for day in dates:
        datetime.date.fromisoformat(day)


def test_set_codes_are_unique_and_shaped_like_codes() -> None:
    codes = catalogue.load().codes()
    assert len(codes) == len(set(codes))
    assert all(re.fullmatch(r"[0-9A-Z]{3,4}", code) for code in codes), codes


def test_entries_without_a_set_say_why() -> None:
    assert all(entry.note for entry in ENTRIES if entry.set is None)


@pytest.mark.parametrize(
    ("day", "name", "code"),
    [
        ("1999-04-23", "Classic Sixth Edition", "6ED"),
        ("2007-07-13", "Tenth Edition", "10E"),
        ("2016-08-26", "Conspiracy: Take the Crown", "CN2"),
        ("2022-11-18", "The Brothers' War", "BRO"),
        ("2023-09-01", "Wilds of Eldraine", "WOE"),
    ],
)
def test_known_editions(day: str, name: str, code: str) -> None:
    entry = catalogue.load().by_date(day)
    assert entry is not None and entry.set == catalogue.SetRelease(name, code)
    assert catalogue.load().by_code(code.lower()) is entry
    assert catalogue.load().by_code(name.upper()) is entry


def test_urls_are_official_rules_files_named_near_their_edition() -> None:
    """A file name's date (upload day, YYYYMMDD or MMDDYYYY) is closest to its own edition."""
    days = [datetime.date.fromisoformat(entry.date) for entry in ENTRIES]
    with_urls = [entry for entry in ENTRIES if entry.url]
    assert len(with_urls) > 50
    for entry in with_urls:
        assert entry.url is not None
        parts = urlsplit(entry.url)
        assert parts.scheme in {"http", "https"} and parts.netloc == "media.wizards.com"
        name = fetch.file_name(entry.url)
        assert name.endswith(".txt") and fetch.normalise_url(entry.url) == entry.url
        assert re.search(r"comp(rehensive)?rules", name.replace(" ", "").lower()), name
        named = fetch.name_date(name)
        if named is None:
            continue
        nearest = min(days, key=lambda day: abs(day - datetime.date.fromisoformat(named)))
        assert nearest.isoformat() == entry.date, (entry.date, name)


def test_url_for_the_brothers_war() -> None:
    entry = catalogue.load().by_code("BRO")
    assert entry is not None
    assert entry.url == "https://media.wizards.com/2022/downloads/MagicCompRules%2020221118.txt"


def test_catalogue_ships_as_package_data() -> None:
    assert catalogue._catalogue_text() == (ROOT / "data" / "editions.toml").read_text("utf-8")


def test_nearest_code() -> None:
    known = catalogue.load()
    assert known.nearest_code("BRX") == "BRO"
    assert known.nearest_code("bro ") == "BRO"
    assert known.nearest_code("QQQQQQ") is None


# parse() refuses a broken catalogue ---------------------------------------------------


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("[[edition]]\ndate = 2020-01-01\n[[edition]]\ndate = 2019-01-01\n", "in order"),
        ("[[edition]]\ndate = 2020-01-01\n[[edition]]\ndate = 2020-01-01\n", "in order"),
        (
            '[[edition]]\ndate = 2020-01-01\nset = "A"\ncode = "AAA"\n'
            '[[edition]]\ndate = 2020-02-01\nset = "B"\ncode = "aaa"\n',
            "used twice",
        ),
        ('[[edition]]\ndate = 2020-01-01\nset = "A"\n', "both set and code"),
        ('[[edition]]\ndate = "2020-01-01"\n', "TOML date"),
        ("[[edition]]\ndate = 2020-01-01T10:00:00\n", "TOML date"),
        ("[[edition]\n", "not valid TOML"),
    ],
)
def test_parse_refuses(text: str, problem: str) -> None:
    with pytest.raises(BadCatalogue, match=problem):
        catalogue.parse(text)


def test_parse_reads_optional_fields() -> None:
    parsed = catalogue.parse(
        '[[edition]]\ndate = 2022-11-18\nset = "The Brothers\' War"\ncode = "bro"\n'
        'url = "https://media.wizards.com/x.txt"\n[[edition]]\ndate = 2023-01-01\nnote = "n"\n'
    )
    first, second = parsed.entries
    assert first == catalogue.CatalogueEntry(
        "2022-11-18", catalogue.SetRelease("The Brothers' War", "BRO"),
        "https://media.wizards.com/x.txt", None,
    )  # fmt: skip
    assert second == catalogue.CatalogueEntry("2023-01-01", None, None, "n")


# where it shows -----------------------------------------------------------------------


@pytest.fixture(scope="module")
def small_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """2022-11-18 (BRO) and 2026-08-07 (no set recorded)."""
    if not SHARED.is_dir():
        pytest.skip("../shared/cr/editions is not there")
    path = tmp_path_factory.mktemp("catalogue") / "rules.db"
    result = run("ingest", SHARED / "2022-11-18.txt", SHARED / "2026-08-07.txt", "--db", path)
    assert result.exit_code == 0, result.output
    return path


def test_editions_json_has_the_set(small_db: Path) -> None:
    result = run("editions", "--db", small_db, "--json")
    assert result.exit_code == 0, result.output
    rows = {row["edition"]: row for row in json.loads(result.stdout)}
    assert rows["2022-11-18"]["set"] == {"name": "The Brothers' War", "code": "BRO"}
    assert rows["2026-08-07"]["set"] is None
    assert rows["2022-11-18"]["rules"] > 2000  # the other fields are still there


def test_editions_table_shows_the_set_next_to_the_date(small_db: Path) -> None:
    result = CliRunner().invoke(app, ["editions", "--db", str(small_db)], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    line = next(line for line in result.stdout.splitlines() if "2022-11-18" in line)
    assert re.search(r"^2022-11-18\s+BRO The Brothers' War\s+2791\s+271\s+647$", line), line


def _loaded_after(db: Path, *args: str) -> set[str]:
    """Which of tomllib and rules_kb.ingest.catalogue a fresh `rules-kb ...` process imported."""
    code = (
        "import sys\nfrom rules_kb.cli import main\n"
        f"sys.argv = ['rules-kb', *{list(args)!r}, '--db', {str(db)!r}]\n"
        "try:\n    main()\nexcept SystemExit as done:\n    assert not done.code, done.code\n"
        "print('LOADED', *(m for m in ('tomllib', 'rules_kb.ingest.catalogue')"
        " if m in sys.modules))\n"
    )
    output = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    ).stdout
    return set(output.split("LOADED", 1)[1].split())


def test_plain_lookups_never_read_the_catalogue(small_db: Path) -> None:
    assert _loaded_after(small_db, "rule", "702.19") == set()
    assert _loaded_after(small_db, "rule", "702.19", "-e", "2023-01-01") == set()
    assert _loaded_after(small_db, "rule", "702.19", "-e", "BRO") == {
        "tomllib",
        "rules_kb.ingest.catalogue",
    }
