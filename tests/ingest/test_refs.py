"""References: every form found, ranges expanded, resolved per edition, stored, queried."""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from rules_kb.ingest import pipeline, refs, store
from rules_kb.ingest.models import Edition
from rules_kb.read.query import Reader
from tests.conftest import downgrade, edition_files, run_cli

MODERN_FROM = "2009-07-11"
SAMPLE = "2022-11-18"


run = run_cli


def as_json(*args: str | Path) -> Any:
    result = run(*args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def targets(text: str, numbers: list[str], glossary: bool = False) -> list[str]:
    """What a text cites, resolved against the given numbers."""
    source = refs.Source("glossary" if glossary else "rule", "x", text)
    return [ref.target for ref in refs.resolve([source], numbers, [])]


# fixtures ---------------------------------------------------------------------


@pytest.fixture(scope="session")
def sample_edition(shared_editions: Path) -> Edition:
    """The 2022-11-18 edition, parsed."""
    return pipeline.read_edition((shared_editions / f"{SAMPLE}.txt").read_bytes())[0]


@pytest.fixture(scope="session")
def sample_refs(sample_edition: Edition) -> list[refs.Reference]:
    return refs.edition_references(sample_edition)


@pytest.fixture(scope="session")
def modern_db(all_editions_db: Path) -> Path:
    """Every shared edition; the tests look at those from 2009-07-11 on."""
    return all_editions_db


@pytest.fixture(scope="session")
def kb(modern_db: Path) -> Reader:
    return Reader(modern_db)


def cited_from(references: list[refs.Reference], key: str) -> list[str]:
    return [ref.target for ref in references if ref.source_key == key]


# every form -------------------------------------------------------------------


def test_list_with_serial_comma_yields_all_three(sample_refs: list[refs.Reference]) -> None:
    assert cited_from(sample_refs, "Copiable Values") == ["613.2", "707.2", "707.3"]
    found = [ref for ref in sample_refs if ref.source_key == "Copiable Values"]
    assert {ref.raw for ref in found} == {"See rules 613.2, 707.2, and 707.3"}


def test_letter_range_expands(sample_refs: list[refs.Reference]) -> None:
    assert cited_from(sample_refs, "603.3a") == ["603.7d", "603.7e", "603.7f"]


def test_short_number_range_expands(sample_refs: list[refs.Reference]) -> None:
    assert cited_from(sample_refs, "701.10c") == ["119.7", "119.8"]


def test_sentence_period_is_not_part_of_the_number(
    sample_edition: Edition, sample_refs: list[refs.Reference]
) -> None:
    rule = next(rule for rule in sample_edition.rules if rule.number == "101.2a")
    assert "(See rule 113.10.)" in rule.text
    found = [ref for ref in sample_refs if ref.source_key == "101.2a"]
    assert [ref.target for ref in found] == ["113.10"]
    assert all(ref.exists for ref in found)
    assert rule.text[found[0].start : found[0].end] == found[0].raw == "See rule 113.10"


def test_full_number_range_expands_to_rules_only(sample_refs: list[refs.Reference]) -> None:
    wanted = ["903.6", "903.7", "903.8", "903.9", "903.10", "903.11"]
    assert cited_from(sample_refs, "903.13g") == wanted


def test_chapter_reference_with_title(sample_refs: list[refs.Reference]) -> None:
    found = [ref for ref in sample_refs if ref.source_key == "103.2d"]
    assert [(ref.raw, ref.target, ref.exists) for ref in found] == [("See rule 123", "123", True)]


def test_glossary_cross_references(sample_refs: list[refs.Reference]) -> None:
    crossrefs = {
        (ref.source_key, ref.target)
        for ref in sample_refs
        if ref.source_kind == "glossary" and ref.target_kind == "glossary"
    }
    assert ("Forestcycling", "Typecycling") in crossrefs
    assert ("Enchantment", "Aura") in crossrefs
    assert ("APNAP Order", "Active Player, Nonactive Player Order") in crossrefs


def test_glossary_entries_cite_rules(sample_refs: list[refs.Reference]) -> None:
    assert "702.19" in cited_from(sample_refs, "Trample")


def test_references_keep_raw_text_and_position(
    sample_edition: Edition, sample_refs: list[refs.Reference]
) -> None:
    texts = {rule.number: rule.text for rule in sample_edition.rules}
    for ref in sample_refs:
        if ref.source_kind == "rule":
            assert texts[ref.source_key][ref.start : ref.end] == ref.raw


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("see rules 510.1c–d.", ["510.1c", "510.1d"]),
        ("see rules 510.1c-d.", ["510.1c", "510.1d"]),
        ("See rules 702.19b and 702.19c.", ["702.19b", "702.19c"]),
        ("See rules 306-311.", ["306", "307", "308", "309", "310", "311"]),
        ("See rules 212--215.", ["212", "213", "214", "215"]),
        ("See section 8, “Commander.”", ["8"]),
        ("For more, see 806.7f.", ["806.7f"]),
        ("See rule 300.9 and rule 300.10.", ["300.9", "300.10"]),
        (
            "rules 702.109, “Dash,” 702.152, “Blitz,” and 702.185.",
            ["702.109", "702.152", "702.185"],
        ),
        ("the steps described in 409.1a–409.1c are", ["409.1a", "409.1b", "409.1c"]),
        ("This is an exception to 613.10.", ["613.10"]),
        ("Each deck has at least 60 cards; see 3 pages.", []),
        ("a rule 7 turns later", []),
        ("Call 1-800-324-6496.", []),
    ],
)
def test_reference_forms(text: str, expected: list[str]) -> None:
    numbers = [
        "8",
        *(str(n) for n in range(212, 216)),
        *(str(n) for n in range(306, 312)),
        "409.1a",
        "409.1b",
        "409.1c",
        "510.1c",
        "510.1d",
    ]
    assert targets(text, numbers) == expected


def test_range_skips_letters_the_edition_lacks() -> None:
    numbers = ["704.5k", "704.5m", "704.5n"]  # l is skipped
    assert targets("See rules 704.5k–n.", numbers) == numbers


def test_range_keeps_missing_ends_as_dangling() -> None:
    source = refs.Source("rule", "1.1", "See rules 112.5a-j.")
    found = refs.resolve([source], ["112.5b"], [])
    assert [(ref.target, ref.exists) for ref in found] == [
        ("112.5a", False),
        ("112.5b", True),
        ("112.5j", False),
    ]


def test_crossref_ends_where_a_rule_reference_starts() -> None:
    source = refs.Source("glossary", "Changeling", "See Creature Types and rule 205.3m.")
    found = refs.resolve([source], ["205.3m"], ["Creature Types", "Changeling"])
    assert [(ref.target_kind, ref.target, ref.exists) for ref in found] == [
        ("glossary", "Creature Types", True),
        ("rule", "205.3m", True),
    ]


def test_crossref_terms_with_commas_and_plurals() -> None:
    text = "See also Kicker, Kicked and Continuous Effects."
    found = refs.resolve(
        [refs.Source("glossary", "X", text)], [], ["Kicker, Kicked", "Continuous Effect"]
    )
    assert [ref.target for ref in found] == ["Kicker, Kicked", "Continuous Effect"]


def test_old_editions_use_straight_quotes_and_double_hyphens(shared_editions: Path) -> None:
    edition = pipeline.read_edition((shared_editions / "2003-10-01.txt").read_bytes())[0]
    found = refs.edition_references(edition)
    assert len(found) > 400
    assert sum(ref.exists for ref in found) / len(found) > 0.99


# resolution and storage -------------------------------------------------------


def test_every_modern_edition_resolves_99_percent(kb: Reader, modern_db: Path) -> None:
    dates = [day for day in kb.dates() if day >= MODERN_FROM]
    assert len(dates) == len([f for f in edition_files() if f.stem >= MODERN_FROM]) > 90
    rates = {}
    for day in dates:
        report = kb.check(day)
        assert report.references > 900, day
        rates[day] = report.resolved / report.references
        assert len(report.dangling) == report.references - report.resolved
    assert min(rates.values()) >= 0.99, sorted(rates.items(), key=lambda item: item[1])[:3]


def test_check_lists_dangling_with_the_citing_rule(modern_db: Path) -> None:
    report = as_json("check", "-e", "2016-11-11", "--db", modern_db)
    assert {"from": "702.123d", "raw": "See rule 903.11a", "target": "903.11a"}.items() <= next(
        item for item in report["dangling"] if item["from"] == "702.123d"
    ).items()
    assert report["references"] == report["resolved"] + len(report["dangling"])


def test_check_reports_duplicate_numbers(modern_db: Path) -> None:
    report = as_json("check", "-e", "2024-09-20", "--db", modern_db)
    assert {"number": "702.175", "problem": "duplicate (after 702.175b)"} in report["anomalies"]


def test_check_reports_gaps(modern_db: Path) -> None:
    report = as_json("check", "-e", MODERN_FROM, "--db", modern_db)
    assert {"number": "113.9", "problem": "follows 113.7: 113.8 missing"} in report["anomalies"]


def test_check_clean_edition(modern_db: Path) -> None:
    report = as_json("check", "-e", SAMPLE, "--db", modern_db)
    assert report["anomalies"] == [] and report["dangling"] == []
    assert set(report) >= {"edition", "references", "resolved", "dangling", "anomalies"}


def test_check_text_output(modern_db: Path) -> None:
    result = run("check", "-e", "2024-09-20", "--db", modern_db)
    assert result.exit_code == 0, result.output
    assert "702.175" in result.stdout and "dangling" in result.stdout


@pytest.mark.parametrize(
    ("rows", "problem"),
    [
        ([("702.19", "rule", "702"), ("702.19a", "subrule", "702.19"),
          ("702.19c", "subrule", "702.19")],
         {"number": "702.19c", "problem": "follows 702.19a: 702.19b missing"}),
        ([("704.5k", "subrule", "704.5"), ("704.5l", "subrule", "704.5")],
         {"number": "704.5l", "problem": "uses the letter l, which numbering skips"}),
        ([("609.2a", "subrule", "609.2"), ("609.2b", "subrule", "609.2"),
          ("606.8b", "subrule", "606.8"), ("609.2c", "subrule", "609.2")],
         {"number": "606.8b", "problem": "out of order: follows 609.2b"}),
        ([("100.1", "rule", "100"), ("100.4", "rule", "100")],
         {"number": "100.4", "problem": "follows 100.1: 100.2, 100.3 missing"}),
    ],
)  # fmt: skip
def test_numbering_anomalies(rows: list[tuple[str, str, str]], problem: dict[str, str]) -> None:
    assert problem in refs.numbering_anomalies(rows)


def test_k_to_m_is_not_a_gap() -> None:
    rows = [(f"704.5{letter}", "subrule", "704.5") for letter in "abcdefghijkmn"]
    assert refs.numbering_anomalies(rows) == []
    assert refs.numbering_anomalies(rows[:-3] + rows[-2:]) == [
        {"number": "704.5m", "problem": "follows 704.5j: 704.5k missing"}
    ]
    assert refs.letter_after("k") == "m" and refs.letter_after("z") == "aa"


def test_migration_fills_references_of_stored_editions(
    tmp_path: Path, shared_editions: Path
) -> None:
    path = tmp_path / "old.db"
    db = store.open_db(path)
    pipeline.ingest_bytes(db, (shared_editions / f"{SAMPLE}.txt").read_bytes(), source="x")
    before = db.execute("SELECT * FROM refs ORDER BY edition_id, seq").fetchall()
    downgrade(db, 2)
    db.close()
    db = store.open_db(path)
    assert db.execute("SELECT * FROM refs ORDER BY edition_id, seq").fetchall() == before
    assert len(before) > 1000


# queries ----------------------------------------------------------------------


def test_refs_json_is_consistent_with_the_whole_graph(kb: Reader) -> None:
    numbers = [row[0] for row in kb.edition_rules(SAMPLE)]
    cites = {number: kb.refs(number, SAMPLE) for number in numbers}
    cited_by: dict[str, set[str]] = defaultdict(set)
    for number, result in cites.items():
        for entry in result.cites:
            if entry.kind == "rule":
                cited_by[entry.key].add(number)
    assert sum(len(citing) for citing in cited_by.values()) > 1000
    for number, result in cites.items():
        rules = {entry.key for entry in result.cited_by if entry.kind == "rule"}
        assert rules == cited_by[number], number


def test_rule_cites_match_refs(kb: Reader) -> None:
    numbers = [row[0] for row in kb.edition_rules(SAMPLE)]
    for number in numbers[::7]:
        node = kb.rule(number, SAMPLE)
        assert list(node.cites) == [e.key for e in kb.refs(number, SAMPLE).cites], number


def test_refs_cli_json_shape_and_glossary(modern_db: Path) -> None:
    result = as_json("refs", "702.19", "-e", SAMPLE, "--db", modern_db)
    assert result["edition"] == SAMPLE and result["number"] == "702.19"
    assert {"number": None, "term": "Trample", "kind": "glossary", "exists": True}.items() <= (
        result["cited_by"][0].items()
    )
    assert "702.19" in result["cited_by"][0]["snippet"]


def test_refs_cli_cites_with_snippets(modern_db: Path) -> None:
    result = as_json("refs", "603.3a", "-e", SAMPLE, "--db", modern_db)
    assert [(e["number"], e["exists"]) for e in result["cites"]] == [
        ("603.7d", True),
        ("603.7e", True),
        ("603.7f", True),
    ]
    assert all(e["raw"] == "see rules 603.7d–f" for e in result["cites"])
    back = as_json("refs", "603.7e", "-e", SAMPLE, "--db", modern_db)
    assert "603.3a" in {entry["number"] for entry in back["cited_by"]}


def test_refs_text_output(modern_db: Path) -> None:
    result = run("refs", "603.3a", "-e", SAMPLE, "--db", modern_db)
    assert result.exit_code == 0, result.output
    assert "603.7d" in result.stdout and "cited by" in result.stdout


def test_refs_unknown_rule(modern_db: Path) -> None:
    result = run("refs", "702.999", "-e", SAMPLE, "--db", modern_db)
    assert result.exit_code == 1
    assert result.stderr.count("\n") == 1 and "702.999" in result.stderr


def test_refs_of_a_dangling_target(modern_db: Path) -> None:
    result = as_json("refs", "903.11a", "-e", "2016-11-11", "--db", modern_db)
    assert result["exists"] is False
    assert [entry["number"] for entry in result["cited_by"]] == ["702.123d"]


def test_rule_json_lists_cites_on_every_node(modern_db: Path) -> None:
    node = as_json("rule", "603.3", "-e", SAMPLE, "--db", modern_db)
    assert node["cites"] == ["117"]
    child = next(child for child in node["children"] if child["number"] == "603.3a")
    assert child["cites"] == ["603.7d", "603.7e", "603.7f"]


def test_rule_text_output_shows_references(modern_db: Path) -> None:
    result = run("rule", "603.3a", "-e", SAMPLE, "--db", modern_db)
    assert result.exit_code == 0, result.output
    assert "cites 603.7d, 603.7e, 603.7f" in result.stdout


def test_define_rules_come_from_references(modern_db: Path) -> None:
    entry = as_json("define", "Copiable Values", "-e", SAMPLE, "--db", modern_db)
    assert entry["rules"] == ["613.2", "707.2", "707.3"]


def test_every_target_is_placed_where_the_text_prints_it(
    sample_edition: Edition, modern_db: Path
) -> None:
    """Each target's place spells its number, a range's short end ("f" of 603.7d–f)
    or its term; a number a range spans without printing it has no place."""
    import rules_kb

    base = rules_kb.open(modern_db)
    placed = unprinted = 0
    for rule in sample_edition.rules:
        for link in base.references_in(rule.text, SAMPLE):
            assert link.raw == rule.text[link.start : link.end]
            for target in link.targets:
                if target.start < 0:
                    assert target.end < 0
                    unprinted += 1
                    continue
                assert link.start <= target.start < target.end <= link.end
                printed = rule.text[target.start : target.end]
                assert target.key.endswith(printed), (rule.number, link, target)
                placed += 1
    for entry in sample_edition.glossary:
        for link in base.references_in(entry.text, SAMPLE, glossary=True):
            for target in link.targets:
                if target.kind == "glossary" and target.start >= 0:
                    printed = entry.text[target.start : target.end]
                    assert printed.casefold() in target.key.casefold() or (
                        target.key.casefold() in printed.casefold()
                    ), (entry.term, link)
                    placed += 1
    assert placed > 1000 and unprinted > 0


def test_a_long_lived_base_keeps_a_bounded_number_of_resolvers(modern_db: Path) -> None:
    """A server asked about every edition keeps the newest few resolvers, and answers the
    same for an edition whose resolver it let go."""
    import rules_kb
    from rules_kb import api

    base = rules_kb.open(modern_db)
    text = "See rules 702.19b and 702.90a."
    dates = base.dates()
    first = base.references_in(text, dates[-1])
    for day in dates[: api.RESOLVERS + 4]:
        base.references_in(text, day)
    assert len(base._resolvers) == api.RESOLVERS
    assert base.references_in(text, dates[-1]) == first
    assert [t.exists for t in first[0].targets] == [True, True]


def test_resolvers_put_numbers_in_order_however_the_editions_before_differed() -> None:
    # A resolver's order starts from the last one made: numbers taken out and put in (a
    # few, or more than a re-sort is worth) must give the order a plain sort gives.
    import random

    from rules_kb.ingest.models import sort_key as plain_sort_key

    pool = [f"{100 + c}.{m}{letters}" for c in range(30) for m in range(1, 12)
            for letters in ("", "a", "b", "k", "m", "z", "aa")]  # fmt: skip
    chosen = random.Random(7)
    numbers = set(chosen.sample(pool, 600))
    for step in range(12):
        changes = chosen.choice([0, 1, 5, 40, 300, 1000])
        for _ in range(changes):
            number = chosen.choice(pool)
            (numbers.discard if number in numbers else numbers.add)(number)
        resolver = refs.Resolver(numbers, [])
        assert resolver.numbers == sorted(numbers, key=plain_sort_key), step
        expanded = resolver._expand("105.3", "107.9")  # bisects the keys kept with them
        inside = [n for n in sorted(numbers, key=plain_sort_key)
                  if plain_sort_key("105.3") <= plain_sort_key(n) <= plain_sort_key("107.9")
                  and not n[-1].isalpha()]  # fmt: skip
        assert expanded == list(dict.fromkeys(["105.3", *inside, "107.9"]))


def test_prepared_citations_resolve_as_the_resolver_places_them() -> None:
    # Numbers that name no range are prepared once per text; what each edition makes of
    # them must be what Resolver.targets says, in the same order.
    text = "See rules 702.19b, 702.19c, and 702.19b, rule 601.2, and rules 603.7d-f."
    for numbers in (["702.19b", "601.2"], ["702.19c", "603.7e"], []):
        resolver = refs.Resolver(numbers, [])
        expected = [pair for citation in refs.find(text) for pair in resolver.targets(citation)]
        found = [(row[7], row[8]) for row in refs.plain_rows([("rule", "1.1", text)], numbers, [])]
        assert found == expected
        assert [target for target, _ in found][:3] == ["702.19b", "702.19c", "601.2"]
