"""Why each step of a plan is there, in the plan's own terms: the festival tower a recruit or a
training builds, the region a move goes to and what happens there, the special token a paid
special action drops and the claim that collects it back. Solver-free: it walks the replayed
plan through the referee again and reads the plan's towers."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from models.game import (
    Action,
    Board,
    GameState,
    Move,
    Recruit,
    RegionGraph,
    Special,
    Train,
    apply,
    move_targets,
)
from models.tower import Pool, Rules, Skill, SkillRanks, Tower, check_tower
from planner.turns.replay import advance_to, cached_finder, finish_turn

Cost = Literal["free", "paid", "free special"]


@dataclass(frozen=True)
class Target:
    """The festival tower the plan builds toward: where, when, which tower."""

    round: int
    location: str
    region: str
    tower: Tower | None  # None: no tower in reach (progress toward the festival only)


@dataclass(frozen=True)
class Step:
    """One planned action explained: where, its cost, why, and whether it is at risk."""
    action: Action
    where: str  # region id: where the action happens (for a move, where the pawn goes)
    cost: Cost  # "paid" spends a special token; "free special": a special tile's free action
    reason: str
    at_risk: str | None = None  # for a recruit: the opponent who could take it first
    # for a move: the region the reason says it serves (a festival's, or where a later
    # action happens); the pawn ends in it or nearer to it than it was (`_why_move`)
    serves: str | None = None


def explain(start: GameState, board: Board, player: str, turns: Sequence[Sequence[Action]],
            rules: Rules, target: Target | None, ranks: SkillRanks,
            risk: dict[tuple[int, str], str] | None = None) -> tuple[tuple[Step, ...], ...]:
    """The steps of each planned turn; `ranks`: the player's ranks at the end of the plan
    (the target tower's skill uses are read with them); `risk` maps (turn index, region) to
    an opponent who could recruit there before the player's visit."""
    why = _Reasons(start, board, rules, target, ranks, risk, turns)
    finder = cached_finder()
    state = start
    explained = []
    for number, actions in enumerate(turns):
        steps = []
        for index, action in enumerate(actions):
            steps.append(why.step(state, player, number, actions, index, action))
            state = apply(state, board, action, rules, finder)
        explained.append(tuple(steps))
        state = finish_turn(state, board, rules, finder, None, None)
        state = advance_to(state, board, player, rules, finder)
    return tuple(explained)


class _Reasons:
    """What the explanations of one plan read: the board and readings, the target festival
    and its tower, the claims ahead, the rows' tiles now, the risks."""

    def __init__(self, start: GameState, board: Board, rules: Rules, target: Target | None,
                 ranks: SkillRanks, risk: dict[tuple[int, str], str] | None,
                 turns: Sequence[Sequence[Action]]) -> None:
        self.start, self.board, self.rules, self.target = start, board, rules, target
        self.ranks, self.risk, self.turns = ranks, risk, turns
        self.graph = RegionGraph(board)
        self.names = {r.id: r.name for r in board.regions}
        self.claims = _claims_ahead(turns)
        self.rows = {g: set(r.performance_tiles) for g, r in start.regions.items()}
        self.levels = _levels(target)
        self.needed = (Counter(target.tower.sizes()) if target and target.tower
                       else Counter[int]())

    def step(self, state: GameState, player: str, number: int, actions: Sequence[Action],
             index: int, action: Action) -> Step:
        """Action `index` of turn `number`, in `state` (before it), explained."""
        me = state.player(player)
        here = me.pawn
        free = state.turn.free_special
        cost: Cost = "free special" if free and isinstance(action, Special) else (
            "paid" if isinstance(action, Special) else "free")
        where = here or ""
        at_risk = None
        serves = None
        if _is_move(action):
            assert isinstance(action, Move | Special) and action.to is not None
            where = action.to
            reason, serves = _why_move(
                action.to, list(actions[index + 1:]), self.target, self.graph, self.names,
                number, len(self.turns), self.turns,
                jumps=move_targets(self.board, self.rules, action.to, special=True), here=here)
        elif isinstance(action, Recruit) or (isinstance(action, Special)
                                             and action.kind == "recruit"):
            sizes = list(action.sizes) if isinstance(action, Recruit) else [action.size]
            reason = _why_recruit([s for s in sizes if s is not None], me.team, self.needed,
                                  self.levels, self.target)
            if self.risk is not None:
                at_risk = self.risk.get((number, where))
        elif isinstance(action, Train):
            reason = _why_train(action.skill, self.target, self.ranks, self.rules)
        else:
            reason = self._why_claim(state, action, where, cost)
        if cost == "paid" and not (isinstance(action, Special) and action.kind == "claim"):
            reason += self._paid_note(action, here, number)
        return Step(action, where, cost, reason, at_risk, serves)

    def _why_claim(self, state: GameState, action: Action, where: str, cost: Cost) -> str:
        assert isinstance(action, Special) and action.tile is not None
        tile = self.board.tile(action.tile)
        lying = state.regions[where].special_tokens if where else 0
        tokens = lying + (1 if cost == "paid" and self.rules.claim_collects_own_token else 0)
        return f"+{tile.points} points ({tile.tile})" + (
            f", collects {tokens} special token(s) lying in the row" if tokens else "")

    def _paid_note(self, action: Action, here: str | None, number: int) -> str:
        """Where a paid special action's token drops, and whether the plan collects it."""
        dropped = action.to if (isinstance(action, Special) and action.kind == "move"
                                and (self.rules.token_after_move or here is None)) else here
        if not dropped:
            return ""
        return "; " + _token_note(dropped, number, self.claims, self.names, self.rows,
                                  self.start.round)


def _claims_ahead(turns: Sequence[Sequence[Action]]) -> list[tuple[int, str]]:
    return [(number, a.tile) for number, actions in enumerate(turns) for a in actions
            if isinstance(a, Special) and a.kind == "claim" and a.tile is not None]


def _levels(target: Target | None) -> dict[int, int]:
    """Size -> the lowest level (1 = the bottom) of the target tower holding it."""
    found: dict[int, int] = {}
    if target is None or target.tower is None:
        return found
    for number, level in enumerate(target.tower.as_lists(), start=1):
        for size in level:
            found.setdefault(size, number)
    return found


def _festival(target: Target) -> str:
    tower = " tower" if target.tower is not None else ""
    return f"the round-{target.round} festival{tower} ({target.location})"


def _why_recruit(sizes: list[int], team: Pool, needed: Counter[int],
                 levels: dict[int, int], target: Target | None) -> str:
    used: Counter[int] = Counter()
    spare = []
    have = team.counts()
    for size in sizes:
        if target and target.tower and have.get(size, 0) < needed[size]:
            used[size] += 1
        else:
            spare.append(str(size))
        have[size] = have.get(size, 0) + 1
    parts = []
    if used and target:
        labels = [f"the {size}" if n == 1 else f"two {size}s" for size, n in used.items()]
        parts.append("recruits " + ", ".join(f"{label} for level {levels[size]}" for label,
                                             size in zip(labels, used, strict=True))
                     + " of " + _festival(target))
    if spare:
        toward = ""
        if target and target.tower is None:
            toward = f", toward a tower for {_festival(target)}"
        parts.append(f"{', '.join(spare)}: a bigger team never hurts{toward}")
    return "; ".join(parts)


def _why_train(skill: str, target: Target | None, ranks: SkillRanks, rules: Rules) -> str:
    if skill == "special":
        return "a special tile: grants a free special action, taken next"
    if target and target.tower is not None:
        uses = check_tower(target.tower, ranks, rules).usable_skills()
        if Skill(skill) in uses:
            return f"{_festival(target)} uses {skill}"
    return f"{skill} +1: a skill rank never hurts"


def _is_move(action: Action) -> bool:
    return isinstance(action, Move) or (isinstance(action, Special) and action.kind == "move")


def _why_move(to: str, rest: list[Action], target: Target | None, graph: RegionGraph,
              names: dict[str, str], number: int, count: int,
              turns: Sequence[Sequence[Action]], jumps: Sequence[str] = (),
              here: str | None = None) -> tuple[str, str | None]:
    """Why the pawn moves from `here` (None: off the board) to `to`, and the region the
    reason says the move serves: a festival's or a later action's only when the pawn ends
    in it or nearer to it (graph distance; from off the board every move is nearer).
    `jumps`: where one special move from `to` goes (`models.game.move_targets`): a festival
    further than a step may still be one jump."""
    nxt = rest[0] if rest and not _is_move(rest[0]) else None  # done in `to`, before moving on
    moves_left = any(_is_move(a) for a in rest)
    if target is not None and to == target.region and not moves_left:
        return f"to stand in {names[to]} for {_festival(target)}", to
    if nxt is not None:
        done = _why_then(nxt, names[to])
        if done is not None:
            return done, None
    if target is not None:
        toward = _why_toward(to, target, graph, names, jumps, here)
        if toward is not None:
            return toward
    if moves_left:  # the turn moves on at once: this move is a first leg
        return "a first leg: the turn's next move goes on from here", None
    return _why_later(to, turns[number + 1:], graph, names, here)


def _why_then(nxt: Action, name: str) -> str | None:
    """The move is for the action taken next where it ends (None: not one it names)."""
    if isinstance(nxt, Recruit) or (isinstance(nxt, Special) and nxt.kind == "recruit"):
        return f"to recruit in {name}"
    if isinstance(nxt, Train):
        return f"to train {nxt.skill} (offered in {name})"
    if isinstance(nxt, Special) and nxt.kind == "claim":
        return f"to claim {nxt.tile} in {name}"
    return None


def _why_toward(to: str, target: Target, graph: RegionGraph, names: dict[str, str],
                jumps: Sequence[str], here: str | None) -> tuple[str, str | None] | None:
    """The move is for the target festival: the pawn stands there, or nearer to it."""
    if to == target.region:
        return f"to stand in {names[to]} for {_festival(target)}", to
    away = graph.distance(to, target.region)
    if here is None or away < graph.distance(here, target.region):
        jump = " (or one special move)" if away > 1 and target.region in jumps else ""
        return (f"toward {names[target.region]} for {_festival(target)}: {away} "
                f"move(s) away{jump}"), target.region
    return None


def _why_later(to: str, later_turns: Sequence[Sequence[Action]], graph: RegionGraph,
               names: dict[str, str], here: str | None) -> tuple[str, str | None]:
    """The move is for a later turn's action there or beyond; or it only ends the turn."""
    later = _next_stop(to, later_turns)
    if later is not None:
        region, kind = later
        if region == to:
            return f"to be in {names[to]} for a later turn's {kind}", to
        if here is None or graph.distance(to, region) < graph.distance(here, region):
            return f"on the way to {names[region]} for a later turn's {kind}", region
    return f"ends the turn in {names[to]}", None


def _next_stop(pawn: str, turns: Sequence[Sequence[Action]]) -> tuple[str, str] | None:
    """Where the pawn, now in `pawn`, takes its next action that is not a move in the later
    `turns`, and that action's kind."""
    for actions in turns:
        for action in actions:
            if _is_move(action):
                assert isinstance(action, Move | Special) and action.to is not None
                pawn = action.to
            elif isinstance(action, Recruit) or (isinstance(action, Special)
                                                 and action.kind == "recruit"):
                return pawn, "recruit"
            elif isinstance(action, Train):
                return pawn, "training"
            elif isinstance(action, Special) and action.kind == "claim":
                return pawn, f"claim of {action.tile}"
    return None


def _token_note(region: str, number: int, claims: list[tuple[int, str]],
                names: dict[str, str], rows: dict[str, set[str]], first_round: int) -> str:
    for turn, tile in claims:  # one turn a round: turn t is in round first_round + t
        if turn >= number and tile in rows[region]:
            return (f"token dropped in {names[region]}, collected back with {tile} in round "
                    f"{first_round + turn}: +1")
    return f"token dropped in {names[region]} (not collected back in the plan)"
