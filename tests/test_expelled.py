"""FIDE checklist Q197-198: an arbiter expels a player (a withdrawal with the reason
"expelled", from a given round, in the history, undone by undo); their remaining games
are not paired, a Swiss leaves them out of its standings' ranking and shows them apart
as expelled, and their games still count for their opponents' tie-breaks (C.07, as for
withdrawn players); the TRF export writes a ``### Expelled`` line. The core (property)
and the service on SQLite and PostgreSQL."""

# ruff: noqa: F811 - pytest fixtures imported from test_service_support
from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crosstable.core.errors import RuleError
from crosstable.core.expulsion import Expulsion, expelled_starts, expulsions_in, with_expulsion
from crosstable.core.model import System
from crosstable.core.pairing.dutch.generator import GeneratorSettings, generate
from crosstable.core.standings import compute_standings
from crosstable.service import Service
from crosstable.service.errors import NotFoundError
from tests.test_service_support import db_url, service, started, store  # noqa: F401

TIEBREAKS = ("BH/C1", "BH", "SB", "AOB", "WIN")


@settings(max_examples=25, deadline=None)
@given(
    st.integers(4, 10),
    st.integers(1, 3),
    st.integers(0, 10_000),
    st.sets(st.integers(1, 10), max_size=3),
    st.booleans(),
)
def test_q197_a_swiss_ranks_everyone_but_the_expelled_whose_games_still_count(
    players: int, rounds: int, seed: int, chosen: set[int], final: bool
) -> None:
    played = generate(GeneratorSettings(players=players, rounds=rounds, seed=seed))
    expelled = frozenset(s for s in chosen if s <= players)
    base = replace(played, withdrawn=expelled)
    out = replace(base, expelled=expelled)
    before = compute_standings(base, TIEBREAKS, final=final)
    after = compute_standings(out, TIEBREAKS, final=final)
    ranked = [row for row in after.rows if row.rank is not None]
    assert {row.start for row in ranked} == {p.start for p in played.players} - expelled
    apart = [row for row in after.rows if row.start in expelled]
    if apart:  # shown apart, after everyone ranked (in the final table too)
        assert [row.start for row in after.rows][-len(apart) :] == [row.start for row in apart]
    assert all(row.withdrawn == "expelled" and row.excluded for row in apart)
    values = {row.start: row.values for row in before.rows}
    for row in ranked:  # the expelled player's games count for the opponents' tie-breaks
        assert row.values == values[row.start]
    order = [row.start for row in before.rows if row.start not in expelled]
    assert [row.start for row in ranked] == order  # the others keep their order
    ranks = [row.rank for row in ranked]
    assert ranks == sorted(ranks) and (not ranks or ranks[0] == 1)
    robin = replace(out, settings=replace(out.settings, system=System.ROUND_ROBIN))
    assert (
        compute_standings(robin, final=False).rows
        == compute_standings(replace(robin, expelled=frozenset()), final=False).rows
    )  # a round robin's expelled player is a withdrawn one, under its rule


def test_q197_the_regulations_keep_one_expulsion_a_player() -> None:
    details = with_expulsion({"venue": "Hall"}, Expulsion(5, 2, "first"))
    details = with_expulsion(details, Expulsion(3, 4, "cheating, the arbiter's decision"))
    details = with_expulsion(details, Expulsion(5, 3, "second"))
    assert [e.start for e in expulsions_in(details)] == [3, 5]
    assert expulsions_in(details)[1] == Expulsion(5, 3, "second")
    assert details["venue"] == "Hall" and expelled_starts(details) == {3, 5}
    assert expulsions_in({"expelled": '[{"start": "x"}, 7, {"start": 2}]'}) == ()


def _swiss_after_round_1(service: Service) -> int:
    tid = started(service, 6, system=System.SWISS_DUTCH, rounds=4, tiebreaks=("BH", "SB"))
    service.publish_round(tid)
    for game in [g for g in service.overview(tid).games if g.round == 1]:
        service.record_result(tid, 1, game.board, "1-0")
    return tid


def test_q197_q198_an_expelled_player_is_not_paired_ranked_apart_and_undone(
    service: Service,
) -> None:
    tid = _swiss_after_round_1(service)
    revision = service.revision(tid)
    with pytest.raises(RuleError, match="needs its reason"):
        service.expel(tid, 3, reason="  ")
    with pytest.raises(NotFoundError):
        service.expel(tid, 9, reason="insulted the arbiter")
    assert service.revision(tid) == revision
    change = service.expel(tid, 3, from_round=2, reason="insulted  the arbiter")
    assert "player 3 Clara expelled from round 2 (insulted the arbiter)" in change.summary
    assert service.expulsions(tid) == (Expulsion(3, 2, "insulted the arbiter"),)
    with pytest.raises(RuleError, match="withdrew already"):
        service.expel(tid, 3, reason="again")
    service.publish_round(tid)
    round_2 = [g for g in service.overview(tid).games if g.round == 2]
    assert all(3 not in (g.white, g.black) for g in round_2)  # not paired
    _view, table = service.crosstable(tid)
    lines = {line.start: line for line in table.lines}
    assert lines[3].rank is None and lines[3].excluded
    assert sorted(line.rank or 0 for line in table.lines if line.start != 3)[0] == 1
    assert table.ranked[-1] == 3  # shown apart, at the end
    trf = service.export_trf(tid)
    assert (
        "### Expelled @ Round 2: player 3 Clara expelled from round 2 (insulted the arbiter)"
        in (trf)
    )
    history = service.history(tid)
    assert history[-2].kind == "expulsion" and "insulted the arbiter" in history[-2].summary
    service.undo(tid)  # the pairing of round 2
    service.undo(tid)  # the expulsion
    assert service.expulsions(tid) == ()
    assert "Expelled" not in service.export_trf(tid)
    _view, table = service.crosstable(tid)
    assert {line.start: line for line in table.lines}[3].rank is not None


def test_q197_a_round_robin_expels_under_its_withdrawal_rule_and_a_knockout_refuses(
    service: Service,
) -> None:
    tid = started(service, 4)
    service.expel(tid, 2, reason="left the venue without notice")
    assert service.overview(tid).settings["regulations"]["expelled"]
    games = [g for g in service.overview(tid).games if 2 in (g.white, g.black)]
    assert games and all(g.result is not None for g in games)  # forfeited, none to play
    knockout = started(service, 4, system=System.KNOCKOUT)
    with pytest.raises(RuleError, match="Swiss or a round robin only"):
        service.expel(knockout, 1, reason="no")
