"""The reference graph of one edition (networkx) and its exports.

Nodes are rules (by number: sections, chapters, rules, subrules) and glossary
entries (by term), with attributes `number` (or `term`), `kind`, `text` (the whole
text) and `short` (its first words, on one line). A target an edition does not
have is a node of kind `missing`. One edge joins a citing node to a cited one,
with `raw` (the reference as printed; several different ones joined by " | "),
`count` and `found_in` (rule, example or glossary: where the citing texts are,
joined by " | " when there are several). The graph attribute `edition` names the
edition, in every format that carries graph attributes (GraphML, JSON, DOT; GEXF
as its graph name and description; CSV as a column).

Rule text is stored as published, so it may hold control characters (ESC, NUL...)
from a damaged copy. JSON keeps every character, escaped as JSON allows; XML cannot
hold them at all and DOT tools choke on them, so GraphML, GEXF and DOT show them
as visible escapes (`\\x1b`, see rules_kb.controls). CSV keeps them, as CSV can.
Lone surrogates, which no encoder can write, are shown as escapes everywhere.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, Literal

from rules_kb.controls import visible
from rules_kb.ingest.models import descends as descends

if TYPE_CHECKING:
    import networkx as nx

Format = Literal["dot", "graphml", "gexf", "json", "csv"]
FORMATS: tuple[Format, ...] = ("dot", "graphml", "gexf", "json", "csv")
SHORT_TEXT = 80

#: (kind, key, text) of a rule or glossary entry.
NodeRow = tuple[str, str, str]
#: (source node kind, source key, target kind, target, raw, source text kind, resolved).
EdgeRow = tuple[str, str, str, str, str, str, int]

#: Characters XML 1.0 cannot hold even as references, besides controls and surrogates.
_NOT_XML = re.compile("[\ufffe\uffff]")
#: What JSON may leave raw but a terminal or an encoder would trip on.
_JSON_UNSAFE = re.compile("[\x7f-\x9f\ud800-\udfff\u2028\u2029\ufffe\uffff]")
_SURROGATE = re.compile("[\ud800-\udfff]")


def short(text: str, limit: int = SHORT_TEXT) -> str:
    """The first words of a text, on one line, at most `limit` characters."""
    flat = " ".join(text.split())
    if len(flat) <= limit:
        return flat
    cut = flat[: limit - 1]
    return (cut if flat[limit - 1] == " " else cut.rsplit(" ", 1)[0]) + "…"


def build(
    nodes: Iterable[NodeRow], edges: Iterable[EdgeRow], *, edition: str | None = None
) -> nx.DiGraph:
    """The directed reference graph of one edition (named in `graph.graph["edition"]`)."""
    import networkx as nx

    graph = nx.DiGraph()
    if edition is not None:
        graph.graph["edition"] = edition
    for kind, key, text in nodes:
        name = "term" if kind == "glossary" else "number"
        graph.add_node(key, **{name: key}, kind=kind, text=text, short=short(text))
    for _, source, target_kind, target, raw, where, _resolved in edges:
        if target not in graph:
            name = "term" if target_kind == "glossary" else "number"
            graph.add_node(target, **{name: target}, kind="missing", text="", short="")
        if graph.has_edge(source, target):
            data = graph.edges[source, target]
            data["count"] += 1
            _add_to_list(data, "raw", raw)
            _add_to_list(data, "found_in", where)
        else:
            graph.add_edge(source, target, raw=raw, count=1, found_in=where)
    return graph


def _add_to_list(data: dict[str, Any], name: str, value: str) -> None:
    if value not in data[name].split(" | "):
        data[name] += " | " + value


def around(graph: nx.DiGraph, centre: str, depth: int) -> nx.DiGraph:
    """The subgraph of nodes within `depth` references of `centre`, in either direction.

    The centre is the rule asked for with everything numbered under it: a rule's
    subrules (613.1 with 613.1a, 613.1b ...), a chapter's rules, a section's chapters.
    """
    import networkx as nx

    if centre not in graph:
        raise nx.NodeNotFound(f"{centre} is not in the graph")
    sources = [key for key in graph if key == centre or descends(key, centre)]
    near = nx.multi_source_dijkstra_path_length(
        graph.to_undirected(as_view=True), sources, cutoff=depth
    )
    return graph.subgraph(near).copy()


def export(graph: nx.DiGraph, form: Format) -> str:
    """The graph as DOT, GraphML, GEXF, node-link JSON or a CSV edge list."""
    writers: dict[str, Callable[[nx.DiGraph], str]] = {
        "dot": _dot,
        "graphml": _graphml,
        "gexf": _gexf,
        "json": _json,
        "csv": _csv,
    }
    return writers[form](graph)


def _cleaned(graph: nx.DiGraph, clean: Callable[[str], str]) -> nx.DiGraph:
    """A copy of the graph with `clean` applied to every key and text value."""
    import networkx as nx

    def values(data: dict[str, Any]) -> dict[str, Any]:
        return {name: clean(v) if isinstance(v, str) else v for name, v in data.items()}

    copy = nx.DiGraph(**values(graph.graph))
    copy.add_nodes_from((clean(key), values(data)) for key, data in graph.nodes(data=True))
    copy.add_edges_from(
        (clean(source), clean(target), values(data))
        for source, target, data in graph.edges(data=True)
    )
    return copy


def _for_xml(text: str) -> str:
    return _NOT_XML.sub(lambda match: f"\\u{ord(match.group()):04x}", visible(text))


def _for_csv(text: str) -> str:
    """A cell as CSV can carry it to any reader: control characters spelled as escapes."""
    return visible(text)


def _dot(graph: nx.DiGraph) -> str:
    import pydot

    dot = pydot.Dot("references", graph_type="digraph")
    for name, value in graph.graph.items():
        dot.set(name, _dot_text(value))
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
    """A quoted DOT string: pydot would read ':' in a bare name as a port. Controls
    are shown as escapes, and a newline is DOT's own escape for a line break."""
    text = _for_xml(str(value))
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{escaped}"'


def _dot_attrs(element: Any, data: dict[str, Any]) -> None:
    for name, value in data.items():
        element.set(name, _dot_text(value))


def _graphml(graph: nx.DiGraph) -> str:
    import networkx as nx

    return "\n".join(nx.generate_graphml(_cleaned(graph, _for_xml))) + "\n"


def _gexf(graph: nx.DiGraph) -> str:
    import networkx as nx

    clean = _cleaned(graph, _for_xml)
    edition = clean.graph.pop("edition", None)
    if edition is None:
        return "\n".join(nx.generate_gexf(clean)) + "\n"
    # GEXF has no graph attributes: the edition is the graph's name and description.
    clean.graph["name"] = f"edition {edition}"
    lines = list(nx.generate_gexf(clean))
    at = next((i for i, line in enumerate(lines) if line.strip().startswith("<creator>")), None)
    if at is not None:
        indent = lines[at][: len(lines[at]) - len(lines[at].lstrip())]
        lines.insert(at + 1, f"{indent}<description>edition {edition}</description>")
    return "\n".join(lines) + "\n"


def _json(graph: nx.DiGraph) -> str:
    import networkx as nx

    document = nx.node_link_data(graph, edges="edges")
    text = json.dumps(document, ensure_ascii=False, indent=1)
    # JSON leaves DEL, C1 and lone surrogates raw: escape them, as JSON allows.
    return _JSON_UNSAFE.sub(lambda match: f"\\u{ord(match.group()):04x}", text) + "\n"


def _csv(graph: nx.DiGraph) -> str:
    import csv

    edition = graph.graph.get("edition", "")
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(
        ["source", "target", "target_kind", "raw", "count", "found_in", "source_kind", "edition"]
    )
    for source, target, data in graph.edges(data=True):
        row = [
            source,
            target,
            graph.nodes[target]["kind"],
            data["raw"],
            data["count"],
            data["found_in"],
            graph.nodes[source]["kind"],
            edition,
        ]
        writer.writerow([_for_csv(cell) if isinstance(cell, str) else cell for cell in row])
    return out.getvalue()
