"""R-SE-6 through the store and services (SQLite and PostgreSQL): in a group stage +
knockout, a group winner who played no game (forfeit wins only) does not go on to
the knockout; the next player of the group takes the place."""
# ruff: noqa: F811 - pytest fixtures imported from test_service_support

from __future__ import annotations

from test_service_stages import make_groups, strongest_wins
from test_service_support import db_url, service, store  # noqa: F401

from crosstable.service import Service


def forfeit_winner(service: Service, tid: int, start: int) -> None:
    """Player ``start`` wins every game by forfeit (the opponents never came)."""
    for game in service.overview(tid).games:
        if start in (game.white, game.black):
            service.record_result(
                tid, game.round, game.board, "+-" if game.white == start else "-+"
            )


def test_a_forfeit_only_group_winner_does_not_reach_the_knockout(service: Service) -> None:
    ids = make_groups(service, [4, 4], qualifiers=1, name="Autumn cup")
    forfeit_winner(service, ids[0], 1)  # three forfeit wins, first on points
    for tid in ids:
        strongest_wins(service, tid)
        service.finish(tid)
    group_a = service.overview(ids[0])
    names = {p.start: p.name for p in group_a.players}
    change = service.create_knockout_stage(ids[0])
    knockout = {p.name for p in service.overview(change.tournament_id).players}
    assert names[1] not in knockout  # played no game: stays out (R-SE-6)
    assert names[2] in knockout  # the next player of group A moves up
    assert len(knockout) == 2
