"""The stored lineage against the labelled steps and chains of tests/fixtures/lineage/
(labelled from the raw texts by readers who never ran rules-kb), and every command that
reads the lineage saying the same thing about the same record."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

import rules_kb
from rules_kb.errors import UnknownRule
from rules_kb.read.diff import Library
from rules_kb.read.history import Lineage
from rules_kb.read.query import Reader
from tests.ingest.lineage_labels import (
    FOLDER,
    Said,
    Step,
    chains,
    said,
    score,
    steps,
    stored_segments,
)

#: Floors under today's scores (bench/lineage.py prints them): a regression fails.
FLOORS = {
    "all": (0.99, 0.99),
    "ordinary": (0.99, 0.99),
    "renumbering": (0.99, 0.97),
    "glossary": (0.97, 0.95),
    "split_merge": (0.99, 0.98),
    "added_removed": (0.77, 0.77),
}


@pytest.fixture(scope="module")
def library(all_editions_db: Path) -> Iterator[Library]:
    reader = Reader(all_editions_db)
    yield Library(reader)
    reader.close()


def _answer(library: Library, step: Step) -> Said | None:
    glossary = step.kind == "glossary"
    return said(
        step,
        library.items(step.old, glossary=glossary),
        library.items(step.new, glossary=glossary),
        library.alignment(step.old, step.new, glossary=glossary),
        lambda ids: library.texts(ids),
        library.alignment(step.old, step.new).key_map(
            library.items(step.old), library.items(step.new)
        ),
        library.went(step.old, step.new),
    )


def test_the_labelled_set_is_large_and_stratified() -> None:
    found = steps()
    strata = {step.stratum for step in found}
    assert len(found) >= 400
    assert {"ordinary", "renumbering", "added_removed", "glossary", "split_merge"} <= strata
    assert {step.status for step in found} >= {"split", "merged", "added", "removed", "moved"}


#: Floors under the share of statuses right, labelled and blind, of today.
STATUS_FLOORS = {"labelled": 0.99, "blind": 0.98}


def test_stored_lineage_on_the_labelled_steps(library: Library) -> None:
    scores, wrong = score(steps(), lambda step: _answer(library, step))
    assert scores["all"].missing == 0
    assert scores["all"].status_share >= STATUS_FLOORS["labelled"], wrong
    for stratum, (precision, recall) in FLOORS.items():
        found = scores[stratum]
        assert found.precision >= precision and found.recall >= recall, (stratum, wrong[:10])


#: Each blind sample (tests/fixtures/lineage/blind*/): its steps, the floor under the
#: share of statuses right, and floors under precision and recall by stratum, of today.
BLIND_SAMPLES = {
    "blind": (
        350,
        STATUS_FLOORS["blind"],
        {
            "all": (0.99, 0.97),
            "ordinary": (0.99, 0.99),
            "renumbering": (0.99, 0.98),
            "glossary": (0.97, 0.94),
        },
    ),
    # drawn on 2026-12-03; one class it showed was fixed since (the priority rules); three
    # labels corrected by a majority of readings since, one of them against rules-kb
    "blind2": (
        321,
        0.97,
        {
            "all": (0.99, 0.96),
            "ordinary": (0.99, 0.99),
            "renumbering": (0.99, 0.97),
            "glossary": (0.96, 0.99),
        },
    ),
    # drawn on 2026-12-05; three classes it showed were fixed since (chapters renamed in
    # place, a glossary name held whole in another, an entry merged as its rule went)
    "blind3": (
        310,
        0.98,
        {
            "all": (0.99, 0.98),
            "ordinary": (0.99, 0.99),
            "renumbering": (0.99, 0.98),
            "glossary": (0.99, 0.99),
        },
    ),
    # drawn on 2026-12-05 after three classes of blind3 were fixed; nothing changed for it
    "blind4": (
        301,
        0.95,
        {
            "all": (0.99, 0.94),
            "ordinary": (0.99, 0.99),
            "renumbering": (0.99, 0.94),
            "glossary": (0.99, 0.83),
        },
    ),
    # drawn on 2026-12-05 from the lineage of 98a8af5; scored once as it stands
    "blind5": (
        281,
        0.95,
        {
            "all": (0.99, 0.94),
            "ordinary": (0.99, 0.99),
            "renumbering": (0.98, 0.97),
            "glossary": (0.99, 0.77),
        },
    ),
    # drawn on 2026-12-06 from the lineage of beba44c; scored once (1.000 / 0.967, statuses
    # 0.972); one class it showed was fixed since (openings a word or two changed)
    "blind6": (
        286,
        0.97,
        {
            "all": (0.99, 0.97),
            "ordinary": (0.99, 0.99),
            "renumbering": (0.99, 0.98),
            "glossary": (0.99, 0.99),
        },
    ),
    # drawn on 2026-12-06 from the lineage of 72c7ba4, after four more classes; scored once
    "blind7": (
        272,
        0.98,
        {
            "all": (0.99, 0.98),
            "ordinary": (0.99, 0.99),
            "renumbering": (0.99, 0.98),
            "glossary": (0.99, 0.99),
        },
    ),
    # drawn on 2026-12-06 from the lineage of ac0add9, after two more; scored once
    "blind8": (
        266,
        0.96,
        {
            "all": (0.99, 0.95),
            "ordinary": (0.99, 0.99),
            "renumbering": (0.99, 0.97),
            "glossary": (0.99, 0.66),
        },
    ),
    # drawn on 2026-12-06 from the lineage of e107a7b, after that one; scored once
    "blind9": (
        256,
        0.96,
        {
            "all": (0.99, 0.95),
            "ordinary": (0.99, 0.99),
            "renumbering": (0.99, 0.99),
            "glossary": (0.99, 0.99),
        },
    ),
    # drawn on 2026-12-06 from the lineage of 4389151, after three more; scored once
    "blind10": (
        248,
        0.96,
        {
            "all": (0.99, 0.96),
            "ordinary": (0.99, 0.99),
            "renumbering": (0.99, 0.98),
            "glossary": (0.99, 0.99),
        },
    ),
    # drawn on 2026-12-06 from the lineage of e17329a, after two more; scored once
    "blind11": (
        252,
        0.96,
        {
            "all": (0.99, 0.95),
            "ordinary": (0.99, 0.99),
            "renumbering": (0.99, 0.97),
            "glossary": (0.99, 0.99),
        },
    ),
    # drawn on 2026-12-06 from the lineage of ecc64d4, no class added since; scored once
    "blind12": (
        228,
        0.96,
        {
            "all": (0.99, 0.94),
            "ordinary": (0.99, 0.99),
            "renumbering": (0.99, 0.98),
            "glossary": (0.99, 0.99),
        },
    ),
    # drawn on 2026-12-06 from the lineage of 823e2f7, after two more; scored once
    "blind13": (
        227,
        0.98,
        {
            "all": (0.99, 0.98),
            "ordinary": (0.99, 0.99),
            "renumbering": (0.99, 0.99),
            "glossary": (0.99, 0.99),
        },
    ),
    # drawn on 2026-12-06 from the lineage of d336051, after its class; scored once
    "blind14": (
        237,
        0.97,
        {
            "all": (0.99, 0.97),
            "ordinary": (0.99, 0.99),
            "renumbering": (0.99, 0.98),
        },
    ),
    # drawn on 2026-12-06 from the lineage of 10bc715, after two more; scored once
    "blind15": (
        223,
        0.97,
        {
            "all": (0.99, 0.97),
            "ordinary": (0.99, 0.99),
            "renumbering": (0.99, 0.99),
        },
    ),
    # drawn on 2026-12-06 from the lineage of f4d8570, after m060; scored once (three of
    # its counterparts are glossary entries a rule was written from: outside the model)
    "blind16": (
        225,
        0.96,
        {
            "all": (0.99, 0.95),
            "ordinary": (0.99, 0.99),
            "renumbering": (0.99, 0.98),
        },
    ),
    # drawn on 2026-12-06 from the lineage of 8132d72 (that of f4d8570); scored once,
    # 1.000 / 0.988, statuses 0.991; one class it showed was fixed since (m061, 400.7b)
    "blind17": (
        212,
        0.99,
        {
            "all": (0.99, 0.99),
            "ordinary": (0.99, 0.99),
            "renumbering": (0.99, 0.99),
        },
    ),
    # drawn on 2026-12-06 from the lineage of 1c72ef6 (m061); scored once, 1.000 / 0.958,
    # statuses 0.963; two classes it showed were fixed since (m063, m064)
    "blind18": (
        216,
        0.97,
        {
            "all": (0.99, 0.96),
            "ordinary": (0.99, 0.99),
            "renumbering": (0.99, 0.99),
        },
    ),
    # drawn on 2026-12-06 from the lineage of 7a270d4 (m064); scored once, 1.000 / 0.989,
    # statuses 0.991; one class it showed was fixed since (m065, "Attach" from "Move")
    "blind19": (
        225,
        0.99,
        {
            "all": (0.99, 0.99),
            "ordinary": (0.99, 0.99),
            "renumbering": (0.99, 0.99),
        },
    ),
    # drawn on 2026-12-06 from the lineage of 2576196 (m065); scored once
    "blind20": (
        221,
        0.98,
        {
            "all": (0.99, 0.97),
            "ordinary": (0.99, 0.99),
            "renumbering": (0.98, 0.96),
        },
    ),
    # drawn on 2026-12-06 from the lineage of 431b597 (m066); scored once
    "blind21": (
        222,
        0.98,
        {
            "all": (0.99, 0.98),
            "ordinary": (0.99, 0.99),
            "renumbering": (0.99, 0.99),
        },
    ),
    # drawn on 2026-12-06 from the lineage of 43488e9 (m066); scored once
    "blind22": (
        218,
        0.97,
        {
            "all": (0.99, 0.96),
            "ordinary": (0.99, 0.99),
            "renumbering": (0.99, 0.98),
        },
    ),
    # drawn on 2026-12-07 from the lineage of 1b3b4ab (m066); scored once
    "blind23": (
        211,
        0.96,
        {
            "all": (0.99, 0.96),
            "ordinary": (0.99, 0.99),
            "renumbering": (0.97, 0.97),
        },
    ),
    # drawn on 2026-12-07 from the lineage of e4bae77 (m067); scored once
    "blind24": (
        209,
        0.98,
        {
            "all": (0.99, 0.98),
            "ordinary": (0.99, 0.99),
            "renumbering": (0.99, 0.99),
        },
    ),
    # drawn on 2026-12-07 from the lineage of e4bae77 (m067); scored once
    "blind25": (
        206,
        0.97,
        {
            "all": (0.99, 0.96),
            "ordinary": (0.99, 0.99),
            "renumbering": (0.99, 0.99),
        },
    ),
    # drawn on 2026-12-07 from the lineage of 9304d37 (m068); scored once
    "blind26": (
        208,
        0.96,
        {
            "all": (0.98, 0.94),
            "ordinary": (0.99, 0.99),
            "renumbering": (0.95, 0.94),
        },
    ),
    # drawn on 2026-12-07 from the lineage of aa6146c (m069); scored once
    "blind27": (
        188,
        0.97,
        {
            "all": (0.99, 0.97),
            "ordinary": (0.99, 0.99),
            "renumbering": (0.99, 0.99),
        },
    ),
    # drawn on 2026-12-07 from the lineage of aa6146c (m069); scored once
    "blind28": (
        199,
        0.96,
        {
            "all": (0.99, 0.97),
            "ordinary": (0.99, 0.99),
            "renumbering": (0.99, 0.99),
        },
    ),
    # drawn on 2026-12-07 from the lineage of 0de8542 (m070); scored once
    "blind29": (
        201,
        0.97,
        {
            "all": (0.99, 0.98),
            "ordinary": (0.99, 0.99),
            "renumbering": (0.97, 0.99),
        },
    ),
    # drawn on 2026-12-07 from the lineage of 0de8542 (m070); scored once
    "blind30": (
        206,
        0.97,
        {
            "all": (0.99, 0.96),
            "ordinary": (0.99, 0.99),
            "renumbering": (0.98, 0.98),
        },
    ),
    # drawn on 2026-12-07 from the lineage of f791484 (m071); scored once
    "blind31": (
        189,
        0.97,
        {
            "all": (0.99, 0.96),
            "ordinary": (0.99, 0.99),
            "renumbering": (0.97, 0.97),
        },
    ),
    # drawn on 2026-12-07 from the lineage of 7b4669a (m072); scored once
    "blind32": (
        176,
        0.98,
        {
            "all": (0.99, 0.97),
            "ordinary": (0.99, 0.99),
            "renumbering": (0.99, 0.99),
        },
    ),
    # drawn on 2026-12-07 from the lineage of 2f08844 (m072); scored once
    "blind33": (
        183,
        0.98,
        {
            "all": (0.99, 0.98),
            "ordinary": (0.99, 0.99),
            "renumbering": (0.99, 0.99),
        },
    ),
    # drawn on 2026-12-07 from the lineage of 8b134fe (m073); scored once
    "blind34": (
        188,
        0.97,
        {
            "all": (0.99, 0.98),
            "ordinary": (0.99, 0.99),
            "renumbering": (0.99, 0.99),
        },
    ),
    # drawn on 2026-12-07 from the lineage of 81af637 (m074); scored once
    "blind35": (
        185,
        0.98,
        {
            "all": (0.99, 0.98),
            "ordinary": (0.99, 0.99),
            "renumbering": (0.97, 0.97),
        },
    ),
    # drawn on 2026-12-07 from the lineage of d53d0ef (m075); scored once
    "blind36": (
        186,
        0.99,
        {
            "all": (0.99, 0.99),
            "ordinary": (0.99, 0.99),
            "renumbering": (0.97, 0.97),
        },
    ),
    # drawn on 2026-12-07 from the lineage of d53d0ef (m075); scored once
    "blind37": (
        178,
        0.96,
        {
            "all": (0.99, 0.95),
            "ordinary": (0.99, 0.99),
            "renumbering": (0.99, 0.96),
        },
    ),
    # drawn on 2026-12-07 from the lineage of d53d0ef (m075); scored once
    "blind38": (
        180,
        0.98,
        {
            "all": (0.99, 0.98),
            "ordinary": (0.99, 0.99),
            "renumbering": (0.99, 0.99),
        },
    ),
    # drawn on 2026-12-07 from the lineage of e79003f (m075); scored once
    "blind39": (
        181,
        0.98,
        {
            "all": (0.99, 0.98),
            "ordinary": (0.99, 0.99),
            "renumbering": (0.99, 0.97),
        },
    ),
    # drawn on 2026-12-07 from the lineage of e79003f (m075); scored once
    "blind40": (
        168,
        0.97,
        {
            "all": (0.99, 0.96),
            "ordinary": (0.99, 0.99),
            "renumbering": (0.99, 0.99),
        },
    ),
    # drawn on 2026-12-07 from the lineage of e79003f (m075); scored once
    "blind41": (
        177,
        0.99,
        {
            "all": (0.99, 0.99),
            "ordinary": (0.99, 0.99),
            "renumbering": (0.99, 0.99),
        },
    ),
    # drawn on 2026-12-07 from the lineage of e79003f (m075); scored once
    "blind42": (
        178,
        0.99,
        {
            "all": (0.99, 0.99),
            "ordinary": (0.99, 0.99),
            "renumbering": (0.99, 0.99),
        },
    ),
    # drawn on 2026-12-07 from the lineage of e61fe90 (m076); scored once
    "blind43": (
        175,
        0.97,
        {
            "all": (0.99, 0.96),
            "ordinary": (0.99, 0.99),
            "renumbering": (0.99, 0.99),
        },
    ),
    # drawn on 2026-12-07 from the lineage of e61fe90 (m076); scored once
    "blind44": (
        167,
        0.98,
        {
            "all": (0.99, 0.97),
            "ordinary": (0.99, 0.99),
            "renumbering": (0.99, 0.99),
        },
    ),
    # drawn on 2026-12-07 from the lineage of eb16407 (m076); scored once
    "blind45": (
        171,
        0.98,
        {
            "all": (0.99, 0.98),
            "ordinary": (0.99, 0.99),
            "renumbering": (0.99, 0.99),
        },
    ),
    # drawn on 2026-12-07 from the lineage of eb16407 (m076); scored once
    "blind46": (
        161,
        0.98,
        {
            "all": (0.99, 0.97),
            "ordinary": (0.99, 0.99),
            "renumbering": (0.99, 0.99),
        },
    ),
    # drawn on 2026-12-07 from the lineage of 74a25a7 (m076); scored once
    "blind47": (
        156,
        0.98,
        {
            "all": (0.99, 0.98),
            "ordinary": (0.99, 0.99),
            "renumbering": (0.99, 0.99),
        },
    ),
    # drawn on 2026-12-07 from the lineage of 74a25a7 (m076); scored once
    "blind48": (
        161,
        0.98,
        {
            "all": (0.99, 0.97),
            "ordinary": (0.99, 0.99),
            "renumbering": (0.97, 0.97),
        },
    ),
    # drawn on 2026-12-07 from the lineage of 64d0f96 (m077); scored once (statuses
    # 0.981; 0.975 since m078 reads 613.4d of 2020-04-17 as the majority of three
    # readings does, against its first label, kept as first scored)
    "blind49": (
        158,
        0.97,
        {
            "all": (0.99, 0.97),
            "ordinary": (0.99, 0.99),
            "renumbering": (0.96, 0.96),
        },
    ),
    # drawn on 2026-12-07 from the lineage of 64d0f96 (m077); scored once
    "blind50": (
        160,
        0.98,
        {
            "all": (0.99, 0.97),
            "ordinary": (0.99, 0.99),
            "renumbering": (0.99, 0.99),
        },
    ),
    # drawn on 2026-12-07 from the lineage of 2531f30 (m077); scored once
    "blind51": (
        159,
        0.98,
        {
            "all": (0.99, 0.98),
            "ordinary": (0.99, 0.99),
            "renumbering": (0.99, 0.99),
        },
    ),
    # drawn on 2026-12-07 from the lineage of 2531f30 (m077); scored once
    "blind52": (
        150,
        0.98,
        {
            "all": (0.99, 0.98),
            "ordinary": (0.99, 0.99),
            "renumbering": (0.95, 0.95),
        },
    ),
    # drawn on 2026-12-07 from the lineage of 631c52e (m078); scored once
    "blind53": (
        170,
        0.99,
        {
            "all": (0.99, 0.99),
            "ordinary": (0.99, 0.99),
            "renumbering": (0.99, 0.99),
        },
    ),
    # drawn on 2026-12-07 from the lineage of 631c52e (m078); scored once
    "blind54": (
        152,
        0.97,
        {
            "all": (0.99, 0.97),
            "ordinary": (0.99, 0.99),
            "renumbering": (0.96, 0.96),
        },
    ),
    # drawn on 2026-12-07 from the lineage of b8466da (m078); scored once
    "blind55": (
        154,
        0.98,
        {
            "all": (0.99, 0.98),
            "ordinary": (0.99, 0.99),
            "renumbering": (0.95, 0.95),
        },
    ),
    # drawn on 2026-12-07 from the lineage of b8466da (m078); scored once (0.993 / 1.000,
    # statuses 0.994; 1.000 on all three since m079, which makes its 602.5f new)
    "blind56": (
        161,
        0.99,
        {
            "all": (0.99, 0.99),
            "ordinary": (0.99, 0.99),
            "renumbering": (0.99, 0.99),
        },
    ),
    # drawn on 2026-12-07 from the lineage of 171a7a2 (m080); scored once
    "blind57": (
        139,
        0.99,
        {
            "all": (0.99, 0.99),
            "ordinary": (0.99, 0.99),
            "renumbering": (0.99, 0.99),
        },
    ),
    # drawn on 2026-12-07 from the lineage of 171a7a2 (m080); scored once
    "blind58": (
        151,
        0.98,
        {
            "all": (0.99, 0.98),
            "ordinary": (0.99, 0.99),
            "renumbering": (0.99, 0.99),
        },
    ),
    # drawn on 2026-12-07 from the lineage of 2a4d1d2 (m080); scored once
    "blind59": (
        148,
        0.98,
        {
            "all": (0.99, 0.98),
            "ordinary": (0.99, 0.99),
            "renumbering": (0.99, 0.99),
        },
    ),
    # drawn on 2026-12-07 from the lineage of 2a4d1d2 (m080); scored once (0.992 / 0.969,
    # statuses 0.980; 1.000 / 0.977 with a slip of its reader's pen corrected, 713.4d)
    "blind60": (
        148,
        0.97,
        {
            "all": (0.99, 0.97),
            "ordinary": (0.99, 0.99),
            "renumbering": (0.99, 0.99),
        },
    ),
    # drawn on 2026-12-07 from the lineage of b56fe11 (m081); scored once (1.000 / 0.985,
    # statuses 0.980; 0.987 since m082, which has its 418.5c moved)
    "blind61": (
        151,
        0.97,
        {
            "all": (0.99, 0.98),
            "ordinary": (0.99, 0.99),
            "renumbering": (0.99, 0.94),
        },
    ),
    # drawn on 2026-12-07 from the lineage of b56fe11 (m081); scored once
    "blind62": (
        144,
        0.99,
        {
            "all": (0.99, 0.99),
            "ordinary": (0.99, 0.99),
            "renumbering": (0.99, 0.99),
        },
    ),
    # drawn on 2026-12-07 from the lineage of 472416f (m082); scored once
    "blind63": (
        146,
        0.99,
        {
            "all": (0.99, 0.99),
            "ordinary": (0.99, 0.99),
            "renumbering": (0.99, 0.99),
        },
    ),
    # drawn on 2026-12-07 from the lineage of 472416f (m082); scored once
    "blind64": (
        144,
        0.99,
        {
            "all": (0.99, 0.99),
            "ordinary": (0.99, 0.99),
            "renumbering": (0.99, 0.99),
        },
    ),
    # drawn on 2026-12-07 from the lineage of 084a638 (m084); scored once
    "blind65": (
        157,
        0.99,
        {
            "all": (0.99, 0.99),
            "ordinary": (0.99, 0.99),
            "renumbering": (0.99, 0.99),
        },
    ),
    # drawn on 2026-12-07 from the lineage of 084a638 (m084); scored once
    "blind66": (
        152,
        0.97,
        {
            "all": (0.99, 0.97),
            "ordinary": (0.99, 0.99),
            "renumbering": (0.99, 0.99),
        },
    ),
    # drawn on 2026-12-07 from the lineage of 308b11f (m085); scored once
    "blind67": (
        139,
        0.98,
        {
            "all": (0.99, 0.98),
            "ordinary": (0.99, 0.99),
            "renumbering": (0.99, 0.99),
        },
    ),
    # drawn on 2026-12-07 from the lineage of 308b11f (m085); scored once
    "blind68": (
        149,
        0.99,
        {
            "all": (0.99, 0.99),
            "ordinary": (0.99, 0.99),
            "renumbering": (0.99, 0.99),
        },
    ),
    # drawn on 2026-12-07 from the lineage of 22d3625 (m085); scored once
    "blind69": (
        141,
        0.99,
        {
            "all": (0.99, 0.99),
            "ordinary": (0.99, 0.99),
            "renumbering": (0.99, 0.99),
        },
    ),
    # drawn on 2026-12-07 from the lineage of 22d3625 (m085); scored once
    "blind70": (
        141,
        0.99,
        {
            "all": (0.99, 0.99),
            "ordinary": (0.99, 0.99),
            "renumbering": (0.99, 0.99),
        },
    ),
    # drawn on 2026-12-08 from the lineage of 892689e (m086); scored once
    "blind71": (
        144,
        0.99,
        {
            "all": (0.99, 0.99),
            "ordinary": (0.99, 0.99),
            "renumbering": (0.99, 0.99),
        },
    ),
    # drawn on 2026-12-08 from the lineage of 892689e (m086); scored once
    "blind72": (
        140,
        0.97,
        {
            "all": (0.99, 0.97),
            "ordinary": (0.99, 0.99),
            "renumbering": (0.99, 0.99),
        },
    ),
    # drawn on 2026-12-08 from the lineage of 0e6af09 (m087); scored once
    "blind73": (
        136,
        0.97,
        {
            "all": (0.99, 0.98),
            "ordinary": (0.99, 0.99),
            "renumbering": (0.93, 0.93),
        },
    ),
    # drawn on 2026-12-08 from the lineage of 0e6af09 (m087); scored once
    "blind74": (
        147,
        0.97,
        {
            "all": (0.99, 0.97),
            "ordinary": (0.99, 0.99),
            "renumbering": (0.99, 0.92),
        },
    ),
    # drawn on 2026-12-08 from the lineage of ae7d4d1 (m087); scored once
    "blind75": (
        135,
        0.99,
        {
            "all": (0.99, 0.99),
            "ordinary": (0.99, 0.99),
            "renumbering": (0.99, 0.99),
        },
    ),
    # drawn on 2026-12-08 from the lineage of ae7d4d1 (m087); scored once
    "blind76": (
        144,
        0.97,
        {
            "all": (0.99, 0.98),
            "ordinary": (0.99, 0.99),
            "renumbering": (0.99, 0.99),
        },
    ),
}


@pytest.mark.parametrize("sample", BLIND_SAMPLES)
def test_stored_lineage_on_each_blind_sample(library: Library, sample: str) -> None:
    count, status_floor, floors = BLIND_SAMPLES[sample]
    scores, wrong = score(steps(FOLDER / sample), lambda step: _answer(library, step))
    assert scores["all"].missing == 0
    assert scores["all"].steps == count
    assert scores["all"].status_share >= status_floor, wrong
    for stratum, (precision, recall) in floors.items():
        found = scores[stratum]
        assert found.precision >= precision and found.recall >= recall, (stratum, wrong[:10])


@pytest.mark.parametrize("sample", BLIND_SAMPLES)
def test_every_blind_label_says_how_sure_its_reader_was(sample: str) -> None:
    """bench/lineage.py pools the blind samples by the confidence their readers gave each
    label: every step carries "high" or "low", and most carry "high" (low is for "where
    reasonable readers could differ"; a sample marked mostly low was not read as asked)."""
    confidences = [step.confidence for step in steps(FOLDER / sample)]
    assert set(confidences) <= {"high", "low"}, sample
    assert confidences.count("high") > len(confidences) / 2


def test_every_blind_label_marked_low_was_read_twice_more() -> None:
    """tests/fixtures/lineage/low_confidence/readings.json holds two more readings of each
    step its first reader marked low confidence, of every blind sample from the first to
    the last read again (the seventy-sixth: later samples are read again in their turn),
    and of no other: each row names its sample and stratum and carries the first label as
    it stands there, and each reading a status of the contract and a confidence.
    bench/lineage.py scores rules-kb against what most of the three readings say
    (`majority`)."""
    import json

    from tests.ingest.lineage_labels import STATUSES

    path = FOLDER / "low_confidence" / "readings.json"
    rows = json.loads(path.read_text(encoding="utf-8"))
    drawn = list(BLIND_SAMPLES)
    last = max(drawn.index(row["sample"]) for row in rows)
    assert last >= 75  # every sample to the seventy-sixth was read again
    low = {
        (sample, step.old, step.new, step.kind, step.ask, step.key): step
        for sample in drawn[: last + 1]
        for step in steps(FOLDER / sample)
        if step.confidence == "low"
    }
    read = {(row["sample"], row["old"], row["new"], row["kind"], row["ask"], row["key"]): row
            for row in rows}  # fmt: skip
    assert len(read) == len(rows) and set(read) == set(low)
    for which, row in read.items():
        step = low[which]
        assert row["stratum"] == step.stratum, which
        assert row["label"] == {"counterpart": step.counterpart, "status": step.status}, which
        for reading in (row["second"], row["third"]):
            assert reading["status"] in STATUSES, which
            assert reading["confidence"] in {"high", "low"}, which


def test_the_third_readers_steps_are_labelled_steps_with_their_labels() -> None:
    """tests/fixtures/lineage/third_reader/ read 80 labelled steps again (28 where rules-kb
    and the label disagreed, 52 where they agreed): each is a step of the labelled set or
    a blind sample, with its first label as it stands there, except where an adjudicator
    (adjudicated.json) read the steps the third reader disagreed on: there the label is
    what most of the three readings say (`majority`), whomever that favours."""
    import json

    from tests.ingest.lineage_labels import STATUSES, majority

    def where(row: dict[str, str]) -> tuple[str, ...]:
        return (row["old"], row["new"], row["kind"], row["ask"], row["key"])

    labelled = {
        (step.old, step.new, step.kind, step.ask, step.key): (step.counterpart, step.status)
        for folder in (FOLDER, FOLDER / "blind", FOLDER / "blind2")
        for step in steps(folder)
    }
    rows = json.loads((FOLDER / "third_reader" / "steps.json").read_text(encoding="utf-8"))
    third = FOLDER / "third_reader" / "adjudicated.json"
    adjudicated = {where(row): row for row in json.loads(third.read_text(encoding="utf-8"))}
    assert len(rows) == 80
    corrected = 0
    for row in rows:
        first = (row["label"]["counterpart"], row["label"]["status"])
        assert row["third"]["status"] in STATUSES and row["third"]["confidence"] in {"high", "low"}
        if (row["third"]["counterpart"], row["third"]["status"]) == first:
            assert where(row) not in adjudicated
            assert labelled[where(row)] == first, where(row)
            continue
        readings = [row["label"], row["third"], adjudicated[where(row)]]
        decided = majority(readings, row["kind"]) or first
        assert labelled[where(row)] == decided, where(row)
        corrected += decided != first
    assert len(adjudicated) == 12 and corrected == 5
    disagreed = [row for row in rows if row["rules_kb"] != row["label"]]
    assert len(disagreed) == 28


def test_a_majority_needs_two_readings_naming_one_record_of_the_steps_kind() -> None:
    from tests.ingest.lineage_labels import majority

    def reading(counterpart: str | None, status: str) -> dict[str, str | None]:
        return {"counterpart": counterpart, "status": status}

    two_of_three = [reading("203.1b", "moved_changed"), reading("424.3", "moved_changed"),
                    reading("424.3", "merged")]  # fmt: skip
    assert majority(two_of_three, "rule") == ("424.3", "moved_changed")
    all_differ = [reading(None, "added"), reading("409.1b", "split"), reading("408.2", "split")]
    assert majority(all_differ, "rule") is None
    an_entry_for_a_rule = [reading(None, "added"), reading("Number", "split"),
                           reading("Number", "split")]  # fmt: skip
    assert majority(an_entry_for_a_rule, "rule") is None
    assert majority(an_entry_for_a_rule, "glossary") == ("Number", "split")


@pytest.mark.parametrize(("sample", "count", "least"), [("blind3", 310, 300), ("blind9", 256, 250)])
def test_each_second_reading_covers_its_blind_sample_step_for_step(
    sample: str, count: int, least: int
) -> None:
    """tests/fixtures/lineage/second_reader/<sample>.json read every step of the sample
    again: the same steps, each once, with a status of the contract and a confidence; the
    two readings agree on nearly every step (a reading that drifts from the first on many
    steps is not a second reading of it)."""
    import json

    from tests.ingest.lineage_labels import STATUSES

    first = {
        (step.old, step.new, step.kind, step.ask, step.key): (step.counterpart, step.status)
        for step in steps(FOLDER / sample)
    }
    rows = json.loads((FOLDER / "second_reader" / f"{sample}.json").read_text(encoding="utf-8"))
    second = {(row["old"], row["new"], row["kind"], row["ask"], row["key"]): row for row in rows}
    assert len(second) == len(rows) == len(first) == count
    assert set(second) == set(first)
    for row in rows:
        assert row["status"] in STATUSES and row["confidence"] in {"high", "low"}, row
    agreed = sum(first[key] == (row["counterpart"], row["status"]) for key, row in second.items())
    assert agreed >= least


#: Chains the alignment still gets wrong (bench/lineage.py lists them), and why.
CHAINS_KNOWN_WRONG: dict[str, str] = {}


@pytest.mark.parametrize("chain", chains(), ids=lambda chain: chain.name)
def test_the_historians_chains_reach_back_as_the_raw_texts_show(
    all_editions_db: Path, chain: object
) -> None:
    from tests.ingest.lineage_labels import Chain

    assert isinstance(chain, Chain)
    reader = Reader(all_editions_db)
    try:
        ours = stored_segments(Lineage(reader), chain)
    finally:
        reader.close()
    assert ours, "the chain's starting record is in its edition"
    if chain.name in CHAINS_KNOWN_WRONG:
        assert ours != chain.segments, "fixed: take it out of CHAINS_KNOWN_WRONG"
        pytest.xfail(CHAINS_KNOWN_WRONG[chain.name])
    assert ours == chain.segments


def test_history_trample_2013_is_a_move_not_a_change(all_editions_db: Path) -> None:
    history = rules_kb.open(all_editions_db).history("702.19b")
    step = next(v for v in history.versions if v.first == "2013-07-13")
    assert (step.key, step.status) == ("702.19b", "moved")
    assert not any(op != "=" for op, _ in step.words or ())


def test_a_range_reordered_under_one_rule_is_a_move(all_editions_db: Path) -> None:
    """301.8 of 2009-10-01 cites "Rules 301.7a-d"; as 301.6 of 2010-02-01 it cites
    "301.5a-d", where those four went (to 301.5b, c, a and d): a move, as `diff` says."""
    kb = rules_kb.open(all_editions_db)
    step = next(v for v in kb.history("301.6", "2010-02-01").versions if v.first == "2010-02-01")
    assert (step.key, step.status) == ("301.6", "moved")
    found = kb.diff("2009-10-01", "2010-02-01", rule="301.8")
    (change,) = [c for c in found.rules if c.old_key == "301.8"]
    assert change.reference_only and change.new_key == "301.6"


def test_a_rule_rewritten_beside_its_parallel_is_the_rewrite(all_editions_db: Path) -> None:
    """508.2 of 2016-08-26, the step putting what triggered on attackers on the stack, is
    508.2b of 2016-09-30, not 509.4a (the same of blockers), as the thirteenth blind
    sample's reader has it."""
    kb = rules_kb.open(all_editions_db)
    found = kb.where("508.2", "2016-08-26", "2016-09-30")
    assert (found.now, found.status, found.text_changed) == ("508.2b", "moved", True)
    # Its parallel for blockers, once paired with the short 509.1i, is 509.4a, as the
    # fourth sample's reader has it.
    assert kb.where("509.4", "2016-08-26", "2016-09-30").now == "509.4a"
    assert kb.history("508.2b", "2016-09-30").versions[-1].key == "508.2"


def test_a_title_over_rules_split_off_another_went_into_their_new_heading(
    all_editions_db: Path,
) -> None:
    """418.3 and 418.4 of 2009-05-01, titles over the continuous effects of spells and of
    static abilities, went into 610.2 and 610.3 of 2009-07-11, which head those rules now
    and say apart the two halves of 418.1's last sentence: `where` says so, not that they
    were removed, and 610.2 still says it was split off 418.1."""
    kb = rules_kb.open(all_editions_db)
    for title, rule in (("418.3", "610.2"), ("418.4", "610.3")):
        found = kb.where(title, "2009-05-01", "2009-07-11")
        assert (found.status, found.now) == ("merged", rule)
    history = kb.history("610.2", "2009-07-11")
    assert history.split_from is not None and history.split_from.number == "418.1"


def test_a_short_rule_rewritten_at_its_number_goes_on_there(all_editions_db: Path) -> None:
    """The rule "Instants have no subtypes." 212.5c of 2004-06-01 is 212.5c of 2004-10-01, which
    defines instant subtypes, as the twenty-third sample's reader has it (high
    confidence); so is its twin for sorceries, 212.7c. Their histories reach back."""
    kb = rules_kb.open(all_editions_db)
    for number in ("212.5c", "212.7c"):
        found = kb.where(number, "2004-06-01", "2004-10-01")
        assert (found.now, found.status) == (number, "changed")
        versions = kb.history(number, "2004-10-01").versions
        assert versions[-1].first <= "2004-06-01"


def test_a_rule_heading_its_old_text_at_its_number_goes_on_there(
    all_editions_db: Path,
) -> None:
    """113.6 of 2009-10-01 is 113.6 of 2010-02-01, which opens with what it said first and
    adds the effects that choose new targets, as the eighth sample's reader has it (high
    confidence); 113.6a, which says the rest, was split from it."""
    kb = rules_kb.open(all_editions_db)
    found = kb.where("113.6", "2009-10-01", "2010-02-01")
    assert (found.now, found.status) == ("113.6", "changed")
    history = kb.history("113.6a", "2010-02-01")
    assert history.split_from is not None
    assert (history.split_from.number, history.split_from.edition) == ("113.6", "2009-10-01")


def test_a_near_tie_goes_to_the_rule_saying_the_opening(all_editions_db: Path) -> None:
    """200.7a of 2009-05-01, on the controllers of activated, triggered and delayed
    triggered abilities, is 112.7 of 2009-07-11, which says all three, as the twenty-fifth
    sample's reader has it (high confidence); 603.3a, which says the last two, was split
    from 410.2, which printed them."""
    kb = rules_kb.open(all_editions_db)
    assert kb.where("200.7a", "2009-05-01", "2009-07-11").now == "112.7"
    history = kb.history("603.3a", "2009-07-11")
    assert history.split_from is not None and history.split_from.number == "410.2"


def test_an_entry_another_came_to_say_was_merged_into_it(all_editions_db: Path) -> None:
    """The glossary's "Suspended" of 2009-05-01 was merged into "Suspend" of 2009-07-11,
    which says its sentence after its pointer to the rule, as the fifth sample's reader has it (high
    confidence)."""
    kb = rules_kb.open(all_editions_db)
    found = kb.where("Suspended", "2009-05-01", "2009-07-11")
    assert (found.status, found.now) == ("merged", "Suspend")


def test_a_sentence_said_apart_before_the_counterpart_leads(all_editions_db: Path) -> None:
    """212.6b of 2007-09-07 (one land a turn) is 212.6c of 2007-10-01, which says its
    first sentence again, as the twenty-sixth sample's reader has it (high confidence);
    212.6d and 212.6e, which say its last sentences, were split from it, as the
    twenty-first sample's reader has 212.6d."""
    kb = rules_kb.open(all_editions_db)
    assert kb.where("212.6b", "2007-09-07", "2007-10-01").now == "212.6c"
    for part in ("212.6d", "212.6e"):
        history = kb.history(part, "2007-10-01")
        assert history.split_from is not None and history.split_from.number == "212.6b"


def test_a_rule_heading_the_counterpart_with_the_opening_continues_it(
    all_editions_db: Path,
) -> None:
    """420.1 of 2009-05-01 ("State-based effects are a special category ...") is 704.1 of
    2009-07-11 ("State-based actions are game actions ..."), as the eleventh and
    twenty-eighth samples' readers have it (high confidence), and 704.1a was split from
    it; a doubled full stop is typography ("Main Phase" of 2001-07-23)."""
    kb = rules_kb.open(all_editions_db)
    found = kb.where("420.1", "2009-05-01", "2009-07-11")
    assert (found.now, found.status, found.text_changed) == ("704.1", "moved", True)
    history = kb.history("704.1a", "2009-07-11")
    assert history.split_from is not None and history.split_from.number == "420.1"
    main_phase = kb.where("Main Phase", "1999-11-01", "2001-07-23")
    assert (main_phase.status, main_phase.text_changed) == ("same", False)


def test_a_title_rule_follows_its_rules_to_the_zone(all_editions_db: Path) -> None:
    """The title "Removed from the Game" 217.7 of 2009-05-01 is the zone "Exile" 406 of 2009-07-11,
    where its rules went, as the thirtieth sample's readers have it both ways (high
    confidence); the keyword action "Exile" 701.9 is new."""
    kb = rules_kb.open(all_editions_db)
    assert kb.where("217.7", "2009-05-01", "2009-07-11").now == "406"
    assert kb.history("701.9", "2009-07-11").versions[-1].first == "2009-07-11"


def test_a_rule_for_the_other_case_was_split_from_the_narrowed_rule(
    all_editions_db: Path,
) -> None:
    """704.5w of 2026-08-07, on non-Siege battles with defense 0, was split from 704.5v,
    which went on narrowed to Siege battles, as the thirty-first sample's reader has it
    (high confidence); so was 310.8 from 310.7."""
    kb = rules_kb.open(all_editions_db)
    for part, source in (("704.5w", "704.5v"), ("310.8", "310.7")):
        history = kb.history(part, "2026-08-07")
        assert history.split_from is not None
        assert (history.split_from.number, history.split_from.edition) == (source, "2026-06-19")
        assert kb.where(source, "2026-06-19", "2026-08-07").now == source


def test_a_rule_that_brought_a_sentence_of_its_own_was_merged(all_editions_db: Path) -> None:
    """The intervening "if" rule 410.8 of 2009-05-01 went into 603.4 of 2009-07-11, which
    goes on from 404.3 and carries 410.8's "Note that this mirrors the check for legal
    targets.", as the thirty-third sample's reader has it (high confidence)."""
    kb = rules_kb.open(all_editions_db)
    found = kb.where("410.8", "2009-05-01", "2009-07-11")
    assert (found.now, found.status) == ("603.4", "merged")
    assert kb.where("404.3", "2009-05-01", "2009-07-11").now == "603.4"


def test_white_space_alone_is_no_change_anywhere(all_editions_db: Path) -> None:
    """The glossary's "Untap" of 2002-10-07 differs from 2002-02-20 only in a line break
    between its two senses, where a space was: the same entry, as the thirty-fourth
    sample's reader has it (high confidence), and no change in `diff` either."""
    kb = rules_kb.open(all_editions_db)
    found = kb.where("Untap", "2002-02-20", "2002-10-07")
    assert (found.status, found.text_changed) == ("same", False)
    changes = kb.diff("2002-02-20", "2002-10-07").glossary
    assert "Untap" not in {change.new_key for change in changes}


def test_a_rule_opening_with_one_it_took_in_goes_on_from_it(all_editions_db: Path) -> None:
    """406.4 of 2003-07-01 opens with 406.1d's first sentence and goes on with 406.1e's:
    it continues 406.1d, as the thirty-fifth sample's reader has it (high confidence),
    and 406.1e was merged into it; so 212.6d continues 214.9d, as the fifth sample's
    reader has it."""
    kb = rules_kb.open(all_editions_db)
    for core, other, home in (("406.1d", "406.1e", "406.4"), ("214.9d", "214.9e", "212.6d")):
        found = kb.where(core, "2003-03-15", "2003-07-01")
        assert (found.now, found.status, found.text_changed) == (home, "moved", True)
        found = kb.where(other, "2003-03-15", "2003-07-01")
        assert (found.now, found.status) == (home, "merged")


def test_a_part_is_judged_by_what_the_rule_keeping_the_number_lost(
    all_editions_db: Path,
) -> None:
    """212.4e of 2006-05-01 goes on as 212.4e, its first sentence; 212.4j and 212.4k,
    on moving an Aura, which says its last, were split from it, as the forty-first
    sample's reader has it (high confidence)."""
    from rules_kb.records import Step as Line

    kb = rules_kb.open(all_editions_db)
    for part in ("212.4j", "212.4k"):
        assert kb.history(part, "2006-07-15").split_from == Line("2006-05-01", "212.4e")
    assert kb.where("212.4e", "2006-05-01", "2006-07-15").now == "212.4e"


def test_a_stop_moved_or_a_citation_followed_is_no_change(all_editions_db: Path) -> None:
    """400.10 of 2009-07-11 is 400.11 of 2009-09-04, its full stop moved outside the
    closing quotation mark and parenthesis (`moved`, as the majority of the forty-first
    sample's three readings has it), and so 510.1e of 2019-10-04, its citation renumbered
    too (typography, which `where` calls the same); 503.3 of 2009-05-01 is 706.3 of
    2009-07-11, its "(see rule 510)" citing 110.6, where the rule under 510 went
    (`moved`, as the forty-seventh sample's reader has it, high confidence)."""
    kb = rules_kb.open(all_editions_db)
    for old, (start, end), new, status in [
        ("400.10", ("2009-07-11", "2009-09-04"), "400.11", "moved"),
        ("510.1e", ("2019-08-23", "2019-10-04"), "510.1e", "same"),
        ("503.3", ("2009-05-01", "2009-07-11"), "706.3", "moved"),
    ]:
        found = kb.where(old, start, end)
        assert (found.now, found.status, found.text_changed) == (new, status, False), old


def test_a_sublayer_relettered_with_its_rule_moved(all_editions_db: Path) -> None:
    """613.3e of 2020-01-24, "Layer 7e: Effects that switch a creature's power and
    toughness ...", is 613.4d of 2020-04-17, "Layer 7d: ...", its label relettered with
    it (`moved`, as the majority of three readings of the eighteenth and forty-ninth
    samples' low labels has it): `where`, `history` and `diff` say so alike."""
    kb = rules_kb.open(all_editions_db)
    found = kb.where("613.3e", "2020-01-24", "2020-04-17")
    assert (found.now, found.status, found.text_changed) == ("613.4d", "moved", False)
    newest, before = kb.history("613.4d", "2020-04-17").versions[:2]
    assert (newest.first, newest.key, newest.status) == ("2020-04-17", "613.4d", "moved")
    assert (before.last, before.key) == ("2020-01-24", "613.3e")
    changes = kb.diff("2020-01-24", "2020-04-17").rules
    (pair,) = [change for change in changes if change.old_key == "613.3e"]
    assert (pair.new_key, pair.reference_only) == ("613.4d", True)


def test_a_note_quoting_a_reworded_template_is_new(all_editions_db: Path) -> None:
    """602.5f of 2021-04-22, a note that older cards read "Activate this ability only any
    time you could cast an [instant or sorcery]", is new, as its reader in the fifty-sixth
    sample and both later readings have it: 605.1 lost that wording only inside its
    quotation marks, as the edition rewrote the template everywhere, so the note was not
    split from it; 605.1 goes on as 605.1, with nothing split off it."""
    kb = rules_kb.open(all_editions_db)
    found = kb.history("602.5f", "2021-04-22")
    assert (found.introduced_in, found.split_from) == ("2021-04-22", None)
    where = kb.where("605.1", "2021-02-15", "2021-04-22")
    assert (where.now, where.status, where.branches) == ("605.1", "changed", ())


def test_a_rule_for_a_case_the_old_rule_never_named_is_new(all_editions_db: Path) -> None:
    """201.3 of 2016-04-08 named split, flip and double-faced cards; 2016-07-22 gave each
    its subrule, 201.3a to 201.3c, split from it, and wrote 201.3d on meld pairs in the
    words of 201.3c: it is new, as the labelled set has it. So is 603.10f of 2016-11-11,
    "Abilities that trigger when a player loses the game ...", written as 603.10d on a
    player losing control of an object, which 603.6d named. `where`, `history` and `diff`
    say so alike."""
    kb = rules_kb.open(all_editions_db)
    for old, new, source, part in (
        ("2016-04-08", "2016-07-22", "201.3", "201.3d"),
        ("2016-09-30", "2016-11-11", "603.6d", "603.10f"),
    ):
        found = kb.history(part, new)
        assert (found.introduced_in, found.split_from) == (new, None)
        branches = {branch.key for branch in kb.where(source, old, new).branches}
        assert part not in branches
        assert part[:-1] + "c" in branches
        (change,) = [c for c in kb.diff(old, new).rules if c.new_key == part]
        assert change.old_key is None


def test_a_heading_of_one_rule_went_into_the_heading_its_rule_went_into(
    all_editions_db: Path,
) -> None:
    """The chapter "Collector Number" 211 of 2007-09-07, whose one rule became 210.1c under
    "Information Below the Text Box" 210 of 2007-10-01 (the new 211 is a line left blank),
    was merged into 210, as all three readings of the sixtieth sample's step have it; so
    was "Illustration Credit" 209, whose rule became 210.1a. 210 goes on from "Legal Text"
    210. `where`, `history` and `diff` say so alike."""
    kb = rules_kb.open(all_editions_db)
    for heading in ("209", "211"):
        found = kb.where(heading, "2007-09-07", "2007-10-01")
        assert (found.now, found.status) == ("210", "merged")
    (version,) = [v for v in kb.history("210", "2007-10-01").versions if v.first == "2007-10-01"]
    assert {(b.relation, b.key) for b in version.branches} == {("merged", "209"), ("merged", "211")}
    changes = kb.diff("2007-09-07", "2007-10-01").rules
    assert {(c.old_key, c.type) for c in changes if c.new_key == "210"} == {
        ("210", "changed"),
        ("209", "merged"),
        ("211", "merged"),
    }


def test_a_rule_cited_again_as_the_rules_it_went_on_in_moved(all_editions_db: Path) -> None:
    """418.5c of 2009-05-01 "(see rule 418.5a)" is 612.7a of 2009-07-11 "(see rules 612.1
    and 612.3)", word for word otherwise: 418.5a went on as 612.1 and 612.3 was split off
    it, so 418.5c `moved`, as the sixty-first sample's reader has it. `where`, `history`
    and `diff` say so alike."""
    kb = rules_kb.open(all_editions_db)
    found = kb.where("418.5c", "2009-05-01", "2009-07-11")
    assert (found.now, found.status, found.text_changed) == ("612.7a", "moved", False)
    (version,) = [v for v in kb.history("612.7a", "2009-07-11").versions if v.key == "612.7a"]
    assert (version.first, version.status) == ("2009-07-11", "moved")
    (pair,) = [c for c in kb.diff("2009-05-01", "2009-07-11").rules if c.old_key == "418.5c"]
    assert (pair.new_key, pair.reference_only) == ("612.7a", True)


@pytest.mark.parametrize(
    ("old", "new", "source", "kept", "part", "gone"),
    [
        ("2023-02-03", "2023-04-14", "712.7", "712.11", "712.11a", ["713.8"]),
        ("2013-05-01", "2013-07-13", "103.3b", "103.3b", "103.4a", []),
        ("2026-02-27", "2026-04-17", "714.3a", "714.3a", "714.3b", []),
        ("2007-09-07", "2007-10-01", "212.6a", "212.6a", "212.6b", []),
    ],
)
def test_a_part_found_by_what_its_source_said_was_split_from_it(
    all_editions_db: Path,
    old: str,
    new: str,
    source: str,
    kept: str,
    part: str,
    gone: list[str],
) -> None:
    """712.11a of 2023-04-14, on double-faced cards cast "transformed", says again every
    word of the sentence 712.7 dropped as it went on as 712.11 (m083): it was split from
    712.7, and 713.8, on meld cards cast as spells, a rule of the same mould it was
    paired with by likeness, is gone. 103.4a of 2013-07-13, "In a Vanguard game, each
    player's starting hand size is seven plus or minus the hand modifier ...", written in
    the words of 103.3b on the life modifier, was split from 103.3b of 2013-05-01, which
    said both modifiers in one sentence (m084). So the labelled set and the third reader
    have them (high confidence). 714.3b of 2026-04-17, on a Saga with read ahead, says
    again in other words what 714.3a said after its case without read ahead, and was
    split from it, though 702.155b, which always said it, was rewritten in the same words
    (m086); so all three readings of the eighteenth sample's step have it (low
    confidence). 212.6b of 2007-10-01, on when a player may play a land, says again the
    sentence 212.6a dropped, though the new planeswalker rule 212.9a, written after 212.3a
    on creatures, holds as many of its words (m087); so all three readings of the
    eleventh sample's step have it (low confidence). `where`, `history` and `diff` say so
    alike."""
    kb = rules_kb.open(all_editions_db)
    history = kb.history(part, new)
    assert history.split_from is not None
    assert (history.split_from.number, history.split_from.edition) == (source, old)
    found = kb.where(source, old, new)
    assert found.now == kept
    assert part in {branch.key for branch in found.branches}
    changes = kb.diff(old, new).rules
    assert {(c.old_key, c.type) for c in changes if c.new_key == part} == {(source, "split")}
    for number in gone:
        assert kb.where(number, old, new).status == "removed"


def test_the_infinity_rule_goes_on_as_loop(all_editions_db: Path) -> None:
    """The glossary's "Infinity Rule (Informal)" of 2009-05-01 (see 421) is "Loop" of
    2009-07-11 (see 713, where 421 went), as the fifth and fourteenth samples' readers
    have it; "Shortcut", which cites 713 too, is new."""
    kb = rules_kb.open(all_editions_db)
    found = kb.where("Infinity Rule (Informal)", "2009-05-01", "2009-07-11")
    assert found.now == "Loop"
    history = kb.history("Shortcut", "2009-07-11")
    assert history.versions[-1].first == "2009-07-11"


def test_a_split_part_says_where_it_came_from(all_editions_db: Path) -> None:
    kb = rules_kb.open(all_editions_db)
    history = kb.history("704.5b")
    assert history.split_from is not None
    assert (history.split_from.number, history.split_from.edition) == ("420.5a", "1999-11-01")
    assert history.versions[-1].status == "split"
    back = kb.where("704.5b", to="1999-11-01")
    assert (back.status, back.now) == ("split", "420.5a")
    assert back.as_json()["split_from"] == {"edition": "1999-11-01", "number": "420.5a"}
    # The line of the old rule goes on in the part that kept its number.
    assert kb.where("420.5a", "1999-11-01").now == "704.5a"


def test_where_without_an_edition_reads_the_number_where_it_was(all_editions_db: Path) -> None:
    kb = rules_kb.open(all_editions_db)
    found = kb.where("502.9")
    assert (found.from_edition, found.now) == ("2009-05-01", "702.19")
    with pytest.raises(UnknownRule, match="2 different rules"):
        kb.where("214.4")  # reused in 2003-07-01 for another rule


def test_every_command_agrees_on_every_redirect_of_an_edition(all_editions_db: Path) -> None:
    """For each number the latest edition lacks: where it went by `where`, the message of
    `rule` and `refs`, the newest version of `history` and `cite`'s counterpart are one
    answer (the site's redirect pages are these records)."""
    kb = rules_kb.open(all_editions_db)
    latest = max(record.edition for record in kb.editions())
    disagree = []
    redirects = [r for r in kb.lineage.redirects(latest) if "." in r.number]
    for redirect in redirects:
        number = redirect.number
        if number.split(".")[1][:1].isalpha():
            continue  # a number printed wrong ("306.b"): no citation reads it
        where = kb.where(number, redirect.last, latest)
        messages = []
        for lookup in (kb.rule, kb.refs):
            with pytest.raises(UnknownRule) as raised:
                lookup(number, latest)
            messages.append(str(raised.value))
        history = kb.history(number, redirect.last)
        citation = kb.cite(f"rule {number}", as_of=redirect.last, to=latest).citations[0]
        newest = history.versions[0].key
        agree = (
            where.now == redirect.now == citation.now
            and messages[0] == messages[1]
            and (redirect.now is None or str(redirect.now) in messages[0])
            and (redirect.now is None or newest == redirect.now or history.merged_into)
            and (redirect.now is not None or history.removed_in == redirect.removed_in)
        )
        if not agree:
            disagree.append((redirect, where.now, messages[0], newest, citation.now))
    assert len(redirects) > 2000
    assert not disagree, disagree[:5]


def test_cite_expands_ranges_through_the_edition(all_editions_db: Path) -> None:
    kb = rules_kb.open(all_editions_db)
    report = kb.cite("Damage is assigned per rules 510.1a–c.\n", as_of="2026-08-07")
    assert [c.number for c in report.citations] == ["510.1a", "510.1b", "510.1c"]
    middle = report.citations[1]
    assert (middle.raw, middle.line, middle.status) == ("rules 510.1a–c", 1, "current")
    # Rules between rules: subrules are not listed one by one.
    spans = kb.cite("see rules 702.19–702.21", as_of="2026-08-07").citations
    assert [c.number for c in spans] == ["702.19", "702.20", "702.21"]
    # A range's inside is never rewritten by --fix (it is not written there).
    moved = kb.cite("rules 702.17a–c", as_of="2010-06-18")
    assert moved.fixed.count("702.") == 1


@pytest.mark.parametrize(
    ("old", "new", "number", "home", "core"),
    [
        ("2003-10-01", "2003-12-01", "418.5b", "418.5h", "418.5h"),
        ("2009-05-01", "2009-07-11", "401.7", "607.2k", "413.2i"),
    ],
)
def test_a_rule_whose_opening_another_came_to_say_was_merged_into_it(
    all_editions_db: Path, old: str, new: str, number: str, home: str, core: str
) -> None:
    """418.5b of 2003-10-01 opens "Sometimes the results of one effect determine whether
    another effect applies or what another effect does.", which 418.5h of 2003-12-01 says
    after its own sentence, printing its example apart; a rule on effects applied in
    several layers took its number. It was merged into 418.5h (m085), as the sixty-fifth sample's
    reader has it (high confidence). 401.7 of 2009-05-01, whose opening on the final part
    of an instant or sorcery spell's resolution 607.2k of 2009-07-11 says, went there
    too; all three readings of the eleventh sample's step give 607.2k, one as a merge,
    two as a move. `where`, `history` and `diff` say so alike."""
    kb = rules_kb.open(all_editions_db)
    found = kb.where(number, old, new)
    assert (found.now, found.status) == (home, "merged")
    assert kb.where(home, new, old).now == core
    (version,) = [v for v in kb.history(home, new).versions if v.first == new]
    assert ("merged", number) in {(b.relation, b.key) for b in version.branches}
    changes = kb.diff(old, new).rules
    assert (number, "merged") in {(c.old_key, c.type) for c in changes if c.new_key == home}
