"""Swiss tournaments (FIDE Dutch) through the services, on SQLite and on PostgreSQL."""
# ruff: noqa: F811 - pytest fixtures imported from test_service_support

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from fide_support import confirmed
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_service_support import db_url, make_service, service, store  # noqa: F401

from crosstable.cli.check import check_document
from crosstable.core.errors import RuleError
from crosstable.core.model import ByeKind, Colour, LotsMethod, Outcome, System, Tournament
from crosstable.formats.trf import parse_trf
from crosstable.service import ConflictError, NotFoundError, PlayerInfo, Regulations, Service
from crosstable.service.swiss import RoundProposal, parse_forbidden
from crosstable.store import open_store

RESULTS = ("1-0", "½-½", "0-1")


def swiss(
    service: Service,
    players: int = 9,
    *,
    rounds: int | None = 5,
    start: bool = True,
    **details: str,
) -> int:
    """A Swiss of ``players`` players numbered by rating (player 1 the highest)."""
    regulations = Regulations(
        name="Open", system=System.SWISS_DUTCH, rounds=rounds, details=details
    )
    tid = service.create_tournament(regulations).tournament_id
    for index in range(players):
        service.add_player(tid, PlayerInfo(f"Player {index + 1}", rating=2500 - 10 * index))
    service.draw_lots(tid, LotsMethod.RATING)
    if start:
        service.start(tid)
    return tid


def play_round(service: Service, tid: int, source: random.Random) -> None:
    """Enter a result for every game still without one (drawn from ``source``)."""
    for game in service.overview(tid).games:
        if game.result is None:
            service.record_result(tid, game.round, game.board, source.choice(RESULTS))


def games_of(service: Service, tid: int, number: int) -> list[tuple[int, int]]:
    return [(g.white or 0, g.black or 0) for g in service.overview(tid).games if g.round == number]


def pab_of(tournament: Tournament, number: int) -> int | None:
    rnd = next((r for r in tournament.rounds if r.number == number), None)
    if rnd is None:
        return None
    return next((b.player for b in rnd.byes if b.kind is ByeKind.PAIRING), None)


# -- the start --------------------------------------------------------------------------------


def test_the_start_fixes_rounds_and_the_initial_colour(service: Service) -> None:
    tid = swiss(service, 9, rounds=None)
    change = service.history(tid)[-1]
    assert change.kind == "start"
    view = service.overview(tid)
    assert view.status == "running" and view.games == ()
    assert service.tournament(tid).settings.rounds == 4  # ⌈log₂ 9⌉ (R-SW-3)
    colour = view.settings["regulations"]["initial_colour"]
    assert colour in ("white", "black")
    assert "drawn by lot" in change.summary and colour in change.summary
    # the lot is recorded, so round 1 follows it: player 1 gets that colour on board 1
    service.publish_round(tid)
    first = games_of(service, tid, 1)[0]
    assert (first[0] == 1) == (colour == "white")


@pytest.mark.parametrize("colour", ["white", "black"])
def test_the_regulations_initial_colour_is_kept(service: Service, colour: str) -> None:
    tid = swiss(service, 6, initial_colour=colour)
    proposal = service.propose_round(tid)
    assert proposal.round == 1 and proposal.bye is None
    top_white = (1, 4) in proposal.boards
    assert top_white == (colour == "white")
    assert (4, 1) in proposal.boards or top_white
    assert "as the regulations say" in service.history(tid)[-1].summary


def test_start_refuses_bad_swiss_regulations(service: Service) -> None:
    tid = swiss(service, 4, rounds=4, start=False)
    with pytest.raises(RuleError, match="at most 3"):
        service.start(tid)
    tid = swiss(service, 4, rounds=2, start=False, initial_colour="green")
    with pytest.raises(RuleError, match="initial colour 'green'"):
        service.start(tid)
    tid = swiss(service, 4, rounds=2, start=False, forbidden="1-9")
    with pytest.raises(RuleError, match="no starting number 9"):
        service.start(tid)
    tid = swiss(service, 4, rounds=2, start=False, acceleration="vienna")
    with pytest.raises(RuleError, match="acceleration 'vienna'"):
        service.start(tid)
    assert service.overview(tid).status == "registration"


def test_forbidden_pairs_are_parsed_and_honoured(service: Service) -> None:
    assert parse_forbidden("1-2, 3-4-5") == ((1, 2), (3, 4, 5))
    with pytest.raises(RuleError, match="not like 1-2"):
        parse_forbidden("1-x")
    with pytest.raises(RuleError, match="names one player"):
        parse_forbidden("3-3")
    plain = service.propose_round(swiss(service, 8, rounds=3))
    assert (1, 5) in plain.boards
    tid = swiss(service, 8, rounds=3, forbidden="1-5")
    proposal = service.propose_round(tid)
    assert {frozenset(b) for b in proposal.boards}.isdisjoint({frozenset((1, 5))})


def test_baku_acceleration_pairs_the_top_half_among_themselves(service: Service) -> None:
    tid = swiss(service, 8, rounds=3, acceleration="baku")
    pairs = {frozenset(board) for board in service.propose_round(tid).boards}
    # group A (players 1–4) has a fictitious point in round 1 (C.04.5.1)
    assert pairs == {frozenset(p) for p in ((1, 3), (2, 4), (5, 7), (6, 8))}


# -- a whole Swiss --------------------------------------------------------------------------


def test_a_nine_player_five_round_swiss_passes_the_checker(service: Service) -> None:
    source = random.Random(2026)
    tid = swiss(service, 9, rounds=5, finish="confirm")  # the organiser finishes it
    service.request_bye(tid, 4, 3, "H")
    service.request_bye(tid, 7, 4, "Z")
    published: list[RoundProposal] = []
    for number in range(1, 6):
        proposal = service.propose_round(tid)
        assert proposal.round == number
        change = service.publish_round(tid, actor="arbiter")
        assert change.data["round"] == number
        assert change.data["manual"] is False and change.data["warnings"] == []
        assert [tuple(b) for b in change.data["boards"]] == list(proposal.boards)
        assert change.data["bye"] == proposal.bye
        assert games_of(service, tid, number) == list(proposal.boards)
        published.append(proposal)
        play_round(service, tid, source)
    assert published[2].absent == ((4, "H"),) and published[3].absent == ((7, "Z"),)
    with pytest.raises(RuleError, match="all 5 rounds are paired"):
        service.propose_round(tid)

    tournament = service.tournament(tid)
    byes = [pab_of(tournament, n) for n in range(1, 6)]
    given_byes = [b for b in byes if b is not None]
    assert len(given_byes) == len(set(given_byes)), "a PAB twice (R-SW-2)"
    # the PAB is worth a win in the standings
    pab = byes[0]
    assert pab is not None
    points = {row["start"]: row["points"] for row in service.live_standings(tid)["rows"]}
    assert points[pab] == float(tournament.score(pab))
    assert tournament.score(4) >= Fraction(1, 2)
    # the TRF export re-checked round by round by the core's checker: no difference
    document = parse_trf(service.export_trf(tid), source="export")
    checks = check_document(document)
    assert [c.round for c in checks] == [1, 2, 3, 4, 5]
    assert [c.round for c in checks if not c.agrees] == []
    # the finish fixes places with the Swiss tie-breaks (Buchholz first, R-SW-4)
    assert service.live_standings(tid)["tiebreaks"][:2] == ["BH/C1", "BH"]
    service.finish(tid)
    assert all(p.place is not None for p in service.overview(tid).players)
    assert service.verify(tid) == []


def test_forfeits_count_as_a_win_for_the_player_present(service: Service) -> None:
    tid = swiss(service, 6, rounds=3)
    service.publish_round(tid)
    service.mark_forfeit(tid, 1, 1, absent="black")
    for board in (2, 3):
        service.record_result(tid, 1, board, "½-½")
    white, black = games_of(service, tid, 1)[0]
    points = {row["start"]: row["points"] for row in service.live_standings(tid)["rows"]}
    assert points[white] == 1 and points[black] == 0
    # a forfeit is no game played: the two may be paired again, and the winner of the
    # forfeit has had a "free" win, so no PAB for them later
    proposal = service.propose_round(tid)
    assert proposal.round == 2


# -- property: random fields through the service ----------------------------------------------


def _check_rules(tournament: Tournament, withdrawn_from: dict[int, int]) -> None:
    starts = [p.start for p in tournament.players]
    total = tournament.settings.rounds or len(tournament.rounds)
    system = tournament.settings.point_system
    met: set[frozenset[int]] = set()
    free_win: set[int] = set()
    colours: dict[int, list[Colour]] = {s: [] for s in starts}
    score = dict.fromkeys(starts, Fraction(0))
    for rnd in sorted(tournament.rounds, key=lambda r: r.number):
        gone = {s for s, first in withdrawn_from.items() if first <= rnd.number}
        entered = {b.player for b in rnd.byes if b.kind is not ByeKind.PAIRING}
        pab = [b.player for b in rnd.byes if b.kind is ByeKind.PAIRING]
        paired = [s for g in rnd.games for s in (g.white, g.black)]
        assert len(pab) <= 1
        everyone = sorted(paired + pab + sorted(entered) + sorted(gone - entered))
        assert everyone == starts, f"round {rnd.number}: present players paired exactly once"
        assert not (set(paired + pab) & gone), "a withdrawn player was paired"
        for player in pab:
            assert player not in free_win, f"round {rnd.number}: a second PAB for {player}"
            free_win.add(player)
        top = {s for s in starts if rnd.number == total and score[s] > Fraction(rnd.number - 1, 2)}
        exempt: set[int] = set()
        for game in rnd.games:
            pair = frozenset((game.white, game.black))
            assert pair not in met, f"round {rnd.number}: rematch {sorted(pair)}"
            assert game.result is not None
            if game.result.white.is_over_the_board:
                met.add(pair)
                colours[game.white].append(Colour.WHITE)
                colours[game.black].append(Colour.BLACK)
            if pair & top:
                exempt |= pair
            for start, outcome in (
                (game.white, game.result.white),
                (game.black, game.result.black),
            ):
                score[start] += outcome.points(system)
                if outcome is Outcome.FORFEIT_WIN:
                    free_win.add(start)
        for bye in rnd.byes:
            score[bye.player] += bye.kind.outcome.points(system)
            if bye.kind is ByeKind.FULL:
                free_win.add(bye.player)
        for start in starts:
            history = colours[start]
            if start in exempt or not history:
                continue
            whites = history.count(Colour.WHITE)
            assert abs(2 * whites - len(history)) <= 2, f"round {rnd.number}: |CD| > 2 for {start}"
            assert history[-3:] not in ([Colour.WHITE] * 3, [Colour.BLACK] * 3), (
                f"round {rnd.number}: three of one colour in a row for {start}"
            )


@settings(
    max_examples=6,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    players=st.integers(min_value=5, max_value=16),
    seed=st.integers(min_value=0, max_value=2**31),
    byes=st.sampled_from([0.0, 0.1]),
    withdrawal=st.booleans(),
    forfeits=st.sampled_from([0.0, 0.1]),
)
def test_random_swiss_events_keep_the_absolute_rules(
    db_url: str, players: int, seed: int, byes: float, withdrawal: bool, forfeits: float
) -> None:
    source = random.Random(seed)
    opened = open_store(db_url)
    try:
        service = make_service(opened, seed)
        tid = swiss(service, players, rounds=None)
        total = service.tournament(tid).settings.rounds
        assert total is not None
        withdrawn: dict[int, int] = {}
        for number in range(1, total + 1):
            for start in range(1, players + 1):
                if start not in withdrawn and source.random() < byes and number < total:
                    confirmed(service.request_bye, tid, start, number + 1, source.choice("HZF"))
            if withdrawal and number == 2:
                leaving = source.randint(1, players)
                service.withdraw(tid, leaving)
                withdrawn[leaving] = service.overview(tid).players[leaving - 1].withdrawn_from or 0
            try:
                service.publish_round(tid)
            except RuleError as error:
                # a small field can run out of legal pairings: the engine says so
                assert "cannot be paired" in str(error), str(error)
                return
            for game in service.overview(tid).games:
                if game.result is None:
                    value = "+-" if source.random() < forfeits else source.choice(RESULTS)
                    service.record_result(tid, game.round, game.board, value)
        _check_rules(service.tournament(tid), withdrawn)
        document = parse_trf(service.export_trf(tid), source="export")
        assert [c.round for c in check_document(document) if not c.agrees] == []
    finally:
        opened.close()


# -- manual pairings --------------------------------------------------------------------------


def test_a_manual_pairing_is_recorded_with_warnings(service: Service) -> None:
    tid = swiss(service, 8, rounds=3)
    proposal = service.propose_round(tid)
    boards = list(proposal.boards)
    boards[0] = (boards[0][1], boards[0][0])  # colours of board 1 reversed
    assert service.review_pairing(tid, boards) == [
        f"board 1: {boards[0][0]} – {boards[0][1]} has the colours reversed "
        f"(the Dutch system gives {boards[0][1]} – {boards[0][0]})"
    ]
    change = confirmed(service.publish_round, tid, boards, actor="arbiter")  # FIDE: level 3
    assert change.data["manual"] is True
    assert len(change.data["warnings"]) == 1 and "colours reversed" in change.data["warnings"][0]
    assert "manual pairing, differs from the Dutch system's" in change.summary
    assert games_of(service, tid, 1) == boards
    assert service.history(tid)[-1].summary == change.summary


def test_the_engine_pairing_given_by_hand_is_not_manual(service: Service) -> None:
    tid = swiss(service, 7, rounds=3)
    proposal = service.propose_round(tid)
    assert service.review_pairing(tid, proposal.boards, proposal.bye) == []
    change = service.publish_round(tid, proposal.boards, proposal.bye)
    assert change.data["manual"] is False and "manual" not in change.summary


def test_manual_pairings_other_pairs_and_board_order(service: Service) -> None:
    tid = swiss(service, 8, rounds=3)
    proposal = service.propose_round(tid)
    (a, b), (c, d), *rest = proposal.boards
    swapped = [(a, d), (c, b), *rest]
    warnings = service.review_pairing(tid, swapped)
    assert any("is not a pair of the Dutch system" in w for w in warnings)
    reordered = [proposal.boards[1], proposal.boards[0], *proposal.boards[2:]]
    assert service.review_pairing(tid, reordered) == [
        "the board order differs from the Dutch system's"
    ]


def test_a_manual_pairing_must_be_complete_and_legal(service: Service) -> None:
    tid = swiss(service, 5, rounds=3)
    proposal = service.propose_round(tid)
    boards = list(proposal.boards)
    with pytest.raises(RuleError, match=r"players .* are not paired"):
        service.publish_round(tid, boards[:-1], proposal.bye)
    with pytest.raises(RuleError, match="odd number"):
        service.publish_round(tid, boards)
    with pytest.raises(RuleError, match="paired twice"):
        service.publish_round(tid, [*boards, boards[0]], proposal.bye)
    with pytest.raises(RuleError, match="no player 9"):
        service.publish_round(tid, [(1, 9), *boards[1:]], proposal.bye)
    with pytest.raises(RuleError, match="needs the whole manual pairing"):
        service.publish_round(tid, None, 2)
    with pytest.raises(RuleError, match="not a pair"):
        service.publish_round(tid, [(1, 2, 3)], None)  # type: ignore[list-item]
    assert service.overview(tid).games == ()


def test_a_rematch_is_refused_unless_allowed(service: Service) -> None:
    tid = swiss(service, 4, rounds=3)
    service.publish_round(tid)
    play_round(service, tid, random.Random(1))
    round_one = games_of(service, tid, 1)
    with pytest.raises(RuleError, match=r"met in round 1 already \(a rematch"):
        service.publish_round(tid, round_one)
    assert games_of(service, tid, 2) == []
    change = confirmed(service.publish_round, tid, round_one, allow_rematch=True)
    assert change.data["manual"] is True
    assert any("rematch allowed by the organiser" in w for w in change.data["warnings"])


def test_the_pab_is_never_given_twice_by_hand(service: Service) -> None:
    tid = swiss(service, 3, rounds=3, fide_mode="off")  # (FIDE mode: test_fide_hand_rules.py)
    first = service.publish_round(tid)
    bye = first.data["bye"]
    play_round(service, tid, random.Random(3))
    others = [s for s in (1, 2, 3) if s != bye]
    with pytest.raises(RuleError, match="never given twice"):
        service.publish_round(tid, [(others[0], others[1])], bye, allow_rematch=True)


# -- byes and withdrawals ---------------------------------------------------------------------


def test_requested_byes_keep_players_out_until_cancelled(service: Service) -> None:
    tid = swiss(service, 6, rounds=3)
    change = service.request_bye(tid, 3, 2, "h", actor="arbiter")
    assert change.summary == "player 3 Player 3: half-point bye (H) in round 2"
    assert service.request_bye(tid, 3, 2, "H").replayed
    assert "was H" in service.request_bye(tid, 3, 2, "Z").summary
    # a bye ahead does not count in the live standings before its round is paired
    assert all(row["points"] == 0 for row in service.live_standings(tid)["rows"])
    service.publish_round(tid)
    play_round(service, tid, random.Random(4))
    assert service.propose_round(tid).absent == ((3, "Z"),)
    service.cancel_bye(tid, 3, 2)
    assert service.propose_round(tid).absent == ()
    confirmed(service.request_bye, tid, 5, 2, "F")  # a level-2 notice
    service.publish_round(tid)
    assert 5 not in {s for b in games_of(service, tid, 2) for s in b}
    play_round(service, tid, random.Random(5))
    points = {row["start"]: row["points"] for row in service.live_standings(tid)["rows"]}
    assert points[5] == float(service.tournament(tid).score(5))
    with pytest.raises(RuleError, match="round 2 is paired already"):
        service.request_bye(tid, 2, 2)
    with pytest.raises(RuleError, match="round 1 is paired already"):
        service.cancel_bye(tid, 5, 1)
    with pytest.raises(RuleError, match="no round 4"):
        service.request_bye(tid, 2, 4)
    with pytest.raises(RuleError, match="bye kind 'X'"):
        service.request_bye(tid, 2, 3, "X")
    with pytest.raises(NotFoundError, match="starting number 9"):
        service.request_bye(tid, 9, 3)
    with pytest.raises(RuleError, match="has no bye in round 3"):
        service.cancel_bye(tid, 2, 3)
    assert service.verify(tid) == []


def test_byes_only_in_a_running_swiss(service: Service) -> None:
    tid = swiss(service, 6, rounds=3, start=False)
    with pytest.raises(RuleError, match="has not started"):
        service.request_bye(tid, 1, 2)
    rr = service.create_tournament(Regulations(name="RR")).tournament_id
    for name in "ABCD":
        service.add_player(rr, PlayerInfo(name))
    service.draw_lots(rr, LotsMethod.MANUAL, order=(1, 2, 3, 4))
    service.start(rr)
    with pytest.raises(RuleError, match="only in a Swiss"):
        service.request_bye(rr, 1, 2)
    with pytest.raises(RuleError, match="only in a Swiss"):
        service.propose_round(rr)


def test_a_withdrawn_player_is_not_paired(service: Service) -> None:
    tid = swiss(service, 7, rounds=4)
    service.publish_round(tid)
    # withdrawing during a round: the game still open is forfeited, the opponent wins
    white, black = games_of(service, tid, 1)[0]
    change = service.withdraw(tid, white)
    assert "1 game forfeited" in change.summary and "not paired from round 2 on" in change.summary
    assert service.overview(tid).games[0].result == "-+"
    service.request_bye(tid, 2 if white != 2 else 3, 3)
    play_round(service, tid, random.Random(6))
    proposal = service.propose_round(tid)
    assert (white, "withdrawn") in proposal.absent
    assert white not in {s for b in proposal.boards for s in b} and proposal.bye != white
    # withdrawing between rounds: from the next round on; byes asked for later are dropped
    service.request_bye(tid, black, 3, "H")
    change = service.withdraw(tid, black)
    assert (
        "withdrew from round 2" in change.summary
        and "requested bye in round 3 dropped" in change.summary
    )
    assert (black, "withdrawn") in service.propose_round(tid).absent
    with pytest.raises(RuleError, match="withdrew from round 2"):
        service.request_bye(tid, black, 4)
    service.publish_round(tid)
    play_round(service, tid, random.Random(7))
    playing = games_of(service, tid, 2)[0][0]
    with pytest.raises(RuleError, match="already has a result in round 2"):
        service.withdraw(tid, playing, from_round=2)
    assert service.verify(tid) == []


def test_no_withdrawal_after_the_last_round(service: Service) -> None:
    tid = swiss(service, 4, rounds=2, finish="confirm")  # (else finished: refused anyway)
    for _ in range(2):
        service.publish_round(tid)
        play_round(service, tid, random.Random(8))
    with pytest.raises(RuleError, match="after the last round is refused"):
        service.withdraw(tid, 1)
    with pytest.raises(RuleError, match="no round 3"):
        service.withdraw(tid, 1, from_round=3)


# -- errors, undo, idempotency ----------------------------------------------------------------


def test_pairing_errors_are_clear(service: Service) -> None:
    tid = swiss(service, 6, rounds=2, start=False)
    with pytest.raises(RuleError, match="has not started"):
        service.propose_round(tid)
    with pytest.raises(RuleError, match="has not started"):
        service.publish_round(tid)
    service.start(tid)
    service.publish_round(tid)
    service.record_result(tid, 1, 2, "1-0")
    assert service.propose_round(tid).round == 2  # boards 1 and 3 as adjourned, stored: no
    assert [g.result for g in service.overview(tid).games] == [None, "1-0", None]
    service.record_result(tid, 1, 1, "1-0")
    with pytest.raises(ConflictError, match=r"recorded as adjourned .*: round 1 board 3"):
        service.publish_round(tid)  # (a level-2 warning: they would be adjourned)
    service.record_result(tid, 1, 3, "0-1")
    with pytest.raises(RuleError, match="round 2 of 2 is not paired yet"):
        service.finish(tid)
    service.publish_round(tid)
    with pytest.raises(RuleError, match="all 2 rounds are paired"):
        service.publish_round(tid)
    play_round(service, tid, random.Random(9))
    service.finish(tid)
    with pytest.raises(RuleError, match="is finished"):
        service.propose_round(tid)
    with pytest.raises(NotFoundError):
        service.propose_round(99)


def test_undo_of_a_published_round_and_of_byes(service: Service) -> None:
    tid = swiss(service, 5, rounds=3)
    service.request_bye(tid, 2, 1, "H")
    before = service.propose_round(tid)
    service.publish_round(tid)
    assert games_of(service, tid, 1) == list(before.boards)
    undone = service.undo(tid)
    assert undone.summary.startswith("undo #") and "round 1 paired" in undone.summary
    assert games_of(service, tid, 1) == []
    assert service.propose_round(tid) == before  # the requested bye is still there
    service.undo(tid)  # the bye request
    again = service.propose_round(tid)
    assert again.absent == () and again.bye is not None
    assert service.overview(tid).rounds == 0
    service.request_bye(tid, 2, 1, "H")
    service.cancel_bye(tid, 2, 1)
    service.undo(tid)  # the cancellation: the bye is back
    assert service.propose_round(tid).absent == ((2, "H"),)
    assert service.verify(tid) == []


def test_publishing_twice_with_the_same_key_counts_once(service: Service) -> None:
    tid = swiss(service, 6, rounds=3)
    first = service.publish_round(tid, idempotency_key="round-1")
    again = service.publish_round(tid, idempotency_key="round-1")
    assert (
        again.replayed and again.seq == first.seq and again.data["boards"] == first.data["boards"]
    )
    assert len(service.overview(tid).games) == 3
    with pytest.raises(ConflictError, match="already used for another request"):
        service.publish_round(tid, [(1, 2), (3, 4), (5, 6)], idempotency_key="round-1")


def test_the_trf_export_carries_the_initial_colour_and_forbidden_pairs(service: Service) -> None:
    tid = swiss(service, 8, rounds=3, initial_colour="black", forbidden="1-2,3-4")
    source = random.Random(5)
    for _ in range(3):
        service.publish_round(tid)
        play_round(service, tid, source)
    document = parse_trf(service.export_trf(tid), source="export")
    assert document.initial_colour is Colour.BLACK
    assert set(document.forbidden_pairs) == {(1, 2), (3, 4)}
    # a pairing program given the file pairs every round as the service did
    assert [c.round for c in check_document(document) if not c.agrees] == []
    met = {frozenset((g.white, g.black)) for r in service.tournament(tid).rounds for g in r.games}
    assert frozenset((1, 2)) not in met and frozenset((3, 4)) not in met
