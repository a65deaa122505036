"""Tests for rules_kb.ingest.decode: encodings, line endings, damage warnings, real editions.

The synthetic texts below are invented for these tests. The real CR editions are
copyrighted and are only read from the shared folder next to the repository; the
tests that need them skip when it is missing.
"""

from __future__ import annotations

import codecs
import csv
import random
import re
import sqlite3
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from rules_kb.errors import NotText
from rules_kb.ingest.decode import Decoded, decode, normalise_newlines
from tests.conftest import SHARED

EDITIONS = SHARED
VARIANTS = EDITIONS / "variants"
MANIFEST = EDITIONS / "MANIFEST.tsv"

# --------------------------------------------------------------------------------------
# Invented rules-like texts (not CR text), one per repertoire an encoding can hold.
# --------------------------------------------------------------------------------------

#: Typography and accented card-name-like words: fits UTF-8/16, cp1252 and Mac Roman.
TYPOGRAPHIC_TEXT = (
    "Magic: The Gathering™ Invented Rules®\n"
    "\n"
    "100.1. These invented rules apply to Dandân’s “ability” — don’t worry.\n"
    "100.2. A player who controls Lim-Dûl’s Vault may look at the top card—it’s “hidden.”\n"
    "100.3. Æther Storm’s effect: players can’t cast creature spells – see rule 100.1.\n"
    "100.4. Ifh-Bíff Efreet deals damage to each creature with flying… and each player.\n"
    "100.5. Jötun Grunt’s “cumulative upkeep” can’t be paid with Márton’s mana.\n"
    "Example: Séance and Ghazbán Ogre’s controller chooses one—the choice is final.\n"
)

#: DOS code page 437 has accented letters but no curly quotes, dashes, ™ or ®.
CP437_TEXT = (
    "Magic: The Gathering Invented Rules\n"
    "\n"
    "100.1. These invented rules apply to Dandân's \"ability\" - don't worry.\n"
    "100.2. A player who controls Lim-Dûl's Vault may look at the top card.\n"
    "100.3. Æther Storm's effect: players can't cast creature spells; see rule 100.1.\n"
    "100.4. Ifh-Bíff Efreet deals damage to each creature with flying and each player.\n"
    "100.5. Jötun Grunt's cumulative upkeep can't be paid with Márton's mana.\n"
    "Example: Séance and Ghazbán Ogre's controller chooses one; the choice is final.\n"
)

#: GBK holds curly quotes, dashes and the ellipsis but not â, û, Æ, ™ or ®.
GBK_TEXT = (
    "Magic: The Gathering Invented Rules\n"
    "\n"
    "100.1. These invented rules apply to Dandan’s “ability” — don’t worry.\n"
    "100.2. A player who controls Lim-Dul’s Vault may look at the top card—it’s “hidden.”\n"
    "100.3. Aether Storm’s effect: players can’t cast creature spells – see rule 100.1.\n"
    "100.4. Ifh-Biff Efreet deals damage to each creature with flying… and each player.\n"
    "100.5. Jotun Grunt’s “cumulative upkeep” can’t be paid with Marton’s mana.\n"
    "Example: Seance and Ghazban Ogre’s controller chooses one—the choice is final.\n"
)

#: Plain rules prose without accented names: quotes, em dashes, a few apostrophes.
#: Most CR paragraphs look like this, so legacy detection must get it right too.
PLAIN_TYPOGRAPHY_TEXT = (
    "100.1. A “token” is a marker used to represent a permanent—see rule 111.\n"
    "100.2. The “stack” is a zone where spells wait to resolve—see rule 405.\n"
    "100.3. A “mana ability” doesn’t use the stack—see rule 605.\n"
    "100.4. “Dies” means “is put into a graveyard from the battlefield.”\n"
    "100.5. Players can’t respond to a “special action”—see rule 116.\n"
)


def _with_line_endings(text: str, endings: str) -> str:
    """Rewrite LF-terminated `text` with `endings` ("mixed" cycles through all of them)."""
    if endings != "mixed":
        return text.replace("\n", endings)
    cycle = ["\r\n", "\r", "\n"]
    lines = text.split("\n")
    out = [line + cycle[i % len(cycle)] for i, line in enumerate(lines[:-1])]
    return "".join(out) + lines[-1]


def _mixed_unicode(text: str) -> str:
    """Like "mixed" but with U+2028 in the cycle; only for Unicode encodings."""
    cycle = ["\r\n", "\u2028", "\r", "\n"]
    lines = text.split("\n")
    out = [line + cycle[i % len(cycle)] for i, line in enumerate(lines[:-1])]
    return "".join(out) + lines[-1]


LEGACY_ENDINGS = ["\n", "\r\n", "\r", "mixed"]
ENDING_IDS = {"\n": "lf", "\r\n": "crlf", "\r": "cr", "mixed": "mixed", "\u2028": "u2028"}

# (id, codec, prefix, text, expected Decoded.encoding)
UNICODE_CASES = [
    ("utf-8", "utf-8", b"", TYPOGRAPHIC_TEXT, "utf-8"),
    ("utf-8-bom", "utf-8", codecs.BOM_UTF8, TYPOGRAPHIC_TEXT, "utf-8-sig"),
    ("utf-16-le-bom", "utf-16-le", codecs.BOM_UTF16_LE, TYPOGRAPHIC_TEXT, "utf-16-le"),
    ("utf-16-be-bom", "utf-16-be", codecs.BOM_UTF16_BE, TYPOGRAPHIC_TEXT, "utf-16-be"),
]
LEGACY_CASES = [
    ("cp1252", "cp1252", TYPOGRAPHIC_TEXT),
    ("mac_roman", "mac_roman", TYPOGRAPHIC_TEXT),
    ("cp437", "cp437", CP437_TEXT),
]


def _has_mojibake_warning(decoded: Decoded) -> bool:
    return any("mojibake" in w.lower() for w in decoded.warnings)


def _has_fffd_warning(decoded: Decoded) -> bool:
    return any("U+FFFD" in w for w in decoded.warnings)


# --------------------------------------------------------------------------------------
# 1. Synthetic round trips
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("endings", [*LEGACY_ENDINGS, "\u2028"], ids=lambda e: ENDING_IDS[e])
@pytest.mark.parametrize(
    ("codec", "prefix", "text", "expected_encoding"),
    [case[1:] for case in UNICODE_CASES],
    ids=[case[0] for case in UNICODE_CASES],
)
def test_unicode_round_trip(
    codec: str, prefix: bytes, text: str, expected_encoding: str, endings: str
) -> None:
    source = _with_line_endings(text, endings)
    decoded = decode(prefix + source.encode(codec))
    assert decoded.text == text
    assert decoded.encoding == expected_encoding
    assert decoded.warnings == ()


@pytest.mark.parametrize(
    ("codec", "prefix", "expected_encoding"),
    [("utf-8", b"", "utf-8"), ("utf-16-le", codecs.BOM_UTF16_LE, "utf-16-le")],
)
def test_unicode_mixed_endings_with_line_separator(
    codec: str, prefix: bytes, expected_encoding: str
) -> None:
    source = _mixed_unicode(TYPOGRAPHIC_TEXT)
    assert "\u2028" in source and "\r\n" in source
    decoded = decode(prefix + source.encode(codec))
    assert decoded.text == TYPOGRAPHIC_TEXT
    assert decoded.encoding == expected_encoding


@pytest.mark.parametrize("endings", LEGACY_ENDINGS, ids=lambda e: ENDING_IDS[e])
def test_utf16_le_without_bom_round_trip(endings: str) -> None:
    data = _with_line_endings(TYPOGRAPHIC_TEXT, endings).encode("utf-16-le")
    decoded = decode(data)
    assert decoded.text == TYPOGRAPHIC_TEXT
    assert decoded.encoding == "utf-16-le"
    assert any("byte-order mark" in w for w in decoded.warnings)


@pytest.mark.parametrize("endings", LEGACY_ENDINGS, ids=lambda e: ENDING_IDS[e])
@pytest.mark.parametrize(
    ("codec", "text"),
    [case[1:] for case in LEGACY_CASES],
    ids=[case[0] for case in LEGACY_CASES],
)
def test_legacy_round_trip(codec: str, text: str, endings: str) -> None:
    decoded = decode(_with_line_endings(text, endings).encode(codec))
    assert decoded.text == text
    assert decoded.encoding == codec
    assert decoded.warnings == ()


@pytest.mark.parametrize("endings", LEGACY_ENDINGS, ids=lambda e: ENDING_IDS[e])
def test_gbk_round_trip_is_warned_about(endings: str) -> None:
    decoded = decode(_with_line_endings(GBK_TEXT, endings).encode("gbk"))
    assert decoded.text == GBK_TEXT
    assert decoded.encoding == "gbk"
    assert any("GBK" in w for w in decoded.warnings)


@pytest.mark.parametrize("codec", ["cp1252", "mac_roman"])
def test_legacy_plain_rules_prose(codec: str) -> None:
    """Quotes and em dashes without accented names must not tip cp1252 into Mac Roman."""
    decoded = decode(PLAIN_TYPOGRAPHY_TEXT.encode(codec))
    assert decoded.encoding == codec
    assert decoded.text == PLAIN_TYPOGRAPHY_TEXT


@pytest.mark.parametrize("data", [b"0\n", b"ab", b"OK\n", b"x"])
def test_tiny_text_file(data: bytes) -> None:
    """A file of a few ASCII bytes has no NULs at all: it is not UTF-16."""
    decoded = decode(data)
    assert decoded.text == data.decode("ascii")
    assert decoded.encoding == "utf-8"


def test_ascii_is_utf8_without_warnings() -> None:
    text = "100.1. These invented rules are plain ASCII.\n100.2. Nothing else.\n"
    decoded = decode(_with_line_endings(text, "\r\n").encode("ascii"))
    assert decoded == Decoded(text=text, encoding="utf-8", warnings=())


# Hypothesis: line-ending normalisation ---------------------------------------------

_LINE_BREAKS = ["\n", "\r\n", "\r", "\u2028", "\u2029", "\x85"]
_BREAK_CHARS = "\n\r\u2028\u2029\x85"
_line = st.text(st.characters(blacklist_characters=_BREAK_CHARS), max_size=30)


@st.composite
def _lines_and_breaks(draw: st.DrawFn) -> tuple[list[str], list[str]]:
    lines = draw(st.lists(_line, min_size=1, max_size=12))
    breaks = draw(st.lists(st.sampled_from(_LINE_BREAKS), min_size=len(lines), max_size=len(lines)))
    return lines, breaks


def _join(lines: list[str], breaks: list[str], final_break: bool) -> str:
    body = "".join(line + brk for line, brk in zip(lines[:-1], breaks, strict=False))
    return body + lines[-1] + (breaks[-1] if final_break else "")


def _ambiguous(lines: list[str], breaks: list[str]) -> bool:
    """A bare CR, an empty line and an LF in a row *are* one CRLF: not a test case."""
    return any(
        breaks[i] == "\r" and lines[i + 1] == "" and breaks[i + 1].startswith("\n")
        for i in range(len(lines) - 1)
    )


@given(_lines_and_breaks(), st.booleans())
def test_normalise_newlines_property(
    lines_breaks: tuple[list[str], list[str]], final_break: bool
) -> None:
    lines, breaks = lines_breaks
    assume(not _ambiguous(lines, breaks))
    source = _join(lines, breaks, final_break)
    result = normalise_newlines(source)
    assert not any(c in result for c in "\r\u2028\u2029\x85")
    expected = "\n".join(lines) + ("\n" if final_break else "")
    assert result == expected
    assert result.count("\n") == len(lines) - 1 + final_break


_CR_ALPHABET = (
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,:;()'\"-{}/+"
    "‘’“”–—…•™®©°×éíóúüñ"
)
_cr_line = st.text(st.sampled_from(_CR_ALPHABET), max_size=40)


@st.composite
def _cr_text(draw: st.DrawFn) -> tuple[str, str]:
    """An invented CR-like text with random line breaks, and its expected LF decoding."""
    lines = draw(st.lists(_cr_line, min_size=1, max_size=10))
    breaks = draw(
        st.lists(
            st.sampled_from(["\n", "\r\n", "\r", "\u2028"]),
            min_size=len(lines),
            max_size=len(lines),
        )
    )
    assume(not _ambiguous(lines, breaks))
    assume("".join(lines).strip())
    # Files under 4 bytes are covered by test_tiny_text_file (a known failure).
    assume(len(_join(lines, breaks, True).encode("utf-8")) >= 4)
    return _join(lines, breaks, True), "\n".join(lines) + "\n"


@settings(deadline=None)
@given(
    _cr_text(),
    st.sampled_from(
        [
            ("utf-8", b""),
            ("utf-8", codecs.BOM_UTF8),
            ("utf-16-le", codecs.BOM_UTF16_LE),
            ("utf-16-be", codecs.BOM_UTF16_BE),
        ]
    ),
)
def test_unicode_round_trip_property(
    source_expected: tuple[str, str], codec_prefix: tuple[str, bytes]
) -> None:
    source, expected = source_expected
    codec, prefix = codec_prefix
    decoded = decode(prefix + source.encode(codec))
    assert decoded.text == expected
    assert "\r" not in decoded.text
    assert decoded.text.count("\n") == expected.count("\n")
    assert decoded.warnings == ()


_ascii_word = st.text(st.sampled_from("abcdefghijklmnopqrstuvwxyz0123456789.,"), min_size=1)
_typo_mark = st.sampled_from(["", "", "", "’", "”", "—", "…", "™"])


@st.composite
def _ascii_heavy_line(draw: st.DrawFn) -> str:
    words = draw(st.lists(st.tuples(_ascii_word, _typo_mark), min_size=1, max_size=8))
    return " ".join(word + mark for word, mark in words)


@settings(deadline=None)
@given(st.lists(_ascii_heavy_line(), min_size=2, max_size=10), st.sampled_from(["\n", "\r\n"]))
def test_utf16_le_without_bom_property(lines: list[str], ending: str) -> None:
    text = "\n".join(lines) + "\n"
    decoded = decode(text.replace("\n", ending).encode("utf-16-le"))
    assert decoded.encoding == "utf-16-le"
    assert decoded.text == text


# --------------------------------------------------------------------------------------
# 2. Damage is reported, not hidden; non-text is refused
# --------------------------------------------------------------------------------------


def test_replacement_characters_are_warned_about() -> None:
    damaged = TYPOGRAPHIC_TEXT.replace("Dandân", "Dand\ufffdn").replace("Jötun", "J\ufffdtun")
    decoded = decode(damaged.encode("utf-8"))
    assert decoded.text == damaged
    assert _has_fffd_warning(decoded)
    assert any("2" in w for w in decoded.warnings if "U+FFFD" in w)


def test_clean_text_has_no_replacement_warning() -> None:
    assert not _has_fffd_warning(decode(TYPOGRAPHIC_TEXT.encode("utf-8")))


def test_utf16_odd_byte_count_is_warned_about() -> None:
    data = codecs.BOM_UTF16_LE + TYPOGRAPHIC_TEXT.encode("utf-16-le") + b"x"
    decoded = decode(data)
    assert decoded.text == TYPOGRAPHIC_TEXT
    assert any("odd number of bytes" in w for w in decoded.warnings)


def _sloppy_cp1252(data: bytes) -> str:
    """Read bytes as cp1252 the way sloppy tools do: undefined bytes become C1 controls."""
    return "".join(
        chr(b) if b in (0x81, 0x8D, 0x8F, 0x90, 0x9D) else bytes([b]).decode("cp1252") for b in data
    )


def _latin1(data: bytes) -> str:
    """Read bytes as Latin-1: cp1252's typography bytes become C1 controls."""
    return data.decode("latin-1")


@pytest.mark.parametrize("endings", ["\n", "\r\n"], ids=["lf", "crlf"])
@pytest.mark.parametrize(
    ("misread", "prefix"),
    [
        (_sloppy_cp1252, b""),
        (_sloppy_cp1252, codecs.BOM_UTF8),
        (_latin1, b""),
    ],
    ids=["cp1252", "cp1252-bom", "latin-1"],
)
def test_double_encoded_utf8_is_repaired_and_warned(
    misread: Callable[[bytes], str], prefix: bytes, endings: str
) -> None:
    source = _with_line_endings(TYPOGRAPHIC_TEXT, endings)
    mojibake = misread(source.encode("utf-8"))
    assert "Ã¢" in mojibake or "Ã\u00a2" in mojibake  # the damage really is there
    decoded = decode(prefix + mojibake.encode("utf-8"))
    assert decoded.text == TYPOGRAPHIC_TEXT
    assert _has_mojibake_warning(decoded)
    assert "â€" not in decoded.text


def test_mojibake_with_lost_bytes_keeps_the_loss_visible() -> None:
    """cp1252 with errors="replace" loses bytes: repair what can be, warn about U+FFFD."""
    mojibake = TYPOGRAPHIC_TEXT.encode("utf-8").decode("cp1252", errors="replace")
    decoded = decode(mojibake.encode("utf-8"))
    assert _has_fffd_warning(decoded)
    assert _has_mojibake_warning(decoded)
    assert "Dandân’s “ability\ufffd — don’t" in decoded.text
    assert "Æther Storm’s effect: players can’t cast creature spells – see" in decoded.text
    assert "â€" not in decoded.text


@pytest.mark.parametrize(
    "data",
    [
        pytest.param(b"", id="empty"),
        pytest.param(b" \t\r\n  \n", id="whitespace"),
        pytest.param(codecs.BOM_UTF8, id="utf-8-bom-only"),
        pytest.param(codecs.BOM_UTF8 + b" \r\n\r\n", id="utf-8-bom-whitespace"),
        pytest.param(codecs.BOM_UTF16_LE, id="utf-16-bom-only"),
        pytest.param("\ufeff  \r\n\t\r\n".encode("utf-16-le"), id="utf-16-le-bom-whitespace"),
    ],
)
def test_empty_or_blank_is_not_text(data: bytes) -> None:
    with pytest.raises(NotText):
        decode(data)


def _sqlite_file(tmp_path: Path) -> bytes:
    path = tmp_path / "db.sqlite"
    with sqlite3.connect(path) as conn:
        conn.execute("create table rules (number text, body text)")
        conn.execute("insert into rules values ('100.1', 'Invented rule text.')")
    conn.close()
    return path.read_bytes()


def _noise(size: int = 4000) -> bytes:
    rng = random.Random(1234)
    return bytes(rng.randrange(256) for _ in range(size))


BINARIES_WITH_NULS: dict[str, Callable[[Path], bytes]] = {
    "all-nul": lambda _tmp: b"\x00" * 4096,
    "sparse": lambda _tmp: b"\x00" * 4096 + b"\x01\x02\x03\x04\x05\x06" + b"\x00" * 4096,
    "elf": lambda _tmp: (
        b"\x7fELF\x02\x01\x01" + b"\x00" * 9 + bytes(b if b % 3 else 0 for b in _noise())
    ),
    "random-with-nuls": lambda _tmp: _noise(),
    "png": lambda _tmp: b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + _noise(),
    "sqlite": _sqlite_file,
}


@pytest.mark.parametrize("kind", list(BINARIES_WITH_NULS))
def test_binary_with_nuls_is_not_text(kind: str, tmp_path: Path) -> None:
    data = BINARIES_WITH_NULS[kind](tmp_path)
    assert 0 in data
    with pytest.raises(NotText):
        decode(data)


@pytest.mark.parametrize(
    "data",
    [
        b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog >>\nendobj\n",
        b"%PDF-1.7\n" + bytes(range(256)) * 4,
    ],
    ids=["pdf-1.4", "pdf-1.7-binary"],
)
def test_pdf_is_not_text(data: bytes) -> None:
    with pytest.raises(NotText):
        decode(data)


@pytest.mark.parametrize(
    "data",
    [
        b"<!DOCTYPE html>\n<html><head><title>Invented Rules</title></head>"
        b"<body><p>100.1. Rules.</p></body></html>\n",
        b"\r\n\r\n<HTML lang='en'>\r\n<body>Invented rules</body></HTML>\r\n",
        codecs.BOM_UTF8 + b"<!doctype html><html><body>x</body></html>",
        "\ufeff<!DOCTYPE html>\n<html><body>Invented</body></html>\n".encode("utf-16-le"),
    ],
    ids=["doctype", "upper-case-crlf", "utf-8-bom", "utf-16-le-bom"],
)
def test_html_is_not_text(data: bytes) -> None:
    with pytest.raises(NotText):
        decode(data)


def test_damaged_utf16_without_bom_does_not_hide_lost_bytes() -> None:
    """A tool that strips trailing spaces byte-wise eats the 0x20 high byte of a closing ”.

    (This is the damage seen in the real utf16-nobom variant.) The decoder must either
    restore the character or say that something was lost; silently dropping it is not ok.
    """
    text = "100.1. See section 8, “Invented Rules.”\n100.2. Another invented rule.\n"
    data = text.encode("utf-16-le").replace(b"\x1d\x20\n\x00", b"\x1d\n\x00")
    assert len(data) % 2 == 1
    decoded = decode(data)
    assert decoded.encoding == "utf-16-le"
    lost_warnings = [w for w in decoded.warnings if "byte-order mark" not in w]
    assert decoded.text == text or lost_warnings, decoded


# --------------------------------------------------------------------------------------
# 3. Real editions (read from ../shared, never copied into the repository)
# --------------------------------------------------------------------------------------

#: MANIFEST.tsv encoding_guess -> Decoded.encoding
MANIFEST_ENCODINGS = {
    "cp1252": "cp1252",
    "other (mac_roman)": "mac_roman",
    "other (cp437/cp850)": "cp437",
    "other (utf-16le, bom)": "utf-16-le",
    "other (utf-16be, bom)": "utf-16-be",
    "other (utf-16le, no bom)": "utf-16-le",
    "other (gbk)": "gbk",
    "utf-8-bom": "utf-8-sig",
    "utf-8": "utf-8",
    "utf-8 (ascii-only)": "utf-8",
    "utf-8 (contains U+FFFD replacement chars)": "utf-8",
    "utf-8 (mojibake: cp1252/latin-1 bytes re-encoded)": "utf-8",
}

_C1 = re.compile("[\u0080-\u009f]")
_CJK = re.compile(
    "[\u2e80-\u2fff\u3000-\u303f\u3040-\u30ff\u3100-\u31ff\u3400-\u4dbf"
    "\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef]"
)
#: From this edition on, every edition names the card Dandân with its accent.
DANDAN_ACCENTED_FROM = "2013-07-13"


def _editions() -> list[str]:
    if not EDITIONS.is_dir():
        return []
    return sorted(p.name for p in EDITIONS.glob("*.txt"))


def _variants() -> list[str]:
    if not VARIANTS.is_dir():
        return []
    return sorted(p.name for p in VARIANTS.glob("*.txt"))


def _require_shared() -> None:
    if not EDITIONS.is_dir():
        pytest.skip(f"shared CR editions not found at {EDITIONS}")


def _params(names: list[str]) -> list[Any]:
    """Parametrize over the names (the corpus tier), or over one placeholder that skips."""
    return [pytest.param(name, marks=pytest.mark.corpus) for name in names or [None]]


@cache
def _manifest() -> dict[str, str]:
    with MANIFEST.open(encoding="utf-8", newline="") as fh:
        return {row["file"]: row["encoding_guess"] for row in csv.DictReader(fh, delimiter="\t")}


@cache
def _decoded(relative: str) -> Decoded:
    return decode((EDITIONS / relative).read_bytes())


def _nonblank_lines(text: str) -> set[str]:
    return {line.strip() for line in text.split("\n") if line.strip()}


def _overlap(part: str, whole: str) -> float:
    a, b = _nonblank_lines(part), _nonblank_lines(whole)
    return len(a & b) / max(len(a), 1)


def test_shared_editions_are_present() -> None:
    _require_shared()
    assert len(_editions()) >= 100
    assert len(_variants()) >= 10
    assert MANIFEST.is_file()


@pytest.mark.parametrize("name", _params(_editions()))
def test_edition_decodes_to_clean_text(name: str | None) -> None:
    _require_shared()
    assert name is not None
    decoded = _decoded(name)
    assert "\r" not in decoded.text
    assert not decoded.text.startswith("\ufeff")
    assert not _C1.search(decoded.text), _C1.findall(decoded.text)[:5]
    assert not _CJK.search(decoded.text), _CJK.findall(decoded.text)[:5]
    assert "Comprehensive Rules" in decoded.text or "COMPREHENSIVE RULES" in decoded.text


@pytest.mark.parametrize("name", _params(_editions()))
def test_edition_encoding_matches_manifest(name: str | None) -> None:
    _require_shared()
    assert name is not None
    guess = _manifest()[name]
    assert guess in MANIFEST_ENCODINGS, f"unknown manifest encoding {guess!r}"
    decoded = _decoded(name)
    assert decoded.encoding == MANIFEST_ENCODINGS[guess]
    if "U+FFFD" in guess:
        assert _has_fffd_warning(decoded)
    elif name in LOST_TO_QUESTION_MARKS:
        # The manifest's heuristic cannot see it: "player?s" in these copies.
        assert [w for w in decoded.warnings if "replaced by '?'" in w] == list(decoded.warnings)
        assert decoded.warnings
    else:
        # Editions the manifest calls clean decode without any damage report.
        assert decoded.warnings == ()


#: Editions whose apostrophes or dashes a converter turned into "?" before they were shared.
LOST_TO_QUESTION_MARKS = {"2008-05-01.txt", "2009-05-01.txt"}


@pytest.mark.parametrize("name", _params(_editions()))
def test_edition_accented_card_names(name: str | None) -> None:
    _require_shared()
    assert name is not None
    text = _decoded(name).text
    after_dand = [text[m.end()] for m in re.finditer("Dand", text) if m.end() < len(text)]
    misread = [c for c in after_dand if not c.isascii() and c != "â"]
    assert not misread, f"Dand followed by {misread[:5]!r}"
    if name[:10] >= DANDAN_ACCENTED_FROM:
        assert "Dandân" in text
        assert "Junún" in text


# --------------------------------------------------------------------------------------
# 4. Damaged variants
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", _params(_variants()))
def test_variant_decodes(name: str | None) -> None:
    _require_shared()
    assert name is not None
    decoded = _decoded(f"variants/{name}")
    assert "\r" not in decoded.text
    assert not _C1.search(decoded.text)
    assert not _CJK.search(decoded.text)
    assert "Comprehensive Rules" in decoded.text or "COMPREHENSIVE RULES" in decoded.text
    guess = _manifest()[f"variants/{name}"]
    assert decoded.encoding == MANIFEST_ENCODINGS[guess]


@pytest.mark.parametrize("name", _params([n for n in _variants() if "mojibake" in n]))
def test_mojibake_variant_is_repaired(name: str | None) -> None:
    _require_shared()
    assert name is not None
    raw = (VARIANTS / name).read_bytes().decode("utf-8")
    assert _C1.search(raw) or "â€" in raw  # the copy really is damaged
    decoded = _decoded(f"variants/{name}")
    assert "â€" not in decoded.text
    assert "Ã" not in decoded.text
    assert not _C1.search(decoded.text)
    assert _has_mojibake_warning(decoded)
    assert _overlap(decoded.text, _decoded(f"{name[:10]}.txt").text) >= 0.99


@pytest.mark.parametrize("name", _params([n for n in _variants() if ".fffd." in n]))
def test_fffd_variant_is_warned_about(name: str | None) -> None:
    _require_shared()
    assert name is not None
    decoded = _decoded(f"variants/{name}")
    assert "\ufffd" in decoded.text
    assert _has_fffd_warning(decoded)


@pytest.mark.parametrize("name", _params([n for n in _variants() if ".gbk." in n]))
def test_gbk_variant_is_read_as_gbk(name: str | None) -> None:
    _require_shared()
    assert name is not None
    decoded = _decoded(f"variants/{name}")
    assert decoded.encoding == "gbk"
    assert "’" in decoded.text
    assert any("GBK" in w for w in decoded.warnings)
    assert _overlap(decoded.text, _decoded(f"{name[:10]}.txt").text) >= 0.99


@pytest.mark.parametrize("name", _params([n for n in _variants() if "utf16-nobom" in n]))
def test_utf16_nobom_variant(name: str | None) -> None:
    _require_shared()
    assert name is not None
    decoded = _decoded(f"variants/{name}")
    assert decoded.encoding == "utf-16-le"
    assert any("byte-order mark" in w for w in decoded.warnings)
    edition = _decoded("2016-08-26.txt")
    overlap = _overlap(decoded.text, edition.text)
    assert overlap >= 0.99, f"only {overlap:.2%} of non-blank lines match the 2016-08-26 edition"


def test_question_marks_standing_for_lost_characters_are_reported() -> None:
    """A converter that could not write ’ or — wrote "?" ("player?s"): say the text is lossy."""
    text = "100.1. A player?s hand isn?t public. Each player?s deck?even a small one?counts.\n"
    decoded = decode(text.encode("ascii"))
    assert any("replaced by '?'" in warning for warning in decoded.warnings)


def test_question_marks_in_urls_and_questions_are_not_damage() -> None:
    text = "100.1. See www.example.com/default.asp?x=rules. Is it your turn? Yes.\n" * 3
    assert decode(text.encode("ascii")).warnings == ()


# --------------------------------------------------------------------------------------
# 5. Damage never changes how the rest of a file is read
# --------------------------------------------------------------------------------------

#: Many lines of invented rules, so that one damaged byte is a needle in a haystack.
LONG_TEXT = TYPOGRAPHIC_TEXT * 40


def _damage_warnings(decoded: Decoded) -> list[str]:
    return [w for w in decoded.warnings if "not valid" in w]


@pytest.mark.parametrize("stray", [b"\xff", b"\x80", b"\xc3", b"\xe2\x80", b"\xed\xa0\x80"])
def test_stray_bytes_in_utf8_keep_it_utf8(stray: bytes) -> None:
    """One bad sequence in a UTF-8 file is damage at one place, not a Mac Roman file."""
    data = LONG_TEXT.encode("utf-8")
    at = data.index("Jötun".encode(), 3000)
    decoded = decode(data[:at] + stray + data[at:])
    assert decoded.encoding == "utf-8"
    line = data[:at].count(b"\n") + 1
    assert decoded.text.split("\n")[line - 1].count("\ufffd") >= 1
    assert decoded.text.replace("\ufffd", "") == LONG_TEXT
    (warning,) = _damage_warnings(decoded)
    assert f"line {line}" in warning and "UTF-8" in warning


def test_damage_warning_counts_and_lists_the_first_lines() -> None:
    lines = LONG_TEXT.encode("utf-8").split(b"\n")
    for index in (10, 20, 30, 40, 50, 60, 70):
        lines[index] += b"\xff"
    decoded = decode(b"\n".join(lines))
    assert decoded.encoding == "utf-8"
    (warning,) = _damage_warnings(decoded)
    assert warning.startswith("7 byte sequences are not valid UTF-8")
    assert "lines 11, 21, 31, 41, 51 and 2 more" in warning
    assert not any("U+FFFD replacement characters" in w for w in decoded.warnings)


def test_pre_existing_and_new_replacement_characters_are_told_apart() -> None:
    data = LONG_TEXT.encode("utf-8").replace(b"Dand\xc3\xa2n", b"Dand\xef\xbf\xbdn", 1)
    decoded = decode(data + b"\xff\n")
    assert any(w.startswith("1 U+FFFD replacement characters") for w in decoded.warnings)
    assert any(w.startswith("1 byte sequence is not valid UTF-8") for w in decoded.warnings)


@pytest.mark.parametrize("stray", [b"\x81", b"\x8d"])
def test_undefined_byte_in_cp1252_keeps_it_cp1252(stray: bytes) -> None:
    """0x81 has no character in cp1252: the file stays cp1252, with one U+FFFD."""
    data = (PLAIN_TYPOGRAPHY_TEXT * 40).encode("cp1252")
    at = len(data) // 2
    decoded = decode(data[:at] + stray + data[at:])
    assert decoded.encoding == "cp1252"
    assert decoded.text.replace("\ufffd", "") == PLAIN_TYPOGRAPHY_TEXT * 40
    assert any("not valid cp1252" in w for w in decoded.warnings)


@pytest.mark.parametrize("stray", [b"\x81", b"\xff", b"\xe9", b"\x92"])
def test_ascii_with_a_stray_byte_changes_only_that_line(stray: bytes) -> None:
    """No valid multi-byte character says UTF-8: a code page may read the byte, but only
    the line that holds it reads differently."""
    text = "100.1. Invented rules in plain ASCII.\n" * 50
    data = text.encode("ascii")
    decoded = decode(data[:500] + stray + data[500:])
    lines = decoded.text.split("\n")
    changed = [i for i, (a, b) in enumerate(zip(text.split("\n"), lines, strict=True)) if a != b]
    assert changed == [data[:500].count(b"\n")]


@pytest.mark.parametrize("stray", [b"\xff", b"\xc3", b"\x80\x80"])
def test_bom_and_invalid_utf8_is_read_with_a_warning(stray: bytes) -> None:
    data = codecs.BOM_UTF8 + LONG_TEXT.encode("utf-8")
    decoded = decode(data[:5000] + stray + data[5000:])
    assert decoded.encoding == "utf-8-sig"
    assert "\ufffd" in decoded.text
    (warning,) = _damage_warnings(decoded)
    assert "line " in warning


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be"])
def test_utf16_lone_surrogate_is_read_with_a_warning(codec: str) -> None:
    bom = codecs.BOM_UTF16_LE if codec == "utf-16-le" else codecs.BOM_UTF16_BE
    body = LONG_TEXT.encode(codec)
    surrogate = "\ud800".encode(codec, "surrogatepass")
    at = body.index("Jötun".encode(codec), 4000)
    decoded = decode(bom + body[:at] + surrogate + body[at:])
    assert decoded.encoding == codec
    (warning,) = _damage_warnings(decoded)
    line = LONG_TEXT[: at // 2].count("\n") + 1
    assert warning == (
        f"1 byte sequence is not valid UTF-16 (line {line}):"
        " read as U+FFFD, the original character is lost"
    )


def _control_warning(decoded: Decoded) -> str:
    (warning,) = [w for w in decoded.warnings if "control character" in w]
    return warning


@pytest.mark.parametrize(
    ("prefix", "codec"),
    [
        (b"", "utf-8"),
        (codecs.BOM_UTF8, "utf-8"),
        (codecs.BOM_UTF16_LE, "utf-16-le"),
        (codecs.BOM_UTF16_BE, "utf-16-be"),
        (b"", "cp1252"),
    ],
    ids=["utf-8", "utf-8-bom", "utf-16-le-bom", "utf-16-be-bom", "cp1252"],
)
@pytest.mark.parametrize(
    "control", ["\x00", "\x1b", "\x07", "\x7f"], ids=["NUL", "ESC", "BEL", "DEL"]
)
def test_control_characters_are_kept_and_reported_on_every_path(
    prefix: bytes, codec: str, control: str
) -> None:
    text = PLAIN_TYPOGRAPHY_TEXT * 10
    damaged = text.replace("stack", f"st{control}ack", 1)
    decoded = decode(prefix + damaged.encode(codec))
    assert decoded.text == damaged  # storage is faithful
    warning = _control_warning(decoded)
    line = damaged[: damaged.index(control)].count("\n") + 1
    assert warning.startswith("1 control character (") and f"on line {line};" in warning


def test_control_warning_names_each_kind_and_counts_them() -> None:
    text = "100.1. An invented rule.\n" * 20 + "100.2. \x1b[31mRed\x1b[0m and a bell\x07.\n"
    warning = _control_warning(decode(text.encode()))
    assert warning == (
        "3 control characters (BEL, ESC) in the text, the first on line 21; kept as they are"
    )


def test_many_nuls_are_still_binary() -> None:
    text = "100.1. An invented rule.\n" * 20
    with pytest.raises(NotText):
        decode((text + "\x00" * 2000).encode())


def test_ordinary_text_has_no_control_warning() -> None:
    decoded = decode(TYPOGRAPHIC_TEXT.replace("\n", "\r\n").encode("utf-8"))
    assert decoded.warnings == ()


@pytest.mark.parametrize("name", _params(["2018-04-27.txt", "2015-01-23.txt"]))
def test_real_edition_with_one_stray_byte_keeps_its_encoding(name: str | None) -> None:
    _require_shared()
    assert name is not None
    data = (EDITIONS / name).read_bytes()
    original = _decoded(name)
    rng = random.Random(name)
    for _ in range(5):
        at = rng.randrange(len(data) // 10, len(data))
        while data[at] in b"\r\n":
            at += 1
        mutant = decode(data[:at] + b"\xff" + data[at + 1 :])
        assert mutant.encoding == original.encoding
        before, after = original.text.split("\n"), mutant.text.split("\n")
        changed = [i for i, (a, b) in enumerate(zip(before, after, strict=True)) if a != b]
        assert len(changed) == 1


# --------------------------------------------------------------------------------------
# 6. rules_kb.controls
# --------------------------------------------------------------------------------------


def test_controls_visible_escapes_controls_and_keeps_newlines_and_tabs() -> None:
    from rules_kb.controls import visible

    assert visible("a\x1b[2Jb\x07c\x00d\x7fe\x85f\x9b") == r"a\x1b[2Jb\x07c\x00d\x7fe\x85f\x9b"
    assert visible("line one\n\tline two") == "line one\n\tline two"
    assert visible("Dandân’s “ability” — ok\u00a0") == "Dandân’s “ability” — ok\u00a0"
    assert visible("lone \udc80 surrogate") == r"lone \udc80 surrogate"
    assert visible("") == ""


@given(st.text())
def test_controls_visible_leaves_nothing_a_terminal_would_obey(text: str) -> None:
    from rules_kb.controls import find, visible

    shown = visible(text)
    assert find(shown) == []
    assert not any("\ud800" <= char <= "\udfff" for char in shown)
    shown.encode("utf-8")  # always printable to a UTF-8 stream
    if not find(text) and not any("\ud800" <= char <= "\udfff" for char in text):
        assert shown == text


def test_controls_find_name_and_is_control() -> None:
    from rules_kb.controls import find, is_control, name

    assert find("ab\x1bc\n\td\x00") == [2, 7]
    assert find("no controls — none\u00a0at all\n") == []
    assert [name(c) for c in "\x00\x07\x1b\x7f\x85"] == ["NUL", "BEL", "ESC", "DEL", "U+0085"]
    assert is_control("\x1b") and is_control("\x9f")
    assert not any(is_control(c) for c in "\n\ta ’\u00a0")


@given(st.text(st.sampled_from("ab?Z./=_é1 \n="), max_size=30))
def test_question_marks_in_words_are_found_as_the_pattern_finds_them(text: str) -> None:
    from rules_kb.ingest.decode import QUESTION_IN_WORD, _words_with_question_marks

    assert _words_with_question_marks(text) == QUESTION_IN_WORD.findall(text)


#: An invented text that does not repeat itself (unlike LONG_TEXT), 200 KB of it.
NUMBERED_TEXT = "".join(f"100.{n}. Invented rule {n} of Dandân’s “rules”.\n" for n in range(4000))


@pytest.mark.parametrize("ends", ["same", "crlf"])
def test_concatenated_copies_are_read_once(ends: str) -> None:
    one = NUMBERED_TEXT.encode("utf-8")
    later = one if ends == "same" else one.replace(b"\n", b"\r\n")
    decoded = decode(codecs.BOM_UTF8 + one + (codecs.BOM_UTF8 + later) * 30)
    assert decoded.text == NUMBERED_TEXT
    (warning,) = decoded.warnings
    assert warning.startswith(f"the file starts over at byte {len(one) + 3:,} (31 copies")


def test_a_file_that_only_repeats_a_little_is_not_cut() -> None:
    one = NUMBERED_TEXT.encode("utf-8")
    decoded = decode(one + one[:2000])
    assert decoded.warnings == ()
    assert decoded.text == NUMBERED_TEXT + one[:2000].decode()


def test_nul_in_utf16_without_bom_is_kept_and_reported() -> None:
    text = PLAIN_TYPOGRAPHY_TEXT * 10
    damaged = text.replace("stack", "st\x00ack", 1)
    decoded = decode(damaged.encode("utf-16-le"))
    assert decoded.encoding == "utf-16-le"
    assert decoded.text == damaged
    assert _control_warning(decoded).startswith("1 control character (NUL)")


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from([b"a", b" ", b"\n", b"\x80", b"\xe9", b"\xff", b"a" * 5000])))
def test_non_ascii_runs_are_found_whole_past_the_ascii_stretches(parts: list[bytes]) -> None:
    # The legacy scorer skips ASCII a few kilobytes at a time; the runs it finds, with the
    # bytes around them, must be those a plain split finds (runs straddling a stretch too).
    from collections import Counter

    from rules_kb.ingest import decode as module

    data = b"".join(parts)
    pieces = re.split(rb"([\x80-\xff]+)", data)
    befores = [piece[-1:] for piece in pieces[0:-1:2]]
    afters = [piece[:1] for piece in pieces[2::2]]
    expected = Counter(zip(befores, pieces[1::2], afters, strict=True))
    assert module._ByteContexts(data).contexts == expected
