"""Fuzzing `pipeline.read_edition`: random bytes, CR-like nonsense, one-byte mutants.

Whatever the bytes, reading them either gives an edition or raises one of the
documented errors (a RulesKbError) with a one-line message: never another exception.
A one-byte mutant of a real edition that reads differs from the original only
around the mutated line, or carries a warning the original does not have.
bench/hostile.py runs the same mutation pass at a larger scale.
"""

from __future__ import annotations

import codecs
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from rules_kb.errors import RulesKbError
from rules_kb.ingest import pipeline
from rules_kb.ingest.models import Edition
from tests.conftest import FIXTURES, SHARED
from tests.ingest.mutants import changed, masked_warnings, records

BOMS = [b"", codecs.BOM_UTF8, codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE]
#: One edition of each kind of file: UTF-8, UTF-8 with a BOM, cp1252, UTF-16 BE, and
#: the hard-wrapped ASCII of 1999.
MUTATED = ["2018-04-27", "2026-08-07", "2015-01-23", "2022-11-18", "1999-11-01"]
#: How many records around the mutation may differ for a change to count as local.
LOCAL = 3


def read_or_refuse(data: bytes) -> tuple[Edition, Any] | None:
    """The edition, or None when a documented error refused it (in one line)."""
    try:
        return pipeline.read_edition(data)
    except RulesKbError as error:
        assert "\n" not in str(error), repr(str(error))
        return None


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(BOMS), st.binary(max_size=3000))
def test_random_bytes(bom: bytes, body: bytes) -> None:
    read_or_refuse(bom + body)


# CR-like nonsense: lines of the invented fixture, shuffled, repeated and damaged ------

_FIXTURE_LINES = (FIXTURES / "modern.txt").read_text("utf-8").split("\n")
_ODD_LINES = [
    "",
    "Glossary",
    "Credits",
    "Index",
    "Contents",
    "1. Game Concepts",
    "702. Keyword Abilities",
    "702.19b Trample\x1b[2J again.",
    "306.b A lettered typo.",
    "Example: Example: twice.",
    "These rules are effective as of February 30, 2020.",
    "COMPREHENSIVE RULES 13/45/99",
    "\x00\x07\x7f\x85\u2028\ufeff\ud800",
    "=====",
    "   indented text",
    "100." + "1" * 300 + "a Long number.",
]
_codec = st.sampled_from(["utf-8", "utf-8-sig", "utf-16-le", "utf-16-be", "cp1252", "gbk"])


@settings(max_examples=120, deadline=None)
@given(
    st.lists(st.sampled_from(_FIXTURE_LINES + _ODD_LINES), max_size=120),
    _codec,
    st.sampled_from(["\n", "\r\n", "\r"]),
)
def test_cr_like_nonsense(lines: list[str], codec: str, ending: str) -> None:
    text = ending.join(_FIXTURE_LINES[:4] + lines)  # the title and a real date first
    data = text.encode(codec, errors="surrogatepass" if codec.startswith("utf") else "replace")
    read_or_refuse(data)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, len(_FIXTURE_LINES) - 1), st.binary(min_size=1, max_size=4), _codec)
def test_fixture_with_inserted_bytes(line: int, inserted: bytes, codec: str) -> None:
    text = "\n".join(_FIXTURE_LINES).encode(codec)
    at = len("\n".join(_FIXTURE_LINES[:line]).encode(codec))
    read_or_refuse(text[:at] + inserted + text[at:])


# one-byte mutants of real editions ----------------------------------------------------


@cache
def original(name: str) -> tuple[bytes, list[tuple[Any, ...]], set[str]]:
    data = (SHARED / f"{name}.txt").read_bytes()
    edition, decoded = pipeline.read_edition(data)
    return data, records(edition), masked_warnings(edition, decoded)


@pytest.mark.skipif(not SHARED.is_dir(), reason="../shared/cr/editions is not there")
@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(st.sampled_from(MUTATED), st.floats(0, 1), st.integers(0, 255))
def test_one_byte_mutants_of_real_editions(name: str, where: float, byte: int) -> None:
    data, before, warned = original(name)
    at = int(where * (len(data) - 1))
    assume(data[at] != byte)
    read = read_or_refuse(data[:at] + bytes([byte]) + data[at + 1 :])
    if read is None:
        return
    edition, decoded = read
    span = changed(before, records(edition))
    new = masked_warnings(edition, decoded) - warned
    assert span <= LOCAL or new, f"{span} records changed at byte {at} and no warning says so"
