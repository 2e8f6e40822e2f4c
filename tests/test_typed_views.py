"""The tournament's settings as shown are typed values; the JSON API and readers by key
see the same JSON as before."""
# ruff: noqa: F811 - pytest fixtures imported from test_service_support

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_service_support import db_url, service, store  # noqa: F401

from crosstable.core.model import System
from crosstable.core.regulations import RegulationDetails
from crosstable.core.scoring import PointSystem
from crosstable.core.system_settings import SwissSettings
from crosstable.service import Regulations, Service
from crosstable.service.views import PointsShown, TournamentSettings


def test_settings_are_typed_and_read_by_key_as_json(service: Service) -> None:
    made = service.create_tournament(
        Regulations(
            name="Open",
            system=System.SWISS_DUTCH,
            rounds=5,
            tiebreaks=("BH/C1", "SB"),
            point_system=PointSystem(win=Fraction(3), draw=Fraction(1)),
            details={"venue": "Yerevan", "initial_colour": "white", "prize_fund": "500"},
        )
    )
    settings = service.overview(made.tournament_id).settings
    assert isinstance(settings, TournamentSettings)
    assert settings.system == "dutch" and settings.tiebreaks == ("BH/C1", "SB")
    assert settings.point_system.win == "3" and settings.point_system.draw == "1"
    regulations = settings.regulations
    assert isinstance(regulations, RegulationDetails)
    assert regulations.venue == "Yerevan" and regulations.free == {"prize_fund": "500"}
    assert regulations.system_settings(System.SWISS_DUTCH) == SwissSettings.from_details(
        {"initial_colour": "white"}
    )
    shown = settings.as_json()
    assert {key: settings[key] for key in settings} == shown
    assert shown["tiebreaks"] == ["BH/C1", "SB"] and shown["regulations"] == regulations
    assert json.loads(json.dumps(shown)) == shown
    with pytest.raises(TypeError, match="read-only"):
        regulations["venue"] = "Gyumri"
    with pytest.raises(KeyError):
        settings["venue"]


@given(
    values=st.lists(
        st.one_of(st.none(), st.sampled_from(["0", "1", "1/2", "3", "2"])), min_size=9, max_size=9
    )
)
def test_points_shown_keep_the_stored_json(values: list[str | None]) -> None:
    names = (
        "win",
        "draw",
        "loss",
        "forfeit_win",
        "forfeit_loss",
        "pairing_bye",
        "full_bye",
        "half_bye",
        "zero_bye",
    )
    stored = dict(zip(names, values, strict=True))
    for name, default in (("win", "1"), ("draw", "1/2"), ("loss", "0"), ("zero_bye", "0")):
        stored[name] = stored[name] or default
    assert PointsShown.from_json(stored).as_json() == stored


@given(st.dictionaries(st.text(max_size=12), st.text(max_size=12), max_size=6))
def test_regulation_details_keep_everything(details: dict[str, str]) -> None:
    read = RegulationDetails(details)
    assert read == details and read.as_json() == details and dict(read) == details
    assert set(read.free) <= set(details)
    assert read.venue == details.get("venue", "").strip()
    assert read.ties in ("shared", details.get("ties", "").strip().lower())
