"""Decode and parse CPU time over every shared edition, by stage.

    python bench/parse.py [--runs N]

Prints markdown tables: the totals of `decode.decode` and `parse.edition` (CPU seconds,
time.process_time, best of N runs), then where the time goes inside each. The
breakdown calls the stages one by one, as the two functions do; its sum may differ a
little from the totals.
"""

from __future__ import annotations

import argparse
import gc
import platform
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import common
from common import table

from rules_kb.ingest import decode, parse

SHARED = Path(__file__).resolve().parents[2] / "shared" / "cr" / "editions"


def cpu(work: Callable[[], Any]) -> tuple[float, Any]:
    """CPU seconds of one call, with the collector run before it."""
    gc.collect()
    start = time.process_time()
    result = work()
    return time.process_time() - start, result


def best(runs: int, work: Callable[[], Any]) -> float:
    return min(cpu(work)[0] for _ in range(runs))


def decode_stages(datas: list[bytes]) -> dict[str, float]:
    """The stages of decode.decode, timed across all files."""
    spent = dict.fromkeys(["bytes to text", "mojibake repair", "line endings", "checks"], 0.0)
    for data in datas:
        warnings: list[str] = []
        start = time.process_time()
        read = decode._decode_bytes(decode._first_copy(data, warnings), warnings)
        t1 = time.process_time()
        text = decode._repair(read.text, warnings)
        t2 = time.process_time()
        text = decode._undouble_line_breaks(decode.normalise_newlines(text), warnings)
        t3 = time.process_time()
        decode._check_text(text)
        decode._report_damage(text, read, warnings)
        t4 = time.process_time()
        for name, seconds in zip(spent, (t1 - start, t2 - t1, t3 - t2, t4 - t3), strict=True):
            spent[name] += seconds
    return spent


def parse_stages(texts: list[str]) -> dict[str, float]:
    """The stages of parse.edition, timed across all texts."""
    spent = dict.fromkeys(["date and second copies", "front matter", "line lexer", "nesting"], 0.0)
    for text in texts:
        warnings: list[str] = []
        start = time.process_time()
        parse.effective_date(text)
        text = parse._first_copy(text, warnings)
        t1 = time.process_time()
        lines = text.split("\n")
        body_start = parse._body_start(lines)
        parse._title(lines)
        parse._intro(lines, body_start)
        lexer = parse.LineLexer(lines, body_start, warnings)
        t2 = time.process_time()
        logical = list(lexer.logical_lines())
        t3 = time.process_time()
        parse.Nester().nest(logical)
        t4 = time.process_time()
        for name, seconds in zip(spent, (t1 - start, t2 - t1, t3 - t2, t4 - t3), strict=True):
            spent[name] += seconds
    return spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="runs of each total (best counts)")
    args = parser.parse_args()
    paths = sorted(SHARED.glob("*.txt"))
    if not paths:
        sys.exit(f"no editions in {SHARED}")
    datas = [path.read_bytes() for path in paths]
    size = sum(len(data) for data in datas) / 1e6
    texts = [decode.decode(data).text for data in datas]
    parse.edition(texts[-1])  # warm up: first-call imports and caches

    decode_total = best(args.runs, lambda: [decode.decode(data) for data in datas])
    parse_total = best(args.runs, lambda: [parse.edition(text) for text in texts])
    print(f"Python {platform.python_version()}, {platform.machine()}, {len(paths)} editions,")
    print(f"{size:.1f} MB; CPU seconds (time.process_time), best of {args.runs} runs\n")
    print("#### Totals\n")
    rows = [
        ("decode (`decode.decode`)", f"{decode_total:.2f}", f"{size / decode_total:.1f} MB/s"),
        ("parse (`parse.edition`)", f"{parse_total:.2f}", f"{size / parse_total:.1f} MB/s"),
        ("decode + parse", f"{decode_total + parse_total:.2f}", ""),
    ]
    print(table(["stage", "CPU s", "throughput"], rows))
    for title, spent in (
        ("decode", decode_stages(datas)),
        ("parse", parse_stages(texts)),
    ):
        print(f"\n#### Inside {title} (one run)\n")
        total = sum(spent.values())
        print(
            table(
                ["stage", "CPU s", "share"],
                [(name, f"{s:.2f}", f"{s / total:.0%}") for name, s in spent.items()],
            )
        )


if __name__ == "__main__":
    sys.exit(common.run(main, "parse.py"))
