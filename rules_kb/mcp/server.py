"""`rules-kb mcp`: the knowledge base as a Model Context Protocol server over stdio.

Built on the official SDK (`mcp`, `MCPServer`); importing this module imports it, so
only `rules-kb mcp` does. Every tool is a thin face over the public API: it calls one
method and lays the record out as text that names the edition it comes from and quotes
the rules exactly, with their numbers, so that an assistant can cite them.

What a client can rely on:

- A failure is a tool error carrying the command line's one-line message, never a
  traceback; arguments of the wrong type or out of range are one line too.
- An answer is at most MAX_ANSWER characters: a longer one is cut between records and
  says which `page` to ask for next (or how to narrow the question).
- Calls run side by side, each on its own connection (SQLite reads need no lock), and a
  call that passes DEADLINE seconds, or that the client cancels, is answered at once; its
  worker stops at its next step through the database rather than running to its end.
- `initialize` is answered before this module is imported (see `rules_kb.mcp.start`).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any

import anyio
import anyio.to_thread
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import CallToolResult, TextContent
from pydantic import Field, ValidationError

from rules_kb.controls import visible
from rules_kb.errors import RulesKbError
from rules_kb.mcp import INSTRUCTIONS, MAX_ANSWER, NAME
from rules_kb.records import Answer, GlossaryRecord, RuleRecord

if TYPE_CHECKING:
    from rules_kb.api import KnowledgeBase

#: The most rules a question's answer quotes.
MAX_ANSWERS = 5
#: Seconds a call may run before it is answered with an error.
DEADLINE = 30.0

Page = Annotated[int, Field(ge=1, le=10_000, description="Which page of a long answer.")]
Limit = Annotated[int, Field(ge=1, le=50, description="How many hits (1-50).")]


class _Server(MCPServer[Any]):
    """The SDK's server, with arguments that fail validation reported in one line."""

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None) -> Any:
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as error:
            if isinstance(error.__cause__, ValidationError):
                raise ToolError(_invalid(name, error.__cause__)) from None
            raise


def _invalid(tool: str, error: ValidationError) -> str:
    """One line naming each argument that failed and why ("limit: must be at least 1")."""
    problems = []
    for item in error.errors():
        where = ".".join(str(part) for part in item["loc"]) or "arguments"
        problems.append(f"{where}: {item['msg'].lower()}")
    return f"{tool}: bad arguments: " + "; ".join(problems)


def server(kb: KnowledgeBase) -> MCPServer[Any]:
    """An MCP server whose tools answer from the database `kb` reads."""
    from rules_kb import __version__

    app = _Server(NAME, version=__version__, instructions=INSTRUCTIONS, log_level="WARNING")
    local = threading.local()

    def knowledge() -> KnowledgeBase:
        """This worker thread's own knowledge base (its own connection) on the database."""
        found: KnowledgeBase | None = getattr(local, "kb", None)
        if found is None:
            import rules_kb

            found = local.kb = rules_kb.open(kb.path)
        return found

    async def answer(work: Callable[[KnowledgeBase], str], page: int = 1) -> CallToolResult:
        """Run one request in a worker thread; a failure is a tool error whose text is the
        command line's one-line message. A call past DEADLINE, or cancelled by its client,
        is answered (or dropped) at once, and its worker stops at its next database step."""
        given_up = threading.Event()

        def run() -> str:
            kb = knowledge()
            with kb.given_up_when(given_up.is_set):
                return work(kb)

        try:
            with anyio.fail_after(DEADLINE):
                text = await anyio.to_thread.run_sync(run, abandon_on_cancel=True)
            text, failed = paged(text, page), False
        except RulesKbError as error:
            text, failed = " ".join(str(error).split()), True
        except TimeoutError:
            text, failed = f"the request took longer than {DEADLINE:.0f} s; ask for less", True
        finally:
            given_up.set()  # (answered already, or abandoned: either way, stop)
        # Control characters in a damaged text are shown, never passed on.
        return CallToolResult(
            content=[TextContent(type="text", text=visible(text))], is_error=failed
        )

    @app.tool()
    async def rule(number: str, edition: str = "latest", page: Page = 1) -> CallToolResult:
        """Quote a Comprehensive Rules rule with its subrules and examples, by number (702.19b)."""
        return await answer(lambda kb: rule_text(kb.rule(number, edition)), page)

    @app.tool()
    async def define(term: str, edition: str = "latest", page: Page = 1) -> CallToolResult:
        """Quote the glossary entry for a term (typos forgiven), or the rule a keyword names."""
        return await answer(lambda kb: definition_text(kb.define(term, edition)), page)

    @app.tool()
    async def search(
        query: str, edition: str = "latest", limit: Limit = 10, page: Page = 1
    ) -> CallToolResult:
        """Search the rules of an edition, or ask in plain words: a question gets the rules that answer it."""  # noqa: E501
        return await answer(lambda kb: found_text(kb, query, edition, limit), page)

    @app.tool()
    async def history(
        number_or_term: str, edition: str = "latest", page: Page = 1
    ) -> CallToolResult:
        """Show how a rule or glossary entry read in every edition, following renumbering."""
        return await answer(lambda kb: history_text(kb.history(number_or_term, edition)), page)

    @app.tool()
    async def diff(
        old: str, new: str = "latest", rule: str | None = None, page: Page = 1
    ) -> CallToolResult:
        """List what changed between two editions (optionally for one rule, chapter or section), word by word."""  # noqa: E501
        return await answer(lambda kb: diff_text(kb.diff(old, new, rule=rule)), page)

    @app.tool()
    async def where(
        number: str, edition: str = "latest", to: str = "latest", page: Page = 1
    ) -> CallToolResult:
        """Find the number a rule of one edition has in another edition (old citations)."""
        return await answer(lambda kb: where_text(kb.where(number, edition, to)), page)

    @app.tool()
    async def cite(
        text: str, as_of: str = "latest", to: str = "latest", page: Page = 1
    ) -> CallToolResult:
        """Check the rule citations of a text written on `as_of` and say which are stale."""
        return await answer(lambda kb: cite_text(kb.cite(text, as_of, to)), page)

    @app.tool()
    async def editions(edition: str = "latest", page: Page = 1) -> CallToolResult:
        """List the stored editions (dates, sets, counts); `edition` marks the one it means."""
        return await answer(lambda kb: editions_text(kb, edition), page)

    return app


def paged(text: str, page: int = 1, size: int = MAX_ANSWER) -> str:
    """One page of an answer of at most `size` characters: the answer itself when it fits,
    else the records of that page (a record is a line and the indented lines after it)
    and a last line saying which page this is and how to ask for the next."""
    if len(text) <= size:
        if page > 1:
            raise RulesKbError(f"this answer has one page; page {page} does not exist")
        return text
    room = size - 200  # (the last line)
    pages: list[list[str]] = [[]]
    used = 0
    for record in _records(text):
        for piece in _pieces(record, room):
            if used + len(piece) + 1 > room and pages[-1]:
                pages.append([])
                used = 0
            pages[-1].append(piece)
            used += len(piece) + 1
    if page > len(pages):
        raise RulesKbError(f"this answer has {len(pages)} pages; page {page} does not exist")
    more = (
        f"ask again with page={page + 1} for the rest, or narrow the question"
        f" (a `rule`, a shorter text)"
        if page < len(pages)
        else "this is the last page"
    )
    return "\n".join(pages[page - 1]) + f"\n[page {page} of {len(pages)}: {more}]"


def _records(text: str) -> list[str]:
    """The text's records: each line that does not start with a space, with the indented
    lines that follow it."""
    records: list[str] = []
    for line in text.split("\n"):
        if records and line.startswith((" ", "\t")):
            records[-1] += "\n" + line
        else:
            records.append(line)
    return records


def _pieces(record: str, room: int) -> list[str]:
    """A record, cut into pieces of at most `room` characters only when it is longer."""
    return [record[at : at + room] for at in range(0, len(record), room)] or [""]


# answers as text ---------------------------------------------------------------------


def rule_text(record: RuleRecord) -> str:
    """A rule quoted exactly, its subrules and examples under it, the edition named."""
    span = "" if record.in_force is None else f", {record.in_force}"
    lines = [f"Comprehensive Rules, edition {record.edition}{span}"]
    records = [record, *record.repeats]
    if record.repeats:
        lines.append(f"(this edition prints {record.number} {len(records)} times)")
    for item in records:
        for node in item.walk():
            lines.append(f"{node.number} {node.text}")
            lines.extend(f"Example: {example}" for example in node.examples)
    return "\n".join(lines)


def definition_text(record: GlossaryRecord | RuleRecord) -> str:
    """A glossary entry quoted exactly (with the entries its "See X" points to)."""
    if isinstance(record, RuleRecord):
        return "Not in the glossary; the rule it names:\n" + rule_text(record)
    entries = [record, *record.see]
    body = "\n\n".join(f"{entry.term}\n{entry.text}" for entry in entries)
    return f"Glossary, edition {record.edition}\n{body}"


def found_text(kb: KnowledgeBase, query: str, edition: str, limit: int) -> str:
    """A question's answer (see :func:`answer_text`), else the search's hits."""
    if kb.is_question(query):
        return answer_text(kb.answer(query, edition, limit=min(limit, MAX_ANSWERS)))
    return search_text(kb.search(query, edition, limit=limit))


def answer_text(found: Answer) -> str:
    """The rules that answer a question, each quoted whole with its number, the terms the
    question named, and where to read on: compact, for an assistant to quote."""
    lines = [f"Comprehensive Rules, edition {found.edition}: rules answering {found.query!r}"]
    for item in found.recognised:
        rules = f" ({', '.join(item.rules[:3])})" if item.rules else ""
        lines.append(f"Recognised {item.words!r}: {item.term}{rules}")
    if not found.answers:
        lines.append("No rule answers this question; try other words or a rule number.")
    for answered in found.answers:
        label = answered.number if answered.kind == "rule" else f"{answered.number} (glossary)"
        lines.append(f"{label}: {answered.text}")
    if found.see_also:
        lines.append("See also: " + ", ".join(found.see_also))
    return "\n".join(lines)


def search_text(results: Any) -> str:
    """Ranked hits: number (or term) and the whole text, quoted exactly."""
    where = results.filters.edition or "all editions"
    lines = [f"{results.total} matches for {results.query!r} in {where}"]
    if results.suggestion:
        lines.append(f"(searched for the correction {results.suggestion!r})")
    for hit in results.hits:
        label = hit.label if hit.kind == "rule" else f"{hit.label} ({hit.kind})"
        lines.append(f"{label}: {hit.text}")
    return "\n".join(lines)


def history_text(history: Any) -> str:
    """Each version with its span of editions, its number and its text."""
    lines = [f"History of {history.key} (as of {history.edition}), newest first"]
    for version in history.versions:
        span = (
            version.first if version.first == version.last else f"{version.first} to {version.last}"
        )
        note = f" ({version.note})" if version.note else ""
        lines.append(f"{span}: {version.key}{note} {version.text}")
        lines.extend(f"  ({note}.)" for note in version.branch_notes)
    if history.split_from is not None:
        via = history.split_from
        lines.append(f"Split off {via.number} ({via.edition}) in {history.introduced_in}.")
    if history.merged_into is not None:
        via = history.merged_into
        lines.append(f"Merged into {via.number} in {via.edition}.")
    elif history.removed_in:
        lines.append(f"Removed in {history.removed_in}.")
    return "\n".join(lines)


def diff_text(result: Any) -> str:
    """The changes of a diff, each with its old and new text."""
    summary = result.summary()
    lines = [
        f"Changes from edition {result.old} to edition {result.new}:"
        f" {summary['changed']} changed, {summary['added']} added, {summary['removed']} removed,"
        f" {summary['moved']} moved ({summary['typography']} typography-only changes not listed)"
    ]
    for change in (*result.rules, *result.glossary):
        if change.type == "typography":
            continue
        old, new = change.old_key, change.new_key
        label = new if old in (None, new) else (old if new is None else f"{old} -> {new}")
        lines.append(f"{change.type} {label}")
        if change.old_text is not None and change.type != "moved":
            lines.append(f"  was: {change.old_text}")
        if change.new_text is not None:
            lines.append(f"  now: {change.new_text}")
    return "\n".join(lines)


def where_text(found: Any) -> str:
    """Where the rule went, each renumbering step, and whether its wording changed."""
    head = f"{found.number} in {found.from_edition}"
    if found.status == "removed":
        text = f"{head} was removed in {found.removed_in}."
    elif found.status == "not_yet":
        text = (
            f"{head} did not exist yet in {found.to_edition}"
            f" (it appeared in {found.introduced_in})."
        )
    else:
        changed = "its wording changed" if found.text_changed else "same wording"
        via = ""
        if found.via is not None:
            verb = "merged into" if found.status == "merged" else "split off"
            via = f" ({verb} {found.via.number} in {found.via.edition})"
        text = f"{head} is {found.now} in {found.to_edition}{via} ({changed})."
    steps = ", ".join(f"{step.number} from {step.edition}" for step in found.steps)
    lines = [text, f"Steps: {steps}"]
    lines.extend(f"On the way, {note}." for note in found.branch_notes)
    if found.homonym is not None:
        lines.append(f"Note: {found.number} in {found.to_edition} is another rule: {found.homonym}")
    return "\n".join(lines)


def cite_text(report: Any) -> str:
    """One line per citation: where it is, what it cites and what became of it."""
    lines = [
        f"Citations written as of {report.as_of}, checked against {report.to}:"
        f" {len(report.citations)} found, {len(report.stale)} stale"
    ]
    for citation in report.citations:
        fate = {
            "current": "current",
            "changed": "same number, wording changed",
            "moved": f"moved to {citation.now}",
            "removed": f"removed in {citation.removed_in}",
            "unknown": f"no such rule in {report.as_of}",
        }[citation.status]
        lines.append(f"line {citation.line}, column {citation.column}: {citation.raw} -> {fate}")
        if citation.quote_status is not None:
            said = {
                "quote_ok": "the rule said it then and says it now",
                "quote_changed": "the rule said it then, not now",
                "quote_not_found": f"the rule did not say it in {report.as_of}",
            }[citation.quote_status]
            lines.append(f'  quotation "{citation.quote}": {said}')
    return "\n".join(lines)


def editions_text(kb: KnowledgeBase, edition: str) -> str:
    """Every stored edition, newest first, the one `edition` means marked."""
    chosen = kb.edition(edition)
    lines = []
    for record in kb.editions():
        release = f" {record.set.code} {record.set.name}" if record.set else ""
        mark = " <- " + edition if record.edition == chosen else ""
        lines.append(
            f"{record.edition}{release}: {record.rules} rules, {record.glossary} glossary"
            f" entries{mark}"
        )
    return "\n".join(lines)
