"""The designers' report of a Castell tournament, from its per-game records alone (a folder's
`games.jsonl`, gzipped or not): the tables (`report.md`) and the plots (`seats.svg`,
`categories.svg`), and with a second tournament's records, the two side by side
(`compare.svg`: a rules variant or another board against the first).

Every interval counts deals, not games: a deal is played from every seat, so its games are one
sample, not several (`planner.stats.cluster_intervals`, a bootstrap over deals, seeded: the
same records give the same bytes). A shared win counts 1/k to each of its k winners; every
table says its sample sizes.
"""

from __future__ import annotations

import gzip
import json
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from stat import S_ISREG

from models.errors import SpecError
from models.files import write_atomic
from models.game import CATEGORIES
from planner.castell import SKILLS, GameRecord
from planner.stats import (
    Cluster,
    Stat,
    cluster_intervals,
    difference_intervals,
    ratio,
    wilson,
)

CATEGORY_NAMES = {"best_tower": "best tower", "region_variety": "region variety",
                  "prizes": "prizes", "size_tokens": "size tokens",
                  "local_performances": "local performances"}
Interval = tuple[float, float] | None
MIN_DEALS = 5  # a rank reached in fewer deals gets no interval (its draws are a handful)
# a records file, unpacked: a million games (the most a tournament plays; about 260 B a game)
# twice over
MAX_RECORDS_BYTES = 512 * 1024 * 1024
MAX_DRAWS = 100_000  # the bootstrap's draws (2000 by default): each one resamples every deal
# a statistic's name and what one game adds to it: (numerator, count); over the games of the
# deals drawn, the statistic is the numerators' sum over the counts'
Part = tuple[str, Callable[[GameRecord], tuple[float, float]]]


@dataclass(frozen=True)
class Report:
    """The report's files: name -> text (`report.md` and the SVG pictures)."""

    files: dict[str, str]

    def write(self, folder: str | Path) -> list[Path]:
        out = Path(folder)
        out.mkdir(parents=True, exist_ok=True)
        written = []
        for name, text in self.files.items():
            write_atomic(out / name, text)
            written.append(out / name)
        return written


def read_records(path: str | Path, limit: int = MAX_RECORDS_BYTES) -> list[GameRecord]:
    """The records of a `games.jsonl` (or its `.gz`), one game a line, in index order; at most
    `limit` bytes, unpacked (a larger file, or a gzip that unpacks larger, is refused in one
    line before it is read whole)."""
    try:
        data = _bounded_bytes(Path(path), limit)
        lines = data.decode("utf-8").splitlines()
        records = [GameRecord.of(json.loads(line)) for line in lines if line.strip()]
    except SpecError:
        raise
    except gzip.BadGzipFile as error:
        raise SpecError(f"'{path}' is not a tournament's games.jsonl: {error}",
                        field="records") from None
    except OSError as error:
        raise SpecError(f"cannot read '{path}': {error.strerror}", field="records") from None
    except (ValueError, KeyError, TypeError, EOFError, UnicodeDecodeError, RecursionError,
            zlib.error) as error:
        raise SpecError(f"'{path}' is not a tournament's games.jsonl: {error}",
                        field="records") from None
    if not records:
        raise SpecError(f"'{path}' holds no game", field="records")
    return records


def _bounded_bytes(path: Path, limit: int) -> bytes:
    """The file's bytes, unpacked when it is a gzip, read to at most `limit` (a FIFO or a
    device is refused, never waited on)."""
    if not S_ISREG(path.stat().st_mode):
        raise SpecError(f"cannot read '{path}': it is not a file", field="records")
    with path.open("rb") as handle:
        packed = handle.read(2) == b"\x1f\x8b"
        handle.seek(0)
        data = gzip.GzipFile(fileobj=handle).read(limit + 1) if packed else \
            handle.read(limit + 1)
    if len(data) > limit:
        size = f"{limit // (1024 * 1024)} MiB" if limit % (1024 * 1024) == 0 else \
            f"{limit} bytes"
        raise SpecError(f"'{path}' holds more than {size}{' unpacked' if packed else ''}: "
                        "larger than a tournament's games.jsonl", field="records")
    return data


def check_draws(draws: int) -> None:
    """The bootstrap's draws: 1 to `MAX_DRAWS` (their time and memory grow with them)."""
    if not 1 <= draws <= MAX_DRAWS:
        raise SpecError(f"the bootstrap's draws are 1 to {MAX_DRAWS}, not {draws}",
                        field="draws")


def deals(records: Sequence[GameRecord]) -> list[list[GameRecord]]:
    """The games grouped by deal (the seats' rotations of one deal), in order of appearance."""
    grouped: dict[int, list[GameRecord]] = {}
    for record in records:
        grouped.setdefault(record.deal_seed, []).append(record)
    return list(grouped.values())


def share(record: GameRecord, seat: int) -> float:
    """The seat's part of the win: 1/k of a win shared by k, 0 for a loss."""
    return 1 / len(record.winners) if record.players[seat] in record.winners else 0.0


# -- the statistics, each a ratio of sums over deals --------------------------------------------

def _stats(groups: list[list[GameRecord]], parts: Sequence[Part], draws: int, seed: int
           ) -> dict[str, Stat]:
    """Each named part (a game -> its numerator and count) over every deal, with its
    interval."""
    clusters = _clusters(groups, parts)
    intervals = cluster_intervals(clusters, draws, seed)
    out = {}
    for k, (name, _) in enumerate(parts):
        n = sum(c[1][k] for c in clusters)
        out[name] = Stat(ratio(clusters, k), intervals[k], n,
                         sum(1 for c in clusters if c[1][k]))
    return out


def _seat_win(seat: int, record: GameRecord) -> tuple[float, float]:
    return share(record, seat), 1.0


def _seat_score(seat: int, record: GameRecord) -> tuple[float, float]:
    return record.totals[seat], 1.0


def _seat_margin(seat: int, record: GameRecord) -> tuple[float, float]:
    return record.margin(seat), 1.0


def _seat_parts(players: int) -> list[Part]:
    parts: list[Part] = []
    for seat in range(players):
        parts += [(f"win {seat}", partial(_seat_win, seat)),
                  (f"score {seat}", partial(_seat_score, seat)),
                  (f"margin {seat}", partial(_seat_margin, seat))]
    return parts


def _winners_points(k: int, record: GameRecord) -> tuple[float, float]:
    seats = range(len(record.players))
    return (sum(share(record, s) * record.categories[s][k] for s in seats),
            sum(share(record, s) for s in seats))


def _others_points(k: int, record: GameRecord) -> tuple[float, float]:
    others = [s for s in range(len(record.players)) if not share(record, s)]
    return sum(record.categories[s][k] for s in others), len(others)


def _winner_has_most(k: int, record: GameRecord) -> tuple[float, float]:
    most = max(c[k] for c in record.categories)
    return (sum(share(record, s) for s in range(len(record.players))
                if record.categories[s][k] == most), 1.0)


def _category_parts() -> list[Part]:
    parts: list[Part] = []
    for k, name in enumerate(CATEGORIES):
        parts += [(f"winners {name}", partial(_winners_points, k)),
                  (f"others {name}", partial(_others_points, k)),
                  (f"most {name}", partial(_winner_has_most, k))]
    return parts


def _at_rank(k: int, rank: int, record: GameRecord) -> tuple[float, float]:
    seats = [s for s, ranks in enumerate(record.skills) if ranks[k] == rank]
    return sum(share(record, s) for s in seats), len(seats)


def _skill_parts(records: Sequence[GameRecord]) -> list[Part]:
    parts: list[Part] = []
    for k, skill in enumerate(SKILLS):
        for rank in sorted({ranks[k] for r in records for ranks in r.skills}):
            parts.append((f"{skill} {rank}", partial(_at_rank, k, rank)))
    return parts


# -- the tables ----------------------------------------------------------------------------------

def _pct(value: float | None) -> str:
    return "-" if value is None else f"{value:.1%}"


def _pcts(interval: Interval) -> str:
    return "-" if interval is None else f"{interval[0]:.1%} to {interval[1]:.1%}"


def _num(value: float | None, signed: bool = False) -> str:
    return "-" if value is None else (f"{value:+.1f}" if signed else f"{value:.1f}")


def _nums(interval: Interval, signed: bool = False) -> str:
    if interval is None:
        return "-"
    return f"{_num(interval[0], signed)} to {_num(interval[1], signed)}"


def _count(n: float) -> str:
    return f"{n:g}" if n == int(n) else f"{n:.2f}"


def _table(head: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    return ["| " + " | ".join(head) + " |", "| " + " | ".join("---" for _ in head) + " |",
            *("| " + " | ".join(row) + " |" for row in rows)]


def _seat_table(records: Sequence[GameRecord], stats: dict[str, Stat]) -> list[str]:
    rows = []
    for seat in range(len(records[0].players)):
        win = stats[f"win {seat}"]
        naive = wilson(sum(share(r, seat) for r in records), len(records))
        rows.append([str(seat + 1), _count(win.n), str(win.deals),
                     _count(round(sum(share(r, seat) for r in records), 2)), _pct(win.value),
                     _pcts(win.interval), _pcts(naive),
                     _num(stats[f"score {seat}"].value), _nums(stats[f"score {seat}"].interval),
                     _num(stats[f"margin {seat}"].value, True)])
    return _table(["place in the turn order", "games", "deals", "wins", "win rate",
                   "95% interval (deals)", "if games were independent", "mean score",
                   "95% interval", "mean margin"], rows)


def _category_table(stats: dict[str, Stat]) -> list[str]:
    rows = []
    for name in CATEGORIES:
        won, rest, most = (stats[f"{part} {name}"] for part in ("winners", "others", "most"))
        rows.append([CATEGORY_NAMES[name], _num(won.value), _nums(won.interval),
                     _num(rest.value), _nums(rest.interval), _pct(most.value),
                     _pcts(most.interval)])
    return _table(["category", "the winners' mean", "95% interval", "the others' mean",
                   "95% interval", "the winner has the most", "95% interval"], rows)


def _skill_table(stats: dict[str, Stat]) -> list[str]:
    rows = []
    for name, stat in stats.items():
        skill, rank = name.rsplit(" ", 1)
        rows.append([skill, rank, _count(stat.n), str(stat.deals), _pct(stat.value),
                     _pcts(stat.interval) if stat.deals >= MIN_DEALS else "too few deals"])
    return _table(["skill", "final rank", "players", "deals", "win rate", "95% interval"],
                  rows)


def _sizes(records: Sequence[GameRecord]) -> str:
    groups = deals(records)
    return (f"{len(records)} games, {len(groups)} deals ({len(records[0].players)} players; "
            f"bots {', '.join(sorted(set(records[0].bots)))}), "
            f"{sum(sum(r.refused) for r in records)} turns refused")


def tournament_report(records: Sequence[GameRecord], title: str, draws: int = 2000,
                      seed: int = 1) -> Report:
    """The report of one tournament's records: `report.md`, `seats.svg`, `categories.svg`."""
    from service.pictures.report_svg import category_plot, seat_plot

    check_draws(draws)
    groups = deals(records)
    players = len(records[0].players)
    seats = _stats(groups, _seat_parts(players), draws, seed)
    categories = _stats(groups, _category_parts(), draws, seed)
    skills = _stats(groups, _skill_parts(records), draws, seed)
    lines = [f"# {title}", "", _sizes(records) + ".", "",
             f"Intervals: 95%, a bootstrap over the deals ({draws} draws, seed {seed}): each "
             "deal is played from every seat, so its games count as one sample. A win shared "
             "by k players counts 1/k to each.", "",
             "## By place in the turn order", "", *_seat_table(records, seats), "",
             "## What the winners score", "",
             "Per game: the winners' points in each category (a shared win weighted 1/k), "
             "the other players', and how often a winner had the most of it (a tie for the "
             "most counts).", "", *_category_table(categories), "",
             "## Final skill ranks and winning", "",
             "The players who ended the game at each rank of each skill, and how often they "
             "won: a correlation (what their festivals and wheel visits paid for), not a "
             f"skill's worth. Every rank reached is shown; one reached in fewer than {MIN_DEALS} "
             "deals gets no interval.", "", *_skill_table(skills), ""]
    return Report({"report.md": "\n".join(lines),
                   "seats.svg": seat_plot(title, _seat_points(seats, players),
                                          len(records), len(groups)),
                   "categories.svg": category_plot(title, [
                       (CATEGORY_NAMES[name], categories[f"winners {name}"],
                        categories[f"others {name}"]) for name in CATEGORIES])})


def _seat_points(stats: dict[str, Stat], players: int) -> list[Stat]:
    return [stats[f"win {seat}"] for seat in range(players)]


def compare_report(first: Sequence[GameRecord], second: Sequence[GameRecord],
                   labels: tuple[str, str], draws: int = 2000, seed: int = 1) -> Report:
    """Two tournaments side by side (a variant against the first): per place in the turn
    order each's win rate and the difference with its interval (`compare.md`,
    `compare.svg`)."""
    from service.pictures.report_svg import compare_plot

    check_draws(draws)
    players = len(first[0].players)
    if len(second[0].players) != players:
        raise SpecError(f"the two tournaments seat {players} and {len(second[0].players)} "
                        "players: compare tournaments of the same number", field="against")
    parts = [p for p in _seat_parts(players) if p[0].startswith(("win", "score"))]
    a_groups, b_groups = deals(first), deals(second)
    a, b = _stats(a_groups, parts, draws, seed), _stats(b_groups, parts, draws, seed)
    # the same seed deals the same cards whatever the rules: then deal i of each is one deal
    # played two ways, and the two are resampled together (a paired bootstrap)
    paired = [g[0].deal_seed for g in a_groups] == [g[0].deal_seed for g in b_groups]
    differences = difference_intervals(_clusters(a_groups, parts), _clusters(b_groups, parts),
                                       draws, seed, paired)
    rows, drawn = [], []
    for k, (name, _) in enumerate(parts):
        what, seat = name.split()
        first_value, second_value = a[name].value, b[name].value
        difference = (None if first_value is None or second_value is None
                      else second_value - first_value)
        if what == "win":
            rows.append([str(int(seat) + 1), "win rate", _pct(first_value),
                         _pcts(a[name].interval), _pct(second_value), _pcts(b[name].interval),
                         f"{difference:+.1%}" if difference is not None else "-",
                         _signed_pcts(differences[k])])
            drawn.append((a[name], b[name], difference, differences[k]))
        else:
            rows.append([str(int(seat) + 1), "mean score", _num(first_value),
                         _nums(a[name].interval), _num(second_value), _nums(b[name].interval),
                         _num(difference, True), _nums(differences[k], True)])
    lines = [f"# {labels[1]} against {labels[0]}", "",
             f"{labels[0]}: {_sizes(first)}; {labels[1]}: {_sizes(second)}.", "",
             f"The difference is {labels[1]}'s less {labels[0]}'s; its 95% interval resamples "
             + ("the deals, the same in both (the same deals played two ways: a paired "
                "bootstrap" if paired else "the deals of each tournament on its own (")
             + f"; {draws} draws, seed {seed}). A win shared by k counts 1/k.", "",
             *_table(["place", "what", labels[0], "95% interval", labels[1], "95% interval",
                      "difference", "95% interval"], rows), ""]
    return Report({"compare.md": "\n".join(lines),
                   "compare.svg": compare_plot(labels, drawn, len(first), len(second))})


def _signed_pcts(interval: Interval) -> str:
    return "-" if interval is None else f"{interval[0]:+.1%} to {interval[1]:+.1%}"


def _clusters(groups: list[list[GameRecord]], parts: Sequence[Part]) -> list[Cluster]:
    """Per deal, each part's numerator and count summed over the deal's games."""
    clusters: list[Cluster] = []
    for group in groups:
        pairs = [[part(r) for r in group] for _, part in parts]
        clusters.append((tuple(float(sum(a for a, _ in p)) for p in pairs),
                         tuple(float(sum(b for _, b in p)) for p in pairs)))
    return clusters
