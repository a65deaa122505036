"""The reference graph of one edition and its exports (DOT, GraphML, GEXF, JSON, CSV)."""

from __future__ import annotations

import csv
import io
import json
import shutil
import subprocess
from pathlib import Path

import networkx as nx
import pytest

from rules_kb import graph, pipeline, store
from rules_kb.query import Reader
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
    assert whole.nodes["702.19"] == {"number": "702.19", "kind": "rule", "text": "Trample"}
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
