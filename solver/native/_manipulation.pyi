"""Manipulation Shanghai's compiled core (solver/native/src/manipulation.cpp)."""

def natural_best(
    stages: list[tuple[int, int, int, int, int, int, int]], budget: int, target: int
) -> tuple[int, int, list[int]]:
    """``natural._Program(stages, budget).best(target)``: (1, value, packed path), (0, 0, []) when
    no path reaches ``target``, (-1, 0, []) past the budget."""
