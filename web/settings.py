"""The companion's settings, given to the app when it is made (`create_app(settings=...)`) and
read from `app.state.settings`: no route reads a module global that a test would patch."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class WebSettings:
    """The seconds each question asked from a page may take (the planner's own defaults are
    longer; at the table an answer within seconds is what helps)."""

    plan_time_limit: float = 8.0  # a Castell plan, the advice panel's
    advice_time_limit: float = 5.0  # a Castle Combo action ranking, the advice panel's
    arrange_time_limit: float = 5.0  # a Castle Combo game's best arrangement, once it is over
    # the dp engine answers in milliseconds on any team the rules allow; a safety net only
    best_tower_time_limit: float = 10.0


DEFAULT = WebSettings()
