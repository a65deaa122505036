"""Full-text search: the Whoosh index beside the database, `search`, and `show`'s fallback.

One session database holds all 134 shared editions (the mana-burn test needs the
editions before and after July 2009) and one index is built for it; the tests of
incremental updates use small databases of two or three editions.
"""

from __future__ import annotations

import json
import random
import re
import shutil
import sqlite3
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

from rules_kb.search import engine as core
from rules_kb.search import index as search_index
from tests.conftest import FIXTURES, SHARED, ok_cli, run_cli

RELEVANCE = FIXTURES / "relevance.toml"
LATEST = "2026-08-07"
MANA_BURN_REMOVED = "2009-07-11"


run = run_cli


ok = ok_cli


def search_json(db: Path, *args: str) -> Any:
    return json.loads(ok("search", *args, "--db", db, "--json").stdout)


def labels(document: Any) -> list[str]:
    return [hit.get("number") or hit.get("term") for hit in document["hits"]]


# fixtures ---------------------------------------------------------------------------


@pytest.fixture(scope="session")
def full_db(all_editions_db: Path) -> Path:
    """All shared editions, and their search index built by a first search."""
    ok("search", "trample", "--db", all_editions_db, "--json")
    return all_editions_db


@pytest.fixture(scope="session")
def index(full_db: Path) -> Any:
    return core.open_index(core.index_dir(full_db))


@pytest.fixture(scope="session")
def conn(full_db: Path) -> sqlite3.Connection:
    return sqlite3.connect(f"file:{full_db}?mode=ro", uri=True, check_same_thread=False)


def edition_in_force(conn: sqlite3.Connection, day: str) -> str:
    row = conn.execute("SELECT max(date) FROM editions WHERE date <= ?", [day]).fetchone()
    return str(row[0])


def small_db(tmp_path: Path, *days: str, index: bool = False) -> Path:
    """A database of some editions; its index is left to the first search unless asked."""
    path = tmp_path / "small.db"
    extra = [] if index else ["--no-index"]
    ok("ingest", *(SHARED / f"{day}.txt" for day in days), "--db", path, "--json", *extra)
    return path


# the index --------------------------------------------------------------------------


def test_index_sits_beside_the_database_with_its_stamp(full_db: Path, conn: Any) -> None:
    folder = core.index_dir(full_db)
    assert folder == full_db.parent / "all.db.search"
    assert (folder / core.STAMP_FILE).read_text().strip() == core.content_stamp(conn)
    assert core.is_fresh(conn, folder)


def test_each_distinct_text_is_indexed_once(index: Any, conn: sqlite3.Connection) -> None:
    rows = conn.execute("SELECT count(*) FROM rules").fetchone()[0]
    sources = core.document_sources(conn)
    documents = index.documents
    assert documents == len(sources) == index.reader.doc_count()
    assert 15_000 < documents < 30_000 < rows  # not one row per edition
    trample = [key for key in sources if key.startswith("rule\x1f702.19\x1f")]
    assert trample and all(len(sources[key].editions) > 1 for key in trample)


@pytest.mark.corpus
def test_an_ingest_updates_the_index_incrementally(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # With 2 editions, a third touches most documents and a rebuild is cheaper; force the
    # incremental path that a database of many editions takes.
    monkeypatch.setattr(search_index, "REBUILD_SHARE", 1.0)
    db = small_db(tmp_path, "2026-04-17", "2026-06-19")
    folder = core.index_dir(db)
    with sqlite3.connect(db) as conn:
        built = core.ensure_index(conn, folder)
        assert built.action == "built"
        assert core.ensure_index(conn, folder).action == "fresh"
    ok("ingest", SHARED / f"{LATEST}.txt", "--db", db, "--json", "--no-index")
    with sqlite3.connect(db) as conn:
        assert not core.is_fresh(conn, folder)
        updated = core.ensure_index(conn, folder)
        assert updated.action == "updated"
        assert 0 < updated.added < built.documents / 4  # only the new texts
        assert updated.changed > built.documents / 2  # unchanged texts: one more edition
        assert core.open_index(folder).documents == len(core.document_sources(conn))
    found = search_json(db, "trample")
    assert found["edition"] == LATEST and found["hits"]


@pytest.mark.corpus
def test_an_ingest_leaves_the_index_fresh(tmp_path: Path) -> None:
    db = small_db(tmp_path, "2026-04-17", index=True)
    folder = core.index_dir(db)
    with sqlite3.connect(db) as conn:
        assert core.is_fresh(conn, folder)
    ok("ingest", SHARED / f"{LATEST}.txt", "--db", db, "--json")
    with sqlite3.connect(db) as conn:
        assert core.is_fresh(conn, folder)
        assert core.ensure_index(conn, folder).action == "fresh"


@pytest.mark.corpus
def test_a_question_reads_the_edition_book_saved_beside_the_index(tmp_path: Path) -> None:
    """The first question of a process saves the edition's book beside the index; the
    next process reads it instead of the database, and answers the same. A book made for
    another index or vocabulary, or damaged, is read again from the database."""
    from rules_kb.search import answers

    db = small_db(tmp_path, LATEST, index=True)
    question = "does deathtouch work with trample?"
    first = json.loads(ok("search", question, "--db", db, "--json").stdout)
    folder = core.index_dir(db)
    saved = folder / f"book-{LATEST}.pickle"
    assert saved.is_file()
    key = answers.book_key(core.stamp_of(folder))
    book = answers.saved_book(folder, LATEST, key)
    assert book is not None
    with sqlite3.connect(db) as conn:
        (edition_id,) = conn.execute("SELECT id FROM editions WHERE date = ?", [LATEST]).fetchone()
        fresh = answers.read_book(conn, edition_id, LATEST, search_index.stems)
    assert (book.nodes, book.glossary, book.cited, book.settings) == (
        fresh.nodes, fresh.glossary, fresh.cited, fresh.settings
    )  # fmt: skip
    assert book.lexicon.phrases == fresh.lexicon.phrases
    assert answers.saved_book(folder, LATEST, key + " another vocabulary") is None
    assert json.loads(ok("search", question, "--db", db, "--json").stdout) == first
    saved.write_bytes(saved.read_bytes()[:1000])  # cut short
    assert answers.saved_book(folder, LATEST, key) is None
    again = subprocess.run(  # a new process: this one keeps the book it read
        [sys.executable, "-m", "rules_kb", "search", question, "--db", str(db), "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(again.stdout) == first
    assert answers.saved_book(folder, LATEST, key) is not None  # saved again


def test_the_books_of_two_editions_share_what_their_texts_analyse_to(
    index: Any, conn: sqlite3.Connection
) -> None:
    """A text id is one text in every edition that prints it: a question in one edition
    must not analyse again the texts another edition's question analysed."""
    index.search(conn, "does deathtouch work with trample?", core.Filters(edition=LATEST))
    older = index.book(conn, "2025-11-14")
    latest = index.book(conn, LATEST)
    assert older.analysed is latest.analysed and older.paired is latest.paired
    analysed = len(latest.analysed)
    index.search(conn, "does deathtouch work with trample?", core.Filters(edition="2025-11-14"))
    assert analysed > 0 and len(older.analysed) < 2 * analysed  # most texts are the same


@pytest.mark.corpus
def test_an_index_update_drops_the_books_made_before_it(tmp_path: Path) -> None:
    """A new edition added to the index in place (most documents keep their edition
    lists, so nothing is rebuilt) leaves no book made for the content before it."""
    db = small_db(tmp_path, "1999-04-23", "2004-10-01", "2009-07-11", "2019-01-25", index=True)
    ok("search", "does deathtouch work with trample?", "--db", db, "-e", "2019-01-25")
    folder = core.index_dir(db)
    assert (folder / "book-2019-01-25.pickle").is_file()
    before = folder.stat().st_ino
    ok("ingest", SHARED / f"{LATEST}.txt", "--db", db, "--json")
    assert folder.stat().st_ino == before  # updated in place, not rebuilt
    assert not list(folder.glob("book-*"))
    found = ok("search", "does deathtouch work with trample?", "--db", db, "--json").stdout
    assert json.loads(found)["hits"][0]["number"] == "702.2c"


@pytest.mark.corpus
def test_a_search_never_answers_from_a_stale_index(tmp_path: Path) -> None:
    db = small_db(tmp_path, "2008-10-01")
    assert search_json(db, '"mana burn"', "--kind", "rule")["total"] > 0
    ok("ingest", SHARED / f"{MANA_BURN_REMOVED}.txt", "--db", db, "--json", "--no-index")
    after = search_json(db, '"mana burn"', "--kind", "rule")
    assert after["edition"] == MANA_BURN_REMOVED and after["total"] == 0


@pytest.mark.corpus
def test_a_replaced_edition_or_a_foreign_stamp_rebuilds(tmp_path: Path) -> None:
    db = small_db(tmp_path, "2026-04-17")
    folder = core.index_dir(db)
    ok("search", "ward", "--db", db)
    (folder / core.STAMP_FILE).write_text("0:someone-else\n")
    (folder / core.EDITIONS_FILE).write_text("2026-04-17 0000\n")
    with sqlite3.connect(db) as conn:
        assert core.ensure_index(conn, folder).action == "built"
        assert core.is_fresh(conn, folder)


@pytest.mark.corpus
def test_an_index_left_by_a_deleted_database_is_rebuilt(tmp_path: Path) -> None:
    """A database deleted and ingested again from the same files has the same editions
    and the same count of ingests; the index left beside it is another database's (its
    text ids are not this one's) and is built again, by the ingest or by a search."""
    for index in (True, False):
        db = small_db(tmp_path, "2026-04-17", index=True)
        folder = core.index_dir(db)
        before = core.stamp_of(folder)
        db.unlink()
        small_db(tmp_path, "2026-04-17", index=index)
        with sqlite3.connect(db) as conn:
            if index:
                assert core.is_fresh(conn, folder) and core.stamp_of(folder) != before
            else:
                assert not core.is_fresh(conn, folder)
                assert core.ensure_index(conn, folder).action == "built"
        db.unlink()
        shutil.rmtree(folder)


@pytest.mark.corpus
def test_an_unwritable_index_is_one_clean_error(tmp_path: Path) -> None:
    db = small_db(tmp_path, "2026-04-17")
    core.index_dir(db).write_text("not a folder")
    result = run("search", "ward", "--db", db)
    assert result.exit_code == 1, result.output
    assert result.stderr.startswith("rules-kb: ") and len(result.stderr.splitlines()) == 1
    assert "Traceback" not in result.output


# relevance --------------------------------------------------------------------------


def test_relevance_set(index: Any, conn: sqlite3.Connection) -> None:
    cases = tomllib.loads(RELEVANCE.read_text(encoding="utf-8"))["query"]
    assert len(cases) >= 30
    first, misses = 0, []
    for case in cases:
        day = edition_in_force(conn, case.get("edition", LATEST))
        found = index.search(conn, case["q"], core.Filters(edition=day), limit=3)
        top = [hit.label for hit in found.hits]
        first += top[:1] == [case["expected"]]
        if case["expected"] not in top:
            misses.append((case["q"], case["expected"], top))
    print(f"relevance: {first}/{len(cases)} first, {len(cases) - len(misses)} in the top 3")
    assert not misses
    assert first >= 0.8 * len(cases)


STRAIGHT = str.maketrans({"‘": "'", "’": "'", "“": '"', "”": '"'})


def words(text: str) -> str:
    return " ".join(re.findall(r"\w+", text.translate(STRAIGHT).lower()))


def unique_sentences(text: str, corpus: str) -> list[str]:
    """Sentences of at least six words whose words no other text of the edition has in a row.

    corpus: the words of every text of the edition, one text a line.
    """
    sentences = re.split(r"(?<=[.!?])\s+", text)
    return [s for s in sentences if len(s.split()) >= 6 and corpus.count(words(s)) == 1]


def test_a_copied_sentence_finds_its_rule_first(index: Any, conn: sqlite3.Connection) -> None:
    rng = random.Random(20260807)
    tried, wrong = 0, []
    for day in ("1999-04-23", "2004-10-01", "2009-10-01", "2016-01-22", LATEST):
        edition = edition_in_force(conn, day)
        rows = conn.execute(
            "SELECT r.number, t.text FROM rules r JOIN texts t ON t.id = r.text_id"
            " JOIN editions e ON e.id = r.edition_id WHERE e.date = ?",
            [edition],
        ).fetchall()
        corpus = "\n".join(words(text) for _number, text in rows)
        picked = 0
        for number, text in rng.sample(rows, len(rows)):
            sentences = unique_sentences(text, corpus)
            if not sentences or picked == 10:
                continue
            picked += 1
            sentence = rng.choice(sentences)
            found = index.search(conn, sentence, core.Filters(edition=edition), limit=1)
            tried += 1
            if [hit.label for hit in found.hits] != [number]:
                wrong.append((edition, number, sentence, [hit.label for hit in found.hits]))
    assert tried == 50
    assert not wrong


# the command ------------------------------------------------------------------------


def test_search_json_shape(full_db: Path) -> None:
    found = search_json(full_db, "last known information")
    assert set(found) >= {"query", "edition", "total", "hits", "suggestion"}
    assert found["query"] == "last known information" and found["edition"] == LATEST
    assert found["suggestion"] is None and found["total"] >= len(found["hits"]) > 0
    for hit in found["hits"]:
        assert hit["edition"] == LATEST
        assert hit["kind"] in {"rule", "example", "glossary"}
        assert ("term" if hit["kind"] == "glossary" else "number") in hit
        assert isinstance(hit["score"], float) and hit["text"] and "<b>" in hit["highlight"]


def test_stemming_finds_the_base_word(full_db: Path) -> None:
    found = search_json(full_db, "tramples", "--kind", "rule")
    assert found["suggestion"] is None
    assert labels(found)[0] == "702.19"
    assert "702.19a" in labels(found)


def test_phrase_matches_only_the_phrase(full_db: Path) -> None:
    found = search_json(full_db, '"last known information"', "--kind", "rule", "--limit", "50")
    assert found["total"] >= 5
    # The glossary entry "Last Known Information" names the rules it cites; those match too.
    cited = set(
        json.loads(ok("define", "last known information", "--db", full_db, "--json").stdout)[
            "rules"
        ]
    )
    for hit in found["hits"]:
        phrase = "last known information" in hit["text"].lower()
        assert phrase or hit["number"] in cited, hit["number"]
    apart = search_json(full_db, '"known last information"', "--kind", "rule")
    assert apart["total"] < found["total"]


def test_boolean_operators(full_db: Path) -> None:
    hexproof = search_json(full_db, "hexproof", "--limit", "100")["total"]
    shroud = search_json(full_db, "shroud", "--limit", "100")["total"]
    both = search_json(full_db, "hexproof AND shroud")["total"]
    either = search_json(full_db, "hexproof OR shroud")["total"]
    assert either == hexproof + shroud - both and both < min(hexproof, shroud)
    without = search_json(full_db, "hexproof NOT shroud", "--limit", "100")
    assert without["total"] == hexproof - both
    assert all("shroud" not in hit["text"].lower() for hit in without["hits"])


def test_prefix_query(full_db: Path) -> None:
    found = search_json(full_db, "deathto*", "--kind", "rule")
    assert "702.2" in labels(found)
    assert all("deathto" in hit["text"].lower() for hit in found["hits"])


@pytest.mark.parametrize(
    ("typed", "meant", "rule"),
    [
        ("deathtuch", "deathtouch", "702.2"),
        ("trampel", "trample", "702.19"),
        ("hexprof", "hexproof", "702.11"),
    ],
)
def test_misspelled_keyword_suggests_and_answers_the_correction(
    full_db: Path, typed: str, meant: str, rule: str
) -> None:
    found = search_json(full_db, typed)
    assert found["suggestion"] == meant
    assert labels(found)[0] == rule
    assert all(meant in hit["text"].lower() for hit in found["hits"])
    human = ok("search", typed, "--db", full_db).stdout
    assert f"Did you mean {meant}?" in human


def test_fuzzy_term(full_db: Path) -> None:
    found = search_json(full_db, "deathtuch~", "--kind", "rule")
    assert found["suggestion"] is None
    assert "702.2" in labels(found)[:3]


def test_fuzzy_edits_and_prefix(index: Any, conn: sqlite3.Connection) -> None:
    """word~ is one edit, word~2 two, both keeping the first letter; word~2/0 keeps none."""
    latest = core.Filters(edition=LATEST)
    one = index.search(conn, "trampel~", latest)
    two = index.search(conn, "trample~2", latest)
    free = index.search(conn, "trample~2/0", latest)
    assert "702.19" in [hit.label for hit in one.hits][:3]
    assert one.total < two.total < free.total
    assert one.suggestion is None and one.match == "all"


@pytest.mark.parametrize("query", ["{T}: Add", "[this object]", "trample^3", "player's graveyard"])
def test_rule_text_punctuation_is_no_query_syntax(
    index: Any, conn: sqlite3.Connection, query: str
) -> None:
    """Colons, brackets, carets and apostrophes, as rule texts have them, are not field
    names, ranges, boosts or quotes: the words are searched."""
    found = index.search(conn, query, core.Filters(edition=LATEST))
    assert found.total > 0 and found.match == "all", query


def test_filters_narrow_every_kind_of_query(index: Any, conn: sqlite3.Connection) -> None:
    chapter = core.Filters(edition=LATEST, chapter="702")
    for query in ["NOT trample", '"first strike"', "trample OR menace", "deathto*", "trampel~"]:
        found = index.search(conn, query, chapter, limit=50)
        assert found.hits, query
        assert all(hit.label.startswith("702") for hit in found.hits), query
    nothing = core.Filters(edition=LATEST, chapter="999")
    assert index.search(conn, "damage", nothing).total == 0


def test_the_narrowing_searcher_finds_what_whoosh_finds_with_a_filter(index: Any) -> None:
    """The searcher that narrows each term's postings to a filter's documents (the one
    Whoosh subclass) gives the same documents with the same scores as Whoosh's own
    Searcher given the filter after matching."""
    from whoosh import collectors, scoring, searching

    plain = searching.Searcher(
        index.reader, fromindex=index.ix, weighting=scoring.BM25F(B=core.BM25_B, K1=core.BM25_K1)
    )
    filters = [
        core.Filters(edition=LATEST),
        core.Filters(edition=LATEST, chapter="702"),
        core.Filters(edition="2009-07-11", kind="rule"),
        core.Filters(),
    ]
    queries = ["trample", '"first strike"', "deathto*", "NOT trample", "damage AND prevented"]
    for filters_ in filters:
        base = index.base(filters_)
        for text in queries:
            query = index.query(text)
            ours = index._collect(query, base, 20)
            top = collectors.TopCollector(20, usequality=False, replace=0)
            theirs = top if base is None else collectors.FilterCollector(top, allow=base)
            plain.search_with_collector(query, theirs)
            expected = theirs.results()
            assert len(ours) == len(expected), (text, filters_)
            assert [(hit.docnum, round(hit.score, 9)) for hit in ours] == [
                (hit.docnum, round(hit.score, 9)) for hit in expected
            ], (text, filters_)


def test_mana_burn_across_editions(full_db: Path, conn: sqlite3.Connection) -> None:
    rules = search_json(full_db, '"mana burn"', "--all-editions", "--kind", "rule", "-n", "500")
    assert rules["edition"] is None and rules["total"] == len(rules["hits"]) > 0
    assert {hit["kind"] for hit in rules["hits"]} == {"rule"}
    assert all(hit["last"] < MANA_BURN_REMOVED for hit in rules["hits"])
    assert min(hit["first"] for hit in rules["hits"]) == "1999-04-23"
    assert "300.3" in labels(rules)
    last_with_it = edition_in_force(conn, "2009-07-10")
    assert max(hit["last"] for hit in rules["hits"]) == last_with_it
    glossary = search_json(full_db, '"mana burn"', "--all-editions", "--kind", "glossary")
    obsolete = [hit for hit in glossary["hits"] if hit["term"] == "Mana Burn (Obsolete)"]
    assert obsolete and max(hit["last"] for hit in obsolete) == LATEST
    assert min(hit["first"] for hit in obsolete) == MANA_BURN_REMOVED


def test_all_editions_groups_by_text_with_its_span(full_db: Path) -> None:
    found = search_json(full_db, "trample", "--all-editions", "--kind", "rule", "-n", "50")
    spans = [(hit["number"], hit["first"], hit["last"]) for hit in found["hits"]]
    assert len(spans) == len(set(spans))
    for hit in found["hits"]:
        assert hit["first"] <= hit["last"] == hit["edition"] and hit["editions"] >= 1
    assert any(hit["editions"] > 20 for hit in found["hits"])
    human = ok("search", "trample", "--all-editions", "--db", full_db).stdout
    assert "all editions" in human and "→" in human


def test_filters(full_db: Path) -> None:
    examples = search_json(full_db, "damage", "--kind", "example")
    assert examples["hits"] and {hit["kind"] for hit in examples["hits"]} == {"example"}
    chapter = search_json(full_db, "damage", "--chapter", "702", "-n", "30")
    assert chapter["hits"] and all(hit["number"].startswith("702") for hit in chapter["hits"])
    section = search_json(full_db, "damage", "--section", "5", "-n", "30")
    assert section["hits"] and all(hit["number"].startswith("5") for hit in section["hits"])
    limited = search_json(full_db, "damage", "--limit", "3")
    assert len(limited["hits"]) == 3 and limited["total"] > 3
    old = search_json(full_db, "mana burn", "-e", "2008-12-25")
    assert old["edition"] == "2008-10-01" and labels(old)[:3].count("300.3") == 1


def test_human_output_highlights_matches(full_db: Path) -> None:
    result = ok("search", "lifelink", "--db", full_db)
    assert f"matches in edition {LATEST}" in result.stdout
    assert "702.15" in result.stdout and "<b>" not in result.stdout


def test_too_many_words_fall_back_to_any_of_them(full_db: Path) -> None:
    found = search_json(full_db, "trample hexproof zzyzx banding", "--all-editions")
    assert found["match"] == "any" and found["hits"]
    # in one edition, words no text has all of are answered as a question
    found = search_json(full_db, "trample hexproof zzyzx banding")
    assert found["match"] == "question" and found["hits"]


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (["search", "   "], 1),
        (["search", "trample", "--kind", "card"], 2),
        (["search", "trample", "--section", "0"], 2),
        (["search", "trample", "--chapter", "7a2"], 2),
        (["search", "trample", "--limit", "0"], 2),
        (["search", "trample", "-e", "1990-01-01"], 1),
    ],
)
def test_bad_input(full_db: Path, args: list[str], code: int) -> None:
    result = run(*args, "--db", full_db)
    assert result.exit_code == code, result.output
    assert "Traceback" not in result.output
    if code == 1:
        assert len(result.stderr.splitlines()) == 1


# show -------------------------------------------------------------------------------


def test_show_falls_back_to_search(full_db: Path) -> None:
    found = json.loads(
        ok("show", "what happens when a player concedes", "--db", full_db, "--json").stdout
    )
    # a question gets the rules that answer it (tests/search/test_questions.py has the rest)
    assert found["type"] == "answer" and found["query"] == "what happens when a player concedes"
    assert "104.3a" in [answer["number"] for answer in found["answers"][:3]]
    found = json.loads(ok("show", "unused mana phase ends", "--db", full_db, "--json").stdout)
    assert found["type"] == "search" and found["hits"] and found["suggestion"] is None
    assert json.loads(ok("show", "trample", "--db", full_db, "--json").stdout)["term"] == "Trample"
    assert json.loads(ok("show", "702.19", "--db", full_db, "--json").stdout)["number"] == "702.19"


def test_show_search_respects_the_edition(full_db: Path) -> None:
    found = json.loads(
        ok("show", "unused mana phase ends", "-e", "2008-10-01", "--db", full_db, "--json").stdout
    )
    assert found["edition"] == "2008-10-01" and "300.3" in labels(found)


def test_index_copy_survives_a_moved_database(full_db: Path, tmp_path: Path) -> None:
    """An index copied along with its database is still fresh (the stamp is the content)."""
    db = tmp_path / "copy.db"
    shutil.copyfile(full_db, db)
    shutil.copytree(core.index_dir(full_db), core.index_dir(db))
    with sqlite3.connect(db) as conn:
        assert core.ensure_index(conn, core.index_dir(db)).action == "fresh"


# the analysis, the engine and the index folder ---------------------------------------


def test_the_analysis_is_whooshs_stemming_analyzer(conn: sqlite3.Connection) -> None:
    """The index, phrases and highlights use `stems`; it must agree with whoosh's analyzer."""
    from whoosh.analysis import StemmingAnalyzer

    analyzer = StemmingAnalyzer(expression=core.TOKEN)
    texts = [str(text) for (text,) in conn.execute("SELECT text FROM texts ORDER BY random()")]
    texts = [*texts[:3000], "İstanbul İİ", "702.19b and 702.19.", "player’s it's a--b", "Æther",
             "{2}{U}, {T}: add {W/U}. {}{X}"]  # fmt: skip
    for text in texts:
        assert core.stems(text) == [token.text for token in analyzer(text)], text


@pytest.mark.corpus
def test_an_updated_index_answers_as_a_rebuilt_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two segments, deleted documents, the filters file of the new generation."""
    monkeypatch.setattr(search_index, "REBUILD_SHARE", 1.0)
    db = small_db(tmp_path, "2026-04-17", "2026-06-19", index=True)
    ok("ingest", SHARED / f"{LATEST}.txt", "--db", db, "--json", "--no-index")
    rebuilt = tmp_path / "rebuilt.search"
    with sqlite3.connect(db) as conn:
        assert core.ensure_index(conn, core.index_dir(db)).action == "updated"
        core.build(conn, rebuilt)
        updated, fresh = core.open_index(core.index_dir(db)), core.open_index(rebuilt)
        assert len(updated.leaves) > 1 or updated.reader.doc_count_all() > updated.documents
        assert updated.documents == fresh.documents
        for query in ["trample", "damage", '"last known information"', "deathto*", "ward~"]:
            for day in ("2026-04-17", LATEST, None):
                one = updated.search(conn, query, core.Filters(edition=day), limit=500)
                two = fresh.search(conn, query, core.Filters(edition=day), limit=500)
                assert one.total == two.total == len(one.hits), (query, day)
                # as in whoosh, deleted documents count in the statistics until a merge:
                # the same hits, with nearly the same scores
                first = {(h.label, h.text, h.editions): h.score for h in one.hits}
                second = {(h.label, h.text, h.editions): h.score for h in two.hits}
                assert first.keys() == second.keys()
                for key, score in first.items():
                    assert score == pytest.approx(second[key], rel=0.1), key


@pytest.mark.corpus
def test_the_engine_is_kept_and_reopened_when_the_index_changes(tmp_path: Path) -> None:
    db = small_db(tmp_path, "2026-04-17", index=True)
    folder = core.index_dir(db)
    first = core.engine(folder)
    assert core.engine(folder) is first
    with sqlite3.connect(db) as conn:
        core.build(conn, folder)
        again = core.engine(folder)
        assert again is not first
        assert again.search(conn, "trample", core.Filters(edition="2026-04-17")).hits


@pytest.mark.corpus
def test_a_search_reads_only_through_its_connection(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One snapshot: every statement of a search, an index update included, goes through
    the connection it was given, inside one read transaction."""
    db = small_db(tmp_path, "2026-04-17", index=True)
    ok("ingest", SHARED / "2026-06-19.txt", "--db", db, "--json", "--no-index")
    conn = sqlite3.connect(db)
    statements: list[str] = []
    conn.set_trace_callback(statements.append)

    def refuse(*_args: Any, **_kwargs: Any) -> Any:
        raise AssertionError("a second connection")

    monkeypatch.setattr(sqlite3, "connect", refuse)
    found = core.answer(conn, core.index_dir(db), "trample", core.Filters(edition="2026-06-19"))
    assert found.hits and not conn.in_transaction
    assert statements[0] == "BEGIN" and statements[-1] == "ROLLBACK"
    assert statements.count("BEGIN") == 1
    read = " ".join(statements)
    assert "FROM texts" in read and "FROM rules" in read  # the update read them, in it


def test_staging_folders_of_dead_builds_are_cleaned(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys
    import time

    folder = tmp_path / "rules.db.search"
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    alive = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        names = {
            "dead": f"rules.db.search.new-{dead.pid}-abc",
            "dead_old": f"rules.db.search.old-{dead.pid}-abc",
            "alive": f"rules.db.search.new-{alive.pid}-abc",
            "mine": f"rules.db.search.new-{os.getpid()}-abc",
            "legacy_stale": "rules.db.search.new-k2j4h5g6",
            "legacy_recent": "rules.db.search.new-q9w8e7r6",
            "other_index": "other.db.search.new-1-abc",
        }
        for name in names.values():
            (tmp_path / name).mkdir()
            (tmp_path / name / "MAIN_x.seg").write_bytes(b"\0" * 100)
        hours_ago = time.time() - 2 * core.ORPHAN_SECONDS
        os.utime(tmp_path / names["legacy_stale"], (hours_ago, hours_ago))
        removed = {path.name for path in core.clean_staging(folder)}
        assert removed == {names["dead"], names["dead_old"], names["legacy_stale"]}
        left = {path.name for path in tmp_path.iterdir()}
        assert {names["alive"], names["mine"], names["legacy_recent"]} <= left
    finally:
        alive.kill()
        alive.wait()


@pytest.mark.corpus
def test_a_build_cleans_up_after_a_killed_one(tmp_path: Path) -> None:
    import subprocess
    import sys

    db = small_db(tmp_path, "2026-04-17")
    folder = core.index_dir(db)
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    leftover = folder.with_name(f"{folder.name}.new-{dead.pid}-killed")
    leftover.mkdir()
    ok("search", "ward", "--db", db)
    assert not leftover.exists()
    assert not list(tmp_path.glob("small.db.search.*-*"))


# hostile queries ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "says"),
    [
        ("trample~9", "at most 2"),
        ("trample " * 12_500, "the limit is 1,000"),
        ("*", "no words or rule numbers"),
        ("?????", "no words or rule numbers"),
        ('"' * 999, "no words or rule numbers"),
        ("ward OR t*", "at least 2 letters"),
        ("(" * 30 + "trample OR ward" + ")" * 30, "parentheses"),
    ],
)
def test_a_hostile_query_fails_in_one_line(full_db: Path, query: str, says: str) -> None:
    result = run("search", query, "--db", full_db)
    assert result.exit_code == 1, result.output
    assert says in result.stderr and len(result.stderr.splitlines()) == 1
    assert "Traceback" not in result.output


@pytest.mark.corpus
def test_a_query_no_index_could_answer_is_refused_before_one_is_built(tmp_path: Path) -> None:
    db = small_db(tmp_path, "2026-04-17")
    nested = "(" * 30 + "a OR b" + ")" * 30
    for query, says in [("trample~9", "at most 2"), ("ward OR t*", "at least 2 letters"),
                        ("?", "no words"), (nested, "parentheses"), ("   ", "empty")]:  # fmt: skip
        result = run("search", query, "--db", db)
        assert result.exit_code == 1 and says in result.stderr, result.output
    assert not core.index_dir(db).exists()
    assert search_json(db, "trample~2")["total"] > 0  # a query it can answer builds one
    assert core.index_dir(db).exists()


@pytest.mark.parametrize(
    "query",
    [
        "trample~2",
        "deathtuch~2/0",
        "re*",
        "*ing",
        "NOT " * 200,
        '"' * 998 + "a",
        "\x00 trample \x7f",
        "(" * 30 + "trample" + ")" * 30,
    ],  # (parentheses around words alone are punctuation)
)
def test_an_odd_query_still_answers(full_db: Path, query: str) -> None:
    found = search_json(full_db, query)
    assert found["total"] >= 0 and found["query"] == query


def test_a_long_query_of_repeated_words_counts_them(index: Any, conn: sqlite3.Connection) -> None:
    once = index.search(conn, "damage player", core.Filters(edition=LATEST))
    thrice = index.search(conn, "damage damage damage player", core.Filters(edition=LATEST))
    assert once.total == thrice.total
    long = index.search(conn, " ".join(["damage", "player"] * 150)[:999], core.Filters(LATEST))
    assert long.total == once.total


@pytest.mark.corpus
def test_an_index_of_the_older_format_is_rebuilt(tmp_path: Path) -> None:
    db = small_db(tmp_path, "2026-04-17", index=True)
    folder = core.index_dir(db)
    (folder / core.FORMAT_FILE).unlink()  # as rules-kb 0.1 left it: same stamp, no format
    with sqlite3.connect(db) as conn:
        assert not core.is_fresh(conn, folder)
        assert core.ensure_index(conn, folder).action == "built"
        assert core.is_fresh(conn, folder)


def _fixture_db(tmp_path: Path) -> Path:
    path = tmp_path / "fixture.db"
    ok("ingest", FIXTURES / "modern.txt", "--db", path, "--json")
    return path


def test_an_index_of_an_older_format_is_rebuilt_by_the_next_search(tmp_path: Path) -> None:
    db = _fixture_db(tmp_path)
    folder = core.index_dir(db)
    (folder / core.FORMAT_FILE).write_text("3\n")  # as the layout before the folders left it
    with sqlite3.connect(db) as conn:
        assert not core.is_fresh(conn, folder)
    assert search_json(db, "trample")["total"] > 0
    assert (folder / core.FORMAT_FILE).read_text().strip() == search_index.INDEX_FORMAT


def test_an_index_whose_schema_names_types_that_are_gone_is_refused_in_one_line(
    tmp_path: Path,
) -> None:
    db = _fixture_db(tmp_path)
    folder = core.index_dir(db)
    (toc,) = folder.glob("*.toc")
    here = search_index.__name__.encode()
    assert here in toc.read_bytes()
    toc.write_bytes(toc.read_bytes().replace(here, b"rules_kb.gone" + b"_" * (len(here) - 13)))
    with pytest.raises(core.SearchIndexError, match="cannot open the search index"):
        core.Engine(folder)


def test_an_index_that_lands_in_place_during_a_swap_is_moved_aside_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two processes building at once (searches during an ingest): the other's index lands
    in place between this one moving the old index aside and moving its own in."""
    folder = tmp_path / "rules.db.search"
    (folder).mkdir()
    (folder / "which").write_text("the old one")
    staging = tmp_path / "rules.db.search.new-1-abc"
    staging.mkdir()
    (staging / "which").write_text("mine")
    real_replace = Path.replace
    raced = []

    def racing(self: Path, target: Any) -> Path:
        if self == staging and not raced:  # the other process gets there first
            raced.append(True)
            folder.mkdir()
            (folder / "which").write_text("the other one")
        return real_replace(self, target)

    from rules_kb.search.index import _swap

    monkeypatch.setattr(Path, "replace", racing)
    _swap(staging, folder)
    assert raced and (folder / "which").read_text() == "mine"
    assert sorted(path.name for path in tmp_path.iterdir()) == ["rules.db.search"]


def test_an_index_folder_missing_for_a_moment_is_tried_again(tmp_path: Path) -> None:
    """Between a build moving the old index aside and moving its own in, the folder is
    missing: a reader opening it then is told to try again, not that it failed."""
    with pytest.raises(core.IndexChanging):
        core.engine(tmp_path / "rules.db.search")
