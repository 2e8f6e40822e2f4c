"""A batch of results with bad items, and idempotency keys reused for another request
(issue 25 item 10), on SQLite and PostgreSQL:

* an item that is not an object (a number, a list, a text, null) is refused alone,
  with its index and why, in the batch's answer; the other items are recorded;
* an idempotency key sent again with a different body (another result, another
  reason, another expected version, another tournament in the same batch) is refused
  with 409 naming the key, on the single-result route and in a batch; the same key
  with the same body is still a replay;
* a fuzz test: whatever JSON is posted to ``/api/v1/results``, the answer is a 200
  with one answer per item or a 4xx with a detail, never a 500.
"""

# ruff: noqa: F811 - pytest fixtures imported from test_service_support / test_game_servers
from __future__ import annotations

import json
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("argon2")

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_game_servers import World, world  # noqa: F401
from test_service_support import db_url, migrated_url  # noqa: F401

RESULTS = "/api/v1/results"


def item(tid: int, rnd: int, board: int, result: str = "1-0", **extra: Any) -> dict[str, Any]:
    return {"tournament": tid, "round": rnd, "board": board, "result": result} | extra


def one_path(tid: int, rnd: int = 1, board: int = 1) -> str:
    return f"/api/v1/tournaments/{tid}/rounds/{rnd}/boards/{board}/result"


def test_an_item_that_is_not_an_object_is_refused_alone_with_its_index(world: World) -> None:
    tid = world.tids[0]
    _id, auth = world.game_server(every_tournament=True)
    bad: list[Any] = [5, [1, 2], "1-0", None, True, 2.5]
    body = {"results": [item(tid, 1, 1), *bad, item(tid, 1, 2)]}
    answer = world.post(RESULTS, body, auth)
    assert answer.status_code == 200, answer.text
    got = answer.json()
    assert (got["accepted"], got["refused"]) == (2, len(bad))
    kinds = ["a number", "a list", "a text", "nothing (null)", "true or false", "a number"]
    for index, (value, kind) in enumerate(zip(bad, kinds, strict=True), start=1):
        refused = got["results"][index]
        assert refused["index"] == index and refused["status"] == "refused", refused
        assert refused["code"] == 422
        assert refused["detail"] == (
            f"result {index}: a result is an object with tournament, round, board and"
            f" result, not {kind}"
        ), value
    assert [r["status"] for r in (got["results"][0], got["results"][-1])] == ["accepted"] * 2
    assert (1, 1) in {(g.round, g.board) for g in world.service.overview(tid).games if g.result}


def test_the_refusal_is_in_the_readers_language(world: World) -> None:
    tid = world.tids[0]
    _id, auth = world.game_server(every_tournament=True)
    answer = world.client.post(
        RESULTS,
        json={"results": [item(tid, 1, 1), [1]]},
        headers=auth | {"Accept-Language": "ru"},
    )
    refused = answer.json()["results"][1]
    assert refused["code"] == 422 and refused["detail"].startswith("результат 1: "), refused


def test_a_key_reused_with_another_body_is_refused_on_the_single_route(world: World) -> None:
    tid = world.tids[0]
    _id, auth = world.game_server(every_tournament=True)
    first = world.post(one_path(tid), {"result": "1-0", "idempotency_key": "game-7"}, auth)
    assert first.status_code == 200 and first.json()["replayed"] is False
    same = world.post(one_path(tid), {"result": "1-0", "idempotency_key": "game-7"}, auth)
    assert same.status_code == 200 and same.json()["replayed"] is True
    # "normal" is what no reason means for a played game: the same request
    said = {"result": "1-0", "idempotency_key": "game-7", "reason": "normal"}
    assert world.post(one_path(tid), said, auth).json()["replayed"] is True
    for other in (
        {"result": "0-1"},
        {"result": "1-0", "reason": "adjudicated"},
        {"result": "1-0", "expected_version": 0},
    ):
        refused = world.post(one_path(tid), other | {"idempotency_key": "game-7"}, auth)
        assert refused.status_code == 409, (other, refused.text)
        assert (
            "idempotency key 'game-7' was already used for another request"
            in (refused.json()["detail"])
        )
    history = world.service.history(tid)
    assert [e.kind for e in history].count("result") == 1


def test_a_key_sent_with_its_expected_version_replays_with_it(world: World) -> None:
    tid = world.tids[0]
    _id, auth = world.game_server(every_tournament=True)
    body = {"result": "½-½", "idempotency_key": "g-9", "expected_version": 1}  # a new game: 1
    assert world.post(one_path(tid, 1, 3), body, auth).json()["replayed"] is False
    assert world.post(one_path(tid, 1, 3), body, auth).json()["replayed"] is True
    refused = world.post(one_path(tid, 1, 3), body | {"expected_version": None}, auth)
    assert refused.status_code == 409 and "'g-9'" in refused.json()["detail"]


def test_a_key_reused_with_another_body_is_refused_in_a_batch(world: World) -> None:
    t1, t2, _t3 = world.tids
    _id, auth = world.game_server(every_tournament=True)
    body = {
        "results": [
            item(t1, 1, 1, idempotency_key="k1"),
            item(t1, 1, 1, reason="adjudicated", idempotency_key="k1"),
            item(t2, 1, 1, idempotency_key="k1"),  # the same key for another tournament
            item(t1, 1, 1, idempotency_key="k1"),  # the same body: a replay
        ]
    }
    got = world.post(RESULTS, body, auth).json()
    statuses = [(r["status"], r.get("code")) for r in got["results"]]
    assert statuses == [("accepted", None), ("refused", 409), ("refused", 409), ("accepted", None)]
    assert got["results"][3]["change"]["replayed"] is True
    for refused in (got["results"][1], got["results"][2]):
        assert "idempotency key 'k1'" in refused["detail"], refused
    assert not [g for g in world.service.overview(t2).games if g.result]
    # the whole batch again: the first and last are replays, the others refused again
    again = world.post(RESULTS, body, auth).json()
    assert [r["status"] for r in again["results"]] == [
        "accepted",
        "refused",
        "refused",
        "accepted",
    ]
    assert [e.kind for e in world.service.history(t1)].count("result") == 1


# -- fuzz: any JSON body ---------------------------------------------------------------

LEAVES = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=30)
)
JSON = st.recursive(
    LEAVES,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner),
    max_leaves=12,
)
FIELDS = st.sampled_from(
    ["tournament", "round", "board", "result", "reason", "idempotency_key", "expected_version"]
)
ITEMS = st.one_of(
    JSON,
    st.fixed_dictionaries(
        {
            "tournament": st.integers(min_value=-1, max_value=4) | JSON,
            "round": st.integers(min_value=0, max_value=12) | JSON,
            "board": st.integers(min_value=0, max_value=7),
            "result": st.sampled_from(["1-0", "0-1", "½-½", "+-", "--", "2-0", ""]) | JSON,
        },
        optional={
            "reason": st.sampled_from(["normal", "adjudicated", "x"]) | JSON,
            "idempotency_key": st.sampled_from(["a", "b"]) | st.text(max_size=5) | JSON,
            "expected_version": st.integers(min_value=-1, max_value=3) | JSON,
        },
    ),
    st.dictionaries(FIELDS, JSON, max_size=4),
)
BODIES = st.one_of(
    JSON,
    st.fixed_dictionaries({"results": st.lists(ITEMS, max_size=8)}),
    st.fixed_dictionaries({"results": JSON}),
)


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(body=BODIES)
def test_fuzz_any_body_is_answered_without_a_server_error(world: World, body: Any) -> None:
    auth = getattr(world, "fuzz_auth", None)  # one game server for all the examples
    if auth is None:
        _id, auth = world.game_server(every_tournament=True)
        world.fuzz_auth = auth  # type: ignore[attr-defined]
    answer = world.client.post(
        RESULTS, content=json.dumps(body), headers=auth | {"Content-Type": "application/json"}
    )
    assert answer.status_code < 500, answer.text
    got = answer.json()
    if answer.status_code == 200:
        assert isinstance(body, dict) and isinstance(body["results"], list)
        assert [r["index"] for r in got["results"]] == list(range(len(body["results"])))
        for answered in got["results"]:
            assert answered["status"] in ("accepted", "refused")
            if answered["status"] == "refused":
                assert 400 <= answered["code"] < 500 and answered["detail"], answered
    else:
        assert 400 <= answer.status_code < 500 and got["detail"], answer.text
