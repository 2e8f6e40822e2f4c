"""Swiss, knockout and Scheveningen in the web app, through HTTP (no browser).

The wizard's player lists (a team column), the previews (⌈log₂ N⌉ rounds; bracket
size, byes, matches) and the regulations it creates (the system and the details
the services read); the Swiss round flow (proposal → publish; a manual pairing
reviewed, refused when it breaks the rules, recorded with its warnings); byes
asked for by players and organisers; the knockout's "continue" and bracket; the
JSON API for all of it.
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from hypothesis import given, settings
from hypothesis import strategies as st
from test_service_support import migrated

from crosstable.core.errors import RuleError
from crosstable.core.model import LotsMethod, System
from crosstable.service import Service
from crosstable.service.accounts import Accounts
from crosstable.store import open_store
from crosstable.web.app import create_app
from crosstable.web.routes import actions, wizard
from tests.asgi_client import TestClient

NINE = [(f"Player {chr(65 + i)}", 2100 - 37 * i) for i in range(9)]


class Site:
    def __init__(self, tmp: Path) -> None:
        self.service = Service(
            open_store(migrated(f"sqlite:///{tmp / 'swiss.db'}")), random=random.Random(5)
        )
        self.accounts = Accounts(self.service.store)
        self.app = create_app(service=self.service)
        self.admin = self.accounts.create_user("arbiter", "password-arbiter", is_admin=True)
        self.token = self.accounts.create_token(self.admin.id, "test")
        self.client = TestClient(self.app)
        self.csrf = _csrf(self.client.get("/signin").text)
        answer = self.client.post(
            "/signin",
            data={"username": "arbiter", "password": "password-arbiter", "csrf_token": self.csrf},
            follow_redirects=False,
        )
        assert answer.status_code == 303
        self.csrf = _csrf(self.client.get("/").text)

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    def post(self, path: str, **data: Any) -> Any:
        return self.client.post(path, data={"csrf_token": self.csrf, **data})

    def create(self, **form: Any) -> int:
        answer = self.client.post(
            "/new", data={"csrf_token": self.csrf, **form}, follow_redirects=False
        )
        assert answer.status_code == 303, answer.text
        return int(answer.headers["location"].split("/")[2])

    def swiss(self, players: list[tuple[str, int]] = NINE, rounds: int = 5) -> int:
        tid = self.create(
            name="Swiss",
            format="swiss",
            list="\n".join(f"{n}; {r}" for n, r in players),
            rounds=str(rounds),
            initial_colour="white",
        )
        self.service.draw_lots(tid, LotsMethod.RATING)
        answer = self.post(f"/t/{tid}/manage/start")
        assert answer.status_code == 200 and f"/t/{tid}/pairing" in str(answer.url)
        return tid


def _csrf(html: str) -> str:
    match = re.search(r'name="csrf-token" content="([^"]+)"', html)
    assert match
    return match.group(1)


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


@pytest.fixture()
def site(tmp_path: Path) -> Iterator[Site]:
    world = Site(tmp_path)
    with world.client:
        yield world


# -- the wizard: players, preview, regulations ------------------------------------------


def test_pasted_list_and_csv_carry_the_team() -> None:
    pasted = actions.parse_player_list("Anna; 1850; WFM; RUS; Dynamo\nBoris; 1720;;; Spartak")
    assert [(p.name, p.rating, p.title, p.federation, p.team) for p in pasted] == [
        ("Anna", 1850, "WFM", "RUS", "Dynamo"),
        ("Boris", 1720, "", "", "Spartak"),
    ]
    csv = "имя;рейтинг;команда\nАнна;1850;Динамо\nБорис;;Спартак\n".encode()
    assert [(p.name, p.rating, p.team) for p in actions.parse_player_csv(csv)] == [
        ("Анна", 1850, "Динамо"),
        ("Борис", None, "Спартак"),
    ]
    with pytest.raises(RuleError, match="line 2: rating 'x'"):
        actions.parse_player_list("Anna; 1850\nBoris; x; ; ; B")


names = st.text(alphabet=st.characters(whitelist_categories=("L",)), min_size=1, max_size=12).map(
    str.strip
)


@given(
    st.lists(
        st.tuples(names, st.none() | st.integers(100, 3000), st.sampled_from(["", "A", "B"])),
        min_size=1,
        max_size=12,
    )
)
@settings(max_examples=60, deadline=None)
def test_a_pasted_list_reads_back_what_was_written(
    rows: list[tuple[str, int | None, str]],
) -> None:
    text = "\n".join(f"{n}; {'' if r is None else r}; ; ; {t}" for n, r, t in rows)
    parsed = actions.parse_player_list(text)
    assert [(p.name, p.rating, p.team) for p in parsed] == rows


@given(st.integers(3, 300))
@settings(max_examples=60, deadline=None)
def test_swiss_preview_has_the_default_rounds(players: int) -> None:
    shown = wizard.preview({"format": "swiss", "count": str(players)})
    assert shown.problems == []
    assert shown.rounds == math.ceil(math.log2(players)) and shown.default_rounds
    assert shown.boards == players // 2
    assert shown.games == shown.rounds * (players // 2)
    assert shown.byes_per_round == players % 2


@given(st.integers(2, 300), st.sampled_from(["1", "2", "2-at-once"]))
@settings(max_examples=60, deadline=None)
def test_knockout_preview_counts_the_bracket(players: int, match_format: str) -> None:
    shown = wizard.preview(
        {"format": "knockout", "count": str(players), "match_format": match_format}
    )
    assert shown.problems == []
    size = 1 << (players - 1).bit_length()
    assert shown.bracket_size == size and size // 2 < players <= size
    assert len(shown.knockout_byes) == size - players
    assert shown.knockout_byes == list(range(1, size - players + 1))  # the top seeds
    assert shown.matches == players - 1 and shown.rounds == size.bit_length() - 1
    assert shown.games == (players - 1) * int(match_format[0])
    assert len(shown.first_round) == players - size // 2


def test_preview_explains_what_is_wrong() -> None:
    too_many = wizard.preview({"format": "swiss", "count": "6", "rounds": "6"})
    assert any("at most 5" in p for p in too_many.problems)
    teams = wizard.preview({"format": "scheveningen", "list": "A1;;;;A\nA2;;;;A\nB1;;;;B\nNo team"})
    assert any("without a team" in p for p in teams.problems)
    uneven = wizard.preview(
        {"format": "scheveningen", "list": "A1;;;;A\nA2;;;;A\nA3;;;;A\nB1;;;;B"}
    )
    assert any("differ in size: A 3, B 1" in p for p in uneven.problems)
    even = wizard.preview({"format": "scheveningen", "list": "A1;;;;A\nA2;;;;A\nB1;;;;B\nB2;;;;B"})
    assert even.problems == [] and even.teams == [("A", 2), ("B", 2)] and even.rounds == 2
    bad_rule = wizard.preview({"format": "knockout", "count": "8", "tie_rule": "coin"})
    assert any("tie rule 'coin'" in p for p in bad_rule.problems)


def test_the_regulations_carry_the_system_and_its_settings() -> None:
    spec = actions.WizardSpec(name="S", format="swiss", rounds=7, initial_colour="black")
    regs = spec.regulations()
    assert regs.system is System.SWISS_DUTCH and regs.rounds == 7
    assert regs.details["initial_colour"] == "black"
    assert regs.tiebreaks == ("BH/C1", "BH", "SB", "DE", "WIN")  # FIDE's Swiss list
    ko = actions.WizardSpec(name="K", format="knockout", match_format="2", tie_rule="playoff")
    regs = ko.regulations()
    assert regs.system is System.KNOCKOUT and regs.rounds is None
    assert regs.details == {
        "match_format": "2",
        "tie_rule": "rapid:2,blitz:2,armageddon",
        "bracket": "seeded",
    }
    assert actions.WizardSpec(name="R").regulations().system is System.ROUND_ROBIN
    assert actions.WizardSpec(name="R").regulations().tiebreaks == ("DE", "WIN", "SB", "KS")
    scheveningen = actions.WizardSpec(name="T", format="scheveningen").regulations()
    assert scheveningen.system is System.SCHEVENINGEN
    with pytest.raises(RuleError, match="bracket 'sideways'"):
        actions.WizardSpec(name="K", format="knockout", bracket="sideways").regulations()
    with pytest.raises(RuleError, match="initial colour 'red'"):
        actions.WizardSpec(name="S", format="swiss", initial_colour="red").regulations()


def test_wizard_creates_and_starts_a_scheveningen(site: Site) -> None:
    players = "\n".join(f"A{i}; {1900 - i}; ; ; Club A" for i in range(1, 4))
    players += "\n" + "\n".join(f"B{i}; {1800 - i}; ; ; Club B" for i in range(1, 4))
    tid = site.create(name="Match", format="scheveningen", list=players)
    view = site.service.overview(tid)
    assert view.settings["system"] == "scheveningen" and len(view.players) == 6
    manage = site.client.get(f"/t/{tid}/manage").text
    assert "Club A" in manage and 'name="team"' in manage
    site.service.draw_lots(tid, LotsMethod.RATING)
    site.post(f"/t/{tid}/manage/start")
    view = site.service.overview(tid)
    assert view.status == "running" and view.rounds == 3 and len(view.games) == 9
    regulations = site.client.get(f"/t/{tid}/regulations").text
    assert "Scheveningen (two teams)" in regulations


# -- the Swiss round flow ----------------------------------------------------------------


def _publish_form(html: str) -> dict[str, Any]:
    boards = re.findall(r'name="board" value="(\d+-\d+)"', html)
    form: dict[str, Any] = {
        "round": re.search(r'name="round" value="(\d+)"', html).group(1),  # type: ignore[union-attr]
        "key": re.search(r'name="key" value="(\w+)"', html).group(1),  # type: ignore[union-attr]
        "board": boards,
    }
    bye = re.search(r'name="bye" value="(\d+)"', html)
    if bye:
        form["bye"] = bye.group(1)
    if 'name="allow_rematch" value="on"' in html:
        form["allow_rematch"] = "on"
    return form


def _results(site: Site, tid: int, rnd: int) -> None:
    for game in site.service.overview(tid).games:
        if game.round == rnd and game.result is None:
            assert game.white is not None and game.black is not None
            result = "1-0" if game.white < game.black else "0-1"
            site.service.record_result(tid, rnd, game.board, result)


def test_swiss_round_is_proposed_then_published(site: Site) -> None:
    tid = site.swiss()
    page = site.client.get(f"/t/{tid}/pairing").text
    proposal = site.service.propose_round(tid)
    assert "Round 1: the proposed pairing" in page
    assert _publish_form(page)["board"] == [f"{w}-{b}" for w, b in proposal.boards]
    assert site.service.overview(tid).games == ()  # nothing published by looking
    # round 2 cannot be proposed before round 1 is published and played
    done = site.post(f"/t/{tid}/pairing/publish", **_publish_form(page))
    assert done.url.path == f"/t/{tid}/rounds/1"
    assert "round 1 paired" in done.text
    again = site.post(f"/t/{tid}/pairing/publish", **_publish_form(page))  # a second tap
    assert again.url.path == f"/t/{tid}/rounds/1"
    assert len(site.service.overview(tid).games) == 4  # published once
    waiting = site.client.get(f"/t/{tid}/pairing").text  # results missing: adjourned if
    assert "recorded as adjourned when the round is published" in _text(waiting)
    asked = site.post(f"/t/{tid}/pairing/publish", **_publish_form(waiting))  # published now
    assert asked.status_code == 409 and "Confirmation needed (level 2)" in asked.text
    assert "recorded as adjourned" in asked.text and ">Acknowledge<" in asked.text
    assert len(site.service.overview(tid).games) == 4  # nothing changed
    _results(site, tid, 1)
    assert "Pair round 2" in site.client.get(f"/t/{tid}/rounds/1").text
    table = site.client.get(f"/t/{tid}").text
    assert 'class="xt sw"' in table and "Round 1 of 5 paired." in _text(table)
    live = site.client.get(f"/t/{tid}/live").text  # what the event stream pushes
    assert 'class="xt sw"' in live and "Round 1 of 5 paired." in _text(live)


def test_a_manual_pairing_is_reviewed_and_recorded(site: Site) -> None:
    tid = site.swiss()
    proposal = site.service.propose_round(tid)
    edit = site.client.get(f"/t/{tid}/pairing?edit=1").text
    assert 'id="edit-form"' in edit
    form: dict[str, Any] = {"count": str(len(proposal.boards))}
    for index, (white, black) in enumerate(proposal.boards, 1):
        form[f"white_{index}"], form[f"black_{index}"] = str(white), str(black)
    form["bye"] = str(proposal.bye)
    # a player twice: refused with a clear message, and the organiser's choices are kept
    broken = dict(form, black_2=form["white_1"])
    refused = site.post(f"/t/{tid}/pairing/review", **broken)
    assert f"player {form['white_1']} is paired twice" in _text(refused.text)
    assert f'<option value="{form["white_1"]}" selected' in refused.text.split('id="black_2"')[1]
    # unchanged: no warning
    same = site.post(f"/t/{tid}/pairing/review", **form)
    assert "exactly the Dutch system" in same.text and "pairing-warning" not in same.text
    # board 2 with the colours swapped: a warning before publishing, and after
    swapped = dict(form, white_2=form["black_2"], black_2=form["white_2"])
    review = site.post(f"/t/{tid}/pairing/review", **swapped)
    assert 'id="pairing-warning"' in review.text and "colours reversed" in review.text
    to_publish = _publish_form(review.text)
    asked = site.post(f"/t/{tid}/pairing/publish", **to_publish)  # FIDE mode: level 3
    assert asked.status_code == 409 and "differs from the Dutch system" in asked.text
    token = re.search(r'name="confirm" value="([0-9a-f]+)"', asked.text).group(1)  # type: ignore[union-attr]
    published = site.post(f"/t/{tid}/pairing/publish", **to_publish, confirm=token)
    assert "flash warn" in published.text and "manual pairing" in published.text
    games = [g for g in site.service.overview(tid).games if g.round == 1]
    assert (games[1].white, games[1].black) == (int(form["black_2"]), int(form["white_2"]))
    history = site.client.get(f"/t/{tid}/history").text
    assert "manual pairing, differs from the Dutch system" in history


def test_a_rematch_needs_the_organisers_consent(site: Site) -> None:
    tid = site.swiss(NINE[:4], rounds=3)
    site.service.publish_round(tid)
    _results(site, tid, 1)
    first = [(g.white, g.black) for g in site.service.overview(tid).games]
    again = [[b, w] for w, b in first]  # the same pairs again, colours swapped
    url = f"/api/v1/tournaments/{tid}/pairing"
    refused = site.client.post(url, json={"round": 2, "boards": again}, headers=site.auth)
    assert refused.status_code == 422 and "rematch" in refused.json()["detail"]
    review = site.client.post(
        url + "/review", json={"boards": again, "allow_rematch": True}, headers=site.auth
    )
    assert review.status_code == 200 and review.json()["manual"] is True
    wrong = site.client.post(url, json={"round": 3, "boards": None}, headers=site.auth)
    assert wrong.status_code == 409 and "the next round is 2" in wrong.json()["detail"]
    body = {"round": 2, "boards": again, "allow_rematch": True, "idempotency_key": "r2"}
    asked = site.client.post(url, json=body, headers=site.auth)  # FIDE mode: level 3
    assert asked.status_code == 409 and asked.json()["warning"]["code"] == "manual-pairing"
    body["confirm"] = asked.json()["warning"]["confirm"]
    allowed = site.client.post(url, json=body, headers=site.auth)
    assert allowed.status_code == 200, allowed.text
    answer = allowed.json()
    assert answer["manual"] is True and answer["round"] == 2 and answer["boards"] == again
    assert any("met in round 1" in w for w in answer["warnings"])
    repeated = site.client.post(url, json=body, headers=site.auth)  # a retry: the same answer
    assert repeated.status_code == 200 and repeated.json()["replayed"] is True


def test_byes_are_asked_for_by_players_and_organisers(site: Site) -> None:
    tid = site.swiss()
    player = site.accounts.create_user("yana", "password-yana")
    number = next(p.number for p in site.service.overview(tid).players if p.start == 9)
    site.accounts.link_entry(tid, number, player.id)
    token = site.accounts.create_token(player.id, "t")
    own = {"Authorization": f"Bearer {token}"}
    url = f"/api/v1/tournaments/{tid}/byes"
    mine = site.client.post(url, json={"round": 2, "kind": "H"}, headers=own)
    assert mine.status_code == 201, mine.text
    other = site.client.post(url, json={"round": 2, "kind": "H", "start": 3}, headers=own)
    assert other.status_code == 403
    full = site.client.post(url, json={"round": 3, "kind": "F"}, headers=own)
    assert full.status_code == 403 and "organiser" in full.json()["detail"]
    asked = site.client.post(url, json={"round": 3, "kind": "F", "start": 9}, headers=site.auth)
    assert asked.status_code == 409  # FIDE's level-2 notice: acknowledged with its token
    given_by_organiser = site.client.post(
        url,
        json={"round": 3, "kind": "F", "start": 9, "confirm": asked.json()["warning"]["confirm"]},
        headers=site.auth,
    )
    assert given_by_organiser.status_code == 201
    anonymous = TestClient(site.app).post(url, json={"round": 4, "kind": "H"})
    assert anonymous.status_code == 401
    listed = site.client.get(url).json()
    assert [(b["round"], b["start"], b["kind"]) for b in listed] == [(2, 9, "H"), (3, 9, "F")]
    page = site.client.get(f"/t/{tid}/byes").text
    assert "half-point bye" in page and "full-point bye" in page
    # a bye asked for ahead counts from the round it is in, once that round is paired
    rows = site.client.get(f"/api/v1/tournaments/{tid}/standings").json()["rows"]
    assert {row["start"]: row["points"] for row in rows}[9] == 0
    assert 'class="rd"' not in site.client.get(f"/t/{tid}").text
    # round 1 is paired without a thought of round 2's bye; round 2 leaves player 9 out
    site.service.publish_round(tid)
    _results(site, tid, 1)
    proposal = site.client.get(f"/t/{tid}/pairing").text
    assert "half-point bye" in _text(proposal.split('id="pairing-absent"')[1])
    table = site.client.get(f"/t/{tid}").text
    assert table.count('class="rd"') == 1  # round 1 only, not round 2 of the bye
    cancelled = site.client.delete(f"{url}/2/9", headers=own)
    assert cancelled.status_code == 200, cancelled.text
    assert [(b["round"], b["kind"]) for b in site.client.get(url).json()] == [(1, "U"), (3, "F")]
    # the page form: the organiser enters a zero-point bye for player 2 in round 4
    answer = site.post(f"/t/{tid}/byes", start="2", round="4", kind="Z")
    assert answer.url.path == f"/t/{tid}/byes" and "zero-point bye" in answer.text


# -- the knockout ---------------------------------------------------------------------------


def test_knockout_continues_through_the_playoff_to_the_champion(site: Site) -> None:
    body = {
        "name": "Cup",
        "format": "knockout",
        "match_format": "1",
        "tie_rule": "playoff",
        "players": [{"name": f"K{i}", "rating": 2000 - 10 * i} for i in range(1, 7)],
    }
    created = site.client.post("/api/v1/tournaments", json=body, headers=site.auth)
    assert created.status_code == 201, created.text
    tid = created.json()["id"]
    site.client.post(
        f"/api/v1/tournaments/{tid}/lots", json={"method": "rating"}, headers=site.auth
    )
    assert (
        site.client.post(f"/api/v1/tournaments/{tid}/start", headers=site.auth).status_code == 200
    )
    bracket = site.client.get(f"/api/v1/tournaments/{tid}/bracket").json()
    assert bracket["size"] == 8 and [p["start"] for p in bracket["rounds"][0]["byes"]] == [1, 2]
    page = site.client.get(f"/t/{tid}/bracket").text
    assert "Bye (goes on without a match)" in page and "Quarter-final" in page
    steps = 0
    while site.service.bracket_view(tid)["champion"] is None:
        steps += 1
        assert steps < 20
        kinds = {
            (g["round"], g["board"]): g["kind"]
            for r in site.service.bracket_view(tid)["rounds"]
            for m in r["matches"]
            for g in m["games"]
        }
        for game in site.service.overview(tid).games:
            if game.result is None:
                assert game.white is not None and game.black is not None
                # every regular game is drawn; the rapid games go to the lower number
                result = "½-½"
                if kinds[(game.round, game.board)] != "regular":
                    result = "1-0" if game.white < game.black else "0-1"
                site.service.record_result(tid, game.round, game.board, result)
        if site.service.bracket_view(tid)["champion"] is None:
            answer = site.client.post(f"/api/v1/tournaments/{tid}/knockout/next", headers=site.auth)
            assert answer.status_code == 200, answer.text
    view = site.service.bracket_view(tid)
    decided = [m["decided_by"] for r in view["rounds"] for m in r["matches"]]
    assert decided == ["rapid"] * 5  # every match went to the play-off's rapid games
    over = site.client.post(f"/api/v1/tournaments/{tid}/knockout/next", headers=site.auth)
    # the final's last game finished the knockout by itself (issue 15.7)
    assert over.status_code == 422 and "the knockout is finished" in over.json()["detail"]
    main = site.client.get(f"/t/{tid}").text
    assert 'id="champion"' in main and view["champion"]["name"] in main
    live = site.client.get(f"/t/{tid}/live").text
    assert 'class="ko-wrap"' in live and 'id="champion"' in live
    standings = site.client.get(f"/t/{tid}/standings").text
    assert 'id="ko-places"' in standings
    last = max(g.round for g in site.service.overview(tid).games)
    assert 'id="champion"' in site.client.get(f"/t/{tid}/rounds/{last}/games").text


def test_system_pages_refuse_the_wrong_system(site: Site) -> None:
    tid = site.create(name="RR", format="round-robin", list="A\nB\nC\nD")
    assert site.client.get(f"/t/{tid}/bracket").status_code == 404
    pairing = site.client.get(f"/t/{tid}/pairing")
    assert pairing.status_code == 422 and "only a Swiss" in pairing.text
    api = site.client.get(f"/api/v1/tournaments/{tid}/bracket")
    assert api.status_code == 422


def test_a_random_bracket_is_drawn_and_its_seed_published(site: Site) -> None:
    players = "\n".join(f"R{i}; {2000 - i}" for i in range(1, 6))
    tid = site.create(name="Lots cup", format="knockout", list=players, bracket="random")
    assert site.service.overview(tid).settings["regulations"]["bracket"] == "random"
    site.service.draw_lots(tid, LotsMethod.RATING)
    site.post(f"/t/{tid}/manage/start")
    bracket = site.service.bracket_view(tid)
    assert bracket["order"] == "random" and bracket["size"] == 8
    assert len(bracket["rounds"][0]["byes"]) == 3 and len(bracket["rounds"][0]["matches"]) == 1
    page = site.client.get(f"/t/{tid}/bracket").text
    assert "random order" in page and f"(seed {bracket['lots_seed']})" in page
    # a Swiss that has not paired round 1 yet: the rounds tab says so instead of failing
    swiss = site.swiss(NINE[:4], rounds=2)
    answer = site.client.get(f"/t/{swiss}/rounds/1")
    assert answer.status_code == 404 and "not paired yet" in answer.text
