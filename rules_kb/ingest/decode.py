"""Bytes to text: the only module that knows about encodings.

The Comprehensive Rules were published over 27 years in whatever encoding the
tool of the day wrote: ASCII, cp1252, Mac Roman, DOS cp437, UTF-8 with and
without a BOM, UTF-16 in both byte orders, and re-encoded copies in GBK or
double-encoded UTF-8 ("mojibake"). `decode()` picks the encoding, repairs what
can be repaired without loss, normalises line endings, and reports every kind
of damage as a warning instead of hiding it.

Damage never changes how the rest of a file is read: bytes that the chosen
encoding cannot decode become U+FFFD with a warning naming their lines, and a
file is read in a legacy code page only when the evidence for it beats reading
it as damaged UTF-8. Whatever path the bytes took, one function (`_report_damage`)
checks the text that came out: replacement characters, control characters, and
question marks standing for lost characters.
"""

from __future__ import annotations

import codecs
import re
import threading
import unicodedata
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field

from rules_kb import controls
from rules_kb.errors import NotText

#: Single-byte and legacy multi-byte encodings tried when the bytes are not UTF-8.
LEGACY_ENCODINGS = ("cp1252", "mac_roman", "cp437", "gbk")
#: How many line numbers a damage warning lists.
SHOWN_LINES = 5
#: A file whose first bytes come again after this many bytes holds a second copy of
#: itself (whole files concatenated). The smallest edition is 140 KB.
MIN_COPY_BYTES = 64 * 1024
_COPY_PREFIX_BYTES = 4096

#: Non-ASCII characters that the CR really uses: typography, marks and the
#: accented letters of card names (Dandân, Lim-Dûl, Æther, Ifh-Bíff Efreet).
_TYPOGRAPHY = frozenset("‘’“”–—…•™®©−∞\u00a0")
_LATIN_LETTERS = frozenset("áàâäãåéèêëíìîïóòôöõúùûüñçæÆÁÀÂÄÉÈÊËÍÎÏÓÔÖÚÛÜÑÇœŒ")

#: The second character of a double-encoded UTF-8 sequence (after Â, Ã or â).
_MOJIBAKE_TRAIL = "[\u0080-\u00bf€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ]"
_MOJIBAKE = re.compile("[ÂÃâ]" + _MOJIBAKE_TRAIL)
_MOJIBAKE_SECOND = re.compile(_MOJIBAKE_TRAIL)
#: cp1252 bytes that were read as Latin-1 and re-encoded as UTF-8 show up as C1 controls.
_C1_CONTROLS = re.compile("[\u0080-\u009f]")
_UTF8_REPLACEMENT_BYTES = b"\xef\xbf\xbd"
#: No rule puts a question mark between two letters: "player?s" lost its apostrophe.
#: (`_words_with_question_marks` finds what this finds, looking only at each "?".)
QUESTION_IN_WORD = re.compile(r"(?<![./=\w])[A-Za-z]+\?[A-Za-z]+\b(?!=)")
_ASCII_LETTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
#: In a GBK copy a "?" glued to a word stands for a character GBK could not encode.
_QUESTION_FOR_LOST = re.compile(r"(?<=[A-Za-z])\?(?=[A-Za-z ,.;:)”\"’'])")
_NON_ASCII_RUNS = re.compile("([^\x00-\x7f]+)")
#: Characters `_strange` may say yes to (the rest are printable ASCII, tab, newline, FF).
_MAYBE_STRANGE = re.compile("[^\t\n\f\x20-\x7e]")
_BYTE_LINE_BREAKS = re.compile(rb"\r\n?|\n")
#: Two adjacent lines that both hold something other than whitespace.
_ADJACENT_LINES = re.compile(r"\S[^\S\n]*\n[^\S\n]*\S")
_LEADING_SPACE = re.compile(r"\s*")
#: Each invalid sequence costs a decoding this much plausibility, besides its U+FFFD.
_INVALID_PENALTY = 5


@dataclass(frozen=True, slots=True)
class Decoded:
    """The text of one file and what it took to get it."""

    text: str
    """Unicode text with LF line endings and no BOM."""
    encoding: str
    """The encoding the bytes were read with (e.g. "utf-8-sig", "cp1252")."""
    warnings: tuple[str, ...] = field(default=())
    """Damage found or repaired, one sentence each."""


@dataclass(frozen=True, slots=True)
class _Read:
    """The text one decoding path produced, before repair and line-ending clean-up."""

    text: str
    encoding: str
    reported: int = 0
    """How many U+FFFD in `text` the path has already accounted for in a warning."""


def decode(data: bytes) -> Decoded:
    """Decode one CR file's bytes to text, reporting damage as warnings."""
    if not data or data.isspace():  # (not data.strip(): that copies the whole file)
        raise NotText("the file is empty")
    if data.startswith(b"%PDF"):
        raise NotText("the file is a PDF, not plain text")
    warnings: list[str] = []
    data = _first_copy(data, warnings)
    read = _decode_bytes(data, warnings)
    text = _repair(read.text, warnings)
    text = _undouble_line_breaks(normalise_newlines(text), warnings)
    if not text or text.isspace():
        raise NotText("the file is empty")
    _check_text(text)
    _report_damage(text, read, warnings)
    return Decoded(text=text, encoding=read.encoding, warnings=tuple(warnings))


def _first_copy(data: bytes, warnings: list[str]) -> bytes:
    """The bytes up to where the file starts over: whole copies of one file concatenated
    (their line endings may differ).

    Only the first copy is decoded, so memory and time stay those of one edition.
    """
    head = data[:_COPY_PREFIX_BYTES]
    if len(data) < 2 * MIN_COPY_BYTES or len(head) < _COPY_PREFIX_BYTES:
        return data
    at = data.find(head, MIN_COPY_BYTES)
    if at == -1:
        at = _copy_with_other_line_ends(data, head)
    if at == -1:
        return data
    again = data[at : at + _COPY_PREFIX_BYTES]
    copies = data.count(again) + (again != head)
    warnings.append(
        f"the file starts over at byte {at:,} ({copies} copies of the same text one after"
        " another): only the first copy was read"
    )
    return data[:at]


def _copy_with_other_line_ends(data: bytes, head: bytes) -> int:
    """Where the file's beginning comes again with CRLF for LF or the other way round."""
    opening = head.replace(b"\r\n", b"\n")[: _COPY_PREFIX_BYTES // 2]
    first_line = opening.split(b"\n", 1)[0]
    if len(first_line) < 8:
        return -1
    at = data.find(first_line, MIN_COPY_BYTES)
    for _ in range(10):
        if at == -1:
            return -1
        window = data[at : at + _COPY_PREFIX_BYTES].replace(b"\r\n", b"\n")
        if window.startswith(opening):
            return at
        at = data.find(first_line, at + 1)
    return -1


def normalise_newlines(text: str) -> str:
    """Turn CRLF, bare CR, U+2028/U+2029 and NEL into LF."""
    if text.isascii() and "\r" not in text:
        return text
    return (
        text.replace("\r\n", "\n")
        .replace("\r", "\n")
        .replace("\u2028", "\n")
        .replace("\u2029", "\n")
        .replace("\x85", "\n")
    )


# checks that every decoding path goes through ----------------------------------------


def _report_damage(text: str, read: _Read, warnings: list[str]) -> None:
    """Report the damage the decoded text carries, whichever way it was decoded."""
    replaced = text.count("\ufffd") - read.reported
    if replaced > 0:
        warnings.append(
            f"{replaced} U+FFFD replacement characters: the original characters are lost"
        )
    _report_controls(text, warnings)
    _count_lost_to_question_marks(text, read.encoding, warnings)


def _report_controls(text: str, warnings: list[str]) -> None:
    """Control characters (ESC, BEL, NUL, DEL, C1) are kept, and said to be there."""
    offsets = controls.find(text)
    if not offsets:
        return
    names = ", ".join(sorted({controls.name(text[i]) for i in offsets}))
    line = text.count("\n", 0, offsets[0]) + 1
    if len(offsets) == 1:
        warnings.append(f"1 control character ({names}) in the text, on line {line}; kept as it is")
        return
    warnings.append(
        f"{len(offsets)} control characters ({names}) in the text, the first on line {line};"
        " kept as they are"
    )


def _count_lost_to_question_marks(text: str, encoding: str, warnings: list[str]) -> None:
    """Report "player?s": a converter that could not write a character wrote "?" instead."""
    if encoding == "gbk":
        return  # counted, with a wider pattern, where GBK is chosen
    lost = _words_with_question_marks(text)
    if len(lost) >= 3:
        warnings.append(
            f"{len(lost)} characters were replaced by '?' in this copy "
            f"(as in {lost[0]!r}) and are lost"
        )


def _words_with_question_marks(text: str) -> list[str]:
    """`QUESTION_IN_WORD.findall(text)`, from each "?" instead of from every position.

    A match holds one "?", letters on both sides of it; it must start where its
    letters start, after no word character, dot, slash or "=", and end where its
    letters end, before no word character and no "=". Matches do not overlap.
    """
    found: list[str] = []
    end = 0
    at = text.find("?")
    while at != -1:
        start = at
        while start > 0 and text[start - 1] in _ASCII_LETTERS:
            start -= 1
        stop = at + 1
        while stop < len(text) and text[stop] in _ASCII_LETTERS:
            stop += 1
        before, after = text[start - 1 : start], text[stop : stop + 1]
        if (
            start < at < stop - 1
            and start >= end
            and not (before and before in "./=")
            and not _is_word(before)
            and after != "="
            and not _is_word(after)
        ):
            found.append(text[start:stop])
            end = stop
        at = text.find("?", at + 1)
    return found


def _is_word(char: str) -> bool:
    """What `\\w` matches (false for the empty string)."""
    return char.isalnum() or char == "_"


def _undouble_line_breaks(text: str, warnings: list[str]) -> str:
    """Undo copies in which every line break became two (each CR turned into LF)."""
    if text.count("\n") < 199 or _ADJACENT_LINES.search(text):
        return text
    warnings.append("every line break was doubled in this copy (CR turned into LF); undone")
    return text.replace("\n\n", "\n")


# choosing the encoding -----------------------------------------------------------------


def _decode_bytes(data: bytes, warnings: list[str]) -> _Read:
    if data.startswith(codecs.BOM_UTF8):
        return _declared(data[3:], "utf-8", "utf-8-sig", warnings)
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        encoding = "utf-16-le" if data.startswith(codecs.BOM_UTF16_LE) else "utf-16-be"
        body = _realigned_utf16(data[2:], encoding, warnings)
        if len(body) % 2:
            warnings.append("UTF-16 text has an odd number of bytes: the last byte was dropped")
            body = body[:-1]
        return _declared(body, encoding, encoding, warnings)
    sniffed = _sniff_utf16(data)
    if sniffed is not None:
        warnings.append(f"UTF-16 without a byte-order mark; read as {sniffed}")
        text = _utf16_resync(data, sniffed, warnings)
        return _Read(text, sniffed, reported=text.count("\ufffd"))
    try:
        return _Read(data.decode("utf-8"), "utf-8")
    except UnicodeDecodeError:
        pass
    return _undeclared(data, warnings)


def _declared(data: bytes, codec: str, encoding: str, warnings: list[str]) -> _Read:
    """Decode bytes whose encoding a byte-order mark declares: the mark is trusted, and
    what the encoding cannot read becomes U+FFFD with a warning."""
    text, invalid = _decode_replacing(data, codec)
    _report_invalid(data, codec, invalid, warnings)
    return _Read(text, encoding, reported=len(invalid))


def _undeclared(data: bytes, warnings: list[str]) -> _Read:
    """Bytes without a byte-order mark that are not valid UTF-8: damaged UTF-8, or a
    legacy code page, whichever the evidence favours.

    A damaged UTF-8 file has a handful of invalid sequences among many valid
    multi-byte ones; a legacy file has an "invalid sequence" at nearly every
    non-ASCII byte and hardly any valid one. So the file is UTF-8 when its valid
    multi-byte characters are at least as many as its invalid sequences. Otherwise
    each reading is scored on one scale (how much its non-ASCII characters read like
    the CR's, less a cost per byte it cannot decode), and a legacy code page wins
    only if it scores better than the best that reading the file as damaged UTF-8
    could score.
    """
    utf8 = data.decode("utf-8", errors="replace")
    invalid = utf8.count("\ufffd") - data.count(_UTF8_REPLACEMENT_BYTES)
    valid = len(utf8) - len(utf8.encode("ascii", "ignore")) - invalid
    best = None if valid >= invalid else _legacy(data, _ceiling(valid, invalid))
    if best is None:
        utf8, offsets = _decode_replacing(data, "utf-8")  # again, to say where
        _report_invalid(data, "utf-8", offsets, warnings)
        return _Read(utf8, "utf-8", reported=len(offsets))
    text, encoding, lost = best
    _report_invalid(data, encoding, lost, warnings)
    if encoding == "gbk":
        warnings.append("re-encoded copy: read as GBK")
        count = len(_QUESTION_FOR_LOST.findall(text))
        if count:
            warnings.append(
                f"{count} characters GBK cannot hold (™, ®, accented letters) "
                "were replaced by '?' in this copy and are lost"
            )
    return _Read(text, encoding, reported=len(lost))


def _legacy(data: bytes, to_beat: float) -> tuple[str, str, list[int]] | None:
    """The legacy decoding that reads most like the CR, if it scores above `to_beat`.

    A decoding that needs replacement characters competes too, at a cost per
    invalid sequence, so that one stray byte cannot tip a whole file into another
    code page. The single-byte code pages are scored from the file's non-ASCII byte
    runs, counted once; GBK is decoded, and scored only if it could win.
    """
    contexts = _ByteContexts(data)
    best_score, best = 0.0, ""
    for encoding in LEGACY_ENCODINGS:
        if encoding == "gbk":
            gbk = data.decode("gbk", errors="replace")
            lost = gbk.count("\ufffd")
            others = len(gbk) - len(gbk.encode("ascii", "ignore")) - lost
            if best and _ceiling(others, lost) <= best_score:
                continue
            score = _plausibility(gbk) - _INVALID_PENALTY * lost
        else:
            score, lost = contexts.plausibility(encoding)
            score -= _INVALID_PENALTY * lost
        if not best or score > best_score:
            best_score, best = score, encoding
    if not best or best_score <= to_beat:
        return None
    try:
        return data.decode(best), best, []
    except UnicodeDecodeError:
        text, invalid = _decode_replacing(data, best)
        return text, best, invalid


def _ceiling(readable: int, invalid: int) -> float:
    """The most a decoding can score with this many non-ASCII characters and invalid
    sequences: +2 for each character, -3 for each U+FFFD and the cost of the sequence."""
    return 2.0 * readable - (3 + _INVALID_PENALTY) * invalid


# decoding with replacement, and saying where -------------------------------------------

_invalid_offsets = threading.local()


def _record_invalid(error: UnicodeError) -> tuple[str, int]:
    """A codec error handler: U+FFFD, like "replace", and the offset written down."""
    if not isinstance(error, UnicodeDecodeError):
        raise error
    _invalid_offsets.found.append(error.start)
    return "\ufffd", error.end


codecs.register_error("rules_kb.replace", _record_invalid)


def _decode_replacing(data: bytes, codec: str) -> tuple[str, list[int]]:
    """Decode with U+FFFD for each invalid sequence; return the text and their offsets."""
    _invalid_offsets.found = []
    try:
        text = data.decode(codec, errors="rules_kb.replace")
        found: list[int] = _invalid_offsets.found
    finally:
        del _invalid_offsets.found
    return text, found


def _report_invalid(data: bytes, codec: str, offsets: list[int], warnings: list[str]) -> None:
    if not offsets:
        return
    lines = list(dict.fromkeys(_lines_at(data, codec, offsets[:SHOWN_LINES])))
    more = f" and {len(offsets) - SHOWN_LINES} more" if len(offsets) > SHOWN_LINES else ""
    where = ("line " if len(lines) == 1 and not more else "lines ") + ", ".join(map(str, lines))
    name = {"utf-8": "UTF-8", "utf-16-le": "UTF-16", "utf-16-be": "UTF-16"}.get(codec, codec)
    if len(offsets) == 1:
        warnings.append(
            f"1 byte sequence is not valid {name} ({where}): read as U+FFFD,"
            " the original character is lost"
        )
        return
    warnings.append(
        f"{len(offsets)} byte sequences are not valid {name} ({where}{more}):"
        " read as U+FFFD, the original characters are lost"
    )


def _lines_at(data: bytes, codec: str, offsets: list[int]) -> list[int]:
    """The 1-based line numbers of byte offsets, as the decoded text will number them."""
    if codec.startswith("utf-16"):
        return [
            normalise_newlines(data[:offset].decode(codec, errors="replace")).count("\n") + 1
            for offset in offsets
        ]
    lines, line, start = [], 1, 0
    for offset in offsets:
        line += len(_BYTE_LINE_BREAKS.findall(data, start, offset))
        lines.append(line)
        start = offset
    return lines


# UTF-16 ------------------------------------------------------------------------------


def _utf16_resync(data: bytes, encoding: str, warnings: list[str]) -> str:
    """Decode damaged UTF-16, finding the byte alignment again on every line.

    Copies without a byte-order mark were made by tools that treated UTF-16 as
    bytes: they dropped CR bytes, stripped "trailing" 0x20 bytes and spliced in
    3-byte UTF-8 replacement marks, each of which shifts the alignment by one
    byte. Each line, and each run between replacement marks, is aligned afresh
    from where its NUL bytes fall.
    """
    replaced = data.count(_UTF8_REPLACEMENT_BYTES)
    if replaced:
        warnings.append(
            f"{replaced} UTF-8 replacement marks inside UTF-16 text: "
            "the original characters are lost"
        )
    restored: list[str] = []
    lines = []
    for line in data.split(b"\n"):
        pieces = line.split(_UTF8_REPLACEMENT_BYTES)
        lines.append("\ufffd".join(_utf16_piece(piece, encoding, restored) for piece in pieces))
    text = "\n".join(lines)
    lost = text.count("\ufffd") - replaced
    if lost > 0:
        warnings.append(f"{lost} characters of the UTF-16 text could not be recovered (U+FFFD)")
    if restored:
        warnings.append(
            f"{len(restored)} characters ({''.join(sorted(set(restored)))}) had lost their "
            "high byte 0x20 and were restored"
        )
    return text


#: A character that ASCII text read one byte out of alignment becomes: a printable
#: ASCII byte high, a NUL low ("a" is 61 00 in UTF-16-LE; read from the 00, U+6100).
_SHIFTED = "[" + "".join(chr(high << 8) for high in (9, 10, 13, *range(0x20, 0x7F))) + "]"
#: Four such characters among six: text out of alignment (CR text has no CJK).
_SHIFTED_RUN = re.compile(f"(?:{_SHIFTED}[^\n]?){{4}}")
#: More breaks than this, and the file is not one damaged here and there.
MAX_UTF16_BREAKS = 16
#: Units decoded to judge a repair.
_JUDGED = 24


def _realigned_utf16(body: bytes, encoding: str, warnings: list[str]) -> bytes:
    """The UTF-16 body with each break of its byte alignment repaired, and a warning per
    file saying where; the body itself when it reads cleanly.

    A byte inserted into or lost from UTF-16 shifts every following character by one
    byte: the rest of the file reads as CJK. Where the text goes out of alignment, three
    repairs are tried (drop the byte at the break, drop the next one, restore a lost NUL
    byte of an ASCII character) and the one after which the next characters read as text
    is taken; when two repairs read equally well but differently, the character at the
    break is marked U+FFFD. More than MAX_UTF16_BREAKS breaks is no local damage: the file
    is refused."""
    if not _SHIFTED_RUN.search(body[: len(body) // 2 * 2].decode(encoding, errors="replace")):
        return body
    nul_first = encoding == "utf-16-be"
    breaks: list[int] = []
    marked = 0
    start = 0
    while True:
        even = start + (len(body) - start) // 2 * 2
        text = body[start:even].decode(encoding, errors="replace")
        found = _SHIFTED_RUN.search(text)
        if found is None:
            break
        if len(breaks) >= MAX_UTF16_BREAKS:
            raise NotText(
                f"the UTF-16 text loses its byte alignment more than {MAX_UTF16_BREAKS} times:"
                " the file is damaged throughout"
            )
        at = found.start()
        while at > 0 and not _reads_as_text(text[at - 1]):
            at -= 1
        point = start + 2 * at
        repair, ambiguous = _realign_at(body[point : point + 2 * _JUDGED + 2], encoding, nul_first)
        if ambiguous:
            repair = "\ufffd".encode(encoding) + repair[2:]
            marked += 1
        body = body[:point] + repair + body[point + 2 * _JUDGED + 2 :]
        breaks.append(body[:point].decode(encoding, errors="replace").count("\n") + 1)
        start = point + 2
    shown = ", ".join(str(line) for line in breaks[:5]) + (" …" if len(breaks) > 5 else "")
    lost = f"; {marked} character(s) there unreadable (U+FFFD)" if marked else ""
    warnings.append(
        f"the UTF-16 byte alignment broke {len(breaks)} time(s) (a byte inserted or lost,"
        f" on line {shown}) and was found again{lost}"
    )
    return body


def _realign_at(window: bytes, encoding: str, nul_first: bool) -> tuple[bytes, bool]:
    """The best repair of a window that starts where the alignment breaks, and whether
    another repair reads as well but differently (the first character is then unsure)."""
    nul = b"\x00"
    candidates = [
        window[1:],  # a byte inserted here
        window[:1] + window[2:],  # a byte inserted after the first
        (nul + window) if nul_first else (window[:1] + nul + window[1:]),  # a NUL lost
    ]
    scored = []
    for candidate in candidates:
        read = candidate[: 2 * _JUDGED].decode(encoding, errors="replace")
        scored.append((sum(map(_reads_as_text, read)), read, candidate))
    best = max(score for score, _read, _candidate in scored)
    winners = [item for item in scored if item[0] == best]
    texts = {read[:1] for _score, read, _candidate in winners}
    return winners[-1][2], len(texts) > 1


def _reads_as_text(char: str) -> bool:
    """Whether a character reads as text of the CR (not a byte-shifted one)."""
    code = ord(char)
    if code < 0x80:
        return char.isprintable() or char in "\n\r\t"
    if code & 0xFF == 0:
        return False  # an ASCII byte, or a line break, read one byte out of place
    # Latin letters with accents; punctuation (’ “ — • …); letterlike symbols (™)
    return code <= 0x24F or 0x2000 <= code <= 0x206F or 0x2100 <= code <= 0x214F


def _utf16_piece(data: bytes, encoding: str, restored: list[str]) -> str:
    """Decode one run of UTF-16, finding its byte alignment from where the NULs fall."""
    nul_index = 1 if encoding == "utf-16-le" else 0
    shift = max((0, 1), key=lambda s: data[s + nul_index :: 2].count(0))
    body = data[shift:]
    tail = ""
    if len(body) % 2:
        body, last = body[:-1], body[-1]
        # Tools that stripped "trailing spaces" byte-wise removed the 0x20 high byte
        # of a line-final ’ ” – — (U+2010..U+202F): that byte can only have been 0x20.
        if last == 0:
            tail = ""  # the high byte of the newline the split removed
        elif encoding == "utf-16-le" and 0x10 <= last <= 0x2F:
            tail = chr(0x2000 + last)
            restored.append(tail)
        else:
            tail = "\ufffd"
    return body.decode(encoding, errors="replace") + tail


def _sniff_utf16(data: bytes) -> str | None:
    """Recognise UTF-16 without a byte-order mark by its NUL bytes."""
    sample = data[:8192]
    even, odd = sample[0::2].count(0), sample[1::2].count(0)
    if len(sample) < 8 or even + odd < len(sample) // 4:
        return None
    # Mostly-ASCII UTF-16 is about half NULs, and the other bytes are printable.
    nuls = even + odd
    printable = sum(1 for byte in sample if 0x20 <= byte < 0x7F or byte in b"\t\n\r")
    if nuls > 0.65 * len(sample) or printable < 0.7 * (len(sample) - nuls):
        return None
    return "utf-16-le" if odd > even else "utf-16-be"


# how much a decoding reads like the CR -------------------------------------------------


def _plausibility(text: str) -> float:
    """Score how much the non-ASCII characters of a decoding look like the CR's."""
    pieces = _NON_ASCII_RUNS.split(text)
    befores = [piece[-1:] for piece in pieces[0:-1:2]]
    afters = [piece[:1] for piece in pieces[2::2]]
    contexts = Counter(zip(befores, pieces[1::2], afters, strict=True))
    return sum(count * _run_score(*context) for context, count in contexts.items())


class _ByteContexts:
    """The non-ASCII byte runs of a file with the bytes around them, counted once, so
    that each single-byte code page is scored without decoding the whole file again."""

    def __init__(self, data: bytes) -> None:
        self.contexts = Counter(
            (data[start - 1 : start], data[start:end], data[end : end + 1])
            for start, end in _non_ascii_runs(data)
        )

    def plausibility(self, encoding: str) -> tuple[float, int]:
        """`_plausibility` of the file decoded in a single-byte code page, and how many
        of its bytes that code page has no character for."""
        score, lost = 0.0, 0
        for (before, run, after), count in self.contexts.items():
            # ASCII bytes read the same in every one of these code pages
            text = run.decode(encoding, errors="replace")
            score += count * _run_score(before.decode("ascii"), text, after.decode("ascii"))
            lost += count * text.count("\ufffd")
        return score, lost


_BYTE_RUN = re.compile(rb"[\x80-\xff]+")
_ASCII_STRETCH = 4096


def _non_ascii_runs(data: bytes) -> Iterator[tuple[int, int]]:
    """(start, end) of each run of non-ASCII bytes. Stretches of ASCII are passed over a few
    kilobytes at a time (`bytes.isascii`), so the pattern only reads near the runs: a legacy
    file has a hundred or so of them in a megabyte."""
    at, size = 0, len(data)
    while at < size:
        stretch = data[at : at + _ASCII_STRETCH]
        if stretch.isascii():
            at += _ASCII_STRETCH
            continue
        found = _BYTE_RUN.search(data, at)
        assert found is not None  # the stretch holds a non-ASCII byte
        yield found.span()
        at = found.end()


def _run_score(before: str, run: str, after: str) -> float:
    """The plausibility of one run of non-ASCII characters between two ASCII ones."""
    score = 0.0
    for i, char in enumerate(run):
        previous = run[i - 1] if i else before
        following = run[i + 1] if i + 1 < len(run) else after
        if previous > "\x7f" and not (previous in _TYPOGRAPHY and char in _TYPOGRAPHY):
            score -= 2  # pairs of odd characters are what a wrong code page makes of one
        if char in _TYPOGRAPHY:
            # Quotes and dashes touch a word or a space: “token”, don’t, permanent—see.
            near_word = previous.isalnum() or previous.isspace() or following.isalnum()
            score += 2 if near_word else 1
        elif char in _LATIN_LETTERS and _plausible_letter(char, previous, following):
            score += 2
        else:
            score -= 3
    return score


def _plausible_letter(char: str, before: str, after: str) -> bool:
    """Accented capitals start words (Æther); small ones follow a letter (Dandân, Séance)."""
    if char.isupper():
        return not before.isalpha() and after.isalpha()
    return before.isalpha()


def _repair(text: str, warnings: list[str]) -> str:
    """Undo double-encoded UTF-8 where that is lossless."""
    if not (_has_mojibake(text) or _has_c1(text)):
        return text
    import ftfy  # only damaged files pay for the import

    fixed = ftfy.fix_encoding(text)
    if fixed != text and not (_MOJIBAKE.search(fixed) or _C1_CONTROLS.search(fixed)):
        count = len(_MOJIBAKE.findall(text)) + len(_C1_CONTROLS.findall(text))
        warnings.append(f"double-encoded UTF-8 (mojibake) repaired at {count} places")
        return fixed
    warnings.append("text looks double-encoded (mojibake) and could not be repaired")
    return text


def _has_mojibake(text: str) -> bool:
    """`_MOJIBAKE.search(text)`, found by looking only after each Â, Ã and â."""
    for lead in "ÂÃâ":
        at = text.find(lead)
        while at != -1:
            if _MOJIBAKE_SECOND.match(text, at + 1):
                return True
            at = text.find(lead, at + 1)
    return False


def _has_c1(text: str) -> bool:
    """`_C1_CONTROLS.search(text)`, done on the UTF-8 bytes (a C scan, not a regex one)."""
    if text.isascii():
        return False
    return controls.C1_UTF8.search(text.encode("utf-8", "surrogatepass")) is not None


def _check_text(text: str) -> None:
    """Refuse text that is clearly not a plain-text document."""
    start = _LEADING_SPACE.match(text)
    head = text[start.end() if start else 0 :][:2000].lower()
    if head.startswith(("<!doctype html", "<html")) or "<html" in head[:500]:
        raise NotText("the file is an HTML page, not CR text")
    sample = text[:20000]
    strange = sum(1 for char in _MAYBE_STRANGE.findall(sample) if _strange(char))
    if strange > max(10, len(sample) // 50):
        raise NotText("the file is binary, not CR text")


def _strange(char: str) -> bool:
    """Control characters, and the CJK or private-use soup that binary turns into."""
    if char in "\n\t\f":
        return False
    category = unicodedata.category(char)
    return category in {"Cc", "Co", "Cs", "Cn"} or "\u2e80" <= char <= "\ufaff"
