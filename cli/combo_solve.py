"""`castell combo arrange | advise | tournament`: the Castle Combo solvers, on the `combo` app."""

from __future__ import annotations

import csv
from enum import StrEnum
from typing import Annotated

import typer
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from cli import options
from cli.combo import CardsFile, StateArg, _load, app, grid_picture, sheet_table
from cli.edge import (
    ExitCode,
    at_edge,
    emit_output,
    err,
    fail,
    fail_interrupted,
    graceful,
    interrupted,
    out,
)
from models.combo import MAX_GOLD, MAX_KEYS, Deck, GameState, Slot, cell_pos, load_deck
from models.errors import ProvenNo, SpecError
from models.files import atomic_open, not_an_input
from planner.combo import (
    BOT_SAMPLES,
    MAX_SAMPLES,
    ArrangeQuestion,
    ArrangeResult,
    Limits,
    Status,
    Summary,
    advise,
    arrangement_question,
    best_arrangement,
    offsets_for,
    parse_cards,
    run_tournament,
)

MAX_DETERMINISTIC_TIME = 600.0


def _fixed(text: str | None, slots: list[Slot]) -> dict[str, tuple[int, int]]:
    """`C07@top-left,V12@centre` -> card id -> cell."""
    found: dict[str, tuple[int, int]] = {}
    if not text:
        return found
    if len(text) > 400:
        raise SpecError("--fixed is at most 400 characters")
    ids = {s.card for s in slots}
    for part in text.split(","):
        card_id, sep, cell = part.strip().partition("@")
        card_id = card_id.strip().lstrip("~")
        if not sep:
            raise SpecError(f"--fixed: '{part}' is not CARD@CELL (e.g. C07@top-left)")
        if card_id not in ids:
            raise SpecError(f"--fixed: '{card_id}' is not one of the cards to arrange")
        if card_id in found:
            raise SpecError(f"--fixed: '{card_id}' is fixed twice")
        found[card_id] = cell_pos(cell.strip())
    return found


def _from_state(state: GameState, name: str | None, cards: str, keys: int | None,
                gold: int | None) -> ArrangeQuestion:
    """The best completion of a player's tableau in progress with the given cards."""
    names = [p.name for p in state.now.players]
    if name is None:
        raise SpecError(f"--from needs --player (one of {', '.join(names)})")
    player = state.now.named(name)
    deck = state.deck()
    have = [Slot(p.card, p.face_down) for p in player.tableau]
    more = parse_cards(cards, deck) if cards.strip() else []
    if len(have) + len(more) != 9:
        raise SpecError(f"{name} has {len(have)} cards: give {9 - len(have)} more to complete "
                        f"the tableau, got {len(more)}")
    relative = {p.card: (p.row, p.column) for p in player.tableau}
    return arrangement_question(
        deck, [*have, *more], keys=player.keys if keys is None else keys,
        gold=player.gold if gold is None else gold, stored=dict(player.purses),
        pinned=relative, offsets=offsets_for(relative.values()))


def _report(result: ArrangeResult, deck: Deck, as_json: bool) -> None:
    if result.status is Status.INFEASIBLE:
        raise ProvenNo("no arrangement: the fixed cards cannot all stand where they are put")
    if result.grid is None:
        fail("the time limit came before any arrangement was found; raise --time-limit",
             ExitCode.TIME_LIMIT)
    if as_json:
        from service.results.base import output_of
        from service.results.combo import ComboArrangeOutput  # deferred: only for --json

        emit_output(output_of(ComboArrangeOutput, result.as_dict()))
    else:
        proof = "proven optimal" if result.status is Status.OPTIMAL \
            else f"best found, not proven (bound {result.bound})"
        out().print(Text(f"{result.total} points, {proof} ({result.wall_time_s:.3f} s)",
                         style="bold"))
        out().print(grid_picture(result.grid, deck))
        assert result.sheet is not None
        out().print(sheet_table(escape(str(result.grid)), result.sheet))


@app.command("arrange")
@at_edge
def arrange_cmd(
    cards: Annotated[str, typer.Argument(
        metavar="CARDS",
        help="The nine cards, comma-separated, face-down ones marked '~': 'C07,V12,~C20,...' "
             "(with --from: only the cards still to come).")],
    cards_file: CardsFile = None,
    keys: Annotated[int | None, typer.Option(
        "--keys", min=0, max=MAX_KEYS, help="Keys at the end (default 0; with --from, the "
                                            "player's).")] = None,
    gold: Annotated[int | None, typer.Option(
        "--gold", min=0, max=MAX_GOLD, help="Gold left over, put on purses exactly (default "
                                            "0; with --from, the player's).")] = None,
    fixed: Annotated[str | None, typer.Option(
        "--fixed", metavar="CARD@CELL,...",
        help="Cards already placed: C07@top-left,V12@centre (cells: top-left, top, top-right, "
             "left, centre, right, bottom-left, bottom, bottom-right).")] = None,
    from_state: Annotated[str | None, typer.Option(
        "--from", metavar="STATE",
        help="Complete a player's tableau in progress from a game state file.")] = None,
    player: Annotated[str | None, typer.Option(
        "--player", help="Whose tableau (with --from).")] = None,
    time_limit: Annotated[float, typer.Option(
        "--time-limit", min=0.01, max=MAX_DETERMINISTIC_TIME,
        help="CP-SAT deterministic time limit (about seconds); the same limit gives the same "
             "answer.")] = 10.0,
    as_json: options.Json = False,
) -> None:
    """The proven best 3x3 arrangement of nine cards, leftover gold on purses exactly.

    Exit 0 proven optimal, 1 no arrangement fits the fixed cards, 2 bad input, 3 the time
    limit came first (the best arrangement found is still shown).

    Examples:

      castell combo arrange C01,C05,C12,V03,V07,V18,V22,~C30,V31 --keys 2 --gold 6

      castell combo arrange C01,C05,C12,V03,V07,V18,V22,~C30,V31 --fixed C01@centre --json

      castell combo arrange V10,C14 --from game.json --player Ana
    """
    if from_state is not None:
        if fixed or cards_file:
            raise SpecError("--from takes the cards and placed cards from the game; leave out "
                            "--fixed and --cards")
        state = _load(from_state)
        q = _from_state(state, player, cards, keys, gold)
    else:
        if player is not None:
            raise SpecError("--player goes with --from STATE")
        deck = load_deck(cards_file)
        slots = parse_cards(cards, deck)
        q = arrangement_question(deck, slots, keys=keys or 0, gold=gold or 0,
                                 pinned=_fixed(fixed, slots))
    limits = Limits(deterministic_time=time_limit, wall_time=max(10 * time_limit, 10.0))
    with graceful():
        result = best_arrangement(q, limits)
    _report(result, q.deck, as_json)
    if interrupted():  # Ctrl-C, not the time limit, ended the solve
        fail_interrupted("interrupted: the arrangement above is the best found so far")
    if result.status is not Status.OPTIMAL:
        raise typer.Exit(int(ExitCode.TIME_LIMIT))


# --- advise -------------------------------------------------------------------------------------

class LastTurnChoice(StrEnum):
    own_turn = "own_turn"
    game_end = "game_end"


class ValueChoice(StrEnum):
    """What a sampled completion is worth to the ranking."""

    score = "score"
    margin = "margin"


@app.command("advise")
@at_edge
def advise_cmd(
    state_file: StateArg,
    player: Annotated[str | None, typer.Option(
        "--player", help="The player to advise (must be the player to move; default: them).")]
        = None,
    samples: Annotated[int, typer.Option(
        "--samples", "-n", min=1, max=MAX_SAMPLES,
        help="Sampled completions for the best actions (fewer for the weaker ones).")] = 16,
    seed: Annotated[int, typer.Option("--seed", min=0, max=2**31 - 1,
                                      help="Same seed, same ranking.")] = 0,
    time_limit: Annotated[float, typer.Option(
        "--time-limit", "-t", min=0.01, max=3600.0,
        help="Seconds; if they run out first, the ranking so far is shown and the exit code "
             "is 3.")] = 120.0,
    top: Annotated[int, typer.Option("--top", min=1, max=500,
                                     help="How many actions to show.")] = 8,
    last_turn: Annotated[LastTurnChoice, typer.Option(
        "--last-turn",
        help="Reading last_turn_scope: on a last turn, score exactly at the end of the "
             "player's own turn (own_turn), or sample the rest of the game like any turn "
             "(game_end: later opponents may still hand out gold or keys).")]
        = LastTurnChoice.own_turn,
    value: Annotated[ValueChoice, typer.Option(
        "--value",
        help="Rank by the player's mean final score (score), or by its mean margin over the "
             "best opponent (margin: what wins a game; the advisor bot's choice).")]
        = ValueChoice.score,
    as_json: options.Json = False,
) -> None:
    """Rank every legal action of this turn by the final score it leads to.

    On the player's last turn the values are exact. Earlier, each is the mean final score over
    sampled completions: the hidden decks shuffled from the cards the player cannot see, every
    seat then played by the greedy bot; the ± is the standard error. The real deck order is
    never read.

    Examples:

      castell combo advise game.json

      castell combo advise game.json --player Ana --samples 32 --seed 7 --json

      castell combo advise game.json --value margin
    """
    state = _load(state_file)
    advice = advise(state, player, samples=samples, seed=seed, time_limit=time_limit,
                    last_turn=last_turn.value, value=value.value)
    if as_json:
        from service.results.base import output_of
        from service.results.combo import ComboAdviceOutput  # deferred: only for --json

        emit_output(output_of(ComboAdviceOutput, advice.as_dict()))
    else:
        what = "score" if value is ValueChoice.score else "margin over the best opponent"
        how = "exact (last turn)" if advice.last_turn else \
            f"mean final {what} over up to {samples} sampled completions ± standard error"
        title = escape(f"{advice.player}: {len(advice.ranking)} legal actions, {how}")
        table = Table(title=title)
        for column in ("#", "action", "value", "±", "samples", "why"):
            table.add_column(column, justify="right" if column in ("#", "value", "±",
                                                                   "samples") else "left")
        for rank, item in enumerate(advice.ranking[:top], 1):
            table.add_row(str(rank), Text(str(item.action)),
                          f"{item.value:.2f}" if item.samples else "-",
                          "exact" if item.exact else f"{item.stderr:.2f}" if item.samples
                          else "-", str(item.samples),
                          Text(item.reason))
        out().print(table)
    if not advice.complete:
        err().print(Text("time limit: not every planned sample was played; the ranking so far",
                         style="yellow"))
        raise typer.Exit(int(ExitCode.TIME_LIMIT))


# --- tournament ---------------------------------------------------------------------------------



def _write_csv(path: str, summary: Summary, deck: Deck) -> None:
    with atomic_open(path) as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(["card", "location", "cost", "bought", "bought_per_game",
                         "mean_points", "owners_win_rate"])
        for card in deck.cards:
            row = summary.cards[card.id]
            writer.writerow([card.id, card.location, card.cost, row["bought"],
                             row["bought_per_game"], row["mean_points"],
                             row["owners_win_rate"]])


def _print_summary(summary: Summary, top: int) -> None:
    bots = Table(title=f"{summary.games} games")
    for column in ("bot", "games", "win rate", "95% interval", "mean score", "sd", "min-max"):
        bots.add_column(column, justify="left" if column == "bot" else "right")
    for bot, row in summary.bots.items():
        low, high = row["ci95"]
        bots.add_row(bot, str(row["games"]), f"{row['win_rate']:.1%}",
                     f"{low:.1%}-{high:.1%}", f"{row['mean_score']:.1f}",
                     f"{row['sd_score']:.1f}", f"{row['min_score']}-{row['max_score']}")
    out().print(bots)
    bought = [(k, v) for k, v in summary.cards.items() if v["bought"]]
    bought.sort(key=lambda kv: (-kv[1]["owners_win_rate"], kv[0]))
    cards = Table(title=f"cards by their owners' win rate (top and bottom {top}; all in --csv)")
    for column in ("card", "bought/game", "mean points", "owners' win rate"):
        cards.add_column(column, justify="left" if column == "card" else "right")
    shown = bought if len(bought) <= 2 * top else [*bought[:top], *bought[-top:]]
    for card_id, row in shown:
        cards.add_row(card_id, f"{row['bought_per_game']:.3f}", f"{row['mean_points']:.2f}",
                      f"{row['owners_win_rate']:.1%}")
    out().print(cards)


@app.command("tournament")
@at_edge
def tournament_cmd(
    bots: Annotated[str, typer.Option(
        "--bots", help="Comma-separated bots, one per seat: random, greedy, advisor.")]
        = "advisor,greedy",
    games: Annotated[int, typer.Option("--games", "-g", min=1, max=1_000_000,
                                       help="How many games.")] = 100,
    seed: Annotated[int, typer.Option("--seed", min=0, max=2**31 - 1,
                                      help="Same seed, same games and results.")] = 1,
    workers: Annotated[int, typer.Option(
        "--workers", "-w", min=1, max=64,
        help="Processes playing games (the results do not depend on it).")] = 1,
    advisor_samples: Annotated[int, typer.Option(
        "--advisor-samples", min=1, max=1000,
        help="The advisor bot's sampled completions per candidate action.")] = BOT_SAMPLES,
    cards_file: CardsFile = None,
    csv_file: Annotated[str | None, typer.Option(
        "--csv", metavar="FILE", help="Write the per-card statistics as CSV.")] = None,
    top: Annotated[int, typer.Option("--top", min=1, max=100,
                                     help="Cards shown at each end of the table.")] = 8,
    as_json: options.Json = False,
) -> None:
    """Bots play seeded games: win rates with 95% intervals, scores, per-card statistics.

    Seats rotate (each bot starts as often); ties share the win. Deterministic for a seed, the
    same with any number of workers. Ctrl-C stops it (exit 130, no file written).

    Examples:

      castell combo tournament --bots greedy,random --games 200 --seed 1

      castell combo tournament --bots advisor,greedy --games 50 --workers 2 --csv cards.csv
    """
    not_an_input(csv_file, cards_file, option="--csv")
    deck = load_deck(cards_file)
    names = [b.strip() for b in bots.split(",")]
    console = err()
    try:
        with Progress("games", BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                      console=console, transient=True,
                      disable=not console.is_terminal) as progress:
            task = progress.add_task("games", total=games)
            summary = run_tournament(deck, names, games, seed, workers, advisor_samples,
                                     on_game=lambda _: progress.advance(task))
    except KeyboardInterrupt:
        fail_interrupted("interrupted; nothing written")
    if csv_file is not None:
        _write_csv(csv_file, summary, deck)
    if as_json:
        from service.results.base import output_of
        from service.results.combo import ComboTournamentOutput  # deferred: only for --json

        emit_output(output_of(ComboTournamentOutput, summary.as_dict()))
    else:
        _print_summary(summary, top)
