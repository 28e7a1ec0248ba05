"""The advice panel at the table (issue 37): Castle Combo's actions by the value shown, with
their spread, each row's own "Do this step"; Castell's plan stays after a step, one tap per
further step, until its turn's end (issue 52) or the game changes elsewhere."""

from __future__ import annotations

import html
import re
import time
from collections.abc import Callable

from fastapi.testclient import TestClient

from service.handles import load_handle

FORM = re.compile(r"<form hx-post=\"/g/[^\"]+/step\".*?</form>", re.S)


def _fields(form: str) -> dict[str, str]:
    return {k: html.unescape(v) for k, v in re.findall(r'name="(\w+)" value="([^"]*)"', form)}


def _answered(client: TestClient, name: str) -> str:
    deadline = time.monotonic() + 60
    while "Thinking" in (answer := client.get(f"/g/{name}/advice").text):
        assert time.monotonic() < deadline
        time.sleep(0.1)
    return answer


def _history(client: TestClient, name: str) -> list[str]:
    return client.get(f"/api/g/{name}").json()["history"]


def test_combo_advice_is_sorted_by_its_value_and_each_row_plays_itself(
        client_with: Callable[..., TestClient]) -> None:
    # room for the whole ranking (deterministic work: a quiet machine ends in about 1.5 s); at
    # 2 s a CI run at load 5 left a row unranked
    client = client_with(advice_time_limit=30.0)
    state = client.get("/api/g/combo.json").json()
    client.post("/g/combo.json/advice", data={"revision": state["revision"]})
    answer = _answered(client, "combo.json")
    values = [float(v) for v in re.findall(r"</code> (-?[0-9.]+)", answer)]
    assert len(values) >= 2 and values == sorted(values, reverse=True)
    assert "±" in answer or "(exact)" in answer
    forms = FORM.findall(answer)
    assert len(forms) == len(values)
    second = _fields(forms[1])
    assert client.post("/g/combo.json/step", data=second,
                       follow_redirects=False).status_code == 303
    # the file's own history (the API's words, and the history's as any seat reads it, hide
    # a face-down card: the second row is a flip when the advice found one second best)
    game = load_handle(client.app.state.library.path("combo.json"), "combo")  # type: ignore
    assert game.state.history[-1].action == second["step"]


def _ask(client: TestClient, name: str) -> str:
    state = client.get(f"/api/g/{name}").json()
    assert client.post(f"/g/{name}/advice", data={"revision": state["revision"]}
                       ).status_code == 200
    return _answered(client, name)


def test_the_castell_plan_is_played_one_tap_a_step_to_its_turns_end_and_no_further(
        client_with: Callable[..., TestClient]) -> None:
    """Regression (issue 52): the plan had no end of its turn, and "Do this step" went from
    this turn's last step to the next turn's first (played early, or refused). Now the plan's
    steps are this turn's, "End the turn" the last; after it the panel offers nothing more."""
    client = client_with(plan_time_limit=4.0)
    mover = client.get("/api/g/round3.json").json()
    answer = _ask(client, "round3.json")
    # the default advice plays to win, and says what it assumes (the rivals' answers among it)
    assert "(win, " in answer and "What the plan assumes" in answer
    assert "This turn (round 3)" in answer and "End the turn" in answer
    assert "Chance to win from here: about " in answer  # the plan starts with this turn
    played = []
    while forms := FORM.findall(answer):
        assert len(forms) == 1, "one step to do at a time"
        fields = _fields(forms[0])
        assert fields["plan"].endswith(f":{len(played)}")
        assert client.post("/g/round3.json/step", data=fields,
                           follow_redirects=False).status_code == 303
        played.append(fields["step"])
        answer = client.get("/g/round3.json/advice").text
        assert answer.count("(done)") == len(played) and "changed since" not in answer
        assert len(played) < 12, "the plan's steps go on past its turn's end"
    assert played[-1] == "end" and "end" not in played[:-1]
    assert "plan is done: ask again on your next turn." in answer
    assert "later turns" not in answer  # nothing more of the plan
    assert _history(client, "round3.json")[-len(played):] == played
    after = client.get("/api/g/round3.json").json()
    assert after["revision"] == mover["revision"] + len(played)


def test_a_plan_behind_a_step_from_elsewhere_says_so_and_offers_no_step(
        client_with: Callable[..., TestClient]) -> None:
    client = client_with(plan_time_limit=4.0)
    answer = _ask(client, "round3.json")
    fields = _fields(FORM.findall(answer)[0])
    assert client.post("/g/round3.json/step", data=fields,
                       follow_redirects=False).status_code == 303
    # a step from elsewhere (not the plan's: round 3 goes on, there is always one)
    state = client.get("/api/g/round3.json").json()
    assert client.post("/g/round3.json/step", data={"revision": state["revision"],
                                                    "step": state["legal"][-1]},
                       follow_redirects=False).status_code == 303
    answer = client.get("/g/round3.json/advice").text
    assert "The game changed since this advice: ask again." in answer
    assert not FORM.findall(answer) and "(done)" not in answer
