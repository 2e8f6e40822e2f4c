"""Events longer than 30 days through the service: the flag in the regulations, later
ratings entered by round, the tie-break rating choice and the level-2 advice against
rating-based tie-breaks (FIDE checklist Q210–216), on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from crosstable.core.errors import RuleError
from crosstable.core.model import LotsMethod
from crosstable.core.tiebreaks import REGISTRY, compile_field, parse_code
from crosstable.service import Service
from crosstable.service.long_event_settings import parse_ratings, ratings_text
from crosstable.service.warning_levels import ConfirmationNeeded, Level
from tests.test_service_support import db_url, registered, started, store  # noqa: F401
from tests.test_service_support import service as service

LONG = {"long_event": "yes"}


def aro(service: Service, tid: int) -> list[object]:
    f = compile_field(service.tournament(tid))
    column = REGISTRY["ARO"].compute(f, parse_code("ARO"))
    return [column.natural(p) for p in range(f.n)]


def test_r_fide_q210_without_the_flag_ratings_by_round_are_refused(service: Service) -> None:
    tid = started(service, 4)
    with pytest.raises(RuleError, match="longer than 30 days"):
        service.set_round_rating(tid, 2, 2, 2100)
    assert not service.tournament(tid).settings.long_event


def test_r_fide_q212_q215_later_ratings_reach_the_tiebreaks(service: Service) -> None:
    tid = started(service, 4, details=LONG | {"tiebreak_ratings": "per round"})
    settings = service.tournament(tid).settings
    assert settings.long_event and settings.ratings_per_round
    # ratings 2000, 2001, 2002, 2003; round 1: 1-4, 2-3; round 2: 4-3, 1-2 (Berger)
    for board in (1, 2):
        service.record_result(tid, 1, board, "1/2-1/2")
    service.set_round_rating(tid, 2, 2, 2101)
    player = service.tournament(tid).players[1]
    assert player.round_ratings == ((2, 2101),) and player.rating_in(2) == 2101
    games = {g.black: g.white for g in service.tournament(tid).rounds[1].games}
    games |= {w: b for b, w in games.items()}
    for board in (1, 2):
        service.record_result(tid, 2, board, "1/2-1/2")
    opponent_of_1 = games[1]
    assert opponent_of_1 == 2  # player 1 meets player 2 in round 2: 2101, not 2001
    assert aro(service, tid)[0] == (2003 + 2101 + 1) // 2  # (2003 + 2101) / 2 = 2052
    service.edit_regulations(tid, detail_changes={"tiebreak_ratings": "first"})
    assert aro(service, tid)[0] == (2003 + 2001 + 1) // 2
    service.set_round_rating(tid, 2, 2, None)
    assert service.tournament(tid).players[1].round_ratings == ()
    with pytest.raises(RuleError, match="no rating from round 2"):
        service.set_round_rating(tid, 2, 2, None)


def test_r_fide_q213_a_later_rating_is_for_round_2_on_and_in_range(service: Service) -> None:
    tid = started(service, 4, details=LONG)
    with pytest.raises(RuleError, match="round 2 or later"):
        service.set_round_rating(tid, 1, 1, 2100)
    with pytest.raises(RuleError, match="out of range"):
        service.set_round_rating(tid, 1, 2, 99999)
    with pytest.raises(RuleError, match="no player 9"):
        service.set_round_rating(tid, 9, 2, 2100)
    revision = service.revision(tid)
    with pytest.raises(RuleError, match="more than 30 days is yes or no"):
        service.edit_regulations(tid, detail_changes={"long_event": "maybe"})
    with pytest.raises(RuleError, match="first or per round"):
        service.edit_regulations(tid, detail_changes={"tiebreak_ratings": "last"})
    assert service.revision(tid) == revision


def test_r_fide_q211_rating_tiebreaks_in_a_long_event_take_a_level_2_notice(
    service: Service,
) -> None:
    tid = registered(service, 4, details=LONG)
    with pytest.raises(ConfirmationNeeded) as asked:
        service.edit_regulations(tid, tiebreaks=("SB", "ARO"))
    assert asked.value.level == Level.ACKNOWLEDGE
    assert "advises against rating-based tie-breaks (ARO)" in str(asked.value.as_json())
    service.edit_regulations(tid, tiebreaks=("SB", "ARO"), confirm=asked.value.token)
    assert service.tournament(tid).settings.tiebreaks == ("SB", "ARO")
    # other tie-breaks, or a short event: no notice
    service.edit_regulations(tid, tiebreaks=("SB", "DE"))
    service.draw_lots(tid, LotsMethod.MANUAL, order=(1, 2, 3, 4))
    service.start(tid)
    assert "rating-based tie-breaks in an event over 30 days: SB" not in (
        trf := service.export_trf(tid)
    )
    assert (
        "### Configuration @ Round 0: rating-based tie-breaks in an event over 30 days: ARO" in trf
    )
    short = registered(service, 4)
    service.edit_regulations(short, tiebreaks=("SB", "ARO"))


def test_r_fide_q212_the_round_ratings_survive_a_regulations_edit(service: Service) -> None:
    tid = started(service, 4, details=LONG)
    service.set_round_rating(tid, 3, 2, 1950)
    service.edit_regulations(tid, detail_changes={"venue": "Club hall"})
    assert service.tournament(tid).players[2].round_ratings == ((2, 1950),)
    service.undo(tid)
    service.undo(tid)
    assert service.tournament(tid).players[2].round_ratings == ()


@given(
    st.dictionaries(
        st.integers(1, 999),
        st.dictionaries(st.integers(2, 99), st.integers(100, 4000), min_size=1, max_size=4),
        max_size=5,
    )
)
def test_r_fide_q212_the_stored_form_reads_back(ratings: dict[int, dict[int, int]]) -> None:
    value = {n: tuple(sorted(by.items())) for n, by in ratings.items()}
    assert parse_ratings(ratings_text(value)) == dict(sorted(value.items()))


@given(st.text(max_size=60))
def test_r_fide_q212_any_stored_text_reads_or_is_refused_clearly(text: str) -> None:
    try:
        parse_ratings(text)
    except RuleError as error:
        assert "ratings by round" in str(error)


def test_r_fide_q212_a_stored_text_past_its_bound_is_refused_before_it_is_read() -> None:
    with pytest.raises(RuleError, match="at most 100000 characters"):
        parse_ratings("2:3=1905;" * 20_000)
    assert parse_ratings("2:3=1905;" * 100) == {2: ((3, 1905),)}
