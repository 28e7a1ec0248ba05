"""The CLI stays on the public API of Typer and Click (issue 50): no private module, no
underscore attribute, no replaced parser. `cli/params.py` once set Typer's `_runtime_param`
hooks and `cli/repeats.py` replaced `parse_args` and re-read the command line by hand; a Typer
minor may change any of that without a word, so the pin had to stay below it.

Allowed from Typer's submodules are the names its own documentation gives for going below the
`typer` namespace: `typer.core.TyperGroup`/`TyperCommand` (the classes `Typer(cls=...)` takes,
"should be a subtype of TyperGroup") and `typer.main.get_command` ("Using Click"). Nothing
else of `typer.core` or `typer.main`, and nothing of `click.core` or of a `_` module."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

CLI = Path(__file__).resolve().parents[2] / "cli"
# documented extension points of Typer below its top-level namespace (see the docstring)
DOCUMENTED = {"typer.core.TyperGroup", "typer.core.TyperCommand", "typer.main.get_command"}
# modules whose names are internals, whatever is imported from them
INTERNAL = ("typer.core", "typer.main", "click.core", "click.parser", "click.types")
# click and Typer hooks a command has no business replacing: the command line is click's to read
REPLACED = {"parse_args", "get_runtime_param", "process_value", "type_cast_value",
            "_coerce_value", "get_help_option"}


def _dotted(node: ast.AST) -> str:
    """`typer.main.get_command` for that attribute chain, '' for anything else."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        head = _dotted(node.value)
        return f"{head}.{node.attr}" if head else ""
    return ""


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _imported(node: ast.AST) -> list[str]:
    """Every dotted name an import statement brings in (`from a.b import c` -> `a.b.c`)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if isinstance(node, ast.ImportFrom) and node.module and not node.level:
        return [f"{node.module}.{alias.name}" for alias in node.names]
    return []


def _framework(name: str) -> bool:
    return name.split(".")[0] in ("typer", "click")


def _import_faults(name: str) -> list[str]:
    if not _framework(name) or name in DOCUMENTED:
        return []
    if any(_private(part) for part in name.split(".")[1:]):
        return [f"imports the private {name}"]
    if any(name == module or name.startswith(module + ".") for module in INTERNAL):
        return [f"imports the internal {name}"]
    return []


def _attribute_faults(node: ast.Attribute) -> list[str]:
    found: list[str] = []
    dotted = _dotted(node)
    if _framework(dotted) and dotted.count(".") >= 2 and dotted not in DOCUMENTED:
        found += _import_faults(dotted)  # `typer.core.RuntimeParam` without an import
    if _private(node.attr) and _dotted(node.value) not in ("self", "cls"):
        found.append(f"touches the underscore attribute .{node.attr}")
    if node.attr in REPLACED and isinstance(node.ctx, ast.Store):
        found.append(f"replaces a command's {node.attr}")
    return found


def _by_name(node: ast.Call) -> list[str]:
    """`getattr(param, "_runtime_param")`: an underscore attribute reached by its name."""
    if _dotted(node.func) not in ("getattr", "setattr", "hasattr") or len(node.args) < 2:
        return []
    name = node.args[1]
    if isinstance(name, ast.Constant) and isinstance(name.value, str) and _private(name.value):
        return [f"reads the underscore attribute {name.value!r} by name"]
    return []


def faults(source: str) -> list[str]:
    """What in `source` goes below the public API of Typer and Click."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        for name in _imported(node):
            found += _import_faults(name)
        if isinstance(node, ast.Attribute):
            found += _attribute_faults(node)
        elif isinstance(node, ast.Call):
            found += _by_name(node)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name in REPLACED:
            found.append(f"overrides {node.name}")
    return found


def test_no_module_under_cli_goes_below_the_public_api() -> None:
    found = [f"{path.relative_to(CLI.parent)}: {fault}" for path in sorted(CLI.rglob("*.py"))
             for fault in faults(path.read_text(encoding="utf-8"))]
    assert not found, found


@pytest.mark.parametrize("source", [
    "import typer.core\nx = typer.core.RuntimeParam",  # cli/params.py, as it was
    "from typer.core import TyperOption",  # cli/repeats.py, as it was
    "from typer._click import Context",
    "import typer._coercion",
    "from click.core import Command",
    "param._runtime_param = light",
    "getattr(param, '_runtime_param', None)",
    "command.parse_args = parse_args",
    "class Group:\n    def parse_args(self, ctx, args):\n        return args",
    "class P:\n    def _coerce_value(self, value, param, ctx):\n        return value",
    "ctx._protected_args = []",
])
def test_the_scan_sees_what_it_forbids(source: str) -> None:
    assert faults(source)


@pytest.mark.parametrize("source", [
    "import typer\napp = typer.Typer()",
    "from typer.core import TyperGroup, TyperCommand",
    "command = typer.main.get_command(app)",
    "import click\nclick.echo('x')",
    "self._cache = {}",
    "class G:\n    def main(self, args):\n        return super().main(args)",
    "from cli.consoles import _silence_stdout",  # the project's own module, not a framework's
])
def test_the_scan_lets_the_public_api_through(source: str) -> None:
    assert not faults(source)
