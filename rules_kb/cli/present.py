"""How a command's answer is printed, in the chosen format; shared by the Typer commands
and the fast path (`rules_kb.cli.fast`), so it imports neither Typer nor, in a pipe, rich."""

from __future__ import annotations

import sys
from enum import StrEnum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rules_kb.cli.output import Screen
    from rules_kb.cli.settings import Settings
    from rules_kb.records import Answer, GlossaryRecord, RuleRecord, Shown
    from rules_kb.records.search import Results


class Format(StrEnum):
    """How a lookup is printed."""

    text = "text"
    json = "json"
    markdown = "markdown"


def screen(settings: Settings) -> Screen:
    """The output of a command (paged unless --no-pager)."""
    from rules_kb.cli.output import Screen

    return Screen(pager=settings.pager)


def show_rule(
    record: RuleRecord, form: Format, settings: Settings, *, split: bool, term: str | None = None
) -> None:
    """A rule in the chosen format (`term`: the glossary lacked it, this rule answers)."""
    if form is Format.json:
        from rules_kb.cli.output import json_out

        document = record.as_json()
        if term is not None:
            document["match"] = "rule"
        json_out(document)
    elif form is Format.markdown:
        from rules_kb.records import markdown

        print_markdown(markdown.rule_blocks(record), record.edition, split=split)
    else:
        from rules_kb.cli.render import lookup as render

        out = screen(settings)
        if term is not None:
            render.heading_rule(out, term, record)
        else:
            render.rule(out, record)
        out.flush()


def show_entry(entry: GlossaryRecord, form: Format, settings: Settings, *, split: bool) -> None:
    """A glossary entry in the chosen format."""
    if form is Format.json:
        from rules_kb.cli.output import json_out

        json_out(entry.as_json())
    elif form is Format.markdown:
        from rules_kb.records import markdown

        print_markdown(markdown.glossary_blocks(entry), entry.edition, split=split, what="Glossary")
    else:
        from rules_kb.cli.render import lookup as render

        out = screen(settings)
        render.definition(out, entry)
        out.flush()


def show_definition(
    found: GlossaryRecord | RuleRecord, term: str, form: Format, settings: Settings, *, split: bool
) -> None:
    """What `define` found: the entry, or the rule a keyword names."""
    from rules_kb.records import RuleRecord

    if isinstance(found, RuleRecord):
        show_rule(found, form, settings, split=split, term=term)
    else:
        show_entry(found, form, settings, split=split)


def show_found(found: Shown, form: Format, settings: Settings, *, split: bool) -> None:
    """What `show` found (a rule, a glossary entry, an answer or search results) in the
    chosen format."""
    if form is Format.json:
        from rules_kb.cli.output import json_out

        json_out(found.as_json())
    elif found.type == "rule":
        show_rule(found.value, form, settings, split=split)
    elif found.type == "glossary":
        show_entry(found.value, form, settings, split=split)
    elif found.type == "answer":
        show_answer(found.value, form, settings, split=split)
    else:
        show_results(found.value, form, settings, split=split)


def show_answer(found: Answer, form: Format, settings: Settings, *, split: bool) -> None:
    """The answer to a question in the chosen format."""
    if form is Format.json:
        from rules_kb.cli.output import json_out

        json_out({"type": "answer", **found.as_json()})
    elif form is Format.markdown:
        from rules_kb.records import markdown

        print_markdown(markdown.answer_blocks(found), found.edition, split=split)
    else:
        from rules_kb.cli.render import search as render

        out = screen(settings)
        render.answer(out, found)
        out.flush()


def show_results(found: Results, form: Format, settings: Settings, *, split: bool) -> None:
    """Search results in the chosen format."""
    if form is Format.json:
        from rules_kb.cli.output import json_out

        json_out(found.as_json())
    elif form is Format.markdown:
        from rules_kb.records import markdown

        print_markdown(markdown.search_blocks(found), found.filters.edition, split=split)
    else:
        from rules_kb.cli.render import search as render

        out = screen(settings)
        render.results(out, found)
        out.flush()


def print_markdown(
    blocks: list[str], edition: str | None, *, split: bool, what: str = "Comprehensive Rules"
) -> None:
    """Markdown on stdout: one document, or messages of at most 2,000 characters separated
    by a line with three dashes."""
    from rules_kb.records import markdown

    if not split:
        sys.stdout.write(markdown.document(blocks, edition, what))
        return
    found = markdown.messages(blocks, edition, what=what)
    sys.stdout.write("\n\n---\n\n".join(found) + "\n")
