"""The one JSON serialisation of the records (rules_kb/records/shape.py), on records made
here: fields in order, renamed, hidden, shown only when set, nested, and overridden."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from rules_kb.records import Answered, Citation, Dangling, GlossaryRecord, InForce
from rules_kb.records.search import Recognition
from rules_kb.records.shape import Record, shape


@dataclass(frozen=True, slots=True)
class Leaf(Record):
    JSON_NAMES: ClassVar[Mapping[str, str]] = {"first": "from"}

    first: str
    words: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Tree(Record):
    JSON_HIDDEN: ClassVar[frozenset[str]] = frozenset({"asked"})
    JSON_IF_SET: ClassVar[frozenset[str]] = frozenset({"note", "leaves"})

    name: str
    asked: str
    leaves: tuple[Leaf, ...] = ()
    note: str | None = None
    found: tuple[Any, ...] = ()


def test_a_record_is_its_fields_in_order_adjusted_by_its_class() -> None:
    tree = Tree(
        "t", "what was asked", (Leaf("a", ("x", "y")),), found=(Recognition("w", "T", ("1",)),)
    )
    assert json.dumps(tree.as_json()) == json.dumps(
        {
            "name": "t",
            "leaves": [{"from": "a", "words": ["x", "y"]}],
            "found": [{"words": "w", "term": "T", "rules": ["1"]}],
        }
    )
    bare = Tree("t", "asked").as_json()
    assert bare == {"name": "t", "found": []}  # empty "shown only when set" fields are left out


def test_shape_reads_records_named_tuples_and_plain_values() -> None:
    assert shape((Leaf("a"), ("b", 1), {"k": (2,)}, None)) == [
        {"from": "a", "words": []},
        ["b", 1],
        {"k": [2]},
        None,
    ]


def test_the_api_records_keep_their_spec_shapes() -> None:
    assert InForce("2019-01-25", None).as_json() == {"from": "2019-01-25", "until": None}
    dangling = Dangling("702.19b", "example", "rule 999.9", "999.9", "rule")
    assert list(dangling.as_json()) == ["from", "in", "raw", "target", "target_kind"]
    entry = GlossaryRecord("2026-08-07", "Trample", "A keyword ability.", ("702.19",), query="tr")
    assert entry.as_json() == {
        "edition": "2026-08-07", "term": "Trample", "text": "A keyword ability.",
        "rules": ["702.19"], "match": "exact",
    }  # fmt: skip
    answered = Answered("glossary", "Trample", "A keyword ability.", 0.123456, ("trample",))
    assert answered.as_json() == {
        "kind": "glossary", "term": "Trample", "text": "A keyword ability.", "score": 0.1235,
        "matched": ["trample"],
    }  # fmt: skip
    citation = Citation("rule 702.19b", 1, 6, "702.19b", "current", "702.19b", False, 0, 12)
    assert "start" not in citation.as_json() and "removed_in" not in citation.as_json()
    assert citation.as_json()["quote"] is None
