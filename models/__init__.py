"""The rules core, solver-free: `models.tower` (the tower rules, notation and checker) and
`models.game` (board, state, referee, scoring). Here at the top: what every subsystem shares,
the typed errors (`models.errors`), reading user files (`models.files`) and the puzzle file
format (`models.puzzle`)."""
