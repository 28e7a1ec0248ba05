"""The default advice against a panel of rival styles (issue 51): whole games (3 players, or
2 and 4), seats rotated over each deal, resumable across sessions.

Run:  python benchmarks/bench_panel.py run [--tables vs:tiles,mix:greedy+tiles,...]
                                          [--games 60] [--seed 1] [--workers 2]
                                          [--slack 3] [--bot advisor] [--out DIR]
                                          [--budget FIELD=VALUE,...]
      python benchmarks/bench_panel.py report [--out DIR] [--md FILE]

A table is `vs:STYLE` (the advised seat against two seats of STYLE) or `mix:A+B` (against one
seat of each); `vsN:STYLE` against N seats of STYLE (`vs1:greedy`, a 2-player game;
`vs3:greedy`, a 4-player one) and `mix:A+B+C` against one seat of each (1-3 rivals). `run`
plays games 0..G-1 of each table (`castell tournament --bots BOT,STYLE,STYLE --games G --seed
S`'s games exactly: game i a function of the seed and i, the advised seat rotating through the
seats of each deal), two at a time on two cores, and
appends one JSON line per game to `DIR/TABLE.jsonl` as it ends: the game's record and the
advisor's calls (wall and CPU seconds, fallbacks to greedy, plans the wall clock cut, the
first turns the win goal weighed at each call and which it advised). Rerun
the same command to go on where it stopped (the games already in the file are not played
again); hours of two cores in all, so run it in the background (`nohup ... &`).

The advisor runs at the CLI's default limit with its wall-clock safety net scaled by
`--slack` (`PlanBudget.wall_slack`), and so does every rival that plans (the score planner,
the festival and cautious bots): the deterministic work alone decides, so the games are the
same on a quiet or a busy machine (the default advice's clock hits at the table are measured
by `bench_advice.py`). `--slack 1` plays as the table does on this machine. A game in which a
plan took more wall time than its net allows, or (at a slack of 5 or more) any plan met a wall
clock, was stopped while the clock ran (the process paused, the machine suspended): its net
fired for no reason of the game's, so the game is not kept and is played again.
`--budget` changes `PlanBudget` fields of the advisor (a variant of the advice, measured on the
same deals as the default: give it its own `--out`); `--rivals tiles,festivals,...` makes its
win goal weigh each first turn against those panel styles' answers instead of the greedy
bot's alone (leave a table's own style out for a leave-one-out run).

`report` reads every table's file: per table the games, the deals, the advised seat's wins
(a shared win counts 1/k), its win rate with a 95% interval that resamples whole deals (each
deal is played from every seat, so its games are not independent: `planner.stats`), the rate
from each seat, the mean margin to the best rival, and per call the median and 95th
percentile CPU seconds and the clock hits. A second table says where the points go: per
category, the advised seat's mean points less the best rival's (the rival who scored most in
that game), over every game and over the games played from the last seat (the seat that
moves after every rival each round). `--md` writes both as Markdown.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections import defaultdict, deque
from collections.abc import Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cli.castell.tournament import CATEGORY_HEADS  # noqa: E402
from models.game import CATEGORIES, Board, GameState, load_board, score_player  # noqa: E402
from planner.castell import (  # noqa: E402
    BOTS,
    Advisor,
    GameRecord,
    Setup,
    panel_rivals,
    play_game,
    slacked,
)
from planner.stats import Cluster, cluster_intervals  # noqa: E402
from planner.turns import DEFAULT_BUDGET, DEFAULT_PLAN_TIME_LIMIT, Plan, PlanBudget  # noqa: E402

OUT = ROOT / "benchmarks" / "results" / "panel"
RIVALS = {"vs": 2, "vs1": 1, "vs2": 2, "vs3": 3}  # a `vs` table's rivals (players less one)
# past its net by more than this, a plan's wall time means its process was stopped (the net
# ends a plan within about a second of it, replay and start-up included)
STOPPED_MARGIN_S = 10.0
# from this slack up a plan that met its wall clock was stopped while the clock ran (`_stopped`)
STOPPED_SLACK = 5.0


def table_bots(table: str, bot: str) -> list[str]:
    """The bots of a table (`vs:STYLE`, `vsN:STYLE`, `mix:A+B[+C]`), the advised one first."""
    kind, _, styles = table.partition(":")
    rivals = [styles] * RIVALS[kind] if kind in RIVALS else styles.split("+")
    if (kind not in (*RIVALS, "mix") or not 1 <= len(rivals) <= 3
            or not all(r in BOTS for r in rivals)):
        raise SystemExit(f"a table is vs:STYLE, vsN:STYLE (N 1-3) or mix:A+B[+C] of "
                         f"{', '.join(sorted(BOTS))}, not '{table}'")
    return [bot, *rivals]


@dataclass
class Measured(Advisor):
    """The advisor, keeping for each call what a chance to win could be fitted on later: the
    round, the player's points and the best rival's when asked, and the plan's value (its
    points at its horizon's end) and last round."""

    seen_at: list[dict[str, Any]] = field(default_factory=list)

    def plan(self, state: GameState, board: Board) -> Plan:
        found = super().plan(state, board)
        me = state.turn.player
        points = {p.name: score_player(p, board).total for p in state.players}
        self.seen_at.append({
            "round": state.round, "mine": points[me],
            "best_rival": max(v for k, v in points.items() if k != me),
            "objective": found.objective,
            "last_round": found.start.round + found.horizon - 1 if found.found else None})
        return found


def _switch(name: str, value: str) -> bool:
    """A switch of `--budget`: 1/true or 0/false; anything else is refused, not read as off."""
    if value.lower() not in ("1", "true", "0", "false"):
        raise SystemExit(f"--budget {name}={value}: a switch is 1, true, 0 or false")
    return value.lower() in ("1", "true")


def budget_of(text: str, slack: float) -> PlanBudget:
    """The advisor's budget: the default with `--slack` and the `--budget` overrides
    (`field=value,...`: a variant of the advice to measure)."""
    changes: dict[str, Any] = {"wall_slack": slack}
    for item in filter(None, text.split(",")):
        name, _, value = item.partition("=")
        current = getattr(DEFAULT_BUDGET, name)
        changes[name] = _switch(name, value) if isinstance(current, bool) else type(current)(value)
    return replace(DEFAULT_BUDGET, **changes)


def _play(bots: list[str], seed: int, index: int, budget: PlanBudget,
          rivals: Sequence[str] = ()) -> dict[str, Any]:
    """One game; the advised seat's calls measured (`rivals`: the panel's styles its win
    goal weighs its first turn against; none: the greedy bot alone, the default)."""
    made = [BOTS[b]() for b in bots]
    if bots[0] == "advisor":
        made[0] = Measured(rivals=panel_rivals(rivals)) if rivals else Measured()
    advisor = made[0]
    if isinstance(advisor, Advisor):
        advisor.budget = budget
    made[1:] = [slacked(bot, budget.wall_slack) for bot in made[1:]]  # the games repeat
    planners = [bot for bot in made[1:] if isinstance(bot, Advisor)]
    record = play_game(Setup(load_board()), bots, seed, index, made)
    calls: dict[str, Any] = {}
    if isinstance(advisor, Advisor):
        calls = {"wall_s": advisor.wall_s, "cpu_s": advisor.cpu_s,
                 "fallbacks": advisor.fallbacks, "clock_hits": advisor.clock_hits,
                 "first_turns": advisor.first_turns}
    if isinstance(advisor, Measured):
        calls["seen_at"] = advisor.seen_at
    longest = max((w for bot in made if isinstance(bot, Advisor) for w in bot.wall_s),
                  default=0.0)
    hits = sum(bot.clock_hits for bot in made if isinstance(bot, Advisor))
    return {"record": record.as_dict(), "calls": calls,
            "rival_clock_hits": sum(rival.clock_hits for rival in planners),
            "stopped": _stopped(longest, hits, budget)}


def _stopped(longest: float, hits: int, budget: PlanBudget) -> bool:
    """Whether the game's process was stopped while the clock ran (paused, the machine
    suspended): a plan took more wall time than its net allows, or, with a slack of at least
    `STOPPED_SLACK`, a plan met a wall clock at all (the nets of the plans after the answers
    are a fifth of the whole: a pause of half a minute cut one while the call stayed within
    the whole net; the deterministic work of a call is a few seconds of CPU)."""
    return (longest > budget.wall(DEFAULT_PLAN_TIME_LIMIT) + STOPPED_MARGIN_S
            or (budget.wall_slack >= STOPPED_SLACK and hits > 0))


def _done(path: Path) -> set[int]:
    if not path.exists():
        return set()
    found = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            found.add(int(json.loads(line)["record"]["index"]))
    return found


def _jobs(args: argparse.Namespace) -> Iterator[tuple[Path, list[str], int]]:
    """The games left to play, a deal of each table in turn (a run cut short has figures
    for every table)."""
    tables = []
    for table in args.tables.split(","):
        path = args.out / f"{table.replace(':', '-').replace('+', '_')}.jsonl"
        tables.append((path, table_bots(table, args.bot), _done(path)))
    # a deal is as many games as its table has seats (each seat advised once)
    deals = -(-args.games // min(len(bots) for _, bots, _ in tables))
    for deal in range(deals):
        for path, bots, done in tables:
            seats = len(bots)
            for index in range(deal * seats, min((deal + 1) * seats, args.games)):
                if index not in done:
                    yield path, bots, index


def run(args: argparse.Namespace) -> None:
    args.out.mkdir(parents=True, exist_ok=True)
    jobs = list(_jobs(args))
    budget = budget_of(args.budget, args.slack)
    rivals = [r for r in args.rivals.split(",") if r]
    print(f"{len(jobs)} games to play", flush=True)
    with ProcessPoolExecutor(args.workers) as pool:
        running: dict[Future[dict[str, Any]], tuple[Path, list[str], int]] = {}
        queue = deque(jobs)
        replayed: list[tuple[Path, list[str], int]] = []
        while True:
            while len(running) < args.workers and queue:
                job = queue.popleft()
                running[pool.submit(_play, job[1], args.seed, job[2], budget,
                                     rivals)] = job
            if not running:
                return
            finished, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in finished:
                path, bots, index = running.pop(future)
                line = future.result()
                if line.pop("stopped"):  # played again once in a run, then left to the next
                    again = (path, bots, index) not in replayed
                    print(f"{path.stem} game {index}: stopped while the clock ran (paused or "
                          f"suspended), not kept: {'played again' if again else 'left'}",
                          flush=True)
                    if again:
                        replayed.append((path, bots, index))
                        queue.append((path, bots, index))
                    continue
                with path.open("a", encoding="utf-8") as out:
                    out.write(json.dumps(line) + "\n")
                record = GameRecord.of(line["record"])
                seat = record.bots.index(args.bot)
                print(f"{path.stem} game {index}: margin {record.margin(seat):+d}", flush=True)


def _quantile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def table_row(lines: Sequence[dict[str, Any]], bot: str) -> dict[str, Any]:
    """A table's figures (see the module text) from its game lines."""
    seats_of = len(GameRecord.of(lines[0]["record"]).bots) if lines else 3
    # per deal: wins, margins, then wins and games from each seat
    deals: dict[int, list[float]] = defaultdict(lambda: [0.0] * (2 + 2 * seats_of))
    cpu: list[float] = []
    hits = calls = 0
    for line in lines:
        record = GameRecord.of(line["record"])
        seat = record.bots.index(bot)
        won = 1 / len(record.winners) if record.players[seat] in record.winners else 0.0
        row = deals[record.deal_seed]
        row[0] += won
        row[1] += record.margin(seat)
        row[2 + seat] += won
        row[2 + seats_of + seat] += 1
        cpu += line["calls"].get("cpu_s", [])
        hits += line["calls"].get("clock_hits", 0)
        calls += len(line["calls"].get("cpu_s", []))
    clusters: list[Cluster] = [
        (tuple(r[:2 + seats_of]), (sum(r[2 + seats_of:]),) * 2 + tuple(r[2 + seats_of:]))
        for r in deals.values()]
    games = sum(c[1][0] for c in clusters)
    wins = sum(c[0][0] for c in clusters)
    intervals = cluster_intervals(clusters)
    seats = [sum(c[0][2 + s] for c in clusters) / max(1, sum(c[1][2 + s] for c in clusters))
             for s in range(seats_of)]
    return {"games": int(games), "deals": len(clusters), "wins": wins,
            "rate": wins / games if games else None, "ci95": intervals[0],
            "seats": seats, "seat_ci95": intervals[2:],
            "margin": sum(c[0][1] for c in clusters) / games if games else None,
            "margin_ci95": intervals[1], "calls": calls, "clock_hits": hits,
            "cpu_median": statistics.median(cpu) if cpu else None,
            "cpu_p95": _quantile(cpu, 0.95) if cpu else None}


def category_row(lines: Sequence[dict[str, Any]], bot: str) -> dict[str, Any]:
    """Where a table's points go: per category (`CATEGORIES`), the advised seat's mean points
    less the best rival's (the rival with the most points in that game), over all the games
    and over those played from the last seat; and the last seat's games and wins."""
    every: list[list[int]] = []
    last: list[list[int]] = []
    last_won = 0.0
    for line in lines:
        record = GameRecord.of(line["record"])
        seat = record.bots.index(bot)
        rivals = [i for i in range(len(record.bots)) if i != seat]
        best = max(rivals, key=lambda i: record.totals[i])
        gap = [a - b for a, b in zip(record.categories[seat], record.categories[best],
                                     strict=True)]
        every.append(gap)
        if seat == len(record.bots) - 1:
            last.append(gap)
            if record.players[seat] in record.winners:
                last_won += 1 / len(record.winners)

    def means(gaps: list[list[int]]) -> list[float] | None:
        return [statistics.fmean(g[k] for g in gaps) for k in range(len(CATEGORIES))] \
            if gaps else None

    return {"all": means(every), "last": means(last), "last_games": len(last),
            "last_won": last_won}


def _gaps(values: Sequence[float] | None) -> str:
    return " / ".join(f"{v:+.1f}" for v in values) if values else "-"


def _interval(pair: Sequence[float] | None, scale: float = 100.0, digits: int = 0) -> str:
    if pair is None:
        return "-"
    return f"{pair[0] * scale:.{digits}f}-{pair[1] * scale:.{digits}f}"


def report(args: argparse.Namespace) -> None:
    rows = []
    gaps = []
    for path in sorted(args.out.glob("*.jsonl")):
        lines = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()
                 if x.strip()]
        if lines:
            name = path.stem.replace("-", ":", 1).replace("_", "+")
            rows.append((name, table_row(lines, args.bot)))
            gaps.append((name, category_row(lines, args.bot)))
    head = ("| table | games (deals) | win rate % (95%) | by seat % (1st / 2nd / ...) "
            "| mean margin (95%) | CPU s a call median / p95 | clock hits |")
    text = [head, "|---|---|---|---|---|---|---|"]
    for name, row in rows:
        seats = " / ".join(f"{s * 100:.0f}" for s in row["seats"])
        text.append(
            f"| {name} | {row['games']} ({row['deals']}) | {row['rate'] * 100:.1f} "
            f"({_interval(row['ci95'])}) | {seats} | {row['margin']:+.1f} "
            f"({_interval(row['margin_ci95'], 1, 1)}) | {row['cpu_median'] or 0:.1f} / "
            f"{row['cpu_p95'] or 0:.1f} | {row['clock_hits']} of {row['calls']} |")
    short = " / ".join(CATEGORY_HEADS[c] for c in CATEGORIES)  # `castell tournament`'s
    text += ["", f"| table | points less the best rival's, every game ({short}) "
             "| from the last seat | the last seat's games, won |", "|---|---|---|---|"]
    for name, gap in gaps:
        text.append(f"| {name} | {_gaps(gap['all'])} | {_gaps(gap['last'])} "
                    f"| {gap['last_games']}, {gap['last_won']:g} |")
    print("\n".join(text))
    if args.md:
        args.md.write_text("\n".join(text) + "\n", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=("run", "report"))
    parser.add_argument("--tables", default="vs:greedy")
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--slack", type=float, default=3.0)
    parser.add_argument("--bot", default="advisor")
    parser.add_argument("--budget", default="", help="field=value,... of PlanBudget")
    parser.add_argument("--rivals", default="", help="the panel's styles the advice weighs "
                        "its first turn against (default: the greedy bot alone)")
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--md", type=Path)
    args = parser.parse_args()
    run(args) if args.command == "run" else report(args)


if __name__ == "__main__":
    main()
