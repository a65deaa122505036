"""Downloads of official editions: find the rules file on the rules page, fetch it.

Wizards of the Coast link the current Comprehensive Rules as a `.txt` file from
https://magic.wizards.com/en/rules. The file's name has changed over the years
("MagicCompRules_20170428.txt", "MagicCompRules%2020221118.txt",
"MagicComp%20Rules%2020230203.txt", "MagicCompRules%2004102024.txt",
"MagicCompRulesWOE%2020230901.txt", hrefs with bare spaces), so the link is found
by what it is (a `.txt` whose name says comprehensive rules), never by a pattern
for the name.

Transient failures (no connection, timeouts, HTTP 5xx, a body cut short, an
attempt that runs past its deadline) are retried with exponential backoff; the rest
fail at once. Every failure is one exception from rules_kb.errors with a one-line
message. httpx is imported only here.
"""

from __future__ import annotations

import math
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import date as Date
from html.parser import HTMLParser
from typing import TYPE_CHECKING, NoReturn
from urllib.parse import quote, unquote, urljoin, urlsplit

from rules_kb.errors import (
    BadOption,
    GrammarRejected,
    HttpError,
    NetworkError,
    NoRulesLink,
    NotAnEdition,
    NotText,
    ParseFailure,
    RulesKbError,
    TruncatedDownload,
)

if TYPE_CHECKING:
    import httpx

    from rules_kb.ingest.decode import Decoded
    from rules_kb.ingest.models import Edition

#: The official rules page, which links the current edition.
DEFAULT_PAGE = "https://magic.wizards.com/en/rules"
USER_AGENT = "rules-kb/0.1 (+https://magic.wizards.com/en/rules reader)"
#: A whole edition is about 1 MB; anything far larger is not one.
MAX_BYTES = 64 * 1024 * 1024
#: Statuses worth asking again for: the server may recover.
RETRY_STATUSES = frozenset({408, 425, 429, 500, 502, 503, 504})
#: The longest wait between two attempts, however many retries came before.
MAX_WAIT = 3600.0

Progress = Callable[[int, int | None], None]
"""Called as bytes arrive with (bytes so far, total bytes or None when unknown)."""


@dataclass(frozen=True, slots=True)
class Policy:
    """How patient a download is. Out-of-range values raise BadOption (one line)."""

    timeout: float = 30.0
    """Seconds allowed to connect, and between two reads of the body (above 0, at most
    3600)."""
    retries: int = 3
    """Further attempts after the first one, for transient failures only (0 to 100)."""
    backoff: float = 1.0
    """Seconds before the first retry; each following retry waits twice as long, at most
    an hour (0 to 3600)."""
    deadline: float = 120.0
    """Seconds one attempt may take in all, however steadily the data trickles in; each
    retry has a deadline of its own (above 0, at most 86400)."""
    total: float | None = None
    """Seconds the whole download may take, its retries and waits included (above 0, at
    most 86400); None: one and a half times the deadline."""

    def __post_init__(self) -> None:
        _check_seconds("timeout", self.timeout, 3600, zero=False)
        _check_seconds("backoff", self.backoff, 3600, zero=True)
        _check_seconds("deadline", self.deadline, 86400, zero=False)
        if self.total is not None:
            _check_seconds("total", self.total, 86400, zero=False)
        if isinstance(self.retries, bool) or not isinstance(self.retries, int):
            raise BadOption(f"retries must be a whole number, not {self.retries!r}")
        if not 0 <= self.retries <= 100:
            raise BadOption(f"retries must be from 0 to 100, not {self.retries}")

    @property
    def budget(self) -> float:
        """Seconds the whole download may take."""
        return self.total if self.total is not None else 1.5 * self.deadline

    def wait(self, attempt: int) -> float:
        """Seconds to wait before attempt number `attempt` (1 is the first retry)."""
        return min(self.backoff * 2.0 ** min(attempt - 1, 64), MAX_WAIT)


def _check_seconds(name: str, value: object, most: float, *, zero: bool) -> None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise BadOption(f"{name} must be a number of seconds, not {value!r}")
    least = "from 0" if zero else "above 0"
    if not math.isfinite(value) or value > most or value < 0 or (value == 0 and not zero):
        raise BadOption(f"{name} must be {least} to {most:g} seconds, not {value:g}")


@dataclass(frozen=True, slots=True)
class Download:
    """One downloaded file."""

    url: str
    """The address it was fetched from (after percent-encoding)."""
    name: str
    """The file name, decoded: "MagicCompRules 20260807.txt"."""
    data: bytes
    """The body, exactly as sent."""


# finding the link -------------------------------------------------------------


class _Anchors(HTMLParser):
    """Collects the href of every <a> element."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.hrefs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "a":
            self.hrefs.extend(value.strip() for key, value in attrs if key == "href" and value)


_QUOTED_TXT = re.compile(r"""["']([^"'<>\s][^"'<>]*?\.txt)(?:[?#][^"'<>]*)?["']""", re.I)
_CR_NAME = re.compile(r"comp(?:rehensive)?rules", re.I)
_EIGHT_DIGITS = re.compile(r"(?<!\d)(\d{8})(?!\d)")


def rules_link(html: str, base: str) -> str:
    """The absolute, percent-encoded URL of the rules .txt that a rules page links.

    Anchors come first; script data (a JSON blob with the link) is the fallback.
    Among several files, those named like the rules win, then the newest date in
    the name, then the first on the page. Raises NoRulesLink.
    """
    parser = _Anchors()
    parser.feed(html)
    parser.close()
    candidates = [href for href in parser.hrefs if _is_txt(href)]
    if not candidates:
        candidates = [match.group(1) for match in _QUOTED_TXT.finditer(html.replace("\\/", "/"))]
    if not candidates:
        raise NoRulesLink(f"no .txt link on {base}: the page links no Comprehensive Rules text")
    urls = [url for url in (_joined(base, href) for href in candidates) if url]
    if not urls:
        raise NoRulesLink(f"no usable .txt link on {base}: every one is a malformed URL")
    return max(enumerate(urls), key=lambda item: _rank(item[1], item[0]))[1]


def _joined(base: str, href: str) -> str | None:
    """The absolute URL of a link, or None when the link is not a valid URL."""
    try:
        return checked_url(normalise_url(urljoin(base, href)))
    except (ValueError, BadOption):
        return None


def _is_txt(href: str) -> bool:
    try:
        return urlsplit(href).path.lower().endswith(".txt")
    except ValueError:  # "http://[::1/x.txt": kept, to be refused as no valid URL
        return href.lower().endswith(".txt")


def _rank(url: str, position: int) -> tuple[bool, str, int]:
    name = file_name(url)
    looks_like_rules = bool(_CR_NAME.search(re.sub(r"[\s_\-]", "", name)))
    return looks_like_rules, name_date(name) or "", -position


def name_date(name: str) -> str | None:
    """The date in a file name, from YYYYMMDD or MMDDYYYY digits, as YYYY-MM-DD."""
    for digits in _EIGHT_DIGITS.findall(name):
        for year, month, day in ((digits[:4], digits[4:6], digits[6:]),
                                 (digits[4:], digits[:2], digits[2:4])):  # fmt: skip
            try:
                found = Date(int(year), int(month), int(day))
            except ValueError:
                continue
            if 1993 <= found.year <= 2100:
                return found.isoformat()
    return None


def normalise_url(url: str) -> str:
    """Percent-encode what needs it (spaces in file names) and keep what is encoded.

    Raises BadOption for text that is no URL at all ("http://[::1").
    """
    try:
        parts = urlsplit(url)
    except ValueError as error:
        raise BadOption(f"not a valid URL ({_reason(error)}): {_shown(url)}") from None
    path = quote(parts.path, safe="/%:@!$&'()*+,;=-._~")
    return parts._replace(path=path).geturl()


def checked_url(url: str) -> str:
    """The URL, if it is one a download can use: http(s), a host, a port from 1 to
    65535. Raises BadOption with one line otherwise."""
    problem = url_problem(url)
    if problem:
        raise BadOption(f"{problem}: {_shown(url)}")
    return url


def url_problem(url: str) -> str | None:
    """Why a download cannot use a URL, or None when it can."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as error:
        if "port" in str(error).lower():
            return _BAD_PORT
        return f"not a valid URL ({_reason(error)})"
    if parts.scheme.lower() not in {"http", "https"} or not parts.netloc:
        return "not an http(s) URL"
    host = parts.hostname or ""
    if not host or any(char.isspace() or char in '<>"{}|\\^`' for char in host):
        return "no valid host name"
    return _BAD_PORT if port == 0 else None


_BAD_PORT = "invalid port (a port is a number from 1 to 65535)"


def _shown(url: str, limit: int = 200) -> str:
    return repr(url if len(url) <= limit else url[:limit] + "…")


def file_name(url: str) -> str:
    """The decoded last path segment of a URL: "MagicCompRules 20221118.txt"."""
    return unquote(urlsplit(url).path.rsplit("/", 1)[-1])


# downloading ------------------------------------------------------------------


def latest(
    page: str = DEFAULT_PAGE, *, policy: Policy = Policy(), progress: Progress | None = None
) -> Download:
    """Find the rules file linked from a rules page and download it."""
    body = _fetch(page, policy, None)
    return download(rules_link(_page_text(body), body.url), policy=policy, progress=progress)


def download(url: str, *, policy: Policy = Policy(), progress: Progress | None = None) -> Download:
    """Download a rules file; refuses an HTML page sent instead of text."""
    body = _fetch(normalise_url(url), policy, progress)
    name = file_name(body.url) or file_name(url)
    if _is_html(body):
        raise NotText(f"{body.url} sent an HTML page, not the rules text")
    if _not_text(body.content_type):
        shown = body.content_type.split(";")[0].strip()
        raise NotText(f"{body.url} sent {shown}, not the rules text")
    return Download(url=body.url, name=name, data=body.data)


def read(download: Download) -> tuple[Edition, Decoded]:
    """Decode and parse a download; a truncated edition is refused, not stored with a warning.

    `ingest` keeps damaged copies from archives with a warning because they may be
    the only copy; an official download that stops early is a failed download.
    """
    from rules_kb.ingest import pipeline

    try:
        edition, decoded = pipeline.read_edition(download.data)
    except GrammarRejected as error:
        raise GrammarRejected(
            f"{download.name}: {error}",
            line=error.line,
            column=error.column,
            details=error.details,
        ) from error
    except (NotText, NotAnEdition, ParseFailure) as error:
        raise type(error)(f"{download.name}: {error}") from error
    cut = [warning for warning in edition.warnings if warning.startswith("truncated")]
    if cut:
        raise TruncatedDownload(f"{download.name} is {cut[0]}; nothing was stored")
    return edition, decoded


@dataclass(frozen=True, slots=True)
class _Body:
    url: str
    data: bytes
    content_type: str
    charset: str | None


class _Retry(Exception):
    """A transient failure: worth another attempt."""

    def __init__(self, error: RulesKbError) -> None:
        super().__init__(str(error))
        self.error = error


def _fetch(url: str, policy: Policy, progress: Progress | None) -> _Body:
    """GET a URL with retries and backoff for transient failures."""
    url = checked_url(url)
    attempts = policy.retries + 1
    last: RulesKbError = NetworkError(f"no attempt made to fetch {url}")
    started = time.monotonic()
    tried = 0
    for attempt in range(attempts):
        left = policy.budget - (time.monotonic() - started)
        if attempt:
            if policy.wait(attempt) >= left:
                break  # no time left for another attempt
            time.sleep(policy.wait(attempt))
            left -= policy.wait(attempt)
        tried += 1
        try:
            # (an attempt's deadline never runs past what is left of the whole download)
            return _attempt(url, replace(policy, deadline=min(policy.deadline, left)), progress)
        except _Retry as retry:
            last = retry.error
    suffix = f" (tried {tried} times)" if tried > 1 else ""
    raise type(last)(f"{last}{suffix}")


class _Deadline:
    """Ends one attempt when its time is up: the clock is read between chunks, and a
    timer closes the client, which wakes a read that waits on a stalled server."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.ends = time.monotonic() + seconds
        self.expired = False
        self._timer: threading.Timer | None = None

    def watch(self, client: httpx.Client) -> None:
        def expire() -> None:
            self.expired = True
            client.close()

        self._timer = threading.Timer(self.seconds, expire)
        self._timer.daemon = True
        self._timer.start()

    def check(self) -> None:
        if self.expired or time.monotonic() > self.ends:
            self.expired = True
            raise _Expired

    def cancel(self) -> None:
        if self._timer is not None:
            self._timer.cancel()


class _Expired(Exception):
    """The attempt's deadline passed (turned into a NetworkError by `_attempt`)."""


@dataclass(slots=True)
class _Progress:
    received: int = 0
    total: int | None = None


def _attempt(url: str, policy: Policy, progress: Progress | None) -> _Body:
    """One GET, within the policy's deadline; failures become rules_kb errors, wrapped
    in _Retry when they are worth another attempt."""
    import httpx

    clock = _Deadline(policy.deadline)
    state = _Progress()
    client = httpx.Client(
        timeout=httpx.Timeout(policy.timeout),
        follow_redirects=True,
        headers={"User-Agent": USER_AGENT},
        event_hooks={"request": [_redirect_check(url)]},
    )
    clock.watch(client)
    try:
        with client:
            return _transfer(client, url, progress, clock, state)
    except _Expired:
        raise _Retry(_past_deadline(url, policy, state)) from None
    except (httpx.HTTPError, httpx.InvalidURL) as error:
        if clock.expired:
            raise _Retry(_past_deadline(url, policy, state)) from error
        raise _failure(error, url, policy, state) from error
    except Exception as error:
        # a client closed under a read by the deadline's timer may fail in other ways
        if clock.expired:
            raise _Retry(_past_deadline(url, policy, state)) from error
        raise
    finally:
        clock.cancel()


def _transfer(
    client: httpx.Client,
    url: str,
    progress: Progress | None,
    clock: _Deadline,
    state: _Progress,
) -> _Body:
    with client.stream("GET", url) as response:
        _check_status(response)
        state.total = _content_length(response)
        chunks: list[bytes] = []
        size = 0
        # iter_bytes undoes Content-Encoding; num_bytes_downloaded counts wire bytes,
        # which is what Content-Length promises.
        for chunk in response.iter_bytes():
            clock.check()
            chunks.append(chunk)
            size += len(chunk)
            state.received = response.num_bytes_downloaded
            if size > MAX_BYTES:
                raise NotText(f"{url} is larger than {MAX_BYTES // 2**20} MB: not rules text")
            if progress:
                progress(state.received, state.total)
        if state.total is not None and state.received < state.total:
            _truncated(url, state.received, state.total)
        return _Body(
            url=str(response.url),
            data=b"".join(chunks),
            content_type=response.headers.get("content-type", ""),
            charset=response.charset_encoding,
        )


def _redirect_check(first: str) -> Callable[[httpx.Request], None]:
    """A request hook: every URL a redirect leads to must be one a download can use."""

    def check(request: httpx.Request) -> None:
        target = str(request.url)
        if target == first:
            return
        problem = url_problem(target)
        if problem:
            raise BadOption(f"{first} redirected to {_shown(target)}: {problem}")

    return check


def _past_deadline(url: str, policy: Policy, state: _Progress) -> NetworkError:
    got = f"{state.received:,} bytes" + (f" of {state.total:,}" if state.total else "")
    return NetworkError(
        f"the deadline of {policy.deadline:g} s for one download attempt passed"
        f" ({got} received) from {url}"
    )


def _failure(error: Exception, url: str, policy: Policy, state: _Progress) -> Exception:
    """The rules_kb error for an httpx one: a _Retry when another attempt may succeed."""
    import httpx

    if isinstance(error, httpx.TimeoutException):
        return _Retry(
            NetworkError(f"timed out after {policy.timeout:g} s ({_what(error)}) from {url}")
        )
    if isinstance(error, httpx.UnsupportedProtocol):
        return NetworkError(f"{url}: {_reason(error)}")
    if isinstance(error, httpx.ConnectError):
        host = urlsplit(url).netloc
        return _Retry(NetworkError(f"cannot connect to {host}: {_reason(error)}"))
    if isinstance(error, httpx.RemoteProtocolError):
        if state.total is not None and state.received < state.total:
            return _truncated_error(url, state.received, state.total)
        return _Retry(NetworkError(f"{url}: the connection broke ({_reason(error)})"))
    if isinstance(error, httpx.TransportError):
        return _Retry(NetworkError(f"{url}: {_reason(error)}"))
    if isinstance(error, httpx.DecodingError):
        return _Retry(TruncatedDownload(f"{url}: the compressed body is damaged"))
    if isinstance(error, httpx.TooManyRedirects):
        return NetworkError(f"{url}: too many redirects")
    return NetworkError(f"{url}: {_reason(error)}")


def _check_status(response: httpx.Response) -> None:
    if response.status_code < 400:
        return
    error = HttpError(f"HTTP {response.status_code} {response.reason_phrase} from {response.url}")
    if response.status_code in RETRY_STATUSES:
        raise _Retry(error)
    raise error


def _content_length(response: httpx.Response) -> int | None:
    value = response.headers.get("content-length", "")
    return int(value) if value.isdigit() else None


def _truncated(url: str, received: int, total: int) -> NoReturn:
    raise _truncated_error(url, received, total)


def _truncated_error(url: str, received: int, total: int) -> _Retry:
    return _Retry(
        TruncatedDownload(f"download cut short: received {received} of {total} bytes from {url}")
    )


def _what(error: Exception) -> str:
    import httpx

    if isinstance(error, httpx.ConnectTimeout):
        return "connecting"
    if isinstance(error, httpx.ReadTimeout):
        return "waiting for data"
    return "sending" if isinstance(error, httpx.WriteTimeout) else "waiting"


def _reason(error: Exception) -> str:
    text = re.sub(r"^\[Errno -?\d+\]\s*", "", str(error)).strip()
    return (text[:1].lower() + text[1:]) if text else type(error).__name__


def _page_text(body: _Body) -> str:
    try:
        return body.data.decode(body.charset or "utf-8", errors="replace")
    except LookupError:  # a charset no codec knows
        return body.data.decode("utf-8", errors="replace")


#: Media types that are never a rules text, whatever the bytes look like.
_NOT_TEXT_TYPES = ("image/", "audio/", "video/", "font/", "model/", "multipart/")
_NOT_TEXT_SUBTYPES = frozenset(
    {"application/pdf", "application/zip", "application/gzip", "application/x-tar",
     "application/x-7z-compressed", "application/vnd.rar", "application/json",
     "application/javascript", "application/wasm"}
)  # fmt: skip


def _not_text(content_type: str) -> bool:
    """Whether a Content-Type says the body is no text (text/*, octet-stream and a
    missing type may all be a rules file)."""
    media = content_type.split(";")[0].strip().lower()
    return media.startswith(_NOT_TEXT_TYPES) or media in _NOT_TEXT_SUBTYPES


def _is_html(body: _Body) -> bool:
    head = body.data[:1024].lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    sniffed = head.startswith((b"<!doctype html", b"<html")) or b"<html" in head[:512]
    return sniffed or (body.content_type.startswith("text/html") and head.startswith(b"<"))
