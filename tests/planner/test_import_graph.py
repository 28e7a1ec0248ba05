"""No import circle anywhere (`models`, `planner`, `service`, `cli`, `web`, and between them):
each module builds only on those below it. Every import counts: at the top, inside a function
(a deferred import still runs, only later) and under TYPE_CHECKING (an annotation still names
the other module, and a type checker follows it). A module that imports its own package's
`__init__` while that `__init__` imports it back (a re-export, or a name read on first use) is
a circle too."""

from __future__ import annotations

import textwrap
from pathlib import Path

import grimp
import networkx as nx
import pytest

PACKAGES = ("models", "planner", "service", "cli", "web")


def _edges(*packages: str) -> nx.DiGraph:
    """Who imports whom among `packages`' modules, every kind of import included."""
    graph = grimp.build_graph(*packages, exclude_type_checking_imports=False, cache_dir=None)
    edges = nx.DiGraph()
    for module in graph.modules:
        edges.add_node(module)
        for imported in graph.find_modules_directly_imported_by(module):
            if imported != module:
                edges.add_edge(module, imported)
    return edges


def _cycles(*packages: str, most: int = 10) -> list[list[str]]:
    """Up to `most` import circles among `packages`' modules, each as the modules in order."""
    found = []
    for cycle in nx.simple_cycles(_edges(*packages)):
        found.append(cycle)
        if len(found) == most:
            break
    return found


def _shown(cycles: list[list[str]]) -> str:
    return "; ".join(" -> ".join([*cycle, cycle[0]]) for cycle in cycles)


def _own_package_circles(edges: nx.DiGraph) -> list[tuple[str, str]]:
    """(module, its package) pairs where each imports the other directly."""
    return [(module, package) for module, package in edges.edges
            if module.startswith(f"{package}.") and edges.has_edge(package, module)]


def test_no_import_circle_in_any_package_or_between_them() -> None:
    cycles = _cycles(*PACKAGES)
    assert not cycles, "import circles: " + _shown(cycles)


def test_no_module_imports_its_own_package_while_the_package_imports_it() -> None:
    pairs = _own_package_circles(_edges(*PACKAGES))
    assert not pairs, "circles through a package's __init__: " + "; ".join(
        f"{module} <-> {package}" for module, package in pairs)


@pytest.mark.parametrize("package", PACKAGES)
def test_the_graph_sees_every_package(package: str) -> None:
    """The check above reads the packages it names (a typo would make it pass on nothing)."""
    assert any(module.startswith(f"{package}.") for module in _edges(package))


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")


@pytest.mark.parametrize(("name", "files", "circle"), [
    ("annotation_only", {  # an import for annotations only is a circle all the same
        "__init__.py": "",
        "board.py": "from annotation_only.regions import graph\n",
        "regions.py": """
            from typing import TYPE_CHECKING
            if TYPE_CHECKING:
                from annotation_only.board import Board
            def graph(board: 'Board') -> None: ...
            """,
    }, {"annotation_only.board", "annotation_only.regions"}),
    ("deferred", {  # so is an import inside a function
        "__init__.py": "",
        "game.py": """
            def view():
                from deferred.view import show
                return show
            """,
        "view.py": "from deferred.game import view\n",
    }, {"deferred.game", "deferred.view"}),
    ("through_init", {  # a module reads its package's name, which the package reads from it
        "__init__.py": """
            def __getattr__(name):
                from through_init import game
                return getattr(game, name)
            """,
        "game.py": """
            def advice():
                from through_init.plans import plan
                return plan
            """,
        "plans.py": """
            from typing import TYPE_CHECKING
            if TYPE_CHECKING:
                from through_init import Game
            def plan(game: 'Game') -> None: ...
            """,
    }, {"through_init", "through_init.game", "through_init.plans"}),
])
def test_the_check_finds_each_kind_of_circle(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                             name: str, files: dict[str, str],
                                             circle: set[str]) -> None:
    _write(tmp_path / name, files)
    monkeypatch.syspath_prepend(str(tmp_path))
    assert [set(cycle) for cycle in _cycles(name)] == [circle]


def test_a_module_and_its_own_package_importing_each_other_are_named(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _write(tmp_path / "own", {
        "__init__.py": "from own.names import NAME\nOTHER = 1\n",
        "names.py": """
            NAME = 0
            def other():
                from own import OTHER
                return OTHER
            """,
        "alone.py": "from own import NAME\n",  # reads the package, which never reads it back
    })
    monkeypatch.syspath_prepend(str(tmp_path))
    assert _own_package_circles(_edges("own")) == [("own.names", "own")]
