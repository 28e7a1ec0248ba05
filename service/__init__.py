"""The application layer: one game handle per game (`service.castell.Game`,
`service.combo.ComboGame`), the use cases both interfaces call (towers, plans, festivals,
scores, puzzles, Castle Combo), their results with one JSON form (`service.results`), cancel
tokens (`service.cancel`) and the game files' store (`service.store`). The CLI and the web page
are thin edges over it: neither imports a solver.
"""
