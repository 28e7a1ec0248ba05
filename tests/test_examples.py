"""Every example script and batch file runs, so the examples never rot."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli.main import app
from models.tower import Pool, SkillRanks, Tower, check_tower, rules_named

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


@pytest.mark.parametrize("script", sorted(EXAMPLES.glob("*.py")), ids=lambda p: p.name)
def test_example_script_runs(script: Path) -> None:
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip()
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("command", ["best", "check", "verify"])
def test_example_batch_runs(command: str) -> None:
    path = EXAMPLES / f"{command}_batch.jsonl"
    lines = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    result = CliRunner().invoke(app, [command, "--batch", str(path)])
    assert result.exit_code == 0, result.output
    answers = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(answers) == len(lines)
    for asked, got in zip(lines, answers, strict=True):
        assert "error" not in got
        if got["tower"] is None:
            continue
        rules = rules_named(asked.get("rules", "standard"))
        pool = Pool.parse(asked["pool"]) if "pool" in asked else None
        check = check_tower(Tower.parse(got["tower"]), SkillRanks.parse(asked.get("skills", "")),
                            rules, pool)
        assert check.valid == got.get("valid", True)
