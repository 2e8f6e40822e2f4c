"""Whether forfeits count in tie-breaks is a setting of the regulations (R-RR-14):
the core's Settings.forfeits_in_tiebreaks, the regulations detail
``forfeits_in_tiebreaks: yes|no`` (refused if unknown, locked after round 1 like the
tie-break list), the regulations page's words, and the stored tournament's standings
(SQLite and PostgreSQL). The default (yes, C.07 15.2) changes no standing."""
# ruff: noqa: F811 - pytest fixtures imported from test_service_support

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from test_service_support import db_url, service, started, store  # noqa: F401
from test_tiebreak_helpers import tour

from crosstable.core.errors import RuleError
from crosstable.core.model import System, Tournament
from crosstable.core.standings import compute_standings
from crosstable.core.tiebreaks import REGISTRY
from crosstable.core.tiebreaks.field import compile_field
from crosstable.core.tiebreaks.spec import parse_code
from crosstable.formats.trf_model import TrfDocument
from crosstable.formats.trf_write import write_trf
from crosstable.service import Service
from crosstable.service.live import live_standings
from crosstable.web import i18n
from crosstable.web.regulation_text import regulation_items

CODES = ("SB", "BH", "FB", "AOB", "KS", "WIN", "WON", "BPG", "BWG", "STD", "REP", "PS")

# 1 beats 4 by forfeit in round 1; every other game is played over the board
EVEN = [["1-4 +-", "2-3 1-0"], ["4-3 0-1", "1-2 1-0"], ["2-4 1-0", "3-1 0-1"]]


def columns(t: Tournament, system: System | None = None) -> dict[str, list[object]]:
    f = compile_field(t, system=system)
    out = {}
    for code in CODES:
        spec = parse_code(code)
        out[code] = list(REGISTRY[spec.name].compute(f, spec).values)
    return out


def with_setting(t: Tournament, counted: bool) -> Tournament:
    return replace(t, settings=replace(t.settings, forfeits_in_tiebreaks=counted))


def test_the_default_counts_forfeits_as_games() -> None:
    t = tour(4, EVEN)
    assert t.settings.forfeits_in_tiebreaks is True
    assert columns(with_setting(t, True)) == columns(t)
    assert compile_field(t).predetermined and compile_field(t).round_robin


def test_no_treats_a_forfeit_as_an_unplayed_round_of_article_16() -> None:
    """With ``no`` an even round robin's tie-breaks are those of the same games read
    as a Swiss event (C.07 art. 16: a forfeit is an unplayed round), and they differ
    from the default's where the forfeit matters."""
    t = tour(4, EVEN)
    off = with_setting(t, False)
    f = compile_field(off)
    assert not f.predetermined and f.round_robin  # still a round robin otherwise
    assert columns(off) == columns(t, System.SWISS_DUTCH)
    assert columns(off)["SB"] != columns(t)["SB"]
    assert columns(off)["BH"] != columns(t)["BH"]
    # the points never change: only the tie-breaks
    on_table = compute_standings(t)
    off_table = compute_standings(off)
    assert [r.points for r in on_table.rows] == [r.points for r in off_table.rows]


def test_an_odd_round_robin_keeps_its_free_rounds() -> None:
    odd = tour(3, [["1-2 +-", "3 free"], ["2-3 1-0", "1 free"], ["3-1 =", "2 free"]])
    f = compile_field(with_setting(odd, False))
    assert f.round_robin and not f.predetermined
    # Koya's maximum score is the pairing system's: 2 games each (one free round)
    koya = REGISTRY["KS"]
    assert koya.maximum_games(f) == koya.maximum_games(compile_field(odd)) == 2  # type: ignore[attr-defined]
    assert [r.points for r in compute_standings(with_setting(odd, False)).rows] == [
        r.points for r in compute_standings(odd).rows
    ]


def _items(lang: str, value: str) -> list[tuple[str, str]]:
    token = i18n.current.set(lang)
    try:
        return regulation_items({"forfeits_in_tiebreaks": value})
    finally:
        i18n.current.reset(token)


def test_the_regulations_page_says_it_in_words() -> None:
    assert _items("en", "yes") == [
        (
            "Forfeits in tie-breaks",
            "counted as games: a forfeit win is a win and a forfeit "
            "loss a loss against that opponent (FIDE C.07 15.2)",
        )
    ]
    ((label, value),) = _items("en", "no")
    assert "unplayed round" in value
    ((ru_label, ru_value),) = _items("ru", "no")
    assert (ru_label, ru_value) != (label, value)
    assert "неявк" in ru_value.lower() and "несыгран" in ru_value.lower()


# -- the stored tournament (SQLite and PostgreSQL)


def _forfeit_sb(service: Service, tid: int) -> list[object]:
    """Round 1 board 1 forfeited (White wins), every other game won by White: each
    player's SB in the stored live table, which must be the core's for the stored
    tournament (its settings read from the regulations)."""
    for game in service.overview(tid).games:
        if game.result is None:
            code = "+-" if (game.round, game.board) == (1, 1) else "1-0"
            service.record_result(tid, game.round, game.board, code)
    body = service.live_standings(tid)
    assert body is not None
    expected = live_standings(service.tournament(tid))
    assert [r["SB"] for r in body["rows"]] == [r["SB"] for r in expected["rows"]]
    return [(r["start"], r["SB"]) for r in body["rows"]]


def test_the_stored_standings_follow_the_setting(service: Service) -> None:
    default = started(service, 4, tiebreaks=("SB",), details={"finish": "confirm"})
    counted = started(
        service, 4, tiebreaks=("SB",), details={"finish": "confirm", "forfeits_in_tiebreaks": "yes"}
    )
    unplayed = started(
        service, 4, tiebreaks=("SB",), details={"finish": "confirm", "forfeits_in_tiebreaks": "no"}
    )
    sb_default, sb_yes, sb_no = (_forfeit_sb(service, t) for t in (default, counted, unplayed))
    assert sb_default == sb_yes
    assert sb_no != sb_yes
    assert service.tournament(unplayed).settings.forfeits_in_tiebreaks is False
    assert service.tournament(default).settings.forfeits_in_tiebreaks is True


def test_an_unknown_value_is_refused(service: Service) -> None:
    with pytest.raises(RuleError, match="forfeits in tie-breaks is yes or no, not 'maybe'"):
        started(service, 4, details={"forfeits_in_tiebreaks": "maybe"})


def test_the_setting_is_locked_after_round_1(service: Service) -> None:
    tid = started(service, 4, tiebreaks=("SB",))
    with pytest.raises(RuleError, match="forfeits in tiebreaks was published before round 1"):
        service.edit_regulations(tid, details={"forfeits_in_tiebreaks": "no"})
    service.edit_regulations(
        tid, details={"forfeits_in_tiebreaks": "no"}, override_reason="the regulations say so"
    )
    assert service.tournament(tid).settings.forfeits_in_tiebreaks is False


# -- the command line: crosstable standings FILE --forfeits-in-tiebreaks yes|no


def _cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    from crosstable.cli import main

    code = main(["standings", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_standings_command_takes_the_setting(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    t = tour(4, EVEN)
    path = tmp_path / "rr.trf"
    path.write_text(write_trf(TrfDocument(tournament=t)))
    args = (str(path), "--tiebreaks", "SB", "--format", "json")
    _, default, _ = _cli(capsys, *args)
    _, yes, _ = _cli(capsys, *args, "--forfeits-in-tiebreaks", "yes")
    code, no, _ = _cli(capsys, *args, "--forfeits-in-tiebreaks", "no")
    assert code == 0 and default == yes
    sb = {r["start"]: r["SB"] for r in json.loads(no)["rows"]}
    core = compute_standings(with_setting(t, False), "SB").to_json()
    assert sb == {r["start"]: r["SB"] for r in core["rows"]}
    assert json.loads(no) != json.loads(yes)
    code, _, err = _cli(capsys, *args, "--forfeits-in-tiebreaks", "maybe")
    assert code == 2 and "--forfeits-in-tiebreaks 'maybe': use yes or no" in err
