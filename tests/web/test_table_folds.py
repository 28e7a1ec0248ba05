"""The table page's order (issue 52, board first): the board, then the turn bar with the
advice button and the player's steps, then the folds; the score's totals in its fold's title,
so that they show folded. Read from the HTML the server draws (the browser's view of it is
`tests/web/test_board_first.py`)."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

FOLDS = ["score", "teams", "festivals", "regions", "wheel", "history", "seats"]


def test_castell_page_board_then_turn_then_folds(client: TestClient) -> None:
    page = client.get("/g/round3.json").text
    order = [page.index('class="map"'), page.index('id="turn"'),
             page.index("What should I do?"), page.index('value="end"')]
    order += [page.index(f'id="fold-{fold}"') for fold in FOLDS]
    assert order == sorted(order)
    title = re.search(r'id="fold-score"[^>]*><summary>([^<]*)<', page)
    assert title and title.group(1) == "Score: Anna 0 · Biel 0 · Carla 0"
    # this round's festival, and the tower a player may still name, open at first
    assert re.search(r'id="fold-festivals" open>', page)


def test_castell_map_marks_pawns_festival_and_moves(client: TestClient) -> None:
    page = client.get("/g/round3.json").text
    svg = page[page.index('<svg class="map"'):page.index("</svg>")]
    assert svg.count('class="pawn"') == 3  # Anna, Biel and Carla in Camp de Tarragona
    assert "★ Reus 10" in svg and 'class="spot festival"' in svg
    assert svg.count('role="button"') == 4  # the four regions Carla can move to
    assert svg.count('class="ct ') > 10  # the regions' castellers as tiles


def test_a_watcher_has_no_turn_bar_steps(lan_client: tuple[TestClient, str]) -> None:
    guest, _ = lan_client
    page = guest.get("/g/round3.json").text
    assert 'id="turn" class="turn"' in page and "What should I do?" not in page
    assert 'value="end"' not in page


def test_combo_page_advice_then_rows_then_folds(client: TestClient) -> None:
    page = client.get("/g/combo.json").text
    order = [page.index("What should I do?"), page.index('class="board"'),
             page.index('class="place-card"'), page.index('id="fold-tableaux"'),
             page.index('id="fold-history"'), page.index('id="fold-seats"')]
    assert order == sorted(order)
    title = re.search(r'id="fold-tableaux"[^>]*><summary>([^<]*)<', page)
    assert title and title.group(1) == "Tableaux: Ana 2 · Ben 2"


def _fold_bodies(page: str) -> dict[str, str]:
    """Each lazily drawn fold's body (the seats' fold, a short list, is always drawn)."""
    found = dict(re.findall(r'<details class="fold [^"]*" id="fold-([a-z]+)"[^>]*><summary>'
                           r'[^<]*</summary>\s*<div class="fold-body">(.*?)</div>\s*</details>',
                           page, re.S))
    return {fold: body for fold, body in found.items() if fold != "seats"}


def test_a_fold_closed_on_the_screen_is_drawn_as_its_title(client: TestClient) -> None:
    """A page's script names the folds open on its screen (`X-Folds`); the others are drawn
    as their titles alone, and whole once opened (the page asks again). The festivals' fold,
    open at first this round, is drawn whole; a request that names none draws them all."""
    whole = client.get("/g/round3.json/game").text
    closed = client.get("/g/round3.json/game", headers={"X-Folds": ""}).text
    one = client.get("/g/round3.json/game", headers={"X-Folds": "fold-wheel fold-seats"}).text
    assert all(body.strip() for body in _fold_bodies(whole).values())
    bodies = _fold_bodies(closed)
    assert {f for f, body in bodies.items() if body.strip()} == {"festivals"}
    assert closed.count("data-unfilled") == 5 and "Skill wheel" in closed
    bodies = _fold_bodies(one)
    assert {f for f, body in bodies.items() if body.strip()} == {"festivals", "wheel"}
    assert _fold_bodies(one)["wheel"] == _fold_bodies(whole)["wheel"]
    title = re.search(r'id="fold-history"[^>]*><summary>([^<]*)<', closed)
    assert title and title.group(1) == re.search(
        r'id="fold-history"[^>]*><summary>([^<]*)<', whole).group(1)  # type: ignore[union-attr]


def test_a_castle_combo_fold_closed_on_the_screen_is_drawn_as_its_title(
        client: TestClient) -> None:
    closed = client.get("/g/combo.json/game", headers={"X-Folds": "fold-history"}).text
    bodies = _fold_bodies(closed)
    assert not bodies["tableaux"].strip() and bodies["history"].strip()


def test_every_fold_of_the_templates_is_one_a_screen_can_open() -> None:
    """A fold whose id `web.drawing.FOLDS` lacks would never be drawn for a page's script."""
    from pathlib import Path

    from web.drawing import FOLDS

    templates = Path(__file__).resolve().parents[2] / "web" / "templates"
    ids = {found for path in templates.glob("*.html")
           for found in re.findall(r'call fold\("([a-z]+)"', path.read_text(encoding="utf-8"))}
    assert ids == FOLDS


def test_the_folds_a_request_names_are_bounded_to_the_page_s_own(client: TestClient) -> None:
    """Junk, unknown folds and a header past its bound name no fold (each set of open folds
    is a page drawn and kept: a request cannot make more kinds than the page has folds)."""
    from types import SimpleNamespace

    from web.drawing import FOLDS, open_folds

    closed = client.get("/g/round3.json/game", headers={"X-Folds": ""}).text
    for junk in ("fold-../../etc fold-<script>", "fold-nothere", "x" * 5000 + " fold-wheel"):
        assert client.get("/g/round3.json/game", headers={"X-Folds": junk}).text == closed

    every = " ".join(f"fold-{fold}" for fold in sorted(FOLDS)) + " fold-seats"
    asked = SimpleNamespace(headers={"x-folds": every})
    assert open_folds(asked) == FOLDS  # type: ignore[arg-type]
