"""The Castell pages: the game page's content (`page`) and the routes only Castell has
(`routes`: claims, festival towers, refills, the tower builder's check, the best tower)."""
