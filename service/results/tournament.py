"""What `castell tournament` answers: Castell bots against each other, over whole games."""

from __future__ import annotations

from pydantic import Field

from service.results.base import Output, _Part


class Categories(_Part):
    """Mean points per scoring category."""

    best_tower: float
    region_variety: float
    prizes: float
    size_tokens: float
    local_performances: float


class CastellBotStats(_Part):
    games: int
    wins: float = Field(description="A shared win counts 1/k.")
    win_rate: float
    ci95: list[float] = Field(description="The win rate's 95% Wilson interval.")
    mean_score: float
    sd_score: float
    min_score: int
    max_score: int
    mean_margin: float = Field(description="Mean of the final score less the best rival's.")
    categories: Categories
    refused: int = Field(description="Turns in which the referee refused a step (a bot bug: "
                                     "must be 0).")


class SeatStats(CastellBotStats):
    seat: int = Field(description="The place in the turn order (1: the first player), "
                                  "whatever bot sat there.")


class RankStats(_Part):
    rank: int
    players: int = Field(description="Players who ended a game at this rank.")
    win_rate: float
    mean_score: float


class CategoryWins(_Part):
    winners_mean: float = Field(description="The winners' mean points in the category.")
    others_mean: float = Field(description="The other players' mean points in it.")
    winner_has_most: float = Field(description="Share of games whose winner had the most "
                                               "points in it (a tie for the most counts).")


class CastellTournamentOutput(Output):
    """`castell tournament --json`: Castell bots against each other."""

    games: int
    bots: dict[str, CastellBotStats]
    seats: list[SeatStats]
    skills: dict[str, list[RankStats]] = Field(
        description="Per skill and final rank: how the players who ended there fared.")
    categories: dict[str, CategoryWins] = Field(
        description="Per scoring category: what the winners scored in it against the others.")

