"""Output of `ingest` and `update`."""

from __future__ import annotations

from collections.abc import Sequence

from rules_kb.cli.output import Screen
from rules_kb.cli.settings import Settings
from rules_kb.records.outcomes import IngestOutcome, IngestResult

_STYLE = {"added": "added", "replaced": "changed", "unchanged": "dim", "failed": "error"}


def printed(outcomes: Sequence[IngestOutcome], settings: Settings, *, as_json: bool) -> None:
    """What an ingest prints on stdout: the outcomes as JSON, or their summary."""
    if as_json:
        from rules_kb.cli.output import json_out

        json_out([outcome.as_json() for outcome in outcomes])
        return
    from rules_kb.cli.present import screen

    out = screen(settings)
    summary(out, outcomes)
    out.flush()


def summary(out: Screen, outcomes: Sequence[IngestOutcome]) -> None:
    """One line per file (what it became), its warnings wrapped under it (an unchanged
    file only counts them: they were shown when it went in), then the totals."""
    width = max((len(o.source) for o in outcomes), default=4)
    width = min(width, max(12, out.table_width - 56))  # (date, status, counts: 56)
    counts: dict[str, int] = {}
    for outcome in outcomes:
        result = outcome.result
        status = result.status if result else "failed"
        counts[status] = counts.get(status, 0) + 1
        name = outcome.source if len(outcome.source) <= width else outcome.source[: width - 1] + "…"
        if result is None:
            out.add((f"{'':10}  ", ""), f"{name:<{width}}  ", (status, "error"), wrap=False)
            out.add((outcome.error or "", "error"), indent=12, hang=2, width=out.table_width)
            continue
        counted = f"{result.rules} rules, {result.examples} ex., {result.glossary} gloss."
        out.add(
            (result.date, "number"),
            f"  {name:<{width}}  ",
            (f"{status:<9}", _STYLE[status]),
            (f" {counted}", "dim"),
            wrap=False,
        )
        if status == "unchanged" and result.warnings:
            many = len(result.warnings)
            said = f"{many} warning{'s' if many > 1 else ''} from its first ingest"
            out.add(
                ("! ", "warn"), (f"{said}: `rules-kb editions` lists them", "dim"),
                indent=12, width=out.table_width,
            )  # fmt: skip
            continue
        for warning in result.warnings:
            out.add(("! ", "warn"), (warning, "warn"), indent=12, hang=2, width=out.table_width)
    out.add(", ".join(f"{count} {status}" for status, count in sorted(counts.items())))


def update_result(out: Screen, result: IngestResult, name: str) -> None:
    """One line saying what an update did, then its warnings."""
    if result.status == "unchanged":
        out.add(f"edition {result.date} is already present ({name}); nothing changed")
        return
    out.add(
        (result.status, _STYLE[result.status]),
        f" edition {result.date} from {name}: {result.rules} rules,"
        f" {result.examples} examples, {result.glossary} glossary entries",
    )
    for warning in result.warnings:
        out.add(("warning: ", "warn"), (warning, "dim"), hang=2)
