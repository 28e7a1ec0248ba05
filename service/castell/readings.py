"""The readings: every rules switch, its values, its default and what it means (from the
`Rules` docstring, so that one place says it), and the named variants."""

from __future__ import annotations

import inspect

from models.tower import STANDARD, SWITCHES, VARIANTS, Rules, switch_values
from service.results import SCHEMA_VERSION
from service.results.game import RulesOutput, Switch


def _descriptions() -> dict[str, str]:
    """Each switch's paragraph of the `Rules` docstring."""
    doc = inspect.getdoc(Rules) or ""
    found: dict[str, list[str]] = {}
    current = None
    for line in doc.splitlines():
        head = line.split(":")[0].strip()
        if line and not line.startswith(" ") and head in SWITCHES:
            current = head
            found[current] = [line.split(":", 1)[1].strip()]
        elif current and line.startswith(" "):
            found[current].append(line.strip())
        else:
            current = None
    return {name: " ".join(words) for name, words in found.items()}


def _show(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def readings() -> RulesOutput:
    described = _descriptions()
    return RulesOutput(
        schema_version=SCHEMA_VERSION,
        variants={name: [f"{switch}={_show(getattr(variant, switch))}" for switch in SWITCHES
                         if getattr(variant, switch) != getattr(STANDARD, switch)]
                  for name, variant in VARIANTS.items()},
        switches=[Switch(switch=name, values=list(switch_values(name)),
                         default=_show(getattr(STANDARD, name)),
                         meaning=described.get(name, "")) for name in SWITCHES])
