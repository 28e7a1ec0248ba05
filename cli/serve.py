"""`castell serve`: the table companion in the browser."""

from __future__ import annotations

import gc
import socket
import threading
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Annotated, Any

import typer

from cli.edge import at_edge, fail, out

if TYPE_CHECKING:
    import uvicorn

LOCALHOST = "127.0.0.1"

# What a client may hold of the server (issue 53: 400 connections sending their headers or
# bodies a byte at a time were all kept): uvicorn's public settings. A request's head is at
# most 16 KiB (h11's bound, applied by naming h11 itself: another parser would ignore it); an
# idle connection between requests is closed after 5 s; beyond 256 open connections or running
# requests a new request gets 503 at once instead of one more task (a table's pages hold one
# event stream each: a few dozen at most), well under a process's usual 1024 open files; a
# queue of 128 connections not yet accepted; no WebSocket (the pages use event streams).
LIMITS: dict[str, Any] = {
    "http": "h11", "h11_max_incomplete_event_size": 16 * 1024, "timeout_keep_alive": 5,
    "limit_concurrency": 256, "backlog": 128, "ws": "none",
    # a stream that does not end within a second of a stop is cancelled
    "timeout_graceful_shutdown": 1,
}


def server_config(app: Any, host: str, port: int) -> uvicorn.Config:
    """The server's settings: the app at `host`:`port`, quiet, within `LIMITS`."""
    import uvicorn

    return uvicorn.Config(app, host=host, port=port, log_level="warning", **LIMITS)


def _lan_address() -> str:
    """The address other devices on the LAN reach this one at (the route out, no packet sent)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 1))
            address: str = probe.getsockname()[0]
        except OSError:
            address = LOCALHOST
    return address


@at_edge
def serve(
    game_files: Annotated[list[Path] | None, typer.Argument(
        metavar="GAME_FILE", help="Game files to serve besides those in --dir.")] = None,
    folder: Annotated[Path, typer.Option(
        "--dir", help="The folder of game files (new games are started here).")] = Path("."),
    host: Annotated[str | None, typer.Option(
        "--host", help="The address to listen on (default 127.0.0.1; with --lan, the LAN "
        "address).")] = None,
    port: Annotated[int, typer.Option("--port", min=1, max=65535)] = 8000,
    lan: Annotated[bool, typer.Option(
        "--lan", help="Listen on the LAN address; changes need the join link's token (a QR "
        "code in the terminal and on the host's screen) and a step a player's seat (each "
        "seat's link on the host's screen).")] = False,
) -> None:
    """Open the table companion in the browser: both games, on every player's screen.

    Every step goes through the same referee as `castell play` (atomic saves, revisions);
    every page updates live, a `castell play` typed in a terminal too. Bound to 127.0.0.1
    unless --lan (a page without a seat then keeps the score for everyone); with --lan,
    viewing is open, every change needs the join token, and a page plays only for its seat:
    open the host link printed here on your own screen to hand out each seat's link or QR
    code (or to keep the score there for everyone).

    Examples:

      castell serve --dir games

      castell serve game.json --lan
    """
    import segno
    import uvicorn

    from web.app import create_app
    from web.library import Library
    from web.security import LOCAL_NAMES, Access
    from web.solves import SolvePool

    if not folder.is_dir():
        fail(f"--dir {folder}: no such folder")
    for file in game_files or []:
        if not file.is_file():
            fail(f"{file}: no such game file")
    # exactly what --host says; without it 127.0.0.1, or the LAN address under --lan
    bind = host if host is not None else _lan_address() if lan else LOCALHOST
    # the names it answers to: this machine's, the address it listens on (every address
    # reaches it at the LAN address too when it listens on all of them)
    hosts = frozenset(LOCAL_NAMES | {bind}
                      | ({_lan_address()} if bind in ("0.0.0.0", "::") else set()))
    # under --lan the join token and host key kept in the folder: a restart locks no phone out
    access = Access.lan(hosts, folder) if lan else Access(hosts=hosts)
    url = f"http://{bind}:{port}/"
    join = f"{url}join?token={access.token}" if access.token else None
    app = create_app(Library(folder, list(game_files or [])), access, join)
    # the collector's full passes walk every object a verified game holds (tens of thousands
    # at round 10): the modules loaded so far are moved out of its sight, and it runs a pass
    # less often, so that a step is not the one that pays for it
    gc.freeze()
    gc.set_threshold(20_000, 20, 50)
    console = out()
    console.print(f"castell serve: open {url}  (Ctrl-C stops)")
    if join is not None:
        # the host's own link first: on the host's screen it shows the join link and each
        # seat's link and QR code (no page served to a guest shows them)
        console.print(f"host link (open it on your own screen only): {url}host?key="
                      f"{access.host_key}")
        console.print(f"join link: {join}")
        segno.make(join, error="m").terminal(compact=True)
    stopping: threading.Event = app.state.stopping
    solves: SolvePool = app.state.solves

    class Server(uvicorn.Server):
        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            # the solves first (each ends within milliseconds, with its best so far; the app's
            # shutdown waits for their threads: none is inside a solver when the process
            # exits, issue 53's "terminate called", exit 134); then the open event streams end,
            # so the server can stop at once
            solves.cancel_all()
            stopping.set()
            super().handle_exit(sig, frame)

    Server(server_config(app, bind, port)).run()
