"""New games: the readings chosen, a real deal's card ids and who starts read as typed."""

from __future__ import annotations

from pathlib import Path

import pytest

from models.combo import load_state
from models.errors import SpecError
from service.combo.new import readings, start_game, write_new


def test_a_recorded_deal_reads_ids_and_the_first_player_as_typed(tmp_path: Path) -> None:
    deal = tmp_path / "deal.toml"
    deal.write_text('castle = ["c01", "C02", "C03"]\nvillage = ["V01", "v02", "V03"]\n',
                    encoding="utf-8")
    state = start_game("Ana,Ben", deal=str(deal), first=" ben")
    assert state.recorded and state.now.player.name == "Ben"
    assert state.now.rows == {"castle": ["C01", "C02", "C03"], "village": ["V01", "V02", "V03"]}
    with pytest.raises(SpecError, match="recorded with who starts") as refused:
        start_game("Ana,Ben", deal=str(deal))
    assert refused.value.field == "first"


def test_readings_and_the_written_file(tmp_path: Path) -> None:
    assert readings(["fill_purses_order=most_room"]).fill_purses_order == "most_room"
    with pytest.raises(SpecError, match="NAME=VALUE"):
        readings(["colour=red"])
    state = start_game("Ana,Ben", seed=4, reading=["messenger_target=printed"])
    path = tmp_path / "game.json"
    write_new(state, path)
    assert load_state(path) == state and load_state(path).revision == 0


def test_a_reading_given_twice_with_two_values_is_refused() -> None:
    import pytest

    from models.errors import SpecError
    from service.combo.new import readings

    twice = ["messenger_target=other_row", "messenger_target=printed"]
    with pytest.raises(SpecError, match="given twice"):
        readings(twice)
    assert readings(twice[:1] * 2) == readings(twice[:1])  # the same value twice is one
    assert readings(twice[1:]).messenger_target == "printed"
