"""schemathesis against the OpenAPI document: generated requests for every operation (50 each),
no 5xx and no answer that contradicts the document (status, content type, body, headers)."""

from __future__ import annotations

from typing import Any

import schemathesis  # the webtest extra: without it this module skips (the root conftest)
from hypothesis import HealthCheck, settings
from schemathesis.specs.openapi.checks import positive_data_acceptance

from web.app import create_app
from web.engine import Limits

APP = create_app(Limits(workers=0, max_time_limit=2.0, default_time_limit=1.0, games_per_client=10_000))
schema = schemathesis.openapi.from_asgi("/openapi.json", APP, headers={"host": "localhost"})


@schema.parametrize()
@settings(max_examples=50, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
def test_the_api_keeps_its_document(case: Any) -> None:
    # Every check but "a schema-valid request is accepted": a game id that names no game, or a
    # puzzle with a malformed card, is valid JSON for the schema and still a 404 or 422 (documented).
    case.call_and_validate(headers={"host": "localhost"}, excluded_checks=[positive_data_acceptance])
