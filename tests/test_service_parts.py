"""The Service is a composition of parts with one job each (issue 14 item 5): the use
cases (``UseCases``: each public method in exactly one part) and the two parts that
only wrap some of them (battle chess, the ``ties`` detail), each wrapper handing on to
the use case it wraps."""

from __future__ import annotations

import inspect

from crosstable.service import Service, UseCases
from crosstable.service.base import ServiceBase
from crosstable.service.battle import Battle
from crosstable.service.tie_lots import TieLots


def _public(cls: type) -> set[str]:
    return {
        name
        for name, value in vars(cls).items()
        if not name.startswith("_") and (callable(value) or isinstance(value, property))
    }


def _leaves(cls: type) -> list[type]:
    """The parts that define use cases (a part made of parts: its parts)."""
    out: list[type] = []
    for base in cls.__bases__:
        if base is ServiceBase:
            continue
        out.extend(
            _leaves(base) if not _public(base) and base.__bases__ != (ServiceBase,) else [base]
        )
    return out


def test_every_use_case_is_defined_in_exactly_one_part() -> None:
    parts = _leaves(UseCases)
    assert {p.__name__ for p in parts} >= {"Registration", "Play", "Queries", "History"}
    owners: dict[str, list[str]] = {}
    for part in parts:
        for name in _public(part):
            owners.setdefault(name, []).append(part.__name__)
    assert {name: found for name, found in owners.items() if len(found) > 1} == {}


def test_every_part_runs_in_the_change_frame() -> None:
    for part in [*_leaves(UseCases), Battle, TieLots]:
        assert issubclass(part, ServiceBase), part


def test_the_wrappers_hand_on_to_the_use_case_they_wrap() -> None:
    """A method of a wrapping part that is also a use case checks, then calls it."""
    cases = {name for part in _leaves(UseCases) for name in _public(part)}
    wrapped = 0
    for wrapper in (Battle, TieLots):
        for name in _public(wrapper) & cases:
            source = inspect.getsource(vars(wrapper)[name])
            assert f"super().{name}(" in source, f"{wrapper.__name__}.{name}"
            wrapped += 1
    assert wrapped >= 8  # start, record_result, create_tournament, export_trf, …


def test_the_wrappers_come_before_the_use_cases() -> None:
    order = Service.__mro__
    assert order.index(Battle) < order.index(UseCases)
    assert order.index(TieLots) < order.index(UseCases)
    assert Service.create_tournament.__qualname__ == "Battle.create_tournament"
