"""Contract Shanghai's compiled core (solver/native/src/contract.cpp): the exact distance search."""

from collections.abc import Callable, Sequence

_ShapeTuple = tuple[bool, int, int, int, Sequence[int]]
_CandTuple = tuple[int, int, int, int]
_Part = tuple[int, ...] | int

def combo_cost(shapes: Sequence[_ShapeTuple], hn: Sequence[int], pn: Sequence[int], hw: int, pw: int) -> int | None:
    """shapes.combo_cost: the exact fewest extra cards of a combination, or None."""

def price_combo(
    shapes: Sequence[_ShapeTuple], hn: Sequence[int], pn: Sequence[int], hw: int, pw: int
) -> tuple[int, tuple[_Part, ...], tuple[_Part, ...]] | None:
    """shapes.price_combo: (cost, hand split, pool split) of the cheapest split, or None."""

def hand_lay_down(
    counts: Sequence[int],
    wilds: Sequence[int],
    reqs: Sequence[tuple[bool, int]],
    same: Sequence[bool],
    ace: str,
    limit: str,
    distinct: bool,
    melds: bool,
) -> list[list[tuple[int, int]]] | bool | None:
    """search.hand_lay_down (melds=True: (card, role) pairs per meld in walk order, or None) or
    contract_possible's search (melds=False: a bool)."""

class Search:
    """search.DistanceSearch's candidates and walks."""

    def __init__(
        self,
        hn: Sequence[int],
        pn: Sequence[int],
        hw: int,
        pw: int,
        reqs: Sequence[tuple[bool, int]],
        same: Sequence[bool],
        ace: str,
        limit: str,
        distinct: bool,
        hand_only: bool,
        expired: Callable[[], bool] | None,
    ) -> None: ...
    def candidates(self) -> list[list[_CandTuple]]:
        """Each requirement's candidates in walk order: (shape index, s, q, need)."""
    def find(self, zero: bool) -> tuple[int | None, tuple[_CandTuple, ...] | None, bool]:
        """DistanceSearch.find: (best, the first best combination, complete)."""
    def each_best(
        self,
        best: int,
        visit: Callable[[tuple[_CandTuple, ...], tuple[int, int, int, int, int, int, int, bool]], None],
        skip: Callable[[int], bool] | None,
        stop_walk: type[BaseException],
    ) -> bool:
        """DistanceSearch.each_best: visit every best combination; whether the walk completed."""
    def price_moved(self, combo: Sequence[tuple[int, int]], card: int, to_hand: int) -> int | None:
        """DistanceSearch.price_moved on (requirement, shape index) pairs."""
    def outs(self, best: int) -> tuple[int, bool]:
        """DistanceSearch.outs's walk: the bits of the natural outs, and whether a wild is one."""
    @property
    def complete(self) -> bool: ...
