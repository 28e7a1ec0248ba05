"""The festival goal: the best festival tower score in the horizon (progress toward one when
none is in reach), first on the lean model, then its tie-breaks on the full model."""
