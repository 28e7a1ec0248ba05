"""`castell tournament`: Castell bots play whole seeded games (`service.castell.tournament`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table

from cli import options
from cli.batches import Chunk, Dask, batch_progress, batch_stops, found_line
from cli.castell.state import WheelSide
from cli.edge import at_edge, emit_output, err, out
from models.files import not_an_input

if TYPE_CHECKING:
    from service.results.tournament import CastellTournamentOutput

# --slack's default and bound: the service's `SLACK`, `MAX_SLACK` (not imported at start-up;
# a test keeps them equal)
SLACK, MAX_SLACK = 10, 100

CATEGORY_HEADS = {"best_tower": "tower", "region_variety": "variety", "prizes": "prizes",
                  "size_tokens": "sizes", "local_performances": "tiles"}


@at_edge
def tournament(
    bots: Annotated[str, typer.Option(
        "--bots", help="Comma-separated bots, one per seat (2-4): random, greedy, advisor "
        "(the default advice of `castell plan`), score (`castell plan --goal score`), "
        "cautious (with --cautious), festival (--goal festival); rival styles: tiles, "
        "festivals, traveller, sizes, recruiter, noisy (greedy with random slips).")]
        = "advisor,greedy,greedy",
    games: Annotated[int, typer.Option(
        "--games", "-g", parser=options.whole(1, 1_000_000), metavar="N",
        help="How many games (seats rotate: each deal is played from every seat).")] = 30,
    seed: Annotated[int, typer.Option(
        "--seed", parser=options.whole(0, options.MAX_SEED), metavar="N",
        help="Same seed, same games and results.")] = 1,
    out_dir: Annotated[str | None, typer.Option(
        "--out", "-o", metavar="DIR", parser=options.folder,
        help="Play in resumable chunks into DIR (manifest, finished chunks, games.jsonl, "
             "summary.json, scores.svg); the same command continues a stopped run.")] = None,
    workers: Annotated[int, typer.Option(
        "--workers", "-w", parser=options.whole(1, 64), metavar="N",
        help="Processes playing games (the results do not depend on it).")] = 1,
    dask: Dask = None,
    chunk: Chunk = None,
    rules: Annotated[str | None, typer.Option(
        "--rules", "-r", help="The games' readings: a variant and switches, e.g. "
        "standard,special_move=any (see `castell rules`); default: the board's.")] = None,
    wheel_side: WheelSide = None,
    board_file: options.BoardFile = None,
    svg: Annotated[str | None, typer.Option(
        "--svg", metavar="FILE", help="Also draw every game's final score per bot.")] = None,
    slack: Annotated[int, typer.Option(
        "--slack", parser=options.whole(1, MAX_SLACK), metavar="N",
        help="The wall clock of the bots that plan, N times their time limit: their work "
             "alone decides, so the games repeat on a busy machine (1: as at the table, "
             "where a busy machine may cut a plan short).")] = SLACK,
    as_json: options.Json = False,
) -> None:
    """Castell bots play whole seeded games: win rates, scores, margins, the first player's
    advantage.

    Every step goes through the referee; a refused step is counted (it would be a bot's bug).
    Seats rotate over each deal; ties share the win. Deterministic for a seed, the same with
    any number of workers or machines (bots that plan: with their wall clock at --slack
    times their limit, so that no clock decides). Ctrl-C stops it (exit 130; with --out the
    finished chunks are kept for the same command to continue).

    Examples:

      castell tournament --bots greedy,random,random --games 30 --seed 1

      castell tournament --bots advisor,greedy,greedy --games 60 --out runs/a --workers 2

      castell tournament --bots greedy,greedy,greedy --games 300 --out runs/g --dask local:2
    """
    from service.castell.tournament import castell_tournament, write_scores_svg

    not_an_input(svg, board_file, field="svg")
    console = err()
    with batch_stops(out_dir), batch_progress("games", console) as progress:
        task = progress.add_task("games", total=games)
        result = castell_tournament(
            bots, games, seed, out_dir, workers=workers, dask=dask, board_file=board_file,
            rules=rules, wheel_side=wheel_side, chunk_size=chunk, slack=slack,
            on_progress=lambda done: progress.update(task, completed=done),
            on_found=found_line(console, as_json, progress, task))
    if svg is not None:
        write_scores_svg(svg, result)
    if as_json:
        emit_output(result.output)
    else:
        print_summary(result.output)


def print_summary(summary: CastellTournamentOutput) -> None:
    """Each bot's results, its mean points per category, then each place in the turn order's
    (three narrow tables: a phone-width terminal reads them whole)."""
    results = Table(title=f"{summary.games} games")
    for column in ("bot", "games", "win rate", "95% interval", "mean score", "margin",
                   "refused"):
        results.add_column(column, justify="left" if column == "bot" else "right")
    for bot, row in summary.bots.items():
        low, high = row.ci95
        results.add_row(bot, str(row.games), f"{row.win_rate:.1%}", f"{low:.1%}-{high:.1%}",
                        f"{row.mean_score:.1f}", f"{row.mean_margin:+.1f}", str(row.refused))
    out().print(results)
    points = Table(title="mean points per category")
    for column in ("bot", *CATEGORY_HEADS.values()):
        points.add_column(column, justify="left" if column == "bot" else "right")
    for bot, row in summary.bots.items():
        categories = row.categories.model_dump()
        points.add_row(bot, *(f"{categories[k]:.1f}" for k in CATEGORY_HEADS))
    out().print(points)
    seats = Table(title="by place in the turn order (any bot)")
    for column in ("seat", "games", "win rate", "95% interval", "mean score"):
        seats.add_column(column, justify="left" if column == "seat" else "right")
    for seat in summary.seats:
        low, high = seat.ci95
        seats.add_row(str(seat.seat), str(seat.games), f"{seat.win_rate:.1%}",
                      f"{low:.1%}-{high:.1%}", f"{seat.mean_score:.1f}")
    out().print(seats)
    winners = Table(title="what the winners score (per game's winner, against the others)")
    for column in ("category", "winners", "others", "winner has the most"):
        winners.add_column(column, justify="left" if column == "category" else "right")
    for name, won in summary.categories.items():
        winners.add_row(CATEGORY_HEADS.get(name, name), f"{won.winners_mean:.1f}",
                        f"{won.others_mean:.1f}", f"{won.winner_has_most:.0%}")
    out().print(winners)
