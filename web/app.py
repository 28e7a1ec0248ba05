"""The app: its routes, templates, static files (the package's own, htmx vendored), the LAN
guard and the body bound."""

from __future__ import annotations

import gc
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import jinja2
from fastapi import FastAPI, HTTPException, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates

from web.advice_jobs import Jobs
from web.library import Library
from web.page_cache import Drawn
from web.play import StepError
from web.seat_store import Seats
from web.security import Access, BodyLimit, HostCheck
from web.settings import DEFAULT, WebSettings
from web.solves import SolvePool
from web.step_gate import StepGate

HERE = Path(__file__).parent


def create_app(library: Library, access: Access | None = None, join_url: str | None = None,
               settings: WebSettings = DEFAULT) -> FastAPI:
    """The companion for the games in `library`; `access.token` set: changes need it;
    `settings`: the time limits of the questions a page asks."""
    from web import advice_routes, games, seat_routes, start
    from web.castell import content as castell_content
    from web.castell import routes as castell_routes
    from web.combo import content as combo_content
    from web.combo import routes as combo_routes

    app = FastAPI(title="castell serve", docs_url=None, redoc_url=None, openapi_url=None,
                  lifespan=_lifespan)
    app.state.library = library
    app.state.access = access or Access()
    app.state.join_url = join_url
    app.state.settings = settings
    # every solve a request starts, bounded (`web.solves`); the advice jobs run in it
    app.state.solves = SolvePool(settings.solve_slots, settings.solve_queue)
    app.state.jobs = Jobs(app.state.solves, settings.advice_kept, settings.advice_jobs)
    # the steps waiting for a game's lock, without a worker thread (`web.step_gate`)
    app.state.step_gate = StepGate(settings.step_lock_wait, settings.step_waiters)
    # set when the server stops (`castell serve`'s Ctrl-C or SIGTERM): the event streams end
    app.state.stopping = threading.Event()
    app.state.seats = Seats(library.folder)  # whom each page plays for (`web.seat_store`)
    app.state.drawn = Drawn()  # pages drawn, by what they show (`web.page_cache`)
    # each game's page, for the routes both games share (`web.game_pages`)
    app.state.pages = {"castell": castell_content.PAGE, "combo": combo_content.PAGE}
    # autoescape on for every template: a player's name or a card file's text is never HTML
    # (the templates are the package's own: not looked at again on every page)
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(HERE / "templates"),
                             autoescape=True, undefined=jinja2.StrictUndefined,
                             auto_reload=False)
    app.state.templates = Jinja2Templates(env=env)
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")
    app.include_router(start.router)
    app.include_router(games.router)
    app.include_router(seat_routes.router)
    app.include_router(advice_routes.router)
    app.include_router(castell_routes.router)
    app.include_router(combo_routes.router)

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, error: HTTPException) -> Response:
        # one line, as the CLI would print it; for htmx, shown in the page's alert line
        headers = {"HX-Retarget": "#flash", "HX-Reswap": "innerHTML"}
        if request.headers.get("hx-request"):
            templates = request.app.state.templates
            response: Response = templates.TemplateResponse(
                request, "refused.html", {"message": error.detail, "stale": False},
                status_code=error.status_code, headers=headers)
            return response
        return PlainTextResponse(str(error.detail), status_code=error.status_code)

    @app.exception_handler(StepError)
    async def step_error(request: Request, error: StepError) -> Response:
        return await http_error(request, HTTPException(error.status, error.message))

    @app.exception_handler(RequestValidationError)
    async def bad_input(request: Request, error: RequestValidationError) -> Response:
        # bad input is 400 with one line, as documented (422 is a step the referee refused)
        return await http_error(request, HTTPException(400, _one_line(error)))

    app.add_middleware(BodyLimit, limit=app.state.access.max_body)
    # outermost: a request for another host name is refused before anything reads it
    app.add_middleware(HostCheck, hosts=app.state.access.hosts)
    return app


@asynccontextmanager
async def _lifespan(app: FastAPI) -> AsyncIterator[None]:
    # what the server loaded before its first request (modules, templates, the board) lives
    # as long as the server: kept out of the collector's full passes, which otherwise walk
    # every one of those objects again (70-100 ms, inside whichever step it falls in)
    gc.freeze()
    yield
    gc.unfreeze()  # a process that goes on (a test's) collects them again
    # the server stops: its solves are cancelled and their threads waited for, so that none is
    # inside a solver when the process exits (`web.solves`)
    app.state.solves.stop()
    app.state.seats.flush()


def _one_line(error: RequestValidationError) -> str:
    """A form or query's first wrong field, in words: its name and what is wrong."""
    first = error.errors()[0] if error.errors() else {}
    where = " ".join(str(part) for part in first.get("loc", ())[1:]) or "the request"
    return f"bad input: {where}: {first.get('msg', 'not valid')}"[:200]
