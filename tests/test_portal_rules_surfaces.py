"""Issue 12 items 3 and 4 through the surfaces the audit found short (SQLite and
PostgreSQL): the start's refusals said wholly in Russian (each player's reasons and the
sole organiser as messages of their own), the organisers' rule worded for one or
several, the kind of event fixed once the tournament has started (R-X-2, R-OR-1), the
command line (``crosstable account show|adjust|master|link``, ``crosstable
organisers``, ``crosstable new --venue-kind --forfeits-in-tiebreaks``), the wizard and
the management page choosing the kind of event, ties and forfeits, and the regulations
page saying who may enter as the site applies it."""
# ruff: noqa: F811 - pytest fixtures imported from test_service_support

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("fastapi")

from test_portal_rules import OTB, accounts_of, enter, open_tournament, person, start
from test_service_stages import finish_all
from test_service_support import db_url, service, store  # noqa: F401

from crosstable.cli import main
from crosstable.core.errors import RuleError
from crosstable.core.model import LotsMethod, System
from crosstable.service import PlayerInfo, Regulations, Service
from crosstable.service.accounts import Accounts
from crosstable.service.eligibility import quads_details
from crosstable.service.stage_view import group_details
from crosstable.store import open_store
from crosstable.store.accounts_models import StaffRow
from crosstable.web.app import create_app
from crosstable.web.messages import error_text, translate
from tests.asgi_client import TestClient

#: English words that must not be left in a Russian refusal
ENGLISH = re.compile(r"\b(at least|required|has|player|flagged|account|organisers?|plays?)\b")


# -- the start's refusals in Russian ---------------------------------------------------


def test_the_over_the_board_shortfall_is_said_in_russian(service: Service) -> None:
    accounts = accounts_of(service)
    admin = person(accounts, "admin", is_admin=True)
    tid = open_tournament(service, accounts, admin, "Club OTB", **OTB)
    players = [person(accounts, f"p{n}") for n in range(10)]
    for user in players:
        enter(service, accounts, tid, user)
    service.add_player(tid, PlayerInfo("Guest"))
    for user in players[:8]:
        accounts.adjust(user.id, games=20, tournaments=1, reason="imported")
    accounts.adjust(players[8].id, games=25, reason="imported")
    accounts.adjust(players[9].id, games=3, tournaments=1, reason="imported")
    service.draw_lots(tid, LotsMethod.RATING)
    with pytest.raises(RuleError) as refused:
        service.start(tid)
    english = str(refused.value)
    assert "player 9 p8: at least 1 finished online tournament is required (has 0)" in english
    assert "player 10 p9: at least 20 games played are required (has 3 = 0 on the site + 3 " in (
        english
    )
    russian = error_text(refused.value, "ru")
    assert russian.startswith("турнир нельзя начать: для начала очного турнира нужно не меньше 10")
    assert "игрок 9 p8: нужен хотя бы один завершённый онлайн-турнир (сыграно 0)" in russian
    assert "игрок 10 p9: нужно не меньше 20 сыгранных партий (сыграно 3 = 0 на сайте + 3" in russian
    assert "игрок 11 Guest: нет учётной записи на сайте" in russian
    assert not ENGLISH.search(russian), russian


def test_a_flagged_players_shortfall_is_said_in_russian(service: Service) -> None:
    accounts = accounts_of(service)
    admin = person(accounts, "admin", is_admin=True)
    tid = open_tournament(service, accounts, admin, "Club OTB", **OTB)
    cheat = person(accounts, "cheat")
    enter(service, accounts, tid, cheat)
    service.add_player(tid, PlayerInfo("Guest"))
    accounts.adjust(cheat.id, games=30, tournaments=2, reason="imported")
    accounts.flag(cheat.id, "engine moves", service=service, actor="admin")
    service.draw_lots(tid, LotsMethod.RATING)
    with pytest.raises(RuleError) as refused:
        service.start(tid)
    assert "player 1 cheat: flagged for computer help" in str(refused.value)
    russian = error_text(refused.value, "ru")
    assert "игрок 1 cheat: отмечен(а) за помощь компьютера" in russian
    assert not ENGLISH.search(russian), russian


def test_a_sole_organiser_who_plays_keeps_the_start_back_in_both_languages(
    service: Service,
) -> None:
    accounts = accounts_of(service)
    owner = person(accounts, "owner", is_master=True)
    helper = person(accounts, "second", is_master=True)
    tid = open_tournament(service, accounts, owner)
    accounts.set_staff(tid, helper.id, "organiser")
    enter(service, accounts, tid, owner)
    for name in ("Boris", "Clara"):
        service.add_player(tid, PlayerInfo(name))
    with service.store.transaction() as session:  # a state made behind the service's back
        session.delete(session.get(StaffRow, (tid, helper.id)))
    service.draw_lots(tid, LotsMethod.RATING)
    with pytest.raises(RuleError) as refused:
        service.start(tid)
    assert str(refused.value) == (
        "the tournament cannot start: organisers: a sole organiser may not play in their own "
        "tournament (owner plays)"
    )
    assert error_text(refused.value, "ru") == (
        "турнир нельзя начать: организаторы: единственный организатор не может играть в своём "
        "турнире (owner играет)"
    )


def test_the_organisers_rule_is_worded_for_one_or_several(service: Service) -> None:
    accounts = accounts_of(service)
    owner, second, third = (person(accounts, n, is_master=True) for n in ("owner", "bo", "cy"))
    tid = open_tournament(service, accounts, owner)
    accounts.set_staff(tid, second.id, "organiser")
    enter(service, accounts, tid, owner)
    several = "organisers: with several organisers, at least one of them does not play"
    assert accounts.registration_problems(tid, second) == [several + " (owner already plays)"]
    with pytest.raises(RuleError) as refused:  # the one left would organise alone and play
        accounts.set_staff(tid, second.id, None)
    assert str(refused.value) == (
        "organisers: a sole organiser may not play in their own tournament (owner would "
        "organise alone and plays)"
    )
    assert "owner остался бы единственным организатором и играет" in error_text(refused.value, "ru")
    accounts.set_staff(tid, third.id, "organiser")
    enter(service, accounts, tid, third)  # second does not play: allowed
    assert accounts.registration_problems(tid, second) == [several + " (owner, cy already play)"]


def test_the_master_status_reads_in_russian(service: Service) -> None:
    accounts = accounts_of(service)
    anna = person(accounts, "anna")
    assert translate(accounts.master(anna.id).text(), "ru") == "не мастер"
    status = accounts.set_master(anna.id, True, reason="old champion", actor="admin")
    assert translate(status.text(), "ru") == "мастер: статус присвоен (admin)"
    status = accounts.set_master(anna.id, False, reason="left", actor="admin")
    assert status.text() == "not a master (revoked by admin)"
    assert translate(status.text(), "ru") == "не мастер (статус снят: admin)"


# -- an over-the-board group stage + knockout ----------------------------------------------


def test_an_over_the_board_group_stage_is_one_event_and_only_its_winner_is_a_master(
    service: Service,
) -> None:
    accounts = accounts_of(service)
    event = uuid.uuid4().hex[:12]
    ids: list[int] = []
    by_name: dict[str, Any] = {}
    for index, letter in enumerate("AB"):
        details = group_details(event, "OTB cup", letter, 2, 1)
        details |= {"finish": "confirm", **OTB}
        regulations = Regulations(name=f"OTB cup — group {letter}", details=details)
        tid = service.create_tournament(regulations).tournament_id
        for n in range(6):
            name = f"{letter}-{n + 1}"
            info = PlayerInfo(name, rating=2500 - 7 * (index + 2 * n))
            number = int(service.add_player(tid, info).data["number"])
            by_name[name] = person(accounts, name.lower().replace("-", ""))
            accounts.link_entry(tid, number, by_name[name].id)
        service.draw_lots(tid, LotsMethod.RATING)
        ids.append(tid)
    for name in [*(f"A-{n}" for n in range(1, 7)), "B-1", "B-2", "B-3"]:
        accounts.adjust(by_name[name].id, games=20, tournaments=1, reason="imported")
    # the event's players are counted over its groups (9 eligible of 12), not group by group
    with pytest.raises(RuleError) as refused:
        service.start(ids[0])
    said = str(refused.value)
    assert "an over-the-board event needs at least 10 eligible registered players" in said
    assert "it has 9 — not eligible: OTB cup — group B: player 4 B-4: at least 20 games" in said
    accounts.adjust(by_name["B-4"].id, games=20, tournaments=1, reason="imported")
    for tid in ids:
        service.start(tid)  # 6 players each, 10 eligible in the event
    finish_all(service, ids)  # the strongest wins each group: A-1 and B-1
    assert not accounts.master(by_name["A-1"].id).is_master  # a group's winner goes on
    knockout = service.create_knockout_stage(ids[0]).tournament_id
    for player in service.overview(knockout).players:
        accounts.link_entry(knockout, player.number, by_name[player.name].id)
    service.start(knockout)  # its two qualifiers: the groups' players were counted
    (final,) = service.overview(knockout).games
    service.record_result(knockout, final.round, final.board, "1-0")
    if service.overview(knockout).status != "finished":
        service.finish(knockout)
    champion = next(p for p in service.overview(knockout).players if p.place == 1)
    status = accounts.master(by_name[champion.name].id)
    assert (status.is_master, status.won) == (True, ("OTB cup — knockout",))
    other = "B-1" if champion.name == "A-1" else "A-1"
    assert not accounts.master(by_name[other].id).is_master


# -- an over-the-board event of quads ------------------------------------------------------


def test_the_quads_of_an_over_the_board_event_are_one_event_won_in_the_first_quad(
    service: Service,
) -> None:
    """Quads (R-RR-17) of one over-the-board event are counted together for the ten
    eligible (each quad of four could never have ten), and the event is won in its
    strongest quad: quad 1's winner becomes a master, another quad's does not."""
    accounts = accounts_of(service)
    event = uuid.uuid4().hex[:12]
    ids: list[int] = []
    by_name: dict[str, Any] = {}
    for quad in (1, 2, 3):
        details = quads_details(event, quad) | {"finish": "confirm", **OTB}
        regulations = Regulations(name=f"OTB quads — quad {quad}", details=details)
        tid = service.create_tournament(regulations).tournament_id
        for n in range(4):
            name = f"Q{quad}-{n + 1}"
            info = PlayerInfo(name, rating=2400 - 100 * quad - 10 * n)
            number = int(service.add_player(tid, info).data["number"])
            by_name[name] = person(accounts, name.lower().replace("-", ""))
            accounts.link_entry(tid, number, by_name[name].id)
        service.draw_lots(tid, LotsMethod.RATING)
        ids.append(tid)
    eligible = [f"Q{q}-{n}" for q in (1, 2) for n in range(1, 5)] + ["Q3-1"]
    for name in eligible:
        accounts.adjust(by_name[name].id, games=20, tournaments=1, reason="imported")
    with pytest.raises(RuleError) as refused:
        service.start(ids[2])
    said = str(refused.value)
    assert "it has 9 — not eligible: OTB quads — quad 3: player 2 Q3-2" in said
    accounts.adjust(by_name["Q3-2"].id, games=20, tournaments=1, reason="imported")
    for tid in ids:
        service.start(tid)  # 4 players each, 10 eligible in the event
    finish_all(service, ids)  # the strongest wins each quad: Q1-1, Q2-1, Q3-1
    status = accounts.master(by_name["Q1-1"].id)
    assert (status.is_master, status.won) == (True, ("OTB quads — quad 1",))
    assert not accounts.master(by_name["Q2-1"].id).is_master
    assert not accounts.master(by_name["Q3-1"].id).is_master
    # a quad that is not of an event is an event of its own: four players are too few
    alone = service.create_tournament(Regulations(name="Lone quad", details=dict(OTB)))
    for n in range(4):
        service.add_player(alone.tournament_id, PlayerInfo(f"L{n}", rating=2000 - n))
    service.draw_lots(alone.tournament_id, LotsMethod.RATING)
    with pytest.raises(RuleError, match="it has 0"):
        service.start(alone.tournament_id)


# -- the kind of event is fixed once started ---------------------------------------------


def test_the_kind_of_event_cannot_change_after_the_start(service: Service) -> None:
    tid = service.create_tournament(Regulations(name="Online")).tournament_id
    for name in ("Anna", "Boris", "Clara"):
        service.add_player(tid, PlayerInfo(name))
    service.edit_regulations(tid, detail_changes={"venue_kind": "otb"})  # before: free
    service.edit_regulations(tid, detail_changes={"venue_kind": "online"})
    start(service, tid)
    fixed = "the kind of event (online or over the board) cannot change after the start"
    for change in ({"detail_changes": {"venue_kind": "otb"}}, {"details": {"venue_kind": "otb"}}):
        with pytest.raises(RuleError, match=re.escape(fixed)):
            service.edit_regulations(tid, override_reason="the club asked", **change)
    assert service.overview(tid).settings["regulations"].get("venue_kind", "online") == "online"
    service.edit_regulations(tid, detail_changes={"ties": "lots"}, override_reason="asked")
    with pytest.raises(RuleError) as refused:
        service.edit_regulations(tid, detail_changes={"venue_kind": "otb"})
    assert "вид турнира (онлайн или очный) нельзя изменить после начала" in error_text(
        refused.value, "ru"
    )


# -- the command line --------------------------------------------------------------------


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_the_account_commands_show_the_counts_apart_and_record_the_acts(
    db_url: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CROSSTABLE_ACTOR", "arbiter")
    store = open_store(db_url)
    try:
        accounts = Accounts(store)
        anna = accounts.create_user("anna", "password-anna")
    finally:
        store.close()
    code, out, err = run(capsys, "account", "show", "anna", "--db", db_url)
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        "@anna",
        "games played: 0",
        "finished online tournaments: 0",
        "not a master",
    ]
    code, out, err = run(
        capsys, "account", "adjust", "@anna", "--games", "5", "--reason", "old site",
        "--db", db_url,
    )  # fmt: skip
    assert code == 0 and "games played: 5 = 0 on the site + 5 adjusted" in out, err
    code, out, _ = run(capsys, "account", "show", "anna", "--format", "json", "--db", db_url)
    data = json.loads(out)
    assert data["games"] == {"total": 5, "on_site": 0, "adjusted": 5}
    assert data["online_tournaments"]["total"] == 0 and data["master"]["is_master"] is False
    code, out, _ = run(
        capsys, "account", "master", "anna", "--grant", "--reason", "won in 2019",
        "--by", "ann", "--db", db_url,
    )  # fmt: skip
    assert code == 0 and "master: granted by ann" in out
    store = open_store(db_url)
    try:
        history = Accounts(store).account_history(anna.id)
    finally:
        store.close()
    assert [(e.kind, e.actor, e.data["reason"]) for e in history] == [
        ("adjust", "arbiter", "old site"),
        ("master-grant", "ann", "won in 2019"),
    ]
    for args, words in (
        (("account", "show", "nobody"), "there is no account 'nobody'"),
        (("account", "adjust", "anna", "--reason", "x"), "give --games or --tournaments"),
        (("account", "adjust", "anna", "--games", "99999", "--reason", "x"), "between"),
        (("account", "adjust", "anna", "--games", "1", "--reason", ""), "reason"),
        (("account", "master", "anna"), "say --grant or --revoke"),
        (("account", "show", "anna", "--format", "xml"), "use table or json"),
    ):
        code, out, err = run(capsys, *args, "--db", db_url)
        assert code == 2 and words in err and "Traceback" not in err, (args, err)


def test_organisers_and_links_from_the_command_line(
    db_url: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CROSSTABLE_ACTOR", "arbiter")
    store = open_store(db_url)
    try:
        accounts = Accounts(store)
        accounts.create_user("boris", "password-boris", is_master=True)
        accounts.create_user("clara", "password-clara", is_master=True)
        accounts.create_user("dmitri", "password-dmitri")
    finally:
        store.close()
    code, _, err = run(capsys, "new", "Club OTB", "--venue-kind", "otb", "--db", db_url)
    assert (code, err) == (0, "")
    for name in ("Boris", "Clara", "Dmitri"):
        assert run(capsys, "player", "add", name, "--db", db_url)[0] == 0
    code, out, err = run(capsys, "organisers", "--add", "boris", "--db", db_url)
    assert (code, out) == (0, "@boris: organiser\n"), err
    code, _, err = run(capsys, "account", "link", "boris", "1", "--db", db_url)
    assert code == 2 and "a sole organiser may not play in their own tournament" in err
    code, _, err = run(capsys, "organisers", "--add", "dmitri", "--db", db_url)
    assert code == 2 and "dmitri cannot organise: an organiser is an administrator or a master" in (
        err
    )
    assert run(capsys, "organisers", "--helper", "dmitri", "--add", "clara", "--db", db_url)[0] == 0
    code, out, err = run(capsys, "account", "link", "boris", "1", "--db", db_url)
    assert code == 0 and "entry 1 is @boris's" in out, err
    code, out, _ = run(capsys, "organisers", "--format", "json", "--db", db_url)
    assert json.loads(out)["staff"] == [
        {"username": "boris", "role": "organiser", "plays": True},
        {"username": "clara", "role": "organiser", "plays": False},
        {"username": "dmitri", "role": "helper", "plays": False},
    ]
    code, _, err = run(capsys, "account", "link", "clara", "2", "--db", db_url)
    assert code == 2 and "at least one of them does not play (boris already plays)" in err
    code, _, err = run(capsys, "account", "link", "dmitri", "9", "--db", db_url)
    assert code == 2 and "has no entry 9" in err
    code, out, _ = run(capsys, "organisers", "--remove", "dmitri", "--db", db_url)
    assert (code, out) == (0, "@boris: organiser (plays)\n@clara: organiser\n")
    # the over-the-board event does not start: one account, no ten eligible players
    assert run(capsys, "draw", "--by", "rating", "--db", db_url)[0] == 0
    code, _, err = run(capsys, "start", "--db", db_url)
    assert code == 2 and "an over-the-board event needs at least 10 eligible" in err
    assert "player 1 Boris: at least 20 games played are required (has 0)" in err


def test_crosstable_new_takes_the_kind_of_event_and_the_forfeits_setting(
    db_url: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CROSSTABLE_ACTOR", "arbiter")
    args = ("new", "Club", "--venue-kind", "OTB", "--forfeits-in-tiebreaks", "no")
    assert run(capsys, *args, "--db", db_url)[0] == 0
    code, out, _ = run(capsys, "export", "--to", "json", "--db", db_url)
    regulations = json.loads(out)["tournament"]["regulations"]
    assert (regulations["venue_kind"], regulations["forfeits_in_tiebreaks"]) == ("otb", "no")
    assert run(capsys, "new", "Plain", "--db", db_url)[0] == 0
    code, out, _ = run(capsys, "export", "--to", "json", "--db", db_url)
    regulations = json.loads(out)["tournament"]["regulations"]
    assert "venue_kind" not in regulations and "forfeits_in_tiebreaks" not in regulations
    for option, value, words in (
        ("--venue-kind", "hybrid", "venue kind is online or otb"),
        ("--forfeits-in-tiebreaks", "maybe", "forfeits in tie-breaks is yes or no"),
    ):
        code, _, err = run(capsys, "new", "Bad", option, value, "--db", db_url)
        assert code == 2 and words in err and "Traceback" not in err, err


# -- the web: wizard, management page, regulations page -----------------------------------


def _csrf(page: str) -> str:
    found = re.search(r'name="csrf_token" value="([^"]+)"', page) or re.search(
        r'name="csrf-token" content="([^"]+)"', page
    )
    assert found is not None
    return found.group(1)


@pytest.fixture()
def site(service: Service) -> Iterator[Any]:
    accounts = Accounts(service.store)
    accounts.create_user("admin", "password-admin", is_admin=True)
    with TestClient(create_app(service=service)) as client:
        token = _csrf(client.get("/signin").text)
        client.post(
            "/signin",
            data={"username": "admin", "password": "password-admin", "csrf_token": token},
        )
        yield client, service, accounts


def test_the_wizard_chooses_the_kind_of_event_ties_and_forfeits(site: Any) -> None:
    client, svc, _accounts = site
    page = client.get("/new").text
    for name in ("venue_kind", "ties", "forfeits_in_tiebreaks"):
        assert f'name="{name}"' in page
    form = {
        "csrf_token": _csrf(page),
        "name": "Club OTB",
        "format": "round-robin",
        "list": "Anna, 1900\nBoris, 1800\nClara, 1700\nDmitri, 1600",
        "tiebreaks": "portal",
        "venue_kind": "otb",
        "ties": "lots",
        "forfeits_in_tiebreaks": "no",
    }
    made = client.post("/new", data=form, follow_redirects=False)
    assert made.status_code == 303, made.text
    (tournament,) = svc.tournaments()
    settings = svc.overview(tournament.id).settings
    assert settings["tiebreaks"] == ["SB", "ARO_RATED"]  # the portal's preset
    assert {k: settings["regulations"][k] for k in ("venue_kind", "ties")} == {
        "venue_kind": "otb",
        "ties": "lots",
    }
    assert settings["regulations"]["forfeits_in_tiebreaks"] == "no"
    bad = client.post("/new", data=form | {"venue_kind": "moon"}, follow_redirects=False)
    assert bad.status_code == 422 and "venue kind is online or otb" in bad.text
    assert len(svc.tournaments()) == 1


def test_the_wizard_makes_the_quads_of_one_event(site: Any) -> None:
    client, svc, _accounts = site
    page = client.get("/new").text
    players = "\n".join(f"Player {n}, {2300 - 10 * n}" for n in range(1, 13))
    form = {
        "csrf_token": _csrf(page),
        "name": "Club quads",
        "format": "quads",
        "list": players,
        "venue_kind": "otb",
    }
    made = client.post("/new", data=form, follow_redirects=False)
    assert made.status_code == 303, made.text
    details = [svc.overview(t.id).settings["regulations"] for t in svc.tournaments()]
    assert len(details) == 3 and len({d["quads_event"] for d in details}) == 1
    assert sorted(d["quad"] for d in details) == ["1", "2", "3"]
    first = next(t for t in svc.tournaments() if t.name.endswith("quad 1"))
    strongest = {p.name for p in svc.overview(first.id).players}
    assert strongest == {"Player 1", "Player 2", "Player 3", "Player 4"}


def test_the_manage_page_sets_the_kind_of_event_until_the_start(site: Any) -> None:
    client, svc, _accounts = site
    tid = svc.create_tournament(Regulations(name="Club", details={"venue": "Yerevan"}))
    tid = tid.tournament_id
    page = client.get(f"/t/{tid}/manage").text
    assert 'name="detail_venue_kind"' in page
    form = {"csrf_token": _csrf(page), "detail_venue_kind": "otb"}
    saved = client.post(f"/t/{tid}/manage/regulations", data=form, follow_redirects=False)
    assert saved.status_code in (200, 303), saved.text
    assert svc.overview(tid).settings["regulations"] == {"venue": "Yerevan", "venue_kind": "otb"}
    page = client.get(f"/t/{tid}/manage").text
    assert '<option value="otb" selected>' in page


def test_the_regulations_page_says_who_may_enter_and_the_over_the_board_rules(
    site: Any,
) -> None:
    client, svc, accounts = site
    otb = svc.create_tournament(Regulations(name="Club OTB", details=OTB)).tournament_id
    online = svc.create_tournament(Regulations(name="Online")).tournament_id
    accounts.set_access(online, eligibility={"min_rated_games": 5})
    page = client.get(f"/t/{otb}/regulations").text
    assert "at least 20 games played on the site" in page
    assert "at least 1 finished online tournament(s) on the site" in page
    rules = re.search(r'id="otb-rules">(.*?)</dd>', page, re.S)
    assert rules and "at least 10 registered players" in rules.group(1)
    assert "the winner becomes a master" in rules.group(1)
    page = client.get(f"/t/{online}/regulations").text
    assert "at least 5 games played on the site" in page and 'id="otb-rules"' not in page
    assert "finished online tournament(s)" not in page
    russian = client.get(f"/t/{otb}/regulations", headers={"Accept-Language": "ru"}).text
    assert "не меньше 20 партий, сыгранных на сайте" in russian
    rules = re.search(r'id="otb-rules">(.*?)</dd>', russian, re.S)
    assert rules and "не меньше 10 игроков с допуском" in rules.group(1)


# -- item 5: the portal's preset and the Buchholz warning on every surface that chooses ----


def test_the_manage_page_warns_when_buchholz_is_chosen_for_a_round_robin(site: Any) -> None:
    client, svc, _accounts = site
    # (outside FIDE mode: in it the picker does not offer them, tests/test_fide_q105_web.py)
    club = Regulations(name="Club", details={"fide_mode": "off"})
    tid = svc.create_tournament(club).tournament_id
    form = {"csrf_token": _csrf(client.get(f"/t/{tid}/manage").text), "tiebreaks": "BH,SB"}
    asked = client.post(f"/t/{tid}/manage/regulations", data=form)
    assert asked.status_code == 409 and "Confirmation needed (level 3)" in asked.text
    assert "Buchholz (BH) is not for a round robin" in asked.text  # FIDE's level 3
    token = re.search(r'name="confirm" value="([0-9a-f]+)"', asked.text)
    assert token is not None
    form |= {"csrf_token": _csrf(asked.text), "confirm": token.group(1)}
    page = client.post(f"/t/{tid}/manage/regulations", data=form).text
    assert svc.overview(tid).settings["tiebreaks"] == ["BH", "SB"]  # confirmed, not refused
    form = {"csrf_token": _csrf(page), "tiebreaks": "BH/C1,SB"}
    russian = client.post(
        f"/t/{tid}/manage/regulations", data=form, headers={"Accept-Language": "ru"}
    ).text
    assert "Бухгольц (BH/C1)" in russian
    form = {"csrf_token": _csrf(page), "tiebreaks": "portal"}
    page = client.post(f"/t/{tid}/manage/regulations", data=form).text
    assert svc.overview(tid).settings["tiebreaks"] == ["SB", "ARO_RATED"]
    assert "is not for a round robin" not in page


def test_the_portal_preset_from_the_api_and_the_command_line(
    site: Any, db_url: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    client, svc, accounts = site
    admin = accounts.find_user("admin")
    assert admin is not None
    auth = {"Authorization": f"Bearer {accounts.create_token(admin.id, 'script')}"}
    made = client.post(
        "/api/v1/tournaments", json={"name": "Portal", "tiebreaks": "portal"}, headers=auth
    )
    assert made.status_code == 201, made.text
    assert svc.overview(made.json()["id"]).settings["tiebreaks"] == ["SB", "ARO_RATED"]
    assert made.json()["warnings"] == []
    monkeypatch.setenv("CROSSTABLE_ACTOR", "arbiter")
    code, _out, err = run(capsys, "new", "Portal 2", "--preset", "portal", "--db", db_url)
    assert (code, err) == (0, "")
    latest = max(t.id for t in svc.tournaments())
    assert svc.overview(latest).settings["tiebreaks"] == ["SB", "ARO_RATED"]


def test_the_regulations_page_publishes_the_defaults_too(site: Any) -> None:
    client, svc, _accounts = site
    plain = svc.create_tournament(Regulations(name="Club")).tournament_id
    page = client.get(f"/t/{plain}/regulations").text
    items = dict(re.findall(r"<dt>([^<]+)</dt><dd>([^<]*)</dd>", page))
    assert items["Forfeits in tie-breaks"].startswith("counted as games")
    assert items["Players equal after the tie-breaks"] == "they share the place"
    assert items["Kind of event"] == "online"
    knockout = Regulations(name="Cup", system=System.KNOCKOUT)
    cup = svc.create_tournament(knockout).tournament_id
    page = client.get(f"/t/{cup}/regulations").text
    assert "Forfeits in tie-breaks" not in page and "Players equal after" not in page
    assert "Kind of event" in page
    russian = client.get(f"/t/{plain}/regulations", headers={"Accept-Language": "ru"}).text
    assert "<dt>Неявки в дополнительных показателях</dt>" in russian


def test_the_api_says_which_organisers_play_from_the_entries_there_are(site: Any) -> None:
    client, svc, accounts = site
    boris = accounts.create_user("boris", "password-boris", is_master=True)
    clara = accounts.create_user("clara", "password-clara", is_master=True)
    tid = svc.create_tournament(Regulations(name="Club")).tournament_id
    accounts.set_staff(tid, boris.id, "organiser")
    accounts.set_staff(tid, clara.id, "organiser")
    number = int(svc.add_player(tid, PlayerInfo("Boris")).data["number"])
    accounts.link_entry(tid, number, boris.id)

    def plays() -> dict[str, bool]:
        staff = client.get(f"/api/v1/tournaments/{tid}/organisers").json()["staff"]
        return {member["username"]: member["plays"] for member in staff}

    assert plays() == {"boris": True, "clara": False}
    svc.remove_player(tid, number)  # the link stays behind; the entry is gone
    assert plays() == {"boris": False, "clara": False}
    # and so clara may now play: boris, who no longer plays, stays off the board
    assert accounts.registration_problems(tid, clara) == [
        "the organiser has not opened self-registration"
    ]
