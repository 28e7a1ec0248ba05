"""Reading a game: the skill wheel, this round's festivals (as `end` will resolve them), and
the score, itemised. Each is a question asked of a `Game`, in its readings."""

from __future__ import annotations

from typing import TYPE_CHECKING

from models.errors import SpecError
from service.castell.festivals import next_to_be_held
from service.results import SCHEMA_VERSION
from service.results.game import (
    FestivalEntry,
    FestivalOutcome,
    FestivalOutput,
    FestivalSpace,
    PrizeItem,
    ScoreItems,
    ScoreOutput,
    SizeTokenWinner,
    TileItem,
    WheelOutput,
    WheelRound,
    WhereRound,
)

if TYPE_CHECKING:
    from models.game import Outcome, PlayerState
    from service.castell import Game


def wheel(game: Game, first: int | None, ahead: int, skill: str | None) -> WheelOutput:
    """Which tile each slot faces from round `first` (default: now) for `ahead` rounds, only
    the game's own rounds; where `skill` (a skill name or 'special') is offered."""
    from models.game import rotation_in_round, slot_tiles, where_offered

    board, state = game.board, game.state
    start = first or state.round
    if first is not None and not 1 <= first <= board.rounds:
        raise SpecError(f"{first} is not a round of this game (1 to {board.rounds})",
                        field="round")
    if ahead > board.rounds:
        raise SpecError(f"{ahead} is more rounds than the game has ({board.rounds})",
                        field="ahead")
    last = min(start + ahead - 1, board.rounds)
    rows = [(r, rotation_in_round(state.wheel_rotation, state.round, r))
            for r in range(start, last + 1)]
    if first is None and state.game_over:
        rows = []
    side = state.wheel_side
    return WheelOutput(
        schema_version=SCHEMA_VERSION, side=side,
        rounds=[WheelRound(round=r, slots=slot_tiles(board, turn)) for r, turn in rows],
        skill=skill,
        where=[WhereRound(round=r, regions=where_offered(board, turn, skill, side))
               for r, turn in rows] if skill else None,
        game_over=state.game_over)


def _outcome(outcome: Outcome) -> FestivalOutcome:
    space = outcome.space
    return FestivalOutcome(
        round=space.round, location=space.location, region=space.region, type=space.type,
        size_tokens=list(space.size_tokens),
        entries=[FestivalEntry(player=e.player, eligible=e.eligible, reason=e.reason,
                               tower=str(e.tower) if e.tower else None, score=e.score,
                               rank=e.rank, prize=e.prize) for e in outcome.entries],
        size_token_winners=[SizeTokenWinner(size=s, player=p) for s, p in outcome.size_tokens])


def festival(game: Game, time_limit: float) -> FestivalOutput:
    """This round's festivals as `end` will resolve them: the towers players named
    (`festival-tower`), else each player's best one; none this round: the next festival."""
    outcomes = game.preview_festivals(time_limit) if not game.state.game_over else []
    upcoming = next_to_be_held(game.state) if not outcomes else None
    return FestivalOutput(
        schema_version=SCHEMA_VERSION, round=game.state.round,
        festivals=[_outcome(o) for o in outcomes],
        next=None if upcoming is None else FestivalSpace(
            round=upcoming.round, location=upcoming.location, region=upcoming.region,
            size_tokens=list(upcoming.size_tokens)))


def _items(game: Game, player: PlayerState) -> ScoreItems:
    board, scoring = game.board, game.board.scoring
    prizes = [PrizeItem(round=space.round, location=space.location, prize=c.prize,
                        points=scoring.prizes.get(c.prize, 0))
              for space in sorted(game.state.festivals, key=lambda f: f.round)
              if space.result is not None
              for c in space.result.competitors if c.player == player.name and c.prize]
    return ScoreItems(
        player=player.name, best_tower=player.best_tower_score, prizes=prizes,
        earned_regions=list(player.earned_regions), size_tokens=list(player.size_tokens),
        tiles=[TileItem(id=t, points=board.tile(t).points) for t in player.claimed_tiles],
        collected_tokens=player.collected_tokens,
        collected_token_points=scoring.special_token * player.collected_tokens)


def score(game: Game) -> ScoreOutput:
    """Each player's five categories, itemised, and the winner (the leader so far while the
    game goes on)."""
    from models.game import Standing, score_game

    state = game.state
    cards, winners = score_game(state, game.board)
    return ScoreOutput(
        schema_version=SCHEMA_VERSION,
        players=[Standing.model_validate(c.as_dict()) for c in cards], winners=winners,
        game_over=state.game_over, round=None if state.game_over else state.round,
        items=[_items(game, p) for p in state.players])
