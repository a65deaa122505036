"""Output of the lookups: editions, rule, define, show."""

from __future__ import annotations

from collections.abc import Sequence

from rules_kb.cli.output import Screen
from rules_kb.records import EditionRecord, GlossaryRecord, InForce, RuleRecord

_COUNTS = (("rules", 5), ("examples", 8), ("glossary", 8))


def editions(out: Screen, rows: Sequence[EditionRecord]) -> None:
    """The stored editions: one row each at 80 columns, warnings wrapped under the row."""
    width = out.table_width
    fixed = 10 + sum(2 + size for _, size in _COUNTS)
    longest = max((len(f"{r.set.code} {r.set.name}") for r in rows if r.set), default=3)
    room = max(12, min(longest, width - fixed - 2))
    out.add((f"{len(rows)} editions, newest first", "bold"))
    header = f"{'edition':<10}  {'set':<{room}}" + "".join(
        f"  {name:>{size}}" for name, size in _COUNTS
    )
    out.add((header.rstrip(), "dim"), wrap=False)
    for row in rows:
        release = f"{row.set.code} {row.set.name}" if row.set else ""
        if len(release) > room:
            release = release[: room - 1] + "…"
        counts = "".join(f"  {getattr(row, name):>{size}}" for name, size in _COUNTS)
        out.add((row.edition, "number"), f"  {release:<{room}}{counts}", wrap=False)
        notes = list(row.warnings)
        if row.unparsed:
            notes.insert(0, f"{row.unparsed} body lines not placed by the grammar")
        for note in notes:
            out.add(("! ", "warn"), (note, "warn"), indent=12, hang=2, width=width)


def rule(out: Screen, record: RuleRecord) -> None:
    """A rule with its children indented, its examples and what it cites, then its
    neighbours; every record of a repeated number, in document order."""
    out.add((f"Comprehensive Rules, edition {record.edition}{_span(record.in_force)}", "dim"))
    records = [record, *record.repeats]
    if record.repeats:
        out.add(
            (
                f"{record.edition} prints {record.number} {_times(len(records))}:"
                " each record follows, in document order",
                "warn",
            )
        )
    for index, item in enumerate(records):
        if index:
            out.blank()
        _node(out, item, 0)
        neighbours = [
            f"{label} {value}"
            for label, value in (("previous", item.previous), ("next", item.next))
            if value
        ]
        if neighbours:
            out.add((" · ".join(neighbours), "dim"))


def _times(count: int) -> str:
    return {2: "twice", 3: "three times"}.get(count, f"{count} times")


def _node(out: Screen, node: RuleRecord, depth: int) -> None:
    indent = 2 * depth
    if node.kind in {"section", "chapter"}:
        out.add((f"{node.number}. ", "heading"), (node.text, "heading"), indent=indent)
    else:
        hang = len(node.number) + 1
        first, *rest = node.text.split("\n")
        from rules_kb.cli.output import emphasis

        out.add((node.number, "number"), " ", *emphasis(first), indent=indent, hang=hang)
        for paragraph in rest:
            out.text(paragraph, indent=indent + hang)
    for example in node.examples:
        from rules_kb.cli.output import emphasis

        out.add(("Example: ", "italic"), *emphasis(example), indent=indent + 2, hang=2)
    if node.cites:
        out.add((f"cites {', '.join(node.cites)}", "dim"), indent=indent + 2, hang=2)
    for child in node.children:
        _node(out, child, depth + 1)


def definition(out: Screen, entry: GlossaryRecord) -> None:
    """A glossary entry, and the entries its "See X." points to."""
    out.add((f"Glossary, edition {entry.edition}{_span(entry.in_force)}", "dim"))
    if entry.match == "fuzzy":
        out.add((f"(no entry {entry.query!r}; the nearest is {entry.term!r})", "dim"))
    _entry(out, entry)
    for other in entry.see:
        out.blank()
        _entry(out, other)


def _entry(out: Screen, entry: GlossaryRecord) -> None:
    out.add((entry.term, "term"))
    out.text(entry.text, indent=2, hang=0)
    if entry.rules:
        out.add((f"rules: {', '.join(entry.rules)}", "dim"), indent=2, hang=2)


def heading_rule(out: Screen, term: str, record: RuleRecord) -> None:
    """A term the glossary lacks, answered by the rule it heads."""
    out.add(
        (f"{term!r} is not in the glossary of {record.edition}; it is rule {record.number}:", "dim")
    )
    rule(out, record)


def _span(in_force: InForce | None) -> str:
    """The header's ", in force until 2019-05-03" (or ", the latest, in force now");
    nothing when not known."""
    return "" if in_force is None else f", {in_force}"
