"""What a turn plan can touch: the player's turns ahead, their rounds and wheel, the festivals
held in them, the castellers and tiles in reach, and the assumptions made about opponents.

Solver-free: this turns a game state into the plain data the planning model is built from.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from models.errors import SpecError
from models.game import (
    RECRUIT_LIMIT,
    SPECIAL,
    Board,
    FestivalSpace,
    GameState,
    PerformanceTile,
    PlayerState,
    move_targets,
    offers,
    rotation_in_round,
    where_offered,
)
from models.tower import Pool, Rules, Skill, SkillRanks
from models.tower.skills import MAX_RANK

# a goal's name: one the registry holds (`planner.turns.goals.GOALS`: win, score, festival,
# tile), each with its strategy
GoalKind = str


@dataclass(frozen=True)
class Goal:
    """A plan's goal: its kind (a registered goal's name) and the tile it names, for a goal
    that takes one (`GoalStrategy.takes_tile`). (What the advice asks by default is
    `ADVICE_GOAL`, not this class's default.)"""
    kind: GoalKind = "festival"
    tile: str | None = None  # the tile to claim, for a goal that takes one

    def __str__(self) -> str:
        return self.kind if self.tile is None else f"{self.kind} {self.tile}"


# The goal of the default advice (`castell plan`, the table page's "What should I do?", the
# `advisor` bot): the win goal (the score goal's plan, its first turn chosen expecting the
# rivals' answers), measured in whole games in docs/tournaments.md; before it the score goal,
# which won 7 of 12 three-player games against two greedy bots where the festival goal (the
# earlier default) won 1 of 12 (`castell tournament`, seed 1).
ADVICE_GOAL = Goal("win")


@dataclass(frozen=True)
class TurnSlot:
    """One of the player's turns: its round, the wheel's offers, and what is still unspent."""

    round: int
    offered: dict[str, tuple[str, ...]]  # tile (skill name or 'special') -> regions offering it
    can_move: bool = True
    can_recruit: bool = True
    can_train: bool = True
    can_special: bool = True


@dataclass(frozen=True)
class Horizon:
    """What the planner sees: the player, the turns, wheel offers, castellers and tiles in reach."""
    board: Board
    rules: Rules
    state: GameState  # at the start of the player's first planned turn
    player: str
    turns: tuple[TurnSlot, ...]
    supply: dict[str, Pool]  # castellers the plan may recruit, per region
    tiles: dict[str, tuple[PerformanceTile, ...]]  # tiles in each region's row
    festivals: tuple[tuple[int, FestivalSpace], ...]  # (turn index, festival) in the horizon
    assumptions: tuple[str, ...]
    # (turn index, region) -> an opponent who could recruit there before that turn of the
    # player's (see `at_risk`); in cautious mode the plan recruits in none of them
    at_risk: dict[tuple[int, str], str] = field(default_factory=dict)
    cautious: bool = False
    # (round, location) of a festival -> the opponents who could stand in its region when it
    # is held (`festival_rivals`; only in cautious mode, where they compete there)
    coming: dict[tuple[int, str], tuple[str, ...]] = field(default_factory=dict)

    @property
    def me(self) -> PlayerState:
        """The planning player's state."""
        return self.state.player(self.player)

    @property
    def regions(self) -> tuple[str, ...]:
        """The board's region ids."""
        return self.board.region_ids

    def upper_pool(self, turns: int | None = None) -> Pool:
        """No team in the horizon (in its first `turns` turns) holds more than this: the team
        plus what the regions hold, at most 4 castellers a turn (2 by Recruit, 1 by each
        special action: the paid one and the free one of a special tile)."""
        team = self.me.team.counts()
        per_turn = (RECRUIT_LIMIT + 2) * len(self.turns[:turns])
        counts = dict(team)
        for size in self.board.bag:
            lying = sum(pool.count(size) for pool in self.supply.values())
            counts[size] = team.get(size, 0) + min(lying, per_turn)
        return Pool.from_counts(counts)

    def upper_ranks(self, turns: int | None = None) -> SkillRanks:
        """The player's ranks with every training chance in the first turns taken."""
        ranks = self.me.ranks
        for skill in Skill:
            chances = sum(1 for turn in self.turns[:turns]
                          if turn.can_train and skill.value in turn.offered)
            ranks = ranks.plus(skill, min(chances, MAX_RANK - ranks[skill]))  # 150 at most
        return ranks

    def always_trainable(self, skill: Skill) -> bool:
        """Every turn of the horizon could train `skill` (its rank stays below the most a
        rank can be): where not, the dominance "a turn that can train, trains" is not true."""
        return self.me.ranks[skill] + len(self.turns) <= MAX_RANK


def build_horizon(state: GameState, board: Board, player: str, turns: int, rules: Rules,
                  cautious: bool = False) -> Horizon:
    """The horizon of `turns` turns of `player`, from a state where it is their turn."""
    _plannable(state, player, turns)
    slots = _slots(state, board, turns)
    rounds = {slot.round: index for index, slot in enumerate(slots)}
    festivals = tuple((rounds[f.round], f) for f in state.festivals
                      if f.round in rounds and not f.resolved)
    supply = {r: state.regions[r].supply for r in board.region_ids}
    # a festival at the end of the last turn's round: those after the player play one more
    reaches = _reaches(state, board, player, len(slots) + cautious, rules)
    risk = _risk(state, reaches, len(slots))
    coming = festival_rivals(state, player, festivals, reaches) if cautious else {}
    assumptions = _assumptions(state, board, player, cautious, len(risk), rounds, len(slots))
    tiles = {r: tuple(board.tile(t) for t in state.regions[r].performance_tiles)
             for r in board.region_ids}
    return Horizon(board, rules, state, player, tuple(slots), supply, tiles, festivals,
                   tuple(assumptions), risk, cautious, coming)


def _plannable(state: GameState, player: str, turns: int) -> None:
    """A plan starts on the player's own turn, with no free special action owed (an unknown
    player is the state's `SpecError` first)."""
    state.player(player)
    if state.game_over:
        raise SpecError("the game is over: there are no turns left to plan")
    if state.turn.player != player:
        raise SpecError(f"it is {state.turn.player}'s turn, not {player}'s")
    if state.turn.free_special:
        raise SpecError(f"{player} trained a special tile and owes its free special action: "
                        "take it before planning")
    if turns < 1:
        raise SpecError(f"plan at least 1 turn, not {turns}")


def _slots(state: GameState, board: Board, turns: int) -> list[TurnSlot]:
    """The planned turns up to the game's end: each round's wheel offers, and for the first
    what the turn has left."""
    slots = []
    for index in range(turns):
        round_ = state.round + index
        if round_ > board.rounds:
            break
        rotation = rotation_in_round(state.wheel_rotation, state.round, round_)
        offered = _offered(board, rotation, state.wheel_side)
        if index == 0:
            spent = state.turn
            slots.append(TurnSlot(round_, offered, not spent.moved, not spent.recruited,
                                  not spent.trained, not spent.special))
        else:
            slots.append(TurnSlot(round_, offered))
    return slots


def _assumptions(state: GameState, board: Board, player: str, cautious: bool, risks: int,
                 rounds: dict[int, int], count: int) -> list[str]:
    """What the plan assumes, in words: idle opponents, the cautious reading, the bag's
    unknown refills, a pawn off the board."""
    assumptions = [
        "opponents take no actions in the planned turns: their pawns stay where they are "
        "and they recruit nothing (those standing in a festival's region still compete there)",
    ]
    if cautious:
        assumptions.append("cautious: no recruit where an opponent could recruit first (their "
                           "reach in their turns before the player's visit, in turn order; "
                           "regions with castellers a rival could reach first, summed over "
                           f"the planned turns: {risks}), and every opponent who could "
                           "stand in a festival's region when it is held competes there")
    refills = [r for r in board.refill_rounds if r in rounds and rounds[r] + 1 < count]
    if refills:  # the plan never sees the bag: the replay draws nothing either
        assumptions.append("castellers the bag adds to the regions at the end of round "
                           + ", ".join(map(str, refills)) + " are unknown now and not "
                           "counted on")
    if state.player(player).pawn is None:
        assumptions.append(f"{player}'s pawn is off the board: the first move may go anywhere")
    return assumptions


def _offered(board: Board, rotation: int, side: Literal["standard", "advanced"]
             ) -> dict[str, tuple[str, ...]]:
    tiles = {t for r in board.region_ids for t in offers(board, rotation, r, side)}
    return {t: tuple(where_offered(board, rotation, t, side)) for t in sorted(tiles)}


def at_risk(state: GameState, board: Board, player: str, turns: int, rules: Rules
            ) -> dict[tuple[int, str], str]:
    """(turn index, region) -> an opponent who could recruit the region's castellers before
    `player`'s turn of that index. Every opponent plays exactly `t` turns between the player's
    first planned turn and their turn `t` (those after the player in turn order finish this
    round first, those before start the next one first), so the region is at risk when an
    opponent's reach in `t` turns (`_reach` a turn: a Move, a paid special move while they
    hold tokens, a free one where a special tile is offered) holds it. Only regions with
    castellers now count. Turn 0 is never at risk: nobody plays before it. With the rules'
    `special_move` reading "any", a special move reaches every region."""
    return _risk(state, _reaches(state, board, player, turns, rules), turns)


def _risk(state: GameState, reaches: Reaches, turns: int) -> dict[tuple[int, str], str]:
    """`at_risk` of the player's `turns` turns, from the opponents' reaches."""
    risk: dict[tuple[int, str], str] = {}
    for name, each in reaches.items():
        for t, seen in enumerate(each[1:turns], start=1):
            for region in seen:
                if state.regions[region].supply.total:
                    risk.setdefault((t, region), name)
    return risk


def festival_rivals(state: GameState, player: str,
                    festivals: tuple[tuple[int, FestivalSpace], ...], reaches: Reaches
                    ) -> dict[tuple[int, str], tuple[str, ...]]:
    """(round, location) -> the opponents who could stand in the festival's region when it
    is held at the end of the round of the player's turn `t`: their reach (`reaches`, as
    `at_risk`'s) in the turns they play until then, `t` for those before the player in turn
    order (they played this round), `t + 1` for those after."""
    order = state.turn_order
    coming: dict[tuple[int, str], tuple[str, ...]] = {}
    for t, space in festivals:
        coming[space.round, space.location] = tuple(
            name for name, each in reaches.items()
            if space.region in each[t + (order.index(name) > order.index(player))])
    return coming


# opponent -> where they can stand now (index 0: their pawn, none off the board) and by the
# end of each of their next turns
Reaches = dict[str, list[set[str]]]


def _reaches(state: GameState, board: Board, player: str, turns: int, rules: Rules
             ) -> Reaches:
    """Each opponent's places over `turns - 1` turns of theirs (`_reached`)."""
    return {other.name: _reached(state, board, other, turns, rules)
            for other in state.players if other.name != player}


def _reached(state: GameState, board: Board, other: PlayerState, turns: int, rules: Rules
             ) -> list[set[str]]:
    """Where `other` stands now, then where they can have stood by the end of each of their
    next `turns - 1` turns (a pawn off the board: anywhere)."""
    seen: set[str] = set() if other.pawn is not None else set(board.region_ids)
    frontier = {other.pawn} if other.pawn is not None else set(board.region_ids)
    each = [{other.pawn} if other.pawn is not None else set()]
    # a turn's reach from a region is the same every turn here (this round's wheel, the
    # tokens held now): each region's is worked out once
    reach: dict[str, set[str]] = {}
    for _ in range(1, turns):
        reached: set[str] = set()
        for region in frontier:
            if region not in reach:
                moved = other.model_copy(update={"pawn": region})
                reach[region] = _reach(board, state, moved, rules)
            reached |= reach[region]
        seen |= frontier | reached
        frontier = reached
        each.append(set(seen))
    return each


def contested_regions(state: GameState, board: Board, player: str, rules: Rules
                      ) -> set[str]:
    """Regions an opponent's pawn stands in or can reach on their next turn: one Move, one
    special move if they hold a token, and a free special move where the wheel offers a
    special tile on the way (this round's wheel or the next one's); a special move reaches
    every region with the rules' `special_move` reading "any"."""
    lost: set[str] = set()
    for other in state.players:
        if other.name == player:
            continue
        if other.pawn is None:
            return set(board.region_ids)  # a first move may go anywhere
        lost |= _reach(board, state, other, rules)
    return lost


def _reach(board: Board, state: GameState, other: PlayerState, rules: Rules) -> set[str]:
    """Where `other` can stand after one turn (`models.game.move_targets`: the rules'
    `special_move` reading)."""
    # (region, normal move left, paid special left, free special left)
    start = (other.pawn, True, other.special_tokens > 0, True)
    seen = {start}
    frontier = [start]
    while frontier:
        region, normal, paid, free = frontier.pop()
        assert region is not None
        steps = []
        trains_special = any(SPECIAL in offers(board, rotation, region, state.wheel_side)
                             for rotation in (state.wheel_rotation, state.wheel_rotation + 1))
        near = move_targets(board, rules, region, special=False)
        special_to = move_targets(board, rules, region, special=True)
        if normal:
            steps += [(to, False, paid, free) for to in near]
        if paid:
            steps += [(to, normal, False, free) for to in special_to]
        if free and trains_special:
            steps += [(to, normal, paid, False) for to in special_to]
        for step in steps:
            if step not in seen:
                seen.add(step)
                frontier.append(step)
    return {s[0] for s in seen if s[0] is not None}
