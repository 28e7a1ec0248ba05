"""The Castle Combo pages: the game page's content (`page`) and the routes only Castle Combo
has (`routes`: the best arrangement after a game)."""
