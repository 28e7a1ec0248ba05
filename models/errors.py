"""Typed errors of the rules core.

A malformed spec (bad notation, bad file) is a `SpecError`; a tower that is well written but
breaks the rules is not an error at all: the checker reports it as violations. The CLI maps
`SpecError` to exit code 2.
"""

from __future__ import annotations


class CastellError(Exception):
    """Base of every error this project raises on purpose."""


class SpecError(CastellError, ValueError):
    """The user's input cannot be read: a notation, an option or a file field is malformed."""

    def __init__(self, message: str, *, token: str | None = None, field: str | None = None):
        self.token = token
        self.field = field
        super().__init__(message)


class ProvenNo(CastellError):
    """A well-formed question whose answer is a proven no (the CLI's exit code 1)."""


class NotationError(SpecError):
    """A pool, skill, tower, tile or festival text does not follow the notation."""
