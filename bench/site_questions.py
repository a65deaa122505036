"""Benchmark of the web edition's search on the labelled questions
(tests/fixtures/questions.toml), next to `rules-kb search` on the same questions.

The site of the latest edition is built into a temporary folder (or `--site` names one
built already) and each question is typed into its search through headless Chromium
(Debian's, with Playwright); the rule numbers of its list are scored as
bench/questions.py scores search's: an answer (or its parent or a subrule) first, in the
top 3, in the top 10.

    python bench/site_questions.py --db rules.db [--site FOLDER]
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import table
from bench.questions import SPLITS, load, ours, scores

ASK = """async (questions) => {
  const found = [];
  for (const question of questions) {
    const hits = await window.rulesKbSearch(question);
    found.push(hits.filter((hit) => hit.k !== "g").map((hit) => hit.n));
  }
  return found;
}"""


def site_rankings(
    site: Path, questions: dict[str, list[str]]
) -> tuple[dict[str, list[list[str]]], float]:
    """The web edition's numbers for each question, by split, and the seconds per question."""
    from playwright.sync_api import sync_playwright

    chromium = shutil.which("chromium")
    if chromium is None:
        raise SystemExit("Debian's chromium is needed (apt-get install chromium)")
    edition = sorted(p.name for p in (site / "e").iterdir())[-1]
    found: dict[str, list[list[str]]] = {}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        page = browser.new_page()
        page.goto((site / "e" / edition / "100.html").as_uri())
        page.evaluate("window.rulesKbSearch('trample')")  # load the index before timing
        started = time.perf_counter()
        for split, asked in questions.items():
            found[split] = page.evaluate(ASK, asked)
        seconds = time.perf_counter() - started
        browser.close()
    return found, seconds / max(1, sum(len(q) for q in questions.values()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, required=True)
    parser.add_argument("--site", type=Path)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        site = args.site
        if site is None:
            site = Path(work) / "site"
            subprocess.run(
                [sys.executable, "-m", "rules_kb", "--db", str(args.db), "site", str(site)],
                check=True, capture_output=True,
            )  # fmt: skip
        cases = {split: load(split) for split in SPLITS}
        questions = {split: [str(c["q"]) for c in found] for split, found in cases.items()}
        ranked, per_question = site_rankings(site, questions)
    search, _show, _latest = ours(args.db)
    cli = {split: [search(q)[:10] for q in questions[split]] for split in SPLITS}
    web = {split: [numbers[:10] for numbers in ranked[split]] for split in SPLITS}
    rows = [
        [split, len(cases[split]), *scores(web[split], cases[split])[:3],
         *scores(cli[split], cases[split])[:3]]
        for split in SPLITS
    ]  # fmt: skip
    every = [c for split in SPLITS for c in cases[split]]
    web_all = [found for split in SPLITS for found in web[split]]
    cli_all = [found for split in SPLITS for found in cli[split]]
    rows.append(["**all**", len(every), *scores(web_all, every)[:3], *scores(cli_all, every)[:3]])
    headers = ["split", "questions", "web: first", "web: top 3", "web: top 10",
               "search: first", "search: top 3", "search: top 10"]  # fmt: skip
    print("#### The web edition's search against `rules-kb search` (lenient)\n")
    print(table(headers, rows))
    print(f"\nThe web edition: {per_question * 1000:.1f} ms per question in Chromium, warm.")


if __name__ == "__main__":
    main()
