"""A tournament created with its first players is refused, with nothing stored, when its
regulations cannot seat them — through the service itself, as through the wizard and
the API: more players than a knockout's capacity, or a round-robin field that the
chosen table does not have (the Crenshaw-Berger tables' 5 and 6) (SQLite and
PostgreSQL)."""

# ruff: noqa: F811 - pytest fixtures imported from test_service_support

from __future__ import annotations

import pytest
from test_service_support import db_url, service, store  # noqa: F401

from crosstable.core.errors import RuleError
from crosstable.core.model import System
from crosstable.service import PlayerInfo, Regulations, Service


def _players(count: int) -> list[PlayerInfo]:
    return [PlayerInfo(f"Player {n}") for n in range(1, count + 1)]


@pytest.mark.parametrize(
    ("system", "details", "count", "says"),
    [
        (System.KNOCKOUT, {"capacity": "4"}, 5, "5 players are more than the field"),
        (System.ROUND_ROBIN, {"schedule": "crenshaw"}, 5, "table for 5 players is not published"),
        (System.ROUND_ROBIN, {"schedule": "crenshaw"}, 6, "table for 6 players is not published"),
    ],
)
def test_r_ko_1_r_x_14_first_players_the_regulations_cannot_seat_are_refused(
    service: Service, system: System, details: dict[str, str], count: int, says: str
) -> None:
    regulations = Regulations(name="Club", system=system, details=details)
    with pytest.raises(RuleError, match=says):
        service.create_tournament(regulations, players=_players(count))
    assert service.tournaments() == []
    made = service.create_tournament(regulations, players=_players(4))
    assert len(service.overview(made.tournament_id).players) == 4
