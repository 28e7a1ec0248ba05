"""`castell combo`: Castle Combo's cards, exact end scores, and a game to play or record (the use
cases are `service.combo*`; this module reads the options and shows the answers)."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.text import Text

from cli import options
from cli.combo.render import print_cards, print_state, print_stats, sheet_table
from cli.edge import Terminated, at_edge, emit_output, err, out, written_after_stop
from cli.inputs import emit_batch
from models.combo import MAX_GOLD, MAX_KEYS, READINGS, group_words
from models.errors import Refused, SpecError
from models.files import not_an_input, write_atomic
from service.results import SCHEMA_VERSION
from service.results.game import RefusedOutput

# shell completion is installed from the root command only (`castell --install-completion`)
app = typer.Typer(help="Castle Combo: cards, exact end scores, a game to play or record, and "
                       "solvers (best arrangement, turn advice, bot tournaments).",
                  no_args_is_help=True, add_completion=False)

CardsFile = Annotated[str | None, typer.Option(
    "--cards", "-c", metavar="FILE", help="A card file (TOML); default: the invented sample deck.")]
StateArg = Annotated[str, typer.Argument(metavar="STATE", help="A Castle Combo game state file.")]
MAX_ACTIONS = 100


@app.command("cards")
@at_edge
def cards(
    cards_file: CardsFile = None,
    stats: Annotated[bool, typer.Option(
        "--stats", help="Compare the deck's shield, cost, Messenger and purse statistics with "
                        "the real game's.")] = False,
    as_json: options.Json = False,
) -> None:
    """List a deck's cards, or (--stats) compare its statistics with the real game's.

    Examples:

      castell combo cards

      castell combo cards --cards my_copy.toml --stats --json
    """
    from service.combo.cards import deck_cards, deck_statistics

    if stats:
        statistics = deck_statistics(cards_file)
        if as_json:
            emit_output(statistics)
        else:
            print_stats(statistics)
        return
    listing = deck_cards(cards_file)
    if as_json:
        emit_output(listing)
    else:
        print_cards(listing)


@app.command("score")
@at_edge
def score(
    tableau: Annotated[str | None, typer.Argument(
        metavar="TABLEAU",
        help="Rows top to bottom split by '/': 'C07,V12,-/V03,~C20,-/-,-,-'.")] = None,
    cards_file: CardsFile = None,
    keys: Annotated[int, typer.Option("--keys", min=0, max=MAX_KEYS,
                                      help="Keys at the end.")] = 0,
    gold: Annotated[int, typer.Option("--gold", min=0, max=MAX_GOLD,
                                      help="Gold left over (put on purses here).")] = 0,
    stored: Annotated[str | None, typer.Option(
        "--stored", metavar="CELL=N,...",
        help="Gold already on purse cards, by cell (top-left=3) or card id (V07=3).")] = None,
    batch: options.Batch = None,
    as_json: options.Json = False,
) -> None:
    """The exact end score of a tableau: every scroll, keys, leftover gold put on purses.

    With --batch, each line is {"tableau": ..., "keys": n, "gold": n, "stored": "CELL=N,..."}
    and each answer the --json object (or {"line": n, "error": ...}); exit 2 if any line was bad.

    Examples:

      castell combo score "C07,V12,C01/V03,~C20,V05/C11,V14,V22" --keys 3 --gold 7

      castell combo score "C07,V12,C01/V03,~C20,V05/C11,V14,V22" --stored C11=2 --json

      echo '{"tableau": "C01,C02,-/-,-,-/-,-,-", "gold": 4}' | castell combo score --batch -
    """
    from models.combo import load_deck
    from service.combo.score import ScoreLine, score_line
    from service.combo.score import score as score_tableau

    deck = load_deck(cards_file)
    if batch is not None:
        if tableau is not None:
            raise SpecError("give either a TABLEAU or --batch, not both")
        # each line's JSON object is its result model's (emit_batch adds `schema_version`)
        emit_batch(batch, ScoreLine, lambda line: score_line(deck, line).model_dump(
            mode="json", exclude={"schema_version"}))
    if tableau is None:
        raise SpecError("missing TABLEAU (or --batch FILE); see 'castell combo score --help'")
    scored = score_tableau(deck, tableau, keys, gold, stored)
    if as_json:
        emit_output(scored.output)
        return
    out().print(sheet_table(str(scored.grid), scored.sheet))


@app.command("new")
@at_edge
def new(
    players: Annotated[str, typer.Option(
        "--players", "-p", help="2-5 comma-separated names, in seating (clockwise) order.")],
    seed: Annotated[int, typer.Option("--seed", min=0, help="Same seed, same game.")] = 0,
    cards_file: CardsFile = None,
    deal: Annotated[str | None, typer.Option(
        "--deal", metavar="FILE",
        help="Record a real game: a TOML file with the dealt rows (castle = [...], "
             "village = [...]); needs --first.")] = None,
    first: Annotated[str | None, typer.Option(
        "--first", help="Who starts (default: drawn by the seed).")] = None,
    reading: Annotated[list[str] | None, typer.Option(
        "--reading", metavar="NAME=VALUE",
        help=f"Choose a reading: {'; '.join(f'{k}: {v}' for k, v in READINGS.items())}.")]
        = None,
    output: Annotated[str, typer.Option(
        "--out", "-o", metavar="FILE", help="Write the state here ('-' = stdout).")] = "-",
) -> None:
    """Start a game: shuffle (seeded) and deal, or record a real deal with --deal.

    Examples:

      castell combo new --players Ana,Ben --seed 5 --out game.json

      castell combo new --players Ana,Ben,Cem --deal rows.toml --first Ben --out real.json
    """
    from service.combo.new import start_game, write_new

    not_an_input(output, deal, cards_file)
    state = start_game(players, seed=seed, cards_file=cards_file, deal=deal, first=first,
                       reading=reading)
    if output == "-":
        typer.echo(state.to_json(), nl=False)
        return
    write_new(state, output)
    typer.echo(f"wrote {output}: {', '.join(p.name for p in state.now.players)}; "
               f"{state.now.player.name} starts", err=True)


@app.command("show")
@at_edge
def show(
    state_file: StateArg,
    svg: Annotated[str | None, typer.Option(
        "--svg", metavar="FILE", help="Also draw the tableaux as an SVG picture.")] = None,
    as_json: options.Json = False,
) -> None:
    """Show a game: rows, Messenger, each tableau as a 3x3 grid; at the end, the scores.

    After the last turn it shows each player's score breakdown and the winner.

    Example:

      castell combo show game.json --svg tableaux.svg
    """
    from service.combo import ComboGame

    not_an_input(svg, state_file, field="svg")
    options.not_onto_stdout(svg, as_json)
    game = ComboGame.load(state_file)
    if svg is not None:
        from service.pictures.combo_svg import tableaux  # deferred: keeps start-up light

        write_atomic(svg, tableaux(game.view()).as_svg())
    if as_json:
        emit_output(game.view())
        return
    print_state(game.view())
    if svg is not None:
        out().print(Text(f"tableaux drawn to {svg}"))


@app.command("play")
@at_edge
def play(
    state_file: StateArg,
    actions: Annotated[list[str], typer.Argument(
        metavar="ACTION...",
        help="'key move', 'key renew', 'buy V12 at 0,1' (adding 'choose 2', 'discard C07' or "
             "'neighbour Ben' when the card's ability asks), 'flip C03 at 1,1', "
             "'reveal V12 C03', 'undo'.")],
    player: Annotated[str | None, typer.Option(
        "--player", help="Who is playing: a step is refused unless it is their turn (an undo "
                         "unless the last step is theirs).")] = None,
    as_json: options.Json = False,
) -> None:
    """Play actions in order and save the game; a refused action changes nothing (exit 1).

    Positions `at ROW,COLUMN` are relative to your first card (rows down, columns right). Undo
    never goes back over a step that drew a card into a row, except in a recorded game.

    Examples:

      castell combo play game.json "key move" "buy V12 at 0,1 choose 2"

      castell combo play game.json "flip C03 at 1,1" --player Ana

      castell combo play real.json reveal V12 C03

      castell combo play real.json undo
    """
    from service.combo import ComboGame

    if len(actions) > MAX_ACTIONS:
        raise SpecError(f"at most {MAX_ACTIONS} actions at a time")
    loaded: list[int] = []  # the revision the steps were made on
    try:
        with ComboGame.editing(state_file) as game:
            loaded.append(game.revision)
            for text in group_words(actions):
                game.step(text, as_player=player)
            game.save()
    except (KeyboardInterrupt, Terminated):
        now = written_after_stop(state_file, loaded)
        if now is None:
            raise  # nothing written: interrupted as any command
        err().print(f"saved: revision {now} (stopped after the steps were written)")
        return
    except Refused as error:
        if as_json:  # a script gets one object for a refused step too
            emit_output(RefusedOutput(schema_version=SCHEMA_VERSION, refused=True,
                                      code=error.code.value, reason=str(error)))
        raise
    if as_json:
        emit_output(game.view())
        return
    print_state(game.view())
