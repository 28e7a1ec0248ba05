"""Every function at cyclomatic complexity 20 or less (radon's measure, as `radon cc` reports
it; CI's ruff counts differently), in every package and in the benchmarks: a longer one is
split into named steps."""

from __future__ import annotations

import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest
from radon.complexity import cc_visit
from radon.visitors import Class, Function

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = ("models", "planner", "service", "cli", "web", "benchmarks")
MOST = 20


def _functions(blocks: list[Function | Class]) -> Iterator[Function]:
    """Every function and method among radon's blocks (which list a class's methods besides
    the class), nested ones (closures) included."""
    for block in blocks:
        if isinstance(block, Function):
            yield block
            yield from _functions(block.closures)


def too_complex(source: str) -> list[tuple[str, int, int]]:
    """(name, line, complexity) of each function in `source` above `MOST`."""
    return [(f.fullname, f.lineno, f.complexity) for f in _functions(cc_visit(source))
            if f.complexity > MOST]


def test_every_function_is_at_most_20() -> None:
    found = [f"{path.relative_to(ROOT)}:{line} {name} ({complexity})"
             for folder in FOLDERS for path in sorted((ROOT / folder).rglob("*.py"))
             for name, line, complexity in too_complex(path.read_text(encoding="utf-8"))]
    assert not found, f"{len(found)} functions above complexity {MOST}:\n" + "\n".join(found)


@pytest.mark.parametrize("folder", FOLDERS)
def test_each_folder_is_read(folder: str) -> None:
    assert list((ROOT / folder).rglob("*.py"))


def _branches(count: int) -> str:
    return "".join(f"    if x == {i}:\n        return {i}\n" for i in range(count))


@pytest.mark.parametrize(("source", "expected"), [
    ("def f(x):\n" + _branches(19) + "    return -1\n", []),  # 1 + 19 branches: 20
    ("def f(x):\n" + _branches(20) + "    return -1\n", [("f", 1, 21)]),
    ("class C:\n    def m(self, x):\n" + textwrap.indent(_branches(20), "    ")
     + "        return -1\n", [("C.m", 2, 21)]),
    ("def outer():\n    def f(x):\n" + textwrap.indent(_branches(20), "    ")
     + "        return -1\n    return f\n", [("f", 2, 21)]),
])
def test_the_measure_finds_a_function_above_20(source: str,
                                               expected: list[tuple[str, int, int]]) -> None:
    assert too_complex(source) == expected
