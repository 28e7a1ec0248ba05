"""Pictures of the games as SVG (drawsvg): towers, pools, the map with a game, Castle Combo
tableaux; shared by the CLI (`--svg`, puzzle sheets) and the web page."""
