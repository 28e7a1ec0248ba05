"""Advice one tap away: "What should I do?" asks the turn planner (Castell) or the action
ranking (Castle Combo) for the player to move, in the background under its own cancel token;
the page polls for the answer and may cancel it; a step on the game cancels it too."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Form, HTTPException, Request
from fastapi.responses import HTMLResponse

from web.pages import turns_of
from web.play import load
from web.render import page
from web.seats import viewer
from web.security import check_change
from web.served import game_file

router = APIRouter()
# the planner's own default is longer; at the table an answer within seconds is what helps
PLAN_TIME_LIMIT = 8.0
ADVICE_TIME_LIMIT = 5.0
TIME_LIMITS = {"castell": PLAN_TIME_LIMIT, "combo": ADVICE_TIME_LIMIT}
RANKED_SHOWN = 5


def _answer(request: Request, name: str) -> HTMLResponse:
    path, kind = game_file(request, name)
    job = request.app.state.jobs.get(name)
    game = load(path, kind)
    # each planned turn: its round and its steps (text, reason); the first is "do this step"
    turns: list[tuple[int, list[tuple[str, str]]]] = []
    if job is not None and job.done.is_set() and job.result is not None:
        turns = turns_of(request.app.state.pages, game, job.result)
    steps = [step for _, listed in turns for step in listed]
    ranked = []  # Castle Combo's actions by the value shown, the unsampled last
    if kind == "combo" and job is not None and job.result is not None:
        ranked = sorted(job.result.ranking,
                        key=lambda a: (a.value is None, -(a.value or 0.0)))[:RANKED_SHOWN]
    return page(request, "advice.html", {"name": name, "job": job, "kind": kind,
                                         "revision": game.revision, "steps": steps,
                                         "turns": turns, "ranked": ranked,
                                         "acts": viewer(request, name).acts_for(game.to_play()),
                                         "stale": job is not None and
                                         job.revision != game.revision})


@router.post("/g/{name}/advice", response_class=HTMLResponse,
             dependencies=[Depends(check_change)])
def ask(request: Request, name: str, revision: Annotated[int, Form(ge=0)]) -> HTMLResponse:
    """Start the advice for the position at `revision` (cancelling the game's earlier one).
    Asking is guarded like a step: it spends the server's time."""
    path, kind = game_file(request, name)
    game = load(path, kind)
    if game.revision != revision:
        raise HTTPException(409, "the game changed: reload")
    if game.game_over:
        raise HTTPException(400, "the game is over")
    request.app.state.jobs.start(name, game.revision, game.advice(TIME_LIMITS[game.kind]))
    return _answer(request, name)


@router.get("/g/{name}/advice", response_class=HTMLResponse)
def answer(request: Request, name: str) -> HTMLResponse:
    return _answer(request, name)


@router.post("/g/{name}/advice/cancel", response_class=HTMLResponse,
             dependencies=[Depends(check_change)])
def cancel(request: Request, name: str) -> HTMLResponse:
    game_file(request, name)
    request.app.state.jobs.cancel(name)
    job = request.app.state.jobs.get(name)
    if job is not None:
        job.done.wait(2.0)  # a cancelled solve returns its best so far within milliseconds
    return _answer(request, name)
