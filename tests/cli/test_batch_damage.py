"""A batch resumed over damaged chunks counts every game once (issue 38: chunk 0 copied over
chunk 1 and the final files deleted, the rerun reported 40 duplicate games)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli.helpers import one_json, run

ARGS = ("combo", "tournament", "--bots", "greedy,random", "--games", "80", "--seed", "1")


def test_a_tournament_resumed_over_a_copied_chunk_counts_each_game_once(tmp_path: Path) -> None:
    out = tmp_path / "t"
    first = one_json(run(*ARGS, "--out", str(out), "--json"))
    chunks = out / "chunks" / "0000"
    (chunks / "0000001.jsonl").write_bytes((chunks / "0000000.jsonl").read_bytes())
    for name in ("games.jsonl", "summary.json", "cards.csv"):
        (out / name).unlink()
    again = run(*ARGS, "--out", str(out), "--json")
    assert again.exit_code == 0, again.stderr
    assert one_json(again) == first
    indices = [json.loads(line)["index"]
               for line in (out / "games.jsonl").read_text().splitlines()]
    assert indices == list(range(80))


def test_a_folder_in_a_chunks_place_is_bad_input_by_name(tmp_path: Path) -> None:
    out = tmp_path / "t"
    assert run(*ARGS, "--out", str(out), "--json").exit_code == 0
    chunk = out / "chunks" / "0000" / "0000001.jsonl"
    chunk.unlink()
    chunk.mkdir()
    (out / "summary.json").unlink()
    again = run(*ARGS, "--out", str(out), "--json")
    assert again.exit_code == 2
    assert "0000001.jsonl' is not a chunk file" in again.stderr
    assert len(again.stderr.strip().splitlines()) == 1
