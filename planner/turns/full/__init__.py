"""The full plan model: a time-expanded CP-SAT model of the planned turns (every stop, action,
team, rank, claim and festival tower) and its lexicographic solve in stages."""
