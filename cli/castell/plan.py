"""`castell plan`: the best actions for a player's next turns."""

from __future__ import annotations

from contextlib import nullcontext
from typing import Annotated

import typer

from cli import options
from cli.castell import complete
from cli.castell.plan_render import render
from cli.edge import ExitCode, at_edge, emit_output, err, fail_interrupted, graceful
from models.errors import SpecError
from service.castell import RULES_WITH_STATE, Game, plans
from service.results.plan import PlanOutput


@at_edge
def plan(
    state_file: options.StateFile,
    tile: Annotated[str | None, typer.Argument(
        metavar="TILE_ID", help="The tile to claim, with --goal tile.", show_default=False,
        autocompletion=complete.tiles)
    ] = None,
    player: Annotated[str | None, typer.Option(
        "--player", help="Whose turns to plan (default: whose turn it is).")] = None,
    turns: Annotated[int | None, typer.Option(
        "--turns", "-n", parser=options.whole(1, 10), metavar="N", show_default=False,
        help="How many of the player's turns to plan (default: through the next festival "
        "they could compete in, or the next one after it when the plan shows it out of "
        "reach; at most 10).")] = None,
    goal: Annotated[str, typer.Option(
        "--goal", "-g", help=plans.goal_help(),
        autocompletion=complete.goals)] = plans.DEFAULT_GOAL,
    cautious: Annotated[bool, typer.Option(
        "--cautious", help="Recruit only where no opponent could recruit first (their reach "
        "in their turns before yours, in turn order), and count every opponent who could "
        "stand in a festival's region when it is held as competing there. Without it, each "
        "recruit is still marked at risk or not.")] = False,
    fix: Annotated[str | None, typer.Option(
        "--fix", metavar="ACTIONS", help="What-if: fix the first actions of the turn and "
        "re-plan, e.g. 'move girona; recruit 7 5' (the notation of `castell play`: also "
        "train SKILL, special move REGION, special recruit SIZE, special claim TILE TOWER); "
        "shows the difference in value against the plan without them (each of the two "
        "plans gets --time-limit).")
    ] = None,
    what_if_rules: Annotated[str | None, typer.Option(
        "--what-if-rules", metavar="RULES", autocompletion=options.complete_rules,
        help="What-if: plan under these readings instead of the game's own (stored in the "
        "state, see `castell state show`; the output says so); see `castell rules`.")
    ] = None,
    rules: Annotated[str | None, typer.Option(
        "--rules", "-r", hidden=True, help="Refused: the game's readings are in the state.")
    ] = None,
    time_limit: options.TimeLimit = plans.DEFAULT_PLAN_TIME_LIMIT,
    workers: options.Workers = 1,
    board_file: options.BoardFile = None,
    as_json: options.Json = False,
) -> None:
    """Plan a player's next turns: moves, recruits, training, special actions.

    The plan is found by CP-SAT, under the game's own readings, and replayed through the
    referee before it is printed. The default goal (win) models each rival as the project's
    greedy bot answering your turn: it plays two first turns (the cautious score plan's and
    the greedy bot's), lets every rival answer each one, plans your turns from there, and
    keeps the first turn that leaves you further ahead of the best rival. Within the planned
    turns themselves, and for the other goals, the rivals take no actions (their pawns stay
    put); the forecast of each festival the plan competes in names those who could get
    there in time and ranks its prize against them. The assumptions are printed with the
    plan. Proven means: no other plan of these turns does better for the goal under these
    assumptions (for win: none that starts with the chosen first turn).

    Exit code 0: a proven plan; 1: proven that the goal cannot be met (a plan toward the
    next festival is still printed), or a --fix action the rules refuse; 3: the time limit
    came before the proof (the best plan found is still printed). The same command gives the
    same plan: the search runs on a fixed amount of work (--time-limit is also a wall-clock
    safety net; when it cuts the search, the output says so and another run may differ).

    Examples:

      castell plan game.json --player Anna

      castell plan game.json --player Anna --turns 5 --goal score --json

      castell plan game.json --player Anna --goal tile LP02 --cautious

      castell plan game.json --player Anna --fix "move barcelona"
    """
    if rules is not None:
        raise SpecError(RULES_WITH_STATE, field="rules")
    game = Game.load(state_file, board_file)
    game.require_refilled()
    wanted = plans.goal_of(goal, tile)
    fixed = plans.fixed_actions(fix, game.board) if fix is not None else []
    name = game.player(player).name
    console = err()
    waiting = console.status(f"planning the turns of {name}...") \
        if console.is_terminal and not as_json else nullcontext()
    with waiting, graceful():
        result = plans.plan(game, name, turns=turns, goal=wanted, cautious=cautious,
                            fixed=fixed, time_limit=time_limit, workers=workers,
                            what_if_rules=what_if_rules, budget=plans.COMMAND_BUDGET)
    if as_json:
        emit_output(result)
    else:
        render(result, game.board, game.what_if(what_if_rules))
    if result.interrupted:  # Ctrl-C stopped the solve: the best plan so far, marked
        fail_interrupted("interrupted: the plan above is the best found so far")
    raise typer.Exit(int(exit_code(result)))


def exit_code(result: PlanOutput) -> ExitCode:
    if result.status == "infeasible":
        return ExitCode.NO
    if result.status in ("unknown", "feasible"):
        return ExitCode.TIME_LIMIT
    if plans.out_of_reach(result):
        return ExitCode.NO  # proven: no festival tower within reach
    return ExitCode.YES
