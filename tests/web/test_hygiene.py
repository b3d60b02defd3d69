"""Web hygiene: allowed hosts, compression, ETags and cache headers, HEAD, and an OpenAPI
document that lists every status with the real error body."""

from __future__ import annotations

from fastapi.testclient import TestClient

from web.app import STATUS, create_app
from web.engine import Limits


def test_only_localhost_names_unless_allowed(client: TestClient) -> None:
    for host in ("evil.example", "localhost.evil.example", "127.0.0.2", ""):
        r = client.get("/api/health", headers={"host": host})
        assert r.status_code == 400 and r.json()["error"]["code"] == "invalid_request", host
        assert "--allowed-host" in r.json()["error"]["message"]
    r = client.post("/api/solve", headers={"host": "evil.example"}, json={})
    assert r.status_code == 400 and "not served here" in r.text  # before anything reads the body
    for host in ("localhost", "localhost:8000", "127.0.0.1:1", "[::1]:8000", "LOCALHOST"):
        assert client.get("/api/health", headers={"host": host}).status_code == 200, host
    with TestClient(create_app(Limits(workers=0), allowed_hosts=["games.example"]), base_url="http://localhost") as c:
        assert c.get("/api/health", headers={"host": "games.example:443"}).status_code == 200
        assert c.get("/api/health", headers={"host": "evil.example"}).status_code == 400


def test_compressed_with_etags_and_cache_headers(client: TestClient) -> None:
    raw = client.get("/contract", headers={"accept-encoding": "identity"})
    r = client.get("/contract", headers={"accept-encoding": "gzip"})
    assert r.headers["content-encoding"] == "gzip" and "accept-encoding" in r.headers["vary"].lower()
    assert int(r.headers["content-length"]) * 5 < len(raw.content)  # the page is mostly the card sprite
    assert r.content == raw.content  # httpx decodes it; the same page
    for path, control in [("/contract", "no-cache"), ("/static/main.js", "max-age=300"),
                          ("/static/app.css", "max-age=300"), ("/static/cards.svg", "max-age=3600")]:  # fmt: skip
        first = client.get(path)
        assert first.status_code == 200 and control in first.headers["cache-control"], path
        tag = first.headers["etag"]
        again = client.get(path, headers={"if-none-match": tag})
        assert again.status_code == 304 and again.headers["etag"] == tag and not again.content, path
        assert client.get(path, headers={"if-none-match": 'W/"other"'}).status_code == 200
    sprite = client.get("/static/cards.svg")
    assert sprite.headers["content-type"].startswith("image/svg+xml") and sprite.text.count("<symbol") == 59
    big = client.post("/api/rules", headers={"accept-encoding": "gzip"})
    assert big.status_code == 405
    rules = client.get("/api/rules", headers={"accept-encoding": "gzip"})
    assert rules.headers.get("content-encoding") == "gzip" and rules.json()["zsy"]


def test_head(client: TestClient) -> None:
    for path in ("/manipulation", "/static/main.js", "/api/health", "/api/rules"):
        get, head = client.get(path), client.head(path)
        assert head.status_code == 200 and head.content == b"", path
        assert head.headers["content-type"] == get.headers["content-type"]
        assert head.headers.get("etag") == get.headers.get("etag")
    assert client.head("/", follow_redirects=False).status_code == 307


def test_openapi_lists_every_status_with_the_error_body(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    error = schema["components"]["schemas"]["Error"]
    assert error["required"] == ["error"] and set(error["properties"]["error"]["properties"]["code"]["enum"]) == set(
        STATUS
    )
    assert "HTTPValidationError" not in schema["components"]["schemas"]
    apply = schema["paths"]["/api/apply"]["post"]["responses"]
    assert {"200", "400", "403", "404", "409", "413", "422", "429", "500", "503"} <= set(apply)
    assert apply["429"]["headers"]["Retry-After"]
    assert {"504", "429"} <= set(schema["paths"]["/api/solve"]["post"]["responses"])
    for ops in schema["paths"].values():
        for op in ops.values():
            for status, response in op["responses"].items():
                if status != "200":
                    assert response["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/Error"}
    # The statuses the API answers are the ones documented.
    r = client.post("/api/apply", json={"game_id": "nope", "action": "pass"})
    assert str(r.status_code) in apply and set(r.json()) == {"error"}
