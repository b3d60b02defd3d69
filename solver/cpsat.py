"""The one home of CP-SAT settings: parameters, time limits and the status map.

Every model in the library is solved through these functions, so the
parameters that measured fastest, the time-limit floor and the mapping of
CP-SAT's status codes to :class:`solver.errors.Status` are written once.
CP-SAT is told not to take SIGINT (``catch_sigint_signal``): Ctrl-C belongs
to the program, and :func:`stop_searches` stops every running solve at once
(the command line calls it from its signal watcher, ``cli/signals.py``).
The models are small and tight: one worker (faster and deterministic), and
the expensive presolve, probing, symmetry and cut stages can be switched off
where they measured slower (docs/decisions-manipulation.md).

>>> params = parameters(0.5, lean=True)
>>> params.num_workers, params.cp_model_presolve, params.max_time_in_seconds, params.catch_sigint_signal
(1, False, 0.5, False)
>>> status_of(cp.CpSolverStatus.INFEASIBLE)
<Status.INFEASIBLE: 'infeasible'>
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Final, Protocol

from ortools.sat.python import cp_model_helper as cp

from solver.errors import SolverTimeout, Status

if TYPE_CHECKING:  # cp_model imports pandas (about 0.7 s): only the models built with CpModel need it
    from ortools.sat.python import cp_model

__all__ = [
    "MIN_TIME",
    "parameters",
    "status_of",
    "solve_proto",
    "solution_values",
    "solver_for",
    "require_answer",
    "stop_searches",
    "Stop",
    "stoppable",
    "stopped",
]

MIN_TIME: Final = 0.001
"""The shortest time limit passed to CP-SAT (it rejects zero)."""

_STATUS: Final[dict[Any, Status]] = {
    cp.CpSolverStatus.OPTIMAL: Status.OPTIMAL,
    cp.CpSolverStatus.FEASIBLE: Status.FEASIBLE,
    cp.CpSolverStatus.INFEASIBLE: Status.INFEASIBLE,
    cp.CpSolverStatus.UNKNOWN: Status.UNKNOWN,
}


class _Stoppable(Protocol):
    def stop_search(self) -> None: ...


_RUNNING: Final[set[_Stoppable]] = set()
"""The solves running now (any thread): what :func:`stop_searches` stops."""
_RUNNING_LOCK: Final = threading.Lock()


def stop_searches() -> int:
    """Stop every CP-SAT search running in this process (safe from any thread); how many there were.

    A stopped solve returns at once with what it has (``feasible`` or ``unknown``), as at its time
    limit; the caller that asked for the stop (Ctrl-C) then raises ``KeyboardInterrupt``.
    """
    with _RUNNING_LOCK:
        running = list(_RUNNING)
    for solve in running:
        solve.stop_search()
    return len(running)


class Stop:
    """A request to stop, given from another thread, to the questions asked under it (:func:`stoppable`).

    :meth:`stop` stops the CP-SAT searches running under it at once (CP-SAT's ``StopSearch``: each
    returns the best answer found so far), makes every later one return at once, and ends the
    Python searches that check :func:`stopped` with their deadline (the ismcts search, the
    Zheng Shang You listing and fewest-plays search, the Contract exact search). The answer is then
    the one so far: ``feasible`` where it is not proven (the engine's ``stop``, docs/protocol.md).
    """

    def __init__(self) -> None:
        self._event = threading.Event()
        self._lock = threading.Lock()
        self._running: list[Any] = []

    @property
    def is_set(self) -> bool:
        """True once :meth:`stop` was called."""
        return self._event.is_set()

    def stop(self) -> None:
        """Stop every search under this token (safe from any thread, any number of times)."""
        self._event.set()
        with self._lock:
            running = list(self._running)
        for search in running:
            search.stop_search()
            params = getattr(search, "parameters", None)  # a CpSolver that has not started yet
            if params is not None:
                params.max_time_in_seconds = MIN_TIME

    def _add(self, search: Any) -> None:
        with self._lock:
            self._running.append(search)
        if self._event.is_set():
            search.stop_search()

    def _remove(self, search: Any) -> None:
        with self._lock:
            if search in self._running:
                self._running.remove(search)


_LOCAL = threading.local()


@contextmanager
def stoppable(token: Stop) -> Iterator[Stop]:
    """Ask every question in this block (in this thread) under ``token``."""
    before = getattr(_LOCAL, "token", None)
    _LOCAL.token = token
    try:
        yield token
    finally:
        _LOCAL.token = before


def _token() -> Stop | None:
    token: Stop | None = getattr(_LOCAL, "token", None)
    return token


def stopped() -> bool:
    """True if this thread's questions were asked to stop (:class:`Stop`); cheap enough for a search loop."""
    token = getattr(_LOCAL, "token", None)
    return token is not None and token.is_set


def parameters(
    time_limit: float,
    *,
    workers: int = 1,
    lean: bool = False,
    presolve: bool = True,
    probing: bool = True,
) -> cp.SatParameters:
    """Solver parameters with a time limit (at least :data:`MIN_TIME`).

    ``lean`` switches off presolve, probing, symmetry detection and the generic
    cut generators (the settings of the Manipulation models); ``presolve`` and
    ``probing`` switch off one stage each.
    """
    params = cp.SatParameters()
    params.catch_sigint_signal = False  # Ctrl-C is the program's (see stop_searches), never CP-SAT's
    params.num_workers = workers
    params.max_time_in_seconds = MIN_TIME if stopped() else max(MIN_TIME, time_limit)
    if lean or not presolve:
        params.cp_model_presolve = False
    if lean or not probing:
        params.cp_model_probing_level = 0
    if lean:
        params.symmetry_level = 0
        params.add_cg_cuts = False
        params.add_mir_cuts = False
        params.add_zero_half_cuts = False
        params.add_clique_cuts = False
    return params


def status_of(code: Any) -> Status:
    """The :class:`Status` of a CP-SAT status code (a model CP-SAT calls invalid is a bug: raises)."""
    if code not in _STATUS:  # pragma: no cover - MODEL_INVALID: a bug in the model builder
        raise RuntimeError(f"CP-SAT failed: status {code}")
    return _STATUS[code]


def require_answer(status: Status) -> Status:
    """``status`` unchanged, unless the time ran out with no answer: then :class:`SolverTimeout`."""
    if status is Status.UNKNOWN:
        raise SolverTimeout("CP-SAT found no answer within the time limit")
    return status


def solve_proto(proto: cp.CpModelProto, params: cp.SatParameters) -> cp.CpSolverResponse:
    """Solve a model written directly as a proto (no ``CpModel`` wrapper: cheaper to build)."""
    wrapper = cp.SolveWrapper()
    token = _token()
    if token is not None and token.is_set:
        params.max_time_in_seconds = MIN_TIME
    wrapper.set_parameters(params)
    with _RUNNING_LOCK:
        _RUNNING.add(wrapper)
    if token is not None:
        token._add(wrapper)
    try:
        response: cp.CpSolverResponse = wrapper.solve(proto)  # type: ignore[no-untyped-call]
    finally:
        with _RUNNING_LOCK:
            _RUNNING.discard(wrapper)
        if token is not None:
            token._remove(wrapper)
    return response


def solution_values(response: cp.CpSolverResponse) -> tuple[int, ...]:
    """The solution's value of every variable, in order.

    Read from the field's text, ``[v0, v1, ...]`` (one C++ call), by the C
    JSON parser: iterating the compiled field from Python costs a call per
    value (609 values: 86 us against 31 us). Any other text falls back to
    the iteration.

    >>> response = cp.CpSolverResponse()
    >>> response.solution.extend([0, 3, -2])
    >>> solution_values(response)
    (0, 3, -2)
    """
    field = response.solution
    try:
        values = json.loads(str(field))
    except ValueError:
        values = None
    if isinstance(values, list) and len(values) == len(field):  # an int64 field: integers
        return tuple(values)
    return tuple(field)  # pragma: no cover - the field printed otherwise


def solver_for(params: cp.SatParameters) -> cp_model.CpSolver:
    """A ``CpSolver`` with these parameters, for models built with ``CpModel`` (its solves can be
    stopped by :func:`stop_searches`)."""
    solver = _stoppable_solver()()
    solver.parameters = params
    token = _token()
    if token is not None:  # stopped with the others (a CpSolver not solving ignores the call)
        token._add(solver)
    return solver


_SOLVER_CLASS: list[type[cp_model.CpSolver]] = []


def _stoppable_solver() -> type[cp_model.CpSolver]:
    """``CpSolver`` whose ``solve`` is listed as running (made on first use: ``cp_model`` is slow to import)."""
    if not _SOLVER_CLASS:
        from ortools.sat.python import cp_model

        class StoppableSolver(cp_model.CpSolver):
            def solve(self, model: Any, solution_callback: Any = None) -> Any:
                with _RUNNING_LOCK:
                    _RUNNING.add(self)
                try:
                    return super().solve(model, solution_callback)
                finally:
                    with _RUNNING_LOCK:
                        _RUNNING.discard(self)

        _SOLVER_CLASS.append(StoppableSolver)
    return _SOLVER_CLASS[0]
