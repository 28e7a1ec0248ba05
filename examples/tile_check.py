"""Can I claim the local performance tiles in my region?

Run: python examples/tile_check.py
"""

from models.tower import STANDARD, Pool, SkillRanks, meets_tile, parse_tile
from planner.tower import TileCheck, answer

team = Pool.parse("9x4,8,7x3,5x2,4,3")
ranks = SkillRanks.parse("width=1,mix=1")

for text in ("shape:4-3-2-1", "exhibition:4:mix+width", "exhibition:5:balance"):
    tile = parse_tile(text)
    reply = answer(TileCheck(tile), team, ranks, STANDARD)
    tower = reply.result.tower
    if tower is not None:
        assert meets_tile(tile, tower, ranks, pool=team)
        print(f"{tile}: yes, build {tower}")
    else:
        assert reply.why_not is not None
        print(f"{tile}: no ({'; '.join(reply.why_not.reasons)})")
        for suggestion in reply.why_not.suggestions:
            print(f"  would help: {suggestion}")
