"""Command -> the result type of one line of its `--json` output (`castell schema`)."""

from __future__ import annotations

from typing import Any

from pydantic import TypeAdapter

from models.puzzle import Puzzle
from service.results import castell_view, combo, game, plan, puzzles, tournament, towers
from service.results.base import BatchError, ErrorOutput

# Command -> what one line of its `--json` output is. A union: the line is one of them (a
# batch error line, or a puzzle of the stream).
SCHEMAS: dict[str, Any] = {
    "verify": towers.VerifyOutput | BatchError,
    "best": towers.BestOutput | BatchError,
    "check": towers.CheckOutput | BatchError,
    "board": game.BoardOutput,
    "route": game.RouteOutput,
    "wheel": game.WheelOutput,
    "festival": game.FestivalOutput,
    "score": game.ScoreOutput,
    "plan": plan.PlanOutput,
    "play": game.PlayOutput | game.RefusedOutput,
    "rules": game.RulesOutput,
    "state new": game.StateNewOutput,
    "state show": game.StateShowOutput | castell_view.CastellView,
    "puzzle generate": puzzles.PuzzleGenerateOutput | Puzzle,
    "puzzle check": puzzles.PuzzleCheckOutput,
    "puzzle solve": puzzles.PuzzleSolveOutput,
    "puzzle sheet": puzzles.PuzzleSheetOutput,
    "puzzle book": puzzles.PuzzleBookOutput,
    "combo cards": combo.ComboCardsOutput | combo.ComboStatsOutput,
    "combo score": combo.ComboScoreOutput | BatchError,
    "combo show": combo.ComboStateOutput,
    "combo play": combo.ComboStateOutput | game.RefusedOutput,
    "combo arrange": combo.ComboArrangeOutput,
    "combo advise": combo.ComboAdviceOutput,
    "combo tournament": combo.ComboTournamentOutput,
    "tournament": tournament.CastellTournamentOutput,
    # not a command: what every command prints with --json when it ends on an error instead
    "error": ErrorOutput,
}


def adapter(command: str) -> TypeAdapter[Any]:
    return TypeAdapter(SCHEMAS[command])
