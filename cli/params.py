"""Typer parameters that convert their values without pydantic.

Typer (0.2x) converts every parameter's value through a pydantic TypeAdapter, built when the
command runs: importing pydantic and building one adapter per option is most of what a quick
command like `castell verify` or `castell route` spends before it starts. The parameters most
commands take are text, existing file paths and whole numbers read by our own parsers
(`cli.options.whole`, `seconds`); for those this module gives the same conversion as Typer's
adapters, minus pydantic: text as given, flags, a path checked as Typer checks it
(`checked_path`: exists, file or directory, '-'), a parser's value or its error. Choices
(enums, literals), lists and file objects keep Typer's adapters. On a Typer without runtime
coercion this does nothing.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import typer.core
from typer import BadParameter, format_filename

# Typer >= 0.2x: runtime coercion (pydantic adapters), each parameter's hook, as its public
# `typer.core` module names it (None: an older Typer, which converts with click types)
RuntimeParam: Any = getattr(typer.core, "RuntimeParam", None)


def _label(info: Any) -> str:
    """What a path parameter asks for, as Typer's own check words it."""
    if info.file_okay and not info.dir_okay:
        return "file"
    return "dir" if info.dir_okay and not info.file_okay else "path"


def checked_path(value: Path, info: Any, param: Any, ctx: Any) -> Path:
    """A path parameter's checks, as Typer's own (exists, file or directory, readable,
    writable, '-' where allowed, resolved where asked), with the same words."""
    if info.file_okay and info.allow_dash and str(value) == "-":
        return value
    checked = type(value)(os.path.realpath(value)) if info.resolve_path else value
    label, shown = _label(info), repr(format_filename(value))
    try:
        mode = os.stat(checked).st_mode
    except OSError:
        if not info.exists:
            return checked
        raise BadParameter(f"{label} {shown} does not exist.", ctx=ctx, param=param) from None
    if not info.file_okay and stat.S_ISREG(mode):
        raise BadParameter(f"{label} {shown} is a file.", ctx=ctx, param=param)
    if not info.dir_okay and stat.S_ISDIR(mode):
        raise BadParameter(f"{label} {shown} is a directory.", ctx=ctx, param=param)
    if info.readable and not os.access(checked, os.R_OK):
        raise BadParameter(f"{label} {shown} is not readable.", ctx=ctx, param=param)
    if info.writable and not os.access(checked, os.W_OK):
        raise BadParameter(f"{label} {shown} is not writable.", ctx=ctx, param=param)
    return checked


if RuntimeParam is not None:

    @dataclass(frozen=True)
    class _Text(RuntimeParam):  # type: ignore[misc]
        """A `str` parameter: the text as given (bytes decoded as the file system does)."""

        def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
            if isinstance(value, str):
                return value
            return os.fsdecode(value) if isinstance(value, bytes) else str(value)

    _TRUE = frozenset(("1", "on", "t", "true", "y", "yes"))
    _FALSE = frozenset(("0", "off", "f", "false", "n", "no"))

    @dataclass(frozen=True)
    class _Flag(RuntimeParam):  # type: ignore[misc]
        """A `bool` parameter: a flag's bool as it is; text as pydantic's lax bool reads it
        (as Typer's adapter does: blank is False)."""

        def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
            if isinstance(value, bool):
                return value
            text = str(value).strip().lower()
            if text in _TRUE or text in _FALSE or not text:
                return text in _TRUE
            raise BadParameter(f"Input should be a valid boolean, unable to interpret "
                               f"input: {value!r}", ctx=ctx, param=param)

    @dataclass(frozen=True)
    class _File(RuntimeParam):  # type: ignore[misc]
        """A `Path` parameter: Typer's own checks (exists, dir_okay, '-'), given a Path."""

        def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
            path_type: Any = self.annotation  # a Path class (`_light` keeps path_type=)
            if isinstance(value, (str, bytes)):
                value = path_type(os.fsdecode(value))
            return checked_path(value, self.parameter_info, param, ctx)

    @dataclass(frozen=True)
    class _Parsed(RuntimeParam):  # type: ignore[misc]
        """A parameter with `parser=`: the parser's value (its BadParameter as it is, a
        ValueError as a BadParameter, as Typer's adapter reports them)."""

        def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
            parser: Any = self.parameter_info.parser
            try:
                return parser(value)
            except ValueError as error:
                raise BadParameter(str(error), ctx=ctx, param=param) from error


def _light(descriptor: Any) -> Any:
    """The pydantic-free conversion for a parameter, or None to keep Typer's."""
    info, annotation = descriptor.parameter_info, descriptor.annotation
    if descriptor.is_file or descriptor.is_list or descriptor.is_tuple:
        return None
    if info.parser is not None:
        return _Parsed(parameter_info=info, annotation=annotation)
    if annotation is str:
        return _Text(parameter_info=info, annotation=annotation)
    if annotation is bool:
        return _Flag(parameter_info=info, annotation=annotation)
    if isinstance(annotation, type) and issubclass(annotation, Path) and info.path_type is None:
        return _File(parameter_info=info, annotation=annotation)
    return None


def _lighten_param(param: Any) -> None:
    descriptor = getattr(param, "type_descriptor", None)
    if descriptor is None or getattr(param, "_runtime_param", "") is not None:
        return
    light = _light(descriptor)
    if light is not None:
        param._runtime_param = light


def lighten(command: Any) -> None:
    """Give `command`'s (and its subcommands') text, path, flag and parsed parameters a
    conversion without pydantic, the --help option included (click makes it on first use)."""
    if RuntimeParam is None:  # pragma: no cover
        return
    for param in getattr(command, "params", ()):
        _lighten_param(param)
    made = getattr(command, "get_help_option", None)
    if made is not None and not getattr(made, "lightened", False):
        def get_help_option(ctx: Any) -> Any:
            option = made(ctx)
            if option is not None:
                _lighten_param(option)
            return option

        get_help_option.lightened = True  # type: ignore[attr-defined]
        command.get_help_option = get_help_option
    for child in getattr(command, "commands", {}).values():
        lighten(child)
