"""Editing a player after registration (issue 15 item 5), on SQLite and PostgreSQL: what may
change before and after the start per system, the history entry and its undo, the refusals
naming the field and why, and ``crosstable player edit``."""
# ruff: noqa: F811 - pytest fixtures imported from test_service_support

from __future__ import annotations

from pathlib import Path

import pytest
from test_service_support import db_url, registered, service, started, store  # noqa: F401

from crosstable.cli import main
from crosstable.core.errors import RuleError
from crosstable.core.model import LotsMethod, System
from crosstable.service import NotFoundError, PlayerInfo, Regulations, Service
from crosstable.store.models import EntryRow


def _player(service: Service, tid: int, number: int) -> object:
    return next(p for p in service.overview(tid).players if p.number == number)


def test_every_detail_changes_before_the_start_and_the_history_says_what(
    service: Service,
) -> None:
    tid = registered(service, 3)
    change = service.edit_player(
        tid,
        2,
        name="  Boris   Spassky ",
        rating=2100,
        title="GM",
        federation="FRA",
        fide_id="4100026",
        birth_date="1937/01/30",
        sex="m",
    )
    player = _player(service, tid, 2)
    assert (player.name, player.rating, player.title, player.federation) == (  # type: ignore[attr-defined]
        "Boris Spassky",
        2100,
        "GM",
        "FRA",
    )
    with service.store.reading() as session:
        entry = session.get(EntryRow, (tid, 2))
        assert entry is not None
        assert (entry.fide_id, entry.birth_date, entry.sex) == ("4100026", "1937/01/30", "m")
    assert change.summary.startswith("player 2 Boris Spassky edited: name Boris → Boris Spassky")
    assert "rating 2001 → 2100" in change.summary
    assert "FIDE id (none) → 4100026" in change.summary
    last = service.history(tid)[-1]
    assert (last.kind, last.summary) == ("player-edit", change.summary)
    # the same values again change nothing and add nothing to the history
    again = service.edit_player(tid, 2, name="Boris Spassky", rating=2100)
    assert again.replayed
    assert service.history(tid)[-1].seq == last.seq


def test_undo_takes_the_edit_back(service: Service) -> None:
    tid = started(service, 4)
    service.edit_player(tid, 3, name="Clara K.", rating=1500, title="WFM")
    assert _player(service, tid, 3).name == "Clara K."  # type: ignore[attr-defined]
    undone = service.undo(tid)
    assert "player 3 Clara K. edited" in undone.summary
    player = _player(service, tid, 3)
    assert (player.name, player.rating, player.title) == ("Clara", 2002, "")  # type: ignore[attr-defined]


def test_refusals_name_the_player_and_the_field(service: Service) -> None:
    tid = registered(service, 3)
    with pytest.raises(RuleError, match="player 3 Clara: a player needs a name"):
        service.edit_player(tid, 3, name="  ")
    with pytest.raises(RuleError, match="player 3 Clara: rating -1 is negative"):
        service.edit_player(tid, 3, rating=-1)
    with pytest.raises(RuleError, match="player 3 Clara: sex is 'm', 'w' or empty, not 'x'"):
        service.edit_player(tid, 3, sex="x")
    with pytest.raises(RuleError, match="unknown player detail 'team'"):
        service.edit_player(tid, 3, team="A")
    with pytest.raises(RuleError, match="nothing to change"):
        service.edit_player(tid, 3)
    with pytest.raises(NotFoundError, match="no player number 7"):
        service.edit_player(tid, 7, name="Nobody")
    assert [p.name for p in service.overview(tid).players] == ["Anna", "Boris", "Clara"]


def test_a_new_rating_order_clears_a_draw_by_rating(service: Service) -> None:
    tid = registered(service, 4)  # ratings 2000…2003: by rating 4, 3, 2, 1
    service.draw_lots(tid, LotsMethod.RATING)
    kept = service.edit_player(tid, 4, rating=2500, name="Dmitri D.")  # still the highest
    assert "draw is cleared" not in kept.summary
    assert _player(service, tid, 4).start == 1  # type: ignore[attr-defined]
    moved = service.edit_player(tid, 1, rating=2600)
    assert "the rating order changed, so the draw is cleared: draw lots again" in moved.summary
    assert all(p.start is None for p in service.overview(tid).players)
    # a draw by hand does not follow the ratings: it stays
    service.draw_lots(tid, LotsMethod.MANUAL, order=(1, 2, 3, 4))
    service.edit_player(tid, 2, rating=2700)
    assert [p.start for p in service.overview(tid).players] == [1, 2, 3, 4]


def test_round_robin_after_the_start_every_detail_and_the_pairings_stay(
    service: Service,
) -> None:
    tid = registered(service, 4)
    service.draw_lots(tid, LotsMethod.RATING)
    service.start(tid)
    before = [(g.round, g.board, g.white, g.black) for g in service.overview(tid).games]
    change = service.edit_player(tid, 1, rating=2900, name="Anna A.")
    assert change.summary.endswith("; the starting numbers stay as drawn")
    after = [(g.round, g.board, g.white, g.black) for g in service.overview(tid).games]
    assert after == before
    assert any(row["name"] == "Anna A." for row in service.live_standings(tid)["rows"])


def test_swiss_after_the_start_the_rating_may_change(service: Service) -> None:
    tid = registered(service, 6, system=System.SWISS_DUTCH, rounds=3)
    service.draw_lots(tid, LotsMethod.RATING)
    service.start(tid)
    first = service.propose_round(tid)
    service.edit_player(tid, 6, rating=1000)  # the top seed's rating typed wrong
    assert service.propose_round(tid) == first  # pairings follow the starting numbers


@pytest.mark.parametrize(
    ("tie_rule", "allowed"), [("lower-rated", False), ("lots", True), ("playoff", True)]
)
def test_knockout_rating_is_locked_when_the_tie_rule_reads_it(
    service: Service, tie_rule: str, allowed: bool
) -> None:
    created = service.create_tournament(
        Regulations(name="Cup", system=System.KNOCKOUT, details={"tie_rule": tie_rule})
    )
    tid = created.tournament_id
    for index, name in enumerate(("Anna", "Boris", "Clara", "Dmitri")):
        service.add_player(tid, PlayerInfo(name, rating=2400 - 10 * index))
    service.draw_lots(tid, LotsMethod.RATING)
    service.start(tid)
    service.edit_player(tid, 2, name="Boris B.", title="IM")  # no pairing reads these
    if allowed:
        service.edit_player(tid, 2, rating=2500)
        assert _player(service, tid, 2).rating == 2500  # type: ignore[attr-defined]
        return
    with pytest.raises(RuleError, match=r"rating of player 2 Boris B\.: cannot change after the"):
        service.edit_player(tid, 2, rating=2500)
    assert _player(service, tid, 2).rating == 2390  # type: ignore[attr-defined]


def test_finished_tournament_is_not_edited(service: Service) -> None:
    tid = started(service, 3)
    for game in service.overview(tid).games:
        service.record_result(tid, game.round, game.board, "1-0")
    service.finish(tid)
    with pytest.raises(RuleError, match="finished; undo the finish"):
        service.edit_player(tid, 1, name="Anna K.")


def test_cli_player_edit(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "club.db")
    assert main(["new", "Club", "--db", db]) == 0
    for name in ("Anna", "Boris", "Clara"):
        assert main(["player", "add", name, "--rating", "2000", "--db", db]) == 0
    capsys.readouterr()
    assert main(["player", "edit", "2", "--name", "Boris S.", "--rating", "2100", "--db", db]) == 0
    out = capsys.readouterr().out
    assert "player 2 Boris S. edited: name Boris → Boris S.; rating 2000 → 2100" in out
    assert main(["player", "edit", "2", "--rating", "unrated", "--title", "FM", "--db", db]) == 0
    assert "rating 2100 → (none); title (none) → FM" in capsys.readouterr().out
    assert main(["player", "list", "--db", db]) == 0
    assert "Boris S." in capsys.readouterr().out
    # mistakes: one line, exit status 2
    for argv, said in (
        (["player", "edit", "2"], "say what changes"),
        (["player", "edit", "2", "--rating", "high"], "--rating 'high': a whole number"),
        (["player", "edit", "9", "--name", "X"], "no player number 9"),
        (["player", "edit", "2", "--sex", "q"], "player 2 Boris S.: sex is"),
    ):
        assert main([*argv, "--db", db]) == 2
        err = capsys.readouterr().err
        assert said in err and err.count("\n") == 1, err
    assert main(["undo", "--db", db]) == 0
    assert "undo" in capsys.readouterr().out
