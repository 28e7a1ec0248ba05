"""How the page words an error about one input: by the control's label a player sees on the
page (the application layer names the input by its field, `SpecError.field`; the CLI names its
option instead)."""

from __future__ import annotations

# field -> the control's label on the pages (the start page's forms, the step controls)
LABELS = {"players": "Players", "seed": "Seed", "deal": "Real deal", "rules": "Readings",
          "reading": "Readings", "first": "Who starts", "file": "File name",
          "player": "Player", "board": "Board"}


def said(error: Exception) -> str:
    """The error's line on the page: the control it is about first, where it names one."""
    field = getattr(error, "field", None)
    if not field:
        return str(error)
    return f"{LABELS.get(field, field.replace('_', ' ').capitalize())}: {error}"
