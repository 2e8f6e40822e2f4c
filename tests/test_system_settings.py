# ruff: noqa: F811 - pytest fixtures imported from test_service_support
"""Typed system settings (issue 14.2): one parser per system, misspelt settings refused,
and the wizard and ``crosstable new`` making the same regulations from the same choice."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_service_support import db_url, service, store  # noqa: F401

from crosstable.cli import main
from crosstable.core.errors import RuleError
from crosstable.core.model import Colour, System
from crosstable.core.pairing.knockout import BracketOrder, MatchFormat, TieRule
from crosstable.core.pairing.knockout_match import ROUND_KEYS
from crosstable.core.system_settings import (
    KnockoutSettings,
    RoundRobinSettings,
    ScheveningenSettings,
    SettingError,
    SwissSettings,
    settings_of,
)
from crosstable.service import Regulations, Service
from crosstable.web.routes.actions import WizardSpec

# -- round trips --------------------------------------------------------------------------

_GROUPS = st.lists(
    st.lists(st.integers(1, 500), min_size=2, max_size=4, unique=True).map(tuple),
    max_size=4,
).map(tuple)
SWISS = st.builds(
    SwissSettings,
    initial_colour=st.sampled_from([None, Colour.WHITE, Colour.BLACK]),
    forbidden=_GROUPS,
    baku=st.booleans(),
)
_FORMATS = st.builds(
    MatchFormat, st.integers(1, 4).map(lambda n: 2 * n), st.booleans()
) | st.integers(1, 7).map(MatchFormat)
_TIE_RULES = st.sampled_from(
    ["lower-rated", "lots", "playoff", "rapid:2,armageddon", "rapid:4,blitz:2,sudden-death"]
).map(TieRule.parse)
_ROUND_NAMES = st.sampled_from([*ROUND_KEYS, "round of 16", "round of 32"])
KNOCKOUT = st.builds(
    KnockoutSettings,
    match_format=_FORMATS,
    tie_rule=_TIE_RULES,
    bracket=st.sampled_from([BracketOrder.SEEDED, BracketOrder.RANDOM]),
    lots_seed=st.none() | st.integers(-(10**12), 10**12),
    round_formats=st.dictionaries(_ROUND_NAMES, _FORMATS, max_size=3).map(
        lambda d: tuple(d.items())
    ),
    third_place=st.booleans(),
)


@settings(max_examples=150, deadline=None)
@given(SWISS)
def test_swiss_settings_round_trip(value: SwissSettings) -> None:
    details = value.to_details()
    assert SwissSettings.from_details(details) == value
    assert all(isinstance(text, str) for text in details.values())


@settings(max_examples=150, deadline=None)
@given(KNOCKOUT, st.booleans())
def test_knockout_settings_round_trip(value: KnockoutSettings, complete: bool) -> None:
    details = value.to_details(complete=complete)
    assert KnockoutSettings.from_details(details) == value
    assert set(details) >= {"match_format", "tie_rule", "bracket"}


def test_the_stored_format_still_reads() -> None:
    """What a started knockout and Swiss recorded before the typed settings."""
    stored = {
        "match_format": "2",
        "tie_rule": "rapid:2,blitz:2,armageddon",
        "bracket": "random",
        "lots_seed": "12345",
        "round_formats": "final:4",
        "third_place": "yes",
        "venue": "Yerevan",
    }
    ko = KnockoutSettings.from_details(stored)
    assert ko.lots_seed == 12345 and ko.third_place and ko.bracket is BracketOrder.RANDOM
    assert ko.round_formats == (("final", MatchFormat(4)),)
    assert ko.to_details(complete=True) == {k: v for k, v in stored.items() if k != "venue"}
    swiss = SwissSettings.from_details({"initial_colour": "black", "forbidden": "1-2,3-4-5"})
    assert swiss.initial_colour is Colour.BLACK and swiss.forbidden == ((1, 2), (3, 4, 5))
    assert SwissSettings.from_details({}) == SwissSettings()
    assert KnockoutSettings.from_details({}) == KnockoutSettings()


# -- refusals -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cls", "details", "key", "message"),
    [
        (SwissSettings, {"initial_colour": "red"}, "initial_colour", "initial colour 'red': "),
        (SwissSettings, {"acceleration": "fast"}, "acceleration", "acceleration 'fast': "),
        (SwissSettings, {"forbidden": "1-x"}, "forbidden", "forbidden pairs '1-x': '1-x' is"),
        (SwissSettings, {"forbidden": "3-3"}, "forbidden", "'3-3' names one player"),
        (KnockoutSettings, {"match_format": "three"}, "match_format", "match_format 'three'"),
        (KnockoutSettings, {"tie_rule": "coin"}, "tie_rule", "regulations, tie_rule 'coin'"),
        (KnockoutSettings, {"bracket": "swiss"}, "bracket", "bracket 'swiss': use seeded"),
        (KnockoutSettings, {"lots_seed": "x1"}, "lots_seed", "lots_seed 'x1': not a whole"),
        (KnockoutSettings, {"round_formats": "finals:4"}, "round_formats", "unknown round"),
        (KnockoutSettings, {"third_place": "maybe"}, "third_place", "use yes or no"),
        # another system's setting
        (
            SwissSettings,
            {"tie_rule": "lots"},
            "tie_rule",
            "a setting of a knockout, not of a Swiss",
        ),
        (KnockoutSettings, {"forbidden": "1-2"}, "forbidden", "of a Swiss, not of a knockout"),
        (RoundRobinSettings, {"bracket": "seeded"}, "bracket", "not of a round robin"),
        (ScheveningenSettings, {"acceleration": "baku"}, "acceleration", "of a Scheveningen"),
        # a misspelt one
        (KnockoutSettings, {"tie_rules": "lots"}, "tie_rules", "(did you mean tie_rule?)"),
        (KnockoutSettings, {"Match_Format": "2"}, "Match_Format", "did you mean match_format"),
        (SwissSettings, {"initial_color": "white"}, "initial_color", "mean initial_colour?"),
        (RoundRobinSettings, {"thirdplace": "yes"}, "thirdplace", "did you mean third_place"),
    ],
)
def test_each_refusal_names_the_setting(
    cls: Any, details: dict[str, str], key: str, message: str
) -> None:
    with pytest.raises(SettingError, match=re.escape(message)) as e:
        cls.from_details(details)
    assert e.value.key == key
    assert key in str(e.value) or key.replace("_", " ") in str(e.value)


def test_details_that_are_not_settings_pass() -> None:
    """The regulations' other details — venue, TRF header, finish, battle chess, a group
    stage's links — are never taken for a misspelt setting."""
    others = {
        key: "x"
        for key in (
            "venue",
            "federation",
            "organiser",
            "arbiter",
            "deputy_arbiter",
            "finish",
            "venue_kind",
            "variant",
            "setup_minutes",
            "battle_seed",
            "stage_event",
            "stage",
            "stage_group",
            "stage_groups",
            "stage_qualifiers",
            "stage_name",
            "stage_seeds",
            "stage_lots_seed",
            "knockout_match_format",
            "knockout_tie_rule",
            "knockout_third_place",
            "time_control",
            "forfeits_in_tiebreaks",
        )
    }
    for system in System:
        settings_of(system, others)  # no refusal


def test_not_strict_reads_a_tournament_as_stored() -> None:
    assert SwissSettings.from_details({"tie_rule": "lots"}, strict=False) == SwissSettings()
    with pytest.raises(SettingError, match="initial colour 'red'"):
        SwissSettings.from_details({"initial_colour": "red"}, strict=False)  # values still


def test_a_misspelt_setting_is_refused_when_created_and_edited(service: Service) -> None:
    with pytest.raises(RuleError, match="tie_rules: not a setting of a knockout"):
        service.create_tournament(
            Regulations(name="K", system=System.KNOCKOUT, details={"tie_rules": "lots"})
        )
    with pytest.raises(RuleError, match="match_format: a setting of a knockout, not of a Swiss"):
        service.create_tournament(
            Regulations(name="S", system=System.SWISS_DUTCH, details={"match_format": "2"})
        )
    assert service.tournaments() == []
    tid = service.create_tournament(
        Regulations(name="K", system=System.KNOCKOUT, details={"venue": "Yerevan"})
    ).tournament_id
    with pytest.raises(RuleError, match="bracets: not a setting of a knockout"):
        service.edit_regulations(tid, details={"venue": "Yerevan", "bracets": "random"})
    assert service.overview(tid).settings["regulations"] == {"venue": "Yerevan"}


# -- one function for the wizard and the command line --------------------------------------


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("CROSSTABLE_ACTOR", "arbiter")
    monkeypatch.delenv("CROSSTABLE_DB", raising=False)
    return str(tmp_path / "club.db")


def _cli_regulations(capsys: pytest.CaptureFixture[str], db: str, *args: str) -> Any:
    capsys.readouterr()
    assert main(["new", "T", *args, "--db", db]) == 0, capsys.readouterr().err
    capsys.readouterr()
    assert main(["export", "--to", "json", "--db", db]) == 0
    return json.loads(capsys.readouterr().out)["tournament"]


@pytest.mark.parametrize(
    ("cli", "wizard"),
    [
        (["--system", "dutch"], {"format": "swiss"}),
        (
            ["--system", "dutch", "--rounds", "5", "--initial-colour", "Black"],
            {"format": "swiss", "rounds": 5, "initial_colour": "Black"},
        ),
        (["--system", "knockout"], {"format": "knockout"}),
        (
            ["--system", "knockout", "--match-format", "2-AT-ONCE", "--tie-rule", "Playoff"],
            {"format": "knockout", "match_format": "2-AT-ONCE", "tie_rule": "Playoff"},
        ),
        (
            ["--system", "knockout", "--bracket", "random", "--tie-rule", "lots"],
            {"format": "knockout", "bracket": "random", "tie_rule": "lots"},
        ),
        (["--system", "scheveningen"], {"format": "scheveningen"}),
        (["--system", "round-robin"], {"format": "round-robin"}),
    ],
)
def test_the_wizard_and_the_command_line_make_the_same_regulations(
    capsys: pytest.CaptureFixture[str], db: str, cli: list[str], wizard: dict[str, Any]
) -> None:
    made = _cli_regulations(capsys, db, *cli)
    regs = WizardSpec(name="T", **wizard).regulations()
    assert made["regulations"] == regs.details
    assert made["system"] == regs.system.value
    assert made["rounds_planned"] == regs.rounds and made["cycles"] == regs.cycles


def test_the_command_line_names_its_option(capsys: pytest.CaptureFixture[str], db: str) -> None:
    for args, said in (
        (["--system", "dutch", "--acceleration", "fast"], "--acceleration 'fast': use baku"),
        (["--system", "dutch", "--rounds", "0"], "--rounds 0: at least one round"),
        (["--system", "dutch", "--forbidden", "1-1"], "--forbidden: forbidden pairs '1-1'"),
        (["--system", "knockout", "--match-format", "x"], "--match-format: match format 'x'"),
    ):
        capsys.readouterr()
        assert main(["new", "T", *args, "--db", db]) == 2
        err = capsys.readouterr().err
        assert said in err and err.count("\n") == 1, err


def test_a_group_stage_checks_its_knockout_settings_as_a_knockout_does() -> None:
    from crosstable.service.stage_view import group_details

    with pytest.raises(SettingError, match="regulations, tie_rule 'coin'"):
        group_details("e", "Cup", "A", 2, 1, tie_rule="coin")
    linked = group_details("e", "Cup", "A", 2, 1, match_format="2-At-Once", tie_rule="Lots")
    assert (linked["knockout_match_format"], linked["knockout_tie_rule"]) == ("2-at-once", "lots")
    with pytest.raises(SettingError, match="regulations, match_format 'x'"):
        WizardSpec(name="G", format="groups", match_format="x").stage_plan()
