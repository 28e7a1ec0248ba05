"""Advice one tap away: "What should I do?" asks the turn planner (Castell) or the action
ranking (Castle Combo) for the player to move, in the background under its own cancel token;
the page polls for the answer and may cancel it; a step on the game cancels it too."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Form, HTTPException, Request
from fastapi.responses import HTMLResponse

from web.game_pages import page_of
from web.page_response import page
from web.play import load
from web.seat_store import Viewer
from web.served import game_file
from web.viewing import Changer, Me

router = APIRouter()


def _answer(request: Request, name: str, me: Viewer) -> HTMLResponse:
    path, kind = game_file(request, name)
    job = request.app.state.jobs.get(name)
    game = load(path, kind)
    own = page_of(request.app.state.pages, game)
    # each planned turn: its round and its steps (text, reason); the first is "do this step";
    # or the steps ranked by their value, best first (the game's page says which it gives)
    turns: list[tuple[int, list[tuple[str, str]]]] = []
    ranked: list[object] = []
    if job is not None and job.done.is_set() and job.result is not None:
        turns = own.advice_turns(game, job.result)
        ranked = own.ranked(job.result)
    steps = [step for _, listed in turns for step in listed]
    return page(request, "advice.html", {"name": name, "job": job,
                                         "advice_template": own.advice_template,
                                         "revision": game.revision, "steps": steps,
                                         "turns": turns, "ranked": ranked,
                                         "acts": me.acts_for(game.to_play()),
                                         "stale": job is not None and
                                         job.revision != game.revision})


@router.post("/g/{name}/advice", response_class=HTMLResponse)
def ask(request: Request, name: str, me: Changer,
        revision: Annotated[int, Form(ge=0)]) -> HTMLResponse:
    """Start the advice for the position at `revision` (cancelling the game's earlier one).
    Asking is guarded like a step: it spends the server's time."""
    path, kind = game_file(request, name)
    game = load(path, kind)
    if game.revision != revision:
        raise HTTPException(409, "the game changed: reload")
    if game.game_over:
        raise HTTPException(400, "the game is over")
    limit = page_of(request.app.state.pages, game).advice_time_limit(request.app.state.settings)
    request.app.state.jobs.start(name, game.revision, game.advice(limit))
    return _answer(request, name, me)


@router.get("/g/{name}/advice", response_class=HTMLResponse)
def answer(request: Request, name: str, me: Me) -> HTMLResponse:
    return _answer(request, name, me)


@router.post("/g/{name}/advice/cancel", response_class=HTMLResponse)
def cancel(request: Request, name: str, me: Changer) -> HTMLResponse:
    game_file(request, name)
    request.app.state.jobs.cancel(name)
    job = request.app.state.jobs.get(name)
    if job is not None:
        job.done.wait(2.0)  # a cancelled solve returns its best so far within milliseconds
    return _answer(request, name, me)
