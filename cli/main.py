"""The `castell` command."""

from __future__ import annotations

import typer

from cli import combo, combo_solve, puzzle, state  # noqa: F401  (combo_solve adds its commands to combo.app)
from cli.board import board, route
from cli.game import festival, score, wheel
from cli.plan import plan
from cli.solve import best, check
from cli.verify import verify

app = typer.Typer(
    name="castell",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode="rich",
)
app.command("verify")(verify)
app.command("best")(best)
app.command("check")(check)
app.command("board")(board)
app.command("route")(route)
app.command("wheel")(wheel)
app.command("festival")(festival)
app.command("score")(score)
app.command("plan")(plan)
app.add_typer(state.app, name="state")
app.add_typer(puzzle.app, name="puzzle")
app.add_typer(combo.app, name="combo")


@app.callback()
def root() -> None:
    """Exact tower, festival and tile answers for the board game Castell.

    Exit codes: 0 yes / valid / found, 1 proven no, 2 bad input, 3 the time limit came
    before a proof, 4 internal error (a bug).
    """


def main() -> None:
    app()
