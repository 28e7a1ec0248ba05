"""Solvers, one package per subsystem: `planner.tower` (every tower question, CP-SAT and the
exhaustive reference), `planner.turns` (the turn planner) and `planner.puzzles` (puzzle
generation with proven unique solutions). Every answer is re-checked by `models`."""
