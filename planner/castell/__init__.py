"""Castell bots and tournaments: policies that play whole turns from what their player sees
(`random`, `greedy`, the panel of rival styles `PANEL`, and `advisor`, `score`, `festival`: the
advice of `castell plan`), and seeded games between them, every step through the referee
(`models.game`)."""

from planner.castell.bots import BOTS, Advisor, random_bot
from planner.castell.greedy import WEIGHTS, Weights, greedy_bot, greedy_turn, value
from planner.castell.panel import (
    PANEL,
    PANEL_BOTS,
    STYLES,
    NoisyBot,
    NoisyRivals,
    StyleBot,
    noisy_turn,
    panel_rivals,
)
from planner.castell.record import SKILLS, GameRecord
from planner.castell.rivals import GREEDY_RIVALS, GreedyRivals
from planner.castell.tournament import (
    CASTELL,
    Setup,
    Summary,
    check_bots,
    deal_seed,
    games,
    play_game,
    seats,
    slacked,
    summarise,
)
from planner.castell.tournament import run as run_tournament
from planner.castell.turn import (
    Bot,
    Played,
    SeatTurns,
    TowerSearchUnfinished,
    Turn,
    end_states,
    festival_finder,
    plan_towers,
    play_turn,
    seen,
    tile_finder,
    turn_of,
    turn_steps,
)
from planner.stats import wilson

__all__ = [
    "BOTS",
    "CASTELL",
    "GREEDY_RIVALS",
    "PANEL",
    "PANEL_BOTS",
    "SKILLS",
    "STYLES",
    "WEIGHTS",
    "Advisor",
    "Bot",
    "GameRecord",
    "GreedyRivals",
    "NoisyBot",
    "NoisyRivals",
    "Played",
    "SeatTurns",
    "Setup",
    "StyleBot",
    "Summary",
    "TowerSearchUnfinished",
    "Turn",
    "Weights",
    "check_bots",
    "deal_seed",
    "end_states",
    "festival_finder",
    "games",
    "greedy_bot",
    "greedy_turn",
    "noisy_turn",
    "panel_rivals",
    "plan_towers",
    "play_game",
    "play_turn",
    "random_bot",
    "run_tournament",
    "seats",
    "seen",
    "slacked",
    "summarise",
    "tile_finder",
    "turn_of",
    "turn_steps",
    "value",
    "wilson",
]
