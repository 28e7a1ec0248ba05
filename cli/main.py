"""The `castell` command."""

from __future__ import annotations

import typer

from cli import options, puzzle, state
from cli.board import board, route
from cli.edge import CastellGroup
from cli.game import festival, score, wheel
from cli.plan import plan
from cli.solve import best, check
from cli.verify import verify

app = typer.Typer(
    name="castell",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode="rich",
    cls=CastellGroup,
    context_settings={"help_option_names": ["-h", "--help"]},
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


@app.callback()
def root(version: options.Version = False) -> None:
    """Exact tower, festival and tile answers for the board game Castell.

    Exit codes: 0 yes / valid / found, 1 proven no, 2 bad input, 3 the time limit came
    before a proof, 4 internal error (a bug), 130 interrupted (Ctrl-C).
    """


def main() -> None:
    app()
