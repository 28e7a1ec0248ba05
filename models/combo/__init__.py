"""Castle Combo's rules core (rules page `combo-rules.md`): the card file and the invented sample
deck, tableau placement and notation, exact end scoring with the purse allocator, the game state
file and the referee. No solver, and no Castell types."""

from models.combo.actions import (
    Action,
    Key,
    Reveal,
    Take,
    as_typed,
    format_action,
    group_words,
    parse_action,
)
from models.combo.cards import (
    CELLS,
    LOCATIONS,
    SHIELDS,
    Card,
    Count,
    Effect,
    Location,
    Score,
    Shield,
    effect_file,
    walk,
)
from models.combo.counting import View, count
from models.combo.deck import (
    ALL_ABILITY_FORMS,
    ALL_SCORE_FORMS,
    PUBLISHED,
    SAMPLE,
    Deck,
    deck_from_dict,
    deck_stats,
    forms_used,
    load_deck,
    sample_path,
)
from models.combo.purses import Allocation, Purse, allocate, allocate_exhaustive
from models.combo.referee import (
    FinalScore,
    IllegalAction,
    apply,
    discount,
    drawn,
    final_scores,
    legal_actions,
    neighbours,
    other,
    pending_reveals,
    play,
    price,
    replay_problem,
    rewind,
    undo,
    winners,
)
from models.combo.rules import (
    CARDS_EACH,
    MAX_PLAYERS,
    MIN_PLAYERS,
    READINGS,
    ROW_SIZE,
    ComboRules,
)
from models.combo.scoring import (
    MAX_GOLD,
    MAX_KEYS,
    CardScore,
    ScoreSheet,
    describe,
    score_tableau,
)
from models.combo.state import (
    GameState,
    HistoryEntry,
    Placed,
    PlayerState,
    Table,
    load_state,
    new_game,
    recorded_game,
    state_from_dict,
)
from models.combo.tableau import (
    Grid,
    Pos,
    Slot,
    cell_name,
    cell_pos,
    connected,
    legal_cells,
    placement_problem,
    sequence_problem,
    span_ok,
)

__all__ = [
    "ALL_ABILITY_FORMS", "ALL_SCORE_FORMS", "CARDS_EACH", "CELLS", "LOCATIONS", "MAX_GOLD",
    "MAX_KEYS", "MAX_PLAYERS", "MIN_PLAYERS", "PUBLISHED", "READINGS", "ROW_SIZE", "SAMPLE",
    "SHIELDS", "Action", "Allocation", "Card", "CardScore", "ComboRules", "Count", "Deck", "Effect",
    "FinalScore", "GameState", "Grid", "HistoryEntry", "IllegalAction", "Key", "Location", "Placed",
    "PlayerState", "Pos", "Purse", "Reveal", "Score", "ScoreSheet", "Shield", "Slot", "Table",
    "Take", "View", "allocate", "allocate_exhaustive", "apply", "as_typed", "cell_name", "cell_pos",
    "connected", "count", "deck_from_dict", "deck_stats", "describe", "discount", "drawn",
    "effect_file", "final_scores", "format_action", "forms_used", "group_words", "legal_actions",
    "legal_cells", "load_deck", "load_state", "neighbours", "new_game", "other", "parse_action",
    "pending_reveals", "placement_problem", "play", "price", "recorded_game", "replay_problem",
    "rewind", "sample_path", "score_tableau", "sequence_problem", "span_ok", "state_from_dict",
    "undo", "walk", "winners"
]
