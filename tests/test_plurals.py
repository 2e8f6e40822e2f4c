"""Proper English plurals in what the services say (issue 15 item 13): "1 game has no
result yet" / "3 games have…", never "game(s)"; the Russian templates avoid the number
agreement ("партий без результата: 1"). SQLite and PostgreSQL."""
# ruff: noqa: F811 - pytest fixtures imported from test_service_support

from __future__ import annotations

import pytest
from test_service_support import db_url, service, started, store  # noqa: F401

from crosstable.core.errors import RuleError
from crosstable.core.model import LotsMethod, System
from crosstable.core.wording import counted, plural
from crosstable.service import PlayerInfo, Regulations, Service
from crosstable.service.eligibility import PlayingRecord, eligibility_problems
from crosstable.web.messages import translate


def test_the_helpers() -> None:
    assert [counted(n, "game") for n in (0, 1, 2)] == ["0 games", "1 game", "2 games"]
    assert plural(1, "match", "matches") == "match" and plural(5, "match", "matches") == "matches"


def test_the_finish_counts_the_games_without_a_result(service: Service) -> None:
    tid = started(service, 4)  # 3 rounds of 2 games
    games = service.overview(tid).games
    with pytest.raises(RuleError) as many:
        service.finish(tid)
    assert str(many.value).startswith("6 games have no result yet: round 1 board 1, ")
    for game in games[:-1]:
        service.record_result(tid, game.round, game.board, "1-0")
    last = games[-1]
    with pytest.raises(RuleError) as one:
        service.finish(tid)
    said = str(one.value)
    assert said == f"1 game has no result yet: round {last.round} board {last.board}"
    assert (
        translate(one.value.text, "ru") == f"партий без результата: 1 (тур {last.round}, доска 2)"
    )
    assert translate(many.value.text, "ru").startswith("партий без результата: 6 (тур 1, доска 1")


def test_reverting_counts_the_later_events(service: Service) -> None:
    tid = started(service, 4)
    first = service.record_result(tid, 1, 1, "1-0").seq
    service.record_result(tid, 1, 2, "0-1")
    assert service.revert_to(tid, first).summary.endswith(": 1 later event taken back")
    service.record_result(tid, 1, 2, "0-1")
    service.record_result(tid, 2, 1, "1-0")
    later = service.history(tid)[-1].seq - first  # the results and the first revert
    assert later > 1
    assert service.revert_to(tid, first).summary.endswith(f": {later} later events taken back")


def test_a_swiss_withdrawal_names_its_games_and_byes(service: Service) -> None:
    regulations = Regulations(name="Open", system=System.SWISS_DUTCH, rounds=5)
    tid = service.create_tournament(regulations).tournament_id
    for index in range(8):
        service.add_player(tid, PlayerInfo(f"Player {index + 1}", rating=2500 - 10 * index))
    service.draw_lots(tid, LotsMethod.RATING)
    service.start(tid)
    paired = service.publish_round(tid)
    assert paired.summary.startswith("round 1 paired: 4 boards")
    service.request_bye(tid, 8, 3, "H")
    service.request_bye(tid, 8, 4, "Z")
    change = service.withdraw(tid, 8)
    assert "1 game forfeited" in change.summary
    assert "requested byes in rounds 3, 4 dropped" in change.summary
    assert "(s)" not in change.summary


def test_the_eligibility_rules_say_one_or_more() -> None:
    record = PlayingRecord(0, 0)
    assert eligibility_problems({"min_rated_games": 1, "min_online_tournaments": 1}, record) == [
        "eligibility: at least 1 game played is required (you have 0)",
        "eligibility: at least 1 finished online tournament is required (you have 0)",
    ]
    both = eligibility_problems({"min_rated_games": 20, "min_online_tournaments": 2}, record)
    assert (
        both[1] == "eligibility: at least 2 finished online tournaments are required (you have 0)"
    )
    assert translate(both[1], "ru") == (
        "допуск: нужно не меньше 2 завершённых онлайн-турниров (у вас 0)"
    )
    single = eligibility_problems({"min_online_tournaments": 1}, record)[0]
    assert translate(single, "ru") == (
        "допуск: нужен хотя бы один завершённый онлайн-турнир (у вас 0)"
    )


def test_the_access_summary_counts_the_online_tournaments() -> None:
    from crosstable.service.accounts.approval import describe_access

    one = describe_access({}, {"eligibility": {"min_online_tournaments": 1}})
    assert one == "access: eligibility: at least 1 online tournament"
    two = describe_access({}, {"eligibility": {"min_online_tournaments": 2, "min_rated_games": 1}})
    assert two == "access: eligibility: at least 1 rated game; at least 2 online tournaments"
