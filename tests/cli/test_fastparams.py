"""typer's option coercion without pydantic (cli.fastparams): the same values and errors as typer's own.

Every parameter of every ``shanghai`` command is coerced, for its default, its choices and a few
strings, both by the light path (:func:`cli.fastparams.light_value`) and by typer's own coercion
(``typer._coercion.build_runtime_param``, pydantic's adapter): wherever the light path answers, the
value and its type are the same; wherever a value is refused, the installed coercion raises typer's
own message.
"""

from __future__ import annotations

from enum import Enum
from typing import Any

import pytest
import typer
from typer import _coercion
from typer.core import _TyperParameter

from cli.common import click
from cli.fastparams import _MISSING, install, light_value
from cli.main import app

SAMPLES: tuple[Any, ...] = ("abc", "3", "2.5", "", " 7 ", "-1", "true", "False", True, False, 0, 1, 2.0, 10.0)


def _commands() -> list[tuple[Any, Any]]:
    root = typer.main.get_command(app)
    out: list[tuple[Any, Any]] = []
    todo: list[tuple[Any, Any]] = [(None, root)]
    while todo:
        parent, cmd = todo.pop()
        ctx = click.Context(cmd, parent=parent, info_name=cmd.name)
        out.append((ctx, cmd))
        if hasattr(cmd, "commands"):
            todo.extend((ctx, sub) for sub in cmd.commands.values())
    return out


def _values(param: _TyperParameter) -> list[Any]:
    annotation = param.type_descriptor.annotation
    values: list[Any] = list(SAMPLES)
    if param.default is not None and not callable(param.default):
        values.append(param.default)
    if isinstance(annotation, type) and issubclass(annotation, Enum):
        for choice in annotation:
            values.extend([choice, str(choice.value), str(choice.value).upper(), choice.name])
    return values


def _outcome(coerce: Any, value: Any, param: Any, ctx: Any) -> tuple[str, Any]:
    try:
        got = coerce(value, param=param, ctx=ctx)
    except click.exceptions.BadParameter as exc:
        return "error", exc.format_message()
    return type(got).__name__, got


def test_the_light_path_gives_typers_value_wherever_it_answers() -> None:
    assert install()
    answered = checked = 0
    for ctx, cmd in _commands():
        for param in cmd.params:
            if not isinstance(param, _TyperParameter) or param.type_descriptor.file_annotation is not None:
                continue
            heavy = _coercion.build_runtime_param(param.type_descriptor)
            for value in _values(param):
                checked += 1
                want = _outcome(heavy._coerce_value, value, param, ctx)
                got = light_value(param.type_descriptor.annotation, param.type_descriptor.parameter_info, value, ctx)
                if got is not _MISSING:
                    answered += 1
                    assert (type(got).__name__, got) == want, (cmd.name, param.name, value)
                # the installed coercion (light, else typer's own): the same value or the same message
                assert _outcome(param.get_runtime_param()._coerce_value, value, param, ctx) == want, (
                    cmd.name,
                    param.name,
                    value,
                )
    assert checked > 1000 and answered > 300, (checked, answered)


@pytest.mark.parametrize(
    ("annotation", "value"),
    [(float, 10), (int, True), (str, b"x"), (float, "2.5"), (bool, "yes")],
)
def test_values_needing_a_conversion_are_left_to_typer(annotation: type, value: Any) -> None:
    info = typer.models.OptionInfo()
    assert light_value(annotation, info, value) is _MISSING


def test_bounds_and_parsers_are_left_to_typer() -> None:
    assert light_value(int, typer.models.OptionInfo(min=1), 3) is _MISSING
    assert light_value(str, typer.models.OptionInfo(parser=str.upper), "a") is _MISSING
    assert light_value(int, typer.models.OptionInfo(), 3) == 3
