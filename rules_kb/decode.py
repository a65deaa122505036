"""Bytes to text: the only module that knows about encodings.

The Comprehensive Rules were published over 27 years in whatever encoding the
tool of the day wrote: ASCII, cp1252, Mac Roman, DOS cp437, UTF-8 with and
without a BOM, UTF-16 in both byte orders, and re-encoded copies in GBK or
double-encoded UTF-8 ("mojibake"). `decode()` picks the encoding, repairs what
can be repaired without loss, normalises line endings, and reports every kind
of damage as a warning instead of hiding it.
"""

from __future__ import annotations

import codecs
import re
import unicodedata
from dataclasses import dataclass, field
from itertools import pairwise

from rules_kb.errors import NotText

#: Single-byte and legacy multi-byte encodings tried when the bytes are not UTF-8.
LEGACY_ENCODINGS = ("cp1252", "mac_roman", "cp437", "gbk")

#: Non-ASCII characters that the CR really uses: typography, marks and the
#: accented letters of card names (Dandân, Lim-Dûl, Æther, Ifh-Bíff Efreet).
_TYPOGRAPHY = frozenset("‘’“”–—…•™®©−∞\u00a0")
_LATIN_LETTERS = frozenset("áàâäãåéèêëíìîïóòôöõúùûüñçæÆÁÀÂÄÉÈÊËÍÎÏÓÔÖÚÛÜÑÇœŒ")

_MOJIBAKE = re.compile("[ÂÃâ][\u0080-\u00bf€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ]")
#: cp1252 bytes that were read as Latin-1 and re-encoded as UTF-8 show up as C1 controls.
_C1_CONTROLS = re.compile("[\u0080-\u009f]")
_UTF8_REPLACEMENT_BYTES = b"\xef\xbf\xbd"
#: No rule puts a question mark between two letters: "player?s" lost its apostrophe.
_QUESTION_IN_WORD = re.compile(r"(?<![./=\w])[A-Za-z]+\?[A-Za-z]+\b(?!=)")
#: In a GBK copy a "?" glued to a word stands for a character GBK could not encode.
_QUESTION_FOR_LOST = re.compile(r"(?<=[A-Za-z])\?(?=[A-Za-z ,.;:)”\"’'])")


@dataclass(frozen=True, slots=True)
class Decoded:
    """The text of one file and what it took to get it."""

    text: str
    """Unicode text with LF line endings and no BOM."""
    encoding: str
    """The encoding the bytes were read with (e.g. "utf-8-sig", "cp1252")."""
    warnings: tuple[str, ...] = field(default=())
    """Damage found or repaired, one sentence each."""


def decode(data: bytes) -> Decoded:
    """Decode one CR file's bytes to text, reporting damage as warnings."""
    if not data.strip():
        raise NotText("the file is empty")
    if data.startswith(b"%PDF"):
        raise NotText("the file is a PDF, not plain text")
    warnings: list[str] = []
    text, encoding = _decode_bytes(data, warnings)
    text = _repair(text, warnings)
    text = _undouble_line_breaks(normalise_newlines(text), warnings)
    if not text.strip():
        raise NotText("the file is empty")
    _check_text(text)
    _count_lost_to_question_marks(text, encoding, warnings)
    return Decoded(text=text, encoding=encoding, warnings=tuple(warnings))


def normalise_newlines(text: str) -> str:
    """Turn CRLF, bare CR, U+2028/U+2029 and NEL into LF."""
    return re.sub("\r\n?|[\u2028\u2029\u0085]", "\n", text)


def _count_lost_to_question_marks(text: str, encoding: str, warnings: list[str]) -> None:
    """Report "player?s": a converter that could not write a character wrote "?" instead."""
    if encoding == "gbk":
        return  # counted, with a wider pattern, where GBK is chosen
    lost = _QUESTION_IN_WORD.findall(text)
    if len(lost) >= 3:
        warnings.append(
            f"{len(lost)} characters were replaced by '?' in this copy "
            f"(as in {lost[0]!r}) and are lost"
        )


def _undouble_line_breaks(text: str, warnings: list[str]) -> str:
    """Undo copies in which every line break became two (each CR turned into LF)."""
    lines = text.split("\n")
    if len(lines) < 200:
        return text
    adjacent = sum(1 for a, b in pairwise(lines) if a.strip() and b.strip())
    if adjacent > 0:
        return text
    warnings.append("every line break was doubled in this copy (CR turned into LF); undone")
    return text.replace("\n\n", "\n")


def _decode_bytes(data: bytes, warnings: list[str]) -> tuple[str, str]:
    if data.startswith(codecs.BOM_UTF8):
        return _utf8(data[3:], warnings), "utf-8-sig"
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        encoding = "utf-16-le" if data.startswith(codecs.BOM_UTF16_LE) else "utf-16-be"
        return _utf16(data[2:], encoding, warnings), encoding
    sniffed = _sniff_utf16(data)
    if sniffed is not None:
        warnings.append(f"UTF-16 without a byte-order mark; read as {sniffed}")
        return _utf16_resync(data, sniffed, warnings), sniffed
    if b"\x00" in data:
        raise NotText("the file is binary (it contains NUL bytes), not CR text")
    try:
        return _utf8(data, warnings), "utf-8"
    except UnicodeDecodeError:
        pass
    return _legacy(data, warnings)


def _utf8(data: bytes, warnings: list[str]) -> str:
    text = data.decode("utf-8")
    _count_replacements(text, warnings)
    return text


def _utf16(data: bytes, encoding: str, warnings: list[str]) -> str:
    """Decode UTF-16 that carries a byte-order mark: the stream is trusted."""
    if len(data) % 2:
        warnings.append("UTF-16 text has an odd number of bytes: the last byte was dropped")
        data = data[:-1]
    text = data.decode(encoding, errors="replace")
    _count_replacements(text, warnings)
    return text


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
    return body.decode(encoding, errors="replace").replace("\x00", "") + tail


def _count_replacements(text: str, warnings: list[str]) -> None:
    count = text.count("\ufffd")
    if count:
        warnings.append(f"{count} U+FFFD replacement characters: the original characters are lost")


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


def _legacy(data: bytes, warnings: list[str]) -> tuple[str, str]:
    """Pick the legacy encoding whose decoding reads most like the CR."""
    best: tuple[float, str, str] | None = None
    for encoding in LEGACY_ENCODINGS:
        try:
            text = data.decode(encoding)
        except UnicodeDecodeError:
            continue
        score = _plausibility(text)
        if best is None or score > best[0]:
            best = (score, encoding, text)
    if best is None:
        text = data.decode("cp1252", errors="replace")
        _count_replacements(text, warnings)
        return text, "cp1252"
    _score, encoding, text = best
    if encoding == "gbk":
        warnings.append("re-encoded copy: read as GBK")
        lost = len(_QUESTION_FOR_LOST.findall(text))
        if lost:
            warnings.append(
                f"{lost} characters GBK cannot hold (™, ®, accented letters) "
                "were replaced by '?' in this copy and are lost"
            )
    return text, encoding


def _plausibility(text: str) -> float:
    """Score how much the non-ASCII characters of a decoding look like the CR's."""
    score = 0.0
    for match in re.finditer(r"[^\x00-\x7f]", text):
        char = match.group()
        i = match.start()
        before = text[i - 1 : i]
        after = text[i + 1 : i + 2]
        if before > "\x7f" and not (before in _TYPOGRAPHY and char in _TYPOGRAPHY):
            score -= 2  # pairs of odd characters are what a wrong code page makes of one
        if char in _TYPOGRAPHY:
            # Quotes and dashes touch a word or a space: “token”, don’t, permanent—see.
            score += 2 if (before.isalnum() or before.isspace() or after.isalnum()) else 1
        elif char in _LATIN_LETTERS and _plausible_letter(char, before, after):
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
    if not (_MOJIBAKE.search(text) or _C1_CONTROLS.search(text)):
        return text
    import ftfy  # only damaged files pay for the import

    fixed = ftfy.fix_encoding(text)
    if fixed != text and not (_MOJIBAKE.search(fixed) or _C1_CONTROLS.search(fixed)):
        count = len(_MOJIBAKE.findall(text)) + len(_C1_CONTROLS.findall(text))
        warnings.append(f"double-encoded UTF-8 (mojibake) repaired at {count} places")
        return fixed
    warnings.append("text looks double-encoded (mojibake) and could not be repaired")
    return text


def _check_text(text: str) -> None:
    """Refuse text that is clearly not a plain-text document."""
    head = text.lstrip()[:2000].lower()
    if head.startswith(("<!doctype html", "<html")) or "<html" in head[:500]:
        raise NotText("the file is an HTML page, not CR text")
    sample = text[:20000]
    strange = sum(1 for char in sample if _strange(char))
    if strange > max(10, len(sample) // 50):
        raise NotText("the file is binary, not CR text")


def _strange(char: str) -> bool:
    """Control characters, and the CJK or private-use soup that binary turns into."""
    if char in "\n\t\f":
        return False
    category = unicodedata.category(char)
    return category in {"Cc", "Co", "Cs", "Cn"} or "\u2e80" <= char <= "\ufaff"
