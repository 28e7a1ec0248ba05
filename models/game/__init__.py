"""The game around the tower: the board file and its region graph, the game state file, dealing,
the skill wheel, the referee (legal actions and their effects), festivals and end scoring. Uses
`models.tower` for the towers; no solver (the referee takes tower finders as arguments)."""

from models.game.actions import (
    ACTION,
    RECRUIT_LIMIT,
    Action,
    EndTurn,
    Move,
    Recruit,
    Special,
    Train,
)
from models.game.board import (
    ALL_REGIONS,
    SPECIAL,
    Board,
    FestivalType,
    PerformanceTile,
    Prize,
    board_from_dict,
    default_board_path,
    load_board,
)
from models.game.contest import (
    DECLINED,
    Choices,
    Entry,
    Outcome,
    TowerFinder,
    apply_outcome,
    resolve_festival,
)
from models.game.deal import Deal, deal_template, game_from_deal, load_deal
from models.game.record import check_census, record, recorded_towers, replay, step, undo
from models.game.referee import (
    IllegalAction,
    apply,
    end_round,
    end_turn,
    legal_actions,
    missing_refills,
    name_festival_tower,
    named_towers,
    refill,
    refills_needed,
    require_refilled,
)
from models.game.regions import NoRoute, RegionGraph, Route, graph_of
from models.game.scoring import CATEGORIES, score_game, score_player, size_token_points
from models.game.setup import casteller_census, draw, new_game
from models.game.state import (
    ActionEntry,
    Competitor,
    FestivalResult,
    FestivalSpace,
    FinalScore,
    History,
    HistoryEntry,
    RefillEntry,
    SizeTokenWinner,
    Standing,
    TowerChoiceEntry,
    GameState,
    PlayerState,
    RegionState,
    TurnState,
    check_against_board,
    load_state,
    state_from_dict,
)
from models.game.wheel import offers, rotation_in_round, slot_tiles, where_offered

__all__ = [
    "DECLINED", "Deal", "deal_template", "game_from_deal", "load_deal", "ActionEntry", "Competitor", "FestivalResult", "FinalScore", "History",
    "HistoryEntry", "RefillEntry", "SizeTokenWinner", "Standing", "TowerChoiceEntry",
    "check_census", "missing_refills", "name_festival_tower", "named_towers", "record",
    "recorded_towers", "refill", "refills_needed", "replay", "require_refilled", "step", "undo",
    "ACTION", "ALL_REGIONS", "CATEGORIES", "RECRUIT_LIMIT", "SPECIAL", "Action", "Board",
    "Choices", "EndTurn", "Entry", "FestivalSpace", "FestivalType", "GameState",
    "IllegalAction", "Move", "NoRoute", "Outcome", "PerformanceTile", "PlayerState", "Prize",
    "Recruit", "RegionGraph", "RegionState", "Route", "Special", "TowerFinder", "Train",
    "TurnState", "apply", "apply_outcome", "board_from_dict", "casteller_census",
    "check_against_board", "default_board_path", "draw", "end_round", "end_turn", "graph_of",
    "legal_actions", "load_board", "load_state", "new_game", "offers", "resolve_festival",
    "rotation_in_round", "score_game", "score_player", "size_token_points", "slot_tiles",
    "state_from_dict", "where_offered",
]
