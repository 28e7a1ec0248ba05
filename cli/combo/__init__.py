"""The Castle Combo commands (`castell combo ...`)."""
