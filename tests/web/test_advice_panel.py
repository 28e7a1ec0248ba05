"""The advice panel at the table (issue 37): Castle Combo's actions by the value shown, with
their spread, each row's own "Do this step"; Castell's plan stays after a step, one tap per
further step, until it is done or the game changes elsewhere."""

from __future__ import annotations

import html
import re
import time
from collections.abc import Callable

from fastapi.testclient import TestClient

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
    client = client_with(advice_time_limit=2.0)
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
    assert _history(client, "combo.json")[-1].endswith(second["step"])


def test_the_castell_plan_stays_one_tap_a_step(client_with: Callable[..., TestClient]) -> None:
    client = client_with(plan_time_limit=4.0)
    state = client.get("/api/g/round3.json").json()
    client.post("/g/round3.json/advice", data={"revision": state["revision"]})
    answer = _answered(client, "round3.json")
    # the default advice plays to win, and says what it assumes (the rivals' answers among it)
    assert "(win, " in answer and "What the plan assumes" in answer
    played = []
    for index in range(2):  # the first two steps of the plan, each from the panel
        forms = FORM.findall(answer)
        assert len(forms) == 1, "one step to do at a time"
        fields = _fields(forms[0])
        assert fields["plan"].endswith(f":{index}")
        assert client.post("/g/round3.json/step", data=fields,
                           follow_redirects=False).status_code == 303
        played.append(fields["step"])
        answer = client.get("/g/round3.json/advice").text
        assert answer.count("(done)") == index + 1 and "changed elsewhere" not in answer
        if "The plan is done" in answer:
            break
    assert _history(client, "round3.json")[-len(played):] == played
    # a step from elsewhere (round 3 goes on: there is always one): the plan says it stops
    state = client.get("/api/g/round3.json").json()
    assert client.post("/g/round3.json/step", data={"revision": state["revision"],
                                                    "step": state["legal"][-1]},
                       follow_redirects=False).status_code == 303
    answer = client.get("/g/round3.json/advice").text
    assert "changed elsewhere" in answer and not FORM.findall(answer)
