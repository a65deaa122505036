"""A line's history, and `where` along it, name the records that left it (split off) and
joined it (merged into it), on small editions written for the test; every face says the
same."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import rules_kb
from rules_kb.mcp.server import history_text, where_text
from rules_kb.records import Step
from rules_kb.records.markdown import history_blocks
from tests.conftest import FIXTURES, ok_cli

BOTH = "704.5k A contestant with no points left or who must take a token from an empty pile loses."
LIFE = "704.5k A contestant with no points left loses."
PILE = "704.5q A contestant who must take a token from an empty pile loses."
DAYS = {
    "2027-03-03": "March 3, 2027",
    "2027-06-01": "June 1, 2027",
    "2027-09-01": "September 1, 2027",
}


def edition(folder: Path, day: str, *rules: str) -> Path:
    """The invented edition with 704.5k replaced by `rules`, effective on `day`."""
    text = (FIXTURES / "modern.txt").read_text(encoding="utf-8")
    text = text.replace("March 3, 2027", DAYS[day])
    text = text.replace("704.5k First invented action.", "\n\n".join(rules))
    path = folder / f"{day}.txt"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Three editions: 704.5k's second clause is split off as 704.5q, then merged back."""
    folder = tmp_path_factory.mktemp("branches")
    files = [
        edition(folder, "2027-03-03", BOTH),
        edition(folder, "2027-06-01", LIFE, PILE),
        edition(folder, "2027-09-01", BOTH),
    ]
    path = folder / "rules.db"
    outcomes = rules_kb.open(path).ingest_files(files, index=False)
    assert all(outcome.result for outcome in outcomes), outcomes
    return path


def test_history_names_what_was_split_off_a_line_and_merged_into_it(db: Path) -> None:
    kb = rules_kb.open(db)
    found = kb.history("704.5k")
    branched = [(v.first, b.relation, b.edition, b.key) for v in found.versions for b in v.branches]
    assert sorted(branched) == [
        ("2027-06-01", "split", "2027-06-01", "704.5q"),
        ("2027-09-01", "merged", "2027-09-01", "704.5q"),
    ]
    assert found.split_from is None and found.merged_into is None
    notes = [note for v in found.versions for note in v.branch_notes]
    assert notes == ["704.5q merged into it in 2027-09-01", "704.5q split off it in 2027-06-01"]
    # The record that branched says the same from its own side.
    part = kb.history("704.5q", "2027-06-01")
    assert part.split_from == Step("2027-03-03", "704.5k")
    assert part.merged_into == Step("2027-09-01", "704.5k")
    assert all(not v.branches for v in part.versions)


def test_every_face_says_what_branched(db: Path) -> None:
    kb = rules_kb.open(db)
    found = kb.history("704.5k")
    shown = ok_cli("--db", db, "history", "704.5k").stdout
    assert "704.5q split off it in 2027-06-01" in shown
    assert "704.5q merged into it in 2027-09-01" in shown
    document = json.loads(ok_cli("--db", db, "history", "704.5k", "--json").stdout)
    assert [v.get("branches") for v in document["versions"]] == [
        [{"relation": "merged", "edition": "2027-09-01", "number": "704.5q"}],
        [{"relation": "split", "edition": "2027-06-01", "number": "704.5q"}],
        None,
    ]
    assert "704.5q split off it in 2027-06-01" in history_text(found)
    assert any("704.5q merged into it in 2027-09-01" in b for b in history_blocks(found))
    part = kb.history("704.5q", "2027-06-01")
    blocks = history_blocks(part)
    assert "Split off **704.5k** (2027-03-03) in 2027-06-01." in blocks
    assert "Merged into **704.5k** in 2027-09-01." in blocks


def test_every_history_at_once_reads_the_same_branches(db: Path) -> None:
    """The web edition reads every line at once (`KnowledgeBase.histories`): the branches
    it gets are those of `history`, one record at a time."""
    kb = rules_kb.open(db)
    for day in DAYS:
        for found in kb.histories(day):
            one = kb.history(found.key, day)
            assert found.versions == one.versions, found.key
            assert (found.split_from, found.merged_into) == (one.split_from, one.merged_into)


def test_where_names_what_branched_on_the_way(db: Path) -> None:
    kb = rules_kb.open(db)
    found = kb.where("704.5k", "2027-03-03", "2027-09-01")
    assert (found.status, found.now) == ("same", "704.5k")
    assert found.branch_notes == (
        "704.5q split off it in 2027-06-01",
        "704.5q merged into it in 2027-09-01",
    )
    back = kb.where("704.5k", "2027-09-01", "2027-03-03")
    assert back.branches == found.branches  # oldest first, either way
    assert kb.where("704.5k", "2027-03-03", "2027-06-01").branch_notes == (
        "704.5q split off it in 2027-06-01",
    )
    assert kb.where("704.5k", "2027-06-01", "2027-09-01").branch_notes == (
        "704.5q merged into it in 2027-09-01",
    )
    # The record that branched is the headline, not a branch of its own way.
    part = kb.where("704.5q", "2027-06-01", "2027-09-01")
    assert (part.status, part.now, part.branches) == ("merged", "704.5k", ())
    shown = ok_cli("--db", db, "where", "704.5k", "-e", "2027-03-03", "--to", "2027-09-01")
    assert "704.5q split off it in 2027-06-01" in shown.stdout
    document = json.loads(
        ok_cli(
            "--db", db, "where", "704.5k", "-e", "2027-03-03", "--to", "2027-06-01", "--json"
        ).stdout
    )
    assert document["branches"] == [
        {"relation": "split", "edition": "2027-06-01", "number": "704.5q"}
    ]
    assert "On the way, 704.5q merged into it in 2027-09-01." in where_text(found)
