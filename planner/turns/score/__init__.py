"""The score goal: the most end-of-game points at the end of the horizon, from the lean score
model's route and bound, its caps, and the full model's stages."""
