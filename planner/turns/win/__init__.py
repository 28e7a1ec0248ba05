"""The win goal: the score goal's plan, its first turn chosen by what it leaves after the
rivals' answers (`planner.turns.win.goal`)."""
