"""Control characters: which characters they are, and how to show them.

Storage keeps text as published, so a damaged copy may carry ESC, BEL, NUL or a C1
control into rule text. Printed raw, such a character can recolour or clear a
terminal, and XML cannot hold it at all. `find` says where they are (decode reports
them at ingest); `visible` is for output code: it spells each one as an escape
(`\\x1b`), keeping newlines and tabs.
"""

from __future__ import annotations

import re

#: C0 controls except tab and newline, DEL, and the C1 controls.
CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
#: What `visible` rewrites: the controls, and lone surrogates (no encoder can write them).
_INVISIBLE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")
#: Every byte of UTF-8 but the C0 controls (bar tab and newline) and DEL.
_NOT_C0 = bytes(range(0x20, 0x7F)) + b"\t\n" + bytes(range(0x80, 0x100))
#: A C1 control in UTF-8.
C1_UTF8 = re.compile(rb"\xc2[\x80-\x9f]")

# fmt: off
_C0_NAMES = (
    "NUL", "SOH", "STX", "ETX", "EOT", "ENQ", "ACK", "BEL", "BS", "HT", "LF", "VT", "FF", "CR",
    "SO", "SI", "DLE", "DC1", "DC2", "DC3", "DC4", "NAK", "SYN", "ETB", "CAN", "EM", "SUB",
    "ESC", "FS", "GS", "RS", "US",
)
# fmt: on


def is_control(char: str) -> bool:
    """Whether one character is a control other than tab and newline."""
    return CONTROLS.fullmatch(char) is not None


def has_controls(text: str) -> bool:
    """Whether a text holds any control other than tab and newline.

    (`CONTROLS.search`, done on the UTF-8 bytes: C loops instead of a regex scan of
    every character, three times faster on a whole edition.)
    """
    if text.isascii():
        return bool(text.encode("ascii").translate(None, _NOT_C0))
    encoded = text.encode("utf-8", "surrogatepass")
    return bool(encoded.translate(None, _NOT_C0)) or C1_UTF8.search(encoded) is not None


def find(text: str) -> list[int]:
    """The offsets of every control character other than tab and newline."""
    if not has_controls(text):
        return []
    return [match.start() for match in CONTROLS.finditer(text)]


def name(char: str) -> str:
    """A short name: "ESC", "NUL", "DEL", or "U+0085" for a C1 control."""
    code = ord(char)
    if code < 0x20:
        return _C0_NAMES[code]
    if code == 0x7F:
        return "DEL"
    return f"U+{code:04X}"


def visible(text: str) -> str:
    """The text with every control (and lone surrogate) spelled as an escape: ESC is
    shown as the four characters `\\x1b`, U+0085 as `\\x85`, a lone surrogate as
    `\\udc80`. Newlines and tabs are kept. For display only: it cannot be undone."""
    if _printable(text):
        return text
    return _INVISIBLE.sub(_escape, text)


def _printable(text: str) -> bool:
    """A fast test that rules out controls and surrogates (a C loop, unlike a regex scan).

    False does not prove there is a control: no-break spaces are not "printable" either.
    Long texts are tested a megabyte at a time, so that no copy of the whole is made.
    """
    step = 1 << 20
    for start in range(0, len(text), step):
        chunk = text[start : start + step] if len(text) > step else text
        if not chunk.replace("\n", " ").replace("\t", " ").isprintable():
            return False
    return True


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"
