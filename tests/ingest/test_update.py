"""`rules-kb update` against a local HTTP server: never the internet.

The server runs on 127.0.0.1 (port 0) in a thread and serves a rules page that
links real editions read from ../shared at test time, plus every failure the
command must survive: 404, 500, a server too slow for the timeout, a body cut
short of its Content-Length, HTML instead of text, prose that is no edition, and
an edition whose text stops early. Timeouts and backoff are tiny, so the whole
module runs in a few seconds.
"""

from __future__ import annotations

import shutil
import socket
import sqlite3
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar
from urllib.parse import unquote, urlsplit

import pytest
from typer.testing import CliRunner, Result

from rules_kb.cli import app
from rules_kb.errors import BadOption, NetworkError, NoRulesLink
from rules_kb.ingest import fetch
from tests.conftest import SHARED, dump_database, run_cli

BRO = SHARED / "2022-11-18.txt"  # UTF-16 BE, as Wizards published it
OTJ = SHARED / "2024-04-12.txt"
OLDEST = SHARED / "1999-04-23.txt"
CUT = SHARED / "variants" / "2013-02-01.rulesraker.ascii.crlf.truncated.45fb5aaf.txt"
FAST = ("--timeout", "0.3", "--retries", "1", "--backoff", "0.01")

pytestmark = pytest.mark.skipif(not BRO.is_file(), reason="../shared/cr/editions is not there")


# the local server ----------------------------------------------------------------

Route = Callable[["Handler"], None]


class Handler(BaseHTTPRequestHandler):
    """Serves the routes of the server it belongs to; anything else is a 404."""

    routes: ClassVar[dict[str, Route]] = {}
    hits: ClassVar[Counter[str]] = Counter()

    def do_GET(self) -> None:
        path = unquote(urlsplit(self.path).path)
        self.hits[path] += 1
        route = self.routes.get(path)
        try:
            if route is None:
                self.send_error(404, "Not Found")
            else:
                route(self)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up first (the timeout test)

    def send(
        self, body: bytes, content_type: str = "text/plain", length: int | None = None
    ) -> None:
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body) if length is None else length))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        pass


def _page(*hrefs: str) -> bytes:
    links = "".join(f'<li><a href="{href}">download</a></li>' for href in hrefs)
    return f"<!doctype html><html><body><h1>Rules</h1><ul>{links}</ul></body></html>".encode()


def _routes(base: str) -> dict[str, Route]:
    bro, otj, oldest, cut = BRO.read_bytes(), OTJ.read_bytes(), OLDEST.read_bytes(), b""
    if CUT.is_file():
        cut = CUT.read_bytes()

    def flaky(handler: Handler) -> None:
        if handler.hits["/flaky.txt"] == 1:
            handler.send_error(503, "Service Unavailable")
        else:
            handler.send(oldest)

    def slow(handler: Handler) -> None:
        time.sleep(1.5)
        handler.send(oldest)

    def truncated(handler: Handler) -> None:
        handler.send(oldest[: len(oldest) // 2], length=len(oldest))
        handler.close_connection = True

    def trickle(handler: Handler) -> None:
        """A byte every 20 ms: never slow enough for the read timeout."""
        handler.send_response(200)
        handler.send_header("Content-Type", "text/plain")
        handler.send_header("Content-Length", str(len(oldest)))
        handler.end_headers()
        for byte in oldest[:500]:
            handler.wfile.write(bytes([byte]))
            handler.wfile.flush()
            time.sleep(0.02)

    def trickle_headers(handler: Handler) -> None:
        """The status line and headers themselves, a byte every 20 ms."""
        head = b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n" + b"X-Pad: " + b"a" * 400
        for byte in head:
            handler.wfile.write(bytes([byte]))
            handler.wfile.flush()
            time.sleep(0.02)
        handler.close_connection = True

    def redirect(location: str) -> Route:
        def route(handler: Handler) -> None:
            handler.send_response(302)
            handler.send_header("Location", location)
            handler.send_header("Content-Length", "0")
            handler.end_headers()

        return route

    html = "text/html; charset=utf-8"
    return {
        # A relative link with a bare space, next to the PDF and DOCX of the same rules.
        "/en/rules": lambda h: h.send(
            _page(
                "/2022/downloads/MagicCompRules 20221118.pdf",
                "../2022/downloads/MagicCompRules 20221118.txt",
                "/2022/downloads/MagicCompRules 20221118.docx",
            ),
            html,
        ),
        "/2022/downloads/MagicCompRules 20221118.txt": lambda h: h.send(bro),
        # An absolute, percent-encoded link to an MMDDYYYY file name.
        "/rules-encoded": lambda h: h.send(
            _page(f"{base}/2024/downloads/MagicCompRules%2004102024.txt"), html
        ),
        "/2024/downloads/MagicCompRules 04102024.txt": lambda h: h.send(otj),
        "/rules-nolink": lambda h: h.send(_page("/rules.pdf"), html),
        "/rules-broken": lambda h: h.send(_page("/missing.txt"), html),
        "/oldest.txt": lambda h: h.send(oldest),
        "/error.txt": lambda h: h.send_error(500, "Internal Server Error"),
        "/flaky.txt": flaky,
        "/slow.txt": slow,
        "/truncated.txt": truncated,
        "/page.txt": lambda h: h.send(_page("/elsewhere"), html),
        "/prose.txt": lambda h: h.send(b"Shopping list.\nEggs, flour, milk.\n" * 20),
        "/cut.txt": lambda h: h.send(cut),
        "/trickle.txt": trickle,
        "/trickle-headers.txt": trickle_headers,
        "/to-file.txt": redirect("file:///etc/passwd"),
        "/to-bad-port.txt": redirect("http://127.0.0.1:99999/oldest.txt"),
        "/to-oldest.txt": redirect("/oldest.txt"),
        "/odd-charset": lambda h: h.send(_page("/oldest.txt"), "text/html; charset=no-such-codec"),
        "/as-image.txt": lambda h: h.send(oldest, "image/png"),
        "/as-bytes.txt": lambda h: h.send(oldest, "application/octet-stream"),
    }


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    """The base URL of a loopback server with the routes above."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    server.block_on_close = False
    base = f"http://127.0.0.1:{server.server_address[1]}"
    Handler.routes = _routes(base)
    Handler.hits.clear()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield base
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def closed_port() -> int:
    """A loopback port that nothing listens on."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


# helpers ---------------------------------------------------------------------


run = run_cli


def update(db: Path, *args: str) -> Result:
    return run("update", "--db", db, *FAST, *args)


dump = dump_database


def one_error_line(result: Result) -> str:
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("rules-kb: ")
    assert "Traceback" not in result.output
    return lines[0]


@pytest.fixture(scope="module")
def seeded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database holding the oldest edition (small), to copy per test."""
    path = tmp_path_factory.mktemp("seed") / "seed.db"
    result = run("ingest", OLDEST, "--db", path)
    assert result.exit_code == 0, result.output
    return path


# what it must show -----------------------------------------------------------------


def test_update_from_the_rules_page_ingests_the_linked_edition(site: str, tmp_path: Path) -> None:
    db = tmp_path / "rules.db"
    result = update(db, "--page", f"{site}/en/rules")
    assert result.exit_code == 0, result.output
    assert "added edition 2022-11-18 from MagicCompRules 20221118.txt" in result.stdout
    rows = {
        row[0]: row
        for row in sqlite3.connect(db).execute("SELECT date, source, encoding FROM editions")
    }
    assert rows == {"2022-11-18": ("2022-11-18", "MagicCompRules 20221118.txt", "utf-16-be")}


def test_second_update_reports_already_present_and_changes_nothing(
    site: str, tmp_path: Path
) -> None:
    db = tmp_path / "rules.db"
    assert update(db, "--page", f"{site}/en/rules").exit_code == 0
    before = dump(db)
    again = update(db, "--page", f"{site}/en/rules")
    assert again.exit_code == 0, again.output
    assert "edition 2022-11-18 is already present" in again.stdout
    assert "nothing changed" in again.stdout
    assert dump(db) == before


def test_rule_by_set_code_answers_from_that_edition(site: str, tmp_path: Path) -> None:
    db = tmp_path / "rules.db"
    assert update(db, "--page", f"{site}/rules-encoded").exit_code == 0  # 2024-04-12, later
    assert update(db, "--page", f"{site}/en/rules").exit_code == 0  # 2022-11-18
    for code in ("BRO", "bro", "The Brothers' War"):
        result = run("rule", "702.19", "-e", code, "--db", db, "--json")
        assert result.exit_code == 0, result.output
        assert '"edition": "2022-11-18"' in result.stdout
        assert '"text": "Trample"' in result.stdout
    latest = run("rule", "702.19", "--db", db, "--json")
    assert '"edition": "2024-04-12"' in latest.stdout
    assert (
        '"edition": "2024-04-12"' in run("rule", "702.19", "-e", "OTJ", "--db", db, "--json").stdout
    )


def test_set_code_errors_are_one_line(site: str, tmp_path: Path) -> None:
    db = tmp_path / "rules.db"
    assert update(db, "--page", f"{site}/en/rules").exit_code == 0
    line = one_error_line(run("rule", "702.19", "-e", "BRX", "--db", db))
    assert "unknown edition 'BRX'" in line
    assert "nearest set code: BRO" in line
    line = one_error_line(run("rule", "702.19", "-e", "ONE", "--db", db))
    assert "ONE (Phyrexia: All Will Be One) is edition 2023-02-03" in line
    assert "not in the database" in line


def test_url_takes_a_given_file_and_mmddyyyy_names(site: str, tmp_path: Path) -> None:
    db = tmp_path / "rules.db"
    result = update(db, "--url", f"{site}/2024/downloads/MagicCompRules 04102024.txt", "--json")
    assert result.exit_code == 0, result.output
    assert '"edition": "2024-04-12"' in result.stdout
    assert '"source": "MagicCompRules 04102024.txt"' in result.stdout
    assert '"status": "added"' in result.stdout


def test_transient_errors_are_retried(site: str, tmp_path: Path) -> None:
    db = tmp_path / "rules.db"
    result = run("update", "--db", db, "--url", f"{site}/flaky.txt", "--retries", "2",
                 "--backoff", "0")  # fmt: skip
    assert result.exit_code == 0, result.output
    assert Handler.hits["/flaky.txt"] == 2  # a 503, then the file
    assert "added edition 1999-04-23" in result.stdout


# every failure: exit 1, one line, database unchanged --------------------------------

FAILURES = {
    "404": (("--url", "/missing.txt"), "HTTP 404 Not Found from"),
    "500": (("--url", "/error.txt"), "HTTP 500 Internal Server Error from"),
    "page 404": (("--page", "/nothing"), "HTTP 404 Not Found from"),
    "link 404": (("--page", "/rules-broken"), "HTTP 404 Not Found from"),
    "no link": (("--page", "/rules-nolink"), "no .txt link on"),
    "timeout": (("--url", "/slow.txt"), "timed out after 0.3 s"),
    "cut short": (("--url", "/truncated.txt"), "download cut short: received"),
    "html": (("--url", "/page.txt"), "sent an HTML page, not the rules text"),
    "no edition": (("--url", "/prose.txt"), "prose.txt: no effective date found"),
    "truncated text": (("--url", "/cut.txt"), "cut.txt is truncated: the file stops"),
}


@pytest.mark.parametrize("case", FAILURES, ids=list(FAILURES))
def test_failure_is_one_line_and_leaves_the_database_unchanged(
    case: str, site: str, seeded: Path, tmp_path: Path
) -> None:
    (option, target), expected = FAILURES[case]
    if case == "truncated text" and not CUT.is_file():
        pytest.skip("the truncated variant is not in ../shared")
    fresh = tmp_path / "fresh.db"
    line = one_error_line(update(fresh, option, f"{site}{target}"))
    assert expected in line, line
    assert not fresh.exists()  # nothing is created before the download is good
    db = tmp_path / "rules.db"
    shutil.copy(seeded, db)
    before = dump(db)
    one_error_line(update(db, option, f"{site}{target}"))
    assert dump(db) == before


def test_retries_apply_to_5xx_and_not_to_404(site: str, tmp_path: Path) -> None:
    before = Handler.hits.copy()
    error = one_error_line(update(tmp_path / "a.db", "--url", f"{site}/error.txt"))
    missing = one_error_line(update(tmp_path / "b.db", "--url", f"{site}/missing.txt"))
    assert Handler.hits["/error.txt"] - before["/error.txt"] == 2
    assert Handler.hits["/missing.txt"] - before["/missing.txt"] == 1
    assert error.endswith("(tried 2 times)")
    assert "tried" not in missing


def test_no_network_is_one_line(closed_port: int, tmp_path: Path) -> None:
    db = tmp_path / "rules.db"
    line = one_error_line(update(db, "--page", f"http://127.0.0.1:{closed_port}/en/rules"))
    assert f"cannot connect to 127.0.0.1:{closed_port}" in line
    assert "refused" in line
    assert not db.exists()


def test_not_a_url_is_one_line(tmp_path: Path) -> None:
    line = one_error_line(update(tmp_path / "rules.db", "--url", "ftp://example.org/cr.txt"))
    assert "not an http(s) URL" in line


def test_knobs_come_from_the_environment(site: str, tmp_path: Path) -> None:
    env = {"RULES_KB_HTTP_TIMEOUT": "0.2", "RULES_KB_HTTP_RETRIES": "0"}
    result = CliRunner().invoke(
        app, ["update", "--db", str(tmp_path / "r.db"), "--url", f"{site}/slow.txt"], env=env
    )
    assert "timed out after 0.2 s" in one_error_line(result)


# finding the link ----------------------------------------------------------------


PAGE = "https://magic.wizards.com/en/rules"


@pytest.mark.parametrize(
    ("href", "expected"),
    [
        (
            "https://media.wizards.com/2026/downloads/MagicCompRules 20260807.txt",
            "https://media.wizards.com/2026/downloads/MagicCompRules%2020260807.txt",
        ),
        (
            "https://media.wizards.com/2022/downloads/MagicCompRules%2020221118.txt",
            "https://media.wizards.com/2022/downloads/MagicCompRules%2020221118.txt",
        ),
        (
            "//media.wizards.com/2023/downloads/MagicComp%20Rules%2020230203.txt",
            "https://media.wizards.com/2023/downloads/MagicComp%20Rules%2020230203.txt",
        ),
        ("/downloads/MagicCompRules_20170428.txt", "https://magic.wizards.com/downloads/MagicCompRules_20170428.txt"),
        ("files/Comprehensive Rules 20221007.TXT", "https://magic.wizards.com/en/files/Comprehensive%20Rules%2020221007.TXT"),
    ],
)  # fmt: skip
def test_rules_link_resolves_and_encodes(href: str, expected: str) -> None:
    html = f'<a href="{href}">TXT</a> <a href="/x/MagicCompRules.pdf">PDF</a>'
    assert fetch.rules_link(html, PAGE) == expected


def test_rules_link_prefers_rules_named_and_newest() -> None:
    html = _page(
        "/notes/release-notes.txt",
        "/2024/downloads/MagicCompRules%2020240308.txt",
        "/2024/downloads/MagicCompRules%2004102024.txt",  # MMDDYYYY: April 10, the newest
        "/2023/downloads/MagicCompRulesWOE%2020230901.txt",
    ).decode()
    assert fetch.rules_link(html, PAGE).endswith("MagicCompRules%2004102024.txt")


def test_rules_link_falls_back_to_script_data() -> None:
    html = (
        '<html><script>{"props":{"txt":"https:\\/\\/media.wizards.com\\/2025\\/downloads'
        '\\/MagicCompRules 20251114.txt"}}</script></html>'
    )
    assert fetch.rules_link(html, PAGE) == (
        "https://media.wizards.com/2025/downloads/MagicCompRules%2020251114.txt"
    )


def test_rules_link_missing_raises() -> None:
    with pytest.raises(NoRulesLink):
        fetch.rules_link('<a href="/rules.pdf">PDF</a>', PAGE)


@pytest.mark.parametrize(
    ("name", "day"),
    [
        ("MagicCompRules 20221118.txt", "2022-11-18"),
        ("MagicCompRules 04102024.txt", "2024-04-10"),
        ("MagicCompRules_CN2_Update_20160826.txt", "2016-08-26"),
        ("MagicCompRulesWOE 20230901.txt", "2023-09-01"),
        ("MagicCompRules 202109224.txt", None),  # the published typo has nine digits
        ("MagicCompRules.txt", None),
    ],
)
def test_name_date(name: str, day: str | None) -> None:
    assert fetch.name_date(name) == day


# deadlines, options and URLs that must not hang or give a traceback -------------------

QUICK = fetch.Policy(timeout=1.0, retries=0, backoff=0.0, deadline=0.4)


@pytest.mark.parametrize("route", ["/trickle.txt", "/trickle-headers.txt"])
def test_a_trickling_server_is_abandoned_at_the_deadline(site: str, route: str) -> None:
    with pytest.raises(NetworkError) as caught:
        fetch.download(f"{site}{route}", policy=QUICK)
    message = str(caught.value)
    assert "the deadline of 0.4 s for one download attempt passed" in message
    assert "\n" not in message


def test_each_retry_has_a_deadline_of_its_own(site: str) -> None:
    before = Handler.hits["/trickle.txt"]
    policy = fetch.Policy(timeout=1.0, retries=1, backoff=0.0, deadline=0.3)
    with pytest.raises(NetworkError) as caught:
        fetch.download(f"{site}/trickle.txt", policy=policy)
    assert str(caught.value).endswith("(tried 2 times)")
    assert Handler.hits["/trickle.txt"] - before == 2


def test_a_download_within_its_deadline_is_not_disturbed(site: str) -> None:
    got = fetch.download(f"{site}/oldest.txt", policy=fetch.Policy(deadline=30))
    assert got.data == OLDEST.read_bytes()
    got = fetch.download(f"{site}/to-oldest.txt", policy=fetch.Policy(deadline=30))
    assert got.data == OLDEST.read_bytes() and got.url.endswith("/oldest.txt")


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        ({"timeout": float("nan")}, "timeout must be above 0 to 3600 seconds, not nan"),
        ({"timeout": float("inf")}, "timeout must be above 0 to 3600 seconds, not inf"),
        ({"timeout": 0}, "timeout must be above 0"),
        ({"timeout": -1.0}, "timeout must be above 0"),
        ({"timeout": "3"}, "timeout must be a number of seconds, not '3'"),
        ({"backoff": 1e308}, "backoff must be from 0 to 3600 seconds, not 1e+308"),
        ({"backoff": float("nan")}, "backoff must be from 0"),
        ({"backoff": -0.5}, "backoff must be from 0"),
        ({"deadline": float("nan")}, "deadline must be above 0 to 86400 seconds, not nan"),
        ({"deadline": 0.0}, "deadline must be above 0"),
        ({"retries": -1}, "retries must be from 0 to 100, not -1"),
        ({"retries": 10**9}, "retries must be from 0 to 100"),
        ({"retries": 1.5}, "retries must be a whole number, not 1.5"),
        ({"retries": True}, "retries must be a whole number, not True"),
    ],
)
def test_policy_refuses_values_no_download_can_use(fields: dict[str, Any], expected: str) -> None:
    with pytest.raises(BadOption) as caught:
        fetch.Policy(**fields)
    assert expected in str(caught.value)
    assert "\n" not in str(caught.value)


def test_policy_waits_stay_finite() -> None:
    policy = fetch.Policy(retries=100, backoff=3600)
    assert [policy.wait(n) for n in (1, 2, 100)] == [3600, fetch.MAX_WAIT, fetch.MAX_WAIT]
    assert fetch.Policy(backoff=0.5).wait(3) == 2.0
    assert fetch.Policy().deadline == 120.0


@pytest.mark.parametrize(
    ("option", "value", "expected"),
    [
        ("--timeout", "nan", "timeout must be above 0"),
        ("--timeout", "inf", "timeout must be above 0"),
        ("--backoff", "1e308", "backoff must be from 0 to 3600 seconds"),
    ],
)
def test_bad_option_values_from_the_cli_are_one_line(
    tmp_path: Path, option: str, value: str, expected: str
) -> None:
    db = tmp_path / "r.db"
    result = run("update", "--db", db, "--url", "http://127.0.0.1:9/x.txt", option, value)
    assert result.exit_code in {1, 2}, result.output
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    if result.exit_code == 1:
        assert expected in one_error_line(result)
    assert not db.exists()


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("http://[::1", "not a valid URL (invalid IPv6 URL): 'http://[::1'"),
        ("http://127.0.0.1:99999/x.txt", "invalid port (a port is a number from 1 to 65535):"),
        ("http://127.0.0.1:0/x.txt", "invalid port"),
        ("http://example.org:-1/x.txt", "invalid port"),
        ("http://:80/x.txt", "no valid host name: 'http://:80/x.txt'"),
        ("http://exa mple.org/x.txt", "no valid host name"),
        ("ftp://example.org/x.txt", "not an http(s) URL"),
        ("file:///etc/passwd", "not an http(s) URL"),
        ("x" * 5000, "not an http(s) URL"),
    ],
)
def test_urls_no_download_can_use(url: str, expected: str) -> None:
    for entry in (fetch.download, fetch.latest):
        with pytest.raises(BadOption) as caught:
            entry(url, policy=QUICK)
        assert expected in str(caught.value)
        assert "\n" not in str(caught.value) and len(str(caught.value)) < 400


@pytest.mark.parametrize("url", ["http://[::1", "http://127.0.0.1:99999/x.txt"])
def test_bad_urls_from_the_cli_are_one_line(tmp_path: Path, url: str) -> None:
    for option in ("--url", "--page"):
        line = one_error_line(update(tmp_path / "r.db", option, url))
        assert "URL" in line or "port" in line


@pytest.mark.parametrize(
    ("route", "expected"),
    [
        ("/to-file.txt", "redirected to 'file://"),
        ("/to-bad-port.txt", "redirected to 'http://127.0.0.1:99999/oldest.txt': invalid port"),
    ],
)
def test_a_redirect_to_a_url_no_download_can_use_fails_at_once(
    site: str, tmp_path: Path, route: str, expected: str
) -> None:
    before = Handler.hits[route]
    line = one_error_line(update(tmp_path / "r.db", "--url", f"{site}{route}", "--retries", "3"))
    assert expected in line and ("not an http(s) URL" in line or "port" in line)
    assert Handler.hits[route] - before == 1  # not retried


def test_a_page_with_an_unknown_charset_is_still_read(site: str, tmp_path: Path) -> None:
    result = update(tmp_path / "r.db", "--page", f"{site}/odd-charset")
    assert result.exit_code == 0, result.output


def test_malformed_links_on_the_page_are_skipped() -> None:
    html = (
        '<a href="http://[::1/MagicCompRules.txt">x</a>'
        ' <a href="/MagicCompRules 20240412.txt">y</a>'
    )
    assert fetch.rules_link(html, PAGE) == "https://magic.wizards.com/MagicCompRules%2020240412.txt"
    with pytest.raises(NoRulesLink):
        fetch.rules_link('<a href="http://[::1/MagicCompRules.txt">x</a>', PAGE)


def test_a_parse_failure_in_a_download_keeps_its_details() -> None:
    from rules_kb.errors import GrammarRejected

    lines = ["Invented Rules", "", "These rules are effective as of May 1, 2020.", ""]
    lines += ["1. Section", "", *(f"100.{n}. A rule with no chapter." for n in range(1, 600))]
    got = fetch.Download(url="http://x/cr.txt", name="cr.txt", data="\n".join(lines).encode())
    with pytest.raises(GrammarRejected) as caught:
        fetch.read(got)
    assert str(caught.value).startswith("cr.txt: the rules could not be parsed:")
    assert (caught.value.line, caught.value.column) == (7, 1) and caught.value.details


def test_a_body_served_as_an_image_is_refused_whatever_its_bytes(site: str) -> None:
    from rules_kb.errors import NotText

    with pytest.raises(NotText, match="sent image/png, not the rules text"):
        fetch.download(f"{site}/as-image.txt", policy=QUICK)
    # octet-stream is how many servers send a .txt file: its bytes decide
    assert fetch.download(f"{site}/as-bytes.txt", policy=QUICK).data == OLDEST.read_bytes()


def test_the_whole_download_has_a_budget_retries_included(site: str) -> None:
    before = Handler.hits["/trickle.txt"]
    policy = fetch.Policy(timeout=1.0, retries=5, backoff=0.0, deadline=0.3, total=0.5)
    started = time.monotonic()
    with pytest.raises(NetworkError):
        fetch.download(f"{site}/trickle.txt", policy=policy)
    assert time.monotonic() - started < 1.5
    assert Handler.hits["/trickle.txt"] - before < 6  # not all six attempts of 0.3 s
    assert fetch.Policy().budget == 180.0  # the defaults give up after three minutes
