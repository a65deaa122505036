"""Tests for rules_kb.ingest.parse: golden fixtures, and properties of every shared edition."""

from __future__ import annotations

import dataclasses
import json
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules_kb.errors import BadRuleNumber, GrammarRejected, NotAnEdition, ParseFailure
from rules_kb.ingest.decode import decode
from rules_kb.ingest.lalr import grammar
from rules_kb.ingest.models import (
    Edition,
    GlossaryEntry,
    Rule,
    is_number,
    normalise_number,
    range_end,
    sort_key,
)
from rules_kb.ingest.parse import (
    LineLexer,
    LogicalLine,
    Nester,
    _body_start,
    _content,
    edition,
    effective_date,
)
from tests.conftest import FIXTURES, SHARED, edition_files

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
    assert found.credits.endswith("effective as of March 3, 2027.")


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


@pytest.mark.parametrize(
    ("start", "end", "written"),
    [
        ("702.19a", "702.19b", "b"),  # one rule: the letters alone
        ("601.2f", "601.2h", "h"),
        ("702.19b", "702.20c", "702.20c"),  # another rule: the whole number
        ("702.19b", "702.19", "702.19"),  # an end without letters is written whole
        ("", "702.19b", "702.19b"),
    ],
)
def test_a_range_end_is_written_short_under_its_start_rule(
    start: str, end: str, written: str
) -> None:
    assert range_end(start, end) == written


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
        # the number, also when printed without the rule's own number ("306.b")
        content = re.sub(r"^\d{1,3}\.( ?\d+[a-z]*\.?|[a-z]{1,2}\.?(?= ))?\s*", "", _squash(line))
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


# -- typo'd rule numbers printed in real editions -------------------------------------


@pytest.mark.parametrize(
    ("date", "number", "line", "starts"),
    [
        ("2008-10-01", "306.b", 837, "If an effect would put a creature"),
        ("1999-11-01", "408.f", 691, "Card text that isn't an ability"),
        ("1999-11-01", "408.g", 693, "Game actions"),
    ],
)
def test_lettered_typo_is_a_record_of_its_own(
    date: str, number: str, line: int, starts: str
) -> None:
    found = by_date(date)
    rule = next(rule for rule in found.rules if rule.number == number)
    assert (rule.kind, rule.parent, rule.line) == ("subrule", number[:3], line)
    assert rule.text.startswith(starts)
    previous = found.rules[found.rules.index(rule) - 1]
    assert starts not in previous.text  # no longer folded into the rule before it
    assert any(number in warning and f"line {line}" in warning for warning in found.warnings)


def test_lettered_typo_in_an_invented_text() -> None:
    text = (FIXTURES / "modern.txt").read_text("utf-8")
    text = text.replace("100.1a A two-player game", "100.a A two-player game")
    found = edition(text)
    rule = rule_map(found)["100.a"]
    assert (rule.kind, rule.parent, rule.text) == (  # type: ignore[attr-defined]
        "subrule",
        "100",
        "A two-player game begins with only two players.",
    )
    assert [w for w in found.warnings if "100.a" in w] == [
        "line 28: rule number '100.a' has no number before its letter (as printed);"
        " kept as a subrule of 100"
    ]


def test_lettered_numbers_sort_and_normalise() -> None:
    assert sorted(["306.1", "306.b", "306", "305.9", "306.3a"], key=sort_key) == [
        "305.9",
        "306",
        "306.b",
        "306.1",
        "306.3a",
    ]
    assert is_number("306.b") and normalise_number("306.B") == "306.b"
    assert normalise_number("rule 306.b.") == "306.b"


# -- rule numbers as people write them -------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("CR 702.19", "702.19"),
        ("cr702.19", "702.19"),
        ("702.19(b)", "702.19b"),
        ("702.19 (b)", "702.19b"),
        ("702.19 b", "702.19b"),
        ("§702.19b", "702.19b"),
        ("§ 702.19b", "702.19b"),
        ("CR § 702.19b", "702.19b"),
        ("702,19", "702.19"),
        ("rule 702.19b.", "702.19b"),
        ("rules 702.19", "702.19"),
        ("r702.19", "702.19"),
        ("r. 702.19", "702.19"),
        ("Rule 702.19B", "702.19b"),
        ("702.19.", "702.19"),
        ("  \t702.19b \n", "702.19b"),
        ("704.5aa", "704.5aa"),
        ("702", "702"),
        ("702.", "702"),
        ("7", "7"),
        ("7.", "7"),
    ],
)
def test_written_forms_of_numbers(raw: str, expected: str) -> None:
    assert is_number(raw), raw
    assert normalise_number(raw) == expected


@pytest.mark.parametrize(
    "raw",
    [
        "702 and trample",
        "2 players",
        "trample",
        "rampage",
        "Rule of law",
        "r",
        "§",
        "CR",
        "702.19b extra",
        "702 b",
        "7020",
        "702.19abc",
        "702.19.b",
        "٧٠٢.١٩",  # digits, but not ASCII ones
        "702.19\u212a",  # the Kelvin sign is no letter k here
        "",
    ],
)
def test_not_numbers(raw: str) -> None:
    assert not is_number(raw)


def test_words_pass_through_normalise_for_the_error_message() -> None:
    assert normalise_number(" Trample ") == "trample"
    assert normalise_number("rampage") == "rampage"  # not "ampage"
    assert normalise_number("702 and trample") == "702 and trample"


@pytest.mark.parametrize("digits", [5, 5000, 100_000])
def test_absurdly_long_numbers_are_refused_with_one_line(digits: int) -> None:
    raw = "702." + "1" * digits
    assert not is_number(raw)
    with pytest.raises(BadRuleNumber) as caught:
        normalise_number(raw)
    message = str(caught.value)
    assert "\n" not in message and len(message) < 200 and "at most 3 digits" in message
    assert sort_key(raw)[0] == 10**6  # sorts last, never int() of 100,000 digits
    with pytest.raises(BadRuleNumber):
        normalise_number("1" * digits)


_prefix = st.sampled_from(
    ["", "rule ", "Rule ", "rules ", "r", "r.", "CR ", "cr", "§", "§ ", "CR §"]
)
_dot = st.sampled_from([".", ","])
_letters = st.text(st.sampled_from("abcdefghijkmnpqrstuvwxyz"), min_size=0, max_size=2)
_letter_style = st.sampled_from(["{}", " {}", "({})", " ({})"])
_space = st.sampled_from(["", " ", "  ", "\t", "\n"])


@given(
    _space,
    _prefix,
    st.integers(100, 999),
    _dot,
    st.integers(1, 9999),
    _letters,
    _letter_style,
    st.booleans(),
    st.booleans(),
    _space,
)
def test_written_numbers_property(
    before: str,
    prefix: str,
    chapter: int,
    dot: str,
    minor: int,
    letters: str,
    style: str,
    upper: bool,
    final_dot: bool,
    after: str,
) -> None:
    shown = style.format(letters.upper() if upper else letters) if letters else ""
    raw = f"{before}{prefix}{chapter}{dot}{minor}{shown}{'.' if final_dot else ''}{after}"
    assert is_number(raw), raw
    assert normalise_number(raw) == f"{chapter}.{minor}{letters}"
    assert sort_key(normalise_number(raw)) == (chapter, minor, len(letters), letters)


@given(st.integers(1, 999), st.booleans(), _prefix)
def test_sections_and_chapters_property(head: int, dot: bool, prefix: str) -> None:
    raw = f"{prefix}{head}{'.' if dot else ''}"
    assert normalise_number(raw) == str(head)


@given(st.text(alphabet=st.characters(blacklist_categories=["Nd"]), max_size=40))
def test_text_without_digits_is_never_a_number(text: str) -> None:
    assert not is_number(text)
    assert normalise_number(text) == text.strip().rstrip(".").lower()


@given(st.integers(1, 999), st.sampled_from([" players", " and trample", " cards", "th"]))
def test_a_number_followed_by_words_is_not_a_number(head: int, words: str) -> None:
    assert not is_number(f"{head}{words}")


# -- implausible editions ------------------------------------------------------------


@pytest.mark.parametrize(
    ("header", "message"),
    [
        ("COMPREHENSIVE RULES 13/45/99", "the header date 13/45/99 is not a date"),
        ("COMPREHENSIVE RULES 02/30/01", "the header date 02/30/01 is not a date"),
        ("These rules are effective as of February 30, 2020.", "'February 30, 2020' is not a date"),
        ("These rules are effective as of Smarch 3, 2020.", "'Smarch 3, 2020' is not a date"),
        ("These rules are effective as of May 1, 1950.", "1950-05-01 is outside the life"),
        ("These rules are effective as of May 1, 2999.", "2999-05-01 is outside the life"),
        ("COMPREHENSIVE RULES 04/23/60", "1960-04-23 is outside the life"),
    ],
)
def test_impossible_or_implausible_dates_are_not_editions(header: str, message: str) -> None:
    with pytest.raises(NotAnEdition) as caught:
        effective_date(header)
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


def test_two_copies_of_the_text_read_as_one_with_a_warning() -> None:
    text = (FIXTURES / "modern.txt").read_text("utf-8")
    once = edition(text)
    twice = edition(text + "\n" + text)
    assert twice.rules == once.rules
    assert twice.glossary == once.glossary
    assert twice.credits == once.credits
    (warning,) = [w for w in twice.warnings if w not in once.warnings]
    assert warning.startswith(f"the text starts again at line {text.count(chr(10)) + 2}")
    # a byte-order mark at the head of each copy (whole files concatenated)
    assert edition(text + "\ufeff" + text).rules == once.rules


def test_a_page_header_that_repeats_the_title_is_not_a_second_copy() -> None:
    text = (FIXTURES / "modern.txt").read_text("utf-8")
    title = text.split("\n", 1)[0]
    found = edition(text.replace("100.2. Each player", f"{title}\n\n100.2. Each player"))
    assert not [w for w in found.warnings if "starts again" in w]


def test_credits_far_longer_than_any_edition_are_refused() -> None:
    text = (FIXTURES / "modern.txt").read_text("utf-8")
    with pytest.raises(NotAnEdition) as caught:
        edition(text + ("\n" + "An invented line of no credits at all. " * 3) * 1000)
    assert "credits run past 64 KB" in str(caught.value)


@needs_shared
def test_concatenated_copies_of_an_edition_read_as_one(shared_editions: Path) -> None:
    from rules_kb.ingest.pipeline import read_edition

    data = (shared_editions / "2026-08-07.txt").read_bytes()
    once, _ = read_edition(data)
    many, decoded = read_edition(data * 12)
    assert (many.rules, many.glossary, many.credits) == (once.rules, once.glossary, once.credits)
    assert any("12 copies" in warning for warning in decoded.warnings)


# -- one-line parse failures ---------------------------------------------------------


def test_parse_failure_is_one_line_with_the_details_kept() -> None:
    lines = ["Invented Rules", "", "These rules are effective as of May 1, 2020.", ""]
    lines += ["1. Section", ""]
    lines += [f"100.{n}. A rule with no chapter above it." for n in range(1, 600)]
    with pytest.raises(ParseFailure) as caught:
        edition("\n".join(lines))
    error = caught.value
    assert isinstance(error, GrammarRejected)
    assert "\n" not in str(error)
    assert str(error) == (
        "the rules could not be parsed: more than 500 lines the grammar cannot place"
        " at line 7, column 1"
    )
    assert (error.line, error.column) == (7, 1)
    assert "\n" in error.details and "expects one of: CHAPTER" in error.details


# -- the nester does what the grammar says ----------------------------------------------


def _lark_records(
    lines: list[LogicalLine],
) -> tuple[list[Rule], list[GlossaryEntry], str, str, list[tuple[int, str]]]:
    """What grammars/cr.lark makes of the lines, run through Lark's LALR parser."""
    from lark import Token, Transformer, UnexpectedInput

    from rules_kb.ingest import parse

    class Builder(Transformer[Token, Any]):
        def start(self, parts: list[Any]) -> dict[str, Any]:
            result: dict[str, Any] = {"rules": [], "glossary": [], "credits": "", "index": ""}
            result.update(part for part in parts if part is not None)
            return result

        def body(self, sections: list[list[Rule]]) -> tuple[str, list[Rule]]:
            return "rules", [rule for section in sections for rule in section]

        def section(self, items: list[Any]) -> list[Rule]:
            match = parse._SECTION.match(str(items[0]))
            assert match is not None
            number = match.group(1)
            rules = [Rule(number, "section", match.group(2), None, line=items[0].line)]
            for chapter in items[1:]:
                head, *rest = chapter
                rules += [Rule(head.number, "chapter", head.text, number, line=head.line), *rest]
            return rules

        def chapter(self, items: list[Any]) -> list[Rule]:
            match = parse._CHAPTER.match(str(items[0]))
            assert match is not None
            return [
                Rule(match.group(1), "chapter", match.group(2), "", line=items[0].line),
                *items[1:],
            ]

        def rule(self, items: list[Any]) -> Rule:
            head = str(items[0])
            match = parse._RULE.match(head)
            if match is not None:
                chapter, _space, minor, letters, text = match.groups()
                number, parent = (
                    f"{chapter}.{minor}{letters}",
                    f"{chapter}.{minor}" if letters else chapter,
                )
            else:
                lettered = parse._LETTERED.match(head)
                assert lettered is not None
                chapter, letters, text = lettered.groups()
                number, parent = f"{chapter}.{letters}", chapter
            paragraphs = [text, *(item for item in items[1:] if isinstance(item, str))]
            examples = tuple(item[1] for item in items[1:] if isinstance(item, tuple))
            kind = "subrule" if letters else "rule"
            return Rule(number, kind, "\n".join(paragraphs), parent, examples, items[0].line)

        def example(self, items: list[Any]) -> tuple[str, str]:
            text = str(items[0])
            while parse._EXAMPLE.match(text):
                text = parse._EXAMPLE.sub("", text, count=1)
            return ("example", "\n".join([text, *items[1:]]))

        def para(self, items: list[Token]) -> str:
            return str(items[0])

        def glossary(self, items: list[Any]) -> tuple[str, list[GlossaryEntry]]:
            return "glossary", items[1:]

        def entry(self, items: list[Token]) -> GlossaryEntry:
            return GlossaryEntry(str(items[0]), "\n".join(map(str, items[1:])), items[0].line)

        def index(self, items: list[Token]) -> tuple[str, str]:
            return "index", "\n".join(map(str, items[1:]))

        def credits(self, items: list[Token]) -> tuple[str, str]:
            return "credits", "\n".join(map(str, items[1:]))

    def token(line: LogicalLine) -> Token:
        made = Token(line.kind, line.text)
        made.line = line.line
        return made

    unparsed: list[tuple[int, str]] = []

    def skip(error: UnexpectedInput) -> bool:
        found = getattr(error, "token", None)
        if found is None or found.type == "$END" or len(unparsed) > 500:
            return False
        unparsed.append((found.line, str(found)))
        return True

    tree = grammar().parse(iter([token(line) for line in lines]), on_error=skip)
    built = Builder().transform(tree)
    return built["rules"], built["glossary"], built["credits"], built["index"], unparsed


def _nested(
    lines: list[LogicalLine],
) -> tuple[list[Rule], list[GlossaryEntry], str, str, list[tuple[int, str]]]:
    out = Nester().nest(lines)
    return out.rules, out.glossary, "\n".join(out.credits), "\n".join(out.index), out.unparsed


@needs_shared
@pytest.mark.parametrize("path", EDITIONS, ids=lambda p: p.stem)
def test_nester_agrees_with_the_grammar_on_real_editions(path: Path) -> None:
    """The fence of rules_kb/ingest/lalr.py: Lark's own parser and Transformer, and the table
    runner that reads Lark's internals, make the same records of every shared edition."""
    text = parsed(path)[0]
    lines = text.split("\n")
    logical = list(LineLexer(lines, _body_start(lines), []).logical_lines())
    assert _nested(logical) == _lark_records(logical)


_LINE_TEXT = {
    "SECTION": "1. Invented Section",
    "CHAPTER": "100. Invented Chapter",
    "RULE": "100.1. An invented rule.",
    "EXAMPLE": "Example: an invented example.",
    "PARA": "An invented paragraph.",
    "GLOSSARY": "Glossary",
    "TERM": "Invented Term",
    "DEF": "An invented definition.",
    "INDEX": "Index",
    "INDEX_LINE": "invented, 100.1",
    "CREDITS": "Credits",
    "CREDIT_LINE": "Invented by the tests.",
}
#: Line kinds in a mostly sensible order, so that sequences reach every place.
_KIND_ORDER = list(_LINE_TEXT)


@st.composite
def _line_sequences(draw: st.DrawFn) -> list[LogicalLine]:
    kinds: list[str] = []
    position = 0
    for _ in range(draw(st.integers(0, 40))):
        step = draw(st.sampled_from([-2, -1, 0, 0, 1, 1, 1, 2, 5]))
        position = min(max(position + step, 0), len(_KIND_ORDER) - 1)
        kinds.append(
            _KIND_ORDER[position] if draw(st.integers(0, 9)) else draw(st.sampled_from(_KIND_ORDER))
        )
    return [LogicalLine(kind, _LINE_TEXT[kind], n + 1, n + 1) for n, kind in enumerate(kinds)]


@settings(deadline=None, max_examples=300)
@given(_line_sequences())
def test_nester_agrees_with_the_grammar_on_any_line_sequence(lines: list[LogicalLine]) -> None:
    try:
        expected: Any = _lark_records(lines)
    except Exception:  # Lark gives up: the nester must give up too
        with pytest.raises(ParseFailure):
            Nester().nest(lines)
        return
    assert _nested(lines) == expected


# -- damaged headings are named, not silently absorbed -------------------------------


def test_a_damaged_section_heading_is_named() -> None:
    lines = (FIXTURES / "modern.txt").read_text("utf-8").split("\n")
    at = len(lines) - 1 - lines[::-1].index("7. Additional Rules")  # the body's, not the TOC's
    lines[at] = "7, Additional Rules"
    found = edition("\n".join(lines))
    (warning,) = [w for w in found.warnings if "section" in w]
    assert warning.startswith("line 48: chapter 702 follows the chapters of section 1:")
    assert warning.endswith("the heading of section 7 is missing or damaged")
    assert rule_map(found)["702"].parent == "1"  # nested where it stands, and said so


def test_a_damaged_index_heading_is_named() -> None:
    lines = (FIXTURES / "wrapped1999.txt").read_text("utf-8").split("\n")
    lines[55] = "Indx"
    found = edition("\n".join(lines))
    assert any("reads like an index entry" in w for w in found.warnings), found.warnings


def test_a_long_hard_wrapped_paragraph_is_joined_whole() -> None:
    head = "Invented Rules\n\nThese rules are effective as of May 1, 2020.\n\n1. Section\n\n"
    head += "100. Chapter\n\n100.1. A rule that goes on\n"
    found = edition(head + "and on, with a hyph-\nenated word and\n" * 5000)
    rule = rule_map(found)["100.1"]
    expected = "A rule that goes on" + " and on, with a hyph-enated word and" * 5000
    assert rule.text == expected  # type: ignore[attr-defined]


def test_credits_joined_from_wrapped_lines_still_count() -> None:
    text = (FIXTURES / "wrapped2003.txt").read_text("utf-8")
    with pytest.raises(NotAnEdition):
        edition(text + "and more credits, and\n" * 5000)


def test_long_text_is_no_rule_number() -> None:
    with pytest.raises(BadRuleNumber) as caught:
        normalise_number("a" * 20_000)
    shown = "'" + "a" * 24 + "…'"
    assert str(caught.value) == f"{shown} is not a rule number: it is far too long"
    assert normalise_number("  rule 702.19b  ") == "702.19b"


@needs_shared
@pytest.mark.parametrize(
    ("day", "term", "before"),
    [("2020-06-01", "Concede", "Companion"), ("2021-07-23", "Affinity", "Adventurer Card"),
     ("2008-02-01", "Floor Rules", None)],
)  # fmt: skip
def test_a_glossary_term_without_a_blank_line_before_it_is_its_own_entry(
    day: str, term: str, before: str | None
) -> None:
    """Three editions print a heading right under the definition before it."""
    from rules_kb.ingest.decode import decode
    from rules_kb.ingest.parse import edition as edition_of

    edition = edition_of(decode((SHARED / f"{day}.txt").read_bytes()).text)
    entries = {entry.term: entry.text for entry in edition.glossary}
    assert entries.get(term)
    if before is not None:
        assert term not in entries[before]
    assert any(term in warning and "no blank line" in warning for warning in edition.warnings)
