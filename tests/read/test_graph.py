"""The reference graph of one edition and its exports (DOT, GraphML, GEXF, JSON, CSV)."""

from __future__ import annotations

import csv
import io
import json
import re
import shutil
import subprocess
from pathlib import Path

import networkx as nx
import pytest

from rules_kb.ingest import pipeline, store
from rules_kb.read import graph
from rules_kb.read.query import Reader
from tests.conftest import run_cli

SAMPLE = "2022-11-18"


run = run_cli


@pytest.fixture(scope="module")
def sample_db(tmp_path_factory: pytest.TempPathFactory, shared_editions: Path) -> Path:
    """A database with the 2022-11-18 edition only."""
    path = tmp_path_factory.mktemp("graph") / "one.db"
    db = store.open_db(path)
    pipeline.ingest_bytes(db, (shared_editions / f"{SAMPLE}.txt").read_bytes(), source="x")
    db.close()
    return path


@pytest.fixture(scope="module")
def whole(sample_db: Path) -> nx.DiGraph:
    """The graph as the core builds it."""
    return graph.build(*Reader(sample_db).graph_rows(SAMPLE))


def export(sample_db: Path, tmp_path: Path, form: str, *extra: str) -> Path:
    out = tmp_path / f"graph.{form}"
    result = run("graph", "--format", form, "--output", out, "--db", sample_db, *extra)
    assert result.exit_code == 0, result.output
    return out


def test_graph_has_rules_glossary_and_edges(whole: nx.DiGraph) -> None:
    assert whole.nodes["702.19"] == {
        "number": "702.19",
        "kind": "rule",
        "text": "Trample",
        "short": "Trample",
    }
    long = whole.nodes["702.19b"]
    assert "\n" not in long["short"] and len(long["short"]) <= graph.SHORT_TEXT
    assert len(long["text"]) > len(long["short"]) and long["text"].startswith(long["short"][:20])
    assert whole.nodes["Trample"]["kind"] == "glossary"
    assert whole.edges["Trample", "702.19"]["raw"] == "See rule 702.19"
    assert whole.edges["603.3a", "603.7e"]["raw"] == "see rules 603.7d–f"
    assert whole.number_of_edges() > 1500
    assert not [key for key, kind in whole.nodes(data="kind") if kind == "missing"]


def test_graphml_round_trip(sample_db: Path, tmp_path: Path, whole: nx.DiGraph) -> None:
    back = nx.read_graphml(export(sample_db, tmp_path, "graphml"))
    assert back.number_of_nodes() == whole.number_of_nodes()
    assert back.number_of_edges() == whole.number_of_edges()
    assert back.nodes["603.7e"] == whole.nodes["603.7e"]
    assert back.edges["Copiable Values", "707.2"]["raw"] == "See rules 613.2, 707.2, and 707.3"


def test_gexf_round_trip(sample_db: Path, tmp_path: Path, whole: nx.DiGraph) -> None:
    back = nx.read_gexf(export(sample_db, tmp_path, "gexf"))
    assert (back.number_of_nodes(), back.number_of_edges()) == (
        whole.number_of_nodes(),
        whole.number_of_edges(),
    )


def test_json_node_link(sample_db: Path, tmp_path: Path, whole: nx.DiGraph) -> None:
    document = json.loads(export(sample_db, tmp_path, "json").read_text("utf-8"))
    back = nx.node_link_graph(document, edges="edges")
    assert back.number_of_edges() == whole.number_of_edges()
    assert back.edges["603.3a", "603.7d"]["raw"] == "see rules 603.7d–f"


def test_csv_edge_list(sample_db: Path, tmp_path: Path, whole: nx.DiGraph) -> None:
    text = export(sample_db, tmp_path, "csv").read_text("utf-8")
    rows = list(csv.DictReader(io.StringIO(text)))
    assert len(rows) == whole.number_of_edges()
    assert {"source": "701.10c", "target": "119.8", "raw": "see rules 119.7–8"}.items() <= next(
        row for row in rows if (row["source"], row["target"]) == ("701.10c", "119.8")
    ).items()


def test_the_api_writes_what_the_command_writes(sample_db: Path, tmp_path: Path) -> None:
    import rules_kb

    written = rules_kb.open(sample_db).export_graph("json", SAMPLE, around="702.19", depth=1)
    document = json.loads(written)
    assert {node["id"] for node in document["nodes"]} >= {"702.19", "702.19b"}
    command = export(sample_db, tmp_path, "json", "--around", "702.19")
    assert command.read_text("utf-8") == written


def test_dot_to_stdout_parses_back_with_pydot(sample_db: Path, whole: nx.DiGraph) -> None:
    import pydot

    result = run("graph", "--around", "603.7e", "--db", sample_db)
    assert result.exit_code == 0, result.output
    (parsed,) = pydot.graph_from_dot_data(result.stdout)
    near = graph.around(whole, "603.7e", 1)
    assert len(parsed.get_edges()) == near.number_of_edges() > 3
    assert len(parsed.get_nodes()) == near.number_of_nodes()


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz `dot` is not installed")
def test_dot_accepted_by_graphviz(sample_db: Path, tmp_path: Path) -> None:
    source = export(sample_db, tmp_path, "dot")
    svg = subprocess.run(
        ["dot", "-Tsvg", str(source)], capture_output=True, text=True, check=False, timeout=300
    )
    assert svg.returncode == 0, svg.stderr
    assert "<svg" in svg.stdout and "702.19" in svg.stdout


def test_around_keeps_nodes_within_depth(
    sample_db: Path, tmp_path: Path, whole: nx.DiGraph
) -> None:
    path = export(sample_db, tmp_path, "graphml", "--around", "603.7e", "--depth", "2")
    near = nx.read_graphml(path)
    distances = nx.single_source_shortest_path_length(whole.to_undirected(), "603.7e", 2)
    assert set(near.nodes) == set(distances)
    assert {"603.3a", "603.7e"} <= set(near.nodes)
    assert near.number_of_nodes() < whole.number_of_nodes()


def test_around_depth_zero_is_the_rule_alone(sample_db: Path, tmp_path: Path) -> None:
    path = export(sample_db, tmp_path, "graphml", "--around", "603.7E", "--depth", "0")
    assert list(nx.read_graphml(path).nodes) == ["603.7e"]


def test_around_unknown_rule_is_an_error(sample_db: Path) -> None:
    result = run("graph", "--around", "999.9", "--db", sample_db)
    assert result.exit_code == 1
    assert result.stderr.count("\n") == 1 and "999.9" in result.stderr


def test_unknown_format_is_a_usage_error(sample_db: Path) -> None:
    assert run("graph", "--format", "xml", "--db", sample_db).exit_code == 2


def test_missing_targets_become_nodes() -> None:
    built = graph.build(
        [("rule", "100.1", "See rule 100.9.")],
        [("rule", "100.1", "rule", "100.9", "See rule 100.9", "rule", 0)],
    )
    assert built.nodes["100.9"]["kind"] == "missing"
    assert built.edges["100.1", "100.9"]["count"] == 1


def test_short_text() -> None:
    assert graph.short("word " * 40, 20) == "word word word word…"
    assert graph.short("A\nB") == "A B"


# -- the subtree of the rule asked for, and the edition ------------------------------


def test_around_a_rule_includes_its_subrules(whole: nx.DiGraph) -> None:
    near = graph.around(whole, "613.1", 0)
    subrules = {key for key in whole if key.startswith("613.1") and key[5:].isalpha()}
    assert len(subrules) > 3
    assert set(near) == {"613.1", *subrules}
    wider = graph.around(whole, "613.1", 1)
    assert set(near) < set(wider)
    assert "613.10" not in near and "613.1" in wider


def test_around_a_chapter_includes_its_rules(whole: nx.DiGraph) -> None:
    near = graph.around(whole, "613", 0)
    assert {"613", "613.1", "613.1a", "613.4c"} <= set(near)
    assert all(key == "613" or key.startswith("613.") for key in near)


def test_around_unknown_centre_raises(whole: nx.DiGraph) -> None:
    with pytest.raises(nx.NodeNotFound):
        graph.around(whole, "999.9", 1)


@pytest.mark.parametrize(
    ("number", "ancestor", "expected"),
    [
        ("613.1a", "613.1", True),
        ("613.1aa", "613.1", True),
        ("613.10", "613.1", False),
        ("613.1", "613", True),
        ("613.1a", "613", True),
        ("6130", "613", False),
        ("613", "6", True),
        ("613.1a", "6", True),
        ("61", "6", False),
        ("704.5aa", "704.5a", False),
        ("613.1", "613.1", False),
        ("Trample", "7", False),
    ],
)
def test_descends(number: str, ancestor: str, expected: bool) -> None:
    assert graph.descends(number, ancestor) is expected


def test_around_from_the_cli_has_the_subtree(sample_db: Path, tmp_path: Path) -> None:
    path = export(sample_db, tmp_path, "graphml", "--around", "613.1", "--depth", "0")
    assert len(nx.read_graphml(path)) > 2


# -- exports with hostile text ---------------------------------------------------------

HOSTILE = "ESC\x1b[2J BEL\x07 NUL\x00 DEL\x7f C1\x9b <tag> & \"quoted\" 'single' ]]> end"
HOSTILE_TERM = "Bad\x1bTerm <&>"


@pytest.fixture(scope="module")
def hostile() -> nx.DiGraph:
    """A graph whose texts and keys hold everything XML, DOT and terminals choke on."""
    return graph.build(
        [
            ("rule", "100.1", HOSTILE + "\nsecond line, see rule 100.2"),
            ("rule", "100.2", "lone \udc80 surrogate and U+FFFF \uffff"),
            ("glossary", HOSTILE_TERM, "See rule 100.1."),
        ],
        [
            ("rule", "100.1", "rule", "100.2", "see rule\x07 100.2", "rule", 1),
            ("rule", "100.1", "rule", "100.2", "rule 100.2", "example", 1),
            ("glossary", HOSTILE_TERM, "rule", "100.1", "See rule 100.1", "glossary", 1),
        ],
        edition="2027-03-03",
    )


def _visible_everywhere(text: str) -> None:
    assert not re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]", text)


def test_hostile_graphml_reads_back(hostile: nx.DiGraph) -> None:
    text = graph.export(hostile, "graphml")
    _visible_everywhere(text)
    back = nx.read_graphml(io.BytesIO(text.encode("utf-8")))
    assert back.graph["edition"] == "2027-03-03"
    assert back.number_of_nodes() == 3 and back.number_of_edges() == 2
    assert back.nodes["100.1"]["text"].startswith(
        "ESC\\x1b[2J BEL\\x07 NUL\\x00 DEL\\x7f C1\\x9b <tag> &"
    )
    assert "]]>" in back.nodes["100.1"]["text"]
    assert back.nodes["100.2"]["text"] == "lone \\udc80 surrogate and U+FFFF \\uffff"
    assert "Bad\\x1bTerm <&>" in back


def test_hostile_gexf_reads_back(hostile: nx.DiGraph) -> None:
    text = graph.export(hostile, "gexf")
    _visible_everywhere(text)
    back = nx.read_gexf(io.BytesIO(text.encode("utf-8")))
    assert back.graph["name"] == "edition 2027-03-03"
    assert "<description>edition 2027-03-03</description>" in text
    assert back.number_of_nodes() == 3 and back.number_of_edges() == 2
    assert back.nodes["100.1"]["text"].endswith("]]> end\nsecond line, see rule 100.2")


def test_hostile_json_keeps_every_character(hostile: nx.DiGraph) -> None:
    text = graph.export(hostile, "json")
    _visible_everywhere(text)  # escaped as JSON allows, so safe in a terminal
    text.encode("utf-8")
    document = json.loads(text)
    assert document["graph"]["edition"] == "2027-03-03"
    back = nx.node_link_graph(document, edges="edges")
    assert back.nodes["100.1"]["text"] == hostile.nodes["100.1"]["text"]
    assert back.nodes["100.2"]["text"] == "lone \udc80 surrogate and U+FFFF \uffff"
    assert back.edges["100.1", "100.2"]["raw"] == "see rule\x07 100.2 | rule 100.2"
    assert back.edges["100.1", "100.2"]["found_in"] == "rule | example"


def test_hostile_csv_reads_back(hostile: nx.DiGraph) -> None:
    """CSV goes to spreadsheets and terminals: its control characters are spelled as
    escapes, the rest reads back as it was."""
    from rules_kb.controls import CONTROLS, visible

    text = graph.export(hostile, "csv")
    text.encode("utf-8")
    assert not CONTROLS.search(text)
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [row["source"] for row in rows] == ["100.1", visible(HOSTILE_TERM)]
    assert rows[0]["raw"] == "see rule\\x07 100.2 | rule 100.2"
    assert {row["edition"] for row in rows} == {"2027-03-03"}
    assert [row["source_kind"] for row in rows] == ["rule", "glossary"]
    assert rows[0]["found_in"] == "rule | example"


def test_hostile_dot_reads_back(hostile: nx.DiGraph) -> None:
    import pydot

    text = graph.export(hostile, "dot")
    _visible_everywhere(text)
    (parsed,) = pydot.graph_from_dot_data(text)
    assert parsed.get("edition") == '"2027-03-03"'
    assert len(parsed.get_edges()) == 2
    names = {node.get_name() for node in parsed.get_nodes()}
    assert r'"Bad\\x1bTerm <&>"' in names and '"100.1"' in names


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz `dot` is not installed")
def test_hostile_dot_accepted_by_graphviz(hostile: nx.DiGraph) -> None:
    svg = subprocess.run(
        ["dot", "-Tsvg"],
        input=graph.export(hostile, "dot"),
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert svg.returncode == 0, svg.stderr


def test_edition_in_every_format(whole: nx.DiGraph) -> None:
    import pydot

    near = graph.around(whole, "603.7e", 1)  # pydot parses a whole edition slowly
    dated = graph.build(
        [(data["kind"], key, data["text"]) for key, data in near.nodes(data=True)],
        [
            ("rule", s, near.nodes[t]["kind"], t, d["raw"], d["found_in"], 1)
            for s, t, d in near.edges(data=True)
        ],
        edition=SAMPLE,
    )
    assert dated.graph["edition"] == SAMPLE
    assert nx.read_graphml(io.StringIO(graph.export(dated, "graphml"))).graph["edition"] == SAMPLE
    assert json.loads(graph.export(dated, "json"))["graph"]["edition"] == SAMPLE
    (dot,) = pydot.graph_from_dot_data(graph.export(dated, "dot"))
    assert dot.get("edition") == f'"{SAMPLE}"'
    assert f"edition {SAMPLE}" in graph.export(dated, "gexf")
    assert graph.export(dated, "csv").split("\n")[1].endswith(f",{SAMPLE}")
