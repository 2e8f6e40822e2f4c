"""The tests' shared route analysis (tests/conftest.py) hands every app the same analysed
endpoint but never another app's dependency overrides."""

from fastapi import APIRouter, Depends, FastAPI, routing

from tests.asgi_client import TestClient


def real_value() -> str:
    return "real"


def fake_value() -> str:
    return "fake"


def endpoint(value: str = Depends(real_value)) -> dict[str, str]:
    return {"value": value}


def app_with(overrides: dict[object, object]) -> FastAPI:
    router = APIRouter()
    router.add_api_route("/value", endpoint)
    app = FastAPI()
    app.include_router(router)
    app.dependency_overrides.update(overrides)
    return app


def test_the_shared_analysis_keeps_each_apps_overrides_its_own() -> None:
    analysed = routing._build_dependant_with_parameterless_dependencies.analysed  # type: ignore[attr-defined]
    overridden, plain = app_with({real_value: fake_value}), app_with({})
    with TestClient(overridden) as first, TestClient(plain) as second:
        assert first.get("/value").json() == {"value": "fake"}
        assert second.get("/value").json() == {"value": "real"}
        assert first.get("/value").json() == {"value": "fake"}
    assert sum(1 for key in analysed if key[1] is endpoint) == 1
