"""Diffs between editions and histories across renumbering, on the real editions."""

from __future__ import annotations

import itertools
import json
import re
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

import rules_kb
from rules_kb.cli import app
from rules_kb.ingest.align import align, normalise, precision_recall
from rules_kb.read.diff import Library, diff, renumber_references
from rules_kb.read.query import Reader
from rules_kb.records.diff import term_changes
from rules_kb.typography import heading_key, same_wording
from rules_kb.worddiff import PARALLEL_CHARACTERS, word_diff, word_diffs
from tests.conftest import FIXTURES, SHARED

LABELS = FIXTURES / "alignment"
LABELLED = sorted(LABELS.glob("*_*.json"))
GLOSSARY_LABELS = LABELS / "glossary.json"
SMALL = [
    "2009-05-01",
    "2009-07-11",
    "2009-10-01",
    "2010-02-01",
    "2010-06-18",
    "2010-07-16",
    "2013-05-01",
    "2013-07-13",
    "2019-06-14",
    "2019-07-12",
]


@pytest.fixture(scope="module")
def small_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database of the editions the diff tests compare."""
    if not SHARED.is_dir():
        pytest.skip("../shared/cr/editions is not there")
    path = tmp_path_factory.mktemp("diff") / "small.db"
    files = [SHARED / f"{day}.txt" for day in SMALL]
    result = CliRunner().invoke(app, ["ingest", *map(str, files), "--db", str(path)])
    assert result.exit_code == 0, result.output
    return path


@pytest.fixture(scope="module")
def all_db(all_editions_db: Path) -> Path:
    """A database of every shared edition (history needs them all)."""
    return all_editions_db


@pytest.fixture(scope="module")
def library(small_db: Path) -> Iterator[Library]:
    reader = Reader(small_db)
    yield Library(reader)
    reader.close()


def run(db: Path, *args: str) -> Result:
    return CliRunner().invoke(app, [*args, "--db", str(db)])


def ok_json(db: Path, *args: str) -> Any:
    result = run(db, *args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


# alignment ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def every(all_db: Path) -> Iterator[Library]:
    reader = Reader(all_db)
    yield Library(reader)
    reader.close()


@pytest.mark.parametrize("labels", LABELLED, ids=lambda path: path.stem)
def test_alignment_precision_and_recall_on_the_labelled_set(every: Library, labels: Path) -> None:
    library = every
    spec = json.loads(labels.read_text())
    old, new = library.items(spec["old"]), library.items(new_day := spec["new"])
    keys_old, keys_new = {item.key for item in old}, {item.key for item in new}
    assert {o for o, _ in spec["pairs"]} | set(spec["unmatched_old"]) <= keys_old
    assert {n for _, n in spec["pairs"]} | set(spec["unmatched_new"]) <= keys_new
    examples = (library.examples(spec["old"]), library.examples(new_day))
    predicted = align(old, new, library.texts, examples).key_map(old, new)
    stored = library.alignment(spec["old"], new_day).key_map(old, new)
    assert stored == predicted  # the lineage stored at ingest is the aligner's
    pairs = [tuple(pair) for pair in spec["pairs"]]
    precision, recall = precision_recall(
        predicted, pairs, spec["unmatched_old"], spec["unmatched_new"]
    )
    wrong = {o: predicted.get(o) for o, n in pairs if predicted.get(o) != n}
    assert precision >= 0.95, wrong
    assert recall >= 0.95, wrong


def test_the_labelled_set_covers_the_overhaul_and_rewrites_in_place() -> None:
    stems = {path.stem for path in LABELLED}
    assert len(stems) >= 10
    assert {"2009-05-01_2009-07-11", "2009-05-01_2009-07-11_keywords"} <= stems
    assert "2019-06-14_2019-07-12" in stems  # chapter 111 Tokens inserted
    assert {"2019-01-25_2019-05-03", "2020-01-24_2020-04-17"} <= stems  # 117.9b, 100.5
    pairs = sum(len(json.loads(path.read_text())["pairs"]) for path in LABELLED)
    assert pairs >= 400


def test_glossary_alignment_on_the_labelled_renames(all_db: Path) -> None:
    """Headings renamed ("Kicker" -> "Kicker, Kicked", "X" -> "X (Obsolete)") keep their line."""
    from rules_kb.ingest.align import align

    spec = json.loads(GLOSSARY_LABELS.read_text())
    library = Library(Reader(all_db))
    maps: dict[tuple[str, str], dict[str, str]] = {}

    def predicted(old: str, new: str) -> dict[str, str]:
        if (old, new) not in maps:
            before, after = library.items(old, glossary=True), library.items(new, glossary=True)
            maps[old, new] = align(before, after, library.texts).key_map(before, after)
        return maps[old, new]

    correct = sum(predicted(o, n).get(ot) == nt for o, ot, n, nt in spec["pairs"])
    wrong = [(o, ot, predicted(o, n).get(ot)) for o, ot, n, nt in spec["pairs"]
             if predicted(o, n).get(ot) != nt]  # fmt: skip
    false = sum(term in predicted(o, n) for o, n, term in spec["unmatched_old"])
    false += sum(term in predicted(o, n).values() for o, n, term in spec["unmatched_new"])
    false += len([w for w in wrong if w[2] is not None])
    recall = correct / len(spec["pairs"])
    precision = correct / (correct + false)
    assert len(spec["pairs"]) >= 50
    assert recall >= 0.95 and precision >= 0.95, wrong
    kicker = predicted("2009-07-11", "2009-09-04")
    assert kicker["Kicker"] == "Kicker, Kicked"
    assert predicted("2009-05-01", "2009-07-11")["Mana Burn"] == "Mana Burn (Obsolete)"


def test_alignment_is_one_to_one(library: Library) -> None:
    alignment = library.alignment("2009-05-01", "2009-07-11")
    olds = [i for i, _ in alignment.pairs]
    news = [j for _, j in alignment.pairs]
    assert len(set(olds)) == len(olds) and len(set(news)) == len(news)


def test_normalise_folds_typography_and_the_2009_renames() -> None:
    assert normalise("It comes into play — “tapped.”") == normalise(
        'It enters the battlefield - "tapped."'
    )
    assert normalise("See rule 701.15.") == normalise("See rule 701.16.")


def test_precision_recall_counts_a_pair_made_for_an_unmatched_key_as_wrong() -> None:
    precision, recall = precision_recall({"a": "x", "b": "y"}, [("a", "x")], ["b"])
    assert (precision, recall) == (0.5, 1.0)


# diff ----------------------------------------------------------------------------


def test_diff_lists_every_rule_whose_text_differs_with_text_as_stored(small_db: Path) -> None:
    document = ok_json(small_db, "diff", "2009-10-01", "2010-02-01", "--typography")
    assert document["old"] == "2009-10-01" and document["new"] == "2010-02-01"
    reader = Reader(small_db)
    before, after = reader.edition_rules("2009-10-01"), reader.edition_rules("2010-02-01")
    texts = reader.texts([row[3] for row in (*before, *after)])
    # A few numbers are printed twice in an edition, so keep every text of a number.
    old_texts: dict[str, set[str]] = {}
    new_texts: dict[str, set[str]] = {}
    for rows, into in ((before, old_texts), (after, new_texts)):
        for number, _, _, text_id in rows:
            into.setdefault(number, set()).add(texts[text_id])
    listed = {c["old_number"] for c in document["changes"] if c.get("old_number")}
    for number, old_set in old_texts.items():
        if number in new_texts and new_texts[number] != old_set:
            assert number in listed, number
    for change in document["changes"]:
        if change["type"] in {"changed", "moved", "typography"} and change["kind"] != "glossary":
            assert change["old_text"] in old_texts[change["old_number"]]
            assert change["new_text"] in new_texts[change["new_number"]]
    summary = document["summary"]
    assert set(summary) >= {"added", "removed", "changed", "moved", "reference_only", "typography"}


def test_diff_pairs_the_shifted_keyword_actions(small_db: Path) -> None:
    document = ok_json(small_db, "diff", "2009-10-01", "2010-02-01")
    moved = {
        (c["old_number"], c["new_number"])
        for c in document["changes"]
        if c["type"] == "moved" and c["kind"] != "glossary"
    }
    for old, new in [
        ("701.15", "701.16"),  # Tap and Untap
        ("701.16", "701.17"),  # Scry
        ("701.17", "701.18"),  # Fateseal
        ("701.18", "701.19"),  # Clash
        ("701.19", "701.20"),  # Planeswalk
    ]:
        assert (old, new) in moved
    removed = {c.get("old_number") for c in document["changes"] if c["type"] == "removed"}
    assert not removed & {"701.15", "701.16", "701.17", "701.18", "701.19"}


def test_word_diff_is_on_words_and_round_trips() -> None:
    old, new = "A token in play is a permanent.", "A token on the battlefield is a permanent."
    ops = word_diff(old, new)
    assert "".join(t for op, t in ops if op != "+") == old
    assert "".join(t for op, t in ops if op != "-") == new
    assert ("-", "in play") in ops and ("+", "on the battlefield") in ops


def test_reference_only_changes_are_told_apart(library: Library) -> None:
    result = diff(library, "2009-10-01", "2010-02-01")
    flagged = [c for c in result.rules if c.reference_only]
    assert flagged, "2010-02-01 renumbered 701.15+ so some references changed"
    for change in flagged:
        assert change.old_text != change.new_text
        assert normalise(change.old_text or "") == normalise(change.new_text or "")
    assert result.summary()["reference_only"] == len(flagged)
    assert renumber_references("see rule 701.15a", {"701.15a": "701.16a"}) == "see rule 701.16a"


def test_diff_says_of_every_pair_what_the_stored_lineage_says(every: Library, all_db: Path) -> None:
    """Of every record two neighbouring editions pair, `diff` says what the stored lineage
    (`history`, `where`, the site) says: typography is typography, a text differing only
    in the rules it cites (renumbered, a range's members reordered, a closing "See rule
    ..." following where its rules went, a renamed entry pointing at its rule under the
    new name) is no new wording, a move is a move. 301.8 of 2010-02-01 ("Rules 301.5a-d")
    and "Attacks and Isn't Blocked" of 2005-10-01 (a curly apostrophe in the heading) are
    among them. Rules whose examples changed are left to the test of examples."""
    import sqlite3

    with sqlite3.connect(all_db) as conn:
        stored = {
            (edition, kind == "glossary", old, new): status
            for edition, kind, status, old, new in conn.execute(
                "SELECT edition, kind, status, old_key, key FROM lineage_changes"
            )
        }
    dates = sorted(record.edition for record in every.reader.editions())
    disagree, compared = [], 0
    for old, new in itertools.pairwise(dates):
        result = diff(every, old, new)
        for change in (*result.rules, *result.glossary):
            if change.old_key is None or change.new_key is None or change.examples:
                continue
            if change.type in {"split", "merged"}:
                continue
            compared += 1
            said = stored.get((new, change.kind == "glossary", change.old_key, change.new_key))
            kept = heading_key(change.old_key) == heading_key(change.new_key)  # quotes aside
            if change.type == "changed" and change.reference_only:
                agrees = said in ({"same", "typography"} if kept else {"moved"})
            elif change.type == "changed":
                agrees = said == ("changed" if kept else "moved_changed")
            else:
                agrees = said == change.type
            if not agrees:
                disagree.append((new, change.old_key, change.new_key, change.type, said))
    assert compared > 20_000
    assert not disagree, disagree[:5]


def test_a_glossary_entry_renamed_is_a_move_listed_with_the_glossary(every: Library) -> None:
    """The entry "Totem Armor" of 2024-04-12 is "Umbra Armor" of 2024-06-07, its closing
    pointer following the rename: `history` calls it moved, and so does `diff`, with the
    word diff of the pointer, not among the rules whose references alone were renumbered
    (its "(Obsolete)" stub is listed apart, split off it)."""
    result = diff(every, "2024-04-12", "2024-06-07")
    (change,) = [c for c in result.glossary if c.new_key == "Umbra Armor"]
    assert (change.type, change.new_key, change.reference_only) == ("moved", "Umbra Armor", False)
    assert ("-", "Totem") in change.words and ("+", "Umbra") in change.words
    assert result.summary()["glossary"]["moved"] >= 1


def test_a_rule_renumbered_whose_text_differs_in_typography_alone_moved(every: Library) -> None:
    """400.10 of 2009-07-11 is 400.11 of 2009-09-04, its full stop put outside the closing
    quotation mark: `history` calls it moved, and `diff` lists it with the rules moved with
    their text unchanged, every word kept, not among the rules whose references alone were
    renumbered (it cites none)."""
    result = diff(every, "2009-07-11", "2009-09-04")
    (change,) = [c for c in result.rules if c.old_key == "400.10"]
    assert (change.type, change.new_key, change.reference_only) == ("moved", "400.11", False)
    assert [op for op, _ in change.words] == ["="]


def test_diff_of_one_rule_and_unknown_rule(small_db: Path) -> None:
    document = ok_json(small_db, "diff", "2013-05-01", "2013-07-13", "--rule", "702.18")
    assert {(c["old_number"], c["new_number"]) for c in document["changes"]} >= {
        ("702.18", "702.19")
    }
    result = run(small_db, "diff", "2013-05-01", "2013-07-13", "--rule", "799.99")
    assert result.exit_code == 1 and result.stderr.startswith("rules-kb: no rule 799.99")


def test_a_chapter_or_section_given_as_a_rule_keeps_all_of_it(small_db: Path) -> None:
    """`--rule 702` is the chapter, not its heading alone (which never changes): the same
    changes as the whole diff has in it, and `-r 7` the whole section's."""
    whole = ok_json(small_db, "diff", "2013-05-01", "2013-07-13")["changes"]
    for scope in ("702", "7"):
        document = ok_json(small_db, "diff", "2013-05-01", "2013-07-13", "--rule", scope)
        inside = [
            c
            for c in whole
            if any((c.get(side) or "x")[: len(scope)] == scope
                   for side in ("old_number", "new_number"))
        ]  # fmt: skip
        assert document["changes"] and len(document["changes"]) == len(inside), scope
    assert ("702.18", "702.19") in {
        (c["old_number"], c["new_number"])
        for c in ok_json(small_db, "diff", "2013-05-01", "2013-07-13", "-r", "702")["changes"]
    }


def test_diff_glossary_changes_have_terms(small_db: Path) -> None:
    document = ok_json(small_db, "diff", "2009-05-01", "2009-07-11")
    glossary = [c for c in document["changes"] if c["kind"] == "glossary"]
    assert glossary and all("old_term" in c and "new_term" in c for c in glossary)


def test_terms_finds_the_magic_2010_renames(library: Library) -> None:
    found = {
        (t.old, t.new): t.count for t in term_changes(diff(library, "2009-05-01", "2009-07-11"))
    }
    assert found[("in play", "on the battlefield")] >= 10
    assert found[("comes into play", "enters the battlefield")] >= 10
    assert found[("removed from the game", "exiled")] >= 5


def test_terms_and_html_commands(small_db: Path, tmp_path: Path) -> None:
    document = ok_json(small_db, "diff", "2009-05-01", "2009-07-11", "--terms")
    assert any(t["old"] == "in play" for t in document["terms"])
    page = tmp_path / "diff.html"
    result = run(small_db, "diff", "2013-05-01", "2013-07-13", "--format", "html", "-o", str(page))
    assert result.exit_code == 0, result.output
    text = page.read_text()
    assert text.startswith("<!DOCTYPE html>") and "<style>" in text and "702.18 → 702.19" in text


def test_diff_text_output_and_bad_edition(small_db: Path) -> None:
    result = run(small_db, "diff", "2013-05-01", "2013-07-13")
    assert result.exit_code == 0, result.output
    assert "702.18 → 702.19" in result.stdout
    bad = run(small_db, "diff", "1990-01-01", "2013-07-13")
    assert bad.exit_code == 1 and len(bad.stderr.splitlines()) == 1


# history -------------------------------------------------------------------------


def test_history_of_trample_follows_renumbering(all_db: Path) -> None:
    document = ok_json(all_db, "history", "702.19")
    spans = [(v["number"], v["from"], v["to"]) for v in document["versions"]]
    numbers = [number for number, _, _ in spans]
    assert numbers[0] == "702.19"
    for number in ("702.18", "702.17", "502.9"):
        assert number in numbers
    old = next(span for span in spans if span[0] == "502.9")
    assert old[2] == "2009-05-01" and old[1] < "2009-05-01"
    assert all(v["text"] == "Trample" for v in document["versions"])


def test_history_spans_are_consecutive_and_distinct(all_db: Path) -> None:
    kb = rules_kb.open(all_db)
    found = kb.history("702.19a")
    dates = kb.dates()
    for newer, older in zip(found.versions, found.versions[1:], strict=False):
        assert dates.index(older.last) + 1 == dates.index(newer.first)
        assert (older.key, older.text) != (newer.key, newer.text)


def test_history_of_a_glossary_term_and_unknowns(all_db: Path) -> None:
    document = ok_json(all_db, "history", "trample")
    assert document["kind"] == "glossary" and document["versions"][0]["term"] == "Trample"
    assert run(all_db, "history", "799.99").exit_code == 1
    assert run(all_db, "history", "qwertyuiop zzz").exit_code == 1


def test_a_rule_whose_examples_changed_is_changed(all_db: Path) -> None:
    """601.3e kept its text from 2020-01-24 to 2020-04-17 but one of its examples changed."""
    result = ok_json(all_db, "diff", "2020-01-24", "2020-04-17", "--rule", "601.3e")
    change = next(c for c in result["changes"] if c["new_number"] == "601.3e")
    assert change["type"] == "changed"
    assert change["old_text"] == change["new_text"]
    assert change["examples"]
    example = change["examples"][0]
    assert example["old_text"] != example["new_text"]
    ops = {op for op, _ in example["words"]}
    assert {"-", "+"} & ops
    rebuilt_new = "".join(chunk for op, chunk in example["words"] if op != "-")
    assert rebuilt_new == example["new_text"]


def test_examples_in_the_html_page(all_db: Path, tmp_path: Path) -> None:
    page = tmp_path / "d.html"
    result = run(all_db, "diff", "2020-01-24", "2020-04-17", "--format", "html", "-o", str(page))
    assert result.exit_code == 0, result.output
    assert 'class="example"' in page.read_text("utf-8")


def _changed_pairs(library: Library) -> list[tuple[str, str]]:
    result = diff(library, "2009-05-01", "2009-07-11")
    return [
        (change.old_text, change.new_text)
        for change in (*result.rules, *result.glossary)
        if change.type == "changed" and change.old_text and change.new_text
    ]


def test_word_diffs_of_the_overhaul_round_trip_on_word_boundaries(library: Library) -> None:
    pairs = _changed_pairs(library)
    assert sum(len(old) + len(new) for old, new in pairs) >= PARALLEL_CHARACTERS
    serial = [word_diff(old, new) for old, new in pairs]
    assert word_diffs(pairs) == serial  # two processes, the same answer
    for (old, new), ops in zip(pairs, serial, strict=True):
        assert same_wording("".join(t for op, t in ops if op != "+"), old)
        assert "".join(t for op, t in ops if op != "-") == new
        assert all(text for _, text in ops)
        assert all(a[0] != b[0] for a, b in itertools.pairwise(ops))
        for side in "-+":  # no piece of either text ends or starts inside a word
            pieces = [text for op, text in ops if op in {"=", side}]
            for before, after in itertools.pairwise(pieces):
                assert not (re.match(r"\w", before[-1]) and re.match(r"\w", after[0])), ops


def test_word_diff_never_shows_quotation_marks_put_on_as_an_edit() -> None:
    """A term put in quotes, or taken out of them, is the same wording inside a real
    change too (308.2b of 2009-05-01 and 508.1e of 2009-07-11: 'a "bands with other"
    ability')."""
    assert word_diff("a bands with other ability, the active player", 'a "bands with other"'
                     " ability, the defending player") == (
        ("=", 'a "bands with other" ability, the '),
        ("-", "active"),
        ("+", "defending"),
        ("=", " player"),
    )  # fmt: skip
    assert word_diff('its "status" is its state', "its status is its form") == (
        ("=", "its status is its "),
        ("-", "state"),
        ("+", "form"),
    )
    assert word_diff("the players hands", "the players' hands") == (("=", "the players' hands"),)


def test_word_diff_never_shows_typography_as_an_edit() -> None:
    """Quotes, dashes, marks and spacing are typography: kept, as the new text has them,
    also inside a real change (207.2c's "council’s" in 2019-01-25)."""
    assert word_diff("a  b", "a b") == (("=", "a b"),)
    assert word_diff("the council’s vote", "the council's ballot") == (
        ("=", "the council's "),
        ("-", "vote"),
        ("+", "ballot"),
    )
    assert word_diff("Magic(tm) -- a game...", "Magic™ — a card game…") == (
        ("=", "Magic™ — a "),
        ("+", "card "),
        ("=", "game…"),
    )
    assert word_diff("it's", "it’s") == (("=", "it’s"),)
    # A full stop printed twice ("Main Phase" of 1999-11-01) is one, an ellipsis is not.
    assert word_diff("main phases.. Spells are played", "main phases. Spells are cast") == (
        ("=", "main phases. Spells are "),
        ("-", "played"),
        ("+", "cast"),
    )
    assert word_diff("and so on...", "and so on.") == (
        ("=", "and so on"),
        ("-", "..."),
        ("+", "."),
    )


def test_word_diff_places_spaces_as_written() -> None:
    assert word_diff("shuffle his deck", "shuffle or cut his deck") == (
        ("=", "shuffle "),
        ("+", "or cut "),
        ("=", "his deck"),
    )
    assert word_diff(" Trample. ", "Trample.\t") == (("=", "Trample.\t"),)
    assert word_diff("", "") == ()


def test_word_diffs_never_fork_while_other_threads_run(
    library: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    import multiprocessing

    def refuse(*_: object) -> None:
        raise AssertionError("forked with a thread running")

    pairs = _changed_pairs(library)[:50] * 20
    assert sum(len(old) + len(new) for old, new in pairs) >= PARALLEL_CHARACTERS
    monkeypatch.setattr(multiprocessing, "get_context", refuse)
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        assert word_diffs(pairs)[:50] == [word_diff(*pair) for pair in pairs[:50]]
    finally:
        stop.set()
        thread.join()
