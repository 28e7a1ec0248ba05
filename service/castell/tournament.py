"""`castell tournament`: Castell bots play seeded whole games, every step through the referee;
per bot the win rate with its 95% interval, scores, margins, points per category and refused
turns, per place in the turn order the same (the first player's advantage), and a picture of
the score distributions.

The games run in chunks on the batch runner as both games' tournaments do
(`service.batches.tournament`: this process, local processes or Dask), resumably with an
output folder, which keeps every finished chunk, `games.jsonl` (one record a game),
`summary.json` and `scores.svg`. Game i depends on (seed, i) only (`planner.tournaments`), so
any engine gives the same bytes. The bots that plan allow their plans `SLACK` times the
time limit's wall clock: their deterministic work alone decides, so the games repeat on a
loaded machine too (at a slack of 1, as at the table, the clock may cut a plan).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from models.errors import SpecError
from models.files import write_atomic
from models.game import Board, load_board
from service.batches.tournament import (
    Found,
    TournamentJob,
    play_tournament,
    tournament_chunk,
    tournament_folder,
    write_results,
)
from service.results.base import output_of
from service.results.tournament import CastellTournamentOutput

if TYPE_CHECKING:
    from planner.castell import GameRecord, Setup

# bots that plan (seconds a turn: one game a chunk) and the others (a game in a few seconds:
# at most ten a chunk, fewer when the workers would otherwise wait; `tournament_chunk`)
PLANNING_BOTS = frozenset({"advisor", "cautious", "festival", "score"})
PLANNING_CHUNK, QUICK_CHUNK = 1, 10
# the wall clock the bots that plan allow themselves, as a multiple of their time limit
# (`PlanBudget.wall_slack`), by default and at most
SLACK, MAX_SLACK = 10, 100


@dataclass(frozen=True)
class CastellTournament:
    output: CastellTournamentOutput
    records: tuple[GameRecord, ...]

    def scores_svg(self) -> str:
        """Every game's final score per bot, drawn (`service.pictures.tournament_svg`)."""
        from service.pictures.tournament_svg import tournament_scores

        rates = {bot: row.win_rate for bot, row in self.output.bots.items()}
        return tournament_scores(self.records, rates, self.output.games)


def bot_names(bots: str) -> tuple[str, ...]:
    """`advisor,greedy,greedy` as one name a seat, checked (a `SpecError` when wrong)."""
    from planner.castell import check_bots

    names = tuple(b.strip() for b in bots.split(","))
    check_bots(names)
    return names


def _setup(board_file: str | Path | None, rules_text: str | None,
           wheel_side: Literal["standard", "advanced"] | None, slack: int) -> Setup:
    from models.tower import rules_named
    from planner.castell import Setup

    board: Board = load_board(board_file)
    rules = rules_named(rules_text) if rules_text is not None else None
    return Setup(board, rules, wheel_side, wall_slack=float(slack))


def castell_tournament(bots: str, games: int, seed: int, out: str | Path | None = None, *,
                       workers: int = 1, dask: str | None = None,
                       board_file: str | Path | None = None, rules: str | None = None,
                       wheel_side: Literal["standard", "advanced"] | None = None,
                       on_progress: Callable[[int], None] | None = None,
                       chunk_size: int | None = None, slack: int = SLACK,
                       on_found: Callable[[Found], None] | None = None) -> CastellTournament:
    """The tournament (`bots` comma-separated, one per seat, 2-4), in chunks on this process,
    `workers` processes or Dask; with `out`, in that folder, continuing any run of the same
    arguments there (`on_found`: told how many games it held). `rules`: the games' readings
    (None: the board's defaults). `chunk_size`: games a chunk (None: the folder's run's, or
    chosen from the games and the workers). `slack`: the wall clock of the bots that plan, a
    multiple of their time limit (`SLACK`)."""
    from planner.castell import CASTELL

    names = bot_names(bots)
    if not 1 <= games <= 1_000_000:
        raise SpecError("the number of games is 1 to 1000000")
    if not 1 <= slack <= MAX_SLACK:
        raise SpecError(f"the slack is 1 to {MAX_SLACK} (times the plans' time limit)")
    setup = _setup(board_file, rules, wheel_side, slack)
    most = PLANNING_CHUNK if PLANNING_BOTS & set(names) else QUICK_CHUNK
    chunk_size = tournament_chunk(games, out, workers, dask, most, chunk_size,
                                  rotation=len(names))
    job = TournamentJob(CASTELL, setup, names, seed, games, chunk_size)
    arguments = {"bots": ",".join(names), "games": games, "seed": seed,
                 "board": None if board_file is None else str(board_file),
                 "rules": rules, "wheel side": wheel_side, "chunk": chunk_size}
    if slack != 1 and PLANNING_BOTS & set(names):  # it changes only the games of bots that
        # plan; not recorded at 1, as folders from before it were played
        arguments["slack"] = slack
    with tournament_folder(out, "tournament", arguments) as folder:
        played = play_tournament(job, folder, workers, dask, on_progress, on_found)
        result = CastellTournament(output_of(CastellTournamentOutput, played.summary),
                                   played.records)
        write_results(played, result.output.to_json(), {"scores.svg": result.scores_svg()})
    return result


def write_scores_svg(path: str | Path, result: CastellTournament) -> None:
    """The score picture, written atomically."""
    write_atomic(path, result.scores_svg())
