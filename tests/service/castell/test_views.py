"""service.castell.views: the wheel, the festival preview and the score asked of a game."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from models.game import load_board
from service.castell import Game
from service.castell.views import score, wheel

EXAMPLE = Path(__file__).parents[3] / "examples" / "game" / "round3.json"
BOARD = load_board()


def _at_round(tmp_path: Path, round_: int, over: bool = False) -> Game:
    path = tmp_path / "game.json"
    shutil.copy(EXAMPLE, path)
    data = json.loads(path.read_text())
    data.update(round=round_, game_over=over)
    data["festivals"] = [f for f in data["festivals"] if f["round"] >= round_]
    path.write_text(json.dumps(data))
    return Game.load(path)


def test_the_wheel_in_the_last_round_shows_no_round_after_it(tmp_path: Path) -> None:
    game = _at_round(tmp_path, BOARD.rounds)
    view = wheel(game, None, 3, None)
    assert [r.round for r in view.rounds] == [BOARD.rounds]
    assert not view.game_over


def test_the_wheel_of_a_finished_game_says_so(tmp_path: Path) -> None:
    game = Game.load(EXAMPLE)
    state = game.state.model_copy(update={"round": BOARD.rounds + 1, "game_over": True,
                                          "festivals": []})
    view = wheel(Game.from_state(state, BOARD), None, 3, "width")
    assert view.rounds == [] and view.game_over and view.where == []


def test_the_score_itemises_every_category() -> None:
    game = Game.load(EXAMPLE)
    view = score(game)
    for card, items in zip(view.players, view.items, strict=True):
        assert card.player == items.player
        assert card.best_tower == items.best_tower
        player = game.player(card.player)
        tiles = sum(t.points for t in items.tiles)
        assert card.local_performances == tiles + items.collected_token_points
        assert sum(p.points for p in items.prizes) == card.prizes
        assert items.earned_regions == player.earned_regions
