"""Tests for rules_kb.parse: golden fixtures, and properties of every shared edition."""

from __future__ import annotations

import dataclasses
import json
import re
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules_kb.decode import decode
from rules_kb.errors import NotAnEdition
from rules_kb.models import Edition, normalise_number, sort_key
from rules_kb.parse import _body_start, _content, edition, effective_date
from tests.conftest import edition_files

FIXTURES = Path(__file__).parent / "fixtures"
GOLDEN = ["modern", "wrapped1999", "wrapped2003"]
EDITIONS = edition_files()


@cache
def parsed(path: Path) -> tuple[str, Edition]:
    """Decoded text and parsed edition of a shared file, once per session."""
    text = decode(path.read_bytes()).text
    return text, edition(text)


def by_date(date: str) -> Edition:
    path = next((p for p in EDITIONS if p.stem == date), None)
    if path is None:
        pytest.skip("../shared is not there")
    return parsed(path)[1]


def rule_map(found: Edition) -> dict[str, object]:
    return {rule.number: rule for rule in found.rules}


# -- golden fixtures --------------------------------------------------------------


@pytest.mark.parametrize("name", GOLDEN)
def test_golden_fixture(name: str) -> None:
    """The parser's whole output for a hand-written fixture is pinned."""
    text = (FIXTURES / f"{name}.txt").read_text("utf-8")
    expected = json.loads((FIXTURES / f"{name}.json").read_text("utf-8"))
    actual = json.loads(json.dumps(dataclasses.asdict(edition(text)), ensure_ascii=False))
    assert actual == expected


def test_modern_fixture_traps() -> None:
    found = edition((FIXTURES / "modern.txt").read_text("utf-8"))
    numbers = [rule.number for rule in found.rules]
    # the table of contents repeats the headings: they are not the body
    assert numbers.count("100") == 1
    assert numbers.index("704.5k") + 1 == numbers.index("704.5m")
    assert numbers[-1] == "704.5aa"
    rules = rule_map(found)
    assert rules["101.1d"].examples == ("This example was printed with its label twice.",)
    assert rules["100.2"].examples[1].startswith("Another player")
    assert "\n" in rules["101.2"].text  # the indented second paragraph is kept
    terms = [entry.term for entry in found.glossary]
    assert terms == ["Kicker, Kicked", "Play", "Trample"]
    assert found.glossary[0].names == ("Kicker, Kicked", "Kicker", "Kicked")
    assert found.glossary[1].text.splitlines()[1].startswith("2. ")
    assert found.credits.endswith("effective as of March 3, 2031.")


def test_wrapped_fixture_joins_lines_but_not_sentences_that_start_with_a_number() -> None:
    found = edition((FIXTURES / "wrapped2003.txt").read_text("utf-8"))
    numbers = [rule.number for rule in found.rules if rule.kind == "rule"]
    assert numbers == ["100.1", "100.2", "100.3", "100.4"]
    assert rule_map(found)["100.2"].text.endswith("is not a rule.")


# -- records and numbers -----------------------------------------------------------


def test_sort_key_is_numeric() -> None:
    numbers = ["100.10", "100.2", "704.5aa", "704.5z", "100.1a", "100.1", "99", "100"]
    assert sorted(numbers, key=sort_key) == [
        "99",
        "100",
        "100.1",
        "100.1a",
        "100.2",
        "100.10",
        "704.5z",
        "704.5aa",
    ]


@given(st.integers(100, 999), st.integers(1, 300), st.integers(1, 300))
def test_sort_key_orders_minor_numbers_numerically(chapter: int, a: int, b: int) -> None:
    left, right = f"{chapter}.{a}", f"{chapter}.{b}"
    assert (sort_key(left) < sort_key(right)) == (a < b)


@pytest.mark.parametrize("raw", ["702.19", "702.19.", "rule 702.19", "Rule 702.19", " 702.19 "])
def test_normalise_number(raw: str) -> None:
    assert normalise_number(raw) == "702.19"


def test_normalise_number_lowercases_letters() -> None:
    assert normalise_number("702.19B") == "702.19b"


def test_effective_date_forms() -> None:
    assert effective_date("These rules are effective as of August 7, 2026.") == "2026-08-07"
    assert effective_date("These rules are current as of November 1, 1999.") == "1999-11-01"
    assert effective_date("COMPREHENSIVE RULES          04/23/99") == "1999-04-23"
    with pytest.raises(NotAnEdition):
        effective_date("Once upon a time there was a card game.")


def test_prose_is_not_an_edition() -> None:
    with pytest.raises(NotAnEdition):
        edition("These rules are effective as of May 1, 2020.\n\nJust a letter to a friend.\n")


# -- every shared edition ------------------------------------------------------------

needs_shared = pytest.mark.skipif(not EDITIONS, reason="../shared is not there")


@needs_shared
@pytest.mark.parametrize("path", EDITIONS, ids=lambda p: p.stem)
def test_edition_date_is_its_file_name(path: Path) -> None:
    assert parsed(path)[1].date == path.stem


@needs_shared
@pytest.mark.parametrize("path", EDITIONS, ids=lambda p: p.stem)
def test_nothing_lost(path: Path) -> None:
    """Every non-blank body line ends up in a record (or is named as unparsed)."""
    text, found = parsed(path)
    assert not found.unparsed
    pieces = [rule.text for rule in found.rules]
    pieces += [example for rule in found.rules for example in rule.examples]
    pieces += [part for entry in found.glossary for part in (entry.term, entry.text)]
    # a term printed glued to its first sense ("Ability1. Text ...") is split in two records
    pieces += [entry.term + entry.text.split("\n")[0] for entry in found.glossary]
    pieces += [found.credits, found.index]
    paragraphs = {_squash(line) for piece in pieces for line in piece.split("\n")}
    record_text = "\n".join(paragraphs)
    lines = text.split("\n")
    missing = []
    for number, line in enumerate(lines[_body_start(lines) :], start=_body_start(lines) + 1):
        if not _content(line):
            continue
        content = re.sub(r"^\d{1,3}\.( ?\d+[a-z]*\.?)?\s*", "", _squash(line))
        content = re.sub(r"^(?:example:\s*)+", "", content, flags=re.I)
        if content.lower() in {"glossary", "credits", "index"}:
            continue
        if content and content not in paragraphs and content not in record_text:
            missing.append((number, line[:60]))
    assert missing == []


@needs_shared
@pytest.mark.parametrize(
    "path", [p for p in EDITIONS if p.stem >= "2009-07-11"], ids=lambda p: p.stem
)
def test_counts_equal_an_independent_count(path: Path) -> None:
    """Rules and examples equal a plain count of numbered and "Example:" lines."""
    text, found = parsed(path)
    lines = text.split("\n")
    start = _body_start(lines)
    end = next(i for i in range(start, len(lines)) if lines[i].strip() == "Glossary")
    body = lines[start:end]
    numbered = sum(1 for line in body if re.match(r"^\s*\d{3}\. ?\d+[a-z]*", line))
    examples = sum(1 for line in body if line.strip().startswith("Example:"))
    assert sum(1 for rule in found.rules if rule.kind in {"rule", "subrule"}) == numbered
    assert found.example_count == examples


@needs_shared
@pytest.mark.parametrize("path", EDITIONS, ids=lambda p: p.stem)
def test_every_edition_has_sections_glossary_and_tree(path: Path) -> None:
    found = parsed(path)[1]
    numbers = {rule.number for rule in found.rules}
    assert {"1", "100", "100.1"} <= numbers
    assert len(found.glossary) > 150
    for rule in found.rules:
        if rule.kind == "subrule":
            assert rule.parent is not None and rule.number.startswith(rule.parent)
        if rule.kind == "rule":
            assert rule.parent == rule.number.split(".")[0]


def test_510_1c_has_four_examples_in_2022_11_18() -> None:
    rules = rule_map(by_date("2022-11-18"))
    assert len(rules["510.1c"].examples) == 4  # type: ignore[attr-defined]


def test_704_5_letters_skip_l_and_o_and_run_past_z() -> None:
    found = by_date("2026-08-07")
    children = [rule.number for rule in found.rules if rule.parent == "704.5"]
    assert children[children.index("704.5k") + 1] == "704.5m"
    assert children[-1] == "704.5aa"
    assert not [number for number in children if number[-1] in "lo" and number != "704.5"]


def test_old_editions_use_502_keywords_and_in_play() -> None:
    rules = rule_map(by_date("2009-05-01"))
    assert str(rules["502.9"].text).startswith("Trample")  # type: ignore[attr-defined]
    modern = rule_map(by_date("2009-07-11"))
    assert str(modern["702.2"].text).startswith("Deathtouch")  # type: ignore[attr-defined]


def test_1999_uppercase_examples_and_indented_glossary() -> None:
    found = by_date("1999-04-23")
    assert found.example_count == 36
    trample = next(entry for entry in found.glossary if entry.term == "Trample")
    assert "trample over" in trample.text
    assert found.index  # the 1999 index is kept, not lost


def test_glossary_last_known_information_2006() -> None:
    found = by_date("2006-02-01")
    entry = next(e for e in found.glossary if e.term == "Last Known Information")
    assert entry.text.startswith("The last known information")


def test_numbered_senses_stay_one_entry() -> None:
    found = by_date("2026-08-07")
    play = [entry for entry in found.glossary if entry.term == "Play"]
    assert len(play) == 1
    assert [line[:2] for line in play[0].text.splitlines()][:2] == ["1.", "2."]


def _squash(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize(
    ("date", "term", "starts"),
    [
        ("1999-11-01", "Counter", "1. "),  # its second sense follows a blank line
        ("2021-06-18", "Ability", "1. "),  # printed as "Ability1. Text on ..."
        ("2001-07-23", "Infinity Rule", "There"),  # a wrapped term ending in "Rule"
    ],
)
def test_glossary_traps(date: str, term: str, starts: str) -> None:
    entries = [entry for entry in by_date(date).glossary if entry.term == term]
    assert len(entries) == 1
    assert entries[0].text.startswith(starts)
    if term == "Counter":
        assert "\n2. " in entries[0].text
