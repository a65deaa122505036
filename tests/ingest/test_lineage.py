"""Lineage stored at ingest: history, where, redirects, cite and diffs read from it."""

from __future__ import annotations

import itertools
import json
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import get_args

import pytest

import rules_kb
from rules_kb.errors import UnknownRule, UnknownTerm
from rules_kb.ingest import lineage, store
from rules_kb.records import Step
from rules_kb.typography import key, same_wording
from tests.conftest import FIXTURES, SHARED, downgrade, ok_cli, run_cli

#: Three real editions: the middle one rewrote 117.9b in place.
TRIO = ["2019-01-25", "2019-05-03", "2019-06-14"]


def lineage_rows(path: Path) -> list[tuple[object, ...]]:
    """The stored pairs by edition date, number and term (ids differ between databases)."""
    conn = sqlite3.connect(path)
    try:
        rows = conn.execute("SELECT * FROM lineage_changes").fetchall()
        aligned = conn.execute(
            "SELECT e.date, p.date FROM alignments a JOIN editions e ON e.id = a.edition_id"
            " LEFT JOIN editions p ON p.id = a.previous_id"
        ).fetchall()
    finally:
        conn.close()
    return sorted(rows, key=repr) + sorted(aligned, key=repr)


def ingest(path: Path, days: list[str], *, replace: bool = False) -> None:
    kb = rules_kb.open(path)
    outcomes = kb.ingest_files(
        [SHARED / f"{day}.txt" for day in days], replace=replace, index=False
    )
    assert all(outcome.result for outcome in outcomes), outcomes


@pytest.fixture(scope="module")
def trio(tmp_path_factory: pytest.TempPathFactory, shared_editions: Path) -> Path:
    path = tmp_path_factory.mktemp("trio") / "in-order.db"
    ingest(path, TRIO)
    return path


@pytest.fixture(scope="module")
def kb(all_editions_db: Path) -> rules_kb.KnowledgeBase:
    return rules_kb.open(all_editions_db)


# storing --------------------------------------------------------------------------------


def test_lineage_is_stored_at_ingest_with_a_status(trio: Path) -> None:
    conn = sqlite3.connect(trio)
    try:
        statuses = {row[0] for row in conn.execute("SELECT status FROM lineage")}
        rewritten = conn.execute(
            "SELECT status, key, old_key FROM lineage_changes WHERE edition = '2019-05-03'"
            " AND kind = 'rule' AND key = '117.9b'"
        ).fetchall()
        aligned = conn.execute("SELECT count(*) FROM alignments").fetchone()[0]
    finally:
        conn.close()
    assert statuses <= set(get_args(lineage.Status))
    assert {"changed", "typography"} <= statuses
    assert rewritten == [("changed", "117.9b", "117.9b")]
    assert aligned == 3


def test_inserting_an_edition_between_two_realigns_its_neighbours(
    trio: Path, tmp_path: Path
) -> None:
    path = tmp_path / "inserted.db"
    ingest(path, [TRIO[0], TRIO[2]])
    before = lineage_rows(path)
    ingest(path, [TRIO[1]])
    assert lineage_rows(path) == lineage_rows(trio)
    assert lineage_rows(path) != before


def test_newest_first_gives_the_same_lineage(trio: Path, tmp_path: Path) -> None:
    path = tmp_path / "reversed.db"
    ingest(path, list(reversed(TRIO)))
    assert lineage_rows(path) == lineage_rows(trio)


def test_replace_realigns_both_neighbours(trio: Path, tmp_path: Path) -> None:
    path = tmp_path / "replaced.db"
    ingest(path, TRIO)
    ingest(path, [TRIO[1]], replace=True)
    assert lineage_rows(path) == lineage_rows(trio)


def test_the_migration_fills_lineage_for_an_existing_database(trio: Path, tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    ingest(path, TRIO)
    db = store.open_db(path)
    downgrade(db, 3)
    db.close()
    calls: list[tuple[str, int]] = []
    ticks: list[int] = []

    def progress(label: str, total: int):  # type: ignore[no-untyped-def]
        calls.append((label, total))
        return lambda count, _note: ticks.append(count)

    store.open_db(path, progress).close()
    assert ("aligning editions", 3) in calls and sum(ticks) == 3
    assert lineage_rows(path) == lineage_rows(trio)


def test_a_failed_ingest_writes_no_lineage(
    trio: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "failing.db"
    ingest(path, [TRIO[0], TRIO[2]])
    before = lineage_rows(path)

    def broken(_conn: sqlite3.Connection, _edition_id: int, *_session: object) -> None:
        raise RuntimeError("aligner failed half-way")

    monkeypatch.setattr(lineage, "link", broken)
    kb = rules_kb.open(path)
    with pytest.raises(RuntimeError):
        kb.ingest(SHARED / f"{TRIO[1]}.txt")
    assert lineage_rows(path) == before
    assert [record.edition for record in rules_kb.open(path).editions()] == [TRIO[2], TRIO[0]]


# history ------------------------------------------------------------------------------


def test_history_of_a_subrule_follows_its_own_line_back_to_502(kb: rules_kb.KnowledgeBase) -> None:
    found = kb.history("702.19b")
    numbers = [version.key for version in found.versions]
    assert numbers[0] == "702.19b" and numbers[-1] == "502.9b"
    assert {"702.18b", "702.17b"} <= set(numbers)
    assert found.introduced_in == "1999-04-23"
    assert found.versions[-1].words is None and found.versions[0].words


def test_renamed_headings_keep_their_line(kb: rules_kb.KnowledgeBase) -> None:
    """A heading renamed in words it shares nothing with goes where its subrules went:
    Kindred was Tribal, Commander was EDH, Substitute Cards were Checklist Cards, and
    "Tap and Untap" was "Tap", 501.7, before the keyword actions moved to 701."""
    for number, older, before, then in [
        ("308", "308", "2024-04-12", "Tribals"),
        ("903", "903", "2010-10-01", "EDH"),
        ("713", "713", "2020-08-07", "Checklist Cards"),
    ]:
        found = kb.where(number, to=before)
        assert (found.now, found.status) == (older, "changed"), number
        assert kb.rule(older, before).text == then
    tap = kb.where("701.15", "2009-07-11", to="2009-05-01")
    assert (tap.now, kb.rule("501.7", "2009-05-01").text) == ("501.7", "Tap")
    # Chapters whose rules stand deeper in one new chapter: "Ending the Turn" 716 (716.2
    # became 716.1f), "Targeted Spells and Abilities" 415 (into "Targets" 113 as rules
    # and subrules), "Handling 'Infinite' Loops" 421 (into "Taking Shortcuts" 713).
    for number, edition, older, before, then in [
        ("716", "2019-08-23", "716", "2019-07-12", "Ending the Turn"),
        ("113", "2009-07-11", "415", "2009-05-01", "Targeted Spells and Abilities"),
        ("713", "2009-07-11", "421", "2009-05-01", 'Handling "Infinite" Loops'),
    ]:
        assert kb.where(number, edition, to=before).now == older, number
        assert kb.rule(older, before).text == then


def test_a_rule_printed_again_keeps_its_line_against_a_kept_number(
    kb: rules_kb.KnowledgeBase,
) -> None:
    """The "legend rule" was 704.5k of 2017-08-25, printed word for word as 704.5j of
    2017-09-29 when the planeswalker uniqueness rule 704.5j went: its line runs on through
    704.5k to 420.5e of 1999, and the old 704.5j is removed."""
    numbers = [version.key for version in kb.history("704.5j").versions]
    assert numbers[-1] == "420.5e" and "704.5k" in numbers
    gone = kb.where("704.5j", "2017-08-25")
    assert (gone.status, gone.removed_in) == ("removed", "2017-09-29")
    assert kb.where("704.5k", "2017-08-25", to="2017-09-29").now == "704.5j"


@pytest.mark.parametrize(
    ("number", "before", "edition", "now"),
    [
        ("310.1", "2012-05-01", "2012-06-01", "311.1"),
        ("114.6b", "2011-04-01", "2011-05-01", "114.6c"),
        ("613.6e", "2015-03-27", "2015-07-17", "613.6g"),
        ("309.1", "2021-06-18", "2021-07-23", "310.1"),
    ],
)
def test_a_rule_printed_again_word_for_word_goes_on_there_not_under_its_number(
    kb: rules_kb.KnowledgeBase, number: str, before: str, edition: str, now: str
) -> None:
    """ "Vanguard is a card type ..." 310.1 of 2012-05-01 is printed word for word as 311.1
    when "Phenomena" took 310: it goes on there, and the new 310.1, written after it for
    phenomena, is new (it had kept the old line, and 311.1 was split from it). So for a
    rule whose neighbour took its number (114.6b of 2011-04-01, "change any targets")."""
    found = kb.where(number, before, edition)
    assert (found.status, found.now) == ("moved", now)
    taken = kb.history(number, edition)
    assert taken.introduced_in == edition and taken.split_from is None
    assert kb.history(now, edition).versions[-1].first < edition


def test_a_rule_goes_on_under_its_moved_section_not_under_its_number_elsewhere(
    kb: rules_kb.KnowledgeBase,
) -> None:
    """ "Subgames" 713 of 2011-04-01 is 714 once "Restarting the Game" took 713; 713.3, on
    players with fewer than seven cards, goes on as 714.3 (reworded: it dropped its first
    sentence), not as the new 713.3, written after it for restarted games, which it had
    been paired with by its number."""
    found = kb.where("713.3", "2011-04-01", "2011-05-01")
    assert (found.status, found.now) == ("moved", "714.3")
    assert kb.history("714.3", "2011-05-01").introduced_in < "2011-05-01"


@pytest.mark.parametrize(
    ("number", "before", "edition", "other"),
    [
        ("502.10i", "2009-05-01", "2009-07-11", "702.11c"),
        ("502.36b", "2007-02-01", "2007-05-01", "502.67b"),
        ("502.14d", "2004-06-01", "2004-10-01", "502.14c"),
    ],
)
def test_the_same_words_said_of_another_keyword_are_another_rule(
    kb: rules_kb.KnowledgeBase, number: str, before: str, edition: str, other: str
) -> None:
    """ "Multiple instances of banding on the same creature are redundant." (502.10i of
    2009-05-01) went with banding's other rules to 702.19 or nowhere; it is not "Multiple
    instances of intimidate ..." 702.11c, under a keyword new in 2009-07-11. So for scry
    (502.36b of 2007-02-01, scry become a keyword action) against gravestorm, and
    snow-covered (502.14d of 2004-06-01, become a supertype) against vigilance."""
    assert kb.where(number, before, edition).now != other
    assert kb.history(other, edition).introduced_in == edition


@pytest.mark.parametrize(
    ("number", "before", "edition", "now"),
    [
        ("116.7a", "2010-02-01", "2010-04-23", "116.7c"),
        ("702.36b", "2015-01-23", "2015-03-27", "702.36c"),
        ("702.124i", "2025-09-19", "2025-11-14", "702.124j"),
        ("101.4a", "2007-05-01", "2007-07-13", "101.4b"),
    ],
)
def test_a_rule_goes_on_where_its_opening_is_said_again_not_at_a_number_taken(
    kb: rules_kb.KnowledgeBase, number: str, before: str, edition: str, now: str
) -> None:
    """The hybrid cost-reduction rule 116.7a of 2010-02-01 is 116.7c, which says it again
    almost word for word; the new 116.7a, on colored reductions, took its number (the kept
    number had won). So for morph's 702.36b of 2015-01-23 (702.36b became megamorph),
    "Partner with [name]" 702.124i of 2025-09-19 and the Two-Headed Giant mulligan
    101.4a of 2007-05-01."""
    found = kb.where(number, before, edition)
    assert (found.status, found.now) == ("moved", now)
    assert kb.history(now, edition).introduced_in < edition


def test_a_section_whose_one_rule_went_deeper_under_its_number_is_renamed_in_place(
    kb: rules_kb.KnowledgeBase,
) -> None:
    """ "Legal Text" 210 of 2007-09-07 is "Information Below the Text Box" 210 of
    2007-10-01, where its one rule went as 210.1b, beside the illustration credit (209.1,
    now 210.1a) and the collector number: one heading renamed, not one removed and one
    added. "Tokens" 216 of 2009-05-01, whose rules went into "Permanents" 110, is merged
    into that section."""
    found = kb.where("210", "2007-09-07", "2007-10-01")
    assert found.now == "210"
    assert kb.history("210", "2007-10-01").introduced_in < "2007-10-01"
    assert kb.where("216", "2009-05-01", "2009-07-11").now == "110"


@pytest.mark.parametrize(
    ("number", "before", "edition", "now"),
    [("806.7", "2010-04-23", "2010-06-18", "805"), ("408.1", "2009-05-01", "2009-07-11", "115")],
)
def test_a_rule_whose_subrules_spread_over_one_new_chapter_became_it(
    kb: rules_kb.KnowledgeBase, number: str, before: str, edition: str, now: str
) -> None:
    """ "Timing of Team Turns" 806.7 of 2010-04-23, whose subrules went under several
    rules of "Shared Team Turns Option" 805, is that chapter; so "Timing, Priority, and
    the Stack" 408.1 of 2009-05-01 is "Timing and Priority" 115."""
    assert kb.where(number, before, edition).now == now
    assert kb.history(now, edition).introduced_in < edition


def test_a_rule_printed_twice_goes_on_in_the_copy_keeping_its_letters(
    kb: rules_kb.KnowledgeBase,
) -> None:
    """The card types listed by 205.2a of 2009-05-01 are printed twice in 2009-07-11: as
    204.2a, under "Card Types" 204.2, with a pointer to section 3, and as 300.1, word for
    word. The line goes on in 204.2a, whose history reaches back before 2009, and 300.1
    was split from it."""
    assert kb.where("205.2a", "2009-05-01", "2009-07-11").now == "204.2a"
    assert kb.history("204.2a", "2009-07-11").introduced_in < "2009-07-11"
    assert kb.history("300.1", "2009-07-11").split_from == Step("2009-05-01", "205.2a")


def assert_split_from(
    kb: rules_kb.KnowledgeBase, key: str, edition: str, source: str, before: str
) -> None:
    """`history` and `where` both say that `key` of `edition` was split from `source` of
    `before`, the edition just before it."""
    assert kb.history(key, edition).split_from == Step(before, source)
    found = kb.where(key, edition, before)
    assert (found.status, found.now) == ("split", source)


@pytest.mark.parametrize(
    ("number", "edition", "source", "before", "line"),
    [
        ("203.1c", "2007-05-01", "203.1a", "2007-02-01", "203.1a"),
        ("217.6b", "2003-07-01", "217.6a", "2003-03-15", "217.6a"),
        # a word or two changed
        ("807.4d", "2010-07-16", "807.4c", "2010-06-18", "807.4c"),
        ("204.3j", "2009-07-11", "205.3d", "2009-05-01", "204.3g"),
        ("603.2b", "2009-07-11", "410.2", "2009-05-01", "603.2"),
        # found among the source's words too, holding few of the words it lost
        ("213.3", "2003-07-01", "214.3", "2003-03-15", "214.3"),
        ("708.6b", "2009-07-11", "505.6", "2009-05-01", "708.6a"),
    ],
)
def test_a_rule_opening_with_a_sentence_another_dropped_is_split_from_it(
    kb: rules_kb.KnowledgeBase, number: str, edition: str, source: str, before: str, line: str
) -> None:
    """203.1c of 2007-05-01 opens with the sentence on lands that 203.1a dropped (it kept
    its number and its sentence on copies); history and where say it was split off. So
    do 204.3j and 603.2b of 2009-07-11, opening with a sentence of 205.3d and 410.2 a word
    or two changed. 807.4c of 2010-07-16 opens with what 807.4c said first, "When" become
    "After", and 807.4d says its second sentence: the line goes on in the rule that kept
    the number and the opening (it was added, and the old rule went to 807.4d), and
    807.4d was split from it."""
    assert_split_from(kb, number, edition, source, before)
    assert kb.where(source, before, edition).now == line


@pytest.mark.parametrize(
    ("number", "edition", "source", "before"),
    [
        ("614.13a", "2012-07-01", "614.13", "2012-06-01"),
        ("203.1a", "2005-08-01", "203.1", "2005-02-01"),
        ("309.4", "2006-05-01", "309.3", "2006-02-01"),
        # the kept rule rewrote the sentence too, for another case
        ("610.3b", "2020-07-03", "610.3a", "2020-06-01"),
        # in other words ("grant" for "give"), 64% of the sentence, while the new 611.3d
        # holds a word more of it among much else
        ("400.7b", "2022-10-07", "400.7a", "2022-09-08"),
        ("205.3c", "2004-10-01", "205.3b", "2004-06-01"),
        ("216.4", "2007-02-01", "216.3", "2006-10-01"),
        # the nearer of two rules beside that echo it; 603.7f, on another case, is new
        ("603.7e", "2010-04-23", "603.7d", "2010-02-01"),
    ],
)
def test_a_rule_saying_apart_a_sentence_its_neighbour_dropped_is_split_from_it(
    kb: rules_kb.KnowledgeBase, number: str, edition: str, source: str, before: str
) -> None:
    """614.13 of 2012-06-01 said that an effect changing how a permanent enters can't
    keep the permanent itself out; 614.13 of 2012-07-01 dropped that sentence and 614.13a,
    under it, says it again reworded, as a choice you can't make. History and where say
    614.13a was split off, and 614.13 goes on in 614.13; the same for 203.1a of
    2005-08-01 (the mana cost of lands and tokens, from 203.1), 309.4 of 2006-05-01
    (abilities that trigger on a creature becoming blocked, from 309.3) and 610.3b of
    2020-07-03 (the triggered-ability case of 610.3a)."""
    assert_split_from(kb, number, edition, source, before)
    assert kb.where(source, before, edition).now == source


def test_a_rule_saying_the_case_its_source_named_beside_the_kept_one_was_split(
    kb: rules_kb.KnowledgeBase,
) -> None:
    """408.1d of 2009-05-01 ("A player may play an instant spell or an activated ability
    any time he or she has priority. ...") goes on as 115.1a of 2009-07-11, on spells, and
    115.1b, on activated abilities, the other case it named, was split from it."""
    assert_split_from(kb, "115.1b", "2009-07-11", "408.1d", "2009-05-01")
    assert kb.where("408.1d", "2009-05-01", "2009-07-11").now == "115.1a"


@pytest.mark.parametrize(
    ("number", "edition", "source", "before"),
    [
        ("300.1", "2009-07-11", "205.2a", "2009-05-01"),
        ("300.2", "2009-07-11", "205.2b", "2009-05-01"),
    ],
)
def test_a_second_copy_of_a_rule_printed_twice_was_split_from_it(
    kb: rules_kb.KnowledgeBase, number: str, edition: str, source: str, before: str
) -> None:
    """205.2a and 205.2b of 2009-05-01 are each printed twice in 2009-07-11: under their
    heading's new number 204.2 and again as 300.1 and 300.2. They go on in 204.2a and
    204.2b, and the second copies were split from them, 205.2b's too though 204.2b prints
    it word for word."""
    assert_split_from(kb, number, edition, source, before)
    assert kb.where(source, before, edition).now == "204.2" + source[-1]


def test_a_rule_follows_its_heading_where_its_rules_went(kb: rules_kb.KnowledgeBase) -> None:
    """ "Teams Variant" 809 of 2010-04-23 is "Alternating Teams Variant" 811 of
    2010-06-18, where its rules went, and its 809.2 ("... The Teams variant uses the
    following default options.") is 811.2, not 808.3, which says the same of the new
    Team vs. Team variant; 808.3 is new."""
    found = kb.where("809.2", "2010-04-23", "2010-06-18")
    assert (found.now, found.status, found.text_changed) == ("811.2", "moved", True)
    assert kb.history("808.3", "2010-06-18").split_from is None
    assert kb.where("808.3", "2010-06-18", "2010-04-23").status == "not_yet"


def test_a_rule_that_took_in_another_goes_on_from_the_one_it_opens_with(
    kb: rules_kb.KnowledgeBase,
) -> None:
    """702.19m of 2009-07-11 opens with 502.10i word for word ("Multiple instances of
    banding on the same creature are redundant.") and goes on with 502.11d, on bands with
    other: it continues 502.10i, 502.11d was merged into it, and "Bands with Other"
    502.11, whose rules went on or were merged under "Banding" 702.19, into 702.19."""
    assert kb.where("502.10i", "2009-05-01", "2009-07-11").now == "702.19m"
    merged = kb.where("502.11d", "2009-05-01", "2009-07-11")
    assert (merged.status, merged.now) == ("merged", "702.19m")
    heading = kb.where("502.11", "2009-05-01", "2009-07-11")
    assert (heading.status, heading.now) == ("merged", "702.19")


@pytest.mark.parametrize(
    ("term", "edition", "source", "before"),
    [
        ("Tap Symbol", "2009-07-11", "Tap", "2009-05-01"),
        ("Untap Step", "2003-07-01", "Untap", "2003-03-15"),
        ("Attach", "2005-08-01", "Move", "2005-02-01"),
        ("Active Player, Nonactive Player Rule", "2003-07-01", "Active Player", "2003-03-15"),
    ],
)
def test_an_entry_saying_apart_what_an_entry_lost_was_split_from_it(
    kb: rules_kb.KnowledgeBase, term: str, edition: str, source: str, before: str
) -> None:
    """ "Tap" of 2009-05-01 went on to say only what tapping is, and its paragraph on the tap
    symbol became "Tap Symbol"; "Untap" of 2003-03-15 lost its second meaning, the untap
    step, to "Untap Step"; "Move" of 2005-02-01 kept only counters, and "Attach" says the
    rest; "Active Player" lost its paragraph on who chooses first. Each new entry was split
    from the old one, which goes on under its name."""
    history = kb.history(term, edition)
    assert history.split_from == Step(before, source)
    assert kb.where(source, before, edition).now == source


def test_a_rule_echoing_a_dropped_sentence_less_nearly_than_its_neighbour_is_new(
    kb: rules_kb.KnowledgeBase,
) -> None:
    """603.7f of 2010-04-23, on delayed triggered abilities a static ability's replacement
    effect creates, echoes the sentence 603.7d dropped less nearly than 603.7e, on those
    abilities create, beside it: 603.7e was split from 603.7d, and 603.7f is new."""
    assert kb.history("603.7f", "2010-04-23").split_from is None
    assert kb.where("603.7f", "2010-04-23", "2010-02-01").status == "not_yet"


def test_quotation_marks_put_around_a_term_are_no_change(kb: rules_kb.KnowledgeBase) -> None:
    """308.2b of 2009-05-01 ("... a bands with other ability ...") is 508.1e of 2009-07-11
    ('... a "bands with other" ability ...'): moved, its cited rule renumbered; and
    702.19m of 2010-02-01, which put "bands with other" in quotes, is no new version."""
    found = kb.where("308.2b", "2009-05-01", "2009-07-11")
    assert (found.now, found.status) == ("508.1e", "moved")
    versions = kb.history("702.19m", "2010-02-01").versions
    assert "2009-07-11" in [version.first for version in versions]
    assert "2010-02-01" not in [version.first for version in versions]


@pytest.mark.parametrize(
    ("number", "source", "line"),
    [
        ("614.3", "419.3", "613.3"),
        ("614.4", "419.4", "613.4"),
        ("614.6", "419.5", "613.6"),
        ("602.3", "409.2", "601.3"),
        ("602.3b", "409.2b", "601.3b"),
        ("602.4", "409.3", "601.4"),
        # saying more than the old rule, found by no share of words
        ("113.1d", "415.2", "113.1c"),
    ],
)
def test_a_rule_said_of_two_cases_printed_once_for_each_is_split_in_two(
    kb: rules_kb.KnowledgeBase, number: str, source: str, line: str
) -> None:
    """419.3 of 2009-05-01 ("... a replacement or prevention effect") is 613.3 of
    2009-07-11, on replacement effects, and 614.3, on prevention effects, was split from
    it; so the rules on spells and abilities of 409 became a rule on spells in 601 and one
    on abilities in 602. History and where say so, both ways."""
    assert_split_from(kb, number, "2009-07-11", source, "2009-05-01")
    assert kb.where(source, "2009-05-01", "2009-07-11").now == line


@pytest.mark.parametrize(
    ("number", "edition", "source", "before", "line"),
    [
        ("605.1", "2009-07-11", "406.1", "2009-05-01", "605.1a"),
        ("115.3", "2009-07-11", "408.1c", "2009-05-01", "115.3a"),
    ],
)
def test_a_new_rule_over_the_parts_of_one_old_rule_is_split_from_it(
    kb: rules_kb.KnowledgeBase, number: str, edition: str, source: str, before: str, line: str
) -> None:
    """605.1 of 2009-07-11 says first what 406.1 said and 605.1a-b now say; 115.3 the same
    of 408.1c and 115.3a-d. History and where say it was split off, and the old rule's
    line goes on in its subrule."""
    assert_split_from(kb, number, edition, source, before)
    assert kb.where(source, before, edition).now == line


@pytest.mark.parametrize(
    ("old", "edition", "new"),
    [
        # local enchantments are targeted only as spells: among the targeting rules now
        ("214.8h", "2003-03-15", "415.3"),
        # who may look at both faces of a double-faced card
        ("711.1c", "2014-09-25", "711.2"),
    ],
)
def test_rules_left_over_that_are_each_others_nearest_are_one_rule(
    kb: rules_kb.KnowledgeBase, old: str, edition: str, new: str
) -> None:
    """Too unlike for the fuzzy pass, each is the other's most like rule of both editions."""
    after = kb.dates()[kb.dates().index(edition) + 1]
    found = kb.where(old, edition, after)
    assert (found.now, found.status, found.text_changed) == (new, "moved", True)


@pytest.mark.parametrize(
    ("old", "new"),
    [("310.2c", "510.1c"), ("310.2d", "510.1d"), ("405.1", "604.1"), ("411.3", "605.4a")],
)
def test_a_rule_rewritten_around_a_sentence_it_carries_goes_on_in_it(
    kb: rules_kb.KnowledgeBase, old: str, new: str
) -> None:
    """In Magic 2010, 310.2c ("If no creatures are currently blocking it ..., it will
    assign no combat damage") went on as 510.1c, which carries that sentence and adds
    the damage assignment order; the whole texts are too unlike to pair by likeness."""
    found = kb.where(old, "2009-05-01", "2009-07-11")
    assert (found.now, found.status, found.text_changed) == (new, "moved", True)
    assert any(v.key == old for v in kb.history(new, "2009-07-11").versions)


@pytest.mark.parametrize(
    ("number", "edition", "day", "note"),
    [
        ("704.5a", "latest", "2001-07-23", "420.5g split off it in 2001-07-23"),
        ("712.8", "2023-04-14", "2023-04-14", "713.4 merged into it in 2023-04-14"),
        # parallel rules, one rewritten to treat both cases alike: the planar deck and
        # the scheme deck as a subgame starts; a commander put into the graveyard or exiled
        ("724.2a", "2022-10-07", "2022-10-07", "723.2d merged into it in 2022-10-07"),
        ("903.11", "2015-07-17", "2015-07-17", "903.12 merged into it in 2015-07-17"),
        ("Battlefield", "latest", "2009-07-11", "In Play (Obsolete) split off it in 2009-07-11"),
    ],
)
def test_history_names_what_left_a_line_and_what_joined_it(
    kb: rules_kb.KnowledgeBase, number: str, edition: str, day: str, note: str
) -> None:
    """The line a record was split off (or merged into) says so in the version of that
    edition, and `where` on the way back, as the record's own history says it from its
    side."""
    found = kb.history(number, edition)
    version = next(v for v in found.versions if v.first <= day <= v.last)
    assert note in version.branch_notes
    before = kb.dates()[kb.dates().index(day) - 1]
    assert note in kb.where(number, found.edition, before).branch_notes  # and on the way
    other = note.split(" split off it")[0].split(" merged into it")[0]
    if "split off" in note:
        assert kb.history(other, day).split_from is not None
    else:
        assert kb.history(other, before).merged_into == Step(day, number)


@pytest.mark.parametrize("edition", ["2001-07-23", "latest"])
def test_every_history_at_once_is_each_history(kb: rules_kb.KnowledgeBase, edition: str) -> None:
    """The web edition reads every line of an edition at once: each history it gets, the
    records split off and merged in included, is what `history` says of that record."""
    found = list(kb.histories(edition))
    branched = [h for h in found if any(v.branches for v in h.versions)]
    assert len(branched) > 50
    for history in branched + found[:: max(1, len(found) // 50)]:
        one = kb.history(history.key, history.edition)
        assert history.versions == one.versions, history.key
        assert (history.split_from, history.merged_into) == (one.split_from, one.merged_into)


@pytest.mark.parametrize(
    ("term", "source"),
    [
        ("World Rule", "World"),
        ("Legend Rule", "Legendary"),
        ("Planeswalker Uniqueness Rule", "Planeswalker Type"),
        ("In Response To", "Respond, Response (Informal)"),
    ],
)
def test_a_term_an_entry_named_in_quotes_became_an_entry_split_from_it(
    kb: rules_kb.KnowledgeBase, term: str, source: str
) -> None:
    """ "World" of 2009-05-01 said what the "world rule" is; in 2009-07-11 "World Rule" is
    an entry of its own, split from "World", which went on without it. "Forest" of
    2003-07-01, quoted in "Land Type" only as a value, is new."""
    assert_split_from(kb, term, "2009-07-11", source, "2009-05-01")
    assert kb.history("Forest", "2003-07-01").split_from is None


def test_history_of_kicker_runs_through_its_rename(kb: rules_kb.KnowledgeBase) -> None:
    found = kb.history("kicker")
    terms = [version.key for version in found.versions]
    assert terms[0] == "Kicker, Kicked" and terms[-1] == "Kicker"
    assert found.introduced_in.startswith("2001")
    renamed = next(v for v in found.versions if v.key == "Kicker, Kicked" and v.status != "changed")
    assert renamed.first == "2009-09-04"


def test_history_of_118_9b_reaches_the_2019_01_25_wording(kb: rules_kb.KnowledgeBase) -> None:
    found = kb.history("118.9b")
    older = next(v for v in found.versions if v.last == "2019-01-25")
    assert older.key == "117.9b"
    assert older.text == "Alternative costs are always optional."


def test_history_merges_typography_only_neighbours(kb: rules_kb.KnowledgeBase) -> None:
    for number in ("302.6", "702.19a", "100.1"):
        found = kb.history(number)
        for newer, older in zip(found.versions, found.versions[1:], strict=False):
            if newer.key == older.key:
                assert not same_wording(newer.text, older.text) or newer.examples != older.examples
        assert any(len(version.forms) > 1 for version in found.versions), number


@pytest.mark.parametrize(
    ("number", "old", "new"),
    [
        ("503.1", "2001-07-23", "2002-02-20"),
        ("100.3", "2001-07-23", "2002-02-20"),
        ("206.2", "2001-07-23", "2002-02-20"),
        ("502.17a", "2001-07-23", "2002-02-20"),
        ("502.7a", "1999-04-23", "1999-11-01"),
        ("410.9b", "1999-04-23", "1999-11-01"),
        ("107.9", "2011-06-17", "2011-09-30"),
    ],
)
def test_typography_of_damaged_and_early_copies_is_no_change(
    kb: rules_kb.KnowledgeBase, number: str, old: str, new: str
) -> None:
    """2001-07-23 and 2002-02-20 printed the ™ after "Oracle" as U+FFFD, 2001-09-24 as a
    T glued to the name ("OracleT"); 1999-04-23 wrote placeholders in angle brackets
    ("Protection from <quality>"), 1999-11-01 in square ones; 2011-07-15 printed
    "_Odyssey_TM" between two "_Odyssey_(TM)": no edition between begins a version."""
    found = kb.history(number, new)
    dates = kb.dates()
    between = set(dates[dates.index(old) + 1 : dates.index(new) + 1])
    assert not {version.first for version in found.versions} & between, number
    assert kb.where(number, old, new).status == "same"


@pytest.mark.parametrize(
    ("old", "new"), [("2013-05-01", "2013-07-13"), ("2025-02-07", "2025-04-04")]
)
def test_references_renumbered_are_no_change_to_any_command(
    kb: rules_kb.KnowledgeBase, old: str, new: str
) -> None:
    """`diff` lists a rule whose cited numbers only followed the renumbering apart from
    its real changes; `where` and `history` say the same of it: same wording, one version."""
    found = kb.diff(old, new)
    kept = [c for c in found.rules if c.old_key == c.new_key and not c.examples]
    renumbered = [c for c in kept if c.reference_only]
    changed = [c for c in kept if c.type == "changed" and not c.reference_only]
    assert len(renumbered) >= 3 and changed
    for change in renumbered + changed:
        assert change.old_key is not None and change.new_key is not None
        where = kb.where(change.old_key, old, new)
        assert where.text_changed is not change.reference_only, change.old_key
        assert where.status == ("same" if change.reference_only else "changed"), change.old_key
        version = next(v for v in kb.history(change.new_key, new).versions if v.first <= new)
        assert (version.first <= old) is change.reference_only, change.old_key
    glossary = [c for c in found.glossary if c.reference_only and c.old_key == c.new_key]
    for change in glossary:
        assert change.new_key is not None
        version = next(v for v in kb.history(change.new_key, new).versions if v.first <= new)
        assert version.first <= old, change.new_key


def test_an_example_changed_is_no_change_of_wording_to_any_command(
    kb: rules_kb.KnowledgeBase,
) -> None:
    """A rule whose only change is an example (the mana pool left the examples in
    2018-04-27; 201.2a of 2009-10-01 went on as 201.5 with "to" added to its example;
    118.3c of 2024-11-08 lost its example) is the same rule, in every edition: `where`
    finds its text unchanged, `history` says "example changed" with the examples' word
    diffs, `diff` lists it as its example only."""
    dates = [edition.edition for edition in kb.editions()]
    found = []
    for old, new in itertools.pairwise(sorted(dates)):
        for change in kb.diff(old, new).rules:
            if not change.example_only:
                continue
            assert change.old_key is not None and change.new_key is not None
            found.append((old, change.old_key, change.new_key))
            where = kb.where(change.old_key, old, new)
            moved = change.old_key != change.new_key
            assert (where.status, where.text_changed) == ("moved" if moved else "same", False)
            version = next(v for v in kb.history(change.new_key, new).versions if v.first <= new)
            assert version.first == new, change.new_key
            assert version.status == ("moved" if moved else "same"), change.new_key
            assert version.note.endswith("example changed") and version.example_words
            assert any(op != "=" for words in version.example_words for op, _ in words)
    assert len(found) >= 300
    assert {("2009-10-01", "201.2a", "201.5"), ("2024-09-20", "118.3c", "118.3c")} <= set(found)


def test_history_as_of_an_edition_and_with_subrules(kb: rules_kb.KnowledgeBase) -> None:
    old = kb.history("702.17", "2010-06-18")
    assert old.key == "702.17" and old.versions[0].last == "2026-08-07"
    assert old.versions[0].key == "702.19"
    whole = kb.history("702.19", subrules=True)
    assert [h.key for h in whole.subrules][:3] == ["702.19a", "702.19b", "702.19c"]


def test_history_cli_json_and_pipe(all_editions_db: Path) -> None:
    document = json.loads(ok_cli("history", "702.19b", "--json", "--db", all_editions_db).stdout)
    assert document["introduced_in"] == "1999-04-23"
    assert document["versions"][0]["number"] == "702.19b"
    assert any(v["words"] for v in document["versions"][:-1])
    text = ok_cli("history", "702.19b", "--db", all_editions_db).stdout
    assert "[-" in text and "{+" in text and "introduced in 1999-04-23" in text


# redirects and where ------------------------------------------------------------------


def test_an_old_number_says_where_it_went(all_editions_db: Path) -> None:
    result = run_cli("rule", "502.9", "--db", all_editions_db)
    assert result.exit_code == 1
    assert result.stderr.strip() == (
        "rules-kb: no rule 502.9 in 2026-08-07; 502.9 Trample (1999-04-23 … 2009-05-01)"
        " is now 702.19"
    )
    back = run_cli("rule", "702.19", "-e", "2003-01-01", "--db", all_editions_db)
    assert back.exit_code == 1 and "was then 502.9" in back.stderr


def test_a_removed_term_says_when(kb: rules_kb.KnowledgeBase) -> None:
    with pytest.raises(UnknownTerm, match=r"Substance: in the glossary 2005-10-01 … 2009-05-01"):
        kb.define("Substance")


def test_where_backwards_and_forwards(kb: rules_kb.KnowledgeBase) -> None:
    back = kb.where("702.19", to="2009-05-01")
    assert back.as_json() == {
        "from": {"edition": "2026-08-07", "number": "702.19"},
        "to": {"edition": "2009-05-01", "number": "502.9"},
        "status": "moved",
        "text_changed": False,
        "steps": [
            {"edition": "2013-07-13", "number": "702.19"},
            {"edition": "2011-06-17", "number": "702.18"},
            {"edition": "2009-07-11", "number": "702.17"},
            {"edition": "2009-05-01", "number": "502.9"},
        ],
    }
    forward = kb.where("702.85a", "2010-06-18")
    assert (forward.now, forward.status) == ("702.88a", "moved")
    assert forward.homonym is not None and forward.homonym.startswith("Cascade")


def test_where_removed_and_not_yet(kb: rules_kb.KnowledgeBase) -> None:
    removed = kb.where("504.2", "2010-06-18")
    assert (removed.status, removed.now, removed.removed_in) == ("removed", None, "2016-09-30")
    assert removed.homonym is not None  # 504.2 is another rule today
    young = kb.where("702.19", to="1999-11-01")
    assert young.status == "moved" and young.now == "502.9"
    newer = (
        kb.where("702.190", to="2020-01-24")
        if kb.lineage.rule_seq("702.190", "2026-08-07")
        else None
    )
    if newer is not None:
        assert newer.status == "not_yet" and newer.introduced_in > "2020-01-24"
    with pytest.raises(UnknownRule):
        kb.where("799.99")


def test_where_cli(all_editions_db: Path) -> None:
    result = ok_cli("where", "702.85a", "-e", "2010-06-18", "--db", all_editions_db)
    assert "702.88a" in result.stdout and "another rule" in result.stdout
    document = json.loads(
        ok_cli("where", "702.19", "--to", "2009-05-01", "--json", "--db", all_editions_db).stdout
    )
    assert document["to"]["number"] == "502.9"
    # Looking back, a rule was what it was then; looking forward, it became what it is.
    back = ok_cli("where", "702.19", "--to", "2009-05-01", "--db", all_editions_db).stdout
    assert "702.19 (2026-08-07) was 502.9 in 2009-05-01" in back
    on = ok_cli("where", "502.9", "-e", "2009-05-01", "--db", all_editions_db).stdout
    assert "502.9 (2009-05-01) became 702.19 in 2026-08-07" in on
    # Removed: when, and that it is gone by the edition asked for, unless that is when.
    gone = ok_cli("where", "504.2", "-e", "2010-06-18", "--db", all_editions_db).stdout
    assert "504.2 (2010-06-18) was removed in 2016-09-30, before 2026-08-07" in gone
    then = ("where", "504.2", "-e", "2010-06-18", "--to", "2016-09-30", "--db", all_editions_db)
    assert "504.2 (2010-06-18) was removed in 2016-09-30\n" in ok_cli(*then).stdout


# cite ---------------------------------------------------------------------------------

ARTICLE = FIXTURES / "cite" / "article-2010.md"
#: What the raw editions say of each citation of the article (checked by reading them).
EXPECTED = {
    "702.17b": ("moved", "702.19b", True),
    "702.17a": ("moved", "702.19a", False),  # only its quotes were made curly
    "702.2a": ("current", "702.2a", False),
    "303.4b": ("current", "303.4b", False),
    "702.85a": ("moved", "702.88a", False),
    "614.1d": ("changed", "614.1d", True),
    "504.2": ("removed", None, False),
    "702.999": ("unknown", None, False),
}


def test_cite_reports_every_citation_of_an_article(kb: rules_kb.KnowledgeBase) -> None:
    report = kb.cite(ARTICLE.read_text("utf-8"), as_of="2010-06-18")
    found = {c.number: (c.status, c.now, c.text_changed) for c in report.citations}
    assert found == EXPECTED
    assert [c.number for c in report.citations].count("702.17b") == 2  # "rule" and a range end
    removed = next(c for c in report.citations if c.number == "504.2")
    assert removed.removed_in == "2016-09-30"
    trample = next(c for c in report.citations if c.raw == "see rule 702.17b")
    assert (trample.line, trample.column) == (5, 19)
    for citation in report.citations:  # the word diff rebuilds the new text from the old
        words = citation.words()
        assert bool(words) == citation.text_changed
        if words:
            assert "".join(w for op, w in words if op != "-") == citation.text
            old = "".join(w for op, w in words if op != "+")  # typography is not an edit
            assert key(old) == key(citation.then or "")


def test_cite_fix_rewrites_exactly_the_moved_citations(kb: rules_kb.KnowledgeBase) -> None:
    text = ARTICLE.read_text("utf-8")
    fixed = kb.cite(text, as_of="2010-06-18").fixed
    expected = (
        text.replace("rule 702.17b", "rule 702.19b")
        .replace("rules 702.17a–b", "rules 702.19a–b")
        .replace("CR 702.85a", "CR 702.88a")
    )
    assert fixed == expected


def test_cite_cli_check_json_and_bad_input(all_editions_db: Path, tmp_path: Path) -> None:
    args = ["cite", str(ARTICLE), "--as-of", "2010-06-18", "--db", str(all_editions_db)]
    assert run_cli(*args, "--check").exit_code == 3
    document = json.loads(ok_cli(*args, "--json").stdout)
    assert document["as_of"] == "2010-06-18" and document["to"] == "2026-08-07"
    assert {"raw", "line", "column", "number", "status", "now", "text_changed"} <= set(
        document["citations"][0]
    )
    out = tmp_path / "fixed.md"
    ok_cli(*args, "--fix", "-o", str(out))
    assert "CR 702.88a" in out.read_text("utf-8")
    current = tmp_path / "current.md"
    current.write_text("Deathtouch: see rule 702.2a.\n", "utf-8")
    assert run_cli("cite", str(current), "--check", "--db", str(all_editions_db)).exit_code == 0
    binary = tmp_path / "x.bin"
    binary.write_bytes(b"\x00\x01\x02" * 100)
    for bad in ([str(binary)], [str(current), "--as-of", "1990-01-01"]):
        result = run_cli("cite", *bad, "--db", str(all_editions_db))
        assert result.exit_code == 1 and len(result.stderr.splitlines()) == 1, result.output


# diffs from the lineage -----------------------------------------------------------------


def test_diff_counts_typography_and_lists_only_real_changes(all_editions_db: Path) -> None:
    document = json.loads(
        ok_cli("diff", "2018-10-05", "2019-01-25", "--json", "--db", all_editions_db).stdout
    )
    summary = document["summary"]
    assert summary["typography"] > 1000
    real = [c for c in document["changes"] if c["kind"] != "glossary"]
    assert 0 < len(real) < 100
    assert all(c["type"] != "typography" for c in document["changes"])
    assert "114.6" in {c["new_number"] for c in real}
    listed = json.loads(
        ok_cli(
            "diff", "2018-10-05", "2019-01-25", "--typography", "--json", "--db", all_editions_db
        ).stdout
    )
    assert (
        sum(c["type"] == "typography" for c in listed["changes"])
        == summary["typography"] + (summary["glossary"]["typography"])
    )


def test_consecutive_diff_reads_the_stored_pairs(kb: rules_kb.KnowledgeBase) -> None:
    stored = kb.diff("2019-01-25", "2019-05-03")
    direct = kb.diff("2019-01-25", "2019-06-14")
    assert stored.stored and not direct.stored
    rewritten = next(c for c in stored.rules if c.new_key == "117.9b")
    assert rewritten.type == "changed" and rewritten.old_key == "117.9b"


def test_diff_rule_matches_the_old_number(all_editions_db: Path) -> None:
    document = json.loads(
        ok_cli(
            "diff",
            "2013-05-01",
            "2013-07-13",
            "--rule",
            "702.18",
            "--json",
            "--db",
            all_editions_db,
        ).stdout
    )
    olds = {c["old_number"] for c in document["changes"]}
    assert olds and all(number and number.startswith("702.18") for number in olds)


# the assignment solver --------------------------------------------------------------


def test_the_solver_loaded_from_its_file_is_scipys() -> None:
    import numpy as np
    from scipy.optimize import linear_sum_assignment as public

    from rules_kb.ingest import assignment

    solver = assignment._loaded_directly()
    assert solver is not None, "scipy's _lsap extension was not found beside scipy.optimize"
    chosen = np.random.default_rng(3)
    for shape in ((1, 1), (5, 5), (7, 3), (3, 9), (40, 40)):
        score = np.round(chosen.random(shape), 1)  # ties, as aligning has
        for maximize in (False, True):
            mine, theirs = solver(score, maximize=maximize), public(score, maximize=maximize)
            assert [a.tolist() for a in mine] == [a.tolist() for a in theirs]


def test_aligning_does_not_import_scipy_optimize() -> None:
    script = (
        "import sys\n"
        "from rules_kb.ingest.assignment import linear_sum_assignment\n"
        "import numpy as np\n"
        "rows, cols = linear_sum_assignment()(np.array([[1.0, 5.0], [4.0, 1.0]]), maximize=True)\n"
        "print(rows.tolist(), cols.tolist(), 'scipy.optimize' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    assert done.stdout.split() == ["[0,", "1]", "[1,", "0]", "False"]


def test_the_solver_falls_back_to_scipys_public_import(monkeypatch: pytest.MonkeyPatch) -> None:
    from scipy.optimize import linear_sum_assignment as public

    from rules_kb.ingest import assignment

    monkeypatch.setattr(assignment.importlib.util, "find_spec", lambda name: None)
    assignment.linear_sum_assignment.cache_clear()
    try:
        assert assignment.linear_sum_assignment() is public
    finally:
        assignment.linear_sum_assignment.cache_clear()


@pytest.mark.parametrize("date", ["2001-07-23", "2009-07-11", "2023-04-14"])
def test_many_steps_at_once_are_each_records_step(all_editions_db: Path, date: str) -> None:
    """`Lines.steps` (a few hundred lines followed at once, reading only their rows) says of
    every record what `back` and `forward` say of it one by one: on an edition that split,
    merged and renumbered many, both ways, rules and glossary entries."""
    conn = sqlite3.connect(all_editions_db)
    try:
        (edition_id,) = conn.execute("SELECT id FROM editions WHERE date = ?", [date]).fetchone()
        for kind, table in (("rule", "rules"), ("glossary", "glossary")):
            lines = lineage.Lines(conn)
            seqs = [s for (s,) in conn.execute(f"SELECT seq FROM {table} WHERE edition_id = ?",
                                               [edition_id])]  # fmt: skip
            for back in (True, False):
                many = lines.steps(kind, edition_id, seqs, back=back)
                one_by_one = {}
                for seq in seqs:
                    node = lines.node(kind, edition_id, seq)
                    found = lines.back(kind, node) if back else lines.forward(kind, node)
                    if found is not None:
                        one_by_one[seq] = found.seq
                assert many == one_by_one, (kind, back)
                assert len(many) > len(seqs) / 2
    finally:
        conn.close()
