"""The new Castell game's form with a typed deal (issue 52): a refusal is drawn beside the
field it is about, inside the form (it was the page's alert line, 2,500 px above the button),
each problem of the deal on its own line with the line of the deal it is on (the form promised
line numbers it did not give), with no bogus "0 castellers" after a pool that is not one, and
what was typed kept."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from web.start import _line_of, _template, deal_problems

HTMX = {"hx-request": "true"}


def _post(client: TestClient, deal: str, rules: str = "standard") -> tuple[int, str, str]:
    answer = client.post("/new/castell", headers=HTMX,
                         data={"file": "typed", "players": "Anna,Biel,Carla", "deal": deal,
                               "deal_kind": "typed", "rules": rules})
    return answer.status_code, answer.headers.get("hx-retarget", ""), answer.text


def test_a_deals_problems_are_beside_the_deal_with_their_lines(client: TestClient) -> None:
    template = _template()
    deal = template.replace('Biel = "', 'Biel = "zz,', 1)
    status, target, form = _post(client, deal)
    assert status == 400 and target == "#new-castell"
    assert '<form id="new-castell"' in form
    shown = re.search(r'<ul class="err field-err" id="err-castell-deal"[^>]*>(.*?)</ul>', form,
                      re.S)
    assert shown is not None
    biel = next(n for n, line in enumerate(deal.splitlines(), 1) if line.startswith("Biel"))
    assert re.findall(r"<li>(.*?)</li>", shown.group(1)) == [
        f"line {biel}: players.Biel: &#39;zz&#39; in pool &#39;zz,10x2,7,6,3,1x2&#39; is not "
        "a casteller size"]
    assert "0 castellers" not in form
    # beside the deal, before the button; what was typed kept, the typed deal still chosen
    assert form.index("err-castell-deal") < form.index('<button type="submit">')
    assert "zz,10x2" in form and 'value="typed" checked' in form


def test_a_readings_error_is_beside_the_readings(client: TestClient) -> None:
    status, _, form = _post(client, _template(), rules="nonsense=1")
    assert status == 400 and 'id="err-castell-rules"' in form and "err-castell-deal" not in form
    assert form.index('name="rules"') < form.index("err-castell-rules") < form.index("<fieldset")


def test_a_taken_file_name_is_beside_the_file_name(client: TestClient) -> None:
    answer = client.post("/new/castell", headers=HTMX,
                         data={"file": "castell.json", "players": "Anna,Biel",
                               "deal_kind": "seeded"})
    assert answer.status_code == 409 and 'id="err-castell-file"' in answer.text
    assert "exists already" in answer.text


def test_without_htmx_the_refusal_is_its_one_line(client: TestClient) -> None:
    answer = client.post("/new/castell", data={"file": "x", "players": "Anna,Biel,Carla",
                                               "deal": "", "deal_kind": "typed"})
    assert answer.status_code == 400 and answer.text == "the real deal is empty: fill in " \
        "the template"


def test_a_problems_line_is_found_by_its_path() -> None:
    text = ('[players]\nAnna = "1"\n\n[regions.lleida]  # Lleida\ncastellers = "9"\n'
            '[[festivals]]\nround = 3\n[[festivals]]\nround = 4\nlocation = "Vic"\n')
    assert _line_of(text, ["players", "Anna"]) == 2
    assert _line_of(text, ["regions", "lleida", "castellers"]) == 5
    assert _line_of(text, ["regions", "lleida", "performance_tiles", "0"]) == 4
    assert _line_of(text, ["festivals", "1", "location"]) == 10
    assert _line_of(text, ["wheel"]) is None
    assert deal_problems("deal: players.Anna: bad; castellers: too many", text) == [
        "line 2: players.Anna: bad", "castellers: too many"]
