"""Custom rating lists (FIDE's checklist for tournament programs, Q117 and Q134): a
national or club list imported from CSV is its own list with its own ids, kept,
listed, replaced and deleted; the order of lists names it; a tournament's player keeps
the list and id they came from and its rating as the national rating. The reader, the
service on SQLite and PostgreSQL, and the command line."""

# ruff: noqa: F811 - pytest fixtures imported from test_service_support
from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_service_support import db_url, make_service, service, store  # noqa: F401

from crosstable.cli import main
from crosstable.core.errors import CrosstableError, InputError, RuleError
from crosstable.core.model import LotsMethod
from crosstable.formats.custom_list import CustomPlayer, parse_columns, read_csv, read_custom_list
from crosstable.formats.rating_list import ListReport
from crosstable.service import Regulations, Service
from crosstable.service.custom_lists import CustomLists, parse_source
from crosstable.service.errors import ConflictError, NotFoundError
from crosstable.service.rating_list_order import CustomList, parse_order
from crosstable.service.rating_lists import RatingLists
from crosstable.store.custom_list_models import CustomListPlayerRow
from crosstable.store.models import EntryRow
from tests.rating_list_files import fide_txt, zipped

NATIONAL = (
    "NatID;FIO;Rating;Rapid;FIDE;Fed;Born;Sex\n"
    "4101;Петров, Иван;2105;;;RUS;1990;M\n"
    "4102;Ivanova, Anna;1950;2010;24101605;RUS;2008;F\n"
    "A-7;Smirnov, Oleg;1720;1800;;RUS;2011;M\n"
)
COLUMNS = "id=NatID,name=FIO,fide_id=FIDE"
SHORT = "id=NatID,name=FIO"


def read(text: str, columns: str = COLUMNS) -> tuple[list[CustomPlayer], ListReport]:
    report = ListReport("rus.csv")
    players = list(read_csv(io.BytesIO(text.encode()), report, parse_columns(columns)))
    return players, report


def write(tmp_path: Path, text: str, name: str = "rus.csv") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


# -- the reader ------------------------------------------------------------------------


def test_r_b_1_q117_the_users_columns_and_the_common_ones_are_read() -> None:
    players, report = read(NATIONAL)
    assert [p.list_id for p in players] == ["4101", "4102", "A-7"]
    assert players[0] == CustomPlayer("4101", "Петров, Иван", "RUS", "m", "", 1990, 2105)
    assert players[1].fide_id == 24101605 and players[1].rapid == 2010
    assert (report.players, report.skipped) == (3, 0)
    common = "id,name,title,standard,fide_id\nC12,Lee Ann,WFM,1800,\n"
    (player,), _ = read(common, "")
    assert (player.list_id, player.title, player.standard, player.fide_id) == (
        "C12",
        "WFM",
        1800,
        None,
    )


def test_r_b_1_q117_bad_lines_are_refused_with_file_line_and_field() -> None:
    text = NATIONAL + "4103;Bad, Rating;9999;;;RUS;;\n4104;Bad, Fed;1500;;;R1;;\n;No, Id;1;;;;;\n"
    players, report = read(text)
    assert len(players) == 3 and report.skipped == 3
    assert [str(p) for p in report.problems] == [
        "rus.csv:5: standard rating: '9999' is not a number from 0 to 3500",
        "rus.csv:6: federation: 'R1' is not a three-letter code",
        "rus.csv:7: list id: '' is not an id (letters, digits, - _ . /, at most 20)",
    ]


@pytest.mark.parametrize(
    ("text", "columns", "message"),
    [
        ("FIO;Rating\nA;1\n", COLUMNS, "the column 'natid' for list id is not in the header"),
        ("name,rating\nA,1\n", "", "needs a list id and a name column"),
        (NATIONAL + "4101;Twice, Again;1;;;;;\n", COLUMNS, "list id 4101 is on line 2 and again"),
        ("", "", "the file is empty"),
    ],
)
def test_r_b_1_q117_a_file_that_is_no_list_is_refused(
    text: str, columns: str, message: str
) -> None:
    with pytest.raises(InputError, match=message):
        read(text, columns)


def test_r_b_1_q117_a_column_mapping_is_read_or_refused_clearly() -> None:
    assert parse_columns("ID = NatID , standard=Elo") == {"id": "natid", "standard": "elo"}
    for bad in ("id", "colour=x", "id=a,id=b", "name="):
        with pytest.raises(RuleError, match="columns"):
            parse_columns(bad)


def test_r_b_1_q117_a_zipped_list_reads_as_the_plain_one(tmp_path: Path) -> None:
    archive = zipped(tmp_path, "rus.zip", "rus.csv", NATIONAL)
    report = ListReport(str(archive))
    players = list(read_custom_list(archive, report, parse_columns(COLUMNS)))
    assert players == read(NATIONAL)[0]
    assert report.source.endswith("rus.zip:rus.csv")


@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=600) | st.text(max_size=300).map(lambda t: ("id;name\n" + t).encode()))
def test_r_b_1_q117_fuzz_any_bytes_give_players_or_a_clear_refusal(data: bytes) -> None:
    report = ListReport("fuzz.csv")
    try:
        players = list(read_csv(io.BytesIO(data), report))
    except InputError as error:
        assert error.source == "fuzz.csv"
        return
    assert len({p.list_id for p in players}) == len(players) == report.players
    assert all(p.name and 1 <= len(p.list_id) <= 20 for p in players)


# -- the service -----------------------------------------------------------------------


def test_r_b_1_q117_a_list_is_kept_listed_replaced_and_deleted(
    service: Service, tmp_path: Path
) -> None:
    lists = CustomLists(service)
    report = lists.import_file(
        write(tmp_path, NATIONAL), "RUS", columns=parse_columns(COLUMNS), month="2026-11"
    )
    assert (report.players, report.total, report.month) == (3, 3, "2026-11")
    (kept,) = lists.lists()
    assert (kept.name, kept.file, kept.month, kept.imported, kept.players) == (
        "RUS",
        "rus.csv",
        "2026-11",
        "2026-05-01",
        3,
    )
    assert [p.source for p in lists.find("4101")] == ["RUS:4101"]
    assert [p.source for p in lists.find("iva")] == ["RUS:4102"]
    assert [p.source for p in lists.find("24101605")] == ["RUS:4102"]  # by FIDE id too
    newer = "NatID;FIO;Rating\n4101;Петров, Иван;2150\n5000;New, Player;1400\n"
    lists.import_file(write(tmp_path, newer, "rus2.csv"), "RUS", columns=parse_columns(SHORT))
    (kept,) = lists.lists()
    assert (kept.file, kept.players) == ("rus2.csv", 2)
    assert lists.player("RUS", "4101").standard == 2150
    with pytest.raises(NotFoundError, match="A-7 is not in the custom rating list RUS"):
        lists.player("RUS", "A-7")  # the newer list replaced the old one
    with pytest.raises(InputError):  # a refused file changes nothing
        lists.import_file(write(tmp_path, "x;y\n", "bad.csv"), "RUS")
    assert lists.lists()[0].file == "rus2.csv"
    assert lists.delete("RUS").players == 2
    assert lists.lists() == [] and lists.find("4101") == []
    with pytest.raises(NotFoundError, match="there is no custom rating list RUS"):
        lists.delete("RUS")
    with pytest.raises(RuleError, match="custom rating list name"):
        lists.import_file(write(tmp_path, NATIONAL), "FIDE std")


def imported(service: Service, tmp_path: Path) -> CustomLists:
    fide = zipped(tmp_path, "players_list.zip", "players_list_foa.txt", fide_txt())
    RatingLists(service).import_file(fide)
    lists = CustomLists(service)
    lists.import_file(write(tmp_path, NATIONAL), "RUS", columns=parse_columns(COLUMNS))
    club = "id,name,rating\nK1,Smirnov Oleg,1690\nK2,Ivanova Anna,1960\n"
    lists.import_file(write(tmp_path, club, "club.csv"), "club")
    return lists


def entries(service: Service, tid: int) -> list[tuple[str, int | None, int | None, str]]:
    with service.store.reading() as session:
        rows = session.query(EntryRow).filter_by(tournament_id=tid).order_by(EntryRow.number)
        return [(r.name, r.rating, r.national_rating, r.rating_source) for r in rows]


def test_r_b_1_q117_q134_the_order_names_custom_lists_and_players_keep_their_source(
    service: Service, tmp_path: Path
) -> None:
    lists = imported(service, tmp_path)
    details = {"rating_method": "NRO"}
    tid = service.create_tournament(Regulations(name="Open", details=details)).tournament_id
    ratings = RatingLists(service)
    assert lists.tournament_lists(tid) == ("RUS", "club")  # by default every custom list
    ratings.set_list_order(tid, "custom:club,custom:RUS,standard")
    assert ratings.list_order(tid)[:2] == (CustomList("club"), CustomList("RUS"))
    assert lists.tournament_lists(tid) == ("club", "RUS")
    with pytest.raises(NotFoundError, match="no custom rating list XX: import it first"):
        ratings.set_list_order(tid, "custom:XX")
    # a look-up along the order: the club list first, then the national one
    assert [p.source for p in lists.find("smirnov", lists=lists.tournament_lists(tid))] == [
        "club:K1",
        "RUS:A-7",
    ]
    lists.add_player(tid, "RUS", "4101", club="Kazan CC")
    lists.add_player(tid, "RUS", "4102")  # FIDE id 24101605: FIDE's rating too
    ratings.add_player(tid, 1503014)  # in FIDE's lists, in no custom list
    ratings.add_player(tid, 24101605)  # FIDE's player whom the national list names
    assert entries(service, tid) == [
        ("Петров, Иван", None, 2105, "RUS:4101"),
        ("Ivanova, Anna", 1950, 1950, "RUS:4102"),
        ("Carlsen, Magnus", 2831, None, "fide-standard:1503014"),
        ("Ivanova, Anna", 1950, 1950, "fide-standard:24101605"),
    ]
    with service.store.reading() as session:  # the club given at registration is kept
        assert session.query(EntryRow).filter_by(tournament_id=tid, number=1).one().club == (
            "Kazan CC"
        )
    # the rating method NRO ranks by the national rating the custom list gave
    service.draw_lots(tid, LotsMethod.RATING)
    ranked = sorted(service.tournament(tid).players, key=lambda p: p.start)
    assert [(p.name, p.rating) for p in ranked] == [
        ("Петров, Иван", 2105),
        ("Ivanova, Anna", 1950),
        ("Ivanova, Anna", 1950),
        ("Carlsen, Magnus", None),
    ]


def test_r_b_1_q134_a_newer_list_updates_the_national_ratings(
    service: Service, tmp_path: Path
) -> None:
    lists = imported(service, tmp_path)
    tid = service.create_tournament(Regulations(name="Club", time_control="15+10")).tournament_id
    lists.add_player(tid, "RUS", "A-7")
    lists.add_player(tid, "RUS", "4101")
    assert [e[2] for e in entries(service, tid)] == [1800, 2105]  # rapid, else standard
    newer = "NatID;FIO;Rating;Rapid\nA-7;Smirnov, Oleg;1720;1850\n4101;Петров, Иван;2100;\n"
    lists.import_file(write(tmp_path, newer, "rus3.csv"), "RUS", columns=parse_columns(SHORT))
    change = RatingLists(service).update_ratings(tid)
    assert "(RUS:A-7) 1800 → 1850" in str(change.summary)
    assert [e[2] for e in entries(service, tid)] == [1850, 2100]
    service.undo(tid)
    assert [e[2] for e in entries(service, tid)] == [1800, 2105]


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    st.dictionaries(
        st.from_regex(r"[0-9A-Za-z][0-9A-Za-z._/-]{0,19}", fullmatch=True),
        st.tuples(
            st.text(st.characters(categories=("L", "Nd", "Zs")), min_size=1, max_size=30).filter(
                lambda t: t.strip() and ";" not in t
            ),
            st.none() | st.integers(1, 3500),
        ),
        max_size=25,
    )
)
def test_r_b_1_q117_import_then_look_up_finds_every_player_by_their_list_id(
    service: Service, tmp_path: Path, players: dict[str, tuple[str, int | None]]
) -> None:
    text = "id;name;rating\n" + "".join(
        f"{key};{name};{'' if rating is None else rating}\n"
        for key, (name, rating) in players.items()
    )
    lists = CustomLists(service)
    report = lists.import_file(write(tmp_path, text, "prop.csv"), "prop")
    assert report.skipped == 0 and lists.info("prop").players == len(players)
    for key, (name, rating) in players.items():
        found = lists.player("prop", key)
        assert (found.name, found.standard) == (" ".join(name.split()), rating or None)
        assert key in [p.player_id for p in lists.find(key, lists=["prop"], limit=50)]


# -- the command line ------------------------------------------------------------------


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_r_b_1_q117_the_command_line_imports_lists_finds_adds_and_deletes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "t.db")
    path = write(tmp_path, NATIONAL + "X;Bad;99999;;;;;\n")
    code, out, err = run(
        capsys,
        "ratinglist",
        "import",
        str(path),
        "--custom",
        "RUS",
        "--columns",
        COLUMNS,
        "--db",
        db,
    )
    assert code == 0, err
    assert "3 players imported" in out and "3 players in the custom list RUS" in out
    assert "rus.csv:5: standard rating: '99999'" in err
    code, out, _ = run(capsys, "ratinglist", "lists", "--format", "json", "--db", db)
    assert [c["name"] for c in json.loads(out)["custom"]] == ["RUS"]
    code, out, _ = run(
        capsys, "ratinglist", "find", "A-7", "--list", "RUS", "--format", "json", "--db", db
    )
    assert [p["source"] for p in json.loads(out)] == ["RUS:A-7"]
    run(capsys, "new", "Club", "--db", db)
    code, out, err = run(capsys, "ratinglist", "order", "custom:RUS,standard", "--db", db)
    assert code == 0 and "custom:RUS,standard" in out, err
    code, out, err = run(capsys, "ratinglist", "add", "RUS:4101", "--db", db)
    assert code == 0 and "Петров, Иван registered" in out, err
    code, _, err = run(capsys, "ratinglist", "add", "RUS:nobody", "--db", db)
    assert code == 2 and "nobody is not in the custom rating list RUS" in err
    code, _, err = run(capsys, "ratinglist", "add", "RUS", "--db", db)
    assert code == 2 and "LIST:ID" in err
    code, _, err = run(capsys, "ratinglist", "import", str(path), "--columns", "id=x", "--db", db)
    assert code == 2 and "--custom NAME" in err
    code, _, err = run(
        capsys,
        "ratinglist",
        "import",
        str(path),
        "--custom",
        "RUS",
        "--columns",
        "colour=x",
        "--db",
        db,
    )
    assert code == 2 and "write field=header" in err
    code, out, _ = run(capsys, "ratinglist", "delete", "RUS", "--db", db)
    assert code == 0 and "custom list RUS deleted (3 players)" in out
    code, _, err = run(capsys, "ratinglist", "delete", "RUS", "--db", db)
    assert code == 2 and "there is no custom rating list RUS" in err


def test_r_b_1_q117_a_source_is_written_list_colon_id() -> None:
    assert parse_source(" club : K1 ") == ("club", "K1")
    with pytest.raises(CrosstableError, match="LIST:ID"):
        parse_source("club")
    assert parse_order("custom:RUS")[0] == CustomList("RUS")
    with pytest.raises(RuleError, match="rating lists"):
        parse_order("custom:")


def test_r_b_1_q117_a_zip_of_two_lists_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "two.zip"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("a.csv", NATIONAL)
        archive.writestr("b.csv", NATIONAL)
    with pytest.raises(InputError, match=r"one readable \.csv list"):
        list(read_custom_list(path, ListReport(str(path))))


def test_r_b_1_q117_an_id_repeated_far_apart_is_refused_by_the_store(
    service: Service, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The reader remembers only the last lines' ids (bounded memory); an id repeated
    farther apart is refused when its batch is written, and nothing changes."""
    monkeypatch.setattr("crosstable.formats.custom_list.RECENT", 2)
    monkeypatch.setattr("crosstable.service.custom_lists.BATCH", 2)
    lists = CustomLists(service)
    lists.import_file(write(tmp_path, "id,name\nK1,Old One\n", "old.csv"), "club")
    text = "id,name\nK1,A\nK2,B\nK3,C\nK4,D\nK1,E\n"
    with pytest.raises(InputError, match="list id K1 is in the list twice"):
        lists.import_file(write(tmp_path, text, "club.csv"), "club")
    assert [(c.file, c.players) for c in lists.lists()] == [("old.csv", 1)]
    assert lists.player("club", "K1").name == "Old One"
    with service.store.reading() as session:  # the refused import left no rows behind
        assert session.query(CustomListPlayerRow).count() == 1


def test_r_b_1_q117_two_imports_of_one_list_at_once_leave_one_current(
    service: Service, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two imports of one name flipping at once: the later one's first read misses the
    other's current list (committed meanwhile); it is refused, its rows go, and the
    other stays the one current list."""
    lists = CustomLists(service)
    read_current = CustomLists._current_ids
    calls: list[int] = []

    def racing(self: CustomLists, session: Any, name: str) -> list[int]:
        calls.append(1)
        if len(calls) == 1:  # the flip's first read, before the other import commits
            monkeypatch.setattr(CustomLists, "_current_ids", read_current)
            other = write(tmp_path, "id,name\nK9,Other Import\n", "other.csv")
            CustomLists(make_service(service.store)).import_file(other, "club")
            return []
        return read_current(self, session, name)

    if service.store.dialect == "sqlite":  # one writer at a time: the later import wins
        lists.import_file(write(tmp_path, "id,name\nK9,Other Import\n", "other.csv"), "club")
        lists.import_file(write(tmp_path, "id,name\nK1,A\n", "club.csv"), "club")
        assert [(c.file, c.players) for c in lists.lists()] == [("club.csv", 1)]
    else:
        monkeypatch.setattr(CustomLists, "_current_ids", racing)
        with pytest.raises(ConflictError, match="another import of the custom list club"):
            lists.import_file(write(tmp_path, "id,name\nK1,A\n", "club.csv"), "club")
        assert [(c.file, c.players) for c in lists.lists()] == [("other.csv", 1)]
    with service.store.reading() as session:
        assert session.query(CustomListPlayerRow).count() == 1


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(["K1", "K2", "K3", "K4", "K5", "K6"]), max_size=14))
def test_r_b_1_q117_the_reader_names_an_id_repeated_within_its_window(ids: list[str]) -> None:
    """The reader refuses an id repeated within the last RECENT players (whatever the
    batches) and no other: the definitional check looks back over the ids read."""
    window = 3
    first = next((j for j, i in enumerate(ids) if i in ids[max(0, j - window) : j]), None)
    text = "id,name\n" + "".join(f"{i},Player {n}\n" for n, i in enumerate(ids))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("crosstable.formats.custom_list.RECENT", window)
        stream = io.BytesIO(text.encode())
        if first is None:
            assert [p.list_id for p in read_csv(stream, ListReport("x"))] == ids
        else:
            with pytest.raises(InputError, match=f"list id {ids[first]} is on line") as caught:
                list(read_csv(stream, ListReport("x")))
            assert caught.value.line == first + 2


def test_r_b_1_q117_an_id_repeated_within_one_batch_is_named(
    service: Service, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A batch larger than the reader's window: the repeated id is still the one named."""
    monkeypatch.setattr("crosstable.formats.custom_list.RECENT", 2)
    monkeypatch.setattr("crosstable.service.custom_lists.BATCH", 4)
    text = "id,name\nK1,A\nK2,B\nK3,C\nK2,D\n"
    with pytest.raises(InputError, match="list id K2 is on line 3 and again here"):
        CustomLists(service).import_file(write(tmp_path, text, "club.csv"), "club")
    assert CustomLists(service).lists() == []
