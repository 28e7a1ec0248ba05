"""A game's routes, whichever game: its page, the fragment that live updates reload, its event
stream, its state for scripts and its steps (each control's one form). Each game's own routes
are in its package (`web.castell.routes`, `web.combo.routes`)."""

from __future__ import annotations

import re
from functools import partial
from typing import Annotated

from fastapi import APIRouter, Form, HTTPException, Query, Request
from fastapi.responses import (
    HTMLResponse,
    JSONResponse,
    RedirectResponse,
    Response,
    StreamingResponse,
)
from starlette.background import BackgroundTask

from models.errors import CastellError
from service.handle import GameHandle, Steps
from web import drawing
from web.advice_jobs import Jobs, owner_of
from web.drawing import FRAGMENT
from web.events import revisions, written
from web.library import Library, NotFound
from web.page_cache import Drawn, file_digest
from web.page_response import page
from web.play import FORBIDDEN, StepError, load, play
from web.seat_routes import WATCHING, listening
from web.seat_store import Seat, Seats, Viewer, device_of
from web.served import game_file
from web.step_gate import StepTurn, time_left
from web.viewing import Changer, Me

router = APIRouter()
WHERE = re.compile(r"^[a-z0-9-]{1,40}$")  # the id of the control a refusal is shown beside
MAX_STEPS = 12  # a form's steps at once (a refill of every region)


def _show(request: Request, name: str, template: str, me: Viewer) -> HTMLResponse:
    library: Library = request.app.state.library
    try:
        digest = file_digest(library.path(name))
    except (NotFound, CastellError, OSError):
        digest = None  # no such game, or unreadable: `game_file` and `load` say which
    drawn: Drawn = request.app.state.drawn
    key = None if digest is None else drawing.key(request, name, template, digest, me)
    body = None if key is None else drawn.get(key)
    if body is not None:
        return HTMLResponse(body)
    path, kind = game_file(request, name)
    try:
        game = load(path, kind)
    except StepError as error:
        raise HTTPException(error.status, error.message) from None
    response = drawing.drawn(request, name, game, template, me)
    if key is not None:
        drawn.put(key, bytes(response.body))
    return response


@router.get("/g/{name}", response_class=HTMLResponse)
def game_page(request: Request, name: str, me: Me) -> HTMLResponse:
    return _show(request, name, "game.html", me)


@router.get("/g/{name}/game", response_class=HTMLResponse)
def game_fragment(request: Request, name: str, me: Me) -> HTMLResponse:
    return _show(request, name, FRAGMENT, me)


@router.get("/g/{name}/events")
def game_events(request: Request, name: str, me: Me,
                since: Annotated[int | None, Query(ge=0)] = None) -> StreamingResponse:
    path, _ = game_file(request, name)
    seats: Seats = request.app.state.seats
    stream = revisions(path, since, request.app.state.stopping)
    return StreamingResponse(listening(stream, seats, name, me.held, device_of(request)),
                             media_type="text/event-stream",
                             headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


@router.get("/api/g/{name}")
def game_json(request: Request, name: str, me: Me) -> JSONResponse:
    """The game's revision, history and legal steps, in the notation (for scripts and tests),
    as `me` sees them: another seat's face-down card shows nothing of itself, as on the page."""
    path, kind = game_file(request, name)
    try:
        game = load(path, kind)
    except StepError as error:
        raise HTTPException(error.status, error.message) from None
    return JSONResponse({"name": name, "kind": kind, "revision": game.revision,
                         "game_over": game.game_over, "history": game.history_lines(me.seat),
                         "legal": game.legal_steps()})


def _done(request: Request, name: str, game: GameHandle,
          made: tuple[HTMLResponse, str] | None, me: Viewer, plan: str = "", before: int = -1
          ) -> Response:
    """After a step: the advice followed or cancelled, then the page drawn before the save
    (htmx), kept for the other screens of this viewer under the text saved."""
    seat = owner_of(me)
    # advice for the position before is stale: every seat's stops (but the plan followed)
    followed = _followed(request, name, seat, plan, before, game.revision)
    request.app.state.jobs.cancel_game(name, seat if followed else None)
    if made is None:
        return RedirectResponse(f"/g/{name}", status_code=303)
    response, saved = made
    drawing.keep(request, name, response, me, saved)
    return response


def _followed(request: Request, name: str, seat: Seat | None, plan: str, before: int,
              after: int) -> bool:
    """The step was the next of the seat's advice panel's plan ("JOB:INDEX"): it goes on."""
    job_id, _, index = plan.partition(":")
    if not (job_id.isdigit() and index.isdigit()):
        return False
    jobs: Jobs = request.app.state.jobs
    return jobs.follow(name, seat, int(job_id), int(index), before, after)


def refused(request: Request, error: StepError, where: str) -> Response:
    """The refusal's one line, for htmx shown beside the control that sent it."""
    response = page(request, "refused.html", {"message": error.message, "code": error.code,
                                              "stale": error.status == 409},
                    status=error.status)
    # a lost race (409) goes to the page's alert line, outside the game: the live update that
    # brings the other step redraws the game, and wiped a message shown beside its control
    beside = WHERE.match(where) and error.status != 409
    response.headers["HX-Retarget"] = f"#err-{where}" if beside else "#flash"
    response.headers["HX-Reswap"] = "innerHTML"
    if error.code:
        response.headers["X-Castell-Code"] = error.code
    return response


def run(request: Request, name: str, me: Viewer, steps: Steps, revision: int, where: str,
        confirm: bool = False, plan: str = "", reopen: bool = False) -> Response:
    """A page's steps for `me` (the request's viewer, `web.viewing`): the game loaded, played
    and saved in one call (`web.play.play`), its fragment drawn for `me` (htmx)."""
    path, kind = game_file(request, name)
    if not steps or len(steps) > MAX_STEPS:
        return refused(request, StepError(400, "no step given"), where)
    if me.watching:
        return refused(request, StepError(FORBIDDEN, WATCHING, "watching"), where)
    try:
        # the fragment is drawn before the save is written (the other screens learn of the
        # write at once: drawn after, it competed with their re-fetches)
        draw = None if not request.headers.get("hx-request") else \
            partial(_drawn_step, request, name, me)
        # a step in hand when the server stops is waited for (a new one is 503); the towers
        # of a festival it holds take places in the server's pool, cancelled at the stop
        solves, settings = request.app.state.solves, request.app.state.settings
        with solves.watched():
            game, made = play(path, kind, steps, revision, wait=time_left(request),
                                  solves=solves, time_limit=settings.festival_time_limit,
                                  confirm=confirm, as_player=me.as_player(), reopen=reopen,
                                  draw=draw)
    except StepError as error:
        return refused(request, error, where)
    answer = _done(request, name, game, made, me, plan, revision)
    # the other screens' streams look at the file once this answer is sent (before it, their
    # wake-up took turns with the answer itself)
    answer.background = BackgroundTask(written, path)
    return answer


def _drawn_step(request: Request, name: str, me: Viewer, game: GameHandle, saved: str
                ) -> tuple[HTMLResponse, str]:
    """A step's fragment for `me`, drawn before its save, and the text saved."""
    return drawing.drawn(request, name, game, FRAGMENT, me), saved


Revision = Annotated[int, Form(ge=0)]
Where = Annotated[str, Form(max_length=40)]


@router.post("/g/{name}/step")
def step(request: Request, name: str, me: Changer, _turn: StepTurn, revision: Revision,
         step: Annotated[str, Form(min_length=1, max_length=300)], where: Where = "",
         confirm: Annotated[bool, Form()] = False,
         plan: Annotated[str, Form(max_length=40)] = "",
         reopen: Annotated[str, Form(max_length=5)] = "") -> Response:
    """One step in the game's notation (a button's value, a typed action); `plan`: the
    advice panel's plan step it is ("JOB:INDEX"); `reopen`: "yes" confirms an undo that
    reopens a finished game."""
    return run(request, name, me, [step], revision, where, confirm, plan, reopen == "yes")
