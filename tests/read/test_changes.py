"""`rules-kb changes`: the real changes of every edition in a span, as `diff` sees them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import rules_kb
from rules_kb.errors import BadOption, UnknownRule
from tests.conftest import ok_cli, run_cli


@pytest.fixture(scope="module")
def kb(all_editions_db: Path) -> rules_kb.KnowledgeBase:
    return rules_kb.open(all_editions_db)


def _keys(changes: object) -> list[tuple[str, str | None, str | None]]:
    return [(c.type, c.old_key, c.new_key) for c in changes]  # type: ignore[attr-defined]


def test_a_chapter_since_a_date_is_what_diff_says_of_each_edition(
    kb: rules_kb.KnowledgeBase,
) -> None:
    found = kb.changes("2024-01-01", chapter="702")
    dates = [record.edition for record in kb.editions()]
    span = sorted(day for day in dates if day >= "2024-01-01")
    assert [edition.edition for edition in found.editions] == span
    assert found.count > 100
    for edition in found.editions:
        diff = kb.diff(edition.previous, edition.edition)
        expected = [
            c
            for c in diff.rules
            if c.type != "typography"
            and not (c.reference_only and c.old_key == c.new_key)
            and any(
                key is not None and key.split(".")[0] == "702" for key in (c.old_key, c.new_key)
            )
        ]
        assert _keys(edition.changes) == _keys(expected), edition.edition


def test_a_rule_is_followed_through_its_renumbering(kb: rules_kb.KnowledgeBase) -> None:
    found = kb.changes("2013-01-01", until="2013-12-31", rule="trample")
    moved = next(e for e in found.editions if e.edition == "2013-07-13")
    assert ("moved", "702.18b", "702.19b") in _keys(moved.changes)
    assert all(
        key is None or key.startswith(("702.18", "702.19"))
        for e in found.editions
        for c in e.changes
        for key in (c.old_key, c.new_key)
    )


def test_a_glossary_entry_is_followed_through_its_rename(kb: rules_kb.KnowledgeBase) -> None:
    found = kb.changes("2009-01-01", until="2009-12-31", term="Battlefield")
    m10 = next(e for e in found.editions if e.edition == "2009-07-11")
    assert ("changed", "In Play", "Battlefield") in _keys(m10.changes)
    assert ("split", "In Play", "In Play (Obsolete)") in _keys(m10.changes)


def test_a_chapter_given_as_a_rule_is_the_chapter(kb: rules_kb.KnowledgeBase) -> None:
    as_rule = kb.changes("2024-01-01", rule="702")
    as_chapter = kb.changes("2024-01-01", chapter="702")
    assert as_rule == as_chapter
    assert sum(len(e.changes) for e in as_rule.editions) > 0


def test_json_and_text(all_editions_db: Path) -> None:
    result = ok_cli(
        "changes", "--since", "2024-01-01", "--chapter", "702", "--json",
        "--db", all_editions_db,
    )  # fmt: skip
    document = json.loads(result.stdout)
    assert (document["since"], document["chapter"]) == ("2024-01-01", "702")
    first = document["editions"][0]
    assert set(first) == {"edition", "previous", "changes"}
    assert {"type", "old_number", "new_number", "words"} <= set(first["changes"][0])
    assert all(c["type"] != "typography" for e in document["editions"] for c in e["changes"])
    text = ok_cli("changes", "--since", "2026-01-01", "--db", all_editions_db).stdout
    assert text.startswith("Real changes, 2026-01-01 … 2026-08-07")


def test_bad_requests_are_one_line(kb: rules_kb.KnowledgeBase, all_editions_db: Path) -> None:
    with pytest.raises(BadOption, match="YYYY-MM-DD"):
        kb.changes("last year")
    with pytest.raises(BadOption, match="one of"):
        kb.changes("2024-01-01", chapter="702", rule="702.19")
    with pytest.raises(UnknownRule, match=r"is now 702\.19"):
        kb.changes("2024-01-01", rule="502.9")
    result = run_cli("changes", "--since", "2024-02-30", "--db", all_editions_db)
    assert result.exit_code == 1 and "Traceback" not in result.output


def test_the_atom_feed_parses_with_an_entry_per_edition(all_editions_db: Path) -> None:
    import feedparser

    result = ok_cli(
        "changes", "--since", "2024-01-01", "--chapter", "702", "--atom",
        "--base-url", "https://example.org/cr/", "--db", all_editions_db,
    )  # fmt: skip
    feed = feedparser.parse(result.stdout)
    assert not feed.bozo and feed.version == "atom10"
    listed = json.loads(
        ok_cli("changes", "--since", "2024-01-01", "--chapter", "702", "--json",
               "--db", all_editions_db).stdout
    )["editions"]  # fmt: skip
    assert len(feed.entries) == len(listed)
    newest = listed[-1]
    entry = feed.entries[0]
    assert entry.link == (
        f"https://example.org/cr/diff/{newest['previous']}_{newest['edition']}.html"
    )
    assert entry.title.startswith(f"{newest['edition']}: {len(newest['changes'])} real change")


def test_every_rule_and_entry_says_when_its_edition_was_in_force(all_editions_db: Path) -> None:
    kb = rules_kb.open(all_editions_db)
    old = kb.rule("702.19b", "2019-01-25")
    assert old.as_json()["in_force"] == {"from": "2019-01-25", "until": "2019-05-03"}
    latest = kb.define("trample")
    assert latest.as_json()["in_force"]["until"] is None
    text = ok_cli("rule", "702.19b", "-e", "2019-02-01", "--db", all_editions_db).stdout
    assert text.splitlines()[0] == (
        "Comprehensive Rules, edition 2019-01-25, in force until 2019-05-03"
    )
    text = ok_cli("define", "trample", "--db", all_editions_db).stdout
    assert text.splitlines()[0].endswith("the latest, in force now")
