"""Hostile input: one-byte mutants of real editions, and a file of concatenated copies.

    python bench/hostile.py [--mutants N] [--seed S] [--copies C]

Each mutant changes one byte of an edition (a random position, a random other byte)
and goes through `pipeline.read_edition`. It is

- handled: it reads, and its records differ from the original's only around the
  mutated line (at most three records, the title or a text blob), or a warning the
  original does not have names the damage;
- refused: a documented error (a rules_kb.errors.RulesKbError) with a one-line message;
- silent: it reads, records further away changed, and no new warning says so (0 expected);
- a traceback: any other exception (0 expected).

Then a file of C concatenated copies of the newest edition is read in a fresh
process, to measure its peak memory against one copy's.
"""

from __future__ import annotations

import argparse
import csv
import random
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import common
from common import table

from rules_kb.errors import RulesKbError
from rules_kb.ingest import pipeline
from rules_kb.ingest.models import Edition
from tests.ingest.mutants import changed, masked_warnings, records

SHARED = Path(__file__).resolve().parents[2] / "shared" / "cr" / "editions"
#: How many records around the mutation may differ for a change to count as local.
LOCAL = 3


def outcome(data: bytes, original: tuple[list[tuple[Any, ...]], set[str]]) -> tuple[str, bool]:
    """handled-same, handled-local, handled-warned, refused, silent or traceback; and
    whether the mutant has a warning the original has not."""
    try:
        edition, decoded = pipeline.read_edition(data)
    except RulesKbError as error:
        return ("refused" if "\n" not in str(error) else "refused (multi-line)"), False
    except Exception:
        return "traceback", False
    warned = bool(masked_warnings(edition, decoded) - original[1])
    span = changed(original[0], records(edition))
    if span == 0:
        return "handled-same", warned
    if span <= LOCAL:
        return "handled-local", warned
    return ("handled-warned" if warned else "silent"), warned


def mutants(data: bytes, count: int, rng: random.Random) -> list[bytes]:
    made = []
    for _ in range(count):
        at = rng.randrange(len(data))
        byte = rng.choice([b for b in range(256) if b != data[at]])
        made.append(data[:at] + bytes([byte]) + data[at + 1 :])
    return made


def cp1252_edition() -> str:
    with (SHARED / "MANIFEST.tsv").open(encoding="utf-8", newline="") as handle:
        rows = [row for row in csv.DictReader(handle, delimiter="\t") if "/" not in row["file"]]
    return next(row["file"][:10] for row in reversed(rows) if row["encoding_guess"] == "cp1252")


def _original(name: str) -> tuple[bytes, tuple[list[tuple[Any, ...]], set[str]], str]:
    """A shared edition's bytes, what its mutants are compared with (its records and its
    warnings), and its encoding."""
    data = (SHARED / f"{name}.txt").read_bytes()
    edition, decoded = pipeline.read_edition(data)
    return data, (records(edition), masked_warnings(edition, decoded)), decoded.encoding


def mutation_pass(names: list[str], count: int, seed: int) -> None:
    rows = []
    for name in names:
        data, original, encoding = _original(name)
        rng = random.Random(f"{seed}:{name}")
        start = time.perf_counter()
        results = [outcome(mutant, original) for mutant in mutants(data, count, rng)]
        seen = Counter(kind for kind, _ in results)
        warned = sum(1 for _, new in results if new)
        seconds = time.perf_counter() - start
        handled = seen["handled-same"] + seen["handled-local"] + seen["handled-warned"]
        refused = seen["refused"] + seen["refused (multi-line)"]
        rows.append(
            (
                f"{name} ({encoding})",
                count,
                f"{handled} ({seen['handled-same']} same, {seen['handled-local']} local,"
                f" {seen['handled-warned']} further but warned)",
                warned,
                refused,
                seen["silent"],
                seen["traceback"],
                seen["refused (multi-line)"],
                f"{seconds:.1f} s",
            )
        )
    print("#### One-byte mutants through `pipeline.read_edition`\n")
    print(
        "handled: same records, a change of at most three records around the mutation,\n"
        "or a change further away that a new warning names.\n"
    )
    headers = ["edition", "mutants", "handled", "with a new warning", "refused", "silent"]
    headers.append("tracebacks")
    print(table([*headers, "multi-line errors", "wall"], rows))


CHILD = """
import resource, sys, time
from pathlib import Path
from rules_kb.ingest import pipeline

def peak_mb():
    # VmHWM starts afresh at exec; ru_maxrss would carry the parent's from the fork
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

one = Path(sys.argv[1]).read_bytes()
times = int(sys.argv[2])
if sys.argv[3] == "same":
    data = one * times
else:  # the later copies with CRLF line ends: the bytes do not repeat, the text does
    data = one + one.replace(b"\\n", b"\\r\\n") * (times - 1)
del one
before = peak_mb()
start = time.process_time()
try:
    edition, decoded = pipeline.read_edition(data)
    result = f"read: {len(edition.rules)} rules, credits {len(edition.credits):,} chars"
    result += "; " + "; ".join((*decoded.warnings, *edition.warnings))[:160]
except Exception as error:
    result = f"{type(error).__name__}: {error}"[:200]
cpu = time.process_time() - start
print(f"{len(data)}\\t{cpu:.2f}\\t{before:.0f}\\t{peak_mb():.0f}\\t{result}")
"""


def copies(name: str, count: int) -> None:
    path = SHARED / f"{name}.txt"
    rows = []
    for times, mode, label in (
        (1, "same", f"1 × {name}"),
        (count, "same", f"{count} × {name}"),
        (count, "crlf", f"{count} × {name}, copies 2 on with CRLF"),
    ):
        done = subprocess.run(
            [sys.executable, "-c", CHILD, str(path), str(times), mode],
            capture_output=True,
            text=True,
            check=True,
            cwd=Path(__file__).resolve().parents[1],
        )
        size, cpu, before, peak, result = done.stdout.strip().split("\t", 4)
        grown = int(peak) - int(before)
        rows.append(
            (
                label,
                f"{int(size) / 1e6:.1f} MB",
                f"{cpu} s",
                f"{before} MB",
                f"{peak} MB",
                f"{grown} MB ({grown / (int(size) / 2**20):.2f}x the input)",
                result,
            )
        )
    print("\n#### Concatenated copies (a fresh process each; peak RSS is VmHWM)\n")
    print("RSS before reading includes the bytes of the file, already in memory.\n")
    headers = ["input", "size", "CPU", "RSS before reading", "peak RSS", "growth", "outcome"]
    print(table(headers, rows))


_HEAD = (
    "Invented Rules\n\nThese rules are effective as of May 1, 2020.\n\n"
    "1. Section\n\n100. Chapter\n\n100.1. A rule that goes on\n"
)


def others() -> None:
    """Inputs built to make the reader slow: each must take about as long as its size."""
    from rules_kb.ingest import models, parse

    long_number = "702." + "1" * 100_000
    cases = [
        (
            "hard-wrapped paragraph of 320,000 lines (9.6 MB)",
            lambda: parse.edition(_HEAD + "and on and on with more words\n" * 320_000),
        ),
        (
            "glossary term of 200,000 ', 100' (1 MB)",
            lambda: parse.edition(
                _HEAD + "\nGlossary\n\nTerm" + ", 100" * 200_000 + " x\n\nCredits\n\nNone.\n"
            ),
        ),
        ("rule number of 100,000 digits", lambda: models.normalise_number(long_number)),
        ("is_number of 100,000 digits", lambda: models.is_number(long_number)),
        (
            "credits of 10 MB",
            lambda: parse.edition(
                _HEAD + "\nGlossary\n\nTerm\nText.\n\nCredits\n\n" + "Someone.\n" * 1_000_000
            ),
        ),
    ]
    rows = []
    for label, work in cases:
        start = time.process_time()
        try:
            value = work()
            result = "read" if isinstance(value, Edition) else f"returned {value!r}"
        except RulesKbError as error:
            result = f"{type(error).__name__}: {error}"[:110]
        rows.append((label, f"{time.process_time() - start:.2f} s", result))
    print("\n#### Inputs made to be slow\n")
    print(table(["input", "CPU", "outcome"], rows))


RULES_KB = str(Path(sys.executable).parent / "rules-kb")


def _cli(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [RULES_KB, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )


def concurrency(readers: int = 70) -> None:
    """An ingest while searches and lookups run, and two ingests racing into one database;
    every process must succeed with the right answer, and none may print a traceback."""
    import json
    import tempfile

    files = sorted(SHARED.glob("*.txt"))
    folder = Path(tempfile.mkdtemp(prefix="hostile-"))
    db = str(folder / "busy.db")
    subprocess.run([RULES_KB, "ingest", *map(str, files[-2:]), "--db", db], capture_output=True)
    start = time.perf_counter()
    writer = _cli("ingest", *map(str, files[-30:-2]), "--db", db, "--json")
    launched: list[tuple[str, subprocess.Popen[str]]] = []
    while len(launched) < readers:
        kind = "search" if len(launched) % 7 < 2 else "rule"
        args = ["search", "trample"] if kind == "search" else ["rule", "702.19"]
        launched.append((kind, _cli(*args, "--db", db, "--json")))
        if len(launched) % 4 == 0:
            for _kind, process in launched[-4:]:
                process.wait()
    writer.communicate()
    counts = Counter()
    for kind, process in launched:
        out, err = process.communicate()
        right = process.returncode == 0 and "Traceback" not in err
        if right:
            document = json.loads(out)
            hit = document["hits"][0]["number"] if kind == "search" else document["number"]
            right = hit == "702.19"
        counts[kind, right] += 1
    elapsed = time.perf_counter() - start
    race_db = str(folder / "race.db")
    twelve = [str(path) for path in files[-12:]]
    first = _cli("ingest", *twelve, "--db", race_db, "--json", "--no-index")
    second = _cli("ingest", *reversed(twelve), "--db", race_db, "--json", "--no-index")
    raced = []
    for process in (first, second):
        out, err = process.communicate()  # before returncode, which is None until it ends
        raced.append((process.returncode, out, err))
    stored = subprocess.run(
        [RULES_KB, "editions", "--db", race_db, "--json"], capture_output=True, text=True
    )
    dates = sorted(edition["edition"] for edition in json.loads(stored.stdout or "[]"))
    both = dates == sorted(Path(path).stem for path in twelve) and all(
        code == 0 and "Traceback" not in err for code, _out, err in raced
    )
    rows = [
        ["lookups during an ingest of 28 editions", counts["rule", True], counts["rule", False]],
        ["searches during the same ingest", counts["search", True], counts["search", False]],
        ["two ingests of 12 editions racing", 2 if both else 0, 0 if both else 2],
    ]
    print(f"\n#### Concurrent processes ({elapsed:.0f} s for the ingest and its readers)\n")
    print(table(["processes", "right answer", "failed or wrong"], rows))


#: Queries made to take long: each must answer or fail in one line, quickly.
HOSTILE = [
    ["search", "trample~9"],
    ["search", "trample" * 14000],
    ["search", " ".join(["spell or ability"] * 20)],
    ["search", '"spell or ability"'],
    ["rule", "702." + "9" * 100000],
    ["rule", "9" * 5000],
    ["define", "x" * 20000],
    ["show", "7" * 5000],
    ["history", "a" * 10000],
]


def hostile_queries(db: str) -> None:
    """The longest time any hostile query takes, each in a fresh process."""
    rows = []
    for args in HOSTILE:
        start = time.perf_counter()
        done = subprocess.run([RULES_KB, *args, "--db", db], capture_output=True, text=True)
        seconds = time.perf_counter() - start
        lines = done.stderr.strip().splitlines()
        shown = " ".join(part if len(part) < 24 else part[:20] + "…" for part in args)
        outcome = "answered" if done.returncode == 0 else f"exit {done.returncode}"
        if done.returncode and lines:
            outcome += f": {lines[-1][:70]}"
        rows.append([f"`{shown}`", f"{seconds:.2f} s", outcome, len(lines) <= 1])
    slowest = max(float(row[1].split()[0]) for row in rows)
    print(f"\n#### Hostile queries (fresh processes; the slowest took {slowest:.2f} s)\n")
    print(table(["query", "wall", "outcome", "one line"], rows))


def _cpu(args: list[str], db: str) -> float:
    """CPU seconds (user + system) of one fresh `rules-kb` process."""
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([RULES_KB, *args, "--db", db], capture_output=True, text=True, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def _median_cpu(args: list[str], db: str, runs: int = 3) -> float:
    return sorted(_cpu(args, db) for _ in range(runs))[runs // 2]


async def _mcp_cases(db: str) -> list[list[object]]:
    """Each hostile MCP call beside a quick one, both timed from the client."""
    import asyncio
    import os

    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    from rules_kb.mcp.server import MAX_ANSWER

    params = StdioServerParameters(
        command=sys.executable, args=["-m", "rules_kb", "--db", db, "mcp"], env={**os.environ}
    )
    citations = " ".join(f"rule 702.{i % 190 + 1}b" for i in range(2000))
    cases = [
        ("editions, a 1,000,000-character edition", "editions", {"edition": "x" * 1_000_000}),
        ("rule, a 1,000,000-character number", "rule", {"number": "7" * 1_000_000}),
        ("cite, 2,000 citations", "cite",
         {"text": citations, "as_of": "2005-01-01"}),
        ("diff of the 2009 overhaul", "diff", {"old": "2009-05-01", "new": "2009-07-11"}),
        ("search, limit -5", "search", {"query": "trample", "limit": -5}),
        ("history, a miss", "history", {"number_or_term": "qqqq"}),
    ]  # fmt: skip
    rows: list[list[object]] = []
    started = time.perf_counter()
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        ready = time.perf_counter() - started
        rows.append(["initialize", f"{ready:.2f} s", "", "", "", "under 1 s: " + _yes(ready < 1)])
        start = time.perf_counter()
        await session.call_tool("editions", {})
        first = time.perf_counter() - start
        rows.append(["the first call (the SDK loads after initialize)", f"{first:.2f} s", "", "",
                     "answered", _yes(first < 2)])  # fmt: skip

        async def timed(tool: str, arguments: dict[str, Any]) -> tuple[float, Any]:
            start = time.perf_counter()
            result = await session.call_tool(tool, arguments)
            return time.perf_counter() - start, result

        for label, tool, arguments in cases:
            (slow, result), (quick, _) = await asyncio.gather(
                timed(tool, arguments), timed("rule", {"number": "702.19b"})
            )
            text = result.content[0].text
            outcome = ("error: " + text[:60]) if result.is_error else "answered"
            one_line = not result.is_error or "\n" not in text
            met = slow < 2 and quick < 1 and len(text) <= MAX_ANSWER and one_line
            rows.append([label, f"{slow:.2f} s", f"{quick:.2f} s", f"{len(text):,}",
                         outcome, _yes(met)])  # fmt: skip
    return rows


def _cancelled(db: str) -> list[object]:
    """A `cite` of 20,000 citations that its client cancels after 0.1 s: how long its
    worker goes on after the cancel, against the time the whole call takes."""
    import contextlib

    import anyio

    import rules_kb
    from rules_kb.api import KnowledgeBase
    from rules_kb.mcp.server import server

    ended: list[float] = []
    original = KnowledgeBase.given_up_when

    @contextlib.contextmanager
    def watched(self: KnowledgeBase, given_up: Any) -> Any:
        try:
            with original(self, given_up):
                yield
        finally:
            ended.append(time.perf_counter())

    arguments = {"text": " ".join(f"rule 702.{i % 190 + 1}b" for i in range(20_000)),
                 "as_of": "2005-01-01"}  # fmt: skip

    async def scenario() -> tuple[float, float]:
        app = server(rules_kb.open(db))
        start = time.perf_counter()
        await app.call_tool("cite", arguments)
        whole = time.perf_counter() - start
        ended.clear()
        with anyio.move_on_after(0.1):
            await app.call_tool("cite", arguments)
        cancelled = time.perf_counter()
        while not ended:
            await anyio.sleep(0.001)
        return whole, ended[0] - cancelled

    KnowledgeBase.given_up_when = watched  # type: ignore[method-assign]
    try:
        whole, after = anyio.run(scenario)
    finally:
        KnowledgeBase.given_up_when = original  # type: ignore[method-assign]
    met = 0 <= after < whole / 4
    return ["MCP `cite` of 20,000 citations, cancelled after 0.1 s", f"{after * 1000:.0f} ms",
            f"the whole call: {whole:.2f} s", "its worker stops", _yes(met)]  # fmt: skip


def _yes(met: bool) -> str:
    return "yes" if met else "**no**"


UTF16_EDITIONS = ("2013-05-01", "2016-08-26", "2022-11-18")


def utf16_shifts(count: int, seed: int = 1) -> None:
    """One byte inserted into or lost from each UTF-16 edition, `count` times each: the
    text must be realigned (only records around the byte differ, and a warning says so)
    or refused, never stored one byte out of place."""
    rows = []
    for name in UTF16_EDITIONS:
        data, original, _encoding = _original(name)
        rng = random.Random(f"{seed}:{name}:shift")
        seen: Counter[str] = Counter()
        start = time.perf_counter()
        for index in range(count):
            at = rng.randrange(2, len(data))
            if index % 2:
                mutant = data[:at] + bytes([rng.randrange(256)]) + data[at:]
            else:
                mutant = data[:at] + data[at + 1 :]
            kind, _warned = outcome(mutant, original)
            seen[kind] += 1
        rows.append([
            name, count, seen["handled-same"], seen["handled-local"], seen["handled-warned"],
            seen["refused"], seen["silent"], seen["traceback"],
            f"{time.perf_counter() - start:.1f} s",
        ])  # fmt: skip
    print("\n#### UTF-16: one byte inserted or lost (half each)\n")
    headers = ["edition", "mutants", "same texts", "realigned, local", "further, warned"]
    print(table([*headers, "refused", "silent", "tracebacks", "wall"], rows))


def pressure(db: str) -> None:
    """The pressure issue's cases: MCP calls beside a quick one, cite and misses against
    their small or found counterparts, a FIFO, Datasette's costliest query, UTF-16 shifts."""
    import asyncio
    import os
    import tempfile

    utf16_shifts(40)

    rows = asyncio.run(_mcp_cases(db))
    print("\n#### MCP: each call beside a quick `rule 702.19b` (wall, from the client)\n")
    print(table(["call", "call", "quick call", "answer chars", "outcome", "met"], rows))
    with tempfile.TemporaryDirectory() as work:
        folder = Path(work)
        for count in (20, 2000):
            text = " ".join(f"rule 702.{i % 190 + 1}b" for i in range(count))
            (folder / f"cite{count}.md").write_text(text, encoding="utf-8")
        cite20 = _median_cpu(["cite", str(folder / "cite20.md"), "--as-of", "2005-01-01"], db)
        cite2000 = _median_cpu(["cite", str(folder / "cite2000.md"), "--as-of", "2005-01-01"], db)
        hit = _median_cpu(["history", "702.19b"], db)
        miss = _median_cpu(["history", "qqqq"], db)
        fifo = folder / "fifo.txt"
        os.mkfifo(fifo)
        start = time.perf_counter()
        done = subprocess.run(
            [RULES_KB, "ingest", str(fifo), "--db", str(folder / "x.db")],
            capture_output=True, text=True, timeout=30, check=False,
        )  # fmt: skip
        fifo_wall = time.perf_counter() - start
    rows2 = [
        ["`cite` of 2,000 citations / of 20", f"{cite2000:.2f} s / {cite20:.2f} s",
         f"{cite2000 / cite20:.1f}x", "≤ 5x", _yes(cite2000 / cite20 <= 5)],
        ["`history qqqq` (a miss) / `history 702.19b`", f"{miss:.2f} s / {hit:.2f} s",
         f"{miss / hit:.1f}x", "≤ 3x", _yes(miss / hit <= 3)],
        ["`ingest` of a FIFO", f"{fifo_wall:.2f} s wall", done.stderr.strip()[:60],
         "refused under 1 s", _yes(fifo_wall < 1 and done.returncode == 1)],
    ]  # fmt: skip
    rows2.append(_cancelled(db))
    rows2.append(_datasette(db))
    print("\n#### Fresh processes, CPU (median of 3)\n")
    print(table(["case", "measured", "ratio or outcome", "target", "met"], rows2))


def _datasette(db: str) -> list[object]:
    """`rules-kb serve` asked the costliest query: its time and the server's peak memory."""
    import signal
    import socket

    import httpx

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen(
        [RULES_KB, "serve", "--db", db, "--port", str(port)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(120):
            try:
                httpx.get(base + "/", timeout=2)
                break
            except httpx.HTTPError:
                time.sleep(0.5)
        sql = "select length(randomblob(1000000000)), length(randomblob(1000000000))"
        start = time.perf_counter()
        answer = httpx.get(f"{base}/{Path(db).stem}.json", params={"sql": sql}, timeout=60)
        wall = time.perf_counter() - start
        peak = 0
        for line in Path(f"/proc/{server.pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                peak = int(line.split()[1]) // 1024
    finally:
        os_killpg = __import__("os").killpg
        os_killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
    met = wall < 5 and peak < 300 and answer.status_code < 500
    return ["Datasette: two `randomblob(1000000000)`", f"{wall:.2f} s, {peak} MB peak",
            f"HTTP {answer.status_code}", "refused under 5 s, 300 MB", _yes(met)]  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mutants", type=int, default=100, help="mutants per edition")
    parser.add_argument("--seed", type=int, default=1, help="random seed")
    parser.add_argument("--copies", type=int, default=217, help="copies in the big file")
    parser.add_argument("--db", help="a database of every edition, for the hostile queries")
    parser.add_argument(
        "--pressure", action="store_true", help="only the MCP, cite, miss and FIFO cases (--db)"
    )
    args = parser.parse_args()
    if args.pressure:
        if not args.db:
            sys.exit("--pressure needs --db")
        pressure(args.db)
        return
    if not SHARED.is_dir():
        sys.exit(f"no editions in {SHARED}")
    names = ["2018-04-27", "2026-08-07", cp1252_edition()]
    # and one of each other kind of file: UTF-16, Mac Roman, hard-wrapped ASCII
    names += ["2022-11-18", "2004-02-01", "1999-11-01"]
    mutation_pass(names, args.mutants, args.seed)
    copies("2026-08-07", args.copies)
    others()
    concurrency()
    if args.db:
        hostile_queries(args.db)
        pressure(args.db)


if __name__ == "__main__":
    sys.exit(common.run(main, "hostile.py"))
