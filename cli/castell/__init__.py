"""The Castell commands: towers, tiles, the board, game states, plans, play, puzzles and
tournaments."""
