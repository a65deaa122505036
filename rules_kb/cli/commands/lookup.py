"""Lookups: `editions`, `rule`, `define`, `show`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from rules_kb.cli.app import (
    DbOption,
    EditionOption,
    Format,
    FormatOption,
    JsonOption,
    SplitOption,
    chosen_format,
    command,
    knowledge_base,
    screen,
)

if TYPE_CHECKING:
    from rules_kb.records import GlossaryRecord, RuleRecord, Shown


@command
def editions(db: DbOption = None, json_out: JsonOption = False) -> None:
    """List the stored editions with their counts, warnings and the set each accompanies."""
    from rules_kb.cli.output import json_out as print_json
    from rules_kb.cli.render import lookup as render

    found = knowledge_base(db).editions()
    if json_out:
        print_json([record.as_json() for record in found])
        return
    out = screen()
    render.editions(out, found)
    out.flush()


@command
def rule(
    number: Annotated[
        str, typer.Argument(help="A rule number: 702.19, 702.19b, CR 702.19(b), 702, 7.")
    ],
    edition: EditionOption = "latest",
    form: FormatOption = None,
    split: SplitOption = False,
    db: DbOption = None,
    json_out: JsonOption = False,
) -> None:
    """Show a rule with its subrules, examples and neighbours."""
    record = knowledge_base(db).rule(number, edition)
    show_rule(record, chosen_format(form, json_out), split=split)


@command
def define(
    term: Annotated[
        str, typer.Argument(help="A glossary term; case and small typos are forgiven.")
    ],
    edition: EditionOption = "latest",
    form: FormatOption = None,
    split: SplitOption = False,
    db: DbOption = None,
    json_out: JsonOption = False,
) -> None:
    """Show the glossary entry for a term (or the rule a keyword names)."""
    from rules_kb.records import RuleRecord

    found = knowledge_base(db).define(term, edition)
    chosen = chosen_format(form, json_out)
    if isinstance(found, RuleRecord):
        show_rule(found, chosen, split=split, term=term)
    else:
        show_entry(found, chosen, split=split)


@command
def show(
    query: Annotated[
        str, typer.Argument(help="A rule number, a glossary term, or words to search for.")
    ],
    edition: EditionOption = "latest",
    form: FormatOption = None,
    split: SplitOption = False,
    limit: Annotated[
        int, typer.Option("--limit", "-n", min=1, max=500, help="How many hits when it searches.")
    ] = 10,
    db: DbOption = None,
    json_out: JsonOption = False,
) -> None:
    """Show a rule (for a number), a glossary entry (for a term), else search results."""
    found: Shown = knowledge_base(db).show(query, edition, limit=limit)
    chosen = chosen_format(form, json_out)
    if chosen is Format.json:
        from rules_kb.cli.output import json_out as print_json

        print_json(found.as_json())
    elif found.type == "rule":
        show_rule(found.value, chosen, split=split)
    elif found.type == "glossary":
        show_entry(found.value, chosen, split=split)
    else:
        from rules_kb.cli.commands.search import show_results

        show_results(found.value, chosen, split=split)


def show_rule(record: RuleRecord, form: Format, *, split: bool, term: str | None = None) -> None:
    """A rule in the chosen format."""
    from rules_kb import markdown
    from rules_kb.cli.output import json_out as print_json

    if form is Format.json:
        document = record.as_json()
        if term is not None:
            document["match"] = "rule"
        print_json(document)
    elif form is Format.markdown:
        print_markdown(markdown.rule_blocks(record), record.edition, split=split)
    else:
        from rules_kb.cli.render import lookup as render

        out = screen()
        if term is not None:
            render.heading_rule(out, term, record)
        else:
            render.rule(out, record)
        out.flush()


def show_entry(entry: GlossaryRecord, form: Format, *, split: bool) -> None:
    """A glossary entry in the chosen format."""
    from rules_kb import markdown
    from rules_kb.cli.output import json_out as print_json

    if form is Format.json:
        print_json(entry.as_json())
    elif form is Format.markdown:
        print_markdown(markdown.glossary_blocks(entry), entry.edition, split=split, what="Glossary")
    else:
        from rules_kb.cli.render import lookup as render

        out = screen()
        render.definition(out, entry)
        out.flush()


def print_markdown(
    blocks: list[str], edition: str | None, *, split: bool, what: str = "Comprehensive Rules"
) -> None:
    """Markdown on stdout: one document, or messages of at most 2,000 characters separated
    by a line with three dashes."""
    import sys

    from rules_kb import markdown

    if not split:
        sys.stdout.write(markdown.document(blocks, edition, what))
        return
    found = markdown.messages(blocks, edition, what=what)
    sys.stdout.write("\n\n---\n\n".join(found) + "\n")
