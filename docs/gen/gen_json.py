"""The JSON output page: every schema of `castell schema`, generated from
`service.results.registry.SCHEMAS` (the same adapter the command prints)."""

from __future__ import annotations

import json
from typing import Any

from service.results.registry import SCHEMAS, adapter


def _type(schema: dict[str, Any]) -> str:
    """A short type name for a property's schema."""
    if "$ref" in schema:
        return str(schema["$ref"]).rsplit("/", 1)[-1]
    if "const" in schema:
        return json.dumps(schema["const"])
    if "enum" in schema:
        return " \\| ".join(json.dumps(v) for v in schema["enum"])
    for key in ("anyOf", "oneOf"):
        if key in schema:
            return " \\| ".join(_type(part) for part in schema[key])
    kind = schema.get("type", "any")
    if kind == "array":
        return f"array of {_type(schema.get('items', {}))}"
    if kind == "object" and "additionalProperties" in schema and isinstance(
            schema["additionalProperties"], dict):
        return f"object of {_type(schema['additionalProperties'])}"
    return str(kind)


def _fields(schema: dict[str, Any], defs: dict[str, Any]) -> list[str]:
    """The table of an object's fields, or of each object a union's line may be."""
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        return [f"*{name}*:", "", *_fields(defs[name], defs)]
    if "anyOf" in schema or "oneOf" in schema:
        rows: list[str] = ["One line is one of:", ""]
        for part in schema.get("anyOf", schema.get("oneOf", [])):
            rows += [*_fields(part, defs), ""]
        return rows
    required = set(schema.get("required", []))
    described = schema.get("description", "")
    rows = [_cell(described), ""] if described else []
    rows += ["| field | type | always | meaning |", "| --- | --- | --- | --- |"]
    for name, prop in schema.get("properties", {}).items():
        rows.append(f"| `{name}` | {_type(prop)} | {'yes' if name in required else ''} | "
                    f"{_cell(prop.get('description', ''))} |")
    return rows


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def json_output() -> str:
    """One section per command: its fields, then the fields of its parts, folded."""
    parts = []
    for command in SCHEMAS:
        schema = adapter(command).json_schema()
        defs = schema.get("$defs", {})
        body = "\n".join(_fields(schema, defs))
        section = f"## `{command}`\n\n`castell schema {command}` prints it whole.\n\n{body}\n"
        inner = [name for name in defs
                 if "properties" in defs[name] and f'"#/$defs/{name}"' not in _top(schema)]
        if inner:
            tables = "\n".join(f"*{name}*:\n\n" + "\n".join(_fields(defs[name], defs)) + "\n"
                               for name in inner)
            section += '\n??? note "Its parts"\n\n' + _indent(tables) + "\n"
        parts.append(section)
    return "\n".join(parts)


def _top(schema: dict[str, Any]) -> str:
    """The references of the line itself (a union's members are shown above, not as parts)."""
    return json.dumps([part for key in ("anyOf", "oneOf") for part in schema.get(key, [])]
                      + ([schema] if "$ref" in schema else []))


def _indent(text: str) -> str:
    return "\n".join(f"    {line}" if line else "" for line in text.splitlines())
