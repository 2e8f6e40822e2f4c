"""The tests' shared route analysis (tests/conftest.py) hands every app the same analysed
endpoint but never another app's dependency overrides; the shared response field checks
and writes a response as a field made afresh does."""

from typing import Literal

import fastapi.utils
from fastapi import APIRouter, Depends, FastAPI, routing
from hypothesis import given
from hypothesis import strategies as st
from pydantic import BaseModel, create_model

from tests.asgi_client import TestClient
from tests.strategies import JSON


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


class Answer(BaseModel):
    value: str
    count: int


def counted(count: int) -> Answer:
    return Answer(value="counted", count=count)


def app_answering() -> FastAPI:
    router = APIRouter()
    router.add_api_route("/count/{count}", counted, response_model=Answer)
    app = FastAPI()
    app.include_router(router)
    return app


def test_apps_share_a_routes_response_field_and_each_answers_with_it() -> None:
    made = routing.create_model_field.made  # type: ignore[attr-defined]
    first, second = app_answering(), app_answering()
    with TestClient(first) as one, TestClient(second) as other:
        assert one.get("/count/3").json() == {"value": "counted", "count": 3}
        assert other.get("/count/4").json() == {"value": "counted", "count": 4}
        assert other.get("/count/x").status_code == 422
    fields = [key for key in made if key[1] is Answer]
    assert len(fields) == 1 and fields[0][2] == "serialization"


#: field types a response model is made of
FIELD_TYPES: tuple[object, ...] = (int, str, float, bool, list[int], dict[str, int], int | None)


@given(
    types=st.lists(st.sampled_from(FIELD_TYPES), min_size=1, max_size=4),
    values=st.lists(JSON, max_size=4),
    mode=st.sampled_from(["validation", "serialization"]),
)
def test_the_shared_field_checks_and_writes_as_a_field_made_afresh(
    types: list[object], values: list[object], mode: Literal["validation", "serialization"]
) -> None:
    model = create_model("Generated", **{f"f{i}": (kind, ...) for i, kind in enumerate(types)})  # type: ignore[call-overload]
    share = routing.create_model_field  # type: ignore[attr-defined]
    shared = share("Response_generated", model, mode=mode)
    assert share("Response_generated", model, mode=mode) is shared
    afresh = fastapi.utils.create_model_field("Response_generated", model, mode=mode)
    body = {f"f{i}": value for i, value in enumerate(values)}  # fields missing, or extra
    checked, errors = shared.validate(body, {}, loc=("response",))
    expected, expected_errors = afresh.validate(body, {}, loc=("response",))
    assert [(e["type"], e["loc"]) for e in errors] == [
        (e["type"], e["loc"]) for e in expected_errors
    ]
    assert checked == expected
    if not errors:
        assert shared.serialize(checked) == afresh.serialize(expected)
