"""`castell plan`'s rich output, drawn from the plan's result model (`PlanOutput`): the same
fields the JSON holds, with the board's region names and the one action notation."""

from __future__ import annotations

from rich.markup import escape
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from cli.castell.render import stack, tower_picture
from cli.edge import err, out
from models.game import Board, format_action
from models.tower import Rules, Tower
from service.castell import plans
from service.results.plan import (
    ForecastPlacing,
    PlanFestival,
    PlanForecast,
    PlanOutput,
)

COST = {"free": "", "paid": "[yellow]paid: 1 token[/]", "free special": "[green]free special[/]"}


def render(result: PlanOutput, board: Board, rules: Rules) -> None:
    """The plan as a table of turns, its festivals' towers, the verdict and the assumptions;
    `rules`: the readings it was planned under (its towers are read back with them)."""
    names = {r.id: r.name for r in board.regions}
    if not result.found:
        _not_found(result)
        return
    out().print(_turns(result, board, names))
    _festivals(result, rules, names)
    _after(result, board, names)


def _turns(result: PlanOutput, board: Board, names: dict[str, str]) -> Table:
    """The planned turns, a row per action, in order."""
    table = Table(title=f"Plan for {escape(result.player)}: {result.goal}",
                  caption="numbers give the order of a turn's actions; tokens are special "
                  "action tokens")
    for column in ("round", "action", "cost", "why"):
        table.add_column(column, overflow="fold")
    for turn in result.turns:
        end = turn.ends_in
        first = f"{turn.round}" + (f"\nends in {names.get(end, end)}" if end else "")
        if not turn.steps:
            table.add_row(first, "-", "", "nothing to gain this turn")
        for number, step in enumerate(turn.steps, start=1):
            table.add_row(first if number == 1 else "",
                          f"{number}. {escape(format_action(step.action, board))}",
                          COST[step.cost],
                          escape(step.reason) + (f" [red](at risk: {escape(step.at_risk)} "
                                                 "could take it first)[/]"
                                                 if step.at_risk else ""))
        table.add_section()
    return table


def _festivals(result: PlanOutput, rules: Rules, names: dict[str, str]) -> None:
    """Each festival of the plan: the tower it builds and its forecast, or why it does not
    compete."""
    console = out()
    for festival in result.festivals:
        title = escape(f"{festival.location} ({names.get(festival.region, festival.region)}), "
                       f"round {festival.round}")
        if festival.tower is None:
            console.print(f"{title}: not competing ({escape(_not_competing(festival, names))})",
                          highlight=False)
            continue
        prize = f", {festival.prize}" if festival.prize else ""
        console.print(Panel(stack(tower_picture(Tower.parse(festival.tower, rules))),
                            title=title, subtitle=f"score {festival.score}, rank "
                            f"{festival.rank}{prize}", expand=False))
        forecast = next((f for f in result.forecast or () if f.round == festival.round
                         and f.location == festival.location), None)
        for line in _rivals(forecast, festival, names) if forecast else ():
            console.print(Text(line), highlight=False)


def _after(result: PlanOutput, board: Board, names: dict[str, str]) -> None:
    """What follows the plan: the festival it builds toward, the verdict, the what-ifs, the
    clock and the assumptions."""
    console = out()
    if plans.out_of_reach(result):
        console.print(_out_of_reach(result, names), highlight=False)
    if result.not_tried is not None:
        console.print(_not_tried(result), highlight=False)
    console.print(_verdict(result))
    if result.chances is not None:
        console.print(result.chances.words(), highlight=False)
    if result.fixed:
        console.print(_what_if(result, board), highlight=False)
    if result.what_if_rules is not None:
        console.print(Text(f"what-if: planned under readings {result.what_if_rules}, not the "
                           "game's"), highlight=False)
    if result.stopped_by_clock:
        console.print("[yellow]the time limit's wall clock stopped the search before its fixed "
                      "amount of work: another run may give another plan (a longer "
                      "--time-limit makes that less likely)[/]")
    for line in result.assumptions:
        console.print(Text(f"assuming {line}", style="dim"), highlight=False)


def _not_found(result: PlanOutput) -> None:
    console = out()
    why = {"infeasible": f"proven: no plan of {result.horizon} turn(s) meets the goal "
                         f"({result.goal})",
           "unknown": "the time limit came before any plan was found"}
    console.print(why.get(result.status, result.status), highlight=False)
    for line in result.why_not:
        console.print(f"  because {escape(line)}", highlight=False)
    words = plans.goal_words(result)
    if words["fewest"] and result.status == "infeasible":
        if result.fewest_turns is not None:
            console.print(f"{escape(words['fewest'])}: [bold]{result.fewest_turns}[/] "
                          f"(--turns {result.fewest_turns})", highlight=False)
        else:
            console.print(escape(words["no_fewest"]), highlight=False)
    if result.what_if_rules is not None:
        err().print(Text(f"what-if: planned under readings {result.what_if_rules}, not the "
                         "game's"), highlight=False)
    for line in result.assumptions:
        err().print(Text(f"assuming {line}"), highlight=False)


def _not_competing(festival: PlanFestival, names: dict[str, str]) -> str:
    """Why the player does not compete, by its code (the region names the board's)."""
    if festival.not_competing == "away":
        where = names.get(festival.pawn, festival.pawn) if festival.pawn else "off the board"
        return f"the pawn is in {where}, not {names.get(festival.region, festival.region)}"
    if festival.not_competing == "no_tower":
        return "could not compete: " + (festival.reason or "no valid tower")
    return festival.reason or "no tower"


# why a festival ahead is out of reach, by its code
WHY_NOT = {
    "too_far": "your pawn cannot stand in {region} by then",
    "no_tower": "no team you could have by then builds a tower that can compete there (4 "
                "levels, every size token)",
    "plan_proves_none": "the plan through it finds no tower that can compete there",
}


def _rivals(forecast: PlanForecast, festival: PlanFestival, names: dict[str, str]
            ) -> list[str]:
    """The opponents who could stand there in time, and where the player's score ranks."""
    if not forecast.rivals:
        return ["  no opponent can reach it in time"]
    where = names.get(forecast.region, forecast.region)
    lines = []
    for rival in forecast.rivals:
        there = f"stands in {where}" if rival.stands_there else f"could reach {where} in time"
        if rival.score_at_most is None:
            lines.append(f"  {rival.player} {there}, but no tower of theirs can compete there")
            continue
        now = ("no tower" if rival.score_with_team_now is None
               else f"{rival.score_with_team_now}")
        lines.append(f"  {rival.player} {there} and could score up to {rival.score_at_most} "
                     f"with what they could recruit and train on the way ({now} with their "
                     "team now)")
    worst, present = forecast.at_worst, forecast.with_teams_now
    lines.append(f"  your {forecast.score} would take {_placing(present)} against their teams "
                 f"now; at worst {_placing(worst)}"
                 + (f", not the {festival.prize}" if festival.prize
                    and worst.prize != festival.prize else ""))
    tokens = forecast.size_tokens or []
    if tokens and forecast.rivals:
        taken = [", ".join(str(k.size) for k in tokens if k.with_teams_now) or "none",
                 ", ".join(str(k.size) for k in tokens if k.at_worst) or "none"]
        lines.append(f"  size tokens you would take: {taken[0]} against their teams now; "
                     f"at worst {taken[1]}")
    return lines


def _placing(placing: ForecastPlacing) -> str:
    prize = f"the {placing.prize}" if placing.prize else "no prize"
    return f"{prize} (rank {placing.rank})"


def _not_tried(result: PlanOutput) -> str:
    space = result.not_tried
    assert space is not None
    return (f"the time limit left no time to plan through {space.location} (round "
            f"{space.round}), the next festival you could compete in: run with a longer "
            f"--time-limit, or --turns {space.round - result.turns[0].round + 1}")


def _out_of_reach(result: PlanOutput, names: dict[str, str]) -> str:
    upcoming = result.next_festival
    if upcoming is None:
        return _none_in_reach(result, names)
    where = names.get(upcoming.region, upcoming.region)
    sizes = ", ".join(map(str, upcoming.size_tokens))
    inside = upcoming.round < result.turns[0].round + result.horizon \
        or result.not_tried is not None  # said next
    return (f"no festival tower is within reach in {result.horizon} turn(s); the next festival "
            f"you could compete in: {upcoming.location} ({where}), end of round "
            f"{upcoming.round}, sizes {sizes}" + ("" if inside else
            " (beyond the horizon: plan more turns, or omit --turns)")
            + "; the plan builds toward it")


def _none_in_reach(result: PlanOutput, names: dict[str, str]) -> str:
    """Said once: no festival ahead is one the player could compete in, each one's why, and
    the festival the plan builds toward instead."""
    ahead = result.festivals_ahead or []
    if not ahead:
        return "no festival tower is within reach, and no festival is left to plan toward"
    why = "; ".join(
        f"{a.location} (round {a.round}): "
        + WHY_NOT[a.out_of_reach or "plan_proves_none"].format(
            region=names.get(a.region, a.region)) for a in ahead)
    aim = result.target
    toward = "" if aim is None else (f"; the plan builds toward {aim.location} (round "
                                     f"{aim.round}), the most promising")
    return f"no festival ahead is one you could compete in: {why}{toward}"


def _what_if(result: PlanOutput, board: Board) -> str:
    fixed = escape("; ".join(format_action(a, board) for a in result.fixed or ()))
    other = result.without_fix
    if other is None or other.objective is None:
        return f"what-if ({fixed}): the plan without it found no value to compare"
    diff = result.difference
    if diff == 0:
        return f"what-if ({fixed}): as good as the free plan ({other.objective})"
    return (f"what-if ({fixed}): {result.objective} against {other.objective} without it "
            f"({'+' if diff and diff > 0 else ''}{diff})")


def _verdict(result: PlanOutput) -> str:
    """The plan's value and what is proven of it, in a player's words: "the best possible"
    only when proven and no clock decided anything; then what it prefers among plans as good
    (the tie-breaks, in order, each with this plan's value)."""
    words = plans.goal_words(result)
    goal = words["value"]
    if result.status == "optimal" and not result.stopped_by_clock:
        proof = (f"[bold green]the best possible for these turns[/] (proven: "
                 f"{escape(words['proven'])})")
    elif result.status == "optimal":
        proof = ("[yellow]proven only for the search the clock left[/] (another run may find "
                 "another plan)")
    elif result.bound is None:
        proof = "[yellow]not proven the best[/] (no bound yet)"
    else:
        proof = f"[yellow]not proven the best[/] ({escape(words['unproven'])})"
    ties = ", then ".join(f"{escape(_preferred(t.name))} (this plan: "
                     f"{'unknown' if t.value is None else t.value}"
                     + ("" if t.proven else ", not proven") + ")" for t in result.tie_breaks)
    return f"{goal}: [bold]{result.objective}[/], {proof}" + (
        f"\namong plans as good, it prefers {ties}" if ties else "")


def _preferred(tie_break: str) -> str:
    """A tie-break by what it prefers: fewer tokens spent, a taller tower, more of the rest."""
    if tie_break == "special tokens spent":
        return f"fewer {tie_break}"
    if tie_break.startswith("tallest "):
        return f"a taller {tie_break.removeprefix('tallest ')}"
    return f"more {tie_break}"

