"""The portal's rules of fair play, eligibility and organisers (issue 12 items 2–4), on
SQLite and PostgreSQL: R-SE-8 (the computer-help ban, site-wide), R-OR-2 / R-X-2 (the
eligibility counts from the site's data, the over-the-board minimum of 10), R-OR-1 /
R-X-1 (masters from the results, organisers who do not play). Every refusal is
checked with its reason."""
# ruff: noqa: F811 - pytest fixtures imported from test_service_support

from __future__ import annotations

import pytest
from test_service_stages import finish_all, make_groups
from test_service_support import db_url, service, store  # noqa: F401

from crosstable.core.errors import RuleError
from crosstable.core.model import LotsMethod
from crosstable.service import PlayerInfo, Regulations, Service
from crosstable.service.accounts import Accounts, UserInfo
from crosstable.service.eligibility import (
    OTB_MINIMUM,
    PlayingRecord,
    check_venue_kind,
    venue_kind,
)
from crosstable.service.stage_view import qualifiers
from crosstable.store.accounts_models import StaffRow
from crosstable.store.models import TournamentRow

OTB = {"venue_kind": "otb"}


def accounts_of(service: Service) -> Accounts:
    return Accounts(service.store, clock=service.clock)


def person(accounts: Accounts, name: str, **flags: object) -> UserInfo:
    return accounts.create_user(name, f"password-{name}", **flags)  # type: ignore[arg-type]


def enter(service: Service, accounts: Accounts, tid: int, user: UserInfo) -> int:
    """Register the account's entry (an organiser adds it, then links it); its number."""
    number = int(service.add_player(tid, PlayerInfo(user.display_name)).data["number"])
    accounts.link_entry(tid, number, user.id)
    return number


def open_tournament(
    service: Service, accounts: Accounts, owner: UserInfo, name: str = "Open", **details: str
) -> int:
    tid = service.create_tournament(Regulations(name=name, details=details)).tournament_id
    accounts.claim(tid, owner)
    accounts.set_access(tid, approval="approved", self_registration=True)
    return tid


def play_out(service: Service, tid: int, results: dict[tuple[int, int], str] | None = None) -> None:
    """Every game: the lower starting number wins, unless ``results`` says otherwise
    (by (round, board)); then the finish if it did not finish by itself."""
    for game in service.overview(tid).games:
        if game.result is None:
            result = (results or {}).get((game.round, game.board))
            if result is None:
                result = "1-0" if (game.white or 0) < (game.black or 0) else "0-1"
            service.record_result(tid, game.round, game.board, result)
    if service.overview(tid).status != "finished":
        service.finish(tid)


def start(service: Service, tid: int) -> None:
    service.draw_lots(
        tid, LotsMethod.MANUAL, order=tuple(p.number for p in service.overview(tid).players)
    )
    service.start(tid)


def started_small(service: Service, tid: int) -> None:
    """Start an over-the-board event of a few players (behind the minimum's back: the
    regulations read online for the start only)."""
    with service.store.transaction() as session:
        row = session.get(TournamentRow, tid)
        assert row is not None
        row.regulations = {}
    start(service, tid)
    with service.store.transaction() as session:
        row = session.get(TournamentRow, tid)
        assert row is not None
        row.regulations = dict(OTB)


# -- fair play (R-SE-8) ----------------------------------------------------------------


def test_a_flagged_account_cannot_register_be_added_or_be_linked(service: Service) -> None:
    accounts = accounts_of(service)
    admin = person(accounts, "admin", is_admin=True)
    cheat = person(accounts, "cheat")
    tid = open_tournament(service, accounts, admin)
    # an older document with the opt-in is read; the opt-in itself is gone (always on)
    accounts.set_access(tid, eligibility={"refuse_flagged": False, "min_rated_games": 0})
    assert accounts.access(tid).eligibility == {"min_rated_games": 0}
    assert accounts.registration_problems(tid, cheat) == []

    accounts.flag(cheat.id, "engine moves in 9 games", actor="admin")
    fair_play = "fair play: an account flagged for computer help cannot take part in tournaments"
    assert accounts.registration_problems(tid, cheat) == [fair_play]
    assert accounts.entry_problems(tid, cheat.id) == [fair_play]
    with pytest.raises(RuleError, match="cheat cannot play in this tournament: fair play"):
        accounts.check_entry(tid, cheat.id)
    number = int(service.add_player(tid, PlayerInfo("Guest")).data["number"])
    with pytest.raises(RuleError, match="cheat cannot play in this tournament: fair play"):
        accounts.link_entry(tid, number, cheat.id)
    assert accounts.entry_accounts(tid) == {}
    with pytest.raises(RuleError, match="flagged already"):
        accounts.flag(cheat.id, "again")
    with pytest.raises(RuleError, match="give the reason"):
        accounts.unflag(cheat.id, "  ")

    accounts.unflag(cheat.id, "appeal upheld", actor="admin")
    accounts.link_entry(tid, number, cheat.id)
    assert accounts.entry_accounts(tid) == {number: cheat.id}
    history = accounts.account_history(cheat.id)
    assert [(e.kind, e.actor, e.data["reason"]) for e in history] == [
        ("flag", "admin", "engine moves in 9 games"),
        ("unflag", "admin", "appeal upheld"),
    ]
    assert history[0].summary == "flagged for computer help: engine moves in 9 games"


def test_flagging_a_player_of_running_tournaments_asks_what_to_do_in_each(
    service: Service,
) -> None:
    accounts = accounts_of(service)
    admin = person(accounts, "admin", is_admin=True)
    cheat = person(accounts, "cheat")
    first = open_tournament(service, accounts, admin, "Spring")
    second = open_tournament(service, accounts, admin, "Summer")
    for tid in (first, second):
        for name in ("Anna", "Boris", "Clara"):
            service.add_player(tid, PlayerInfo(name))
        enter(service, accounts, tid, cheat)
        start(service, tid)

    with pytest.raises(RuleError) as refused:
        accounts.flag(cheat.id, "engine", service=service)
    assert str(refused.value) == (
        "fair play: cheat plays in running tournaments; decide for each whether they "
        f"withdraw or stay until the end: Spring (tournament {first}), Summer (tournament {second})"
    )
    with pytest.raises(RuleError, match="decide for each"):  # one decision is missing
        accounts.flag(cheat.id, "engine", decisions={first: "withdraw"}, service=service)
    with pytest.raises(RuleError, match="the decision is withdraw or stay, not 'ban'"):
        accounts.flag(cheat.id, "engine", decisions={first: "ban", second: "stay"})
    assert not accounts.user(cheat.id).flagged  # nothing done by a refusal

    withdrawn = accounts.flag(
        cheat.id,
        "engine moves",
        decisions={first: "withdraw", second: "stay"},
        service=service,
        actor="admin",
    )
    assert [w.tournament_id for w in withdrawn] == [first]
    assert accounts.user(cheat.id).flagged
    number = accounts.entry_of(first, cheat.id)
    entry = next(p for p in service.overview(first).players if p.number == number)
    assert entry.withdrawn_from is not None  # under the tournament's withdrawal rule
    assert service.history(first)[-1].kind == "withdrawal"
    stays = next(
        p
        for p in service.overview(second).players
        if p.number == accounts.entry_of(second, cheat.id)
    )
    assert stays.withdrawn_from is None
    # who, when, why and the decisions: the account's record (administrators only)
    flag = accounts.account_history(cheat.id)[-1]
    assert (flag.kind, flag.actor) == ("flag", "admin")
    assert flag.at.startswith("2026-05-01T18:")  # the service's clock
    assert [(t["tournament_id"], t["decision"]) for t in flag.data["tournaments"]] == [
        (first, "withdraw"),
        (second, "stay"),
    ]
    assert flag.summary == (
        "flagged for computer help: engine moves — Spring: withdrawn; Summer: stays until the end"
    )
    # the tournaments' public history does not say why
    assert all("engine" not in item.summary for item in service.history(first))


def test_a_flagged_entry_keeps_the_tournament_from_starting(service: Service) -> None:
    accounts = accounts_of(service)
    admin = person(accounts, "admin", is_admin=True)
    cheat = person(accounts, "cheat")
    tid = open_tournament(service, accounts, admin)
    for name in ("Anna", "Boris", "Clara"):
        service.add_player(tid, PlayerInfo(name))
    number = enter(service, accounts, tid, cheat)
    accounts.flag(cheat.id, "engine")  # in no running tournament: no decision needed
    service.draw_lots(tid, LotsMethod.MANUAL, order=(1, 2, 3, 4))
    with pytest.raises(RuleError) as refused:
        service.start(tid)
    assert str(refused.value) == (
        f"the tournament cannot start: fair play: player {number} cheat — an account flagged "
        "for computer help cannot take part; remove the entry before the start"
    )
    service.remove_player(tid, number)
    service.draw_lots(tid, LotsMethod.MANUAL, order=(1, 2, 3))
    service.start(tid)
    assert service.overview(tid).status == "running"


def test_a_flagged_group_winner_does_not_qualify_the_next_moves_up(service: Service) -> None:
    accounts = accounts_of(service)
    cheat = person(accounts, "cheat")
    ids = make_groups(service, [4, 4], qualifiers=2)
    accounts.link_entry(ids[0], 1, cheat.id)  # A-1, the strongest of group A
    accounts.flag(cheat.id, "engine", decisions={ids[0]: "stay"}, service=service)
    finish_all(service, ids)
    with service.store.reading() as session:
        view = service.stage_of(ids[0])
        assert view is not None
        found, _lines = qualifiers(session, view)
    group_a = sorted((q.place, q.entry.name) for q in found if q.group == "A")
    assert group_a == [(1, "A-2"), (2, "A-3")]  # A-1 won the group and is left out
    ko = service.create_knockout_stage(ids[0]).tournament_id
    assert "A-1" not in {p.name for p in service.overview(ko).players}


# -- eligibility from the site's data (R-OR-2, R-X-2) ----------------------------------


def test_the_counts_come_from_the_site_and_the_adjustment_is_kept_apart(
    service: Service,
) -> None:
    accounts = accounts_of(service)
    admin = person(accounts, "admin", is_admin=True)
    anna = person(accounts, "anna")
    online = open_tournament(service, accounts, admin, "Online")
    number = enter(service, accounts, online, anna)
    for name in ("Boris", "Clara", "Dmitri"):
        service.add_player(online, PlayerInfo(name))
    start(service, online)
    assert accounts.record(anna.id) == PlayingRecord(0, 0, 0, 0)
    # anna's first game is a forfeit (not a game played); her other two are at the board
    forfeit = next(
        g for g in service.overview(online).games if number in (g.white, g.black) and g.round == 1
    )
    code = "+-" if forfeit.white != number else "-+"
    play_out(service, online, {(forfeit.round, forfeit.board): code})
    record = accounts.record(anna.id)
    assert (record.games_on_site, record.tournaments_on_site) == (2, 1)
    assert record.games_text() == "2"

    otb = open_tournament(service, accounts, admin, "Club OTB", **OTB)
    enter(service, accounts, otb, anna)
    service.add_player(otb, PlayerInfo("Boris"))
    service.add_player(otb, PlayerInfo("Clara"))
    # an over-the-board event: its games count, it is not an online tournament
    started_small(service, otb)
    play_out(service, otb)
    record = accounts.record(anna.id)
    assert (record.games_on_site, record.tournaments_on_site) == (4, 1)

    record = accounts.adjust(anna.id, games=5, reason="games at the club's old site", actor="admin")
    assert record == PlayingRecord(4, 5, 1, 0)
    assert record.games_text() == "9 = 4 on the site + 5 adjusted"
    assert record.as_dict()["games"] == {"total": 9, "on_site": 4, "adjusted": 5}
    adjust = accounts.account_history(anna.id)[-1]
    assert (adjust.kind, adjust.data["before"], adjust.data["after"]) == (
        "adjust",
        {"games": 0, "tournaments": 0},
        {"games": 5, "tournaments": 0},
    )
    with pytest.raises(RuleError, match="the adjustment of games is between"):
        accounts.adjust(anna.id, games=10**6, reason="x")
    with pytest.raises(RuleError, match="give the reason"):
        accounts.adjust(anna.id, games=1, reason="")

    rules_tid = open_tournament(service, accounts, admin, "Rated")
    accounts.set_access(rules_tid, eligibility={"min_rated_games": 20, "min_online_tournaments": 2})
    assert accounts.registration_problems(rules_tid, anna) == [
        "eligibility: at least 20 games played are required (you have 9 = 4 on the site "
        "+ 5 adjusted)",
        "eligibility: at least 2 finished online tournaments are required (you have 1)",
    ]
    accounts.adjust(anna.id, games=16, tournaments=1, reason="imported")
    assert accounts.registration_problems(rules_tid, anna) == []


def test_venue_kind_reads_online_by_default_and_refuses_other_values() -> None:
    assert venue_kind({}) == "online"
    assert venue_kind({"venue_kind": "OTB"}) == "otb"
    check_venue_kind({"venue_kind": "online"})
    with pytest.raises(RuleError, match="venue kind is online or otb"):
        check_venue_kind({"venue_kind": "hybrid"})


def test_an_over_the_board_event_needs_ten_eligible_players(service: Service) -> None:
    accounts = accounts_of(service)
    admin = person(accounts, "admin", is_admin=True)
    tid = open_tournament(service, accounts, admin, "Club OTB", **OTB)
    players = [person(accounts, f"p{n}") for n in range(OTB_MINIMUM)]
    for user in players:
        enter(service, accounts, tid, user)
    guest = int(service.add_player(tid, PlayerInfo("Guest")).data["number"])
    # the self-registration applies R-X-2's rules to an over-the-board event
    newcomer = person(accounts, "newcomer")
    assert accounts.registration_problems(tid, newcomer) == [
        "eligibility: at least 20 games played are required (you have 0)",
        "eligibility: at least 1 finished online tournament is required (you have 0)",
    ]
    for user in players[:8]:
        accounts.adjust(user.id, games=20, tournaments=1, reason="imported")
    accounts.adjust(players[8].id, games=25, reason="imported")
    service.draw_lots(tid, LotsMethod.RATING)
    with pytest.raises(RuleError) as refused:
        service.start(tid)
    message = str(refused.value)
    assert message.startswith(
        "the tournament cannot start: an over-the-board event needs at least 10 eligible "
        "registered players to start; it has 8 — not eligible: "
    )
    assert "player 9 p8: at least 1 finished online tournament is required (has 0)" in message
    assert "player 10 p9: at least 20 games played are required (has 0)" in message
    assert f"player {guest} Guest: no account on the site" in message
    accounts.adjust(players[8].id, games=25, tournaments=1, reason="imported")
    accounts.adjust(players[9].id, games=20, tournaments=1, reason="imported")
    service.start(tid)
    assert service.overview(tid).status == "running"


# -- masters and organisers (R-OR-1, R-X-1) --------------------------------------------


def test_a_winner_of_an_over_the_board_event_is_a_master(service: Service) -> None:
    accounts = accounts_of(service)
    admin = person(accounts, "admin", is_admin=True)
    anna = person(accounts, "anna")
    assert not anna.may_organise
    tid = service.create_tournament(Regulations(name="Club OTB", details=OTB)).tournament_id
    enter(service, accounts, tid, anna)  # registration number 1: starting number 1 wins
    for name in ("Boris", "Clara"):
        service.add_player(tid, PlayerInfo(name))
    started_small(service, tid)
    assert not accounts.master(anna.id).is_master
    play_out(service, tid)
    status = accounts.master(anna.id)
    assert (status.is_master, status.won, status.text()) == (
        True,
        ("Club OTB",),
        "master: won Club OTB",
    )
    assert accounts.user(anna.id).may_organise
    assert accounts.find_user("anna").is_master  # type: ignore[union-attr]

    status = accounts.set_master(anna.id, False, reason="abandoned the club", actor="admin")
    assert (status.is_master, status.text()) == (False, "not a master (revoked by admin)")
    assert not accounts.user(anna.id).may_organise
    status = accounts.set_master(anna.id, True, actor="admin")
    assert status.text() == "master: granted by admin"
    kinds = [(e.kind, e.actor) for e in accounts.account_history(anna.id)]
    assert kinds == [("master-revoke", "admin"), ("master-grant", "admin")]
    # an online tournament's winner is not a master
    boris = person(accounts, "boris")
    online = service.create_tournament(Regulations(name="Online")).tournament_id
    enter(service, accounts, online, boris)
    for name in ("X", "Y"):
        service.add_player(online, PlayerInfo(name))
    start(service, online)
    play_out(service, online)
    assert not accounts.master(boris.id).is_master
    assert admin.may_organise


def test_a_sole_organiser_may_not_play_several_keep_one_off_the_board(
    service: Service,
) -> None:
    accounts = accounts_of(service)
    owner = person(accounts, "owner", is_master=True)
    second = person(accounts, "second", is_master=True)
    third = person(accounts, "third", is_master=True)
    tid = open_tournament(service, accounts, owner)
    sole = "organisers: a sole organiser may not play in their own tournament"
    assert accounts.registration_problems(tid, owner) == [
        sole + " (add another organiser who does not play first)"
    ]
    number = int(service.add_player(tid, PlayerInfo("Owner")).data["number"])
    with pytest.raises(RuleError, match="owner cannot play in this tournament: " + sole):
        accounts.link_entry(tid, number, owner.id)  # an organiser adding or linking the entry

    accounts.set_staff(tid, second.id, "organiser")
    assert accounts.registration_problems(tid, owner) == []
    accounts.link_entry(tid, number, owner.id)  # the owner plays, second does not
    several = "organisers: with several organisers, at least one of them does not play"
    assert accounts.registration_problems(tid, second) == [several + " (owner already plays)"]
    with pytest.raises(RuleError, match=several):
        accounts.check_entry(tid, second.id)
    # second may not leave the organisers: the owner, who plays, would organise alone
    with pytest.raises(RuleError, match=sole + r" \(owner would organise alone and plays\)"):
        accounts.set_staff(tid, second.id, None)
    # a player made an organiser: refused when no organiser would be left off the board
    other = enter(service, accounts, tid, third)
    assert other
    accounts.set_staff(tid, third.id, "organiser")  # second still does not play
    assert accounts.staff(tid)[third.id] == "organiser"

    # at the start (a state made behind the service's back: every organiser plays)
    with service.store.transaction() as session:
        session.delete(session.get(StaffRow, (tid, second.id)))
    service.add_player(tid, PlayerInfo("Guest"))
    service.draw_lots(tid, LotsMethod.RATING)
    with pytest.raises(RuleError) as refused:
        service.start(tid)
    assert str(refused.value) == (
        "the tournament cannot start: " + several + " (owner, third play)"
    )
    accounts.set_staff(tid, second.id, "organiser")
    service.start(tid)


def test_an_organiser_is_an_administrator_or_a_master(service: Service) -> None:
    accounts = accounts_of(service)
    bob = person(accounts, "bob")
    tid = service.create_tournament(Regulations(name="Open")).tournament_id
    with pytest.raises(RuleError) as refused:
        accounts.set_staff(tid, bob.id, "organiser")
    assert str(refused.value) == (
        "bob cannot organise: an organiser is an administrator or a master (a winner of an "
        "over-the-board event of the site); make them a helper"
    )
    accounts.set_staff(tid, bob.id, "helper")  # anyone may help
    accounts.set_master(bob.id, True, actor="admin")
    accounts.set_staff(tid, bob.id, "organiser")
    assert accounts.staff(tid) == {bob.id: "organiser"}


def test_a_player_made_the_only_organiser_is_refused(service: Service) -> None:
    accounts = accounts_of(service)
    admin = person(accounts, "admin", is_admin=True)
    anna = person(accounts, "anna", is_master=True)
    tid = service.create_tournament(Regulations(name="Open")).tournament_id
    enter(service, accounts, tid, anna)
    with pytest.raises(RuleError) as refused:
        accounts.set_staff(tid, anna.id, "organiser")
    assert str(refused.value) == (
        "anna cannot organise: organisers: a sole organiser may not play in their own "
        "tournament (this player would organise alone)"
    )
    accounts.set_staff(tid, admin.id, "organiser")
    accounts.set_staff(tid, anna.id, "organiser")
    assert accounts.staff(tid) == {admin.id: "organiser", anna.id: "organiser"}


def test_the_regulations_refuse_an_unknown_venue_kind(service: Service) -> None:
    with pytest.raises(RuleError, match="venue kind is online or otb"):
        service.create_tournament(Regulations(name="Hybrid", details={"venue_kind": "hybrid"}))
    tid = service.create_tournament(Regulations(name="Club", details=OTB)).tournament_id
    with pytest.raises(RuleError, match="venue kind is online or otb"):
        service.edit_regulations(tid, details={"venue_kind": "moon"})
    service.edit_regulations(tid, details={"venue_kind": "online"})
    with service.store.reading() as session:
        row = session.get(TournamentRow, tid)
        assert row is not None
        assert venue_kind(row.regulations) == "online"
