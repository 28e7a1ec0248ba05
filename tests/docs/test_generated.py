"""The generated pages (docs/gen) cover the code they are generated from: every switch and
reading, every command, every schema; and every page's marker names a generator."""

from __future__ import annotations

import importlib.util
import re
import sys
from dataclasses import fields
from pathlib import Path
from types import ModuleType

from models.combo import ComboRules
from models.tower import SWITCHES, Rules
from service.results.registry import SCHEMAS

GEN = Path(__file__).resolve().parents[2] / "docs" / "gen"


def _load(name: str) -> ModuleType:
    sys.path.insert(0, str(GEN))  # the hook imports its siblings the same way
    try:
        spec = importlib.util.spec_from_file_location(name, GEN / f"{name}.py")
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(GEN))


def test_every_castell_switch_and_number_is_on_the_rules_page() -> None:
    text = _load("gen_rules").castell_switches()
    for name in [*SWITCHES, *(f.name for f in fields(Rules) if f.name != "name")]:
        assert f"| `{name}` |" in text, name


def test_every_combo_reading_and_number_is_on_the_rules_page() -> None:
    text = _load("gen_rules").combo_readings()
    for name in ComboRules.model_fields:
        assert f"| `{name}` |" in text, name


def test_every_command_has_its_help_on_the_cli_page() -> None:
    gen = _load("gen_cli")
    paths = list(gen.commands())
    for words in [("verify",), ("state", "new"), ("combo", "arrange"), ("puzzle", "sheet")]:
        assert words in paths
    text = gen.cli_reference()
    for path in paths:
        assert f"`{' '.join(('castell', *path))}`" in text
    assert "Usage: castell combo tournament [OPTIONS]" in text


def test_every_schema_is_on_the_json_page() -> None:
    text = _load("gen_json").json_output()
    for command in SCHEMAS:
        assert f"## `{command}`" in text
    assert "| `schema_version` |" in text


def test_every_marker_names_a_generator() -> None:
    hooks = _load("hooks")
    pages = (GEN.parent).glob("**/*.md")
    used = {name for page in pages for name in re.findall(r"<!-- generated: ([a-z-]+) -->",
                                                            page.read_text())}
    assert used == set(hooks.GENERATED)


def test_an_unknown_marker_fails_the_build() -> None:
    hooks = _load("hooks")

    class Page:
        class file:  # the shape of mkdocs' page.file
            src_path = "x.md"
    try:
        hooks.on_page_markdown("<!-- generated: nothing -->", page=Page)
    except KeyError as error:
        assert "nothing" in str(error)
    else:
        raise AssertionError("an unknown marker was left as it is")
