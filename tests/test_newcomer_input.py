"""What a newcomer typed or uploaded (issue 29 items 4, 5, 7, 11, 16 and 17), through
every surface: the command line, the organiser's pages, the wizard and the JSON API, on a
real SQLite file.

4. one range of ratings (0 unrated, else 100…4000) refused at entry everywhere, so that
   export and import never break on a rating;
5. no TRF file before the lots are drawn (it would list no players): a clear refusal;
   after the draw the file passes ``crosstable trf validate``;
7. a players' CSV in Windows-1251 (Russian Excel), KOI8-R or UTF-16 is read, and the
   page says which encoding it was; what nothing decodes is refused naming the line;
11. the wizard's Create refuses exactly what its preview flags, with the same message;
16. a name given twice is a warning (flash, command line, API), never a refusal;
17. the wizard offers "the organiser confirms the finish", and the tournament carries it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from hypothesis import example, given
from hypothesis import strategies as st
from test_service_support import migrated

from crosstable.cli import main
from crosstable.core.errors import CrosstableError, InputError, RuleError
from crosstable.core.model import LotsMethod
from crosstable.formats.limits import HIGHEST_RATING, LOWEST_RATING
from crosstable.service import PlayerInfo, Regulations, Service
from crosstable.service.accounts import Accounts
from crosstable.service.text_encoding import decode_text
from crosstable.store import open_store
from crosstable.web.app import create_app
from tests.asgi_client import TestClient
from tests.web_support import signed_in

RANGE = "is out of range (100–4000, or 0 for unrated)"
RANGE_RE = re.escape(RANGE)


# -- fixtures ------------------------------------------------------------------------


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("CROSSTABLE_ACTOR", "arbiter")
    monkeypatch.delenv("CROSSTABLE_DB", raising=False)
    return str(tmp_path / "club.db")


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def web(tmp_path: Path) -> Iterator[tuple[TestClient, Service, str]]:
    service = Service(open_store(migrated(f"sqlite:///{tmp_path / 'web.db'}")))
    Accounts(service.store).create_user("ann", "password-ann", is_admin=True)
    with TestClient(create_app(service=service), follow_redirects=False) as client:
        yield client, service, signed_in(client, "ann")


def _club(service: Service, *names: str) -> int:
    tid = service.create_tournament(Regulations(name="Club")).tournament_id
    for index, name in enumerate(names):
        service.add_player(tid, PlayerInfo(name, rating=2000 + index))
    return tid


def _refusal(client: TestClient, url: str, data: dict[str, str], **files: bytes) -> str:
    """What a form refused says (its htmx answer: the error where the form is)."""
    sent = {name: ("p.csv", body) for name, body in files.items()}
    answer = client.post(url, data=data, files=sent or None, headers={"hx-request": "true"})
    assert answer.status_code < 500 and 'class="flash error"' in answer.text, answer.text
    return str(answer.text)


def _flash(client: TestClient, answer: Any) -> str:
    """The page the form redirected to, with its flash."""
    assert answer.status_code == 303, answer.text[:500]
    return str(client.get(answer.headers["location"]).text)


# -- 4. one range of ratings ------------------------------------------------------------


def test_the_command_line_refuses_a_rating_out_of_range_and_exports_import_again(
    db: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert main(["new", "Club", "--db", db]) == 0
    code, _out, err = run(capsys, "player", "add", "Anna", "--rating", "99999999999", "--db", db)
    assert code == 2 and f"player Anna: rating: 99999999999 {RANGE}" in err, err
    code, _out, err = run(capsys, "player", "add", "Anna", "--rating", "20", "--db", db)
    assert code == 2 and f"rating: 20 {RANGE}" in err
    for name, rating in (("Anna", "100"), ("Boris", "4000"), ("Clara", "0")):
        assert main(["player", "add", name, "--rating", rating, "--db", db]) == 0
    code, _out, err = run(capsys, "player", "edit", "1", "--rating", "4001", "--db", db)
    assert code == 2 and f"player 1 Anna: rating: 4001 {RANGE}" in err, err
    code, out, _err = run(capsys, "player", "list", "--db", db)
    assert re.search(r"Clara\s+│\s+│", out), out  # 0 is unrated: nothing stored
    # what was accepted exports and imports again, as TRF and as JSON
    exported = tmp_path / "club.json"
    assert main(["export", "-o", str(exported), "--db", db]) == 0
    assert main(["import", str(exported), "--db", db]) == 0
    assert main(["draw", "--seed", "1", "--db", db]) == 0
    trf = tmp_path / "club.trf"
    assert main(["export", "--to", "trf16", "-o", str(trf), "--db", db]) == 0
    assert main(["trf", "validate", str(trf)]) == 0
    assert main(["import", str(trf), "--db", db]) == 0


def test_imports_refuse_a_rating_out_of_range_naming_the_player(tmp_path: Path) -> None:
    service = Service(open_store(migrated(f"sqlite:///{tmp_path / 'x.db'}")))
    tid = _club(service, "Anna", "Boris", "Clara")
    with pytest.raises(RuleError, match=f"player Dora: rating: 99 {RANGE_RE}"):
        service.add_player(tid, PlayerInfo("Dora", rating=99))
    with pytest.raises(RuleError, match=f"player 2 Boris: rating: 99999999999 {RANGE_RE}"):
        service.edit_player(tid, 2, rating=99_999_999_999)
    assert service.add_player(tid, PlayerInfo("Eva", rating=0)).summary  # 0: unrated
    assert [p.rating for p in service.overview(tid).players][-1] is None
    document = service.export_json(tid)
    document["players"][1]["rating"] = 5000  # (a whole number the store could hold)
    with pytest.raises(InputError, match=rf"club.json: players\[1\]: rating: 5000 {RANGE_RE}"):
        service.import_json(document, source="club.json")
    from crosstable.core.model import Player, Tournament

    engine = Tournament(players=(Player(1, "Engine", 9999), Player(2, "Anna", 2000)))
    with pytest.raises(InputError, match=f"engines.trf: player 1 Engine: rating: 9999 {RANGE_RE}"):
        service.import_tournament(engine, source="engines.trf")
    assert (LOWEST_RATING, HIGHEST_RATING) == (100, 4000)


def test_the_pages_csv_and_api_refuse_a_rating_out_of_range(web: Any) -> None:
    client, service, csrf = web
    tid = _club(service, "Anna", "Boris", "Clara")
    url = f"/t/{tid}/manage/players"
    form = {"csrf_token": csrf, "name": "Dora", "rating": "5000"}
    assert f"player Dora: rating: 5000 {RANGE}" in _refusal(client, url, form)
    csv = b"name,rating\nDora,50\n"
    said = _refusal(client, url, {"csrf_token": csrf}, csv=csv)
    assert f"CSV line 2: player Dora: rating: 50 {RANGE}" in said, said
    pasted = {"csrf_token": csrf, "list": "Dora, 99999999999"}
    assert f"line 1: player Dora: rating: 99999999999 {RANGE}" in _refusal(client, url, pasted)
    russian = client.post(url, data=form, headers={"hx-request": "true", "Accept-Language": "ru"})
    assert "рейтинг: 5000 вне допустимого диапазона (100–4000 или 0" in russian.text
    api = {"X-CSRF-Token": csrf}
    answer = client.post(
        f"/api/v1/tournaments/{tid}/players", json={"name": "Dora", "rating": 50}, headers=api
    )
    assert answer.status_code == 422 and f"rating: 50 {RANGE}" in answer.text, answer.text
    answer = client.patch(f"/api/v1/tournaments/{tid}/players/1", json={"rating": 99}, headers=api)
    assert answer.status_code == 422 and f"rating: 99 {RANGE}" in answer.text, answer.text
    assert len(service.overview(tid).players) == 3
    assert [p.rating for p in service.overview(tid).players] == [2000, 2001, 2002]


# -- 5. TRF export before the drawing of lots ------------------------------------------


def test_trf_export_before_the_draw_is_refused_and_after_it_validates(
    db: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert main(["new", "Club", "--db", db]) == 0
    trf = tmp_path / "club.trf"
    code, _out, err = run(capsys, "export", "--to", "trf16", "-o", str(trf), "--db", db)
    assert code == 2 and "a TRF file lists the players: register them" in err, err
    for name in ("Anna", "Boris", "Clara"):
        assert main(["player", "add", name, "--rating", "2000", "--db", db]) == 0
    for edition in ("trf16", "trf2026"):
        code, _out, err = run(capsys, "export", "--to", edition, "-o", str(trf), "--db", db)
        assert code == 2 and not trf.exists()
        assert "3 of 3 have none yet: draw the lots first" in err, err
    assert main(["draw", "--seed", "7", "--db", db]) == 0
    for edition in ("trf16", "trf2026"):
        assert main(["export", "--to", edition, "-o", str(trf), "--db", db]) == 0
        code, out, _err = run(capsys, "trf", "validate", str(trf))
        assert code == 0 and "ok — 3 players" in out


def test_trf_export_before_the_draw_on_the_web_and_the_api(web: Any) -> None:
    client, service, _csrf = web
    tid = _club(service, "Anna", "Boris", "Clara")
    page = client.get(f"/t/{tid}/export/trf16")
    assert page.status_code == 422 and "draw the lots first" in page.text
    russian = client.get(f"/t/{tid}/export/trf2026", headers={"Accept-Language": "ru"})
    assert russian.status_code == 422 and "жеребьёвку" in russian.text, russian.text
    api = client.get(f"/api/v1/tournaments/{tid}/export/trf16")
    assert api.status_code == 422 and "draw the lots first" in api.json()["detail"]
    service.draw_lots(tid, LotsMethod.RANDOM, seed=3)
    text = client.get(f"/api/v1/tournaments/{tid}/export/trf16").text
    from crosstable.formats.trf_read import parse_trf

    assert len(parse_trf(text, source="export").tournament.players) == 3


# -- 7. players' CSV in the encodings spreadsheets write ---------------------------------

RUSSIAN_CSV = "имя;рейтинг;звание\nИванов Иван;1850;\nПетрова Анна;1900;WFM\nЁлкин Пётр;1720;\n"


@pytest.mark.parametrize(
    ("encoding", "label"),
    [("cp1251", "Windows-1251"), ("koi8_r", "KOI8-R"), ("utf-16", "UTF-16")],
)
def test_a_russian_excel_csv_is_read_and_the_page_says_how(
    web: Any, encoding: str, label: str
) -> None:
    client, service, csrf = web
    tid = _club(service)
    data = RUSSIAN_CSV.encode(encoding)
    answer = client.post(
        f"/t/{tid}/manage/players", data={"csrf_token": csrf}, files={"csv": ("p.csv", data)}
    )
    page = _flash(client, answer)
    assert f"the CSV file was read as {label} text" in page, page
    names = [(p.name, p.rating, p.title) for p in service.overview(tid).players]
    assert names == [
        ("Иванов Иван", 1850, ""),
        ("Петрова Анна", 1900, "WFM"),
        ("Ёлкин Пётр", 1720, ""),
    ]
    # the wizard reads it the same way, and its flash says so too (in Russian here)
    form = {"csrf_token": csrf, "name": "Из Excel", "format": "round-robin"}
    answer = client.post(
        "/new", data=form, files={"csv": ("p.csv", data)}, headers={"Accept-Language": "ru"}
    )
    page = _flash(client, answer)
    assert f"файл CSV прочитан в кодировке {label}" in page, page
    made = service.tournaments()[-1].id
    assert next(p.name for p in service.overview(made).players) == "Иванов Иван"


def test_a_utf8_csv_says_nothing_and_what_nothing_decodes_is_refused_by_line(web: Any) -> None:
    client, service, csrf = web
    tid = _club(service)
    utf8 = "\ufeffname,rating\nАнна,1850\n".encode()
    answer = client.post(
        f"/t/{tid}/manage/players", data={"csrf_token": csrf}, files={"csv": ("p.csv", utf8)}
    )
    assert "was read as" not in _flash(client, answer)
    broken = b"name,rating\nAnna,1850\nBo\x00\x98ris,1700\n"
    said = _refusal(client, f"/t/{tid}/manage/players", {"csrf_token": csrf}, csv=broken)
    assert "line 3 is neither UTF-8 nor Windows-1251, KOI8-R or Windows-1252 text" in said
    assert [p.name for p in service.overview(tid).players] == ["Анна"]


def test_the_command_line_reads_the_same_csv(
    db: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    players = tmp_path / "club.csv"
    players.write_bytes(
        "name,rating\nИванов,1850\nПетрова,1900\nОрлов,1720\nЩукин,1700\n".encode("cp1251")
    )
    code, out, err = run(capsys, "schedule", "quads", "--players-file", str(players))
    assert code == 0, err
    assert "Иванов" in out and "Щукин" in out


_UPPER = "АБВГДЕЁЖЗИЙКЛМНОПРСТУФХЦЧШЩЭЮЯ"
_LOWER = "абвгдеёжзийклмнопрстуфхцчшщъыьэюя"
_NAME = st.builds(
    lambda first, rest: first + rest,
    st.sampled_from(_UPPER),
    st.text(alphabet=_LOWER, min_size=2, max_size=12),
)


@given(
    st.lists(st.tuples(_NAME, _NAME, st.integers(1000, 2900)), min_size=1, max_size=6),
    st.sampled_from(["cp1251", "koi8_r", "utf-8", "utf-16"]),
)
@example([("Ааё", "Ааё", 1000)], "cp1251")  # ё is a sign in Windows-1252: "Àà¸"
@example([("Ёлкин", "Ёжи", 1500)], "cp1251")
def test_property_russian_names_come_back_from_every_encoding(
    rows: list[tuple[str, str, int]], encoding: str
) -> None:
    text = "name,rating\n" + "".join(f"{last} {first},{rating}\n" for last, first, rating in rows)
    assert decode_text(text.encode(encoding)).text == text


@given(st.binary(max_size=300))
def test_property_any_bytes_are_text_or_a_refusal_naming_a_line(data: bytes) -> None:
    try:
        decoded = decode_text(data, source="p.csv")
    except InputError as error:
        assert re.match(r"p\.csv: line \d+", str(error)), str(error)
    else:
        assert isinstance(decoded.text, str)


# -- 11. Create refuses what the preview flags ----------------------------------------------


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"time_control": "banana"}, "time control &#39;banana&#39;: &#39;banana&#39; is not"),
        (
            {"format": "swiss", "rounds": "99", "time_control": "90+30"},
            "99 rounds need at least 100 players",
        ),
        ({"format": "scheveningen", "list": "A;2000\nB;2000\nC;2000\nD;2000"}, "without a team"),
    ],
)
def test_create_refuses_what_the_preview_flags_with_the_same_message(
    web: Any, fields: dict[str, str], message: str
) -> None:
    client, service, csrf = web
    form = {"csrf_token": csrf, "name": "Club", "list": "Anna, 2000\nBoris, 1990\nClara, 1980"}
    form |= fields
    preview = client.post("/new/preview", data=form).text
    flagged = re.findall(r"<li>([^<]*)</li>", preview.split('class="problems"')[1])
    assert any(message in item for item in flagged), preview
    answer = client.post("/new", data=form, follow_redirects=False)
    assert answer.status_code == 422
    shown = re.search(r'id="wizard-error">([^<]*)</p>', answer.text)
    assert shown and shown.group(1) == flagged[0], (shown, flagged)
    assert service.tournaments() == []


def test_the_api_and_the_command_line_refuse_a_time_control_not_understood(
    web: Any, db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    client, service, csrf = web
    body = {"name": "Club", "time_control": "banana", "players": []}
    answer = client.post("/api/v1/tournaments", json=body, headers={"X-CSRF-Token": csrf})
    assert answer.status_code == 422 and "time control 'banana'" in answer.text, answer.text
    assert service.tournaments() == []
    code, _out, err = run(capsys, "new", "Club", "--time-control", "banana", "--db", db)
    assert code == 2 and "time control 'banana': 'banana' is not understood" in err


# -- 16. the same name twice -------------------------------------------------------------


def test_a_name_given_twice_is_a_warning_everywhere(
    web: Any, db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    client, service, csrf = web
    tid = _club(service, "Anna Petrova", "Boris")
    answer = client.post(
        f"/t/{tid}/manage/players", data={"csrf_token": csrf, "name": "anna  petrova"}
    )
    page = _flash(client, answer)
    assert "2 players are named Anna Petrova: the pages tell them apart by their numbers" in page
    assert len(service.overview(tid).players) == 3  # registered all the same
    answer = client.post(
        f"/t/{tid}/manage/players",
        data={"csrf_token": csrf, "name": "Boris"},
        headers={"Accept-Language": "ru"},
    )
    assert "участников с именем Boris: 2" in _flash(client, answer)
    # the wizard's preview and the API's answer
    form = {"csrf_token": csrf, "name": "Twins", "list": "Ivan, 2000\nIvan, 1900\nOleg, 1800"}
    preview = client.post("/new/preview", data=form).text
    assert "2 players are named Ivan" in preview
    body = {"name": "Twins", "players": [{"name": "Ivan"}, {"name": "Ivan"}, {"name": "Oleg"}]}
    answer = client.post("/api/v1/tournaments", json=body, headers={"X-CSRF-Token": csrf})
    assert answer.status_code == 201
    assert answer.json()["warnings"] == [
        "2 players are named Ivan: the pages tell them apart by their numbers"
    ]
    # the command line
    assert main(["new", "Club", "--db", db]) == 0
    assert main(["player", "add", "Anna", "--db", db]) == 0
    code, _out, err = run(capsys, "player", "add", "Anna", "--db", db)
    assert code == 0 and "warning: 2 players are named Anna" in err


# -- 17. the organiser confirms the finish --------------------------------------------------


def test_the_wizard_offers_the_organisers_confirmation_of_the_finish(web: Any) -> None:
    client, service, csrf = web
    page = client.get("/new").text
    assert 'name="finish_confirm"' in page and 'id="finish-confirm-note"' in page
    assert "stays open after the last game until the organiser checks" in page
    russian = client.get("/new", headers={"Accept-Language": "ru"}).text
    assert "Организатор подтверждает окончание" in russian
    players = "Anna, 2000\nBoris, 1990\nClara, 1980"
    base = {"csrf_token": csrf, "list": players}
    for name, ticked, expected in (("Confirmed", "on", "confirm"), ("Auto", "", None)):
        form = base | {"name": name} | ({"finish_confirm": ticked} if ticked else {})
        assert client.post("/new", data=form, follow_redirects=False).status_code == 303
        made = service.tournaments()[-1].id
        assert service.overview(made).settings["regulations"].get("finish") == expected
    confirmed = service.tournaments()[0].id
    service.draw_lots(confirmed, LotsMethod.RANDOM, seed=1)
    service.start(confirmed)
    for game in service.overview(confirmed).games:
        service.record_result(confirmed, game.round, game.board, "1-0")
    assert service.overview(confirmed).status == "running"  # until the organiser finishes
    try:
        service.finish(confirmed)
    except CrosstableError as error:  # pragma: no cover - shown if it fails
        pytest.fail(str(error))
    assert service.overview(confirmed).status == "finished"
    assert json.dumps(service.overview(confirmed).settings["regulations"])
