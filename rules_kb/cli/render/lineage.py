"""Output of `where` and `cite`."""

from __future__ import annotations

from rules_kb.cli.output import Screen
from rules_kb.records import Citation, CitationReport, Where


def where(out: Screen, found: Where) -> None:
    """The counterpart of a rule in another edition, and each number it had on the way."""
    head = f"{found.number} ({found.from_edition})"
    if found.status == "removed":
        before = "" if found.removed_in == found.to_edition else f", before {found.to_edition}"
        out.add((head, "number"), f" was removed in {found.removed_in}{before}")
    elif found.status == "not_yet":
        out.add(
            (head, "number"),
            f" did not exist yet in {found.to_edition}: it appeared in {found.introduced_in}",
        )
    else:
        if found.to_edition < found.from_edition:  # looking back: what it was then
            verb = "was"
        else:
            verb = "is" if found.status in {"same", "changed"} else "became"
        via = found.via
        if via is not None and (via.edition, via.number) == (found.to_edition, found.now):
            verb = "was merged into" if found.status == "merged" else "was split off"
        elif via is not None and found.status == "merged":
            verb = f"was merged into {via.number} in {via.edition}, which is"
        elif via is not None and found.status == "split":
            verb = f"was split off {via.number} ({via.edition}), which was"
        out.add(
            (head, "number"), f" {verb} ", (str(found.now), "number"), f" in {found.to_edition}"
        )
        changed = "its wording changed on the way" if found.text_changed else "same wording"
        out.add((changed, "dim"), indent=2)
    for note in found.branch_notes:
        out.add((note, "dim"), indent=2, hang=2)
    if len(found.steps) > 1:
        out.add(("steps:", "dim"), indent=2)
        for step in found.steps:
            out.add((f"{step.edition}  ", "dim"), (step.number, "number"), indent=4)
    if found.homonym is not None:
        out.add(
            (f"note: {found.number} in {found.to_edition} is another rule: ", "warn"),
            (_opening(found.homonym), "warn"),
            indent=2,
            hang=2,
        )


_LABELS = {
    "current": ("current", "good"),
    "changed": ("changed since", "changed"),
    "moved": ("moved", "moved"),
    "removed": ("removed", "removed"),
    "unknown": ("unknown", "error"),
}


def citations(out: Screen, name: str, report: CitationReport, *, words: bool) -> None:
    """One line per citation: where it is, what it cites, what became of it."""
    stale = len(report.stale)
    out.add(
        (name, "bold"),
        (f"  written as of {report.as_of}, checked against {report.to}:"
         f" {len(report.citations)} citations, {stale} stale", "dim"),
    )  # fmt: skip
    for citation in report.citations:
        out.add(*_line(citation, report), indent=2, hang=4)
        if citation.quote_status is not None:
            label, style = _QUOTES[citation.quote_status]
            out.add((label, style), (f" “{citation.quote}”", "dim"), indent=10, hang=2)
        if words and citation.status in {"changed", "moved"} and citation.text_changed:
            out.words(citation.words(), indent=6, hang=0)


_QUOTES = {
    "quote_ok": ("quotation right then and now:", "good"),
    "quote_changed": ("quotation no longer what it says (it was then):", "changed"),
    "quote_not_found": ("quotation not what it said then:", "error"),
}


def _line(citation: Citation, report: CitationReport) -> list[tuple[str, str]]:
    label, style = _LABELS[citation.status]
    where = f"{citation.line}:{citation.column}"
    spans = [(f"{where:<8}", "dim"), (citation.number, "number"), ("  ", ""), (label, style)]
    if citation.status == "moved":
        spans.append((f" to {citation.now}", style))
        if citation.text_changed:
            spans.append((", wording changed", "dim"))
    elif citation.status == "removed":
        spans.append((f" in {citation.removed_in}", style))
    elif citation.status == "unknown":
        spans.append((f": no such rule in {report.as_of}", "dim"))
    spans.append((f"  ({citation.raw})", "dim"))
    return spans


def _opening(text: str, words: int = 12) -> str:
    """The first words of a rule's text."""
    parts = text.split()
    return " ".join(parts) if len(parts) <= words else " ".join(parts[:words]) + " …"
