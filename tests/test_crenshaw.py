"""US Chess's Crenshaw-Berger tables as a third round-robin schedule: the tables against
every published fact (tests/data/crenshaw_facts.txt, each with its source), the rule
they follow (Berger's rounds reversed from 7 players, the quad table for 3-4), 5-6
players refused on every surface, and a tournament run on them end to end (service on
SQLite and PostgreSQL, command line new/start/export/check/import and `schedule
crenshaw`, the wizard and the JSON API)."""
# ruff: noqa: F811 - pytest fixtures imported from test_service_support and test_web_swiss

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_service_support import db_url, make_service, migrated, service, store  # noqa: F401
from test_web_swiss import Site, site  # noqa: F401

from crosstable.cli import main
from crosstable.core.checker import Declared, check_event
from crosstable.core.errors import RuleError, ScheduleError
from crosstable.core.model import (
    Game,
    GameResult,
    LotsMethod,
    Player,
    Round,
    Settings,
    Tournament,
)
from crosstable.core.schedule import berger_table, crenshaw_schedule, verify_schedule
from crosstable.core.schedule.crenshaw import crenshaw_table
from crosstable.core.schedule.kinds import ScheduleKind, round_robin_table, schedule_kind
from crosstable.core.schedule.types import Schedule
from crosstable.service import PlayerInfo, Regulations, Service
from crosstable.store import open_store

FACTS = Path(__file__).parent / "data" / "crenshaw_facts.txt"


def facts() -> list[tuple[str, str, str]]:
    """(kind, head, body) of each fact line; every line names its source."""
    out = []
    for line in FACTS.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        fact, _, source = line.partition(" | ")
        assert "." in source and "/" in source, f"{line!r} names no source"
        head, _, body = fact.partition(":")
        kind, _, head = head.partition(" ")
        out.append((kind, head.strip(), body.strip()))
    return out


def pairs(text: str) -> list[tuple[int, int]]:
    return [(int(w), int(b)) for w, b in (game.split("-") for game in text.split())]


def fields(size: int) -> list[int]:
    """The fields that play the table of ``size``: that size and the odd one below."""
    return [size, size - 1] if size - 1 >= 3 else [size]


def seen(table: Schedule, size: int, number: int) -> list[tuple[int, int]]:
    """Round ``number``'s games as the table of ``size`` writes them (a free round as a
    game against the ghost ``size``, White as the even table gives it)."""
    rnd = table.rounds[number - 1]
    games = list(rnd.boards)
    if rnd.bye is not None:
        full = crenshaw_table(size).rounds[number - 1].boards
        games += [g for g in full if rnd.bye in g and size in g]
    return games


def test_r_x_14_our_tables_agree_with_every_published_fact() -> None:
    checked = 0
    for kind, head, body in facts():
        numbers = [int(part) for part in head.split()]
        size = numbers[0]
        if kind in ("round", "first", "game"):
            number = numbers[1]
            for players in fields(size):
                games = seen(crenshaw_table(players), size, number)
                if kind == "round":
                    assert sorted(games) == sorted(pairs(body)), (players, number)
                    if players == size:  # the boards in the published order
                        assert list(crenshaw_table(size).rounds[number - 1].boards) == pairs(body)
                elif kind == "first":
                    assert crenshaw_table(size).rounds[number - 1].boards[0] == pairs(body)[0]
                    assert pairs(body)[0] in games
                else:
                    assert pairs(body)[0] in games, (players, number)
        elif kind == "whites":
            player = numbers[1]
            table = crenshaw_table(size)
            whites = sorted(b for r in table.rounds for w, b in r.boards if w == player)
            assert whites == sorted(int(x) for x in body.split()), player
        elif kind == "lot-flip":
            table = crenshaw_table(size)
            for claim in body.split():
                player, colours = claim.split("=")
                got = ""
                for index, rnd in enumerate(table.rounds):
                    for white, black in rnd.boards:
                        if int(player) in (white, black):
                            is_white = (white == int(player)) != (index == 0)  # round 1 flipped
                            got += "W" if is_white else "B"
                assert got == colours, claim
        else:
            raise AssertionError(f"unknown fact {kind!r}")
        checked += 1
    assert checked == 17


@given(st.integers(7, 60))
def test_r_x_14_from_seven_players_berger_rounds_reversed(players: int) -> None:
    berger = berger_table(players).rounds
    ours = crenshaw_table(players).rounds
    assert [(r.boards, r.bye) for r in ours] == [(r.boards, r.bye) for r in reversed(berger)]
    assert [r.number for r in ours] == list(range(1, len(berger) + 1))


@settings(max_examples=80, deadline=None)
@given(st.sampled_from([3, 4, *range(7, 31)]), st.integers(1, 3), st.booleans())
def test_r_x_14_every_table_is_a_sound_schedule(players: int, cycles: int, swap: bool) -> None:
    """Every pair once a cycle, the free round right; a double round robin with the
    exchange (the first two rounds of cycle 2) has nobody on one colour three times
    running, as FIDE's double Berger schedule has nobody."""
    table = round_robin_table(ScheduleKind.CRENSHAW, players, cycles, swap_last_rounds=swap)
    assert table == crenshaw_schedule(players, cycles, swap_last_rounds=swap)
    report = verify_schedule(table)
    assert [p for p in report.problems if p.kind != "colour-run"] == []
    if cycles == 1 or (cycles == 2 and swap):
        assert report.ok, report.problems


def test_r_x_14_a_double_round_robin_never_gives_one_colour_three_times_running() -> None:
    """With the exchange of cycle 2's first two rounds, for every field 3-4 and 7-30;
    without it the junction gives three in a row from 8 players (as Berger's does)."""
    for players in [3, 4, *range(7, 31)]:
        assert verify_schedule(crenshaw_schedule(players, 2)).ok, players
    plain = verify_schedule(crenshaw_schedule(8, 2, swap_last_rounds=False))
    assert any(p.kind == "colour-run" for p in plain.problems)


@pytest.mark.parametrize("players", [5, 6])
def test_r_x_14_five_or_six_players_are_refused(players: int) -> None:
    with pytest.raises(RuleError, match=f"table for {players} players is not published"):
        round_robin_table(ScheduleKind.CRENSHAW, players)
    with pytest.raises(ScheduleError, match="published for 3-4 and for 7 or more"):
        crenshaw_table(players)
    with pytest.raises(RuleError, match="need at least 3 players"):
        round_robin_table(ScheduleKind.CRENSHAW, 2)
    assert schedule_kind({"schedule": " Crenshaw"}) is ScheduleKind.CRENSHAW


# ---------------------------------------------------------------- the service


def _crenshaw(service: Service, players: int, cycles: int = 1) -> int:
    regulations = Regulations(name="US club", cycles=cycles, details={"schedule": "crenshaw"})
    tid = service.create_tournament(regulations).tournament_id
    for index in range(players):
        service.add_player(tid, PlayerInfo(f"P{index + 1}", rating=2400 - 10 * index))
    service.draw_lots(tid, LotsMethod.RATING)
    return tid


def _rounds(tournament: Tournament) -> list[object]:
    return [
        (tuple((g.white, g.black) for g in r.games), next((b.player for b in r.byes), None))
        for r in tournament.rounds
    ]


def _table(players: int, cycles: int = 1) -> list[object]:
    table = round_robin_table(ScheduleKind.CRENSHAW, players, cycles)
    return [(r.boards, r.bye) for r in table.rounds]


def test_r_x_14_a_tournament_runs_on_the_crenshaw_tables(service: Service) -> None:
    quad = _crenshaw(service, 3, cycles=2)
    service.start(quad)
    assert _rounds(service.tournament(quad)) == _table(3, 2)
    seven = _crenshaw(service, 7)
    service.start(seven)
    assert _rounds(service.tournament(seven)) == _table(7)
    six = _crenshaw(service, 6)
    revision = service.revision(six)
    with pytest.raises(RuleError, match="choose the FIDE Berger tables or the circle method"):
        service.start(six)
    assert service.revision(six) == revision and service.tournament(six).rounds == ()
    with pytest.raises(RuleError, match="fixed at the start"):
        service.edit_regulations(seven, details={"schedule": "berger"})


# ---------------------------------------------------------------- the command line


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_r_x_14_cli_schedule_new_start_export_check_import(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _err = run(capsys, "schedule", "crenshaw", "8", "--format", "json")
    assert code == 0 and json.loads(out) == crenshaw_schedule(8).to_json()
    code, out, err = run(capsys, "schedule", "crenshaw", "6", "--format", "json")
    assert code == 2 and out == "" and "6 players is not published" in err
    db = str(tmp_path / "club.db")
    assert run(capsys, "new", "US", "--schedule", "crenshaw", "--db", db)[0] == 0
    for index in range(6):
        assert run(capsys, "player", "add", f"P{index + 1}", "--db", db)[0] == 0
    assert run(capsys, "draw", "--by", "rating", "--db", db)[0] == 0
    code, _out, err = run(capsys, "start", "--db", db)
    assert code == 2 and "choose the FIDE Berger tables or the circle method" in err
    assert run(capsys, "player", "add", "P7", "--db", db)[0] == 0
    assert run(capsys, "draw", "--by", "rating", "--db", db)[0] == 0
    assert run(capsys, "start", "--db", db)[0] == 0
    for board in (1, 2, 3):
        assert run(capsys, "result", "1", str(board), "1-0", "--db", db)[0] == 0
    trf = tmp_path / "us.trf"
    assert run(capsys, "export", "--to", "trf16", "-o", str(trf), "--db", db)[0] == 0
    text = trf.read_text(encoding="utf-8")
    assert "### Schedule: crenshaw" in text.splitlines()
    code, out, _err = run(capsys, "check", str(trf))
    assert code == 0 and "Crenshaw-Berger table for 7 players" in out
    assert "1 of 1 rounds agree" in out
    berger = tmp_path / "berger.trf"
    berger.write_text(text.replace("### Schedule: crenshaw\n", ""), encoding="utf-8")
    assert "0 of 1 rounds agree" in run(capsys, "check", str(berger))[1]
    assert run(capsys, "import", str(trf), "--db", db)[0] == 0
    store = open_store(migrated(f"sqlite:///{db}"))
    try:
        imported = make_service(store)
        newest = max(t.id for t in imported.tournaments())
        assert dict(imported.overview(newest).settings["regulations"])["schedule"] == "crenshaw"
    finally:
        store.close()


def test_r_x_14_the_checker_knows_the_table_and_its_gaps() -> None:
    def played(players: int, table: Schedule) -> Tournament:
        return Tournament(
            Settings(),
            tuple(Player(s, f"P{s}") for s in range(1, players + 1)),
            tuple(
                Round(
                    r.number,
                    tuple(
                        Game(r.number, b, w, bl, GameResult.DRAW())
                        for b, (w, bl) in enumerate(r.boards, 1)
                    ),
                )
                for r in table.rounds
            ),
        )

    ours = played(8, crenshaw_table(8))
    report = check_event(ours, Declared(schedule=ScheduleKind.CRENSHAW))
    assert report.method == "crenshaw" and all(not v.findings for v in report.rounds)
    assert any(v.findings for v in check_event(ours).rounds)  # not Berger's order
    six = check_event(played(6, berger_table(6)), Declared(schedule=ScheduleKind.CRENSHAW))
    assert any("6 players: no Crenshaw-Berger table" in note for note in six.notes)


# ---------------------------------------------------------------- the wizard and the API


def test_r_x_14_wizard_and_api_offer_it_and_refuse_five_or_six(site: Site) -> None:
    assert 'value="crenshaw"' in site.client.get("/new").text
    four = "Anna; 1900\nBoris; 1850\nClara; 1800\nDmitri; 1750"
    tid = site.create(name="Quad", format="round-robin", list=four, schedule="crenshaw")
    assert dict(site.service.overview(tid).settings["regulations"])["schedule"] == "crenshaw"
    shown = site.client.get(f"/t/{tid}/regulations", headers={"Accept-Language": "ru"}).text
    assert "таблицы Креншоу — Бергера" in shown
    site.service.draw_lots(tid, LotsMethod.RATING)
    manage = site.client.get(f"/t/{tid}/manage").text
    assert "Start: make the schedule (Crenshaw-Berger tables)" in manage
    site.post(f"/t/{tid}/manage/start")
    games = [(g.white, g.black) for g in site.service.tournament(tid).rounds[0].games]
    assert games == [(1, 4), (2, 3)]
    before = len(site.service.tournaments())
    refused = site.client.post(
        "/new",
        data={
            "csrf_token": site.csrf,
            "name": "Six",
            "format": "round-robin",
            "list": "A\nB\nC\nD\nE\nF",
            "schedule": "crenshaw",
        },
        headers={"Accept-Language": "hy"},
    )
    assert refused.status_code == 422 and "Կրենշո" in refused.text
    assert len(site.service.tournaments()) == before
    made = site.client.post(
        "/api/v1/tournaments",
        json={"name": "Api US", "format": "double-round-robin", "schedule": "crenshaw"},
        headers=site.auth,
    )
    assert made.status_code == 201, made.text
    api = made.json()["id"]
    assert (
        site.client.get(f"/api/v1/tournaments/{api}").json()["settings"]["regulations"]["schedule"]
        == "crenshaw"
    )
    six = site.client.post(
        "/api/v1/tournaments",
        json={
            "name": "Api six",
            "schedule": "crenshaw",
            "players": [{"name": f"P{i}"} for i in range(6)],
        },
        headers={**site.auth, "Accept-Language": "ru"},
    )
    assert six.status_code == 422 and "Креншоу" in six.text, six.text
