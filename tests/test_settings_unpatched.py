"""No test or benchmark patches a module setting (an ALL_CAPS module attribute): a tuning value
is a field of a budget (`PlanBudget` and its `tower`, `TowerBudget`, `ComboBudget`) that the
test passes down, so that what a test runs is what the product runs with another budget, and
a patch that outlives its test (or misses a copy imported elsewhere) cannot change another
test's answers. The scan reads every file's syntax tree: `monkeypatch.setattr(module,
"NAME", ...)` and its dotted-string form, `mock.patch("module.NAME")`,
`mock.patch.object(module, "NAME")` and `module.NAME = ...`."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SETTING = re.compile(r"^[A-Z][A-Z0-9_]*$")

def _name_patched(call: ast.Call) -> str | None:
    """The attribute a patching call names (None: not a patch, or not by a literal)."""
    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    literal = [a.value for a in call.args if isinstance(a, ast.Constant)
               and isinstance(a.value, str)]
    if name in ("setattr", "object") and len(call.args) >= 2 and literal:
        if isinstance(call.args[0], ast.Constant):  # setattr("pkg.module.NAME", value)
            return literal[0].rsplit(".", 1)[-1]
        return literal[0]  # setattr(module, "NAME", value), patch.object(module, "NAME")
    if name == "patch" and literal:  # mock.patch("pkg.module.NAME")
        return literal[0].rsplit(".", 1)[-1]
    return None


def patched_settings(source: str) -> list[tuple[int, str]]:
    """Each (line, NAME) where `source` patches an ALL_CAPS attribute."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call):
            name = _name_patched(node)
            if name is not None and SETTING.match(name):
                found.append((node.lineno, name))
        elif isinstance(node, ast.Assign | ast.AugAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            found += [(node.lineno, t.attr) for t in targets
                      if isinstance(t, ast.Attribute) and SETTING.match(t.attr)]
    return sorted(found)


def test_the_scan_finds_each_form_of_patch() -> None:
    source = '''
monkeypatch.setattr(bounds, "BOUND_WALL", 60.0)
monkeypatch.setattr("planner.combo.bots.MAX_CACHED", 3)
mock.patch("planner.tower.cpsat.DETERMINISTIC_PER_SECOND", 1000.0)
mock.patch.object(dp, "MAX_STATES", 10)
bounds.SCORE_STATES = 5
monkeypatch.setattr(bots, "quick_score", counting)
monkeypatch.setattr(Game, "save", stop)
state.players = []
'''
    assert [name for _, name in patched_settings(source)] == [
        "BOUND_WALL", "MAX_CACHED", "DETERMINISTIC_PER_SECOND", "MAX_STATES", "SCORE_STATES"]


def test_no_test_or_benchmark_patches_a_module_setting() -> None:
    found = []
    for folder in ("tests", "benchmarks"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            where = path.relative_to(ROOT).as_posix()
            if path == Path(__file__).resolve():
                continue  # this file's example source
            found += [f"{where}:{line} patches {name}"
                      for line, name in patched_settings(path.read_text(encoding="utf-8"))]
    assert not found, "pass a budget instead of patching a setting:\n" + "\n".join(found)
