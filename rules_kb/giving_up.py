"""Work that stops when its caller gives it up.

A server answering in worker threads (the MCP face) cannot stop a thread; it can say that
the request was given up. `given_up_when` tells the work of this thread (or task) how to
know, and long loops call `checkpoint()` between their steps, so that given-up work ends
at its next step with GivenUp instead of running to its end. Outside such a block,
`checkpoint()` costs one context-variable read.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from rules_kb.errors import GivenUp

_given_up: ContextVar[Callable[[], bool] | None] = ContextVar("given_up", default=None)


@contextmanager
def given_up_when(given_up: Callable[[], bool]) -> Iterator[None]:
    """Within the block, `checkpoint()` raises GivenUp once `given_up()` is true."""
    token = _given_up.set(given_up)
    try:
        yield
    finally:
        _given_up.reset(token)


def checkpoint() -> None:
    """Raise GivenUp if the work running here was given up."""
    given_up = _given_up.get()
    if given_up is not None and given_up():
        raise GivenUp("the request was given up")
