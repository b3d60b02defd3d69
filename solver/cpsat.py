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
    params.max_time_in_seconds = max(MIN_TIME, time_limit)
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
    wrapper.set_parameters(params)
    with _RUNNING_LOCK:
        _RUNNING.add(wrapper)
    try:
        response: cp.CpSolverResponse = wrapper.solve(proto)  # type: ignore[no-untyped-call]
    finally:
        with _RUNNING_LOCK:
            _RUNNING.discard(wrapper)
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
