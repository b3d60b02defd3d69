"""Typer's option coercion without pydantic where the value needs none (issue 35, the inline solve).

typer 0.29 coerces every option value, given or not, through a pydantic
``TypeAdapter`` built on first use; building the first one imports pydantic
and its plugin loader (about 75-100 ms of a cold ``shanghai solve``). Most
values need no conversion: a ``str`` option given a ``str``, a default that
already has its annotation's exact type (``10.0`` for a ``float``, ``False``
for a ``bool``), a choice given as one of its names.
:func:`install` makes typer's parameters answer those cases directly, with
exactly the value typer's own adapter returns, and hand every other case
(a string for a number, a path, a list, a parser, bounds, anything that
fails) to typer's own coercion, which converts it or raises its own error
as before. So no command sees another value or another message; only the
pydantic import moves off the path of the commands that need none.

Only typer's private coercion layer changes, so :func:`install` checks that
layer's shape first and does nothing when it differs (another typer
version): the commands then run exactly as typer runs them.

>>> install() in (True, False)
True
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

__all__ = ["install", "light_value"]

_PLAIN = (str, bool, int, float)
"""The annotations whose values pass through when they already have exactly that type."""
_MISSING = object()


def light_value(annotation: Any, parameter_info: Any, value: Any, ctx: Any = None) -> Any:
    """The value typer's adapter would return for ``value`` (not None), or a sentinel (not this
    function's business: typer's own coercion answers). Only cases where typer's adapter returns
    the value unchanged, or :func:`typer._param_types.coerce_cli_choice`'s answer, are answered."""
    if parameter_info.parser is not None or parameter_info.min is not None or parameter_info.max is not None:
        return _MISSING
    if annotation in _PLAIN and type(value) is annotation:  # bool is an int: the exact type only
        return value
    if isinstance(annotation, type) and issubclass(annotation, Enum) and isinstance(value, (str, Enum)):
        from typer._param_types import coerce_cli_choice

        try:
            return coerce_cli_choice(
                value, choices=list(annotation), case_sensitive=parameter_info.case_sensitive, ctx=ctx
            )
        except Exception:  # not one of the choices: typer's own coercion raises its own error
            return _MISSING
    return _MISSING


def install() -> bool:
    """Make typer's parameters coerce the light cases without pydantic; True if installed (or
    already), False if typer's coercion layer is not the one this was written for (nothing done)."""
    try:
        from typer import _coercion
        from typer.core import _TyperParameter
    except ImportError:
        return False
    if getattr(_TyperParameter, "_shanghai_light", False):
        return True
    needed = ("RuntimeParam", "build_runtime_param", "TypeDescriptor")
    if not all(hasattr(_coercion, name) for name in needed) or not hasattr(_TyperParameter, "get_runtime_param"):
        return False

    @dataclass(frozen=True)
    class LightRuntimeParam(_coercion.RuntimeParam):
        """typer's coercion for one parameter, its adapter built only when a value needs it."""

        descriptor: Any

        def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
            found = light_value(self.annotation, self.parameter_info, value, ctx)
            if found is not _MISSING:
                return found
            heavy = param.__dict__.get("_shanghai_heavy")
            if heavy is None:
                heavy = param.__dict__["_shanghai_heavy"] = _coercion.build_runtime_param(self.descriptor)
            return heavy._coerce_value(value, param=param, ctx=ctx)

    def get_runtime_param(self: Any) -> Any:
        if self._runtime_param is None:
            d = self.type_descriptor
            if d.file_annotation is None:
                self._runtime_param = LightRuntimeParam(d.parameter_info, d.annotation, d)
            else:
                self._runtime_param = _coercion.build_runtime_param(d)
        return self._runtime_param

    setattr(_TyperParameter, "get_runtime_param", get_runtime_param)  # noqa: B010 (a method replaced)
    setattr(_TyperParameter, "_shanghai_light", True)  # noqa: B010
    return True
