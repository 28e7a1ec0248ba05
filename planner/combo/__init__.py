"""Castle Combo solvers (the next Castle Combo issue): they will use `models.combo` for the rules
and re-check every answer with its scoring; nothing here yet."""
