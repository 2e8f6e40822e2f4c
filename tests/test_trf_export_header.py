# ruff: noqa: F811 - pytest fixtures imported from test_service_support
"""A stored tournament's TRF is complete enough for a rating officer and round-trips
(issue 15 item 3), and a round still being played keeps its fields' width (item 13)."""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_service_support import db_url, make_service, migrated, service, store  # noqa: F401

from crosstable.core.model import LotsMethod, System
from crosstable.formats.trf import parse_trf
from crosstable.service import PlayerInfo, Regulations, Service
from crosstable.store import open_store

DETAILS = {
    "venue": "Yerevan",
    "federation": "ARM",
    "arbiter": "Ashot Arbiter",
    "deputy_arbiter": "Boris Deputy\nClara Deputy",
}


def _tournament(
    service: Service,
    *,
    players: list[PlayerInfo],
    details: dict[str, str],
    time_control: str = "",
    dates: tuple[dt.date, dt.date] | None = None,
    system: System = System.ROUND_ROBIN,
    results: int = 0,
    seed: int = 0,
) -> int:
    created = service.create_tournament(
        Regulations(
            name="Championship",
            system=system,
            details=dict(details),
            time_control=time_control,
            start_date=dates[0] if dates else None,
            end_date=dates[1] if dates else None,
        )
    )
    tid = created.tournament_id
    for player in players:
        service.add_player(tid, player)
    service.draw_lots(tid, LotsMethod.MANUAL, order=tuple(range(1, len(players) + 1)))
    service.start(tid)
    chooser = random.Random(seed)
    for game in service.overview(tid).games[:results]:
        service.record_result(tid, game.round, game.board, chooser.choice(["1-0", "½-½", "0-1"]))
    return tid


def _players(count: int) -> list[PlayerInfo]:
    return [
        PlayerInfo(
            f"Player {n}",
            rating=None if n % 4 == 0 else 1800 + 10 * n,
            federation="ARM" if n % 2 else "RUS",
            fide_id=str(13300000 + n),
            birth_date=f"{1990 + n}/01/01",
            sex="m" if n % 3 else "w",
        )
        for n in range(1, count + 1)
    ]


def test_every_header_record_a_rating_officer_needs(service: Service) -> None:
    tid = _tournament(
        service,
        players=_players(6),
        details=DETAILS,
        time_control="90 min + 30 s",
        dates=(dt.date(2026, 12, 1), dt.date(2026, 12, 5)),
        results=3,
    )
    text = service.export_trf(tid)
    lines = {line[:3]: line[4:] for line in text.splitlines() if not line.startswith("001")}
    assert lines["012"] == "Championship"
    assert lines["022"] == "Yerevan"
    assert lines["032"] == "ARM"
    assert lines["042"] == "2026/12/01"
    assert lines["052"] == "2026/12/05"
    assert lines["062"] == "6"
    assert lines["072"] == "5"  # player 4 has no rating
    assert lines["092"] == "Individual: Round-Robin"
    assert lines["102"] == "Ashot Arbiter"
    assert [line for line in text.splitlines() if line.startswith("112")] == [
        "112 Boris Deputy",
        "112 Clara Deputy",
    ]
    assert lines["122"] == "90 min + 30 s"
    assert "082" not in lines  # not a team event
    trf16 = service.export_trf(tid, "trf16")
    assert "022 Yerevan" in trf16 and "102 Ashot Arbiter" in trf16


def test_a_round_being_played_keeps_the_width_of_its_fields(service: Service) -> None:
    tid = _tournament(service, players=_players(4), details={}, results=3)
    text = service.export_trf(tid)
    rows = [line for line in text.splitlines() if line.startswith("001")]
    # round 1 is written to the end of its field; round 2 (being played) and round 3 (not
    # begun) are left out: TRF-2026 allows no blank result code, pairing programs neither
    assert {len(line) for line in rows} == {91 + 8}
    doc = parse_trf(text)
    assert len(doc.tournament.rounds) == 1 and doc.tournament.settings.rounds == 3
    assert all(g.result is not None for g in doc.tournament.rounds[0].games)


@pytest.fixture(scope="module")
def two_services(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Service, Service]]:
    folder = tmp_path_factory.mktemp("trf-header")
    one = open_store(migrated(f"sqlite:///{folder}/one.db"))
    two = open_store(migrated(f"sqlite:///{folder}/two.db"))
    try:
        yield make_service(one), make_service(two)
    finally:
        one.close()
        two.close()


_TEXT = (
    st.text(
        alphabet=st.characters(
            codec="utf-8", categories=("L", "N", "Zs"), exclude_characters="\x85"
        ),
        min_size=1,
        max_size=30,
    )
    .map(str.strip)
    .filter(bool)
)


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    count=st.integers(3, 8),
    details=st.dictionaries(st.sampled_from(sorted(DETAILS)), _TEXT, max_size=4),
    time_control=st.sampled_from(["", "90+30", "G/25 d5", "15 min + 10 s"]),
    dated=st.booleans(),
    results=st.integers(0, 12),
    seed=st.integers(0, 100),
)
def test_export_import_export_is_byte_identical(
    two_services: tuple[Service, Service],
    count: int,
    details: dict[str, str],
    time_control: str,
    dated: bool,
    results: int,
    seed: int,
) -> None:
    source, target = two_services
    dates = (dt.date(2026, 3, 1), dt.date(2026, 3, 9)) if dated else None
    tid = _tournament(
        source,
        players=_players(count),
        details=details,
        time_control=time_control,
        dates=dates,
        results=results,
        seed=seed,
    )
    for edition in ("trf2026", "trf16"):
        first = source.export_trf(tid, edition)
        for tag, name in (("022", "venue"), ("032", "federation"), ("102", "arbiter")):
            assert (f"\n{tag} " in "\n" + first) == (name in details)
        parsed = parse_trf(first)
        copy = target.import_tournament(parsed.tournament, headers=parsed.headers).tournament_id
        assert target.export_trf(copy, edition) == first
        assert target.verify(copy) == []  # the rows are what the import's history says
