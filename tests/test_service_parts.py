"""The Service is a facade over parts with one job each: every part is an object of
its own that receives the change frame (and what else it calls), no part inherits
another, each public method of the service is one part's use case handed on by
:func:`~crosstable.service.forward.forward`, and the two wrappers (battle chess, the
``ties`` detail) call the use case they wrap."""

from __future__ import annotations

import ast
import inspect
import textwrap

from crosstable.service import Service
from crosstable.service.adjourned import Adjournments
from crosstable.service.battle import Battle, BattleChess
from crosstable.service.checkin import CheckIn
from crosstable.service.exchange import Exchange
from crosstable.service.expulsion import Expulsions
from crosstable.service.fide_mode import FideMode
from crosstable.service.forward import Forward
from crosstable.service.frame import ChangeFrame
from crosstable.service.history import History
from crosstable.service.knockout import KnockoutPlay
from crosstable.service.long_events import LongEvents
from crosstable.service.pairing_phase import PairingPhase
from crosstable.service.pgn import PgnPlay
from crosstable.service.play import Play
from crosstable.service.queries import Queries
from crosstable.service.registration import Registration
from crosstable.service.report_corrections import ReportCorrections
from crosstable.service.round_robin_hand import RoundRobinHand
from crosstable.service.series import SeriesPlay
from crosstable.service.stages import StagePlay
from crosstable.service.swiss import SwissPlay
from crosstable.service.teams.bughouse import BughousePlay
from crosstable.service.teams.part import TeamPlay
from crosstable.service.teams.swiss import TeamSwissPlay
from crosstable.service.tie_lots import TieLots
from crosstable.store import open_store

#: the service's public methods (and the settings fast_path and safeguard) as they
#: were when it was a stack of mixins: the facade shows exactly these
METHODS = [
    "absent_byes",
    "adjourn_game",
    "adjourned_result",
    "accept_petition",
    "add_player",
    "award",
    "awards_page",
    "badges",
    "battle_rules",
    "bracket",
    "bracket_view",
    "byes",
    "cancel_bye",
    "cancel_check_in",
    "check_in",
    "checkin_view",
    "clear_moves",
    "colours_drawn",
    "confirm_result",
    "correct_result",
    "correct_for_report",
    "create_knockout_stage",
    "create_series",
    "create_tournament",
    "crosstable",
    "draw_colours",
    "draw_lots",
    "edit_pairings",
    "edit_player",
    "edit_regulations",
    "edition_info",
    "expel",
    "expulsions",
    "fide_mode",
    "export_json",
    "export_pgn",
    "export_trf",
    "fast_path",
    "finish",
    "game_moves",
    "games_with_moves",
    "history",
    "import_json",
    "import_pgn",
    "import_tournament",
    "key_used",
    "leave_fide_mode",
    "knockout_state",
    "link_group_stage",
    "live_standings",
    "mark_forfeit",
    "news_item",
    "news_page",
    "open_edition",
    "overview",
    "pair_next_round",
    "petition",
    "petition_info",
    "petitions",
    "pair_round_robin_round",
    "planned_rounds",
    "player_details",
    "preference",
    "report_corrections",
    "propose_round",
    "publish_round",
    "published_with_key",
    "read_model",
    "record_moves",
    "record_result",
    "record_setup_timeout",
    "refuse_petition",
    "register_for_edition",
    "register_for_stage",
    "reject_reports",
    "remove_player",
    "report_result",
    "request_bye",
    "revert_to",
    "review_pairing",
    "pairing_phase",
    "validate_pairings",
    "revision",
    "round_ratings",
    "safeguard",
    "season_standings",
    "series_awards",
    "series_history",
    "series_info",
    "series_news",
    "set_preference",
    "snapshot",
    "stage_of",
    "stage_window",
    "start",
    "table_state",
    "teams",
    "tick",
    "tournament",
    "tournaments",
    "set_round_rating",
    "trf_export_notes",
    "undo",
    "verify",
    "withdraw",
    "withdraw_from_edition",
    "withdraw_from_stage",
    # teams/part.py: team tournaments
    "add_team",
    "add_team_member",
    "board_prizes",
    "check_match",
    "create_team_tournament",
    "player_scores",
    "set_lineup",
    "team_list",
    "team_matches",
    "team_standings",
    # teams/swiss.py: the team Swiss
    "create_team_swiss",
    "pair_team_round",
    # teams/bughouse.py: Bughouse events
    "bughouse_matches",
    "bughouse_rule",
    "bughouse_standings",
    "create_bughouse_tournament",
    "mark_first_finished",
    "pair_bughouse_round",
]

#: what the frame holds, shown by the service as its own
FRAME = {"store", "clock", "random", "bus", "live_tables"}

PARTS: tuple[type, ...] = (
    Registration,
    Play,
    BattleChess,
    SwissPlay,
    KnockoutPlay,
    StagePlay,
    History,
    Exchange,
    PgnPlay,
    Queries,
    CheckIn,
    FideMode,
    ReportCorrections,
    Expulsions,
    PairingPhase,
    RoundRobinHand,
    Adjournments,
    LongEvents,
    TeamPlay,
    TeamSwissPlay,
    BughousePlay,
)
WRAPPERS: tuple[type, ...] = (Battle, TieLots)


def _public(cls: type) -> set[str]:
    return {
        name for name, value in vars(cls).items() if not name.startswith("_") and callable(value)
    }


def _forwards() -> dict[str, Forward[..., object]]:
    return {name: value for name, value in vars(Service).items() if isinstance(value, Forward)}


def test_the_service_shows_the_same_methods_as_before() -> None:
    assert sorted(n for n in dir(Service) if not n.startswith("_")) == sorted(set(METHODS) | FRAME)


def test_no_part_inherits_another() -> None:
    assert ChangeFrame.__bases__ == (object,)
    for cls in (*PARTS, *WRAPPERS, SeriesPlay):
        assert cls.__bases__ == (object,), cls
        init = inspect.signature(cls.__init__)  # type: ignore[misc]
        assert "frame" in init.parameters, cls
        assert "super()" not in inspect.getsource(cls), cls


def test_every_public_method_is_forwarded() -> None:
    forwards = _forwards()
    properties = {n for n, v in vars(Service).items() if isinstance(v, property)}
    assert set(forwards) | (properties - FRAME) == set(METHODS)
    assert properties - FRAME == {"fast_path", "safeguard", "read_model"}
    service = Service(open_store("sqlite:///:memory:"))
    for name, forward in forwards.items():
        part = getattr(service, forward.part)
        assert getattr(service, name) == getattr(part, name), name
        assert isinstance(part, (*PARTS, *WRAPPERS, SeriesPlay)), name


def test_every_use_case_is_defined_in_exactly_one_part() -> None:
    owners: dict[str, list[str]] = {}
    for part in (*PARTS, SeriesPlay):
        for name in _public(part) | {n for n, v in vars(part).items() if isinstance(v, Forward)}:
            if name in METHODS:
                owners.setdefault(name, []).append(part.__name__)
    assert {name: found for name, found in owners.items() if len(found) > 1} == {}
    wrapped = {name for wrapper in WRAPPERS for name in _public(wrapper)}
    assert set(owners) | wrapped >= set(METHODS) - {"fast_path", "safeguard", "read_model"}
    assert wrapped <= set(owners)  # a wrapper adds no use case of its own


def _calls(method: object) -> set[tuple[str, str]]:
    """``self.<attribute>.<method>(`` calls in a method's source."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(method)))  # type: ignore[arg-type]
    found: set[tuple[str, str]] = set()
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Attribute)
            and isinstance(node.func.value.value, ast.Name)
            and node.func.value.value.id == "self"
        ):
            found.add((node.func.value.attr, node.func.attr))
    return found


def test_the_wrappers_hand_on_to_the_use_case_they_wrap() -> None:
    """Each method of a wrapper checks, then calls the same use case of what it wraps."""
    wrapped = 0
    for wrapper in WRAPPERS:
        for name in _public(wrapper):
            assert any(method == name for _, method in _calls(vars(wrapper)[name])), (
                f"{wrapper.__name__}.{name}"
            )
            wrapped += 1
    assert wrapped >= 10  # start, record_result, create_tournament, export_trf, …


def test_the_service_shows_the_outermost_wrapper() -> None:
    """Battle's checks, then the ``ties`` detail's, then the use case."""
    service = Service(open_store("sqlite:///:memory:"))
    forwards = _forwards()
    for name in _public(Battle):
        assert forwards[name].part == "battle", name
    assert service.battle.registration.registration is service.registration
    assert isinstance(service.battle.registration, TieLots)
    assert service.battle.play is service.play
    assert service.battle.exchange is service.exchange
    # the calls inside the parts that the wrappers check go through the service
    assert service.play.results is service
    assert service.battle_chess.results is service


def test_every_part_shares_the_one_frame() -> None:
    service = Service(open_store("sqlite:///:memory:"))
    parts = [getattr(service, forward.part) for forward in _forwards().values()]
    assert {id(part.frame) for part in parts} == {id(service.frame)}
    service.fast_path = False
    service.safeguard = None
    assert service.frame.fast_path is False
