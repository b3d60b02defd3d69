"""Manipulation Shanghai's compiled core (solver/native/src/manipulation.cpp)."""

def natural_best(
    stages: list[tuple[int, int, int, int, int, int, int]], budget: int, target: int
) -> tuple[int, int, list[int], int]:
    """``natural._Program(stages, budget).best(target)``: (1, value, packed path, work), (0, 0, [],
    work) when no path reaches ``target``, (-1, 0, [], work) past the budget; ``work`` is the steps
    counted when the program stopped (``_Program.work``)."""

def natural_program(
    tc: list[int], bc: list[int], ace: int, budget: int, target: int
) -> tuple[int, list[list[int]], list[int], int]:
    """``natural._program(tc, bc, ace, budget, target)`` (stages, program, melds in one call; ace 0
    low, 1 high, 2 both): (1, melds, used, work), (0, [], [], work) when no play reaches
    ``target``, (-1, [], [], work) past the budget."""
