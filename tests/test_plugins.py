"""Plug-ins from outside the product: a toy pairing system, a toy tie-break and a toy
competitor kind, each one class plus its registration, run through the core and (the
system) through the service: create, pair, record, standings, finish."""
# ruff: noqa: F811 - pytest fixtures imported from test_service_support

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from fractions import Fraction

import pytest
from test_service_support import db_url, service, store  # noqa: F401

from crosstable.core.competitor import (
    Competitor,
    check_competitors,
    competitor_kind,
    competitor_kinds,
    register_kind,
    unregister_kind,
)
from crosstable.core.errors import RuleError
from crosstable.core.event import Section
from crosstable.core.model import (
    Game,
    GameResult,
    LotsMethod,
    Player,
    Round,
    Settings,
    System,
    Tournament,
    register_system,
    unregister_system,
)
from crosstable.core.pairing_systems import register_pairing, unregister_pairing
from crosstable.core.schedule import Schedule, ScheduledRound
from crosstable.core.standings import compute_standings
from crosstable.core.system_settings import NoSettings, register_settings, unregister_settings
from crosstable.core.tiebreaks.base import REGISTRY, TieBreak, Value, register
from crosstable.core.tiebreaks.field import Field
from crosstable.core.tiebreaks.spec import KNOWN, TieBreakSpec
from crosstable.service import PlayerInfo, Regulations, Service
from crosstable.service.fixed_rules import FixedScheduleRules
from crosstable.service.systems import register_rules, rules_of, unregister_rules

# -- a toy pairing system: the field in halves, each player meets their counterpart --


class Halves:
    """Round 1: 1 - n/2+1, 2 - n/2+2, …; round 2 the same games with colours reversed."""

    def __init__(self, system: System) -> None:
        self.system = system

    def schedule(
        self,
        competitors: Sequence[Competitor],
        *,
        cycles: int = 1,
        swap_last_rounds: bool = True,
        details: Mapping[str, object] | None = None,
    ) -> Schedule:
        half = len(competitors) // 2
        first = [(c.start, c.start + half) for c in competitors[:half]]
        rounds = (
            ScheduledRound(1, first),
            ScheduledRound(2, [(black, white) for white, black in first]),
        )
        return Schedule(len(competitors), rounds)


class HalvesSettings(NoSettings):
    """No settings of its own."""


@pytest.fixture
def halves() -> Iterator[System]:
    """The toy system, registered for one test and forgotten afterwards."""
    system = register_system("toy-halves", "TOY_HALVES", predetermined=True)
    HalvesSettings.system = system
    register_pairing(Halves(system))
    register_settings(system, HalvesSettings, "a toy system")
    register_rules(FixedScheduleRules(system, max_players=20))
    yield system
    unregister_rules(system)
    unregister_settings(system)
    unregister_pairing(system)
    unregister_system("toy-halves")


def test_toy_system_runs_through_the_service(service: Service, halves: System) -> None:
    tid = service.create_tournament(Regulations(name="Toy", system=halves)).tournament_id
    for n in range(1, 5):
        service.add_player(tid, PlayerInfo(f"Player {n}", 2000 - n))
    service.draw_lots(tid, LotsMethod.RATING)
    service.start(tid)
    view = service.overview(tid)
    assert service.tournament(tid).settings.system is halves
    assert [(g.round, g.white, g.black) for g in view.games] == [
        (1, 1, 3),
        (1, 2, 4),
        (2, 3, 1),
        (2, 4, 2),
    ]
    for game, result in zip(view.games, ("1-0", "½-½", "1-0", "0-1"), strict=True):
        service.record_result(tid, game.round, game.board, result)
    table = compute_standings(service.tournament(tid))
    assert sorted((row.start, row.points) for row in table.rows) == [
        (1, Fraction(1)),
        (2, Fraction(3, 2)),
        (3, Fraction(1)),
        (4, Fraction(1, 2)),
    ]
    assert table.rows[0].start == 2
    _view, grid = service.crosstable(tid)
    assert grid.ranked[0] == 2
    assert service.export_json(tid)["tournament"]["system"] == "toy-halves"
    service.finish(tid)
    assert service.overview(tid).status == "finished"


def test_toy_system_refuses_what_its_rules_refuse(service: Service, halves: System) -> None:
    assert rules_of(halves).max_players == 20
    with pytest.raises(RuleError, match="at most 20 players"):
        rules_of("toy-halves").check_field(21)
    with pytest.raises(RuleError, match="tie_rule: a setting of a knockout, not of a toy system"):
        service.create_tournament(
            Regulations(name="Toy", system=halves, details={"tie_rule": "lots"})
        )


def test_a_forgotten_system_is_unknown(halves: System) -> None:
    assert System("toy-halves") is halves and halves in list(System)
    unregister_rules(halves)
    with pytest.raises(RuleError, match="no rules registered"):
        rules_of(halves)
    register_rules(FixedScheduleRules(halves))
    with pytest.raises(RuleError, match="built in"):
        unregister_system("dutch")


def test_unregistering_leaves_the_built_in_systems() -> None:
    system = register_system("toy-gone", "TOY_GONE")
    unregister_system("toy-gone")
    with pytest.raises(ValueError):
        System("toy-gone")
    assert [s.value for s in System] == ["round-robin", "scheveningen", "dutch", "knockout"]
    unregister_rules(System.ROUND_ROBIN)  # built in: kept
    assert rules_of(System.ROUND_ROBIN).system is System.ROUND_ROBIN
    del system


# -- a toy tie-break: the player's own rating ---------------------------------------


class OwnRating(TieBreak):
    name = "TOYR"
    title = "Own rating"
    article = "toy"
    tb_type = "D"

    def values(self, f: Field, spec: TieBreakSpec) -> list[Value | None]:
        return [f.rating[p] or 0 for p in range(f.n)]


@pytest.fixture
def own_rating() -> Iterator[str]:
    register(OwnRating)
    yield OwnRating.name
    REGISTRY.pop(OwnRating.name)
    KNOWN.pop(OwnRating.name)


def test_toy_tiebreak_ranks_through_the_core(own_rating: str) -> None:
    players = (Player(1, "A", 1800), Player(2, "B", 2100), Player(3, "C", 1900))
    t = Tournament(
        players=players,
        rounds=(
            Round(1, (Game(1, 1, 1, 2, GameResult.DRAW()),)),
            Round(2, (Game(2, 1, 2, 3, GameResult.DRAW()),)),
            Round(3, (Game(3, 1, 3, 1, GameResult.DRAW()),)),
        ),
    )
    table = compute_standings(t, own_rating)
    assert [row.start for row in table.rows] == [2, 3, 1]
    assert [row.values for row in table.rows] == [(2100,), (1900,), (1800,)]
    assert Section("S", t).standings([own_rating]).rows == table.rows


# -- a toy competitor kind: a pair of players whose score is the better member's ----------


class BestOfPair:
    """A pair; the table is the better-scoring member's games (a toy rule)."""

    name = "best-of-pair"

    def check(self, competitor: Competitor) -> None:
        if len(competitor.members) != 2:
            raise RuleError("a pair has two players")

    def table(self, games: Tournament, competitors: Sequence[Competitor]) -> Tournament:
        check_competitors(self, competitors)
        return Tournament(
            settings=Settings(),
            players=tuple(c.as_player() for c in competitors),
            rounds=(),
            name=games.name,
        )


@pytest.fixture
def pairs_kind() -> Iterator[str]:
    register_kind(BestOfPair())
    yield BestOfPair.name
    unregister_kind(BestOfPair.name)


def test_toy_competitor_kind_goes_through_the_section(pairs_kind: str) -> None:
    players = tuple(Player(n, f"P{n}") for n in range(1, 5))
    pairs = (
        Competitor(1, "Left", players[:2], kind=pairs_kind, boards=2),
        Competitor(2, "Right", players[2:], kind=pairs_kind, boards=2),
    )
    games = Tournament(players=players)
    section = Section("Pairs", games, pairs, kind=pairs_kind)
    assert [p.name for p in section.table().players] == ["Left", "Right"]
    assert [row.start for row in section.standings("DE").rows] == [1, 2]
    assert pairs_kind in competitor_kinds()
    with pytest.raises(RuleError, match="a pair has two players"):
        Section("Bad", games, (Competitor(1, "One", players[:1], kind=pairs_kind),), pairs_kind)
    with pytest.raises(RuleError, match="is a player, not a best-of-pair"):
        Section("Bad", games, (Competitor(1, "One", players[:1]),), pairs_kind)


def test_a_forgotten_kind_is_unknown(pairs_kind: str) -> None:
    unregister_kind(pairs_kind)
    with pytest.raises(RuleError, match="unknown competitor kind 'best-of-pair'"):
        competitor_kind(pairs_kind)
    register_kind(BestOfPair())


def test_a_system_registered_twice_or_under_a_taken_name(halves: System) -> None:
    assert register_system("toy-halves", "TOY_HALVES") is halves
    with pytest.raises(RuleError, match="is registered as TOY_HALVES"):
        register_system("toy-halves", "OTHER")
    with pytest.raises(RuleError, match="name KNOCKOUT is taken"):
        register_system("toy-other", "KNOCKOUT")
    with pytest.raises(RuleError, match="already a knockout's"):
        register_settings(halves, HalvesSettings, "a toy system", keys=("tie_rule",))
