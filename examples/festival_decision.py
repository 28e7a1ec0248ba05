"""Which of this round's festivals should I travel to?

A player holds a team and skill ranks; two festivals are coming with different size tokens.
We ask the solver for the best proven tower at each and pick the higher score.
Run: python examples/festival_decision.py
"""

from models.tower import STANDARD, Festival, Pool, SkillRanks, check_tower
from planner.tower import FestivalTower, Status, answer

team = Pool.parse("10,9x4,8,7x3,6,6,5x2,3")
ranks = SkillRanks.parse("width=1,balance=1")
festivals = {"Valls": Festival.parse("6,3"), "Tarragona": Festival.parse("8,5,2")}

best_town, best_score = None, -1
for town, festival in festivals.items():
    reply = answer(FestivalTower(festival), team, ranks, STANDARD)
    result = reply.result
    if result.status is Status.OPTIMAL and result.tower is not None:
        assert check_tower(result.tower, ranks, pool=team).valid
        print(f"{town} ({festival}): score {result.objective} with {result.tower}")
        if result.objective is not None and result.objective > best_score:
            best_town, best_score = town, result.objective
    elif reply.why_not is not None:
        print(f"{town} ({festival}): cannot compete: {'; '.join(reply.why_not.reasons)}")
        helps = ", ".join(str(s) for s in reply.why_not.suggestions) or "no single change"
        print(f"  would help: {helps}")

print(f"go to {best_town}" if best_town else "no festival is within reach")
