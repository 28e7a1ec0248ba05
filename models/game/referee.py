"""The referee: a turn's legal actions and their effect on a game state (rules section 5).

Every function returns a new state and never changes the one it was given. An illegal action
raises `IllegalAction` saying why. Towers are only verified here, with the checker; finding one
(for a festival or a claim) is the caller's job, passed in as a function.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from itertools import combinations_with_replacement

from models.errors import NotationError, Reason, Refused
from models.game.actions import RECRUIT_LIMIT, Action, EndTurn, Move, Recruit, Special, Train
from models.game.board import SPECIAL, Board, PerformanceTile
from models.game.contest import Choices, TowerFinder, apply_outcome, resolve_festival
from models.game.regions import move_targets
from models.game.scoring import score_game
from models.game.setup import draw
from models.game.state import FestivalSpace, FinalScore, GameState, PlayerState, Standing
from models.game.wheel import offers
from models.tower import (
    Pool,
    Rules,
    Skill,
    SkillRanks,
    Tile,
    Tower,
    check_tower,
    parse_skill,
    tile_shortfalls,
)
from models.tower.skills import MAX_RANK

TileFinder = Callable[[Pool, SkillRanks, Tile, Rules], Tower | None]


class IllegalAction(Refused):
    """An action the rules do not allow now; the message says why, the code which rule."""


def _refuse(message: str, code: Reason = Reason.ILLEGAL) -> IllegalAction:
    return IllegalAction(message, code)


def trainable(state: GameState, board: Board, player: PlayerState) -> list[str]:
    """What the wheel lets this player train now: skill names and/or 'special'."""
    if player.pawn is None:
        return []
    return offers(board, state.wheel_rotation, player.pawn, state.wheel_side)


def _take(supply: Pool, sizes: list[int], where: str) -> Pool:
    missing = supply.missing_from(sizes)
    if missing:
        wanted = ", ".join(f"{n} x size {s}" for s, n in missing.items())
        raise _refuse(f"{where} lacks {wanted} (it holds {supply})", Reason.SHORT_SUPPLY)
    counts = supply.counts()
    for size in sizes:
        counts[size] -= 1
    return Pool.from_counts(counts)


def _called(board: Board, region: str) -> str:
    """A region as players write it (its name on the board); ids are for files."""
    return board.region(region).name if region in board.region_ids else region


def _move(board: Board, player: PlayerState, to: str, rules: Rules, special: bool) -> None:
    if to not in board.region_ids:
        raise _refuse(f"unknown region '{to}'", Reason.UNKNOWN_REGION)
    if to not in move_targets(board, rules, player.pawn, special):
        assert player.pawn is not None  # from off the board every region is a target
        if to == player.pawn and special and rules.special_move == "any":
            raise _refuse(f"the pawn is already in {_called(board, to)}", Reason.ALREADY_THERE)
        raise _refuse(f"{_called(board, to)} is not adjacent to {_called(board, player.pawn)}",
                      Reason.NOT_ADJACENT)
    player.pawn = to


def _recruit(state: GameState, board: Board, player: PlayerState, sizes: list[int]) -> None:
    if player.pawn is None:
        raise _refuse("the pawn is not on the board yet; move first", Reason.NOT_ON_BOARD)
    region = state.regions[player.pawn]
    region.castellers = str(_take(region.supply, sizes, _called(board, player.pawn)))
    player.pool = str(Pool.of([*player.team, *sizes]))


def _claim(state: GameState, board: Board, player: PlayerState, action: Special,
           rules: Rules, free: bool) -> None:
    assert action.tile is not None and action.tower is not None
    if player.pawn is None:
        raise _refuse("the pawn is not on the board yet; move first", Reason.NOT_ON_BOARD)
    region = state.regions[player.pawn]
    if action.tile not in region.performance_tiles:
        raise _refuse(f"tile {action.tile} is not in {_called(board, player.pawn)}'s row "
                      f"({', '.join(region.performance_tiles) or 'empty'})", Reason.TILE_NOT_HERE)
    tile: PerformanceTile = board.tile(action.tile)
    try:
        tower = Tower.parse(action.tower, rules)
    except NotationError as error:
        raise _refuse(f"claim tower: {error}", Reason.INVALID_TOWER) from None
    result = check_tower(tower, player.ranks, rules, player.team)
    reasons = tile_shortfalls(tile.spec, result)
    if reasons:
        raise _refuse(f"the tower {tower} does not meet {tile.id} ({tile.tile}): "
                      + "; ".join(reasons), Reason.TILE_NOT_MET)
    if not free and rules.claim_collects_own_token:
        region.special_tokens += 1
    region.performance_tiles = [t for t in region.performance_tiles if t != tile.id]
    player.claimed_tiles = [*player.claimed_tiles, tile.id]
    player.collected_tokens += region.special_tokens
    region.special_tokens = 0
    if not free and not rules.claim_collects_own_token:
        region.special_tokens += 1
    if rules.earned_regions == "rewards":
        _earn(player, player.pawn)


def _earn(player: PlayerState, region: str) -> None:
    if region not in player.earned_regions:
        player.earned_regions = [*player.earned_regions, region]


def _special(state: GameState, board: Board, player: PlayerState, action: Special,
             rules: Rules) -> None:
    turn = state.turn
    free = turn.free_special
    if not free:
        if turn.special:
            raise _refuse("the special action was already taken this turn", Reason.SPECIAL_TAKEN)
        if player.special_tokens < 1:
            raise _refuse("no special action token left", Reason.NO_TOKEN)
    token_region = player.pawn
    if action.kind == "recruit":
        assert action.size is not None
        _recruit(state, board, player, [action.size])
    elif action.kind == "move":
        assert action.to is not None
        _move(board, player, action.to, rules, special=True)
    else:
        _claim(state, board, player, action, rules, free)
    if free:
        turn.free_special = False
        if not rules.free_special_is_extra:
            turn.special = True
        return
    turn.special = True
    player.special_tokens -= 1
    if (action.kind == "move" and rules.token_after_move) or token_region is None:
        token_region = player.pawn
    if action.kind != "claim":
        assert token_region is not None
        state.regions[token_region].special_tokens += 1


def apply(state: GameState, board: Board, action: Action, rules: Rules,
          finder: TowerFinder | None = None, chosen: Choices | None = None) -> GameState:
    """The state after the current player takes `action`; an EndTurn needs `finder` when it
    ends a round with festivals (`chosen` towers go before the finder's)."""
    if state.game_over:
        raise _refuse("the game is over", Reason.GAME_OVER)
    if isinstance(action, EndTurn):
        return end_turn(state, board, rules, finder, chosen)
    new = state.clone()
    turn = new.turn
    player = new.current
    if turn.free_special and not isinstance(action, Special):
        raise _refuse("a special tile was trained: its free special action comes first",
                      Reason.FREE_SPECIAL_FIRST)
    if isinstance(action, Move):
        if turn.moved:
            raise _refuse("the pawn already moved this turn (a special action can move again)",
                          Reason.ALREADY_MOVED)
        _move(board, player, action.to, rules, special=False)
        turn.moved = True
    elif isinstance(action, Recruit):
        if turn.recruited:
            raise _refuse("already recruited this turn", Reason.ALREADY_RECRUITED)
        _recruit(new, board, player, list(action.sizes))
        turn.recruited = True
    elif isinstance(action, Train):
        if turn.trained:
            raise _refuse("already trained this turn", Reason.ALREADY_TRAINED)
        _train(new, board, player, action.skill, rules)
        turn.trained = True
    elif isinstance(action, Special):
        _special(new, board, player, action, rules)
    return new


def _train(state: GameState, board: Board, player: PlayerState, skill_text: str,
           rules: Rules) -> None:
    """`player` trains the skill `skill_text` names (or takes a special tile) from the wheel's
    offer in their region, in `state`."""
    turn = state.turn
    offered = trainable(state, board, player)
    name = skill_text.lower()
    if name != SPECIAL:
        try:
            name = parse_skill(name).value
        except NotationError as error:
            raise _refuse(str(error), Reason.UNKNOWN_SKILL) from None
    if name not in offered:
        where = _called(board, player.pawn) if player.pawn else "off the board"
        raise _refuse(f"the wheel does not offer {name} in {where} this round "
                      f"(it offers {', '.join(offered) or 'nothing'})", Reason.NOT_OFFERED)
    if name == SPECIAL and turn.special and not rules.free_special_is_extra:
        raise _refuse("the special action was already taken this turn, and a trained "
                      "special tile's action replaces it (free_special_is_extra=false)",
                      Reason.SPECIAL_TAKEN)
    if name == SPECIAL:
        turn.free_special = True
    else:
        skill = Skill(name)
        if player.ranks[skill] >= MAX_RANK:
            raise _refuse(f"{name} is at rank {MAX_RANK} already, the most a rank can be "
                          "(the whole bag)", Reason.RANK_MAX)
        player.skills = str(player.ranks.plus(skill))


def end_turn(state: GameState, board: Board, rules: Rules,
             finder: TowerFinder | None = None, chosen: Choices | None = None) -> GameState:
    """End the current player's turn; after the last player's turn, end the round."""
    if state.turn.free_special:
        raise _refuse("a special tile was trained: take its free special action first",
                      Reason.FREE_SPECIAL_FIRST)
    new = state.clone()
    order = new.turn_order
    position = order.index(new.turn.player)
    if position + 1 < len(order):
        new.turn = type(new.turn)(player=order[position + 1])
        return new
    return end_round(new, board, rules, finder, chosen)


def end_round(state: GameState, board: Board, rules: Rules,
              finder: TowerFinder | None = None, chosen: Choices | None = None) -> GameState:
    """Festivals of this round, the wheel's turn, refills, and the next round's first turn."""
    new = state.clone()
    named = named_towers(new, rules)
    if chosen is not None:
        named.update(chosen)
    for space in new.festivals:
        if space.round == new.round and not space.resolved:
            if finder is None:
                raise ValueError("a festival is due: end_round needs a tower finder")
            try:
                outcome = resolve_festival(new, board, space, rules, finder, named)
            except ValueError as error:
                if not named:
                    raise
                raise _refuse(str(error), Reason.CANNOT_COMPETE) from None
            new = apply_outcome(new, outcome, rules)
    new.festival_towers = {}
    new.festival_towers_at = {}
    new.wheel_rotation += 1
    if new.round in board.refill_rounds and new.bag is not None:
        if new.deal == "recorded":
            # the real draw is asked for only when a round follows to use it in
            new.refills_due = refills_needed(new, board) if new.round < board.rounds else {}
        else:
            _refill(new, board)
    new.round += 1
    new.game_over = new.round > board.rounds
    new.turn = type(new.turn)(player=new.turn_order[0])
    if new.game_over:
        cards, winners = score_game(new, board)
        new.final_score = FinalScore(
            cards=[Standing.model_validate(c.as_dict()) for c in cards], winners=winners)
    return new


def named_towers(state: GameState, rules: Rules) -> dict[tuple[str, str], Tower | None]:
    """The towers players named for this round's festivals, as `Choices`: a tower named for
    one festival (`festival_towers_at`) before one named for the round (`festival_towers`)."""
    named: dict[tuple[str, str], Tower | None] = {}
    for name, text in state.festival_towers.items():
        tower = None if text is None else Tower.parse(text, rules)
        for space in state.festivals_in(state.round):
            named[(space.location, name)] = tower
    for location, towers in state.festival_towers_at.items():
        for name, text in towers.items():
            named[(location, name)] = None if text is None else Tower.parse(text, rules)
    return named


def name_festival_tower(state: GameState, board: Board, name: str, tower: str | None,
                        rules: Rules, location: str | None = None) -> GameState:
    """`name` will build `tower` (None: will not compete) at this round's festival, or at the
    festival held at `location` only. A tower that could not compete there (not valid for the
    player, too short, a size token missing, the pawn elsewhere) is refused now, not at `end`."""
    if state.game_over:
        raise _refuse("the game is over", Reason.GAME_OVER)
    player = state.player(name)
    festivals = _festivals_to_name(state, location)
    if tower is not None:
        tower = _competing(board, name, player, tower, festivals, rules)
    new = state.clone()
    if location is None:
        new.festival_towers = {**new.festival_towers, player.name: tower}
        new.festival_towers_at = {
            where: {who: t for who, t in towers.items() if who != player.name}
            for where, towers in new.festival_towers_at.items()}
    else:
        at = dict(new.festival_towers_at.get(location, {}))
        at[player.name] = tower
        new.festival_towers_at = {**new.festival_towers_at, location: at}
    return new


def _festivals_to_name(state: GameState, location: str | None) -> list[FestivalSpace]:
    """This round's festivals still to hold (the one at `location` only, if given): refused
    when there is none."""
    festivals = [f for f in state.festivals_in(state.round) if not f.resolved]
    if not festivals:
        raise _refuse(f"no festival at the end of round {state.round}", Reason.NO_FESTIVAL)
    if location is not None:
        festivals = [f for f in festivals if f.location == location]
        if not festivals:
            held = ", ".join(f.location for f in state.festivals_in(state.round))
            raise _refuse(f"no festival at {location} this round (this round: {held})",
                          Reason.NO_FESTIVAL)
    return festivals


def _competing(board: Board, name: str, player: PlayerState, tower: str,
               festivals: list[FestivalSpace], rules: Rules) -> str:
    """The tower `name` names, written as the notation writes it, once it could compete at
    every one of `festivals` in the pawn's region (refused otherwise)."""
    try:
        parsed = Tower.parse(tower, rules)
    except NotationError as error:
        raise _refuse(f"festival tower: {error}", Reason.INVALID_TOWER) from None
    result = check_tower(parsed, player.ranks, rules, player.team)
    if not result.valid:
        raise _refuse(f"{name} cannot build {parsed}: "
                      + "; ".join(v.message for v in result.violations),
                      Reason.INVALID_TOWER)
    here = [f for f in festivals if f.region == player.pawn]
    if not here:
        where = _called(board, player.pawn) if player.pawn else "off the board"
        held = ", ".join(f"{f.location} ({_called(board, f.region)})" for f in festivals)
        raise _refuse(f"{name} cannot compete with it: the pawn is in {where}, and this "
                      f"round's festival is held at {held}", Reason.CANNOT_COMPETE)
    for space in here:
        short = space.festival.shortfalls(parsed, rules)
        if short:
            raise _refuse(f"{parsed} cannot compete at {space.location}: "
                          + "; ".join(short), Reason.CANNOT_COMPETE)
    return str(parsed)


def top_up(state: GameState, board: Board, left: int | None = None) -> dict[str, int]:
    """The refill rule: each region short of its setup count draws up to it, in board order,
    while `left` castellers last (None: the bag unknown, every shortfall)."""
    target = board.setup_castellers[len(state.players)]
    due: dict[str, int] = {}
    for region_id in board.region_ids:
        short = target - state.regions[region_id].supply.total
        if left is not None:
            short = min(short, left)
        if short > 0:
            due[region_id] = short
            if left is not None:
                left -= short
    return due


def refills_needed(state: GameState, board: Board) -> dict[str, int]:
    """How many castellers each region draws at a refill (`top_up`, while the bag lasts)."""
    assert state.bag is not None
    return top_up(state, board, Pool.parse(state.bag).total)


def missing_refills(state: GameState) -> str | None:
    """What is missing before the round can be played (None: nothing)."""
    if not state.refills_due:
        return None
    due = ", ".join(f"{region} draws {n}" for region, n in state.refills_due.items())
    return (f"the refill at the end of round {state.round - 1} is not recorded yet: {due} "
            "(record each with `castell play STATE refill REGION SIZES...`)")


def require_refilled(state: GameState) -> None:
    """Raise `IllegalAction` naming the refills still to record, if any."""
    message = missing_refills(state)
    if message is not None:
        raise _refuse(message, Reason.REFILL_DUE)


def refill(state: GameState, board: Board, region: str, sizes: list[int]) -> GameState:
    """Record the castellers really drawn from the bag for `region` at a due refill."""
    if region not in board.region_ids:
        raise _refuse(f"unknown region '{region}'", Reason.UNKNOWN_REGION)
    due = state.refills_due.get(region)
    if due is None:
        waiting = ", ".join(_called(board, r) for r in state.refills_due) or "none"
        raise _refuse(f"no refill is due in {_called(board, region)} (due: {waiting})",
                      Reason.REFILL_NOT_DUE)
    if len(sizes) != due:
        raise _refuse(f"{_called(board, region)} draws {due} castellers at this refill, "
                      f"not {len(sizes)}", Reason.REFILL_COUNT)
    assert state.bag is not None
    new = state.clone()
    new.bag = str(_take(Pool.parse(state.bag), sizes, "the bag"))
    supply = new.regions[region]
    supply.castellers = str(Pool.of([*supply.supply, *sizes]))
    new.refills_due = {r: n for r, n in state.refills_due.items() if r != region}
    return new


def _refill(state: GameState, board: Board) -> None:
    assert state.bag is not None
    rng = random.Random(state.seed * 1009 + state.round)
    bag = sorted(Pool.parse(state.bag))
    for region_id, short in top_up(state, board).items():
        region = state.regions[region_id]
        added = draw(bag, short, rng)
        region.castellers = str(Pool.of([*region.supply, *added]))
    state.bag = str(Pool.of(bag))


def legal_actions(state: GameState, board: Board, rules: Rules,
                  tiles: TileFinder | None = None) -> list[Action]:
    """Every action the current player may take now (claims only when `tiles` finds a tower)."""
    if state.game_over:
        return []
    turn, player = state.turn, state.current
    targets = move_targets(board, rules, player.pawn, special=False)
    actions: list[Action] = []
    can_special = turn.free_special or (not turn.special and player.special_tokens > 0)
    if not turn.free_special:
        actions += _turn_actions(state, board, rules, targets)
    if can_special:
        actions += _special_actions(state, board, rules, tiles)
    return actions


def _turn_actions(state: GameState, board: Board, rules: Rules, targets: list[str]
                  ) -> list[Action]:
    """The turn's own actions still open (a move to `targets`, a recruit, a training) and its
    end."""
    turn, player = state.turn, state.current
    actions: list[Action] = []
    if not turn.moved:
        actions += [Move(to=r) for r in targets]
    if player.pawn is not None and not turn.recruited:
        supply = state.regions[player.pawn].supply
        picks = {pick for n in range(1, RECRUIT_LIMIT + 1)
                 for pick in combinations_with_replacement(supply.sizes, n)
                 if not supply.missing_from(pick)}
        actions += [Recruit(sizes=list(p)) for p in sorted(picks)]
    if not turn.trained:
        actions += [Train(skill=s) for s in trainable(state, board, player)
                    if s != SPECIAL or rules.free_special_is_extra or not turn.special]
    actions.append(EndTurn())
    return actions


def _special_actions(state: GameState, board: Board, rules: Rules, tiles: TileFinder | None
                     ) -> list[Action]:
    """The special actions: a special move, a special recruit, and a claim of each tile in the
    pawn's row that `tiles` finds a tower for."""
    player = state.current
    actions: list[Action] = [Special(kind="move", to=r)
                             for r in move_targets(board, rules, player.pawn, special=True)]
    if player.pawn is not None:
        region = state.regions[player.pawn]
        actions += [Special(kind="recruit", size=s) for s in region.supply.sizes]
        for tile_id in region.performance_tiles if tiles else []:
            tile = board.tile(tile_id)
            assert tiles is not None
            tower = tiles(player.team, player.ranks, tile.spec, rules)
            if tower is not None:
                actions.append(Special(kind="claim", tile=tile_id, tower=str(tower)))
    return actions
