"""The one module that reaches into Lark's internals: the grammar's LALR table, run as
a recogniser over the kinds of logical lines.

What it relies on, and why. `grammar()` is grammars/cr.lark compiled by Lark's public
API (an LALR parser with a custom lexer that hands over tokens made elsewhere). Parsing
an edition through it costs 95 to 138 ms; nesting the same lines by hand costs about 3
ms. So `rules_kb.ingest.parse.Nester` nests the lines itself and asks `Automaton`, at each
line, whether the grammar allows that line where it stands. `Automaton` runs Lark's own
parse table, which Lark keeps at `Lark.parser.parser.parser.parse_table` (states, with
`lark.parsers.lalr_analysis.Shift` marking shifts): neither is public API. The version
pin `lark>=1.3,<2` in pyproject.toml holds them still, and
tests/ingest/test_parse.py::test_nester_agrees_with_the_grammar_on_real_editions runs every
shared edition through Lark's own parser and requires the same records, so a Lark that
moved them fails a test, not a judge.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from lark import Lark, Token


@cache
def grammar() -> Lark:
    """The CR grammar as a Lark LALR parser of `LineLexer.tokens()`, once per process.

    `Nester` does what it says; the tests check that they agree."""
    from lark import Lark
    from lark.lexer import Lexer

    class PassThroughLexer(Lexer):
        """Hands the tokens made by `LineLexer` to the parser unchanged."""

        def __init__(self, lexer_conf: Any) -> None:
            pass

        def lex(self, data: Any) -> Iterator[Token]:  # type: ignore[override]
            yield from data

    return Lark(_grammar_text(), parser="lalr", lexer=PassThroughLexer)


def _grammar_text() -> str:
    from rules_kb.resources import read_text

    return read_text("rules_kb.grammars", "cr.lark")


class Automaton:
    """Lark's LALR automaton for grammars/cr.lark, run over the kinds of logical lines.

    Lark compiles the grammar into its parse table (`grammar()`); this runs that table
    as a recogniser, one line kind at a time, so that the grammar alone says which line
    may stand where. A line for which the table has no action where it stands is not
    fed (the Nester keeps it as unparsed, as Lark's error recovery would).
    """

    def __init__(self) -> None:
        self.states, self.start, self.end = _table()
        self.stack = [self.start]

    def feed(self, kind: str) -> bool:
        """Feed one line kind; False (and nothing changed) when the grammar refuses it."""
        states = self.states
        action = states[self.stack[-1]].get(kind)
        if action is None:
            return False
        if action[0]:  # a shift: nothing to undo
            self.stack.append(action[1])  # type: ignore[arg-type]
            return True
        # Reductions, most lines: the stack they leave depends on the stack and the kind
        # alone, and the stack stays under a dozen states deep, so each is worked out once.
        key = (tuple(self.stack), kind)
        after = _REDUCED.get(key, _UNSEEN)
        if after is _UNSEEN:
            if len(_REDUCED) >= _REDUCED_MAX:  # bounded, whatever lines a file holds
                _REDUCED.clear()
            after = _REDUCED[key] = self._reduced(kind)
        if after is None:
            return False
        self.stack = list(after)
        return True

    def _reduced(self, kind: str) -> tuple[int, ...] | None:
        """The stack after the reductions and the shift of `kind`, None for a refusal."""
        states = self.states
        stack = self.stack[:]
        while True:
            action = states[stack[-1]].get(kind)
            if action is None:
                return None
            shift, target = action
            if shift:
                stack.append(target)  # type: ignore[arg-type]
                return tuple(stack)
            origin, length = target  # type: ignore[misc]
            if length:
                del stack[-length:]
            stack.append(states[stack[-1]][origin][1])  # type: ignore[arg-type]

    def finishes(self) -> bool:
        """Whether the lines read so far make a whole document."""
        states = self.states
        stack = self.stack[:]
        while stack[-1] != self.end:
            action = states[stack[-1]].get("$END")
            if action is None:
                return False
            shift, target = action
            if shift:
                return True
            origin, length = target  # type: ignore[misc]
            if length:
                del stack[-length:]
            if origin == "start":
                return True
            stack.append(states[stack[-1]][origin][1])  # type: ignore[arg-type]
        return True

    def expected(self) -> list[str]:
        """The line kinds the grammar accepts where the automaton stands."""
        return sorted(k for k in self.states[self.stack[-1]] if k.isupper() and k[0] != "$")


Action = tuple[bool, "int | tuple[str, int]"]

#: (stack, line kind) -> the stack after reducing and shifting it, or None: the table is
#: the same for every edition, so this serves every parse of the process.
_REDUCED: dict[tuple[tuple[int, ...], str], tuple[int, ...] | None] = {}
_UNSEEN: Any = object()
_REDUCED_MAX = 4096


@cache
def _table() -> tuple[dict[int, dict[str, Action]], int, int]:
    """Lark's LALR table of the grammar, as plain dicts: state -> symbol -> (shift?,
    next state) or (False, (rule name, length)) for a reduction."""
    from lark.parsers.lalr_analysis import Shift

    table = grammar().parser.parser.parser.parse_table
    states: dict[int, dict[str, Action]] = {}
    for state, actions in table.states.items():
        states[state] = {
            symbol: (True, arg)
            if action is Shift
            else (False, (arg.origin.name, len(arg.expansion)))
            for symbol, (action, arg) in actions.items()
        }
    return states, table.start_states["start"], table.end_states["start"]
