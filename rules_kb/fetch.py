"""Downloads of official editions: find the rules file on the rules page, fetch it.

Wizards of the Coast link the current Comprehensive Rules as a `.txt` file from
https://magic.wizards.com/en/rules. The file's name has changed over the years
("MagicCompRules_20170428.txt", "MagicCompRules%2020221118.txt",
"MagicComp%20Rules%2020230203.txt", "MagicCompRules%2004102024.txt",
"MagicCompRulesWOE%2020230901.txt", hrefs with bare spaces), so the link is found
by what it is (a `.txt` whose name says comprehensive rules), never by a pattern
for the name.

Transient failures (no connection, timeouts, HTTP 5xx, a body cut short) are
retried with exponential backoff; the rest fail at once. Every failure is one
exception from rules_kb.errors with a one-line message. httpx is imported only here.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date as Date
from html.parser import HTMLParser
from typing import TYPE_CHECKING, NoReturn
from urllib.parse import quote, unquote, urljoin, urlsplit

from rules_kb.errors import (
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

    from rules_kb.decode import Decoded
    from rules_kb.models import Edition

#: The official rules page, which links the current edition.
DEFAULT_PAGE = "https://magic.wizards.com/en/rules"
USER_AGENT = "rules-kb/0.1 (+https://magic.wizards.com/en/rules reader)"
#: A whole edition is about 1 MB; anything far larger is not one.
MAX_BYTES = 64 * 1024 * 1024
#: Statuses worth asking again for: the server may recover.
RETRY_STATUSES = frozenset({408, 425, 429, 500, 502, 503, 504})

Progress = Callable[[int, int | None], None]
"""Called as bytes arrive with (bytes so far, total bytes or None when unknown)."""


@dataclass(frozen=True, slots=True)
class Policy:
    """How patient a download is."""

    timeout: float = 30.0
    """Seconds allowed to connect, and between two reads of the body."""
    retries: int = 3
    """Further attempts after the first one, for transient failures only."""
    backoff: float = 1.0
    """Seconds before the first retry; each following retry waits twice as long."""


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
    urls = [normalise_url(urljoin(base, href)) for href in candidates]
    return max(enumerate(urls), key=lambda item: _rank(item[1], item[0]))[1]


def _is_txt(href: str) -> bool:
    return urlsplit(href).path.lower().endswith(".txt")


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
    """Percent-encode what needs it (spaces in file names) and keep what is encoded."""
    parts = urlsplit(url)
    path = quote(parts.path, safe="/%:@!$&'()*+,;=-._~")
    return parts._replace(path=path).geturl()


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
    return Download(url=body.url, name=name, data=body.data)


def read(download: Download) -> tuple[Edition, Decoded]:
    """Decode and parse a download; a truncated edition is refused, not stored with a warning.

    `ingest` keeps damaged copies from archives with a warning because they may be
    the only copy; an official download that stops early is a failed download.
    """
    from rules_kb import pipeline

    try:
        edition, decoded = pipeline.read_edition(download.data)
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
    import httpx

    _check_scheme(url)
    attempts = max(0, policy.retries) + 1
    last: RulesKbError = NetworkError(f"no attempt made to fetch {url}")
    with httpx.Client(
        timeout=httpx.Timeout(policy.timeout),
        follow_redirects=True,
        headers={"User-Agent": USER_AGENT},
    ) as client:
        for attempt in range(attempts):
            if attempt:
                time.sleep(policy.backoff * 2 ** (attempt - 1))
            try:
                return _attempt(client, url, policy, progress)
            except _Retry as retry:
                last = retry.error
    suffix = f" (tried {attempts} times)" if attempts > 1 else ""
    raise type(last)(f"{last}{suffix}")


def _check_scheme(url: str) -> None:
    parts = urlsplit(url)
    if parts.scheme not in {"http", "https"} or not parts.netloc:
        raise NetworkError(f"not an http(s) URL: {url!r}")


def _attempt(client: httpx.Client, url: str, policy: Policy, progress: Progress | None) -> _Body:
    import httpx

    received = 0
    total: int | None = None
    try:
        with client.stream("GET", url) as response:
            _check_status(response)
            total = _content_length(response)
            chunks: list[bytes] = []
            size = 0
            # iter_bytes undoes Content-Encoding; num_bytes_downloaded counts wire bytes,
            # which is what Content-Length promises.
            for chunk in response.iter_bytes():
                chunks.append(chunk)
                size += len(chunk)
                received = response.num_bytes_downloaded
                if size > MAX_BYTES:
                    raise NotText(f"{url} is larger than {MAX_BYTES // 2**20} MB: not rules text")
                if progress:
                    progress(received, total)
            if total is not None and received < total:
                _truncated(url, received, total)
            return _Body(
                url=str(response.url),
                data=b"".join(chunks),
                content_type=response.headers.get("content-type", ""),
                charset=response.charset_encoding,
            )
    except httpx.TimeoutException as error:
        raise _Retry(
            NetworkError(f"timed out after {policy.timeout:g} s ({_what(error)}) from {url}")
        ) from error
    except httpx.ConnectError as error:
        host = urlsplit(url).netloc
        raise _Retry(NetworkError(f"cannot connect to {host}: {_reason(error)}")) from error
    except httpx.RemoteProtocolError as error:
        if total is not None and received < total:
            _truncated(url, received, total)
        raise _Retry(NetworkError(f"{url}: the connection broke ({_reason(error)})")) from error
    except httpx.TransportError as error:
        raise _Retry(NetworkError(f"{url}: {_reason(error)}")) from error
    except httpx.DecodingError as error:
        raise _Retry(TruncatedDownload(f"{url}: the compressed body is damaged")) from error
    except httpx.TooManyRedirects as error:
        raise NetworkError(f"{url}: too many redirects") from error
    except (httpx.HTTPError, httpx.InvalidURL) as error:
        raise NetworkError(f"{url}: {_reason(error)}") from error


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
    raise _Retry(
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
    return body.data.decode(body.charset or "utf-8", errors="replace")


def _is_html(body: _Body) -> bool:
    head = body.data[:1024].lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    sniffed = head.startswith((b"<!doctype html", b"<html")) or b"<html" in head[:512]
    return sniffed or (body.content_type.startswith("text/html") and head.startswith(b"<"))
