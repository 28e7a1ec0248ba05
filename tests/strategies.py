"""Hypothesis strategies for Castell values."""

from __future__ import annotations

from hypothesis import strategies as st

from models.tower import VARIANTS, Festival, Level, Pool, Rules, SkillRanks, Tower
from models.tower.skills import Skill
from models.tower.tiles import ExhibitionTile, ShapeTile

sizes = st.integers(min_value=1, max_value=10)


def ranks(max_rank: int = 2) -> st.SearchStrategy[SkillRanks]:
    r = st.integers(min_value=0, max_value=max_rank)
    return st.builds(SkillRanks, balance=r, base=r, mix=r, strength=r, width=r)


def pools(min_size: int = 1, max_size: int = 12) -> st.SearchStrategy[Pool]:
    return st.lists(sizes, min_size=min_size, max_size=max_size).map(Pool.of)


rules: st.SearchStrategy[Rules] = st.sampled_from(list(VARIANTS.values()))

levels = st.lists(sizes, min_size=1, max_size=6).map(Level.of)
towers = st.lists(levels, min_size=1, max_size=7).map(lambda ls: Tower(tuple(ls)))


@st.composite
def plausible_towers(draw: st.DrawFn) -> Tower:
    """Towers built bottom-up near the rules (sizes and counts falling by 0..2 a level, some
    mixed levels), so that many of them are valid under some ranks."""
    count = draw(st.integers(1, 6))
    low = draw(st.integers(1, 10))
    built = []
    for _ in range(draw(st.integers(1, 7))):
        high = min(10, low + draw(st.integers(0, 1)))
        built.append(Level.of(draw(st.sampled_from([low, high])) for _ in range(count)))
        low -= draw(st.integers(0, 2))
        count -= draw(st.integers(0, 2))
        if low < 1 or count < 1:
            break
    return Tower(tuple(built))


festivals = st.lists(sizes, min_size=1, max_size=3).map(lambda t: Festival(tuple(t)))
shape_tiles = st.lists(st.integers(1, 5), min_size=1, max_size=5).map(
    lambda c: ShapeTile(tuple(sorted(c, reverse=True))))
exhibition_tiles = st.builds(
    ExhibitionTile,
    points=st.integers(1, 6),
    skills=st.frozensets(st.sampled_from(list(Skill)), min_size=1, max_size=2),
)
