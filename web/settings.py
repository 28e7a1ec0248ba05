"""The companion's settings, given to the app when it is made (`create_app(settings=...)`) and
read from `app.state.settings`: no route reads a module global that a test would patch."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class WebSettings:
    """The seconds each question asked from a page may take (the planner's own defaults are
    longer; at the table an answer within seconds is what helps), and what a server holds at
    once: its solves (`web.solves`), the advice answers it keeps, the steps that wait for a
    game's lock (`web.step_gate`)."""

    plan_time_limit: float = 8.0  # a Castell plan, the advice panel's
    advice_time_limit: float = 5.0  # a Castle Combo action ranking, the advice panel's
    arrange_time_limit: float = 5.0  # a Castle Combo game's best arrangement, once it is over
    # the dp engine answers in milliseconds on any team the rules allow; a safety net only
    best_tower_time_limit: float = 10.0
    # each festival tower a step solves (the end of a round): more than the CLI's default,
    # since a page has no option to give more (proven towers of the whole bag at the highest
    # ranks take well under a second: the net, not the usual)
    festival_time_limit: float = 60.0
    # every solve a request starts (advice, a best tower, a best arrangement, a step's
    # festival towers) runs in one pool of this many threads, with this many more queued;
    # one more is 503 "busy"
    solve_slots: int = 2
    solve_queue: int = 4
    advice_kept: int = 32  # the games whose advice answer is kept (the last asked)
    # a step waits this long in all for a game's lock held elsewhere (then 503 "busy"): in
    # the event loop, without a worker thread, and for what is left of it in its thread (a
    # lock taken again meanwhile); at most `step_waiters` steps of one game wait, one more is
    # 503 at once
    step_lock_wait: float = 5.0
    step_waiters: int = 4
    # advice questions answering or waiting at once, server-wide (one per seat; below the pool's
    # places, so that a best tower still finds one); one more is 503 "busy"
    advice_jobs: int = 4


DEFAULT = WebSettings()
