"""A Datasette plugin that `rules-kb serve` loads (with `--plugins-dir`): the guards of a
read-only face that anybody may query.

- Every connection refuses the SQL functions that make data out of nothing
  (`randomblob`, `zeroblob`) and any string or blob over MAX_LENGTH bytes: Datasette's
  time limit cannot stop one such call, which runs to its end inside SQLite.
- A request Datasette can refuse (a page or row that does not exist, a write to the
  read-only database, SQL that SQLite rejects) gets that refusal with its status and one
  line, never a 500 and a traceback.

One Datasette internal is touched, here only: Datasette 0.65's own exception handler
prints every exception with rich when rich is installed (rules-kb depends on rich), and
for a refusal raised outside an `except` block (a POST to `/-/insert` that matches no
route) rich itself raises, so the request ends in a 500. The guard sets that module's
`rich` to None, so the handler prints nothing; the pin `datasette<0.66` protects it and
tests/test_faces.py checks the responses over HTTP.
"""

from __future__ import annotations

import sqlite3
from typing import Any

import datasette.handle_exception
from datasette import hookimpl

datasette.handle_exception.rich = None  # (see the module docstring)

#: The longest string or blob any query may make, in bytes (the longest stored text is
#: far shorter).
MAX_LENGTH = 10_000_000
#: What a bare status means, for refusals that carry no message of their own.
_PHRASES = {400: "bad request", 403: "forbidden", 404: "not found", 405: "method not allowed"}
#: Functions that make large values from small arguments.
REFUSED = frozenset({"randomblob", "zeroblob"})


def _authorize(action: int, first: str | None, second: str | None, *_rest: Any) -> int:
    if action == sqlite3.SQLITE_FUNCTION and (second or "").lower() in REFUSED:
        return sqlite3.SQLITE_DENY
    return sqlite3.SQLITE_OK


@hookimpl  # type: ignore[untyped-decorator]
def prepare_connection(conn: sqlite3.Connection) -> None:
    """Refuse the costly functions and cap the size of any value."""
    conn.set_authorizer(_authorize)
    conn.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, MAX_LENGTH)


@hookimpl  # type: ignore[untyped-decorator]
def handle_exception(datasette: Any, request: Any, exception: BaseException) -> Any:
    """A clean refusal, with its status, for what can be refused; None for the rest."""

    async def inner() -> Any:
        from datasette.utils.asgi import Forbidden, NotFound, Response

        status = getattr(exception, "status", None)
        if isinstance(exception, NotFound):
            status = 404
        elif isinstance(exception, Forbidden):
            status = 403
        elif isinstance(exception, sqlite3.Error):
            status = 400  # SQL that SQLite refuses, or a row lookup it cannot bind
        if not isinstance(status, int) or status >= 500:
            return None
        message = " ".join(str(exception).split())
        if not message or message.isdigit():
            message = _PHRASES.get(status, "refused")
        if request.path.endswith(".json") or "json" in request.headers.get("accept", ""):
            return Response.json({"ok": False, "error": message, "status": status}, status=status)
        return Response.text(f"{status}: {message}\n", status=status)

    return inner
