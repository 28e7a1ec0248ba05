"""A game's routes: its page, the fragment that live updates reload, its event stream, its
steps (each control's one form) and a dry run for the tower builder."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated

from fastapi import APIRouter, Depends, Form, HTTPException, Query, Request
from fastapi.responses import (
    HTMLResponse,
    JSONResponse,
    RedirectResponse,
    Response,
    StreamingResponse,
)

from models.combo import format_action as combo_action
from models.errors import CastellError
from models.game import format_action, format_step
from service.castell import Game
from service.combo import ComboGame
from web import castell_page, combo_page
from web.app import page
from web.events import revisions
from web.library import Kind, Library, NotFound, kind_of
from web.play import StepError, Steps, load, play
from web.security import check_change

router = APIRouter()
WHERE = re.compile(r"^[a-z0-9-]{1,40}$")  # the id of the control a refusal is shown beside
MAX_STEPS = 12  # a form's steps at once (a refill of every region)


def game_file(request: Request, name: str) -> tuple[Path, Kind]:
    library: Library = request.app.state.library
    try:
        path = library.path(name)
    except NotFound:
        raise HTTPException(404, f"no game called '{name}' here") from None
    kind = kind_of(path)
    if kind is None:
        raise HTTPException(404, f"'{name}' is not a game file")
    return path, kind


def context(game: Game | ComboGame, name: str) -> dict[str, object]:
    if isinstance(game, Game):
        return castell_page.context(game, name)
    return combo_page.context(game, name)


def _show(request: Request, name: str, template: str) -> HTMLResponse:
    path, kind = game_file(request, name)
    try:
        game = load(path, kind)
    except StepError as error:
        raise HTTPException(error.status, error.message) from None
    job = request.app.state.jobs.get(name)
    return page(request, template, {**context(game, name), "job": job})


@router.get("/g/{name}", response_class=HTMLResponse)
def game_page(request: Request, name: str) -> HTMLResponse:
    return _show(request, name, "game.html")


@router.get("/g/{name}/game", response_class=HTMLResponse)
def game_fragment(request: Request, name: str) -> HTMLResponse:
    return _show(request, name, "game_fragment.html")


@router.get("/g/{name}/events")
def game_events(request: Request, name: str, since: Annotated[int, Query(ge=0)] = 0
                ) -> StreamingResponse:
    path, _ = game_file(request, name)
    return StreamingResponse(revisions(path, since, request.app.state.stopping),
                             media_type="text/event-stream",
                             headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


@router.get("/api/g/{name}")
def game_json(request: Request, name: str) -> JSONResponse:
    """The game's revision, history and legal steps, in the notation (for scripts and tests)."""
    path, kind = game_file(request, name)
    try:
        game = load(path, kind)
    except StepError as error:
        raise HTTPException(error.status, error.message) from None
    if isinstance(game, Game):
        entries = game.state.history.entries if game.state.history else []
        legal = [format_action(a, game.board) for a in game.legal_actions()]
        history = [format_step(e, game.board) for e in entries]
        over = game.state.game_over
    else:
        legal = [combo_action(a) for a in game.legal_actions()]
        history = [e.action for e in game.state.history]
        over = game.state.now.game_over
    return JSONResponse({"name": name, "kind": kind, "revision": game.revision,
                         "game_over": over, "history": history, "legal": legal})


def _done(request: Request, name: str, revision: int) -> Response:
    request.app.state.jobs.cancel(name)  # advice for the position before the step is stale
    if not request.headers.get("hx-request"):
        return RedirectResponse(f"/g/{name}", status_code=303)
    return _show(request, name, "game_fragment.html")


def _refused(request: Request, error: StepError, where: str) -> Response:
    """The refusal's one line, for htmx shown beside the control that sent it."""
    response = page(request, "refused.html", {"message": error.message, "code": error.code,
                                              "stale": error.status == 409},
                    status=error.status)
    response.headers["HX-Retarget"] = f"#err-{where}" if WHERE.match(where) else "#flash"
    response.headers["HX-Reswap"] = "innerHTML"
    if error.code:
        response.headers["X-Castell-Code"] = error.code
    return response


def _run(request: Request, name: str, steps: Steps, revision: int, where: str,
         confirm: bool = False) -> Response:
    path, kind = game_file(request, name)
    if not steps or len(steps) > MAX_STEPS:
        return _refused(request, StepError(400, "no step given"), where)
    try:
        new = play(path, kind, steps, revision, confirm)
    except StepError as error:
        return _refused(request, error, where)
    return _done(request, name, new)


Revision = Annotated[int, Form(ge=0)]
Where = Annotated[str, Form(max_length=40)]


@router.post("/g/{name}/step", dependencies=[Depends(check_change)])
def step(request: Request, name: str, revision: Revision,
         step: Annotated[str, Form(min_length=1, max_length=300)], where: Where = "",
         confirm: Annotated[bool, Form()] = False) -> Response:
    """One step in the game's notation (a button's value, a typed action)."""
    return _run(request, name, [step], revision, where, confirm)


@router.post("/g/{name}/claim", dependencies=[Depends(check_change)])
def claim(request: Request, name: str, revision: Revision,
          tile: Annotated[str, Form(min_length=1, max_length=20)],
          tower: Annotated[str, Form(min_length=1, max_length=200)], where: Where = ""
          ) -> Response:
    """A special claim with the tower the builder holds."""
    return _run(request, name, [["special", "claim", tile, tower]], revision, where)


@router.post("/g/{name}/festival-tower", dependencies=[Depends(check_change)])
def festival_tower(request: Request, name: str, revision: Revision,
                   player: Annotated[str, Form(min_length=1, max_length=60)],
                   location: Annotated[str, Form(min_length=1, max_length=80)],
                   tower: Annotated[str, Form(max_length=200)] = "",
                   competing: Annotated[str, Form(max_length=5)] = "yes",
                   where: Where = "") -> Response:
    """The tower `player` names for the festival at `location` (or not competing)."""
    named = "none" if competing == "no" or not tower.strip() else tower
    return _run(request, name, [["festival-tower", player, location, named]], revision, where)


@router.post("/g/{name}/refill", dependencies=[Depends(check_change)])
async def refill(request: Request, name: str) -> Response:
    """Every region's real draw at once (`refill-REGION_ID` = the sizes drawn), one write."""
    form = await request.form()
    path, kind = game_file(request, name)
    where = str(form.get("where", "refill"))
    try:
        revision = int(str(form.get("revision", "")))
    except ValueError:
        return _refused(request, StepError(400, "revision: a whole number"), where)
    game = load(path, kind)
    if not isinstance(game, Game):
        raise HTTPException(404, "a Castle Combo game has no refills")
    names = {r.id: r.name for r in game.board.regions}
    steps: list[list[str]] = []
    for key, value in form.multi_items():
        region = key.removeprefix("refill-")
        if key.startswith("refill-") and region in names:
            steps.append(["refill", names[region], str(value)])
    return _run(request, name, steps, revision, where)


@router.get("/g/{name}/try", response_class=HTMLResponse)
def try_step(request: Request, name: str, tile: Annotated[str, Query(max_length=20)],
             tower: Annotated[str, Query(max_length=200)]) -> HTMLResponse:
    """The tower builder's live check: the claim tried by the referee on a copy, nothing
    written; its reason when refused."""
    path, kind = game_file(request, name)
    message: str | None = None
    game = load(path, kind) if kind == "castell" else None
    if not isinstance(game, Game):
        raise HTTPException(404, "no tower builder in Castle Combo")
    try:
        game.step(["special", "claim", tile, tower or "?"])
    except CastellError as error:  # the referee's refusal, or a tower that cannot be read
        message = str(error)
    return page(request, "tower_check.html", {"message": message, "tower": tower})


