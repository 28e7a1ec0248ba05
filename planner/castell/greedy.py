"""The greedy Castell bot: one turn, chosen one action at a time by the value of the position
it leaves, from what its player sees.

`value` is the player's points now (`score_player`: tiles claimed, tokens collected, region
variety, prizes, size tokens, best tower) plus what the position promises, in points:

- festivals ahead: for each festival of this round and the next three (weights `ahead`: this
  round's counts in full, later ones less, as the team will change), when the pawn can get
  to its region in time (a Move and, while tokens last, a special move a turn): the prize
  its best festival tower ranks for against the rivals who can get there too (their best
  towers now), the size tokens it holds the most of, the region's variety points when that
  region is new, and the rise of the best tower score (once, the best festival's);
- a tile to claim next turn: the best tile in the pawn's region or next to it that the team
  meets now, with a token left (its points, the tokens lying in its row and the one the
  claim adds, a new region's variety), at `tile_next` of its worth;
- the team's reach: `tile_meet` per tile still on the board that the team meets,
  `casteller` per casteller, `rank` per skill rank (up to `rank_cap` a skill);
- the special tokens left, `token` each while there are turns left to spend them in.

The other styles of `planner.castell.panel` are this value under other weights: each score
category's points, now and promised, times its `*_scale` (the best tower's rise, prizes, size
tokens, a new region's variety, tiles), a bonus per region earned, now and promised
(`region_bonus`), and one per casteller of a size the festivals ahead reward
(`size_casteller`). Greedy's weights leave them out (scales 1, bonuses 0): its value is
unchanged to the bit.

A turn is built step by step: each legal action is applied through the referee and the one
that leaves the best value is taken, until ending the turn is worth as much (a move is
valued by its best follow-up too: moving is worth what it lets the turn do next). Ties go to
ending the turn, then to the first action in `legal_actions` order, so the bot is
deterministic and needs no random generator. The tower questions are the proven finders of
`planner.castell.turn`, cached.
"""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass

from models.game import (
    Action,
    Board,
    EndTurn,
    FestivalSpace,
    GameState,
    Move,
    PlayerState,
    Special,
    apply,
    graph_of,
    legal_actions,
    score_player,
    turns_before,
)
from models.game.scoring import ScoreCard
from models.tower import ExhibitionTile, Pool, Rules, SkillRanks, Tile, Tower
from planner.castell.turn import Turn, festival_finder, seen, tile_finder


@dataclass(frozen=True)
class Weights:
    """The greedy value's weights (see the module text), in points."""

    ahead: tuple[float, ...] = (1.0, 0.6, 0.4, 0.25)
    tile_next: float = 0.7
    tile_meet: float = 0.3
    casteller: float = 0.3
    rank: float = 0.5
    rank_cap: int = 2
    token: float = 1.5
    # the panel's leanings (planner.castell.panel); these defaults change nothing
    tower_scale: float = 1.0
    variety_scale: float = 1.0
    prize_scale: float = 1.0
    size_scale: float = 1.0
    tile_scale: float = 1.0
    region_bonus: float = 0.0
    size_casteller: float = 0.0
    size_cap: int = 3


WEIGHTS = Weights()


def distances(board: Board) -> dict[str, dict[str, int]]:
    """Moves between every two regions (breadth first over the board's links)."""
    links = graph_of(board).links
    table = {}
    for start in links:
        found = {start: 0}
        queue = deque([start])
        while queue:
            here = queue.popleft()
            for near in sorted(links[here]):
                if near not in found:
                    found[near] = found[here] + 1
                    queue.append(near)
        table[start] = found
    return table


@dataclass(frozen=True)
class Rival:
    """A rival as the decision sees them: their state and the turns they play before each
    festival ahead (their team and pawn do not change during the mover's turn)."""

    player: PlayerState
    turns: dict[tuple[int, str], int]
    team: Pool
    ranks: SkillRanks


def _could_meet(team: Pool, ranks: SkillRanks, spec: Tile) -> bool:
    """A necessary condition for a tile: enough castellers for its levels, and a rank in
    each skill an exhibition shows."""
    if isinstance(spec, ExhibitionTile):
        return team.total >= spec.points and all(ranks[s] > 0 for s in spec.skills)
    return team.total >= sum(spec.counts)


class View:
    """What one decision shares: the board, the readings, the mover, the rivals and the
    moves between regions."""

    def __init__(self, state: GameState, board: Board, weights: Weights = WEIGHTS) -> None:
        self.board = board
        self.rules: Rules = state.game_rules
        self.me = state.turn.player
        self.weights = weights
        self.far = distances(board)
        self.ahead = [f for f in state.festivals
                      if not f.resolved and 0 <= f.round - state.round < len(weights.ahead)]
        self.rivals = [Rival(p, {(f.round, f.location): turns_before(state, p.name, f)
                                 for f in self.ahead}, p.team, p.ranks)
                       for p in state.players if p.name != self.me]
        self.tiles = {t.id: (t.spec, t.points) for t in board.performance_tiles}
        # within a turn the team only grows and ranks only rise: what the team met at its
        # start it still meets (no tower search for those)
        mover = state.current
        self.met = {t for r in state.regions.values() for t in r.performance_tiles
                    if self.meets(mover.team, mover.ranks, t)}

    def meets(self, team: Pool, ranks: SkillRanks, tile_id: str) -> bool:
        """Whether a tower of `team` meets the tile (cheap refusals before the search)."""
        if tile_id in getattr(self, "met", ()):
            return True
        spec, _ = self.tiles[tile_id]
        if not _could_meet(team, ranks, spec):
            return False
        return tile_finder(team, ranks, spec, self.rules) is not None

    def reaches(self, pawn: str | None, region: str, turns: int, tokens: int) -> bool:
        """Whether a pawn gets to `region` in `turns` turns: a Move a turn and a special move
        while tokens last (anywhere, under the reading `special_move=any`)."""
        if pawn == region:
            return True
        if turns <= 0:
            return False
        if pawn is None:
            return True
        moves = self.far[pawn].get(region)
        if moves is None:
            return False
        if self.rules.special_move == "any" and tokens > 0:
            return True
        return moves <= turns + min(turns, tokens)


def value(state: GameState, view: View) -> float:
    """The greedy value of the mover's position if their turn ended here."""
    me = state.player(view.me)
    team, ranks = me.team, me.ranks
    w = view.weights
    left = view.board.rounds - state.round
    card = score_player(me, view.board)
    points = float(card.total)
    points += _leaning(card, me, team, view)
    points += w.token * min(me.special_tokens, left)
    points += w.casteller * team.total
    points += w.rank * sum(min(r, w.rank_cap) for r in ranks.as_dict().values())
    points += _festivals(state, me, team, ranks, view)
    points += _tiles(state, me, team, ranks, view, left)
    return points


def _leaning(card: ScoreCard, me: PlayerState, team: Pool, view: View) -> float:
    """A style's extra points: its category scales over the points now, a bonus a region
    earned, the castellers of the sizes the festivals ahead reward (0.0 for greedy: adding
    it changes no value)."""
    w = view.weights
    extra = ((w.tower_scale - 1) * card.best_tower + (w.variety_scale - 1) * card.region_variety
             + (w.prize_scale - 1) * card.prizes + (w.size_scale - 1) * card.size_tokens
             + (w.tile_scale - 1) * card.local_performances)
    if w.region_bonus:
        extra += w.region_bonus * len(set(me.earned_regions))
    if w.size_casteller:
        wanted = {z for space in view.ahead for z in space.size_tokens}
        extra += w.size_casteller * sum(min(team.count(z), w.size_cap) for z in wanted)
    return extra


def _festivals(state: GameState, me: PlayerState, team: Pool, ranks: SkillRanks, view: View
               ) -> float:
    total, rise = 0.0, 0.0
    for space in view.ahead:
        weight = view.weights.ahead[space.round - state.round]
        turns = space.round - state.round
        if not view.reaches(me.pawn, space.region, turns, me.special_tokens):
            continue
        if not all(team.count(z) for z in space.festival.token_sizes):
            continue  # no tower without a casteller of each token size: no search
        tower = festival_finder(team, ranks, space.festival, view.rules)
        if tower is None:
            continue
        score = space.festival.score(tower)
        rise = max(rise, weight * max(0, score - me.best_tower_score) * view.weights.tower_scale)
        total += weight * _festival_worth(space, me, tower, score, view)
    return total + rise


def _festival_worth(space: FestivalSpace, me: PlayerState, tower: Tower, score: int,
                    view: View) -> float:
    """Prize, size tokens and a new region's variety of `tower` at `space` against the
    rivals who can get there (their best towers now)."""
    rivals = []
    for rival in view.rivals:
        turns = rival.turns[(space.round, space.location)]
        if view.reaches(rival.player.pawn, space.region, turns, rival.player.special_tokens):
            found = festival_finder(rival.team, rival.ranks, space.festival, view.rules)
            if found is not None:
                rivals.append(found)
    festival = space.festival
    w = view.weights
    rank = 1 + sum(festival.score(t) > score for t in rivals)
    chart = view.board.prize_chart.get(space.type, {}).get(len(view.rivals) + 1, [])
    scoring = view.board.scoring
    worth = float(scoring.prizes.get(chart[rank - 1], 0)) if rank <= len(chart) else 0.0
    worth *= w.prize_scale
    mine = tower.size_counts()
    for size in space.size_tokens:
        if mine[size] > max((t.size_counts()[size] for t in rivals), default=0):
            repeat = size in me.size_tokens
            token = scoring.size_token_repeat if repeat else scoring.size_token_first
            worth += token * w.size_scale
    if worth and space.region not in me.earned_regions:
        worth += _variety_gain(me, view)
    return worth


def _variety_gain(me: PlayerState, view: View) -> float:
    """What one more earned region is worth: its variety points (times the style's scale)
    and the style's bonus a region."""
    earned = len(set(me.earned_regions))
    scoring = view.board.scoring
    w = view.weights
    gain = float(scoring.variety(earned + 1) - scoring.variety(earned))
    return gain * w.variety_scale + w.region_bonus


def _tiles(state: GameState, me: PlayerState, team: Pool, ranks: SkillRanks, view: View,
           left: int) -> float:
    """The best tile to claim next turn, and the tiles on the board the team meets."""
    w = view.weights
    best, meets = 0.0, 0
    for region_id, region in state.regions.items():
        near = view.reaches(me.pawn, region_id, 1, 0)
        for tile_id in region.performance_tiles:
            if not view.meets(team, ranks, tile_id):
                continue
            meets += 1
            if near and left > 0 and me.special_tokens > 0:
                worth = float(view.tiles[tile_id][1] + region.special_tokens + 1)
                worth *= w.tile_scale
                if region_id not in me.earned_regions:
                    worth += _variety_gain(me, view)
                best = max(best, worth)
    return w.tile_next * best + w.tile_meet * meets


def _moves_on(action: Action) -> bool:
    return isinstance(action, Move) or (isinstance(action, Special) and action.kind == "move")


def best_step(state: GameState, view: View) -> tuple[Action, GameState | None]:
    """The best next action and the state after it (`EndTurn`, None: end the turn here)."""
    board, rules = view.board, view.rules
    options = legal_actions(state, board, rules, tiles=tile_finder)
    ending = any(isinstance(a, EndTurn) for a in options)
    best_value = value(state, view) if ending else float("-inf")
    best: tuple[Action, GameState | None] = (EndTurn(), None)
    for action in options:
        if isinstance(action, EndTurn):
            continue
        after = apply(state, board, action, rules, festival_finder)
        worth = _worth_after(after, view, look=_moves_on(action) or after.turn.free_special)
        if worth > best_value:
            best_value, best = worth, (action, after)
    return best


def _worth_after(state: GameState, view: View, look: bool) -> float:
    """The value after an action; after a move (or a special tile's training, whose free
    action is owed), the best of it and of each single action that follows."""
    here = value(state, view) if not state.turn.free_special else float("-inf")
    if not look:
        return here
    for action in legal_actions(state, view.board, view.rules, tiles=tile_finder):
        if isinstance(action, EndTurn) or (_moves_on(action) and not state.turn.free_special):
            continue
        after = apply(state, view.board, action, view.rules, festival_finder)
        if not after.turn.free_special:
            here = max(here, value(after, view))
    return here


def greedy_turn(state: GameState, board: Board, weights: Weights = WEIGHTS) -> Turn:
    """The greedy turn of the player to move (see the module text), from what they see."""
    state = seen(state)
    view = View(state, board, weights)
    actions: list[Action] = []
    while True:
        action, after = best_step(state, view)
        if after is None:
            return Turn((*actions, EndTurn()))
        actions.append(action)
        state = after


def greedy_bot(state: GameState, board: Board, rng: random.Random) -> Turn:
    """The greedy bot (it draws nothing from `rng`)."""
    return greedy_turn(state, board)
