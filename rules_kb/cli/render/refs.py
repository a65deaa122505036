"""Output of the reference commands: refs, check, graph."""

from __future__ import annotations

import sys
from pathlib import Path

from rules_kb.cli.output import Screen, Span
from rules_kb.records import CheckReport, Edge, References


def refs(out: Screen, result: References) -> None:
    """What a rule cites and what cites it, with the citing text around each reference."""
    out.add((f"References, edition {result.edition}", "dim"))
    missing = [] if result.exists else [(" (not in this edition)", "error")]
    out.add((result.number, "number"), *missing)
    for title, entries in (("cites", result.cites), ("cited by", result.cited_by)):
        out.add((title, "bold"), f" ({len(entries)})" + ("" if entries else ": nothing"))
        for entry in entries:
            out.add(*_entry_line(entry), indent=2, hang=4)


def _entry_line(entry: Edge) -> list[Span]:
    name = entry.key if entry.kind == "rule" else f"glossary: {entry.key}"
    spans: list[Span] = [(name, "number")]
    if not entry.exists:
        spans.append((" (dangling)", "error"))
    if entry.source == "example":
        spans.append((" (example)", "dim"))
    spans.append((f"  {entry.snippet}", "dim"))
    return spans


def check(out: Screen, result: CheckReport) -> None:
    """Dangling references and numbering anomalies, one per line."""
    total, resolved = result.references, result.resolved
    share = f"{100 * resolved / total:.2f}%" if total else "—"
    out.add((f"Check, edition {result.edition}", "dim"))
    out.add(
        f"{total} references, {resolved} resolved ({share}), {len(result.dangling)} dangling,"
        f" {len(result.anomalies)} numbering {_anomalies(len(result.anomalies))}"
    )
    if result.dangling:
        out.blank()
        out.add(("dangling references", "bold"))
        for item in result.dangling:
            out.add(
                (item.source, "number"),
                f"  {item.raw}",
                ("  → ", "dim"),
                item.target,
                indent=2,
                hang=4,
            )
    if result.anomalies:
        out.blank()
        out.add(("numbering anomalies", "bold"))
        for anomaly in result.anomalies:
            out.add((anomaly.number, "number"), f"  {anomaly.problem}", indent=2, hang=4)


def _anomalies(count: int) -> str:
    return "anomaly" if count == 1 else "anomalies"


def exported(text: str, output: Path | None) -> None:
    """An exported graph, to a file or stdout."""
    if output is None:
        sys.stdout.write(text)
    else:
        output.write_text(text, encoding="utf-8")
