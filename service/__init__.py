"""The application layer: a package per game, each with its game handle and its use cases
(`service.castell`: `Game`, towers, plans, festivals, views, setup, maps, readings, puzzles,
tournaments; `service.combo`: `ComboGame`, cards, scores, a new game, the view, arrangement,
advice, tournaments), and what both share beside them: their results with one JSON form
(`service.results`), the pictures (`service.pictures`), batches (`service.batch`,
`service.batches`), cancel tokens (`service.cancel`) and the game files' store
(`service.store`). The CLI and the web page are thin edges over it: neither imports a solver.
"""
