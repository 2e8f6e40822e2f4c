"""Group stage + knockout through the store and services, on SQLite and PostgreSQL: the
knockout stage created from the finished groups is the core's cross-seeded knockout
(``knockout_from_groups``), refusals, undo, the check at the start, and
``crosstable knockout-stage``."""
# ruff: noqa: F811 - pytest fixtures imported from test_service_support

from __future__ import annotations

import json
import random
import uuid
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_service_support import db_url, make_service, service, store  # noqa: F401

from crosstable.cli import main
from crosstable.core.errors import RuleError
from crosstable.core.model import LotsMethod, Tournament
from crosstable.core.pairing.knockout import Knockout
from crosstable.core.pairing.knockout_groups import (
    cross_seeded_lines,
    group_ranking,
    knockout_from_groups,
)
from crosstable.core.schedule.groups import plan_group_stage
from crosstable.service import ConflictError, PlayerInfo, Regulations, Service
from crosstable.service.stage_view import group_details, group_letter
from tests.fide_support import confirmed

RESULTS = ("1-0", "0-1", "1/2-1/2")


def make_groups(
    service: Service,
    sizes: list[int],
    *,
    qualifiers: int,
    cycles: int = 1,
    name: str = "Spring cup",
    **knockout: Any,
) -> list[int]:
    """One round robin per group, linked as the wizard links them, lots drawn by rating
    and started; players ``G<group>-<n>`` with distinct ratings."""
    event = uuid.uuid4().hex[:12]
    ids = []
    for index, size in enumerate(sizes):
        letter = group_letter(index)
        details = group_details(event, name, letter, len(sizes), qualifiers, **knockout)
        details["finish"] = "confirm"  # these tests finish (and reopen) each group themselves
        regulations = Regulations(name=f"{name} — group {letter}", cycles=cycles, details=details)
        tid = service.create_tournament(regulations).tournament_id
        for n in range(size):
            rating = 2500 - 7 * (index + len(sizes) * n)
            service.add_player(tid, PlayerInfo(f"{letter}-{n + 1}", rating=rating, title="FM"))
        service.draw_lots(tid, LotsMethod.RATING)
        service.start(tid)
        ids.append(tid)
    return ids


def play(
    service: Service, tid: int, rng: random.Random, results: tuple[str, ...] = RESULTS
) -> None:
    for game in service.overview(tid).games:
        if game.result is None:
            service.record_result(tid, game.round, game.board, rng.choice(results))


def strongest_wins(service: Service, tid: int) -> None:
    """Every game without a result: the lower starting number wins (a clear ranking)."""
    for game in service.overview(tid).games:
        if game.result is None:
            white_wins = (game.white or 0) < (game.black or 0)
            service.record_result(tid, game.round, game.board, "1-0" if white_wins else "0-1")


def finish_all(service: Service, ids: list[int], rng: random.Random | None = None) -> None:
    """Every result in (random, or the lower starting number wins), then the finish."""
    for tid in ids:
        if rng is None:
            strongest_wins(service, tid)
        else:
            play(service, tid, rng)
        service.finish(tid)


def cut_is_clear(service: Service, ids: list[int], k: int) -> bool:
    try:
        for tid in ids:
            group_ranking(service.tournament(tid), None, qualifiers=k)
    except RuleError:
        return False
    return True


def core_pairs(groups: list[Tournament], knockout: Knockout, members: list[list[int]]) -> set:
    """Round 1 of the core's knockout as pairs of names (a bye: with None)."""
    name = {
        members[i][p.start - 1]: p.name for i, group in enumerate(groups) for p in group.players
    }
    pairs = set()
    lines = knockout.bracket.lines
    for k in range(0, len(lines), 2):
        top, bottom = lines[k], lines[k + 1]
        pairs.add(frozenset({name.get(top or 0), name.get(bottom or 0)}))
    return pairs


def stored_pairs(service: Service, tid: int) -> set:
    view = service.bracket_view(tid)
    first = view["rounds"][0]
    pairs = {frozenset(p["name"] for p in m["players"]) for m in first["matches"]}
    pairs |= {frozenset({b["name"], None}) for b in first["byes"]}
    return pairs


def play_to_the_end(service: Service, tid: int, rng: random.Random) -> None:
    while True:
        view = service.bracket_view(tid)
        if view["champion"] is not None:
            return
        play(service, tid, rng)
        if service.bracket_view(tid)["champion"] is None:
            service.pair_next_round(tid)


# -- a whole event ------------------------------------------------------------------------


@pytest.mark.parametrize("cycles", [1, 2])
def test_whole_event_four_groups_of_four(service: Service, cycles: int) -> None:
    rng = random.Random(20260501 + cycles)
    ids = make_groups(service, [4, 4, 4, 4], qualifiers=2, cycles=cycles, third_place=True)
    with pytest.raises(RuleError, match="the group stage is not over: Spring cup — group A"):
        service.create_knockout_stage(ids[2])
    finish_all(service, ids, rng)
    while not cut_is_clear(service, ids, 2):  # replay until no tie at the cut
        for tid in ids:
            service.undo(tid, reason="no tie at the cut", confirm=True)  # reopens it
            if service.fide_mode(tid).on:  # (FIDE mode changes only the previous round)
                confirmed(service.leave_fide_mode, tid)
            for game in service.overview(tid).games:
                service.correct_result(tid, game.round, game.board, rng.choice(RESULTS))
            service.finish(tid)
    before = len(service.tournaments())
    change = service.create_knockout_stage(ids[2], actor="ann")
    ko = change.tournament_id
    assert len(service.tournaments()) == before + 1
    assert change.kind == "knockout-stage" and change.actor == "ann"
    view = service.overview(ko)
    assert view.name == "Spring cup — knockout" and view.status == "registration"
    details = view.settings["regulations"]
    assert details["bracket"] == "seeded" and details["third_place"] == "yes"
    assert view.settings["system"] == "knockout"
    # the players: each group's top two with their details, starting numbers = seeds
    groups = [service.tournament(tid) for tid in ids]
    expected = set()
    for group in groups:
        for start in group_ranking(group, None, qualifiers=2)[:2]:
            expected.add(group.player(start).name)
    assert {p.name for p in view.players} == expected
    assert all(p.start == p.number for p in view.players)
    assert {p.title for p in view.players} == {"FM"}
    # round 1 is the core's knockout_from_groups on the same groups
    members = [[100 * (i + 1) + j for j in range(1, 5)] for i in range(4)]
    plan = plan_group_stage(16, groups=4, cycles=cycles, qualifiers_per_group=2)
    core = knockout_from_groups(groups, plan, members=members)
    service.start(ko)
    assert stored_pairs(service, ko) == core_pairs(groups, core, members)
    # group mates cannot meet before the final (two qualifiers from four groups)
    group_of = {q["name"]: q["group"] for q in change.data["qualifiers"]}
    for match in service.bracket_view(ko)["rounds"][0]["matches"]:
        assert len({group_of[p["name"]] for p in match["players"]}) == 2
    play_to_the_end(service, ko, rng)
    final = service.bracket_view(ko)
    assert final["champion"]["name"] in expected
    assert final["third_place"] is not None
    service.finish(ko)
    assert service.overview(ko).status == "finished"
    # the history of each group says so (informational: undo passes over it)
    last = service.history(ids[0])[-1]
    assert last.kind == "knockout-stage" and f"tournament {ko}" in last.summary
    assert service.verify(ko) == [] and service.verify(ids[0]) == []


def test_the_event_view(service: Service) -> None:
    ids = make_groups(service, [3, 3], qualifiers=1, match_format="2", tie_rule="playoff")
    stage = service.stage_of(ids[1])
    assert stage is not None
    assert stage.this == "B" and [g.letter for g in stage.groups] == ["A", "B"]
    assert stage.qualifiers == 1 and stage.expected == 2 and stage.knockout is None
    assert stage.settings == {
        "match_format": "2",
        "tie_rule": "rapid:2,blitz:2,armageddon",
        "third_place": "no",
    }
    assert not stage.ready and [g.letter for g in stage.unfinished] == ["A", "B"]
    plain = service.create_tournament(Regulations(name="Club")).tournament_id
    assert service.stage_of(plain) is None
    with pytest.raises(RuleError, match=f"tournament {plain} is not part of a group stage"):
        service.create_knockout_stage(plain)
    finish_all(service, ids)
    change = service.create_knockout_stage(ids[0])
    knockout = service.stage_of(change.tournament_id)
    assert knockout is not None and knockout.this == ""
    assert knockout.knockout is not None and knockout.knockout.players == 2
    details = service.overview(change.tournament_id).settings["regulations"]
    assert details["tie_rule"] == "rapid:2,blitz:2,armageddon" and details["match_format"] == "2"


# -- refusals -----------------------------------------------------------------------------


def test_unbroken_tie_at_the_cut_is_refused_and_lots_break_it(service: Service) -> None:
    ids = make_groups(service, [4, 4], qualifiers=2)
    for tid in ids:  # every game drawn: everyone on 1½, nothing breaks the tie
        play(service, tid, random.Random(1), ("1/2-1/2",))
        service.finish(tid)
    before = len(service.tournaments())
    with pytest.raises(RuleError, match=r"group A: places 2 and 3 are tied .*break the tie"):
        service.create_knockout_stage(ids[0])
    assert len(service.tournaments()) == before  # nothing created
    assert service.history(ids[0])[-1].kind == "finish"
    change = service.create_knockout_stage(ids[1], lots_seed=77)
    assert "ties at the cut by lot, seed 77" in change.summary
    groups = [service.tournament(tid) for tid in ids]
    expected = {g.player(s).name for g in groups for s in group_ranking(g, None, lots_seed=77)[:2]}
    assert {p.name for p in service.overview(change.tournament_id).players} == expected
    service.start(change.tournament_id)  # the start's check uses the recorded seed


def test_unfinished_groups_are_named_and_twice_is_refused(service: Service) -> None:
    rng = random.Random(9)
    ids = make_groups(service, [3, 3, 3], qualifiers=1)
    play(service, ids[0], rng)
    service.finish(ids[0])
    with pytest.raises(RuleError) as refused:
        service.create_knockout_stage(ids[0])
    message = str(refused.value)
    assert f"group B (tournament {ids[1]}, running)" in message
    assert f"group C (tournament {ids[2]}, running)" in message and "group A" not in message
    finish_all(service, ids[1:])
    change = service.create_knockout_stage(ids[1])
    ko = change.tournament_id
    with pytest.raises(ConflictError, match=f"exists already: tournament {ko} “Spring cup"):
        service.create_knockout_stage(ids[2])
    with pytest.raises(ConflictError, match="exists already"):
        service.create_knockout_stage(ko)  # from the knockout itself
    # three qualifiers: a bye for the best group winner
    service.start(ko)
    view = service.bracket_view(ko)
    assert [b["start"] for b in view["rounds"][0]["byes"]] == [1]


def test_undo_of_the_stage_and_create_again(service: Service) -> None:
    ids = make_groups(service, [4, 4], qualifiers=1)
    finish_all(service, ids)
    ko = service.create_knockout_stage(ids[0]).tournament_id
    undone = service.undo(ko)
    assert "knockout stage of Spring cup" in undone.summary
    assert service.overview(ko).players == ()
    with pytest.raises(RuleError, match="there is nothing to undo"):
        service.undo(ko)  # the creation itself stays (an empty knockout)
    stage = service.stage_of(ids[1])
    assert stage is not None and stage.ready and stage.knockout is not None
    with pytest.raises(RuleError, match="draw lots first"):
        service.start(ko)
    again = service.create_knockout_stage(ids[1])
    assert again.tournament_id == ko and len(service.overview(ko).players) == 2
    assert service.verify(ko) == []


def test_start_checks_the_groups_and_the_seeds(service: Service) -> None:
    ids = make_groups(service, [3, 3], qualifiers=1)
    finish_all(service, ids)  # 1 wins each group
    ko = service.create_knockout_stage(ids[0]).tournament_id
    # lots drawn again: the seeds are gone
    service.draw_lots(ko, LotsMethod.MANUAL, order=(2, 1))
    with pytest.raises(RuleError, match="starting numbers of the knockout stage changed"):
        service.start(ko)
    service.undo(ko)
    # a group reopened: refused until it is finished again
    service.undo(ids[0], reason="a late correction", confirm=True)  # the finish (reopens it)
    assert service.overview(ids[0]).status == "running"
    with pytest.raises(RuleError, match="the group stage is not over: Spring cup — group A"):
        service.start(ko)
    # corrected: player 1 of group A lost both games, so 2 wins group A (seed 1)
    confirmed(service.leave_fide_mode, ids[0])  # (FIDE mode changes only the previous round)
    for game in service.overview(ids[0]).games:
        if 1 in (game.white, game.black):
            service.correct_result(
                ids[0], game.round, game.board, "0-1" if game.white == 1 else "1-0"
            )
    service.finish(ids[0])
    with pytest.raises(RuleError, match=r"\(seed 1 would be someone else now\): undo the knockout"):
        service.start(ko)
    service.undo(ko)  # the stage: create it again from the standings as they are now
    again = service.create_knockout_stage(ids[1])
    assert again.data["qualifiers"][0]["name"] == "A-2"
    service.start(ko)


def test_link_round_robins_made_one_by_one(service: Service) -> None:
    ids = []
    for index in range(2):
        tid = service.create_tournament(Regulations(name=f"Group {index + 1}")).tournament_id
        for n in range(3):
            service.add_player(tid, PlayerInfo(f"P{index}{n}", rating=2000 + 10 * n + index))
        ids.append(tid)
    with pytest.raises(RuleError, match="between 1 and 2"):
        service.link_group_stage(ids, qualifiers=3)
    with pytest.raises(RuleError, match="at least two groups"):
        service.link_group_stage(ids[:1], qualifiers=1)
    view = service.link_group_stage(ids, qualifiers=1, name="Autumn", tie_rule="lots")
    assert [g.letter for g in view.groups] == ["A", "B"] and view.name == "Autumn"
    assert view.settings["tie_rule"] == "lots"
    assert service.history(ids[1])[-1].kind == "regulations"
    with pytest.raises(RuleError, match="belongs to a group stage already"):
        service.link_group_stage(ids, qualifiers=1)


# -- property: the knockout's players and round 1 are the core's ---------------------------


@settings(
    max_examples=6,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    sizes=st.lists(st.integers(min_value=3, max_value=5), min_size=2, max_size=4),
    k=st.integers(min_value=1, max_value=2),
    seed=st.integers(min_value=0, max_value=10**6),
)
def test_property_qualifiers_and_round_one(
    service: Service, sizes: list[int], k: int, seed: int
) -> None:
    rng = random.Random(seed)
    ids = make_groups(service, sizes, qualifiers=k)
    finish_all(service, ids, rng)
    lots = rng.randrange(1, 10**6)
    change = service.create_knockout_stage(ids[-1], lots_seed=lots)
    ko = change.tournament_id
    groups = [service.tournament(tid) for tid in ids]
    ranked = [group_ranking(g, None, qualifiers=k, lots_seed=lots)[:k] for g in groups]
    # exactly each group's top k
    names = {groups[i].player(s).name for i, top in enumerate(ranked) for s in top}
    assert {p.name for p in service.overview(ko).players} == names
    # round 1 = the core's cross-seeded bracket of the same qualifiers
    keyed = [[1000 * (i + 1) + s for s in top] for i, top in enumerate(ranked)]
    lines, _seeding = cross_seeded_lines(keyed)
    name = {
        1000 * (i + 1) + s: groups[i].player(s).name for i, top in enumerate(ranked) for s in top
    }
    core = {
        frozenset({name.get(a or 0), name.get(b or 0)})
        for a, b in zip(lines[::2], lines[1::2], strict=True)
    }
    service.start(ko)
    assert stored_pairs(service, ko) == core
    group_of = {name[key]: key // 1000 for key in name}
    same = [pair for pair in core if None not in pair and len({group_of[n] for n in pair}) == 1]
    stored_same = [
        pair
        for pair in stored_pairs(service, ko)
        if None not in pair and len({group_of[n] for n in pair}) == 1  # type: ignore[index]
    ]
    assert len(stored_same) == len(same)
    if not same:
        assert not stored_same


# -- command line -------------------------------------------------------------------------


def test_cli_creates_and_shows_the_knockout_stage(
    db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from crosstable.store import open_store

    store = open_store(db_url)
    try:
        service = make_service(store)
        ids = make_groups(service, [3, 3], qualifiers=1)
        finish_all(service, ids)
    finally:
        store.close()
    capsys.readouterr()
    assert main(["knockout-stage", "--tournament", str(ids[0]), "--db", db_url, "--show"]) == 0
    shown = capsys.readouterr().out
    assert "Spring cup — group A" in shown and "every group is finished" in shown
    assert main(["knockout-stage", "--tournament", str(ids[1]), "--db", db_url]) == 0
    out = capsys.readouterr().out
    assert "qualifiers" in out and "round 1 (cross-seeded)" in out and "(A1)" in out
    assert "crosstable start --tournament" in out
    code = main(["knockout-stage", "--tournament", str(ids[0]), "--db", db_url])
    assert code == 2
    assert "exists already" in capsys.readouterr().err
    assert (
        main(["knockout-stage", "-t", str(ids[0]), "--db", db_url, "--show", "--format", "json"])
        == 0
    )
    body = json.loads(capsys.readouterr().out)
    assert body["knockout"]["players"] == 2 and body["ready"] is False


def test_cli_links_groups_and_creates_as_json(
    db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from crosstable.store import open_store

    store = open_store(db_url)
    ids = []
    try:
        service = make_service(store)
        for index in range(2):
            tid = service.create_tournament(Regulations(name=f"G{index}")).tournament_id
            for n in range(3):
                service.add_player(tid, PlayerInfo(f"P{index}{n}", rating=2000 + 10 * n + index))
            service.draw_lots(tid, LotsMethod.RATING)
            service.start(tid)
            ids.append(tid)
    finally:
        store.close()
    capsys.readouterr()
    link = ",".join(str(i) for i in ids)
    assert main(["knockout-stage", "--db", db_url, "--link", link, "--qualifiers", "1"]) == 0
    assert "not finished yet: group A, B" in capsys.readouterr().out
    store = open_store(db_url)
    try:
        service = make_service(store)
        finish_all(service, ids)
    finally:
        store.close()
    code = main(
        [
            "knockout-stage",
            "-t",
            str(ids[0]),
            "--db",
            db_url,
            "--format",
            "json",
            "--lots-seed",
            "5",
        ]
    )
    assert code == 0
    body = json.loads(capsys.readouterr().out)
    assert len(body["qualifiers"]) == 2 and body["lots_seed"] == 5
    assert body["round_1"] == [[1, 2]]
    assert main(["knockout-stage", "--db", db_url, "--link", "1,x"]) == 2
    assert "tournament ids separated by commas" in capsys.readouterr().err
