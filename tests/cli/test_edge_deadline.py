"""A command's --time-limit bounds the whole command, counted from the moment the root group
starts it (its lazy imports and set-up included), and a batch's limit stays each line's own."""

from __future__ import annotations

import time
from pathlib import Path

import typer
from typer.testing import CliRunner

from cli.edge import at_edge
from cli.group import CastellGroup
from service.cancel import current_token

SET_UP = 0.3  # seconds a command spends before its solve (as an import of ortools would)


def _app(seen: dict[str, float | None]) -> typer.Typer:
    app = typer.Typer(cls=CastellGroup)

    @app.command()
    @at_edge
    def solve(time_limit: float = 5.0) -> None:
        time.sleep(SET_UP)
        token = current_token()
        seen["left"] = None if token is None else token.time_left()
        seen["deadline"] = None if token is None else token.deadline

    @app.command()
    @at_edge
    def batch(time_limit: float = 5.0, batch: Path | None = None) -> None:
        token = current_token()
        seen["left"] = None if token is None else token.time_left()

    return app


def test_the_set_up_is_spent_out_of_the_limit() -> None:
    seen: dict[str, float | None] = {}
    assert CliRunner().invoke(_app(seen), ["solve", "--time-limit", "5"]).exit_code == 0
    left = seen["left"]
    assert left is not None and left <= 5.0 - SET_UP


def test_each_invocation_counts_from_its_own_start() -> None:
    # instants on the deadlines' clock, never a duration: no verdict on the machine's speed
    seen: dict[str, float | None] = {}
    app = _app(seen)
    CliRunner().invoke(app, ["solve", "--time-limit", "5"])
    first = seen["deadline"]
    between = time.monotonic()  # after the first invocation, before the second
    CliRunner().invoke(app, ["solve", "--time-limit", "5"])
    second = seen["deadline"]
    assert first is not None and second is not None
    assert first <= between - SET_UP + 5.0 < between + 5.0 <= second  # each its own start


def test_a_batch_limit_is_each_lines(tmp_path: Path) -> None:
    seen: dict[str, float | None] = {}
    lines = tmp_path / "lines.jsonl"
    lines.write_text("")
    result = CliRunner().invoke(_app(seen), ["batch", "--batch", str(lines)])
    assert result.exit_code == 0, result.output
    assert seen["left"] is None  # no deadline over the whole batch
