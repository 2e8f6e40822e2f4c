"""A bye counts in the live table only once its round has begun (issue 27 item 6).

The oracle here is written from the rule alone: a round has begun once a result of
one of its games, or of a later round's game, is in; a bye of a round that has
begun is worth its value under the point system, any other bye nothing yet. Results
are played in a random order (rounds out of order too); after every result the live
table's points equal the oracle's and a full recount's whole table, and once every
game is played the live table equals the final table.
"""

from __future__ import annotations

from fractions import Fraction

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from crosstable.core.model import (
    Bye,
    ByeKind,
    Game,
    GameResult,
    Player,
    Round,
    RulesEdition,
    Settings,
    System,
    Tournament,
)
from crosstable.core.schedule.berger import berger_table
from crosstable.core.scoring import PointSystem
from crosstable.core.standings import Standings, compute_standings
from crosstable.core.standings.begun import rounds_begun
from crosstable.core.standings.live import LiveStandings

RUNS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

#: point systems: FIDE, football, 2-1-0, and custom ones with their own bye values
SYSTEMS = [
    PointSystem.classic(),
    PointSystem.three_one_zero(),
    PointSystem.parse("2-1-0"),
    PointSystem(win=Fraction(5), draw=Fraction(2), loss=Fraction(1)),
    PointSystem(
        win=Fraction(3),
        draw=Fraction(1),
        half_bye=Fraction(1, 2),
        full_bye=Fraction(2),
        pairing_bye=Fraction(1),
        zero_bye=Fraction(1, 4),
    ),
]
BOARD = ["1-0", "0-1", "1/2-1/2"]
ANY = [*BOARD, "+-", "-+", "--"]
RR_CODES = "PTS,DE,WIN,SB,KS,BH,PS,ARO"
SWISS_CODES = "PTS,BH,BH/C1,SB,AOB,ARO,PS,WIN,REP"


def parse(text: str) -> GameResult:
    return GameResult.parse(text)


@st.composite
def round_robins(draw: st.DrawFn) -> Tournament:
    """Odd and even fields, one or two cycles, any point system and free-round value."""
    size = draw(st.integers(3, 8))
    cycles = draw(st.integers(1, 2))
    ps = draw(st.sampled_from(SYSTEMS))
    bye_points = draw(st.sampled_from([None, Fraction(0), ps.draw, ps.win]))
    table = berger_table(size + size % 2)
    rounds = []
    for cycle in range(cycles):
        for rnd in table.rounds:
            number = cycle * len(table.rounds) + rnd.number
            pairs = [(b, w) if cycle else (w, b) for w, b in rnd.boards]
            games = tuple(
                Game(number, board, w, b)
                for board, (w, b) in enumerate(
                    [(w, b) for w, b in pairs if w <= size and b <= size], start=1
                )
            )
            byes = tuple(Bye(number, min(w, b), ByeKind.FREE) for w, b in pairs if max(w, b) > size)
            rounds.append(Round(number, games, byes))
    players = tuple(Player(i, f"P{i}", rating=1400 + 37 * i) for i in range(1, size + 1))
    edition = draw(st.sampled_from(list(RulesEdition)))
    settings_ = Settings(point_system=ps, bye_points=bye_points, cycles=cycles, rules=edition)
    return Tournament(settings=settings_, players=players, rounds=tuple(rounds))


@st.composite
def swiss_events(draw: st.DrawFn) -> Tournament:
    """Pairings of every round made up front (as a Swiss round is once paired, with its
    byes asked ahead); each round has at least one game."""
    size = draw(st.integers(3, 9))
    count = draw(st.integers(1, 5))
    ps = draw(st.sampled_from(SYSTEMS))
    rounds = []
    for number in range(1, count + 1):
        order = draw(st.permutations(list(range(1, size + 1))))
        games: list[Game] = [Game(number, 1, order[0], order[1])]
        byes: list[Bye] = []
        i = 2
        while i < len(order):
            if i + 1 < len(order) and draw(st.booleans()):
                games.append(Game(number, len(games) + 1, order[i], order[i + 1]))
                i += 2
            else:
                kind = draw(
                    st.sampled_from([ByeKind.PAIRING, ByeKind.FULL, ByeKind.HALF, ByeKind.ZERO])
                )
                byes.append(Bye(number, order[i], kind))
                i += 1
        rounds.append(Round(number, tuple(games), tuple(byes)))
    players = tuple(Player(i, f"P{i}", rating=1400 + 37 * i) for i in range(1, size + 1))
    edition = draw(st.sampled_from(list(RulesEdition)))
    settings_ = Settings(system=System.SWISS_DUTCH, point_system=ps, rounds=count, rules=edition)
    return Tournament(settings=settings_, players=players, rounds=tuple(rounds))


def bye_value(t: Tournament, kind: ByeKind) -> Fraction:
    ps = t.settings.point_system
    return {
        ByeKind.FREE: t.settings.bye_points or Fraction(0),
        ByeKind.PAIRING: ps.pairing_bye_points,
        ByeKind.FULL: ps.full_bye_points,
        ByeKind.HALF: ps.half_bye_points,
        ByeKind.ZERO: ps.zero_bye,
    }[kind]


def oracle(t: Tournament) -> dict[int, Fraction]:
    """Everyone's points from the results known so far, with the rule above."""
    ps = t.settings.point_system
    begun = 0
    for index, rnd in enumerate(t.rounds):
        if any(game.result is not None for game in rnd.games):
            begun = index + 1
    total = {p.start: Fraction(0) for p in t.players}
    for index, rnd in enumerate(t.rounds):
        for game in rnd.games:
            if game.result is not None:
                total[game.white] += game.result.white.points(ps)
                total[game.black] += game.result.black.points(ps)
        if index < begun:
            for bye in rnd.byes:
                total[bye.player] += bye_value(t, bye.kind)
    return total


def rows(table: Standings) -> list[tuple[object, ...]]:
    return [(row.start, row.rank, row.points, row.values) for row in table.rows]


def play(t: Tournament, data: st.DataObject, results: list[str], codes: str) -> None:
    spots = [(r, g) for r, rnd in enumerate(t.rounds) for g in range(len(rnd.games))]
    order = data.draw(st.permutations(spots))
    live = LiveStandings(t, codes)
    current = t
    for r, g in order:
        game = current.rounds[r].games[g]
        result = parse(data.draw(st.sampled_from(results)))
        live.record(game.round, game.white, game.black, result)
        current = current.with_result(game.round, game.board, result)
        table = live.standings()
        want = oracle(current)
        assert {row.start: row.points for row in table.rows} == want
        assert rows(table) == rows(compute_standings(current, codes))
    final = compute_standings(current, codes, final=True)
    assert rows(live.standings()) == rows(final)
    assert not live.standings().provisional


@RUNS
@given(round_robins(), st.data())
def test_r_rr_12_round_robin_byes_count_once_their_round_has_begun(
    t: Tournament, data: st.DataObject
) -> None:
    play(t, data, BOARD, RR_CODES)


@RUNS
@given(swiss_events(), st.data())
def test_r_rr_12_swiss_byes_count_once_their_round_has_begun(
    t: Tournament, data: st.DataObject
) -> None:
    play(t, data, ANY, SWISS_CODES)


@RUNS
@given(round_robins(), st.data())
def test_r_rr_12_clearing_results_takes_a_rounds_byes_back_out(
    t: Tournament, data: st.DataObject
) -> None:
    """Results entered, then taken back (undo) in a random order: the live table follows
    the rule both ways and matches a recount at every step."""
    spots = [(r, g) for r, rnd in enumerate(t.rounds) for g in range(len(rnd.games))]
    chosen = data.draw(st.lists(st.sampled_from(spots), min_size=1, max_size=12, unique=True))
    live = LiveStandings(t, RR_CODES)
    current = t
    steps = [(spot, True) for spot in chosen] + [
        (spot, False) for spot in data.draw(st.permutations(chosen))
    ]
    for (r, g), enter in steps:
        game = t.rounds[r].games[g]
        result = parse(data.draw(st.sampled_from(BOARD))) if enter else None
        live.record(game.round, game.white, game.black, result)
        current = current.with_result(game.round, game.board, result)
        assert {row.start: row.points for row in live.standings().rows} == oracle(current)
        assert rows(live.standings()) == rows(compute_standings(current, RR_CODES))
    assert rounds_begun(current) == 0


def five_under_three_one_zero() -> Tournament:
    """Five players, 3-1-0, the free round worth a win (3 points)."""
    settings_ = Settings(point_system=PointSystem.three_one_zero(), bye_points=Fraction(3))
    table = berger_table(6)
    rounds = tuple(
        Round(
            rnd.number,
            tuple(
                Game(rnd.number, board, w, b)
                for board, (w, b) in enumerate(
                    [(w, b) for w, b in rnd.boards if max(w, b) <= 5], start=1
                )
            ),
            tuple(Bye(rnd.number, min(w, b), ByeKind.FREE) for w, b in rnd.boards if max(w, b) > 5),
        )
        for rnd in table.rounds
    )
    players = tuple(Player(i, f"P{i}") for i in range(1, 6))
    return Tournament(settings=settings_, players=players, rounds=rounds)


def test_r_rr_12_no_free_round_is_scored_before_its_round() -> None:
    t = five_under_three_one_zero()
    points = {row.start: row.points for row in compute_standings(t, "SB").rows}
    assert set(points.values()) == {0}  # before: every player already had 3 points
    live = LiveStandings(t, "SB")
    first = t.rounds[0]
    sitter = first.byes[0].player
    live.record(1, first.games[0].white, first.games[0].black, GameResult.DRAW())
    now = {row.start: row.points for row in live.standings().rows}
    assert now[sitter] == 3
    others = set(range(1, 6)) - {sitter, first.games[0].white, first.games[0].black}
    assert all(now[p] == 0 for p in others)
    live.record(1, first.games[0].white, first.games[0].black, None)
    assert {row.points for row in live.standings().rows} == {0}


def test_r_rr_12_a_round_of_byes_alone_waits_for_a_later_round() -> None:
    """A round holding only byes asked ahead is not scored while nothing later is in."""
    players = tuple(Player(i, f"P{i}") for i in range(1, 4))
    rounds = (
        Round(1, (Game(1, 1, 1, 2, GameResult.WHITE_WINS()),), (Bye(1, 3, ByeKind.PAIRING),)),
        Round(2, (), (Bye(2, 1, ByeKind.HALF),)),
    )
    t = Tournament(settings=Settings(system=System.SWISS_DUTCH), players=players, rounds=rounds)
    table = compute_standings(t, "BH")
    assert {row.start: row.points for row in table.rows} == {1: 1, 2: 0, 3: 1}
    assert table.provisional
    final = compute_standings(t, "BH", final=True)
    assert {row.start: row.points for row in final.rows} == {1: Fraction(3, 2), 2: 0, 3: 1}


def test_r_rr_12_a_final_table_counts_every_bye() -> None:
    t = five_under_three_one_zero()
    final = compute_standings(t, "SB", final=True)
    assert {row.points for row in final.rows} == {3}
