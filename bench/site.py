"""Benchmark for `rules-kb site`: build time and size, default and --editions all.

    python bench/site.py [--db PATH] [--no-all] [--no-shots]

Without --db it ingests every shared edition into a temporary database first. Each build
is one `rules-kb site` process (as a user runs it) into bench/out/ (never committed);
the stage times are the ones the command reports with --json. Screenshots of the
default build, at 360 and 1280 px wide, light and dark, go to bench/out/screenshots/.
Prints markdown tables; nothing here fails when a target is missed.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

import common  # noqa: E402
from common import table, verdict  # noqa: E402

EDITIONS = REPO.parent / "shared" / "cr" / "editions"
RULES_KB = str(Path(sys.executable).parent / "rules-kb")
OUT = REPO / "bench" / "out"
TARGET_S = 120.0
#: What the first search downloaded when the web edition's issue was filed (1.76 MB).
FIRST_SEARCH_MB = 1.76
#: Pages a person should look at, with the part of the page that matters.
SHOTS = ("e/{latest}/702.html#702.19b", "rule/702.19b.html", "index.html", "editions.html",
         "diff/{previous}_{latest}.html", "e/{latest}/glossary.html")  # fmt: skip


def build(db: Path, out: Path, *extra: str) -> tuple[float, dict[str, Any]]:
    """One `rules-kb site` process: its wall time and its --json report."""
    start = time.perf_counter()
    done = subprocess.run(
        [RULES_KB, "--db", str(db), "site", str(out), "--json", *extra],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    wall = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"rules-kb site failed: {done.stderr.strip()}")
    return wall, json.loads(done.stdout)


def megabytes(count: int) -> str:
    return f"{count / 1_000_000:.1f} MB"


def first_search(out: Path) -> int:
    """Bytes the first search in a page downloads: the search index and MiniSearch."""
    files = [out / "static" / "search-index.js", *out.glob("static/vendor/minisearch-*/*.js")]
    return sum(path.stat().st_size for path in files)


def sizes(out: Path) -> list[list[object]]:
    """Files and bytes by top-level folder."""
    rows: dict[str, list[int]] = {}
    for path in out.rglob("*"):
        if path.is_file():
            top = path.relative_to(out).parts[0] if len(path.relative_to(out).parts) > 1 else "."
            row = rows.setdefault(top, [0, 0])
            row[0] += 1
            row[1] += path.stat().st_size
    return [[f"`{name}/`", count, megabytes(size)] for name, (count, size) in sorted(rows.items())]


def report(title: str, wall: float, found: dict[str, Any], out: Path, target: bool) -> str:
    rows: list[list[object]] = [
        ["wall time (one process)", f"{wall:.1f} s",
         f"within {TARGET_S:.0f} s" if target else "", verdict(wall <= TARGET_S) if target else ""],
        ["editions with pages", len(found["editions"]), "", ""],
        ["files", found["files"], "", ""],
        ["size", megabytes(found["bytes"]), "", ""],
        ["the first search downloads (its index and MiniSearch)", megabytes(first_search(out)),
         f"under {FIRST_SEARCH_MB} MB", verdict(first_search(out) < FIRST_SEARCH_MB * 1e6)],
        *[[f"pages: {kind}", count, "", ""] for kind, count in found["pages"].items()],
    ]  # fmt: skip
    stages = [[name, f"{seconds:.1f} s"] for name, seconds in found["seconds"].items()]
    return "\n\n".join(
        [
            f"#### {title}",
            table(["measure", "value", "target", "met"], rows),
            "Where the time goes (API calls and rendering, as the command reports):",
            table(["stage", "seconds"], stages),
            "Size by folder:",
            table(["folder", "files", "size"], sizes(out)),
        ]
    )


def screenshots(out: Path, found: dict[str, Any], dates: list[str]) -> str:
    """Screenshots for a person to look at; says why when it cannot take them."""
    chromium = shutil.which("chromium")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return "_screenshots skipped: playwright is not installed_"
    if chromium is None:
        return "_screenshots skipped: chromium is not installed_"
    latest = found["editions"][0]
    previous = dates[dates.index(latest) - 1]
    folder = OUT / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    taken = 0
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--no-first-run"],
        )  # fmt: skip
        for scheme in ("light", "dark"):
            for width in (360, 1280):
                context = browser.new_context(
                    viewport={"width": width, "height": 800}, color_scheme=scheme
                )
                page = context.new_page()
                for shot in SHOTS:
                    name = shot.format(latest=latest, previous=previous)
                    path, _, fragment = name.partition("#")
                    page.goto((out / path).as_uri() + (f"#{fragment}" if fragment else ""))
                    stem = name.replace("/", "_").replace("#", "_").replace(".html", "")
                    page.screenshot(path=str(folder / f"{stem}-{width}-{scheme}.png"))
                    taken += 1
                page.goto((out / "index.html").as_uri())
                page.locator("#q").press_sequentially("trampel", delay=20)
                page.locator('#hits[data-query="trampel"] a').first.wait_for()
                page.screenshot(path=str(folder / f"search-trampel-{width}-{scheme}.png"))
                taken += 1
                context.close()
        browser.close()
    return f"_{taken} screenshots in `{folder.relative_to(REPO)}/`_"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--db", type=Path, help="a database with every edition")
    parser.add_argument("--no-all", action="store_true", help="skip the --editions all build")
    parser.add_argument("--no-shots", action="store_true", help="take no screenshots")
    args = parser.parse_args()
    db = args.db
    if db is None:
        db = Path(tempfile.mkdtemp(prefix="rules-kb-bench-")) / "all.db"
        subprocess.run([RULES_KB, "--db", str(db), "ingest", str(EDITIONS), "--no-index"],
                       check=True, capture_output=True)  # fmt: skip
    dates = json.loads(
        subprocess.run([RULES_KB, "--db", str(db), "editions", "--json"],
                       capture_output=True, text=True, check=True).stdout
    )  # fmt: skip
    dates = sorted(record["edition"] for record in dates)
    print(f"Python {platform.python_version()}, {os.cpu_count()} CPUs, {len(dates)} editions\n")
    default = OUT / "site"
    wall, found = build(db, default)
    print(report("`rules-kb site` (default: the latest edition)", wall, found, default, True))
    print()
    if not args.no_shots:
        print(screenshots(default, found, dates))
        print()
    if not args.no_all:
        everything = OUT / "site-all"
        wall, found = build(db, everything, "--editions", "all")
        print(report("`rules-kb site --editions all`", wall, found, everything, False))


if __name__ == "__main__":
    sys.exit(common.run(main, "site.py"))
