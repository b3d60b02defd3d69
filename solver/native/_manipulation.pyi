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

def natural_most(
    tc: list[int], bc: list[int], ace: int, budget: int, beams: list[int], exact: bool
) -> tuple[int, list[list[int]], list[int], int]:
    """``plain._descend_pure(tc, bc, ace, budget, beams, exact)``: the program asked for the whole bound
    ``sum(bc)`` with each cap of ``beams``, then (``exact``) with no cap for the bound, one fewer, ...
    down to one, every try's work against ``budget``: (1, melds, used, work) for the first play
    found, (0, [], [], work) for none (exact only), (-1, [], [], work) past the budget or, not
    exact, when no beam found one."""
