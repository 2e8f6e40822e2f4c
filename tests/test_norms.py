"""Title norms (FIDE B.01, effective 1 January 2024): crosstable.core.norms.

The expected figures are worked by hand from the regulations: Ra by 1.4.6-1.4.7,
p rounded to a whole percentage (1.4.9's note), dp from table 1.4.9 (= B.02
8.1.1), the levels of 1.4.8; each case says its arithmetic.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crosstable.core.model import (
    Bye,
    ByeKind,
    Game,
    GameResult,
    Player,
    Round,
    Settings,
    System,
    Tournament,
)
from crosstable.core.norms import (
    NORMS,
    NormCheck,
    NormRule,
    Opponent,
    PlayerNorms,
    adjusted_average,
    check_norm,
    large_swiss,
    required_score,
    tournament_norms,
)
from crosstable.core.schedule.berger import berger_table
from crosstable.formats.trf_read import parse_trf

GM, IM, WGM, WIM = NORMS

# A ten-player round robin (9 rounds) around player 1 (ENG, 2300, no title):
# 3 GMs 2500 (GER, FRA, NED), 2 IMs 2400 (ENG), FMs 2300 (ENG, ESP), two 2260 (ENG).
# Sum 21420 / 9 = 2380 = the GM minimum (1.4.8a); 7 title-holders of 9 (1.4.5a needs 5);
# 3 GMs (1.4.5b needs max(3, 9/3) = 3); 5 ENG opponents (1.4.4: at most 3 x 9 // 5 = 5);
# 4 other federations (1.4.3 needs 2).
FIELD = [
    Player(1, "Candidate", 2300, "", "ENG"),
    Player(2, "GM Germany", 2500, "g", "GER"),
    Player(3, "GM France", 2500, "GM", "FRA"),
    Player(4, "GM Netherlands", 2500, "g", "NED"),
    Player(5, "IM One", 2400, "m", "ENG"),
    Player(6, "IM Two", 2400, "IM", "ENG"),
    Player(7, "FM England", 2300, "f", "ENG"),
    Player(8, "FM Spain", 2300, "f", "ESP"),
    Player(9, "Club One", 2260, "", "ENG"),
    Player(10, "Club Two", 2260, "", "ENG"),
]


def _robin(
    players: list[Player],
    first_score: Callable[[int], str],
    played_rounds: int = 9,
) -> Tournament:
    """Berger rounds; player 1's game against ``opp`` ends ``first_score(opp)`` (from 1's
    side: "1", "=", "0"), every other game is drawn; rounds after ``played_rounds`` pending."""
    table = berger_table(len(players))
    rounds = []
    for scheduled in table.rounds:
        games = []
        for board, (white, black) in enumerate(scheduled.boards, start=1):
            result = None
            if scheduled.number <= played_rounds:
                if 1 in (white, black):
                    own = first_score(black if white == 1 else white)
                    text = {"1": "1-0", "=": "½-½", "0": "0-1"}[own]
                    if black == 1:
                        text = {"1-0": "0-1", "0-1": "1-0"}.get(text, text)
                    result = GameResult.parse(text)
                else:
                    result = GameResult.parse("½-½")
            games.append(Game(scheduled.number, board, white, black, result))
        byes = (
            () if scheduled.bye is None else (Bye(scheduled.number, scheduled.bye, ByeKind.FREE),)
        )
        rounds.append(Round(scheduled.number, tuple(games), byes))
    return Tournament(Settings(), tuple(players), tuple(rounds))


def _seven(opp: int) -> str:
    return "=" if opp in (2, 3, 4, 5) else "1"  # 4 draws and 5 wins: 7 / 9


def _checks(rows: tuple[PlayerNorms, ...], start: int) -> dict[str, NormCheck]:
    return {c.norm: c for c in rows[start - 1].checks}


def test_gm_norm_made_with_seven_of_nine_against_2380() -> None:
    # 7 / 9 = 77.8 % -> 78 % -> dp 220; Rp = 2380 + 220 = 2600 (1.4.8: GM 2600)
    rows = tournament_norms(_robin(FIELD, _seven))
    checks = _checks(rows, 1)
    gm = checks["GM"]
    assert (gm.status, gm.average, gm.performance, gm.score) == ("made", 2380, 2600, 7)
    assert checks["IM"].status == "made"
    assert "WGM" not in checks  # women's norms only for women


def test_six_and_a_half_is_an_im_norm_but_no_gm_norm() -> None:
    # 6.5 / 9 = 72.2 % -> 72 % -> dp 166: Rp 2546 < 2600, >= 2450
    rows = tournament_norms(_robin(FIELD, lambda o: "=" if o in (2, 3, 4, 5, 6) else "1"))
    checks = _checks(rows, 1)
    gm = checks["GM"]
    assert gm.status == "not possible" and gm.performance == 2546
    assert "performance at least 2600 (is 2546)" in gm.failures
    assert checks["IM"].status == "made"


def test_required_scores_for_nine_games() -> None:
    # GM, 9 games: 7 against 2380 (78 % -> 220), 6.5 from 2434 (72 % -> 166),
    # 6 from 2475 (67 % -> 125), 4.5 from 2600 (50 % -> 0)
    assert required_score(2380, 9, GM) == 7
    assert required_score(2433, 9, GM) == 7
    assert required_score(2434, 9, GM) == Fraction(13, 2)
    assert required_score(2475, 9, GM) == 6
    assert required_score(2600, 9, GM) == Fraction(9, 2)
    assert required_score(2379, 9, GM) is None  # below the minimum average
    # the 35 % minimum: against 2900 a 3 / 9 (33 %) would give 2900 - 125 but is not enough
    assert required_score(2900, 9, GM) == Fraction(7, 2)  # 39 % -> -80: 2820


def test_rating_floor_raises_only_the_lowest() -> None:
    # 1.4.6b-c: GM floor 2200. Opponents 2500 x 7, 2000, 1900: only the 1900 is raised.
    # (17500 + 2000 + 2200) / 9 = 2411.1 -> 2411
    assert adjusted_average([2500] * 7 + [2000, 1900], 2200) == 2411
    # unrated counts as 1400 (1.4.6d), then is the lowest and is raised: (2500 x 8 + 2200) / 9
    assert adjusted_average([2500] * 8 + [None], 2200) == 2467  # 2466.67 -> 2467
    # IM floor 2050: (2500 x 8 + 2050) / 9 = 2450
    assert adjusted_average([2500] * 8 + [None], 2050) == 2450


def test_federation_mix() -> None:
    # every opponent English: no foreign federation, 9 > 5 from the player's own
    home = [Player(p.start, p.name, p.rating, p.title, "ENG") for p in FIELD]
    gm = _checks(tournament_norms(_robin(home, _seven)), 1)["GM"]
    assert gm.status == "not possible"
    assert "opponents from at least 2 federations other than the player's" in gm.failures
    assert "at most 5 opponents from the player's federation" in gm.failures
    # a national championship's final (1.4.3a) waives the rule
    exempt = _checks(tournament_norms(_robin(home, _seven), federation_exempt=True), 1)
    assert exempt["GM"].status == "made"


def test_titled_opponents() -> None:
    # two GMs only (the French GM untitled): 1.4.5b needs 3 GMs
    fewer = [p if p.start != 3 else Player(3, "No title", 2500, "", "FRA") for p in FIELD]
    gm = _checks(tournament_norms(_robin(fewer, _seven)), 1)["GM"]
    assert "at least 3 opponents with the GM title or higher" in gm.failures


def test_rounds_left_in_a_round_robin() -> None:
    """After 6 rounds the remaining 3 opponents are known (the schedule), so the check is
    exact: 7 / 9 overall is needed; what player 1 has so far decides what is still needed."""
    t = _robin(FIELD, _seven, played_rounds=6)
    gm = _checks(tournament_norms(t), 1)["GM"]
    assert gm.games_left == 3 and not gm.estimate
    assert gm.required == 7
    assert gm.status == "possible"
    assert gm.still_needed == 7 - gm.score
    # everything won so far but 7 - score > 3: out of reach
    t_bad = _robin(FIELD, lambda o: "0", played_rounds=6)
    bad = _checks(tournament_norms(t_bad), 1)["GM"]
    assert bad.status == "not possible" and "needs 7 from 3 games left" in bad.failures


def test_women_get_womens_norms_and_titles_already_held_are_skipped() -> None:
    woman = [Player(1, "Candidate", 2300, "wm", "ENG", sex="w"), *FIELD[1:]]
    checks = _checks(tournament_norms(_robin(woman, _seven)), 1)
    assert set(checks) == {"GM", "IM", "WGM"}  # a WIM needs no WIM norm
    assert checks["WGM"].status == "made"
    gm_player = _checks(tournament_norms(_robin(FIELD, _seven)), 2)
    assert gm_player == {}


def test_fewer_than_nine_games_in_a_real_swiss(data_dir: Path) -> None:
    """Kilkenny Masters 2011: 6 rounds, so nobody can make a norm there (1.4.1a)."""
    path = data_dir / "tiebreaks" / "real" / "icu_kilkenny_masters_2011.trf"
    doc = parse_trf(path.read_text(encoding="utf-8"), source=str(path))
    rows = tournament_norms(doc.tournament)
    for row in rows:
        for check in row.checks:
            assert check.status == "not possible"
            assert any(f.startswith("at least 9 games") for f in check.failures)


def _swiss_so_far(rounds_played: int, planned: int) -> Tournament:
    """Player 1 met 2, 3, 4, 5, 6 (GMs and IMs, 2 federations besides ENG) and won all."""
    games = [Round(r, (Game(r, 1, 1, r + 1, GameResult.parse("1-0")),)) for r in range(1, 6)]
    return Tournament(
        Settings(system=System.SWISS_DUTCH, rounds=planned),
        tuple(FIELD),
        tuple(games[:rounds_played]),
    )


def test_swiss_with_rounds_left_is_an_estimate() -> None:
    # 5 wins against 2500, 2500, 2500, 2400, 2400: Ra 2460. 9 rounds: 4 left.
    # Needed over 9 games against 2460: 6 (67 % -> 125: 2585) is short, 6.5 (72 % -> 166: 2626)
    t = _swiss_so_far(5, 9)
    gm = _checks(tournament_norms(t), 1)["GM"]
    assert gm.estimate and gm.games_left == 4
    assert gm.average == 2460 and gm.required == Fraction(13, 2)
    assert gm.still_needed == Fraction(3, 2) and gm.status == "possible"
    # only 7 rounds: 7 games can never be 9
    short = _checks(tournament_norms(_swiss_so_far(5, 7)), 1)["GM"]
    assert short.status == "not possible" and short.failures[0] == "at least 9 games"


def test_eight_games_and_a_forfeit_win_count_in_nine_rounds() -> None:
    # 1.4.1c: 8 games + a forfeit win in a 9-round event is a 9-game norm
    opponents = [
        Opponent(s, 2500, "GM", f)
        for s, f in zip(
            range(2, 10), ["GER", "FRA", "NED", "ESP", "USA", "ITA", "IND", "CHN"], strict=True
        )
    ]
    played = [(o, 2) for o in opponents[:6]] + [(o, 1) for o in opponents[6:]]  # 7 / 8
    with_bye = check_norm(GM, "ENG", played, [], 0, bye_counts=True)
    without = check_norm(GM, "ENG", played, [], 0, bye_counts=False)
    assert with_bye.status == "made"
    assert without.status == "not possible" and without.failures[0] == "at least 9 games (has 8)"


def test_unrated_opponent_without_a_point_in_a_round_robin_is_left_out() -> None:
    # 1.4.2b: player 10 unrated and scoring 0 against the rated players -> not counted
    field = [*FIELD[:9], Player(10, "Unrated", None, "", "ENG")]

    def result(opp: int) -> str:
        return _seven(opp)

    t = _robin(field, result)
    # make player 10 lose every game: rebuild its results
    rounds = []
    for rnd in t.rounds:
        games = []
        for g in rnd.games:
            if 10 in (g.white, g.black) and 1 not in (g.white, g.black):
                g = Game(
                    g.round,
                    g.board,
                    g.white,
                    g.black,
                    GameResult.parse("1-0" if g.black == 10 else "0-1"),
                )
            games.append(g)
        rounds.append(Round(rnd.number, tuple(games), rnd.byes))
    t = Tournament(t.settings, t.players, tuple(rounds))
    gm = _checks(tournament_norms(t), 1)["GM"]
    assert gm.games == 8  # the game against 10 is not counted


@pytest.mark.parametrize("rule", NORMS)
def test_performance_levels_need_the_minimum_average(rule: NormRule) -> None:
    assert required_score(rule.average - 1, 9, rule) is None
    assert required_score(rule.average, 9, rule) is not None


def test_points_above_the_norm_count_as_extra_games() -> None:
    # 1.4.1d: 9 / 9 against 2380 where 7 is needed: two full points over, 11 games
    rows = tournament_norms(_robin(FIELD, lambda o: "1"))
    gm = _checks(rows, 1)["GM"]
    assert gm.status == "made" and gm.counts_as == 11
    assert _checks(tournament_norms(_robin(FIELD, _seven)), 1)["GM"].counts_as == 9
    # 8.5 / 9: half a point over is no extra game
    half = _checks(tournament_norms(_robin(FIELD, lambda o: "=" if o == 2 else "1")), 1)["GM"]
    assert half.counts_as == 10  # 8.5 - 7 = 1.5: one full point


def _open_field(foreign: int, federations: tuple[str, ...], titled: int) -> Tournament:
    """A Swiss: player 1 (ENG) and ``foreign`` rated players of ``federations`` in turn,
    the first ``titled`` of them GMs; one round, 1 v 2, 3 v 4 … all drawn."""
    players = [Player(1, "Host player", 2300, "", "ENG")]
    for i in range(foreign):
        title = "g" if i < titled else ""
        players.append(Player(i + 2, f"P{i + 2}", 2400, title, federations[i % len(federations)]))
    if len(players) % 2:
        players.append(Player(len(players) + 1, "Local", 2000, "", "ENG"))
    games = tuple(
        Game(1, b, w, w + 1, GameResult.parse("½-½"))
        for b, w in enumerate(range(1, len(players), 2), start=1)
    )
    return Tournament(
        Settings(system=System.SWISS_DUTCH, rounds=9), tuple(players), (Round(1, games),)
    )


def test_large_swiss_waives_the_federation_rule() -> None:
    # 1.4.3d: 20 rated players not of the host federation, 3 federations, 10 titled
    assert large_swiss(_open_field(20, ("GER", "FRA", "NED"), 10), "ENG")
    assert not large_swiss(_open_field(19, ("GER", "FRA", "NED"), 10), "ENG")
    assert not large_swiss(_open_field(20, ("GER", "FRA"), 10), "ENG")
    assert not large_swiss(_open_field(20, ("GER", "FRA", "NED"), 9), "ENG")
    # the host federation's own players do not count
    assert not large_swiss(_open_field(20, ("GER", "FRA", "NED"), 10), "GER")
    # a round robin never is one
    t = _open_field(20, ("GER", "FRA", "NED"), 10)
    assert not large_swiss(Tournament(Settings(), t.players, t.rounds), "ENG")


def test_large_swiss_counts_only_players_who_missed_at_most_one_round() -> None:
    t = _open_field(20, ("GER", "FRA", "NED"), 10)  # players 2-21 foreign, 22 local
    draw = GameResult.parse("½-½")

    def later(number: int, absent_21: bool) -> Round:
        games = [Game(number, b, w, w + 1, draw) for b, w in enumerate(range(1, 21, 2), 1)]
        if absent_21:  # 21 sits out with a half-point bye, 22 gets the pairing bye
            byes = (Bye(number, 21, ByeKind.HALF), Bye(number, 22, ByeKind.PAIRING))
            return Round(number, tuple(games), byes)
        return Round(number, (*games, Game(number, 11, 21, 22, draw)))

    twice = Tournament(t.settings, t.players, (*t.rounds, later(2, True), later(3, True)))
    assert not large_swiss(twice, "ENG")  # 21 missed two rounds: 19 counted
    once = Tournament(t.settings, t.players, (*t.rounds, later(2, True), later(3, False)))
    assert large_swiss(once, "ENG")  # one round missed; 22's pairing bye is no absence


def test_entries_in_one_pass_equal_the_models(data_dir: Path) -> None:
    from crosstable.core.norms import entries_by_player
    from crosstable.formats.trf_encoding import decode_with_note

    for path in sorted((data_dir / "tiebreaks" / "real").glob("*.trf")):
        text, _ = decode_with_note(path.read_bytes())
        t = parse_trf(text, source=str(path), lenient=True).tournament
        assert entries_by_player(t) == {p.start: t.entries(p.start) for p in t.players}, path


@given(st.integers(1800, 2900), st.integers(1800, 2900), st.integers(1, 15), st.sampled_from(NORMS))
@settings(max_examples=200)
def test_required_score_is_the_least_and_falls_as_the_field_gets_stronger(
    a: int, b: int, games: int, rule: NormRule
) -> None:
    from crosstable.core.norms import percentage
    from crosstable.core.tiebreaks.fide_tables import dp

    low, high = sorted((a, b))
    weak, strong = required_score(low, games, rule), required_score(high, games, rule)
    if weak is not None:
        assert strong is not None and strong <= weak
    if strong is not None:
        halves = int(2 * strong)
        share = percentage(halves, games)
        assert share >= 35 and high + dp(share) >= rule.performance
        if halves:
            less = percentage(halves - 1, games)
            assert less < 35 or high + dp(less) < rule.performance
