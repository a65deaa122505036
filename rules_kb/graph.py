"""The reference graph of one edition (networkx) and its exports.

Nodes are rules (by number: sections, chapters, rules, subrules) and glossary
entries (by term), with attributes `number` (or `term`), `kind` and `text` (the
first words). A target an edition does not have is a node of kind `missing`.
One edge joins a citing node to a cited one, with `raw` (the reference as
printed; several different ones joined by " | "), `count` and `found_in`
(rule, example or glossary: where the citing text is).
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    import networkx as nx

Format = Literal["dot", "graphml", "gexf", "json", "csv"]
FORMATS: tuple[Format, ...] = ("dot", "graphml", "gexf", "json", "csv")
SHORT_TEXT = 80

#: (kind, key, text) of a rule or glossary entry.
NodeRow = tuple[str, str, str]
#: (source node kind, source key, target kind, target, raw, source text kind, resolved).
EdgeRow = tuple[str, str, str, str, str, str, int]


def short(text: str, limit: int = SHORT_TEXT) -> str:
    """The first words of a text, on one line, at most `limit` characters."""
    flat = " ".join(text.split())
    if len(flat) <= limit:
        return flat
    cut = flat[: limit - 1]
    return (cut if flat[limit - 1] == " " else cut.rsplit(" ", 1)[0]) + "…"


def build(nodes: Iterable[NodeRow], edges: Iterable[EdgeRow]) -> nx.DiGraph:
    """The directed reference graph of one edition."""
    import networkx as nx

    graph = nx.DiGraph()
    for kind, key, text in nodes:
        name = "term" if kind == "glossary" else "number"
        graph.add_node(key, **{name: key}, kind=kind, text=short(text))
    for _, source, target_kind, target, raw, where, _resolved in edges:
        if target not in graph:
            name = "term" if target_kind == "glossary" else "number"
            graph.add_node(target, **{name: target}, kind="missing", text="")
        if graph.has_edge(source, target):
            data = graph.edges[source, target]
            data["count"] += 1
            if raw not in data["raw"].split(" | "):
                data["raw"] += " | " + raw
        else:
            graph.add_edge(source, target, raw=raw, count=1, found_in=where)
    return graph


def around(graph: nx.DiGraph, centre: str, depth: int) -> nx.DiGraph:
    """The subgraph of nodes within `depth` references of `centre`, in either direction."""
    import networkx as nx

    near = nx.single_source_shortest_path_length(graph.to_undirected(as_view=True), centre, depth)
    return graph.subgraph(near).copy()


def export(graph: nx.DiGraph, form: Format) -> str:
    """The graph as DOT, GraphML, GEXF, node-link JSON or a CSV edge list."""
    writers = {
        "dot": _dot,
        "graphml": _graphml,
        "gexf": _gexf,
        "json": _json,
        "csv": _csv,
    }
    return writers[form](graph)


def _dot(graph: nx.DiGraph) -> str:
    import pydot

    dot = pydot.Dot("references", graph_type="digraph")
    for key, data in graph.nodes(data=True):
        node = pydot.Node(_dot_text(key), label=_dot_text(key))
        _dot_attrs(node, data)
        dot.add_node(node)
    for source, target, data in graph.edges(data=True):
        edge = pydot.Edge(_dot_text(source), _dot_text(target))
        _dot_attrs(edge, data)
        dot.add_edge(edge)
    return str(dot.to_string())


def _dot_text(value: object) -> str:
    """A quoted DOT string: pydot would read ':' in a bare name as a port."""
    escaped = str(value).replace("\\", "\\\\").replace('"', '\\"')
    return f'"{escaped}"'


def _dot_attrs(element: Any, data: dict[str, Any]) -> None:
    for name, value in data.items():
        element.set(name, _dot_text(value))


def _graphml(graph: nx.DiGraph) -> str:
    import networkx as nx

    return "\n".join(nx.generate_graphml(graph)) + "\n"


def _gexf(graph: nx.DiGraph) -> str:
    import networkx as nx

    return "\n".join(nx.generate_gexf(graph)) + "\n"


def _json(graph: nx.DiGraph) -> str:
    import networkx as nx

    document = nx.node_link_data(graph, edges="edges")
    return json.dumps(document, ensure_ascii=False, indent=1) + "\n"


def _csv(graph: nx.DiGraph) -> str:
    import csv

    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["source", "target", "target_kind", "raw", "count", "found_in"])
    for source, target, data in graph.edges(data=True):
        kind = graph.nodes[target]["kind"]
        writer.writerow([source, target, kind, data["raw"], data["count"], data["found_in"]])
    return out.getvalue()
