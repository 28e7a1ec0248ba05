"""The intervals of the tournaments' reports (`planner.stats`): the Wilson interval, and the
cluster bootstrap that counts deals, not games."""

from __future__ import annotations

import pytest

from planner.stats import (
    Cluster,
    cluster_intervals,
    difference_intervals,
    percentile_interval,
    ratio,
    wilson,
)


def _wins(outcomes: list[float], copies: int = 1) -> list[Cluster]:
    """A deal a cluster: its win shares summed over `copies` games of it."""
    return [((w * copies,), (float(copies),)) for w in outcomes]


OUTCOMES = [1.0, 0.0, 0.0, 1.0, 0.5, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.0] * 2


def test_the_value_is_the_ratio_of_sums() -> None:
    assert ratio(_wins(OUTCOMES), 0) == pytest.approx(sum(OUTCOMES) / len(OUTCOMES))
    assert ratio([((0.0,), (0.0,))], 0) is None


def test_the_bootstrap_is_seeded_and_holds_the_value() -> None:
    first = cluster_intervals(_wins(OUTCOMES), 500, seed=3)
    assert first == cluster_intervals(_wins(OUTCOMES), 500, seed=3)
    assert first != cluster_intervals(_wins(OUTCOMES), 500, seed=4)
    low, high = first[0] or (0, 0)
    assert low < sum(OUTCOMES) / len(OUTCOMES) < high


def test_copies_of_a_deal_do_not_narrow_the_interval() -> None:
    """A deal played from three seats by identical bots is one game three times: the deal
    bootstrap gives the interval of the deals, where counting the games as independent
    (Wilson over three times the games) gives a narrower one."""
    once = cluster_intervals(_wins(OUTCOMES), 1000, seed=1)[0]
    thrice = cluster_intervals(_wins(OUTCOMES, copies=3), 1000, seed=1)[0]
    assert once == pytest.approx(thrice)
    assert once is not None
    naive = wilson(3 * sum(OUTCOMES), 3 * len(OUTCOMES))
    assert naive[1] - naive[0] < 0.8 * (once[1] - once[0])


def test_a_statistic_without_counts_has_no_interval() -> None:
    clusters: list[Cluster] = [((1.0, 0.0), (1.0, 0.0)), ((0.0, 0.0), (1.0, 0.0))]
    intervals = cluster_intervals(clusters, 100)
    assert intervals[0] is not None and intervals[1] is None
    assert percentile_interval([None, 1.0]) is None
    assert percentile_interval([0.0, 1.0]) == pytest.approx((0.025, 0.975))


def test_the_difference_of_a_tournament_with_itself_is_about_nothing() -> None:
    (low, high), = difference_intervals(_wins(OUTCOMES), _wins(OUTCOMES), 1000)  # type: ignore[misc]
    assert low < 0 < high and abs(low + high) < 0.1
    better = [1.0] * 20 + [0.0] * 4
    (low, high), = difference_intervals(_wins(OUTCOMES), _wins(better), 1000)  # type: ignore[misc]
    assert low > 0


def test_a_paired_difference_resamples_the_same_deals() -> None:
    """Two variants on the same deals: a deal-by-deal shift is measured against the deals'
    spread only once, so the paired interval is narrower than the unpaired one."""
    shifted = [min(1.0, w + 0.25) for w in OUTCOMES]
    paired = difference_intervals(_wins(OUTCOMES), _wins(shifted), 1000, paired=True)[0]
    apart = difference_intervals(_wins(OUTCOMES), _wins(shifted), 1000)[0]
    assert paired is not None and apart is not None
    assert paired[0] > 0 and paired[1] - paired[0] < apart[1] - apart[0]
    with pytest.raises(ValueError, match="equal numbers"):
        difference_intervals(_wins(OUTCOMES), _wins(OUTCOMES[:3]), 10, paired=True)
