"""The tile goal as a strategy of the turn planner: claim the tile in the earliest turn, the
plan cut at its claim, and when no plan claims it, why and the fewest turns that would."""

from __future__ import annotations

from models.game import Action, Board, Special
from planner.tower import Status
from planner.turns.budget import MAX_TURNS
from planner.turns.full.model import PlanModel
from planner.turns.full.stages import Stage, StagedResult, solve_stages
from planner.turns.horizon import Goal
from planner.turns.replay import Replay
from planner.turns.result import PlannedTurn
from planner.turns.strategy import GoalStrategy, GoalWords, PlanContext, Solved, Verdict
from planner.turns.tile.reach import fewest_turns_for_tile, tile_reasons
from planner.turns.tile.stages import tile_stages


class TileGoal(GoalStrategy):
    """Claim a local performance tile in the earliest turn."""

    name = "tile"
    words = GoalWords(about="claim TILE_ID as early as possible",
                      help="claim it as early as possible", value="{tile} claimed in round",
                      unproven="no plan claims it before round {bound}",
                      proven="no other plan of these turns claims {tile} in an earlier round "
                             "under the assumptions below",
                      fewest="the fewest turns that claim {tile}",
                      no_fewest=f"no horizon up to {MAX_TURNS} turns was found to claim "
                                "{tile} within the time limit")
    unit = "round"
    takes_tile = True

    def tiles(self, goal: Goal) -> set[str] | None:
        """The plan model keeps the claims of the goal's tile only."""
        return {goal.tile or ""}

    def stages(self, plan: PlanModel, goal: Goal, spare_tokens: bool = False) -> list[Stage]:
        return tile_stages(plan, goal.tile)

    def solve(self, ctx: PlanContext) -> Solved:
        # no idle hint: doing nothing does not meet this goal
        stages = self.stages(ctx.model, ctx.goal, spare_tokens=ctx.long)
        run = ctx.stage_run(ctx.allot.stages, light_presolve=ctx.light,
                            goal_share=ctx.budget.long_goal_share if ctx.long else 1.0)
        return Solved(*solve_stages(ctx.model.model, stages, run))

    def value(self, goal: Goal, board: Board, replayed: Replay, player: str,
              planned: tuple[PlannedTurn, ...]) -> int | None:
        """The round the tile is claimed in (None: not claimed)."""
        if goal.tile not in replayed.state.player(player).claimed_tiles:
            return None
        return next(turn.round for turn in planned
                    if any(isinstance(a, Special) and a.tile == goal.tile
                           for a in turn.actions))

    def trim(self, goal: Goal, actions: list[list[Action]]) -> list[list[Action]]:
        """The plan ends with the claim: later turns would be filler."""
        claimed = next(t for t, turn in enumerate(actions)
                       if any(isinstance(a, Special) and a.tile == goal.tile for a in turn))
        return actions[:claimed + 1]

    def user_value(self, ctx: PlanContext, model_value: int | None) -> int | None:
        """The model counts turns from the plan's first: a user reads rounds."""
        return None if model_value is None else model_value + ctx.start.round

    def judge(self, ctx: PlanContext, result: StagedResult, value: int | None) -> Verdict:
        bound = result.first_bound
        return Verdict(result.status, None if bound is None else bound + ctx.start.round,
                       result.clock_hit)

    def why_not(self, ctx: PlanContext, result: StagedResult
                ) -> tuple[tuple[str, ...], int | None]:
        """A proven no: why, and the fewest turns that claim the tile."""
        if result.status is not Status.INFEASIBLE:
            return (), None
        tile = ctx.goal.tile or ""
        fewest = fewest_turns_for_tile(ctx.begin, ctx.board, ctx.player, tile, ctx.rules,
                                       ctx.cautious, len(ctx.model.horizon.turns),
                                       ctx.clock.deadline, ctx.budget)
        return tile_reasons(ctx.model, tile), fewest
