"""Castle Combo's one view of a game (`ComboGame.view`, `combo show --json`): every card in
words, the tableaux with face-down cards marked, the legal steps labelled."""

from __future__ import annotations

from models.combo import Take, legal_actions, load_deck, new_game
from service.combo import ComboGame


def _flipped() -> ComboGame:
    """A game where the first player has flipped a card face down."""
    game = ComboGame.from_state(new_game(load_deck(), ["Ana", "Ben"], 3, first="Ana"))
    flip = next(a for a in game.legal_actions() if isinstance(a, Take) and a.face_down)
    game.step(flip)
    return game


def test_a_flipped_card_is_face_down_in_the_view() -> None:
    view = _flipped().view()
    ana = next(t for t in view.tableaux if t.player == "Ana")
    cells = [c for row in ana.cells for c in row if c is not None]
    assert len(cells) == 1 and cells[0].face_down
    assert cells[0].card not in view.cards  # a card's back: no text of it is shown


def test_every_card_is_in_words_and_every_step_is_labelled() -> None:
    game = _flipped()
    view = game.view()
    for loc, row in view.rows.items():
        for card_id in row:
            assert card_id is not None and view.cards[card_id].location == loc
    assert all("=" not in c.ability and "[" not in c.ability for c in view.cards.values())
    steps = [a.step for a in view.actions]
    assert steps == [str(a) for a in legal_actions(game.state)]
    take = next(a for a in view.actions if a.kind == "take")
    assert take.card is not None and view.cards[take.card].name in take.label
    assert take.label.startswith(("buy ", "take "))
