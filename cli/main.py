"""The `castell` command.

Each subcommand's module is imported only when that subcommand runs, completes or shows its
own help: `castell verify` never loads the CP-SAT solver (ortools, with numpy and pandas) or
the puzzle and planner modules, and `castell --help` loads none of them. The summaries below
are what `castell --help` lists; a test keeps them equal to each command's own first
paragraph.
"""

from __future__ import annotations

from functools import cached_property
from importlib import import_module
from typing import Any

import typer
from typer.core import TyperCommand

from cli import options
from cli.group import CastellGroup, reflow

# name: (module under `cli`, attribute, summary), in the order `castell --help` lists them
COMMANDS: dict[str, tuple[str, str, str]] = {
    "verify": ("castell.verify", "verify", "Check a tower against the rules and your skill ranks "
               "(with --state: a player's team, skill ranks and readings in a game)."),
    "best": ("castell.solve", "best", "Your best tower: the tallest (then widest), or with "
             "--festival the best festival score."),
    "check": ("castell.solve", "check", "Can you claim a local performance tile? Shows a "
              "tower that meets it, or why not."),
    "board": ("castell.board", "board", "The board: regions, borders, dotted links and festival "
              "towns."),
    "route": ("castell.board", "route", "Shortest routes between two regions, and the turns they "
              "take."),
    "wheel": ("castell.game", "wheel", "Which skill each region offers this round and the next "
              "ones."),
    "festival": ("castell.game", "festival", "Preview the festivals held at the end of the state's "
                 "round, as `end` will hold them."),
    "score": ("castell.game", "score", "End-of-game score breakdown per player in the five "
              "categories, and the winner."),
    "plan": ("castell.plan", "plan", "Plan a player's next turns: moves, recruits, training, "
             "special actions."),
    "play": ("castell.play", "play", "Record one step of a real game for the player whose turn it "
             "is, and save the state."),
    "rules": ("castell.rules", "rules", "List every rules switch: its values, its default, and "
              "what it means."),
    "state": ("castell.state", "app", "Create and show game state files."),
    "tournament": ("castell.tournament", "tournament", "Castell bots play whole seeded games: win "
                   "rates, scores, margins, the first player's advantage."),
    # cli.combo.solve adds the solver commands to cli.combo.app's app: loading it loads both
    "combo": ("combo.solve", "app", "Castle Combo: cards, exact end scores, a game to play "
              "or record, and solvers (best arrangement, turn advice, bot tournaments)."),
    "puzzle": ("castell.puzzle", "app", "Generate, check, solve and print puzzles with one "
               "solution."),
    "serve": ("serve", "serve", "Open the table companion in the browser: both games, on "
              "every player's screen."),
    "schema": ("schema", "schema", "Print the JSON Schema of a command's --json output."),
}


class LazyCommand(TyperCommand):
    """A subcommand known by name and summary; its module is imported when it is used."""

    def __init__(self, name: str, module: str, attribute: str, summary: str) -> None:
        super().__init__(name, help=summary, short_help=summary)
        self.module, self.attribute = module, attribute

    @cached_property
    def real(self) -> Any:
        target = getattr(import_module(f"cli.{self.module}"), self.attribute)
        if isinstance(target, typer.Typer):
            command = typer.main.get_command(target)
        else:
            single = typer.Typer(pretty_exceptions_enable=False, rich_markup_mode="rich",
                                 add_completion=False)
            single.command(self.name)(target)
            command = typer.main.get_command(single)
        command.name = self.name
        reflow(command)
        return command

    def make_context(self, info_name: str | None, args: list[str],
                     parent: Any | None = None, **extra: Any) -> Any:
        return self.real.make_context(info_name, args, parent=parent, **extra)

    def invoke(self, ctx: Any) -> Any:
        return self.real.invoke(ctx)

    def get_help(self, ctx: Any) -> str:
        return str(self.real.get_help(ctx))


class LazyGroup(CastellGroup):
    """The root group: every subcommand is a LazyCommand."""

    def list_commands(self, ctx: Any) -> list[str]:
        return [*super().list_commands(ctx), *COMMANDS]

    def get_command(self, ctx: Any, cmd_name: str) -> Any | None:
        if cmd_name in COMMANDS:
            if cmd_name not in self.commands:
                module, attribute, summary = COMMANDS[cmd_name]
                self.commands[cmd_name] = LazyCommand(cmd_name, module, attribute, summary)
            return self.commands[cmd_name]
        return super().get_command(ctx, cmd_name)


app = typer.Typer(
    name="castell",
    cls=LazyGroup,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode="rich",
    context_settings={"help_option_names": ["-h", "--help"]},
)


@app.callback()
def root(version: options.Version = False) -> None:
    """Exact tower, festival and tile answers for the board game Castell.

    Exit codes: 0 yes / valid / found, 1 proven no, 2 bad input, 3 the time limit came
    before a proof, 4 internal error (a bug), 130 interrupted (Ctrl-C).
    """


def main() -> None:
    app()
