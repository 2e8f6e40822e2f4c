"""Lots as the last tie-break of a stored tournament (R-RR-10, seed 004; issue 12.5;
FIDE checklist Q204, Q206): the regulations' detail ``ties: lots`` (refused if unknown,
locked after the start), the seed derived from the tournament when the final places
are fixed and a tie is left (so a finish undone and made again draws the same order),
recorded as a change of that event (undo takes it back, verify replays it), and shown
in the standings (the stored body, the core table, the notes). SQLite and PostgreSQL."""
# ruff: noqa: F811 - pytest fixtures imported from test_service_support

from __future__ import annotations

import pytest
from sqlalchemy import select
from test_service_support import db_url, make_service, service, started, store  # noqa: F401

from crosstable.core.errors import RuleError
from crosstable.core.lots import seed_from
from crosstable.core.standings import compute_standings
from crosstable.core.standings.ranking import rank
from crosstable.core.tiebreaks.field import compile_field
from crosstable.core.tiebreaks.spec import parse_codes
from crosstable.service import Service
from crosstable.service.lots import TIES_SEED, ties_lots_seed
from crosstable.store import Store
from crosstable.store.models import EntryRow, TournamentRow

LOTS = {"ties": "lots"}


def all_drawn(service: Service, tid: int) -> None:
    """Every game of the round robin drawn: everyone equal on points and every tie-break."""
    for game in service.overview(tid).games:
        service.record_result(tid, game.round, game.board, "½-½")


def places(service: Service, tid: int) -> dict[int, int | None]:
    return {p.start: p.place for p in service.overview(tid).players}


def regulations(service: Service, tid: int) -> dict[str, str]:
    return dict(service.overview(tid).settings["regulations"])


def derived(store: Store, tid: int) -> int:
    """The documented derivation, from the stored rows: creation time and entries."""
    with store.reading() as session:
        row = session.get(TournamentRow, tid)
        assert row is not None
        entries = session.scalars(
            select(EntryRow).where(EntryRow.tournament_id == tid).order_by(EntryRow.number)
        )
        parts = [f"{entry.number}:{entry.name}" for entry in entries]
        return seed_from("ties", row.created_at, *parts)


def test_a_tie_left_after_the_list_is_drawn_once_with_a_seed_from_the_tournament(
    store: Store,
) -> None:
    service = make_service(store)
    tid = started(service, 4, tiebreaks=("SB", "DE"), details=dict(LOTS))
    assert TIES_SEED not in regulations(service, tid)  # not drawn while nobody needs it
    all_drawn(service, tid)
    view = service.overview(tid)
    assert view.status == "finished"
    seed = ties_lots_seed(regulations(service, tid))
    assert seed is not None
    # the seed is derived from the tournament (creation time and entries), as documented
    assert seed == derived(store, tid)
    # the places are the core's draw from that seed: 1…4, each once
    tournament = service.tournament(tid)
    assert tournament.settings.lots_seed == seed
    expected = compute_standings(tournament, final=True, lots_seed=seed)
    assert places(service, tid) == {row.start: row.rank for row in expected.rows}
    assert sorted(places(service, tid).values()) == [1, 2, 3, 4]
    # recorded: the last result's event says it, with the seed
    last = service.history(tid)[-1]
    assert f"lots drawn, seed {seed}" in last.summary
    # shown: the stored standings (API, command line) carry the lots and a note
    body = service.live_standings(tid)
    assert body is not None
    assert body["lots"] == [lot.to_json() for lot in expected.lots]
    assert [row["rank"] for row in body["rows"]] == [1, 2, 3, 4]
    assert any(f"lots drawn, seed {seed}" in note for note in body["notes"])
    assert service.verify(tid) == []
    # an export and an import: the same seed, the same places
    copy = service.import_json(service.export_json(tid))
    assert ties_lots_seed(regulations(service, copy)) == seed
    assert places(service, copy) == places(service, tid)


def test_undo_takes_the_seed_back_and_a_new_finish_draws_the_same_again(
    service: Service,
) -> None:
    tid = started(service, 4, tiebreaks=("SB",), details=dict(LOTS))
    all_drawn(service, tid)
    first = ties_lots_seed(regulations(service, tid))
    assert first is not None
    finished_places = places(service, tid)
    service.undo(tid)
    assert service.overview(tid).status == "running"
    assert TIES_SEED not in regulations(service, tid)
    assert set(places(service, tid).values()) == {None}
    assert service.tournament(tid).settings.lots_seed is None
    body = service.live_standings(tid)
    assert body is not None and "lots" not in body
    last = next(g for g in service.overview(tid).games if g.result is None)
    service.record_result(tid, last.round, last.board, "½-½")
    second = ties_lots_seed(regulations(service, tid))
    assert second == first  # drawn again, from the same tournament: the same order
    assert places(service, tid) == finished_places
    assert service.verify(tid) == []


def test_the_same_history_gives_the_same_places(store: Store) -> None:
    """The seed does not come from the service's random source: two services with
    different random sources and the same history (clock, entries, results) draw the
    same seed and places; a tournament created at another time draws another seed, and
    the places follow the seed (not a fixed answer)."""
    one = make_service(store, seed=5)
    tid = started(one, 5, tiebreaks=("SB", "DE"), details=dict(LOTS))
    all_drawn(one, tid)
    seed = ties_lots_seed(regulations(one, tid))
    assert seed == derived(store, tid)
    other = make_service(store, seed=6)
    again = started(other, 5, tiebreaks=("SB", "DE"), details=dict(LOTS))
    all_drawn(other, again)
    assert ties_lots_seed(regulations(other, again)) == seed
    assert places(other, again) == places(one, tid)
    later = started(one, 5, tiebreaks=("SB", "DE"), details=dict(LOTS))
    all_drawn(one, later)
    assert ties_lots_seed(regulations(one, later)) == derived(store, later) != seed
    tournament = one.tournament(tid)
    f = compile_field(tournament)
    drawn = rank(f, parse_codes("SB,DE"), lots_seed=seed)
    assert places(one, tid) == {p + 1: drawn.ranks[p] for p in range(f.n)}


def test_without_lots_or_without_a_tie_nothing_is_drawn(service: Service) -> None:
    shared = started(service, 4, tiebreaks=("SB",))
    all_drawn(service, shared)
    assert TIES_SEED not in regulations(service, shared)
    assert set(places(service, shared).values()) == {1}  # they share the place
    decided = started(service, 3, tiebreaks=("SB",), details=dict(LOTS))
    for game in service.overview(decided).games:  # the lower number wins: no tie
        service.record_result(
            decided, game.round, game.board, "1-0" if game.white < game.black else "0-1"
        )
    assert service.overview(decided).status == "finished"
    assert TIES_SEED not in regulations(service, decided)


def test_the_organisers_finish_draws_too(service: Service) -> None:
    tid = started(service, 4, tiebreaks=("SB",), details=LOTS | {"finish": "confirm"})
    all_drawn(service, tid)
    assert service.overview(tid).status == "running"
    assert TIES_SEED not in regulations(service, tid)
    change = service.finish(tid)
    seed = ties_lots_seed(regulations(service, tid))
    assert seed is not None and f"seed {seed}" in change.summary
    assert sorted(places(service, tid).values()) == [1, 2, 3, 4]


def test_refusals(service: Service) -> None:
    from crosstable.service import Regulations

    with pytest.raises(RuleError, match="shared or lots"):
        service.create_tournament(Regulations(name="X", details={"ties": "coin"}))
    with pytest.raises(RuleError, match="not given by hand"):
        service.create_tournament(Regulations(name="X", details={"ties": "lots", TIES_SEED: "7"}))
    tid = started(service, 4, tiebreaks=("SB",))
    with pytest.raises(RuleError, match="locked; give a reason"):
        service.edit_regulations(tid, details={"ties": "lots"})
    with pytest.raises(RuleError, match="not given by hand"):
        service.edit_regulations(tid, details={TIES_SEED: "7"})
    done = service.edit_regulations(tid, details={"ties": "lots"}, override_reason="announced late")
    assert "override" in done.summary
    assert regulations(service, tid)["ties"] == "lots"
