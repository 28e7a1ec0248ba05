"""The game around the tower: the board file and its region graph, the game state file, dealing,
the skill wheel, the referee (legal actions and their effects), festivals and end scoring. Uses
`models.tower` for the towers; no solver (the referee takes tower finders as arguments).

The names are imported on first use, each from its own module (PEP 562): a command that
reads only the board does not build the state, referee and contest models (pydantic models
are built when their module is imported, which is most of a quick command's start-up)."""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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
    from models.game.consistency import check_against_board, load_state
    from models.game.contest import (
        DECLINED,
        Choices,
        Entry,
        Outcome,
        TowerFinder,
        apply_outcome,
        resolve_festival,
        size_token_winner,
    )
    from models.game.deal import Deal, deal_template, game_from_deal, load_deal, parse_deal
    from models.game.notation import format_action, format_step, parse_action, parse_step
    from models.game.reach import (
        can_reach,
        festivals_ahead,
        next_reachable_festival,
        regions_within,
        turns_before,
    )
    from models.game.recording import (
        check_census,
        check_history,
        record,
        recorded_towers,
        replay,
        step,
        undo,
    )
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
        top_up,
    )
    from models.game.regions import NoRoute, RegionGraph, Route, graph_of, move_targets
    from models.game.scoring import CATEGORIES, score_game, score_player, size_token_points
    from models.game.setup import casteller_census, draw, new_game
    from models.game.state import (
        ActionEntry,
        Competitor,
        FestivalResult,
        FestivalSpace,
        FinalScore,
        GameState,
        History,
        HistoryEntry,
        PlayerState,
        RefillEntry,
        RegionState,
        SizeTokenWinner,
        Standing,
        TowerChoiceEntry,
        TurnState,
        state_from_dict,
        state_from_text,
    )
    from models.game.wheel import offers, rotation_in_round, slot_tiles, where_offered

# where each public name lives (the same names as the imports above; a test keeps them equal)
_HOME: dict[str, tuple[str, ...]] = {
    "models.game.actions": (
        "ACTION", "RECRUIT_LIMIT", "Action", "EndTurn", "Move", "Recruit", "Special", "Train",
    ),
    "models.game.board": (
        "ALL_REGIONS", "SPECIAL", "Board", "FestivalType", "PerformanceTile", "Prize",
        "board_from_dict", "default_board_path", "load_board",
    ),
    "models.game.consistency": (
        "check_against_board", "load_state",
    ),
    "models.game.contest": (
        "DECLINED", "Choices", "Entry", "Outcome", "TowerFinder", "apply_outcome",
        "resolve_festival", "size_token_winner",
    ),
    "models.game.deal": (
        "Deal", "deal_template", "game_from_deal", "load_deal", "parse_deal",
    ),
    "models.game.notation": (
        "format_action", "format_step", "parse_action", "parse_step",
    ),
    "models.game.reach": (
        "can_reach", "festivals_ahead", "next_reachable_festival", "regions_within",
        "turns_before",
    ),
    "models.game.recording": (
        "check_census", "check_history", "record", "recorded_towers", "replay", "step", "undo",
    ),
    "models.game.referee": (
        "IllegalAction", "apply", "end_round", "end_turn", "legal_actions", "missing_refills",
        "name_festival_tower", "named_towers", "refill", "refills_needed",
        "require_refilled", "top_up",
    ),
    "models.game.regions": (
        "NoRoute", "RegionGraph", "Route", "graph_of", "move_targets",
    ),
    "models.game.scoring": (
        "CATEGORIES", "score_game", "score_player", "size_token_points",
    ),
    "models.game.setup": (
        "casteller_census", "draw", "new_game",
    ),
    "models.game.state": (
        "ActionEntry", "Competitor", "FestivalResult", "FestivalSpace", "FinalScore", "GameState",
        "History", "HistoryEntry", "PlayerState", "RefillEntry", "RegionState",
        "SizeTokenWinner", "Standing", "TowerChoiceEntry", "TurnState",
        "state_from_dict", "state_from_text",
    ),
    "models.game.wheel": (
        "offers", "rotation_in_round", "slot_tiles", "where_offered",
    ),
}
_WHERE = {name: module for module, names in _HOME.items() for name in names}


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


__all__ = [
    "ACTION",
    "ALL_REGIONS",
    "CATEGORIES",
    "DECLINED",
    "RECRUIT_LIMIT",
    "SPECIAL",
    "Action",
    "ActionEntry",
    "Board",
    "Choices",
    "Competitor",
    "Deal",
    "EndTurn",
    "Entry",
    "FestivalResult",
    "FestivalSpace",
    "FestivalType",
    "FinalScore",
    "GameState",
    "History",
    "HistoryEntry",
    "IllegalAction",
    "Move",
    "NoRoute",
    "Outcome",
    "PerformanceTile",
    "PlayerState",
    "Prize",
    "Recruit",
    "RefillEntry",
    "RegionGraph",
    "RegionState",
    "Route",
    "SizeTokenWinner",
    "Special",
    "Standing",
    "TowerChoiceEntry",
    "TowerFinder",
    "Train",
    "TurnState",
    "apply",
    "apply_outcome",
    "board_from_dict",
    "can_reach",
    "casteller_census",
    "check_against_board",
    "check_census",
    "check_history",
    "deal_template",
    "default_board_path",
    "draw",
    "end_round",
    "end_turn",
    "festivals_ahead",
    "format_action",
    "format_step",
    "game_from_deal",
    "graph_of",
    "legal_actions",
    "load_board",
    "load_deal",
    "load_state",
    "missing_refills",
    "move_targets",
    "name_festival_tower",
    "named_towers",
    "new_game",
    "next_reachable_festival",
    "offers",
    "parse_action",
    "parse_deal",
    "parse_step",
    "record",
    "recorded_towers",
    "refill",
    "refills_needed",
    "regions_within",
    "replay",
    "require_refilled",
    "resolve_festival",
    "rotation_in_round",
    "score_game",
    "score_player",
    "size_token_points",
    "size_token_winner",
    "slot_tiles",
    "state_from_dict",
    "state_from_text",
    "step",
    "top_up",
    "turns_before",
    "undo",
    "where_offered",
]
