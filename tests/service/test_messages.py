"""No message the application layer raises names an edge's option: every refusal and bad input
in `service/` is worded for any edge, with the input it is about as data (`SpecError.field`),
which each edge words its own way (the CLI's option, the page's control)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SERVICE = Path(__file__).resolve().parents[2] / "service"
RAISED = {"SpecError", "Refused", "ProvenNo", "PlanRefused", "TimeLimitReached", "IllegalAction",
          "CastellError", "NotationError", "BatchError", "TowerSearchUnfinished"}


def _texts(node: ast.AST, constants: dict[str, ast.AST]) -> list[str]:
    """The literal text parts of a message expression (constants followed by name)."""
    if isinstance(node, ast.Name) and node.id in constants:
        return _texts(constants[node.id], constants)
    return [n.value for n in ast.walk(node)
            if isinstance(n, ast.Constant) and isinstance(n.value, str)]


def raised_messages(path: Path) -> list[tuple[int, str]]:
    """(line, text) of every literal part of a message the module raises."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    constants = {t.id: node.value for node in tree.body if isinstance(node, ast.Assign)
                 for t in node.targets if isinstance(t, ast.Name)}
    found = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call)):
            continue
        called = node.exc.func
        name = called.id if isinstance(called, ast.Name) else getattr(called, "attr", "")
        if name in RAISED and node.exc.args:
            found += [(node.lineno, text) for text in _texts(node.exc.args[0], constants)]
    return found


MODULES = sorted(SERVICE.rglob("*.py"))


def test_the_walk_finds_the_messages() -> None:
    texts = [t for m in MODULES for _, t in raised_messages(m)]
    assert len(texts) > 100
    assert any("2 to 4 players" in t for t in texts)  # a raise with a field
    assert any("a what-if goes with a game" in t for t in texts)  # a constant, followed


@pytest.mark.parametrize("module", MODULES, ids=lambda p: str(p.relative_to(SERVICE)))
def test_no_service_message_names_an_option(module: Path) -> None:
    named = [(line, text) for line, text in raised_messages(module) if "--" in text]
    assert not named, f"{module.name}: word these for every edge (SpecError(..., field=...)): " \
                      f"{named}"
