"""`castell combo arrange | advise | tournament`: the Castle Combo solvers, on the `combo` app (the
use cases are `service.combo.arrange`, `service.combo.advice`, `service.combo.tournament`, which
load the solvers only when asked; this module reads the options and shows the answers)."""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING, Annotated

import typer
from rich.markup import escape
from rich.text import Text

from cli import options
from cli.batches import Chunk, Dask, batch_progress, batch_stops, found_line
from cli.combo.app import CardsFile, StateArg, app
from cli.combo.render import grid_picture, print_advice, print_summary, sheet_table
from cli.edge import (
    ExitCode,
    at_edge,
    emit_output,
    err,
    fail,
    fail_interrupted,
    graceful,
    interrupted,
    out,
    stop_code,
    stop_word,
)
from models.combo import MAX_GOLD, MAX_KEYS
from models.errors import SpecError
from models.files import not_an_input
from service.combo.advice import MAX_SAMPLES
from service.combo.arrange import MAX_DETERMINISTIC_TIME
from service.combo.tournament import ADVISOR_SAMPLES

if TYPE_CHECKING:
    from service.combo.arrange import Arrangement
    from service.combo.tournament import Tournament

__all__ = ["app"]


def _report(answer: Arrangement, as_json: bool) -> None:
    output = answer.output
    if answer.grid is None:
        fail("the time limit came before any arrangement was found; raise --time-limit",
             ExitCode.TIME_LIMIT)
    if as_json:
        emit_output(output)
        return
    proof = "proven optimal" if answer.optimal \
        else f"best found, not proven (bound {output.bound})"
    out().print(Text(f"{output.total} points, {proof} ({output.wall_time_s:.3f} s)",
                     style="bold"))
    out().print(grid_picture(answer.grid, answer.deck))
    assert answer.sheet is not None
    out().print(sheet_table(escape(str(answer.grid)), answer.sheet))


@app.command("arrange")
@at_edge
def arrange_cmd(
    cards: Annotated[str, typer.Argument(
        metavar="CARDS",
        help="The nine cards, comma-separated, face-down ones marked '~': 'C07,V12,~C20,...' "
             "(with --from: only the cards still to come).")],
    cards_file: CardsFile = None,
    keys: Annotated[int | None, typer.Option(
        "--keys", min=0, max=MAX_KEYS, help="Keys at the end (default 0; with --from, the "
                                            "player's).")] = None,
    gold: Annotated[int | None, typer.Option(
        "--gold", min=0, max=MAX_GOLD, help="Gold left over, put on purses exactly (default "
                                            "0; with --from, the player's).")] = None,
    fixed: Annotated[str | None, typer.Option(
        "--fixed", metavar="CARD@CELL,...",
        help="Cards already placed: C07@top-left,V12@centre (cells: top-left, top, top-right, "
             "left, centre, right, bottom-left, bottom, bottom-right).")] = None,
    from_state: Annotated[str | None, typer.Option(
        "--from", metavar="STATE",
        help="Complete a player's tableau in progress from a game state file.")] = None,
    player: Annotated[str | None, typer.Option(
        "--player", help="Whose tableau (with --from).")] = None,
    time_limit: Annotated[float, typer.Option(
        "--time-limit", min=0.01, max=MAX_DETERMINISTIC_TIME,
        help="CP-SAT deterministic time limit (about seconds); the same limit gives the same "
             "answer.")] = 10.0,
    as_json: options.Json = False,
) -> None:
    """The proven best 3x3 arrangement of nine cards, leftover gold on purses exactly.

    Exit 0 proven optimal, 1 no arrangement fits the fixed cards, 2 bad input, 3 the time
    limit came first (the best arrangement found is still shown).

    Examples:

      castell combo arrange C01,C05,C12,V03,V07,V18,V22,~C30,V31 --keys 2 --gold 6

      castell combo arrange C01,C05,C12,V03,V07,V18,V22,~C30,V31 --fixed C01@centre --json

      castell combo arrange V10,C14 --from game.json --player Ana
    """
    from service.combo import ComboGame
    from service.combo.arrange import arrange_cards

    if from_state is not None:
        if fixed or cards_file:
            raise SpecError("--from takes the cards and placed cards from the game; leave out "
                            "--fixed and --cards")
        game = ComboGame.load(from_state)
        with graceful():
            answer = game.arrange(player, cards, keys=keys, gold=gold, time_limit=time_limit)
    else:
        if player is not None:
            raise SpecError("--player goes with --from STATE")
        with graceful():
            answer = arrange_cards(cards, cards_file, keys=keys or 0, gold=gold or 0,
                                   fixed=fixed, time_limit=time_limit)
    _report(answer, as_json)
    if interrupted():  # Ctrl-C, not the time limit, ended the solve
        fail_interrupted("interrupted: the arrangement above is the best found so far")
    if not answer.optimal:
        raise typer.Exit(int(ExitCode.TIME_LIMIT))


# --- advise -------------------------------------------------------------------------------------

class LastTurnChoice(StrEnum):
    own_turn = "own_turn"
    game_end = "game_end"


class ValueChoice(StrEnum):
    """What a sampled completion is worth to the ranking."""

    score = "score"
    margin = "margin"


@app.command("advise")
@at_edge
def advise_cmd(
    state_file: StateArg,
    player: Annotated[str | None, typer.Option(
        "--player", help="The player to advise (must be the player to move; default: them).")]
        = None,
    samples: Annotated[int, typer.Option(
        "--samples", "-n", min=1, max=MAX_SAMPLES,
        help="Sampled completions for the best actions (fewer for the weaker ones).")] = 16,
    seed: Annotated[int, typer.Option("--seed", min=0, max=2**31 - 1,
                                      help="Same seed, same ranking.")] = 0,
    time_limit: Annotated[float, typer.Option(
        "--time-limit", "-t", min=0.01, max=3600.0,
        help="Seconds; if they run out first, the ranking so far is shown and the exit code "
             "is 3.")] = 120.0,
    top: Annotated[int, typer.Option("--top", min=1, max=500,
                                     help="How many actions to show.")] = 8,
    last_turn: Annotated[LastTurnChoice, typer.Option(
        "--last-turn",
        help="Reading last_turn_scope: on a last turn, score exactly at the end of the "
             "player's own turn (own_turn), or sample the rest of the game like any turn "
             "(game_end: later opponents may still hand out gold or keys).")]
        = LastTurnChoice.own_turn,
    value: Annotated[ValueChoice, typer.Option(
        "--value",
        help="Rank by the player's mean final score (score), or by its mean margin over the "
             "best opponent (margin: what wins a game; the advisor bot's choice).")]
        = ValueChoice.score,
    as_json: options.Json = False,
) -> None:
    """Rank every legal action of this turn by the final score it leads to.

    On the player's last turn the values are exact. Earlier, each is the mean final score over
    sampled completions: the hidden decks shuffled from the cards the player cannot see, every
    seat then played by the greedy bot; the ± is the standard error. The real deck order is
    never read.

    Examples:

      castell combo advise game.json

      castell combo advise game.json --player Ana --samples 32 --seed 7 --json

      castell combo advise game.json --value margin
    """
    from service.combo import ComboGame

    advice = ComboGame.load(state_file).advise(
        player, samples=samples, seed=seed, time_limit=time_limit,
        last_turn="own_turn" if last_turn is LastTurnChoice.own_turn else "game_end",
        value="score" if value is ValueChoice.score else "margin")
    if as_json:
        emit_output(advice)
    else:
        print_advice(advice, samples, top)
    if not advice.complete:
        err().print(Text("time limit: not every planned sample was played; the ranking so far",
                         style="yellow"))
        raise typer.Exit(int(ExitCode.TIME_LIMIT))


# --- tournament ---------------------------------------------------------------------------------

@app.command("tournament")
@at_edge
def tournament_cmd(
    bots: Annotated[str, typer.Option(
        "--bots", help="Comma-separated bots, one per seat: random, greedy, advisor.")]
        = "advisor,greedy",
    games: Annotated[int, typer.Option("--games", "-g", min=1, max=1_000_000,
                                       help="How many games.")] = 100,
    seed: Annotated[int, typer.Option("--seed", min=0, max=2**31 - 1,
                                      help="Same seed, same games and results.")] = 1,
    workers: Annotated[int, typer.Option(
        "--workers", "-w", min=1, max=64,
        help="Processes playing games (the results do not depend on it).")] = 1,
    advisor_samples: Annotated[int, typer.Option(
        "--advisor-samples", min=1, max=1000,
        help="The advisor bot's sampled completions per candidate action.")] = ADVISOR_SAMPLES,
    cards_file: CardsFile = None,
    csv_file: Annotated[str | None, typer.Option(
        "--csv", metavar="FILE", help="Write the per-card statistics as CSV.")] = None,
    top: Annotated[int, typer.Option("--top", min=1, max=100,
                                     help="Cards shown at each end of the table.")] = 8,
    out_dir: Annotated[str | None, typer.Option(
        "--out", "-o", metavar="DIR", parser=options.folder,
        help="Play in resumable chunks into DIR (manifest, finished chunks, games.jsonl, "
             "summary.json, cards.csv); the same command continues a stopped run.")] = None,
    dask: Dask = None,
    chunk: Chunk = None,
    as_json: options.Json = False,
) -> None:
    """Bots play seeded games: win rates with 95% intervals, scores, per-card statistics.

    Seats rotate (each bot starts as often); ties share the win. Deterministic for a seed, the
    same with any number of workers or machines. Ctrl-C stops it (exit 130; without --out no
    file is written, with --out the finished chunks are kept for the same command to
    continue).

    Examples:

      castell combo tournament --bots greedy,random --games 200 --seed 1

      castell combo tournament --bots advisor,greedy --games 50 --workers 2 --csv cards.csv

      castell combo tournament --games 100000 --bots greedy,random --out runs/t1 --dask local:2
    """
    from service.batches import RunCancelled
    from service.combo.tournament import tournament, write_card_csv

    not_an_input(csv_file, cards_file, field="csv")
    console = err()
    if out_dir is not None or dask is not None:
        result = _tournament_in_chunks(bots, games, seed, out_dir, workers, dask,
                                       advisor_samples, cards_file, chunk, as_json)
    else:
        try:
            with batch_progress("games", console) as progress:
                task = progress.add_task("games", total=games)
                result = tournament(bots, games, seed, workers=workers,
                                    advisor_samples=advisor_samples, cards_file=cards_file,
                                    on_game=lambda: progress.advance(task))
        except (KeyboardInterrupt, RunCancelled):  # SIGTERM's own way out is the edge's
            code = stop_code() or ExitCode.INTERRUPTED
            fail_interrupted(f"{stop_word(code)}; nothing written", code)
    if csv_file is not None:
        write_card_csv(csv_file, result)
    if as_json:
        emit_output(result.output)
    else:
        print_summary(result.output, top)


def _tournament_in_chunks(bots: str, games: int, seed: int, out_dir: str | None, workers: int,
                          dask: str | None, advisor_samples: int, cards_file: str | None,
                          chunk: int | None, as_json: bool) -> Tournament:
    """The tournament on the batch runner (`--out`, `--dask`), with its progress bar."""
    from service.combo.tournament import tournament_batch

    console = err()
    with batch_stops(out_dir), batch_progress("games", console) as progress:
        task = progress.add_task("games", total=games)
        return tournament_batch(
            bots, games, seed, out_dir, workers=workers, dask=dask,
            advisor_samples=advisor_samples, cards_file=cards_file, chunk_size=chunk,
            on_progress=lambda done: progress.update(task, completed=done),
            on_found=found_line(console, as_json, progress, task))
