"""The lean models' common part: a model that follows the pawn's walk turn by turn (far fewer
variables than the full model), its solves, and its plan written as the full model's values."""
