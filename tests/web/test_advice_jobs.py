"""The advice jobs (`web.advice_jobs`): one per (game, seat), a seat's next question replaces
its own only; a step stops every seat's job of the game but the plan it followed; the server's
bound counts the other seats' questions. The work here waits for an event the test sets (HANG:
a hang guard)."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest
from fastapi import HTTPException

from web.advice_jobs import Jobs, owner_of
from web.seat_store import KEEPER, Seat, Viewer
from web.solves import SolvePool

HANG = 60.0
ANNA, BIEL = Seat("Anna"), Seat("Biel")


@pytest.fixture
def pool() -> Iterator[SolvePool]:
    made = SolvePool(slots=4, queue=4)
    yield made
    made.stop()


def test_a_job_per_seat_and_a_seats_next_replaces_its_own_only(pool: SolvePool) -> None:
    jobs, go = Jobs(pool), threading.Event()
    anna = jobs.start("g", ANNA, 0, go.wait)
    biel = jobs.start("g", BIEL, 0, go.wait)
    again = jobs.start("g", ANNA, 0, go.wait)
    assert anna.cancelled and not biel.cancelled and not again.cancelled
    assert jobs.get("g", ANNA) is again and jobs.get("g", BIEL) is biel
    assert jobs.get("g", None) is None and jobs.get("other", ANNA) is None
    assert jobs.whose("g", biel.id) == BIEL and jobs.whose("g", anna.id) is None
    jobs.cancel("g", BIEL)
    assert biel.cancelled and not again.cancelled
    go.set()


def test_a_step_stops_every_seats_job_but_the_plan_followed(pool: SolvePool) -> None:
    jobs, go = Jobs(pool), threading.Event()
    anna = jobs.start("g", ANNA, 0, lambda: "plan")
    keeper = jobs.start("g", KEEPER, 0, go.wait)
    elsewhere = jobs.start("h", BIEL, 0, go.wait)
    assert anna.done.wait(HANG)
    assert jobs.follow("g", ANNA, anna.id, 0, 0, 1)
    assert not jobs.follow("g", ANNA, anna.id, 0, 1, 2)  # step 0 is played already
    assert not jobs.follow("g", BIEL, anna.id, 1, 1, 2)  # another seat's plan
    jobs.cancel_game("g", ANNA)
    assert keeper.cancelled and not anna.cancelled and not elsewhere.cancelled
    jobs.cancel_game("g")
    assert anna.cancelled
    go.set()


def test_the_bound_counts_the_other_seats_questions(pool: SolvePool) -> None:
    jobs, go = Jobs(pool, running=2), threading.Event()
    jobs.start("g", ANNA, 0, go.wait)
    jobs.start("h", KEEPER, 0, go.wait)
    with pytest.raises(HTTPException) as busy:
        jobs.start("g", BIEL, 0, go.wait)
    assert busy.value.status_code == 503 and jobs.get("g", BIEL) is None
    assert jobs.start("g", ANNA, 0, go.wait) is jobs.get("g", ANNA)  # its own: replaced
    go.set()


def test_whose_advice_a_page_asks() -> None:
    assert owner_of(Viewer(ANNA, host=False, open_table=False)) == ANNA
    assert owner_of(Viewer(KEEPER, host=False, open_table=False)) == KEEPER
    assert owner_of(Viewer(None, host=False, open_table=True)) == KEEPER  # keeps the score
    assert owner_of(Viewer(None, host=True, open_table=False)) is None  # watches
