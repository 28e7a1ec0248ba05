"""A batch's chunk lines read back are checked against what the job would have written for
their index (`service.batches.folder`, `Job.line_fault`): a bad line has its chunk run again,
named on stderr, and the results are those of an untouched run; never exit 4, never another
result (issue 53: `{"index": N, "players": [null, null]}` made both tournaments exit 4, and
players `["x", "y"]` changed games.jsonl and summary.json)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.cli.helpers import run

# the chunk size given: chunk 0 holds games 0 and 1 whatever size the runner would choose
TOURNAMENTS = {
    "castell": ("tournament", "--bots", "greedy,random", "--games", "2", "--seed", "1",
                "--chunk", "2"),
    "combo": ("combo", "tournament", "--bots", "greedy,random", "--games", "12", "--seed", "1",
              "--chunk", "12"),
}


def _tampered(record: dict[str, Any], how: str) -> dict[str, Any]:
    if how == "players null":
        return {"index": record["index"], "players": [None, None]}
    if how == "players renamed":
        return {**record, "players": ["x", "y"]}
    if how == "bots swapped":
        return {**record, "bots": record["bots"][::-1]}
    if how == "a total as text":
        return {**record, "totals": [str(t) for t in record["totals"]]}
    if how == "a winner not playing":
        return {**record, "winners": ["nobody"]}
    if how == "an extra field":
        return {**record, "extra": 1}
    assert how == "another deal" and "deal_seed" in record
    return {**record, "deal_seed": record["deal_seed"] + 1}


@pytest.mark.parametrize("game", sorted(TOURNAMENTS))
def test_a_chunk_line_not_the_jobs_is_run_again(tmp_path: Path, game: str) -> None:
    out = tmp_path / "run"
    args = (*TOURNAMENTS[game], "--out", str(out))
    assert run(*args).exit_code == 0
    results = {name: (out / name).read_text() for name in ("games.jsonl", "summary.json")}
    chunk = out / "chunks" / "0000" / "0000000.jsonl"
    whole = chunk.read_text().splitlines()
    record = json.loads(whole[2])  # game 1's line
    ways = ["players null", "players renamed", "bots swapped", "a total as text",
            "a winner not playing", "an extra field"] + (["another deal"] if game == "castell"
                                                         else [])
    for how in ways:
        chunk.write_text("\n".join([*whole[:2], json.dumps(_tampered(record, how)),
                                    *whole[3:]]) + "\n")
        again = run(*args)
        assert again.exit_code == 0, (how, again.stderr)
        assert f"{chunk}: line 3:" in again.stderr and "running its chunk again" in again.stderr
        assert {name: (out / name).read_text() for name in results} == results, how
        assert chunk.read_text().splitlines() == whole, how  # written again, as it was
    # an untouched folder: nothing to run again, only that the run is finished
    last = run(*args).stderr
    assert "already finished" in last and "running its chunk again" not in last


def test_a_second_run_into_a_folder_being_written_is_refused_by_name(tmp_path: Path) -> None:
    """Regression (issue 53): two runs into one `--out` at once, the loser said "not empty
    and holds no manifest.json". Now the folder is a run's while it writes it: the other one
    is refused at once, naming it, exit 2; once the first has ended, the same command
    continues the folder."""
    import subprocess
    import sys

    out = tmp_path / "run"
    args = (*TOURNAMENTS["combo"], "--out", str(out))
    writer = subprocess.Popen(  # a run that has opened the folder and is still writing it
        [sys.executable, "-c", "import sys\nfrom service.batches import Folder\n"
         f"Folder({str(out)!r}, 'combo tournament', {{}}).open()\n"
         "print('open', flush=True)\nsys.stdin.read()"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=Path.cwd())
    try:
        assert writer.stdout is not None and writer.stdout.readline() == b"open\n"
        second = run(*args)
        assert second.exit_code == 2
        assert f"another run is writing '{out}'" in second.stderr
        assert "manifest" not in second.stderr
    finally:
        writer.communicate(b"", timeout=60)
    (out / "manifest.json").unlink()  # the writer's (its arguments were none)
    assert run(*args).exit_code == 0
