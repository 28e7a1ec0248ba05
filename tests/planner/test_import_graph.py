"""No import circle in the solvers (`planner`): each module builds only on those below it,
imports inside functions included."""

from __future__ import annotations

import grimp
import networkx as nx


def _cycles(package: str) -> list[list[str]]:
    graph = grimp.build_graph(package)
    edges = nx.DiGraph()
    for module in graph.modules:
        for imported in graph.find_modules_directly_imported_by(module):
            if imported.startswith(f"{package}.") and imported != module:
                edges.add_edge(module, imported)
    # a package's __init__ re-exports its modules: an import of the package is an import
    # of its public names, which its own modules never make of it
    return [cycle for cycle in nx.simple_cycles(edges) if len(cycle) > 1]


def test_no_import_circle_in_the_planner() -> None:
    cycles = _cycles("planner")
    assert not cycles, "import circles: " + "; ".join(" -> ".join(c) for c in cycles[:5])
