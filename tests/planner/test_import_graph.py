"""No import circle in the solvers (`planner`): each module builds only on those below it,
imports inside functions included."""

from __future__ import annotations

import grimp
import networkx as nx
import pytest


def _cycles(package: str, type_checking: bool = True) -> list[list[str]]:
    graph = grimp.build_graph(package, exclude_type_checking_imports=not type_checking)
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


@pytest.mark.parametrize("package", ["models", "service", "web", "cli"])
def test_no_import_circle_in_the_other_layers(package: str) -> None:
    """Issue 36: `service.combo` <-> its use cases, `web.app` <-> its routers and
    `models.game.regions` <-> `board` imported each other. An import made for annotations
    only (under TYPE_CHECKING) runs never and is no circle."""
    cycles = _cycles(package, type_checking=False)
    assert not cycles, "import circles: " + "; ".join(" -> ".join(c) for c in cycles[:5])
