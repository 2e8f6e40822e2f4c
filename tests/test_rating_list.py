"""Rating lists (issue 16 item 1): FIDE's TXT and XML lists and a national CSV are read,
stored, looked up, and fill and update a tournament's players."""

# ruff: noqa: F811 - pytest fixtures imported from test_service_support
from __future__ import annotations

import zipfile
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from test_service_support import db_url, registered, service, started, store  # noqa: F401

from crosstable.core.errors import CrosstableError, InputError, RuleError
from crosstable.core.ratings import RatingType
from crosstable.formats.rating_list import ListedPlayer, ListReport, read_rating_list
from crosstable.formats.rating_list_write import fide_txt_header, fide_txt_line
from crosstable.service import Regulations, Service
from crosstable.service.rating_lists import RatingLists
from crosstable.store import Store
from crosstable.store.models import Base
from crosstable.store.rating_list_models import RatingListPlayerRow
from tests.rating_list_files import PLAYERS, fide_txt, fide_xml, national_csv, zipped


def read(path: Path, **options: str) -> tuple[list[ListedPlayer], ListReport]:
    report = ListReport(str(path))
    return list(read_rating_list(path, report, **options)), report


# -- the readers -----------------------------------------------------------------------


def test_the_combined_txt_list_in_fides_layout(tmp_path: Path) -> None:
    path = tmp_path / "players_list_foa.txt"
    path.write_text(fide_txt())
    players, report = read(path)
    assert players == list(PLAYERS)
    assert (report.format, report.players, report.skipped) == ("txt", 5, 0)
    # the columns FIDE documents, 0-based: ID 0, Name 15, Fed 76, Sex 80, Tit 84, SRtng 113
    line = path.read_text().splitlines()[1]
    assert line[:15].rstrip() == "1503014" and line[76:79] == "NOR" and line[80] == "M"
    assert line[84:86] == "GM" and line[113:117] == "2831" and line[152:156] == "1990"


def test_zipped_txt_xml_and_csv_read_the_same_players(tmp_path: Path) -> None:
    txt = zipped(tmp_path, "players_list.zip", "players_list_foa.txt", fide_txt())
    xml = zipped(tmp_path, "players_list_xml.zip", "players_list_xml_foa.xml", fide_xml())
    plain_xml = tmp_path / "list.xml"
    plain_xml.write_text(fide_xml())
    csv = tmp_path / "national.csv"
    csv.write_text(national_csv())
    for path, kind in ((txt, "txt"), (xml, "xml"), (plain_xml, "xml"), (csv, "csv")):
        players, report = read(path)
        assert players == list(PLAYERS), path
        assert report.format == kind and report.skipped == 0


def test_a_single_type_list_fills_its_own_rating(tmp_path: Path) -> None:
    """standard/rapid/blitz_rating_list.txt: one rating column headed by the month."""
    header = (
        "ID Number      Name                                                         "
        "Fed Sex Tit  WTit OTit           FOA DEC26 Gms  K  B-day Flag"
    )
    row = (
        "1503014        Carlsen, Magnus                                              "
        "NOR M   GM                           2823  10   20  1990"
    )
    assert header.index("DEC26") == row.index("2823")
    path = zipped(tmp_path, "rapid_rating_list.zip", "rapid_rating_list.txt", f"{header}\n{row}\n")
    (player,), _ = read(path)
    assert (player.rapid, player.standard, player.blitz) == (2823, None, None)
    xml = tmp_path / "blitz_rating_list.xml"
    xml.write_text(
        "<playerslist><player><fideid>7</fideid><name>A, B</name><rating>2001</rating>"
        "</player></playerslist>"
    )
    (player,), _ = read(xml)
    assert (player.blitz, player.standard) == (2001, None)


def test_latin1_names_of_fides_txt_are_read(tmp_path: Path) -> None:
    path = tmp_path / "players_list_foa.txt"
    player = ListedPlayer(4600002, "Müller, Jörg", "GER", "m", "", None, 2100)
    path.write_bytes((fide_txt_header() + "\n" + fide_txt_line(player) + "\n").encode("latin-1"))
    assert read(path)[0] == [player]


def test_bad_lines_are_skipped_and_reported_with_file_line_and_field(tmp_path: Path) -> None:
    lines = fide_txt().splitlines()
    lines[2] = lines[2][:113] + "2x05" + lines[2][117:]  # Caruana's standard rating
    lines[3] = lines[3][:15] + " " * 61 + lines[3][76:]  # Hou's name gone
    lines.insert(4, "9" * 600)
    path = tmp_path / "players_list_foa.txt"
    path.write_text("\n".join(lines) + "\n")
    players, report = read(path)
    assert [p.fide_id for p in players] == [1503014, 4100018, 24101605]
    said = [str(p) for p in report.problems]
    assert said == [
        f"{path}:3: standard rating: '2x05' is not a number from 0 to 3500",
        f"{path}:4: name: missing",
        f"{path}:5: the line is longer than 400 characters",
    ]


def test_csv_needs_the_id_and_name_columns(tmp_path: Path) -> None:
    path = tmp_path / "club.csv"
    path.write_text("Surname,Rating\nIvanov,2000\n")
    with pytest.raises(InputError, match=r"club.csv:1: the header row needs the columns fide_id"):
        read(path)
    path.write_text('fide_id,name,rating\n1,"A, B",2000\nx,C,1\n')
    players, report = read(path)
    assert players == [ListedPlayer(1, "A, B", standard=2000)]
    assert [str(p) for p in report.problems] == [
        f"{path}:3: FIDE id: 'x' is not a number from 1 to 999999999999"
    ]


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ('<!DOCTYPE x [<!ENTITY a "aaaa">]><playerslist/>', "declares a document type"),
        ("<playerslist><player><name>&a;</name></player></playerslist>", "not well-formed"),
        ("<playerslist><player>", "not well-formed"),
    ],
)
def test_xml_with_entities_or_broken_is_refused(tmp_path: Path, text: str, said: str) -> None:
    path = tmp_path / "list.xml"
    path.write_text(text)
    with pytest.raises(InputError, match=said):
        read(path)


def test_an_archive_must_hold_one_list_and_be_bounded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "two.zip"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("a.txt", fide_txt())
        archive.writestr("b.txt", fide_txt())
    with pytest.raises(
        InputError, match=r"should hold one \.txt, \.xml or \.csv rating list, it holds 2"
    ):
        read(path)
    import crosstable.formats.rating_list as module

    monkeypatch.setattr(module, "MAX_FILE_BYTES", 300)
    bomb = zipped(tmp_path, "players_list.zip", "players_list_foa.txt", fide_txt())
    with pytest.raises(InputError, match="larger than"):
        read(bomb)
    monkeypatch.setattr(module, "MAX_PLAYERS", 2)
    monkeypatch.setattr(module, "MAX_FILE_BYTES", 10**6)
    with pytest.raises(InputError, match="more than 2 players"):
        read(bomb)


def test_too_many_bad_lines_refuse_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import crosstable.formats.rating_list as module

    monkeypatch.setattr(module, "MAX_PROBLEMS", 3)
    path = tmp_path / "x.txt"
    path.write_text(fide_txt_header() + "\n" + "junk\n" * 10)
    with pytest.raises(InputError, match="more than 3 bad lines"):
        read(path)


# -- the store and the service ---------------------------------------------------------


def test_the_migration_matches_the_model(store: Store) -> None:
    with store.engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        diffs = [
            d for d in compare_metadata(context, Base.metadata) if "rating_list_players" in repr(d)
        ]
    assert diffs == []
    assert RatingListPlayerRow.__tablename__ in Base.metadata.tables


def test_import_upserts_and_finds_by_id_and_name_prefix(service: Service, tmp_path: Path) -> None:
    lists = RatingLists(service)
    path = zipped(tmp_path, "players_list.zip", "players_list_foa.txt", fide_txt())
    report = lists.import_file(path)
    assert (report.players, report.skipped, report.total) == (5, 0, 5)
    assert [p.name for p in lists.find("car")] == ["Carlsen, Magnus", "Caruana, Fabiano"]
    assert [p.name for p in lists.find("  CARLSEN,   m")] == ["Carlsen, Magnus"]
    assert [p.name for p in lists.find("ciric")] == ["Ćirić, Dragoljub"]  # accents do not matter
    assert [p.fide_id for p in lists.find("13300474")] == [13300474]
    assert lists.find("100%") == [] and lists.find("car_") == [] and lists.find("") == []
    # a newer list: Carlsen's rating changes, a new player comes, nobody is lost; a FIDE id
    # twice in one list: its last line wins
    newer = (
        ListedPlayer(1503014, "Carlsen, Magnus", "NOR", "m", "GM", 1990, 2800),
        ListedPlayer(1503014, "Carlsen, Magnus", "NOR", "m", "GM", 1990, 2839),
        ListedPlayer(7, "Carlsson, Ann", "SWE", "w", "", 2001, 1800),
    )
    csv = tmp_path / "national.csv"
    csv.write_text(national_csv(newer).replace(";;", ";0;"))
    assert lists.import_file(csv).total == 6
    carlsen = lists.player(1503014)
    assert (carlsen.standard, carlsen.rapid, carlsen.list_name) == (2839, None, "national.csv")
    assert [p.name for p in lists.find("carls")] == ["Carlsen, Magnus", "Carlsson, Ann"]


def test_a_refused_file_changes_nothing(service: Service, tmp_path: Path) -> None:
    lists = RatingLists(service)
    lists.import_file(zipped(tmp_path, "a.zip", "players_list_foa.txt", fide_txt()))
    broken = tmp_path / "broken.xml"
    broken.write_text(fide_xml().replace("</playerslist>", "<player><fideid>5"))
    with pytest.raises(InputError, match="not well-formed"):
        lists.import_file(broken)
    assert len(lists.find("ca")) == 2  # still the first list, and nothing of the broken one
    with pytest.raises(CrosstableError, match="FIDE id 5 is not in the imported rating lists"):
        lists.player(5)


def test_a_player_added_by_fide_id_gets_the_events_rating(service: Service, tmp_path: Path) -> None:
    lists = RatingLists(service)
    lists.import_file(zipped(tmp_path, "players_list.zip", "players_list_foa.txt", fide_txt()))
    classic = service.create_tournament(
        Regulations(name="Classic", time_control="90+30")
    ).tournament_id
    rapid = service.create_tournament(Regulations(name="Rapid", time_control="15+10")).tournament_id
    plain = service.create_tournament(Regulations(name="Club")).tournament_id
    assert lists.rating_type(classic) is RatingType.STANDARD
    assert lists.rating_type(rapid) is RatingType.RAPID
    assert lists.rating_type(plain) is RatingType.STANDARD
    lists.add_player(classic, 13300474)
    lists.add_player(rapid, 13300474)
    lists.add_player(rapid, 1503014)
    hou = service.player_details(classic)[1]
    assert (hou.name, hou.rating, hou.title, hou.federation, hou.birth_date, hou.sex) == (
        "Hou, Yifan",
        2633,
        "GM",
        "CHN",
        "1994",
        "w",
    )
    assert hou.fide_id == "13300474"
    assert service.player_details(rapid)[1].rating == 2633  # no rapid rating: the standard one
    assert service.player_details(rapid)[2].rating == 2823


def test_update_ratings_before_the_start_is_recorded_and_refused_after(
    service: Service, tmp_path: Path
) -> None:
    lists = RatingLists(service)
    lists.import_file(zipped(tmp_path, "players_list.zip", "players_list_foa.txt", fide_txt()))
    tid = service.create_tournament(Regulations(name="Club")).tournament_id
    from crosstable.service import PlayerInfo

    service.add_player(tid, PlayerInfo("Carlsen, Magnus", 2700, fide_id="1503014"))
    service.add_player(tid, PlayerInfo("A guest", 1500))
    lists.add_player(tid, 2020009)
    change = lists.update_ratings(tid)
    assert change.kind == "ratings-update"
    assert change.summary == (
        "standard ratings updated from the rating list: 1 Carlsen, Magnus 2700 → 2831"
    )
    assert change.data["not_listed"] == [2]
    assert service.player_details(tid)[1].rating == 2831
    again = lists.update_ratings(tid)
    assert again.replayed
    service.undo(tid)
    assert service.player_details(tid)[1].rating == 2700
    service.draw_lots(tid, seed=3)
    service.start(tid)
    with pytest.raises(RuleError, match="the tournament has started"):
        lists.update_ratings(tid)


def test_an_encrypted_archive_is_refused_with_a_message(tmp_path: Path) -> None:
    path = zipped(tmp_path, "players_list.zip", "players_list_foa.txt", fide_txt())
    data = bytearray(path.read_bytes())
    data[6] |= 1  # the local header's "encrypted" flag
    central = data.find(b"PK\x01\x02")
    data[central + 8] |= 1  # and the central directory's
    path.write_bytes(bytes(data))
    with pytest.raises(
        InputError, match=r"players_list_foa.txt: the list in the archive is encrypted"
    ):
        read(path)
