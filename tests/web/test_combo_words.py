"""The Castle Combo page in words (issue 52): steps say the card and the place ("buy Copper
Potter into your top-left"), the history reads newest first with turn numbers, and a
face-down card shows nothing of itself to a rival or a spectator (its id included), in the
tableau and in the history; its owner still sees it."""

from __future__ import annotations

import re
from pathlib import Path

from fastapi.testclient import TestClient

from service.combo import ComboGame
from tests.web.conftest import LOCAL, seat_keys


def _page_as(client: TestClient, token: str, key: str | None) -> str:
    with TestClient(client.app, base_url=LOCAL) as phone:
        phone.cookies.set("castell_token", token)
        if key is not None:
            assert phone.get("/g/combo.json/seat", params={"key": key}).status_code < 400
        return phone.get("/g/combo.json").text


def test_a_face_down_card_is_its_owners_alone(lan_client: tuple[TestClient, str],
                                              folder: Path) -> None:
    client, token = lan_client
    keys = seat_keys(client.app, "combo.json")
    with ComboGame.editing(folder / "combo.json") as game:
        owner = game.view().to_play
        flip = next(a for a in game.legal_actions() if str(a).startswith("flip "))
        card = game.state.deck().card(str(flip).split()[1])
        game.step(flip)
        game.save()
    assert owner is not None
    rival = next(p for p in keys if p not in (owner, None))
    mine = _page_as(client, token, keys[owner])
    assert re.search(rf"\b{card.id}\b", mine) and f"took {card.name} face down" in mine
    for page in (_page_as(client, token, keys[rival]), _page_as(client, token, None)):
        assert "face-down" in page and "took a card face down" in page
        assert not re.search(rf"\b{card.id}\b", page), "the face-down card's id is shown"
        assert card.name not in page


def test_steps_and_history_read_in_words_newest_first(client: TestClient,
                                                      folder: Path) -> None:
    with ComboGame.editing(folder / "combo.json") as game:
        deck = game.state.deck()
        bought = []
        for _ in range(3):  # each player's first card, then a second one beside it
            take = next(a for a in game.legal_actions() if str(a).startswith("buy "))
            bought.append(deck.card(str(take).split()[1]).name)
            game.step(take)
        game.save()
    page = client.get("/g/combo.json").text
    labels = re.findall(r'<button type="submit" name="step" value="(?:buy|flip) [^"]*">'
                        r'([^<]*)</button>', page)
    assert labels and all(" at " not in label and not re.search(r"\b[CV]\d\d\b", label)
                          for label in labels)
    assert any(re.search(r"^buy .* (left of|right of|above|below|into your) ", label)
                         for label in labels), labels
    history = page.split('<ol class="history words" reversed>')[1].split("</ol>")[0]
    items = re.findall(r"<li><small>turn (\d+) · [^<]*</small> ([^<]*)</li>", history)
    assert [turn for turn, _ in items] == ["3", "2", "1"]
    assert [words for _, words in items] == [f"bought {name}" for name in bought[::-1]]
