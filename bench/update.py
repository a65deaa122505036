"""Benchmarks for `rules-kb update` and the edition catalogue.

Run from the repository root with the virtualenv active:

    python bench/update.py [--repeats N]

It prints markdown tables. Everything runs against a loopback HTTP server
serving a real edition from ../shared: no internet. Baselines are measured in
the same run: a cold `rule` lookup with a date, and `rules-kb ingest` of the same
file that `update` downloads.
"""

from __future__ import annotations

import argparse
import http.server
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from functools import partial
from pathlib import Path

import common
from common import table

REPO = Path(__file__).resolve().parent.parent
EDITIONS = REPO.parent / "shared" / "cr" / "editions"
RULES_KB = str(Path(sys.executable).parent / "rules-kb")
EDITION = "2022-11-18"  # UTF-16 BE, 1.7 MB: the largest download in the set
FILE_NAME = "MagicCompRules 20221118.txt"


def env() -> dict[str, str]:
    """The child environment, without settings that skew timings."""
    child = dict(os.environ)
    for name in ("RULES_KB_DB", "PYTHONDEVMODE", "PYTHONPROFILEIMPORTTIME"):
        child.pop(name, None)
    return child


def timed(argv: Sequence[str]) -> float:
    """Wall time of one fresh process; fails loudly if the command fails."""
    start = time.perf_counter()
    subprocess.run(
        argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env(), check=True
    )
    return time.perf_counter() - start


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms"


def serve(root: Path) -> tuple[http.server.ThreadingHTTPServer, str]:
    """A loopback server for root: /rules.html links the edition with a bare space."""
    (root / "downloads").mkdir(parents=True)
    shutil.copy(EDITIONS / f"{EDITION}.txt", root / "downloads" / FILE_NAME)
    (root / "rules.html").write_text(f'<html><a href="downloads/{FILE_NAME}">TXT</a></html>')
    handler = partial(http.server.SimpleHTTPRequestHandler, directory=str(root))
    http.server.SimpleHTTPRequestHandler.log_message = lambda *args: None  # type: ignore[method-assign]
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


def bench_lookups(db: Path, repeats: int) -> str:
    """Cold `rule` lookups: by date (baseline), by set code, and latest; interleaved."""
    variants = {
        f"`rule 702.19 -e {EDITION}` (baseline)": ["-e", EDITION],
        "`rule 702.19 -e BRO` (reads the catalogue)": ["-e", "BRO"],
        "`rule 702.19` (latest)": [],
    }
    argvs = {
        label: [RULES_KB, "rule", "702.19", *extra, "--db", str(db)]
        for label, extra in variants.items()
    }
    for argv in argvs.values():
        timed(argv)  # warm caches; not counted
    samples: dict[str, list[float]] = {label: [] for label in argvs}
    for _ in range(repeats):
        for label, argv in argvs.items():
            samples[label].append(timed(argv))
    base = statistics.median(next(iter(samples.values())))
    rows = [
        [
            label,
            len(runs),
            ms(statistics.median(runs)),
            ms(max(runs)),
            f"{statistics.median(runs) / base:.2f}",
        ]
        for label, runs in samples.items()
    ]
    return "### Cold lookup with a set code\n\n" + table(
        ["command", "runs", "median", "max", "ratio to baseline"], rows
    )


def bench_catalogue(repeats: int) -> str:
    """Parsing data/editions.toml in process, and what importing the CLI loads."""
    sys.path.insert(0, str(REPO))
    from rules_kb.ingest import catalogue

    text = catalogue._catalogue_text()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        catalogue.parse(text)
        times.append(time.perf_counter() - start)
    watched = ("httpx", "tomllib", "rules_kb.ingest.catalogue", "rules_kb.ingest.fetch")
    probe = f"import sys, rules_kb.cli; print(*[m for m in {watched!r} if m in sys.modules])"
    loaded = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, env=env(), check=True
    )
    rows = [
        [
            "parse the catalogue (134 entries)",
            f"{statistics.median(times) * 1000:.2f} ms (median of {repeats})",
        ],
        [
            "modules loaded by `import rules_kb.cli` (httpx, tomllib, catalogue, fetch)",
            loaded.stdout.strip() or "none",
        ],
    ]
    return "### Catalogue\n\n" + table(["measure", "value"], rows)


def bench_update(base: str, work: Path, repeats: int) -> str:
    """update (new database), update again (already present), and ingest of the same file."""
    source = EDITIONS / f"{EDITION}.txt"
    samples: dict[str, list[float]] = {"ingest": [], "update": [], "again": []}
    for index in range(repeats):
        ingest_db, update_db = work / f"ingest{index}.db", work / f"update{index}.db"
        samples["ingest"].append(timed([RULES_KB, "ingest", str(source), "--db", str(ingest_db)]))
        argv = [RULES_KB, "update", "--page", f"{base}/rules.html", "--db", str(update_db)]
        samples["update"].append(timed(argv))
        samples["again"].append(timed(argv))
    base_median = statistics.median(samples["ingest"])
    labels = {
        "ingest": f"`ingest {EDITION}.txt` (baseline, local file)",
        "update": "`update --page …` into a new database (page + 1.7 MB download + ingest)",
        "again": "`update --page …` again (already present, nothing written)",
    }
    rows = [
        [
            labels[key],
            len(runs),
            ms(statistics.median(runs)),
            ms(max(runs)),
            f"{statistics.median(runs) / base_median:.2f}",
        ]
        for key, runs in samples.items()
    ]
    return f"### Update from a loopback server ({EDITION}, UTF-16 BE)\n\n" + table(
        ["command", "runs", "median", "max", "ratio to ingest"], rows
    )


def main() -> None:
    """Run every measurement and print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--repeats", type=int, default=9)
    args = parser.parse_args()
    if not EDITIONS.is_dir():
        sys.exit(f"no editions at {EDITIONS}")
    with tempfile.TemporaryDirectory(prefix="rules-kb-bench-update-") as tmp:
        work = Path(tmp)
        server, base = serve(work / "site")
        try:
            lookup_db = work / "lookup.db"
            files = [str(EDITIONS / f"{EDITION}.txt"), str(EDITIONS / "2026-08-07.txt")]
            ingest = [RULES_KB, "ingest", *files, "--db", str(lookup_db)]
            subprocess.run(ingest, check=True, capture_output=True, env=env())
            python = sys.version.split()[0]
            print(f"Python {python}, {os.cpu_count()} CPUs, {args.repeats} runs each\n")
            print(bench_update(base, work, args.repeats) + "\n")
            print(bench_lookups(lookup_db, args.repeats * 2) + "\n")
            print(bench_catalogue(args.repeats * 20))
        finally:
            server.shutdown()
            server.server_close()


if __name__ == "__main__":
    sys.exit(common.run(main, "update.py"))
