# ruff: noqa: F811 - pytest fixtures imported from test_service_support
"""Import of a whole-tournament JSON: consistent or refused with the first fault (issue 13 item 5).

Before the checks, 1 043 of 1 918 accepted mutated exports failed ``verify()``, 370
crashed it and 37 crashed undo; duplicate round numbers and a rating of 2⁶³ gave
tracebacks. Each mutation below was accepted (or crashed) before.
"""

from __future__ import annotations

import contextlib
import copy
import json
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_service_support import db_url, make_service, migrated, service, started, store  # noqa: F401

from crosstable.core.errors import CrosstableError, InputError
from crosstable.core.model import System
from crosstable.service import Service
from crosstable.store import open_store


def _played(service: Service) -> int:
    """A six-player round robin with results, a correction, an undo, a withdrawal and a
    revert in its history."""
    tid = started(service, 6)
    games = service.overview(tid).games
    for g, result in zip(games[:7], ("1-0", "½-½", "0-1", "+-", "1-0", "0-1", "½-½"), strict=True):
        service.record_result(tid, g.round, g.board, result)
    service.correct_result(tid, games[6].round, games[6].board, "0-1")  # the last round played
    service.undo(tid)
    service.withdraw(tid, 6)
    seq = service.history(tid)[-3].seq
    service.revert_to(tid, seq)
    service.record_result(tid, games[8].round, games[8].board, "1-0")
    return tid


def test_an_export_with_its_whole_history_imports_verifies_and_undoes(service: Service) -> None:
    tid = _played(service)
    document = service.export_json(tid)
    copy_id = service.import_json(document)
    assert service.verify(copy_id) == []
    again = service.export_json(copy_id)
    assert again == document
    service.undo(copy_id)
    service.revert_to(copy_id, 3)
    assert service.verify(copy_id) == []


def _mutations(document: dict[str, Any]) -> list[tuple[str, dict[str, Any], str]]:
    """(what, mutated document, part of the expected message)."""
    out: list[tuple[str, dict[str, Any], str]] = []

    def mutate(what: str, expected: str, change: Any) -> None:
        mutated = copy.deepcopy(document)
        change(mutated)
        out.append((what, mutated, expected))

    mutate(
        "duplicate round numbers",
        "a second row with the key",
        lambda d: d["rounds"].append(dict(d["rounds"][0])),
    )
    mutate(
        "a rating of 2**63",
        "out of range",
        lambda d: d["players"][0].__setitem__("rating", 2**63),
    )
    mutate(
        "a result changed in the rows only",
        "its history says",
        lambda d: d["games"][1].__setitem__(
            "result", "01" if d["games"][1]["result"] != "01" else "10"
        ),
    )
    mutate(
        "a player missing from the rows",
        "in the history but not in the document",
        lambda d: d["byes"].clear() if d["byes"] else d["players"].pop(),
    )
    mutate(
        "an unknown table in a change",
        "unknown table",
        lambda d: d["history"][1]["changes"][0].__setitem__("table", "users"),
    )
    mutate(
        "a list where a table name belongs",
        "unknown table",
        lambda d: d["history"][1]["changes"][0].__setitem__("table", ["games"]),
    )
    mutate(
        "a change without its key",
        "key must name",
        lambda d: d["history"][1]["changes"][0].__setitem__("key", {}),
    )
    mutate(
        "an undo of a change that is not in force",
        "not the last change in force",
        lambda d: next(e for e in d["history"] if e["kind"] == "undo")["data"].__setitem__(
            "undoes", 1
        ),
    )
    mutate(
        "an undo pointing after itself",
        "must name an earlier event",
        lambda d: next(e for e in d["history"] if e["kind"] == "undo")["data"].__setitem__(
            "undoes", 10**6
        ),
    )
    mutate(
        "a revert that does not restore its target",
        "reverts to",
        lambda d: next(e for e in d["history"] if e["kind"] == "revert")["changes"].pop(),
    )
    mutate(
        "a wrong sequence number",
        "seq must be",
        lambda d: d["history"][2].__setitem__("seq", 7),
    )
    mutate(
        "a name longer than its column",
        "at most 200 fit",
        lambda d: d["players"][0].__setitem__("name", "x" * 201),
    )
    mutate(
        "a NUL in a name",
        "NUL",
        lambda d: d["players"][0].__setitem__("name", "a\x00b"),
    )
    mutate(
        "a text where a number belongs in a change",
        "expected a whole number",
        lambda d: d["history"][-1]["changes"][0]["key"].__setitem__("round", "1"),
    )
    mutate(
        "a boolean where a number belongs",
        "expected a whole number",
        lambda d: d["players"][0].__setitem__("rating", True),
    )
    mutate(
        "a before that does not match the replayed row",
        "the change expects",
        lambda d: d["history"][-1]["changes"][0]["before"].__setitem__("result", "10"),
    )
    return out


def test_each_inconsistency_is_refused_with_what_is_wrong(service: Service) -> None:
    document = service.export_json(_played(service))
    count = len(service.tournaments())
    for what, mutated, expected in _mutations(document):
        with pytest.raises(InputError) as caught:
            service.import_json(mutated, source="t.json")
        assert expected in str(caught.value), what
        assert str(caught.value).startswith("t.json: "), what
    assert len(service.tournaments()) == count  # nothing half-imported


_HOSTILE = st.sampled_from(
    [None, 0, -1, 1, 2, 10**12, 2**63, -(2**31), 1.5, True, "", "x", "1", "10", "\x00", [], {}]
)


def _paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _paths(item, (*path, index))
    return found


@pytest.fixture(scope="module")
def exported(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[dict[str, Any], Service]]:
    """An export, and a service on another SQLite file to import mutations of it into."""
    folder = tmp_path_factory.mktemp("import")
    source = open_store(migrated(f"sqlite:///{folder}/source.db"))
    target = open_store(migrated(f"sqlite:///{folder}/target.db"))
    try:
        yield make_service(source).export_json(_played(make_service(source))), make_service(target)
    finally:
        source.close()
        target.close()


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_a_mutated_export_is_refused_or_imports_consistently(
    exported: tuple[dict[str, Any], Service], data: st.DataObject
) -> None:
    original, service = exported
    document = copy.deepcopy(original)
    paths = _paths(document)[1:]
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(paths))
        parent: Any = document
        try:
            for step in path[:-1]:
                parent = parent[step]
            action = data.draw(st.sampled_from(["replace", "delete", "duplicate"]))
            if action == "replace":
                parent[path[-1]] = data.draw(_HOSTILE)
            elif action == "delete":
                del parent[path[-1]]
            elif isinstance(parent, list):
                parent.insert(path[-1], copy.deepcopy(parent[path[-1]]))
        except (KeyError, IndexError, TypeError):
            continue  # an earlier mutation removed this path
    json.dumps(document)  # still a JSON document
    try:
        tid = service.import_json(document)
    except InputError:
        return
    assert service.verify(tid) == []
    with contextlib.suppress(CrosstableError):
        service.undo(tid)
    assert service.verify(tid) == []


@pytest.mark.parametrize("version", [2**31, 2**63])
def test_a_game_version_past_the_database_range_is_refused_naming_it(
    exported: tuple[dict[str, Any], Service], version: int
) -> None:
    """A row's version is an integer column: past its range the import says where, instead
    of the database refusing the write (found by the mutation test above)."""
    original, service = exported
    document = copy.deepcopy(original)
    document["games"][3]["version"] = version
    before = len(service.tournaments())
    with pytest.raises(InputError, match=r"games\[3\]\.version: .* is out of range"):
        service.import_json(document, source="t.json")
    assert len(service.tournaments()) == before


def test_an_import_past_the_field_cap_is_refused(service: Service) -> None:
    """A tournament made here cannot have more players than its system's cap (issue 13
    item 10), and neither can an imported one."""
    from crosstable.core.model import Player, Tournament
    from crosstable.service.field import MAX_PLAYERS

    cap = MAX_PLAYERS[System.ROUND_ROBIN]
    document = service.export_json(started(service, 4))
    document["tournament"]["system"] = "bughouse"
    for event in document["history"]:  # the history says so too: consistent, but unknown
        for change in event["changes"]:
            if change["table"] == "tournaments" and change["after"] and "system" in change["after"]:
                change["after"]["system"] = "bughouse"
    with pytest.raises(InputError, match="unknown system"):
        service.import_json(document, source="t.json")
    many = Tournament(players=tuple(Player(n, f"P{n}") for n in range(1, cap + 2)))
    with pytest.raises(CrosstableError, match=f"at most {cap} players"):
        service.import_tournament(many, source="big.trf")
    assert len(service.tournaments()) == 1
