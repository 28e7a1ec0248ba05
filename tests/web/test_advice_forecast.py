"""The advice page shows the plan's festival forecast: the opponents who could get there."""

from __future__ import annotations

import time
from collections.abc import Callable

from fastapi.testclient import TestClient

from web.seat_store import KEEPER


def test_the_advice_shows_the_forecast_of_each_festival_it_competes_in(
        client_with: Callable[..., TestClient]) -> None:
    client = client_with(plan_time_limit=20.0)
    state = client.get("/api/g/round3.json").json()
    client.post("/g/round3.json/advice", data={"revision": state["revision"]})
    deadline = time.monotonic() + 60
    while "Thinking" in (answer := client.get("/g/round3.json/advice").text):
        assert time.monotonic() < deadline
        time.sleep(0.2)
    # the open table's page keeps the score: its advice is the scorekeeper's
    job = client.app.state.jobs.get("round3.json", KEEPER)  # type: ignore[attr-defined]
    assert job is not None and job.result is not None and job.result.forecast
    for forecast in job.result.forecast:
        assert f"{forecast.location}, round {forecast.round}: your {forecast.score}" in answer
        for rival in forecast.rivals:
            assert rival.player in answer
        if forecast.rivals and forecast.size_tokens:
            assert "size tokens you would take" in answer
