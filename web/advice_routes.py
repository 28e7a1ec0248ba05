"""Advice one tap away, a seat's own: "What should I do?" asks the turn planner (Castell) or the
action ranking (Castle Combo) for the player to move, in the background under its own cancel
token (`web.advice_jobs`); the seat's page polls for the answer and may cancel it; a step on the
game cancels it too. Only the seat that asked sees its answer or cancels it: another seat's
cancel is refused (403 `not_your_advice`), a page that watches asks nothing (403 `watching`),
and a seat asks only on its own turn (403 `wrong_player`)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Form, HTTPException, Request
from fastapi.responses import HTMLResponse, Response

from models.errors import Reason
from web.advice_jobs import Jobs, owner_of
from web.game_pages import page_of
from web.games import refused
from web.page_response import page
from web.play import FORBIDDEN, StepError, load
from web.seat_routes import WATCHING
from web.seat_store import Seat, Viewer
from web.served import game_file
from web.viewing import Changer, Me

router = APIRouter()
NOT_YOURS = "this advice is another seat's: only the page that asked for it can cancel it"
NOT_YOUR_TURN = "advice is for the player to move: ask on your own turn"


def _answer(request: Request, name: str, me: Viewer) -> HTMLResponse:
    """The panel of `me`'s own advice: thinking, its answer, or nothing (no job)."""
    path, kind = game_file(request, name)
    jobs: Jobs = request.app.state.jobs
    job = jobs.get(name, owner_of(me))
    game = load(path, kind)
    own = page_of(request.app.state.pages, game)
    # each planned turn: its round and its steps (text, reason); the first turn's steps, to
    # its end, are "do this step" one tap each, the later ones only said (asked again then);
    # or the steps ranked by their value, best first (the game's page says which it gives)
    turns: list[tuple[int, list[tuple[str, str]]]] = []
    ranked: list[object] = []
    if job is not None and job.done.is_set() and job.result is not None:
        turns = own.advice_turns(game, job.result)
        ranked = own.ranked(job.result)
    steps = turns[0][1] if turns else []
    finished = bool(steps) and job is not None and job.followed >= len(steps)
    return page(request, "advice.html", {"name": name, "job": job,
                                         "advice_template": own.advice_template,
                                         "revision": game.revision, "steps": steps,
                                         "turns": turns, "later": turns[1:],
                                         "ranked": ranked, "finished": finished,
                                         "acts": me.acts_for(game.to_play()),
                                         "stale": job is not None and not finished and
                                         job.revision != game.revision})


def _refused(request: Request, status: int, message: str, code: str) -> Response:
    """One line with its code (`X-Castell-Code`), in the page's alert line."""
    return refused(request, StepError(status, message, code), "")


def _asker(request: Request, me: Viewer) -> Seat | Response:
    """The seat whose advice this page asks for or cancels, or the refusal of a page that
    watches."""
    seat = owner_of(me)
    if seat is None:
        return _refused(request, FORBIDDEN, WATCHING, "watching")
    return seat


@router.post("/g/{name}/advice", response_class=HTMLResponse)
def ask(request: Request, name: str, me: Changer,
        revision: Annotated[int, Form(ge=0)]) -> Response:
    """Start the seat's advice for the position at `revision` (cancelling its earlier one).
    Asking is guarded like a step: it spends the server's time, and only the seat to move
    (or the scorekeeper) asks."""
    path, kind = game_file(request, name)
    seat = _asker(request, me)
    if not isinstance(seat, Seat):
        return seat
    game = load(path, kind)
    if game.revision != revision:
        raise HTTPException(409, "the game changed: reload")
    if game.game_over:
        raise HTTPException(400, "the game is over")
    if not me.acts_for(game.to_play()):
        return _refused(request, FORBIDDEN, NOT_YOUR_TURN, Reason.WRONG_PLAYER.value)
    limit = page_of(request.app.state.pages, game).advice_time_limit(request.app.state.settings)
    jobs: Jobs = request.app.state.jobs
    jobs.start(name, seat, game.revision, game.advice(limit))
    return _answer(request, name, me)


@router.get("/g/{name}/advice", response_class=HTMLResponse)
def answer(request: Request, name: str, me: Me) -> HTMLResponse:
    return _answer(request, name, me)


@router.post("/g/{name}/advice/cancel", response_class=HTMLResponse)
def cancel(request: Request, name: str, me: Changer,
           job: Annotated[int | None, Form(ge=0)] = None) -> Response:
    """Cancel the seat's own advice (`job`: the one its panel shows; another seat's is
    refused)."""
    game_file(request, name)
    seat = _asker(request, me)
    if not isinstance(seat, Seat):
        return seat
    jobs: Jobs = request.app.state.jobs
    if job is not None and jobs.whose(name, job) not in (None, seat):
        return _refused(request, FORBIDDEN, NOT_YOURS, "not_your_advice")
    jobs.cancel(name, seat)
    own = jobs.get(name, seat)
    if own is not None:
        own.done.wait(2.0)  # a cancelled solve returns its best so far within milliseconds
    return _answer(request, name, me)
