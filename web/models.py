"""The API's request bodies' common parts (shared by :mod:`web.app` and the route modules split from it)."""

from __future__ import annotations

from typing import Literal

from solver.extras import missing

try:
    from pydantic import BaseModel, ConfigDict
except ImportError as _exc:  # one line naming the extra, not the raw import error
    raise missing(_exc, "web") from None

__all__ = ["Body", "GameName"]

GameName = Literal["manipulation", "contract", "zsy"]
"""The games a request may name."""


class Body(BaseModel):
    """A request body: strict types, no unknown field."""

    model_config = ConfigDict(strict=True, extra="forbid")
