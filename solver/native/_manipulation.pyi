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

def meld_codes(melds: list[list[int]], ace: int) -> list[int]:
    """The codes of a table's natural melds (card indexes 0-51, no joker; ace 0 low, 1 high, 2 both)
    for :func:`engine_position`; ``ValueError`` for a meld that is not a valid natural set or run."""

def engine_position(
    codes: list[int], hand: list[int] | tuple[int, ...], ace: int, decks: int, ask: int
) -> tuple[
    tuple[int, ...],
    int,
    int,
    tuple[int, list[int], list[list[int]], tuple[int, ...] | None] | None,
    bool,
]:
    """(playable bound counts, cards in it, cards the greedy play adds, stage 3 or None, whether the
    hand makes a meld of its own) of the table
    of ``codes`` and the hand counts ``hand`` (no joker); stage 3 (``status``, kept old melds'
    places, the other melds, played counts: status -1 natural_play's None, 0 no play, 1 a play) is
    asked when the greedy play adds fewer cards than the bound and than ``ask``; None also when
    more than four copies of a card would cross (the Python runs it)."""

def check_play(
    gone: list[list[int]], fresh: list[list[int]], hand: list[int] | tuple[int, ...], ace: int
) -> tuple[int, ...] | None:
    """The hand counts a play adds, the melds it drops (``gone``) and its new melds (``fresh``) given
    by card indexes 0-51 (``melds.validate_rearrangement`` on them), or None when the Python is to
    referee it (a fresh meld that is no valid natural set or run, a table card lost, a card
    invented)."""
