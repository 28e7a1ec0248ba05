"""Castell's best tower and its "Name this tower" (issue 52): the best tower is asked for the
festival where the player's pawn stands this round (it took the first festival they could
reach), and naming it is offered only there (it was offered for a festival elsewhere, or in a
later round, and then refused)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from fastapi.testclient import TestClient

from service.castell import Game

FORM = re.compile(r'<form class="control"[^>]*action="/g/[^/"]*/festival-tower".*?</form>', re.S)


def _variant(folder: Path, name: str, pawn: str, terrassa_round: int) -> str:
    """round3.json with the player to move's pawn in `pawn` (their pool and skills swapped
    with Anna's, so that a tower of theirs can compete), Terrassa's festival (Barcelona) in
    `terrassa_round`, and Terrassa's and Manresa's size tokens those of Reus."""
    data = json.loads((folder / "round3.json").read_text())
    mover = Game.load(folder / "round3.json").to_play()
    reus = next(f for f in data["festivals"] if f["location"] == "Reus")
    for festival in data["festivals"]:
        if festival["location"] in ("Terrassa", "Manresa"):
            festival["size_tokens"] = reus["size_tokens"]
        if festival["location"] == "Terrassa":
            festival["round"] = terrassa_round
    anna = next(p for p in data["players"] if p["name"] == "Anna")
    moving = next(p for p in data["players"] if p["name"] == mover)
    for key in ("pool", "skills"):  # swapped: the castellers in the game stay the same
        anna[key], moving[key] = moving[key], anna[key]
    moving["pawn"] = pawn
    (folder / name).write_text(json.dumps(data))
    assert mover is not None
    return mover


def test_the_best_tower_is_for_the_festival_where_the_pawn_stands(client: TestClient,
                                                                   folder: Path) -> None:
    mover = _variant(folder, "two.json", "barcelona", 3)  # Reus and Terrassa this round
    drawn = client.get("/g/two.json/best-tower", params={"player": mover}).text
    assert "best tower for Terrassa (round 3" in drawn
    form = FORM.search(drawn)
    assert form is not None
    fields = dict(re.findall(r'name="(\w+)" value="([^"]*)"', form.group(0)))
    assert fields["location"] == "Terrassa"
    named = client.post("/g/two.json/festival-tower", data=fields, follow_redirects=False)
    assert named.status_code == 303, named.text


def test_no_name_this_tower_where_the_pawn_is_not(client: TestClient, folder: Path) -> None:
    mover = _variant(folder, "away.json", "barcelona", 5)  # no festival in Barcelona now
    drawn = client.get("/g/away.json/best-tower", params={"player": mover}).text
    assert "best tower for" in drawn and 'class="tower"' in drawn
    assert FORM.search(drawn) is None and "Name this tower" not in drawn
