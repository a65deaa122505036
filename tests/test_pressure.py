"""Under pressure: bounded arguments on every face, inputs that are no regular files,
misses as cheap as hits, `cite` linear in its citations, and MCP answers sized, in one
line when they fail, and side by side.

Times are never asserted here (bench/hostile.py measures them); what is asserted is the
behaviour that keeps them bounded: a refusal before any work, a page instead of a flood.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from rules_kb import bounds
from rules_kb.errors import TooLong
from rules_kb.mcp.server import MAX_ANSWER, paged
from tests.conftest import SHARED, mcp_server_params, ok_cli, run_cli

# bounds, on every way in --------------------------------------------------------------------


@pytest.fixture(scope="module")
def kb(all_editions_db: Path) -> Any:
    import rules_kb

    opened = rules_kb.open(all_editions_db)
    yield opened
    opened.close()


LONG_EDITION = "x" * (bounds.EDITION + 1)
LONG_TERM = "q" * (bounds.TERM + 1)


@pytest.mark.parametrize(
    ("call", "says"),
    [
        (lambda kb: kb.rule("702.19", LONG_EDITION), "edition"),
        (lambda kb: kb.define("trample", "BRO" * 1000), "edition"),
        (lambda kb: kb.edition(LONG_EDITION), "edition"),
        (lambda kb: kb.rule(LONG_TERM), "rule number or term"),
        (lambda kb: kb.define(LONG_TERM), "term"),
        (lambda kb: kb.history(LONG_TERM), "rule number or term"),
        (lambda kb: kb.where(LONG_TERM), "rule number or term"),
        (lambda kb: kb.refs(LONG_TERM), "rule number or term"),
        (lambda kb: kb.search("w" * (bounds.QUERY + 1)), "search query"),
        (lambda kb: kb.show("w " * bounds.QUERY), "search query"),
        (lambda kb: kb.cite("702.19b " * (bounds.TEXT // 8 + 1)), "text"),
        (lambda kb: kb.diff("2024-01-01", "latest", rule=LONG_TERM), "rule number"),
    ],
)  # fmt: skip
def test_every_api_argument_is_bounded_before_any_work(kb: Any, call: Any, says: str) -> None:
    with pytest.raises(TooLong, match=f"the {says} is [0-9,]+ characters long; the limit is"):
        call(kb)


def test_the_command_line_refuses_the_same_way_in_one_line(all_editions_db: Path) -> None:
    for args in (
        ["rule", "702.19", "-e", LONG_EDITION],
        ["define", LONG_TERM],
        ["history", LONG_TERM],
        ["show", "w " * bounds.QUERY],
    ):
        result = run_cli(*args, "--db", all_editions_db)
        assert result.exit_code == 1, result.output
        assert "characters long; the limit is" in result.stderr
        assert len(result.stderr.splitlines()) == 1


# a keyword wherever a number is taken -----------------------------------------------------


@pytest.mark.parametrize(
    ("query", "number"),
    [("trample", "702.19"), ("First Strike", "702.7"), ("deathtuch", "702.2"),
     ("mulligan", "103.5")],
)  # fmt: skip
def test_rule_takes_a_keyword_or_term(kb: Any, query: str, number: str) -> None:
    assert kb.rule(query).number == number


def test_rule_of_an_unknown_word_says_so_in_one_line(all_editions_db: Path) -> None:
    result = run_cli("rule", "qqqq", "--db", all_editions_db)
    assert result.exit_code == 1
    assert (
        result.stderr.strip() == "rules-kb: no rule, keyword or glossary entry 'qqqq' in 2026-08-07"
    )


# inputs that are no regular files, or too large --------------------------------------------


def test_a_fifo_is_refused_without_reading_it(tmp_path: Path) -> None:
    fifo = tmp_path / "rules.txt"
    os.mkfifo(fifo)
    result = run_cli("ingest", fifo, "--db", tmp_path / "kb.db", "--json")
    assert result.exit_code == 1, result.output
    assert json.loads(result.stdout)[0]["error"] == "not a regular file (a pipe, device or socket)"


def test_a_file_over_the_cap_is_refused_before_it_is_read(tmp_path: Path) -> None:
    from rules_kb.ingest.session import MAX_INPUT_BYTES

    big = tmp_path / "big.txt"
    with big.open("wb") as out:
        out.truncate(MAX_INPUT_BYTES + 1)  # sparse: nothing is written, nothing to read
    result = run_cli("ingest", big, "--db", tmp_path / "kb.db", "--json")
    assert result.exit_code == 1, result.output
    assert "too large for an edition" in json.loads(result.stdout)[0]["error"]


def _measured_short(monkeypatch: pytest.MonkeyPatch, size: int) -> None:
    """Make every file look `size` bytes long when measured: as if it grew afterwards.
    (`fstat` is patched in `os` itself, for the test's length: `read_bytes` calls it there.)"""
    real = os.fstat

    def fstat(descriptor: int) -> os.stat_result:
        found = list(real(descriptor))
        found[6] = size  # st_size
        return os.stat_result(found)

    monkeypatch.setattr(os, "fstat", fstat)


def test_a_file_that_grew_after_it_was_measured_is_read_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from rules_kb.ingest.session import read_bytes

    grown = tmp_path / "grown.txt"
    grown.write_bytes(b"x" * 100_000)
    _measured_short(monkeypatch, 10)
    assert read_bytes(grown) == b"x" * 100_000


def test_a_file_that_grew_past_the_cap_after_it_was_measured_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from rules_kb.ingest.session import MAX_INPUT_BYTES, read_bytes

    big = tmp_path / "big.txt"
    with big.open("wb") as out:
        out.truncate(MAX_INPUT_BYTES + 5)
    _measured_short(monkeypatch, 10)
    refused = read_bytes(big)
    assert not isinstance(refused, bytes) and "too large" in str(refused.error)


def test_a_folder_of_broken_links_names_each_link(tmp_path: Path) -> None:
    folder = tmp_path / "editions"
    folder.mkdir()
    (folder / "a.txt").symlink_to(tmp_path / "missing-a.txt")
    (folder / "b.txt").symlink_to(tmp_path / "missing-b.txt")
    result = run_cli("ingest", folder, "--db", tmp_path / "kb.db", "--json")
    assert result.exit_code == 1, result.output
    found = json.loads(result.stdout)
    assert [item["error"] for item in found] == ["no such file or folder"] * 2


# misses and long documents ------------------------------------------------------------------


def test_a_missing_history_is_found_missing_through_the_caches(kb: Any) -> None:
    from rules_kb.read import query

    query._names.cache_clear()
    with pytest.raises(Exception, match="no rule or glossary entry for 'qqqq'"):
        kb.history("qqqq")
    # every edition's terms were named once, not once per edition
    info = query._names.cache_info()
    assert info.hits > info.misses


def test_cite_reads_an_edition_whole_once_many_lines_pass_through_it(kb: Any) -> None:
    text = " ".join(f"rule 702.{n}b" for n in range(1, 121))
    report = kb.cite(text, as_of="2010-06-18")
    assert len(report.citations) == 120
    lines = kb.lineage.lines
    assert lines._editions, "no edition was read whole for 120 citations"
    # and the answers are the ones a single lookup gives
    single = {
        c.number: (c.status, c.now) for c in kb.cite("rule 702.17b", as_of="2010-06-18").citations
    }
    assert single["702.17b"] == next(
        (c.status, c.now) for c in report.citations if c.number == "702.17b"
    )


# MCP ------------------------------------------------------------------------------------------


def test_paged_cuts_between_records_and_says_what_comes_next() -> None:
    records = [f"changed 702.{n}\n  was: {'a' * 300}\n  now: {'b' * 300}" for n in range(400)]
    text = "\n".join(records)
    first = paged(text, 1)
    assert len(first) <= MAX_ANSWER
    assert first.endswith("page=2 for the rest, or narrow the question (a `rule`, a shorter text)]")
    body = first.rsplit("\n", 1)[0]
    assert body.count("changed 702.") == body.count("  was: ") == body.count("  now: ")
    pages = int(first.rsplit(" of ", 1)[1].split(":")[0])
    assert "".join(paged(text, n).rsplit("\n", 1)[0] + "\n" for n in range(1, pages + 1)) == (
        text + "\n"
    )
    with pytest.raises(Exception, match=f"this answer has {pages} pages"):
        paged(text, pages + 1)
    assert paged("short", 1) == "short"


async def _mcp(db: Path) -> dict[str, Any]:
    from mcp import ClientSession
    from mcp.client.stdio import stdio_client

    params = mcp_server_params(db)
    found: dict[str, Any] = {}
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        calls = {
            "limit": ("search", {"query": "trample", "limit": -5}),
            "type": ("rule", {"number": 5}),
            "missing": ("rule", {}),
            "page": ("rule", {"number": "702.19b", "page": 0}),
            "diff": ("diff", {"old": "2009-05-01", "new": "2009-07-11"}),
            "diff 2": ("diff", {"old": "2009-05-01", "new": "2009-07-11", "page": 2}),
            "rule 7": ("rule", {"number": "7"}),
            "long edition": ("editions", {"edition": "x" * 1_000_000}),
        }
        for name, (tool, arguments) in calls.items():
            found[name] = await session.call_tool(tool, arguments)
        # a slow call does not hold a quick one up: both are answered
        slow = session.call_tool(
            "cite", {"text": " ".join(f"rule 702.{i % 190 + 1}b" for i in range(2000))}
        )
        quick = session.call_tool("rule", {"number": "702.19b"})
        found["together"] = await asyncio.gather(slow, quick)
    return found


def test_mcp_answers_are_sized_and_failures_are_one_line(all_editions_db: Path) -> None:
    pytest.importorskip("mcp")
    found = asyncio.run(asyncio.wait_for(_mcp(all_editions_db), timeout=180))
    for name in ("limit", "type", "missing", "page", "long edition"):
        result = found[name]
        text = result.content[0].text
        assert result.is_error, name
        assert "\n" not in text and "pydantic" not in text and "http" not in text, text
    assert found["limit"].content[0].text == (
        "search: bad arguments: limit: input should be greater than or equal to 1"
    )
    assert "characters long; the limit is 64" in found["long edition"].content[0].text
    for name in ("diff", "diff 2", "rule 7"):
        text = found[name].content[0].text
        assert not found[name].is_error
        assert len(text) <= MAX_ANSWER, (name, len(text))
        assert "[page " in text.rsplit("\n", 1)[1]
    slow, quick = found["together"]
    assert not slow.is_error and not quick.is_error
    assert quick.content[0].text.startswith("Comprehensive Rules, edition")


# daily use: global flags anywhere, tables at 80 columns, syntax said as written ----------


def test_the_spans_a_citation_covers_are_looked_up_exactly() -> None:
    """cite's bisecting span lookup answers as the plain scan over every span would."""
    from hypothesis import given
    from hypothesis import strategies as st

    from rules_kb.read.cite import _Spans

    span = st.tuples(st.integers(0, 60), st.integers(0, 20)).map(lambda p: (p[0], p[0] + p[1]))

    @given(st.lists(span, max_size=12), st.integers(-2, 90))
    def agrees(spans: list[tuple[int, int]], offset: int) -> None:
        assert _Spans(spans)(offset) == any(start <= offset < end for start, end in spans)

    agrees()


def test_find_reads_a_long_document_as_its_paragraphs() -> None:
    """Citations, lists, ranges, bare numbers and quotations in a paragraph repeated 500
    times: each copy is read as the paragraph is alone (nothing reaches across)."""
    from dataclasses import replace

    from rules_kb.read.cite import find

    paragraph = (
        "Per rules 702.19b and 702.19c, \u201cassigns damage\u201d; see 510.1a\u2013c. "
        "An amount of 702.17 dollars; \u201ca quotation\u201d (CR 704.5a). Chapter 702.\n"
    )
    alone = find(paragraph)
    assert len(alone) >= 5 and any(item.quote for item in alone)
    copies = find(paragraph * 500)
    shifted = [
        replace(item, start=item.start + n * len(paragraph), end=item.end + n * len(paragraph))
        for n in range(500)
        for item in alone
    ]
    assert copies == shifted


# a request given up stops ----------------------------------------------------------------


def test_database_work_stops_once_the_request_is_given_up(kb: Any) -> None:
    """Given up from the start, or part of the way (after some of the database's steps),
    the work raises GivenUp; afterwards the knowledge base answers as before."""
    from rules_kb.errors import GivenUp

    text = " ".join(f"rule 702.{i % 190 + 1}b" for i in range(2000))
    with pytest.raises(GivenUp), kb.given_up_when(lambda: True):
        kb.rule("702.19b")
    looks = iter(range(1_000_000))
    with pytest.raises(GivenUp), kb.given_up_when(lambda: next(looks) >= 2):
        kb.cite(text, "2005-01-01")
    counted = iter(range(1_000_000))
    with kb.given_up_when(lambda: next(counted) < 0):
        assert len(kb.cite(text, "2005-01-01").citations) == 2000
    assert next(counted) > 2  # (the whole cite takes more steps than were allowed above)
    assert kb.rule("702.19b").number == "702.19b"


def test_long_loops_stop_at_their_next_step_once_given_up() -> None:
    """Word diffs and reading citations look between steps; given up after a few looks,
    they raise GivenUp; outside a block, they run as ever."""
    from rules_kb import giving_up
    from rules_kb.errors import GivenUp
    from rules_kb.read.cite import find
    from rules_kb.worddiff import word_diffs

    pairs = [(f"old words {n}", f"new words {n}") for n in range(50)]
    text = " ".join(f"rule 702.{n}b" for n in range(1, 50))
    for work in (lambda: word_diffs(pairs), lambda: find(text)):
        looks = iter(range(1_000))
        with pytest.raises(GivenUp), giving_up.given_up_when(lambda: next(looks) >= 5):  # noqa: B023
            work()
        assert 5 <= next(looks) < 10  # (it stopped at the sixth look)
        assert work()


def test_an_mcp_call_the_client_cancels_stops_its_worker(all_editions_db: Path) -> None:
    """A call cancelled before its worker is through: the worker ends in GivenUp (it
    does not run to its end), and the next call is answered."""
    import anyio

    import rules_kb
    from rules_kb.api import KnowledgeBase
    from rules_kb.errors import GivenUp
    from rules_kb.mcp.server import server

    ended: list[str] = []
    original = KnowledgeBase.given_up_when

    @contextlib.contextmanager
    def watched(self: KnowledgeBase, given_up: Any) -> Any:
        deadline = time.monotonic() + 10
        while not given_up() and time.monotonic() < deadline and not ended:
            time.sleep(0.01)  # the first call's worker goes on only once it was cancelled
        try:
            with original(self, given_up):
                yield
        except GivenUp:
            ended.append("given up")
            raise
        ended.append("ran to its end")

    text = " ".join(f"rule 702.{i % 190 + 1}b" for i in range(2000))

    async def scenario() -> Any:
        app = server(rules_kb.open(all_editions_db))
        with anyio.move_on_after(0.05):
            await app.call_tool("cite", {"text": text, "as_of": "2005-01-01"})
        with anyio.fail_after(30):
            while not ended:
                await anyio.sleep(0.01)
        return await app.call_tool("rule", {"number": "702.19b"})

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(KnowledgeBase, "given_up_when", watched)
        after = anyio.run(scenario)
    assert ended[0] == "given up"  # (then the next call ran to its end)
    assert "702.19b" in str(after)


def test_global_flags_move_before_the_command() -> None:
    from rules_kb.cli import globals_first

    assert globals_first(["rule", "702.19", "--no-pager"]) == ["--no-pager", "rule", "702.19"]
    assert globals_first(["search", "ward", "-v", "--json"]) == ["-v", "search", "ward", "--json"]
    assert globals_first(["search", "--", "--no-pager"]) == ["search", "--", "--no-pager"]
    assert globals_first(["rule", "702.19"]) == ["rule", "702.19"]


@pytest.mark.parametrize(
    "args",
    [["rule", "702.19"], ["define", "trample"], ["search", "trample"], ["editions"],
     ["history", "702.19b"], ["refs", "702.19"], ["where", "702.19", "--to", "2009-05-01"]],
)  # fmt: skip
def test_every_global_flag_works_after_the_command(all_editions_db: Path, args: list[str]) -> None:
    import subprocess

    for flag in ("--no-pager", "--verbose"):
        done = subprocess.run(
            [sys.executable, "-m", "rules_kb", *args, flag, "--db", str(all_editions_db)],
            capture_output=True, text=True, check=False,
        )  # fmt: skip
        assert done.returncode == 0, (args, flag, done.stderr)


def test_tables_fit_80_columns_in_a_pipe(
    all_editions_db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("COLUMNS", raising=False)  # (a pipe that says nothing of its width)
    shown = ok_cli("editions", "--db", all_editions_db).stdout
    assert max(len(line) for line in shown.splitlines()) <= 80
    long_name = tmp_path / ("a-very-long-file-name-for-an-edition-" * 3 + ".txt")
    long_name.write_bytes((SHARED / "1999-04-23.txt").read_bytes())
    summary = run_cli("ingest", long_name, "--db", tmp_path / "kb.db").stdout
    assert summary and max(len(line) for line in summary.splitlines()) <= 80, summary


def test_fuzziness_is_refused_as_written(all_editions_db: Path) -> None:
    result = run_cli("search", "trample~99999999999999999999", "--db", all_editions_db)
    assert result.exit_code == 1
    assert "asks for 99999999999999999999 edits" in result.stderr


@pytest.mark.parametrize("args", [["rule", "702"], ["history", "702.19b"], ["search", "damage"]])
def test_every_split_message_says_what_it_continues(all_editions_db: Path, args: list[str]) -> None:
    text = ok_cli(*args, "--format", "markdown", "--split", "--db", all_editions_db).stdout
    messages = text.strip().split("\n\n---\n\n")
    for message in messages[1:]:
        first = message.split("\n", 1)[0]
        assert first.endswith(", continued*") or not message.startswith(" "), first
    assert all(len(message) <= 2000 for message in messages)


# damage is never stored silently: UTF-16 out of byte alignment -----------------------------

MODERN = Path(__file__).parent / "fixtures" / "modern.txt"


def _read(data: bytes) -> tuple[list[tuple[Any, ...]], tuple[str, ...]]:
    from rules_kb.ingest import pipeline
    from tests.ingest.mutants import records

    edition, decoded = pipeline.read_edition(data)
    return records(edition), (*decoded.warnings, *edition.warnings)


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be"])
@pytest.mark.parametrize("damage", ["insert", "delete"])
def test_a_byte_inserted_or_lost_in_utf16_is_realigned_and_said(codec: str, damage: str) -> None:
    import codecs
    import random

    from tests.ingest.mutants import changed

    bom = codecs.BOM_UTF16_LE if codec == "utf-16-le" else codecs.BOM_UTF16_BE
    clean = bom + MODERN.read_text("utf-8").encode(codec)
    original, _ = _read(clean)
    rng = random.Random(f"{codec}:{damage}")
    for _ in range(25):
        at = rng.randrange(len(clean) // 4, len(clean) - 20)
        if damage == "insert":
            data = clean[:at] + bytes([rng.randrange(256)]) + clean[at:]
        else:
            data = clean[:at] + clean[at + 1 :]
        found, warnings = _read(data)
        said = any("byte alignment broke" in w for w in warnings)
        # the records around the damaged byte differ, and a warning says where; further
        # only where the damage broke the structure (a lost line break before a heading)
        assert changed(original, found) <= 3 or said, (at, changed(original, found))
        if found != original:
            assert said or any("U+FFFD" in w for w in warnings), warnings
        # never the rest of the file read one byte out of place
        assert not any("\u6100" <= ch <= "\u7aff" for item in found for ch in str(item))


def test_utf16_out_of_alignment_everywhere_is_refused() -> None:
    import codecs

    from rules_kb.errors import NotText
    from rules_kb.ingest import pipeline

    clean = codecs.BOM_UTF16_LE + MODERN.read_text("utf-8").encode("utf-16-le")
    data = bytearray(clean)
    for at in range(len(data) - 200, 400, -150):  # a byte lost every 150 bytes
        del data[at]
    with pytest.raises(NotText, match="loses its byte alignment more than"):
        pipeline.read_edition(bytes(data))


@pytest.mark.parametrize(
    ("less", "shown"),
    [(None, "FRX"), ("", "FRX"), ("  ", "FRX"), ("FX", "FXR"), ("-i", "-i -R"), ("-Ri", "-Ri")],
)
def test_the_pager_always_shows_colours_as_colours(less: str | None, shown: str) -> None:
    from rules_kb.cli.output import pager_environment

    environ = {} if less is None else {"LESS": less}
    assert pager_environment(environ)["LESS"] == shown


def test_long_work_says_each_stage_outside_a_terminal(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from rules_kb.cli import progress

    clock = [100.0]
    monkeypatch.setattr(progress.time, "monotonic", lambda: clock[0])
    advance = progress.bars()("rule pages", 3000)  # (stderr is no terminal here)
    for _ in range(30):
        clock[0] += 1.0
        advance(100, "")
    lines = capsys.readouterr().err.splitlines()
    assert lines[:2] == [
        "rules-kb: rule pages: 1,000 of 3,000…",
        "rules-kb: rule pages: 2,000 of 3,000…",
    ]
    assert lines[-1] == "rules-kb: rule pages: 3,000 in 30.0 s"
    quick = progress.bars()("indexing", 500)
    quick(500, "")  # quick work says nothing: its errors stay one line
    assert capsys.readouterr().err == ""
