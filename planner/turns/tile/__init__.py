"""The tile goal: claim a local performance tile in the earliest turn; when no plan does, why,
and the fewest turns that would."""
