"""A tournament's size caps come from its system's rules (issue 14 item 3): each
SystemRules implementation holds ``max_players`` and ``check_field``, and
crosstable/service/field.py asks the system instead of testing which it is. The caps
and their messages are those of issue 13.10, unchanged."""

from __future__ import annotations

import ast
import inspect

import pytest

from crosstable.core.errors import RuleError
from crosstable.core.model import System
from crosstable.service import field, systems
from crosstable.service.field import MAX_PLAYERS, check_field
from crosstable.service.systems import rules_of

#: the caps and the English refusals as they were before the caps moved into the rules
BEFORE = {
    System.ROUND_ROBIN: (100, "a round robin has at most 100 players, not 101"),
    System.SCHEVENINGEN: (100, "a Scheveningen has at most 100 players, not 101"),
    System.SWISS_DUTCH: (1000, "a Swiss has at most 1000 players, not 1001"),
    System.KNOCKOUT: (512, "a knockout has at most 512 players, not 513"),
}


@pytest.mark.parametrize("system", list(System))
def test_each_system_keeps_its_cap_and_its_message(system: System) -> None:
    cap, refusal = BEFORE[system]
    assert MAX_PLAYERS[system] == cap == rules_of(system).max_players
    check_field(system, cap)
    with pytest.raises(RuleError) as caught:
        check_field(system, cap + 1)
    assert str(caught.value) == refusal


def test_only_the_round_robin_counts_cycles_and_games() -> None:
    with pytest.raises(RuleError) as caught:
        check_field(System.ROUND_ROBIN, 4, cycles=13)
    assert str(caught.value) == "a round robin has at most 12 cycles, not 13"
    with pytest.raises(RuleError) as caught:
        check_field(System.ROUND_ROBIN, 100, cycles=3)
    assert str(caught.value) == (
        "a round robin has at most 9900 games: 100 players in 3 cycles make 14850"
    )
    # the other systems take the cycles as they always did: not counted
    for system in (System.SCHEVENINGEN, System.SWISS_DUTCH, System.KNOCKOUT):
        check_field(system, 100, cycles=13)


def test_the_field_check_asks_the_systems_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    """A system's rules with another cap: check_field follows them (nothing else decides)."""

    class Small:
        system = System.SWISS_DUTCH
        max_players = 3

        def __init__(self) -> None:
            self.asked: list[tuple[int, int]] = []

        def check_field(self, players: int, cycles: int = 1) -> None:
            self.asked.append((players, cycles))
            if players > self.max_players:
                raise RuleError(
                    "a Swiss has at most {cap} players, not {players}", cap=3, players=players
                )

    small = Small()
    registry = dict(systems._registry())
    registry[System.SWISS_DUTCH] = small  # type: ignore[assignment]
    monkeypatch.setattr(systems, "_registry", lambda: registry)
    with pytest.raises(RuleError, match="at most 3 players, not 4"):
        check_field(System.SWISS_DUTCH, 4)
    assert small.asked == [(4, 1)]


def test_field_tests_no_system() -> None:
    """No ``if system is …`` chain (nor ``==``, ``in``) left in service/field.py."""
    tree = ast.parse(inspect.getsource(field))
    chains = [
        ast.unparse(node)
        for node in ast.walk(tree)
        if isinstance(node, ast.Compare)
        and any(
            "System." in ast.unparse(side) or ast.unparse(side) == "system"
            for side in [node.left, *node.comparators]
        )
    ]
    assert chains == []
