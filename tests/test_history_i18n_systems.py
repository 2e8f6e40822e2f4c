"""Every history line in the reader's language, for every system (issue 14 item 1): the
Swiss (start, pairing, the PAB, byes asked and taken back, a manual pairing's allowed
changes, a withdrawal), the knockout (start, tie-break games, armageddon, the next
round, a withdrawal), a Scheveningen, battle chess's colours, a group stage and its
knockout, TRF and JSON imports and a rating-list update. Each tournament is run
through the service; its history API and page in Russian show no English summary, and
the English is what it always was.

Two checks of the code back this up: every summary handed to the change frame
(``Done``, ``Unchanged``, ``_append``, ``append_event``, an informational event) is a
Message, never text put together (as tests/test_web_messages.py checks errors), and
the scan finds an f-string summary in code written to have one."""

from __future__ import annotations

import ast
import random
import re
import sys
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from fide_support import confirmed
from test_service_support import migrated
from test_web_messages import assignments, built_from_text

import crosstable
from crosstable.core.model import LotsMethod, System
from crosstable.core.text import Message
from crosstable.formats.trf import parse_trf
from crosstable.service import PlayerInfo, Regulations, Service
from crosstable.service.frame import summary_of
from crosstable.service.stage_view import group_details, group_letter
from crosstable.store import open_store
from crosstable.web.app import create_app
from crosstable.web.messages import translate
from tests.asgi_client import TestClient

ROOT = Path(crosstable.__file__).parent

#: English words that a Russian history line must not show (players' names, numbers,
#: results and setting codes such as ``rapid:2`` may stay as they are)
ENGLISH = re.compile(
    r"\b(?:the|is|has|have|and|of|from|to|in|on|at|by|with|not|was|round|rounds|board|boards"
    r"|player|players|paired|started|withdrew|game|games|bye|match|tournament|created"
    r"|imported|changed|colours|drawn|added|removed|registered|result|results|ratings"
    r"|updated|group|groups|stage|knockout|qualifiers|final|seeded|lot|regulations"
    r"|starting|numbers|forfeited|recorded|cancelled|requested|dropped|manual|pairing"
    r"|White|Black|white|black|seed|already|entered|needed|slot|corrected|undo"
    r"|rapid|blitz|armageddon|lower-rated|lots|semi-final|quarter-final)\b"
)

NAMES = ("Анна", "Борис", "Вера", "Глеб", "Дарья", "Егор", "Жанна", "Зиновий")


@pytest.fixture
def service(tmp_path: Path) -> Service:
    return Service(
        open_store(migrated(f"sqlite:///{tmp_path / 'history.db'}")), random=random.Random(5)
    )


def _players(service: Service, tid: int, count: int, **info: Any) -> None:
    for index in range(count):
        service.add_player(tid, PlayerInfo(NAMES[index], rating=2400 - 10 * index, **info))


def _open(service: Service, tid: int) -> list[Any]:
    return [g for g in service.overview(tid).games if g.result is None]


def _white_wins(service: Service, tid: int) -> None:
    for game in _open(service, tid):
        service.record_result(tid, game.round, game.board, "1-0")


def _russian(service: Service, tid: int) -> list[tuple[str, str]]:
    """(English, Russian) of every line of the tournament's history."""
    return [(str(h.summary), translate(h.summary, "ru")) for h in service.history(tid)]


def _english_left(lines: list[tuple[str, str]]) -> list[str]:
    """The lines whose Russian still has English words (a tournament's name in «…», such
    as the knockout stage's ``Кубок — knockout``, is a name: left out of the check)."""
    return [f"{en!r} → {ru!r}" for en, ru in lines if ENGLISH.search(NAMED.sub("", ru))]


#: a tournament's name in a Russian line
NAMED = re.compile(r"«[^»]*»")


# -- the systems, run through the service ---------------------------------------------


def swiss(service: Service) -> int:
    """Five players (a PAB each round), byes asked, changed and taken back, a manual
    pairing with the colours of a board reversed, a withdrawal, the finish."""
    tid = service.create_tournament(
        Regulations(name="Open", system=System.SWISS_DUTCH, rounds=3)
    ).tournament_id
    _players(service, tid, 5)
    service.draw_lots(tid, LotsMethod.RATING)
    service.start(tid)
    service.request_bye(tid, 5, 2, "H")
    service.request_bye(tid, 5, 2, "Z")
    service.cancel_bye(tid, 5, 2)
    service.request_bye(tid, 4, 3, "H")
    service.publish_round(tid)
    _white_wins(service, tid)
    proposal = service.propose_round(tid)
    boards = [tuple(b) for b in proposal.boards]
    boards[0] = (boards[0][1], boards[0][0])  # the colours reversed: an allowed change
    confirmed(service.publish_round, tid, boards, bye=proposal.bye)  # a hand pairing: level 3
    _white_wins(service, tid)
    service.withdraw(tid, 4)
    service.publish_round(tid)
    _white_wins(service, tid)
    service.finish(tid)
    return tid


def knockout(service: Service) -> int:
    """Two-game matches, play-off tie-breaks up to armageddon, the final, a withdrawal."""
    tid = service.create_tournament(
        Regulations(
            name="Cup",
            system=System.KNOCKOUT,
            details={"match_format": "2", "tie_rule": "playoff", "third_place": "yes"},
        )
    ).tournament_id
    _players(service, tid, 4)
    service.draw_lots(tid, LotsMethod.RATING)
    service.start(tid)
    for rnd in (1, 2):  # match 1: one win each; match 2: White wins both
        service.record_result(tid, rnd, 1, "1-0")
        service.record_result(tid, rnd, 2, "1-0" if rnd == 1 else "0-1")
    service.pair_next_round(tid)  # rapid tie-break games
    service.record_result(tid, 3, 1, "1/2-1/2")
    service.record_result(tid, 4, 1, "1/2-1/2")
    service.pair_next_round(tid)  # blitz
    service.record_result(tid, 5, 1, "0-1")
    service.record_result(tid, 6, 1, "0-1")
    service.pair_next_round(tid)  # armageddon
    service.record_result(tid, 7, 1, "1/2-1/2")
    service.pair_next_round(tid)  # the final and the match for third place
    loser = next(g for g in _open(service, tid))
    service.withdraw(tid, loser.white or 0)
    return tid


def knockout_with_byes(service: Service) -> int:
    tid = service.create_tournament(
        Regulations(name="Cup", system=System.KNOCKOUT, details={"bracket": "random"})
    ).tournament_id
    _players(service, tid, 5)
    service.draw_lots(tid, LotsMethod.RATING)
    service.start(tid)
    return tid


def scheveningen(service: Service) -> int:
    tid = service.create_tournament(
        Regulations(name="Match", system=System.SCHEVENINGEN)
    ).tournament_id
    for index in range(4):
        team = "Север" if index % 2 else "Юг"  # the teams alternate: renumbered at the start
        service.add_player(tid, PlayerInfo(NAMES[index], rating=2000 + index, team=team))
    service.draw_lots(tid, LotsMethod.RATING)
    service.start(tid)
    return tid


def battle(service: Service) -> int:
    details = {"variant": "battle", "setup_minutes": "5", "battle_seed": "424242"}
    tid = service.create_tournament(Regulations(name="Battle", details=details)).tournament_id
    _players(service, tid, 4)
    service.draw_lots(tid, LotsMethod.RATING)
    service.start(tid)  # round 1's colours drawn
    _white_wins(service, tid)  # round 2's drawn when round 1 is complete
    return tid


def group_stage(service: Service) -> list[int]:
    """Two groups of three, one qualifier each, finished; the knockout stage made."""
    ids = []
    for index in range(2):
        letter = group_letter(index)
        details = group_details("cup2026", "Кубок", letter, 2, 1)
        details["finish"] = "confirm"
        tid = service.create_tournament(
            Regulations(name=f"Кубок — {letter}", details=details)
        ).tournament_id
        for n in range(3):
            service.add_player(
                tid, PlayerInfo(f"{letter}-{n + 1}", rating=2500 - 7 * (index + 2 * n))
            )
        service.draw_lots(tid, LotsMethod.RATING)
        service.start(tid)
        for game in _open(service, tid):
            white_wins = (game.white or 0) < (game.black or 0)
            service.record_result(tid, game.round, game.board, "1-0" if white_wins else "0-1")
        service.finish(tid)
        ids.append(tid)
    change = service.create_knockout_stage(ids[0])
    return [*ids, change.tournament_id]


def imports(service: Service) -> list[int]:
    text = resources.files("crosstable").joinpath("examples", "club_rr6.trf").read_text("utf-8")
    tournament = parse_trf(text).tournament
    from_trf = service.import_tournament(tournament, source="club_rr6.trf").tournament_id
    document = service.export_json(from_trf)
    from_json = service.import_json(document, source="club.json")
    return [from_trf, from_json]


def ratings(service: Service, tmp_path: Path) -> int:
    sys.path.insert(0, str(Path(__file__).parent))
    from rating_list_files import fide_txt, zipped

    from crosstable.service.rating_lists import RatingLists

    lists = RatingLists(service)
    lists.import_file(zipped(tmp_path, "players_list.zip", "players_list_foa.txt", fide_txt()))
    tid = service.create_tournament(Regulations(name="Club")).tournament_id
    service.add_player(tid, PlayerInfo("Carlsen, Magnus", 2700, fide_id="1503014"))
    service.add_player(tid, PlayerInfo("Гость", 1500))
    service.draw_lots(tid, LotsMethod.RATING)
    lists.update_ratings(tid)
    return tid


# -- the tests ---------------------------------------------------------------------------


@pytest.mark.parametrize("system", [swiss, knockout, knockout_with_byes, scheveningen, battle])
def test_a_systems_history_reads_in_russian(service: Service, system: Any) -> None:
    tid = system(service)
    lines = _russian(service, tid)
    assert len(lines) > 6
    assert _english_left(lines) == []
    # every line keeps its message (or is a constant one), and English is as stored
    for entry in service.history(tid):
        assert isinstance(summary_of_entry(service, tid, entry.seq), Message), entry.summary


def test_stages_imports_and_rating_updates_read_in_russian(
    service: Service, tmp_path: Path
) -> None:
    ids = [*group_stage(service), *imports(service), ratings(service, tmp_path)]
    for tid in ids:
        assert _english_left(_russian(service, tid)) == [], tid


def test_the_english_lines_are_as_they_were(service: Service) -> None:
    """Spot checks of the English text (the summary column; what the CLI and API show)."""
    tid = swiss(service)
    english = [h.summary for h in service.history(tid)]
    assert (
        "tournament started: Swiss (Dutch system), 3 rounds, 5 players; player 1 has white in "
        "round 1 (drawn by lot); pair round 1 when ready"
    ) in english or (
        "tournament started: Swiss (Dutch system), 3 rounds, 5 players; player 1 has black in "
        "round 1 (drawn by lot); pair round 1 when ready"
    ) in english
    assert "player 5 Дарья: zero-point bye (Z) in round 2 (was H)" in english
    assert "player 5 Дарья: bye (Z) in round 2 cancelled, the player will be paired" in english
    assert any(re.fullmatch(r"round 1 paired: 2 boards, PAB \d \S+", e) for e in english), english
    assert any(
        e.startswith("round 2 paired: 2 boards, PAB ")
        and "; manual pairing, differs from the Dutch system's: board 1: " in e
        and "has the colours reversed (the Dutch system gives" in e
        for e in english
    ), english
    assert any(
        re.fullmatch(
            r"player 4 Глеб withdrew from round 3: requested bye in round 3 dropped; "
            r"not paired from round 3 on",
            e,
        )
        for e in english
    ), english
    ko = knockout(service)
    english = [h.summary for h in service.history(ko)]
    assert (
        "knockout started: 4 players, 2 rounds (seeded; match 2, a match for third place, tie "
        "rule rapid:2,blitz:2,armageddon); the semi-final: 2 match(es)"
    ) in english, english
    assert any(
        e.startswith(
            "the semi-final: games added — slot 1 (1 Анна v 4 Глеб): rapid game 3 at "
            "round 3 board 1"
        )
        for e in english
    ), english
    assert any(e.startswith("the final paired (from round 8): ") for e in english), english
    russian = [translate(h.summary, "ru") for h in service.history(ko)]
    assert any("тай-брейк рапид:2,блиц:2,армагеддон); полуфинал: матчей — 2" in r for r in russian)
    byes = knockout_with_byes(service)
    started = translate(service.history(byes)[-1].summary, "ru")
    assert "тай-брейк меньший рейтинг); четвертьфинал: матчей — 1, свободный проход: " in started


def test_the_history_api_and_page_in_russian(service: Service) -> None:
    tid = swiss(service)
    ko = knockout(service)
    with TestClient(create_app(service=service)) as client:
        for number in (tid, ko):
            url = f"/api/v1/tournaments/{number}/history"
            russian = client.get(url, headers={"Accept-Language": "ru"}).json()
            english = client.get(url).json()
            assert [e["summary"] for e in english] == [h.summary for h in service.history(number)]
            left = [e["summary"] for e in russian if ENGLISH.search(e["summary"])]
            assert left == []
            client.cookies.set("lang", "ru")
            page = client.get(f"/t/{number}/history").text
            shown = [
                re.sub(r"\s+", " ", s).strip()
                for s in re.findall(r'<div class="sum">(.*?)</div>', page, re.S)
            ]
            assert shown and [s for s in shown if ENGLISH.search(s)] == []
            client.cookies.clear()
        assert any("пары" in e["summary"] or "жеребьёвка" in e["summary"] for e in russian)


def summary_of_entry(service: Service, tid: int, seq: int) -> str:
    from sqlalchemy import select

    from crosstable.store.models import EventRow

    with service.store.reading() as session:
        event = session.scalars(
            select(EventRow).where(EventRow.tournament_id == tid, EventRow.seq == seq)
        ).one()
        found = summary_of(event)
    if not isinstance(found, Message):  # a constant message: its own template, no values
        assert translate(found, "ru") != found or not re.search("[a-z]", found), found
        return Message(found)
    return found


# -- the code: every summary is a Message -----------------------------------------------

#: the calls that hand a history line to the change frame: the summary argument's place
SUMMARY_CALLS = {"Done": 0, "Unchanged": 0, "_append": 2, "_inform": 2}
SUMMARY_KEYWORD_CALLS = frozenset({"append_event", "append_information", "Done"})


def summary_arguments(call: ast.Call) -> Iterator[ast.expr]:
    func = call.func
    name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
    place = SUMMARY_CALLS.get(name)
    if place is not None and len(call.args) > place:
        yield call.args[place]
    if name in SUMMARY_KEYWORD_CALLS or name in SUMMARY_CALLS:
        yield from (k.value for k in call.keywords if k.arg == "summary")


def text_summaries(tree: ast.Module, where: str) -> list[str]:
    """``file:line: code`` of each summary put together as text or given as a bare literal
    (a literal is wrapped in ``Message(…)`` so that the extraction finds it)."""
    found = []
    scopes = [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    seen: set[int] = set()
    for scope in [*scopes, tree]:
        names = assignments(scope)
        grown = {
            n.target.id
            for n in ast.walk(scope)
            if isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name)
        }
        for node in ast.walk(scope):
            if not isinstance(node, ast.Call) or id(node) in seen:
                continue
            seen.add(id(node))
            for argument in summary_arguments(node):
                literal = isinstance(argument, ast.Constant) and isinstance(argument.value, str)
                added = isinstance(argument, ast.Name) and argument.id in grown
                if literal or added or built_from_text(argument, names):
                    found.append(f"{where}:{node.lineno}: {ast.unparse(argument)[:80]}")
    return found


def test_every_summary_in_the_code_is_a_message() -> None:
    found, calls = [], 0
    for path in sorted((ROOT / "service").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        calls += sum(
            1
            for node in ast.walk(tree)
            if isinstance(node, ast.Call) and any(True for _ in summary_arguments(node))
        )
        found += text_summaries(tree, str(path.relative_to(ROOT.parent)))
    assert calls > 40  # the scan sees the code
    assert found == [], "make these summaries Messages (crosstable/core/text.py):\n" + "\n".join(
        found
    )


def test_the_summary_scan_finds_text(tmp_path: Path) -> None:
    code = """
def body(tx, n, name):
    summary = f"round {n} paired"
    if name:
        summary += f", PAB {name}"
    other = Message("round {round} paired", round=n)
    if n:
        return Done(summary, {})
    if name:
        raise Unchanged("nothing changed")
    self._append(tx, "import", "tournament " + name, {}, "", None)
    append_event(session, row, summary=f"x {n}")
    return Done(other)
"""
    found = text_summaries(ast.parse(code), "x.py")
    assert sorted(int(line.split(":")[1]) for line in found) == [8, 10, 11, 12]


def test_old_events_and_plain_summaries_stay_as_they_are() -> None:
    """An event made before its line was a message shows the stored English."""
    from crosstable.store.models import EventRow

    old = EventRow(summary="round 1 paired: 2 boards", data={})
    assert translate(summary_of(old), "ru") == "round 1 paired: 2 boards"


def test_a_manual_pairings_warnings_on_the_russian_pairing_page(tmp_path: Path) -> None:
    """The review page and the flash after publishing show the allowed changes (a
    manual pairing's warnings, Messages since issue 14) in Russian; in English as before."""
    from test_web_swiss import Site, _publish_form

    world = Site(tmp_path)
    with world.client:
        tid = world.swiss()
        proposal = world.service.propose_round(tid)
        form: dict[str, Any] = {"count": str(len(proposal.boards)), "bye": str(proposal.bye)}
        for index, (white, black) in enumerate(proposal.boards, 1):
            form[f"white_{index}"], form[f"black_{index}"] = str(white), str(black)
        swapped = dict(form, white_2=form["black_2"], black_2=form["white_2"])
        english = world.post(f"/t/{tid}/pairing/review", **swapped).text
        assert "has the colours reversed (the Dutch system gives" in english
        world.client.cookies.set("lang", "ru")
        review = world.post(f"/t/{tid}/pairing/review", **swapped).text
        assert "цвета переставлены (голландская система даёт" in review, review
        assert "colours reversed" not in review
        published = world.post(f"/t/{tid}/pairing/publish", **_publish_form(review)).text
        assert "цвета переставлены" in published and "colours reversed" not in published


def test_a_malformed_kept_message_shows_the_stored_english() -> None:
    """A kept message that cannot be read back (a fraction over 0, nesting deeper than
    the stack) is not trusted: the stored English, never an error on the history page."""
    from crosstable.store.models import EventRow

    zero = {"template": "{a}", "params": {"a": {"fraction": [1, 0]}}}
    deep: dict[str, Any] = {"template": "x", "params": {}}
    for _ in range(5000):
        deep = {"template": "{a}", "params": {"a": {"message": deep}}}
    for kept in (zero, deep):
        event = EventRow(summary="player 1 A registered", data={"summary_message": kept})
        assert summary_of(event) == "player 1 A registered"


@pytest.mark.parametrize(
    "kept",
    [
        {"template": "{a}", "params": {"a": {"fraction": [1, 0]}}},
        {"template": "{a}", "params": {"a": [1, 2]}},
        {"template": 7, "params": {}},
        {"template": "{a}", "params": {"a": {"message": {"params": {}}}}},
        "player 1 A registered",
    ],
    ids=["zero-denominator", "list", "template-not-text", "inner-without-template", "text"],
)
def test_an_import_refuses_a_malformed_history_message(service: Service, kept: Any) -> None:
    from crosstable.core.errors import InputError

    tid = service.create_tournament(Regulations(name="Club")).tournament_id
    service.add_player(tid, PlayerInfo("A"))
    document = service.export_json(tid)
    assert "summary_message" in document["history"][-1]["data"]
    document["history"][-1]["data"]["summary_message"] = kept
    with pytest.raises(InputError) as refused:
        service.import_json(document, source="club.json")
    assert "history[1].data.summary_message is not a history line's message" in str(refused.value)
    assert translate(refused.value.text, "ru") != str(refused.value.text)


def test_an_import_refuses_a_too_deep_history_message(service: Service) -> None:
    from crosstable.core.errors import InputError
    from crosstable.service.import_check import MESSAGE_DEPTH, message_shape_ok

    tid = service.create_tournament(Regulations(name="Club")).tournament_id
    service.add_player(tid, PlayerInfo("A"))
    document = service.export_json(tid)
    deep: dict[str, Any] = {"template": "x", "params": {}}
    for _ in range(MESSAGE_DEPTH + 1):
        deep = {"template": "{a}", "params": {"a": {"message": deep}}}
    assert not message_shape_ok(deep)
    assert message_shape_ok(deep["params"]["a"]["message"])  # (the bound itself is fine)
    document["history"][-1]["data"]["summary_message"] = deep
    with pytest.raises(InputError, match="nested at most 32 deep"):
        service.import_json(document, source="club.json")
    # an export as the service writes it imports, and its lines still read in Russian
    good = service.export_json(tid)
    copy = service.import_json(good, source="club.json")
    assert translate(service.history(copy)[-1].summary, "ru") == "участник 1 A зарегистрирован"
