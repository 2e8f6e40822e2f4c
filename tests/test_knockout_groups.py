"""Group stage + knockout: group winners (or the top k) fill the bracket (R-RR-17, R-KO-1)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from crosstable.core.errors import RuleError
from crosstable.core.model import (
    Game,
    GameResult,
    Outcome,
    Player,
    Reason,
    Round,
    Settings,
    Tournament,
)
from crosstable.core.pairing.knockout import MatchRules
from crosstable.core.pairing.knockout_bracket import BracketOrder
from crosstable.core.pairing.knockout_groups import (
    cross_seeded_bracket,
    cross_seeded_lines,
    group_qualifiers,
    group_ranking,
    knockout_from_groups,
    played_a_game,
)
from crosstable.core.schedule.cycles import berger_schedule
from crosstable.core.schedule.groups import plan_group_stage, snake_groups
from crosstable.core.standings import compute_standings
from tests.test_knockout_helpers import play_out

EVENT = tuple(Player(i, f"Player {i}", 2600 - 10 * i) for i in range(1, 17))


def group(
    members: tuple[int, ...], rng: random.Random, *, cycles: int = 2, draws: bool = False
) -> Tournament:
    """A finished round robin of the event players ``members`` (local numbers 1…n)."""
    players = tuple(
        Player(j, EVENT[m - 1].name, EVENT[m - 1].rating) for j, m in enumerate(members, 1)
    )
    rounds = []
    for rnd in berger_schedule(len(members), cycles=cycles).rounds:
        games = []
        for board, (white, black) in enumerate(rnd.boards, 1):
            text = "1/2-1/2" if draws else rng.choice(["1-0", "0-1", "1/2-1/2"])
            games.append(Game(rnd.number, board, white, black, GameResult.parse(text)))
        rounds.append(Round(rnd.number, tuple(games)))
    return Tournament(Settings(cycles=cycles), players, tuple(rounds))


def test_sixteen_players_four_groups_winners_to_semi_finals() -> None:
    # R-RR-17 / seed 001: 4 double-round-robin groups of 4, winners to semi-finals
    # and a final: 48 group games + 2 + 1 = 51 games
    plan = plan_group_stage(16, groups=4, cycles=2, qualifiers_per_group=1)
    members = snake_groups(16, 4)
    rng = random.Random(2026)
    groups = [group(m, rng) for m in members]
    group_games = sum(len(r.games) for g in groups for r in g.rounds)
    ko = knockout_from_groups(groups, plan, rules=MatchRules(seed=1), lots_seed=7)
    winners = []
    for g, m in zip(groups, members, strict=True):
        best = compute_standings(g, final=True, lots_seed=7).rows[0].start
        winners.append(m[best - 1])
    assert ko.bracket.order is BracketOrder.GROUPS
    assert ko.bracket.seeding == tuple(winners)  # A1, B1, C1, D1
    a1, b1, c1, d1 = winners
    assert [m.players for m in ko.matches] == [(a1, d1), (b1, c1)]  # semi-finals
    ko = play_out(ko, rng)
    knockout_games = sum(len(m.status(ko.rules).games) for m in ko.matches)
    assert ko.champion in winners
    assert (group_games, knockout_games) == (48, 3)
    assert group_games + knockout_games == plan.total_games == 51
    assert ko.bracket.rounds == plan.knockout_rounds


def test_two_per_group_cross_seeded() -> None:
    plan = plan_group_stage(16, groups=4, cycles=1, qualifiers_per_group=2)
    members = snake_groups(16, 4)
    rng = random.Random(5)
    groups = [group(m, rng, cycles=1) for m in members]
    ko = knockout_from_groups(groups, plan, lots_seed=3)
    ranked = [
        [m[s - 1] for s in group_ranking(g, lots_seed=3)[:2]]
        for g, m in zip(groups, members, strict=True)
    ]
    (a1, a2), (b1, b2), (c1, c2), (d1, d2) = ranked
    assert [m.players for m in ko.matches] == [(a1, b2), (d1, c2), (b1, a2), (c1, d2)]
    for first, second in ranked:  # group mates meet again only in the final
        assert ko.bracket.meeting_round(first, second) == 3
    assert {p.start: p.rating for p in ko.bracket.players}[a1] == EVENT[a1 - 1].rating


def test_tie_at_the_cut_must_be_broken() -> None:
    plan = plan_group_stage(8, groups=2, cycles=1, qualifiers_per_group=1)
    rng = random.Random(1)
    groups = [group(m, rng, cycles=1, draws=True) for m in snake_groups(8, 2)]
    with pytest.raises(RuleError, match="group A: places 1 and 2 are tied"):
        knockout_from_groups(groups, plan)
    ko = knockout_from_groups(groups, plan, lots_seed=11)
    assert len(ko.matches) == 1


def test_groups_must_match_the_plan() -> None:
    plan = plan_group_stage(8, groups=2, qualifiers_per_group=1)
    rng = random.Random(1)
    groups = [group(m, rng, cycles=1) for m in snake_groups(8, 2)]
    with pytest.raises(RuleError, match="the plan has 2 groups, not 1"):
        knockout_from_groups(groups[:1], plan)
    small = group((1, 2, 3), rng, cycles=1)
    with pytest.raises(RuleError, match="group B: 3 players, the plan has 4"):
        knockout_from_groups([groups[0], small], plan, lots_seed=1)


def test_ranked_lists_accepted() -> None:
    b = cross_seeded_bracket([[EVENT[0], EVENT[7]], [EVENT[1], EVENT[6]], [EVENT[2], EVENT[5]]])
    # six qualifiers, eight lines: the two best group winners get the byes
    assert sorted(b.byes) == [1, 2]
    assert b.seeding[:3] == (1, 2, 3)
    with pytest.raises(RuleError, match="same number of qualifiers"):
        cross_seeded_lines([[1, 2], [3]])
    with pytest.raises(RuleError, match="qualifies twice"):
        cross_seeded_lines([[1, 2], [3, 1]])


@pytest.mark.parametrize(
    ("groups", "per_group"),
    [(g, k) for g in range(1, 13) for k in range(1, 5) if g * k >= 2],
)
def test_group_mates_kept_apart(groups: int, per_group: int) -> None:
    qualifiers = [[100 * g + r for r in range(1, per_group + 1)] for g in range(1, groups + 1)]
    lines, seeding = cross_seeded_lines(qualifiers)
    placed = {p: k for k, p in enumerate(lines) if p is not None}
    assert sorted(placed) == sorted(p for q in qualifiers for p in q)
    assert seeding[:groups] == tuple(q[0] for q in qualifiers)  # winners: seeds 1…g
    rounds = len(lines).bit_length() - 1
    best_possible = rounds - (per_group - 1).bit_length() + 1
    for q in qualifiers:
        for i, a in enumerate(q):
            for b in q[i + 1 :]:
                assert (placed[a] ^ placed[b]).bit_length() >= best_possible


def forfeit_winner_group(members: tuple[int, ...], rng: random.Random) -> Tournament:
    """A finished single round robin in which local player 1 wins every game by forfeit
    (its opponents never came) and every other game is played."""
    played = group(members, rng, cycles=1)
    rounds = []
    for rnd in played.rounds:
        games = []
        for game in rnd.games:
            if 1 in (game.white, game.black):
                text = "+-" if game.white == 1 else "-+"
                game = replace(game, result=GameResult.parse(text), reason=Reason.NO_SHOW)
            games.append(game)
        rounds.append(replace(rnd, games=tuple(games)))
    return replace(played, rounds=tuple(rounds))


def test_a_player_who_played_no_game_does_not_qualify() -> None:
    # R-SE-6 (seed 002): the forfeit-only winner of group A stays out, the next moves up
    plan = plan_group_stage(8, groups=2, cycles=1, qualifiers_per_group=1)
    members = snake_groups(8, 2)
    rng = random.Random(4)
    groups = [forfeit_winner_group(members[0], rng), group(members[1], rng, cycles=1)]
    ranking = group_ranking(groups[0], lots_seed=2)
    assert ranking[0] == 1  # three forfeit wins: first on points
    assert not played_a_game(groups[0], 1) and played_a_game(groups[0], 2)
    ko = knockout_from_groups(groups, plan, lots_seed=2)
    a_qualifier = members[0][ranking[1] - 1]
    assert a_qualifier in ko.bracket.seeding and members[0][0] not in ko.bracket.seeding
    assert group_qualifiers(groups[0], 1, lots_seed=2) == (ranking[1],)
    # two from the group: the second and third placed
    assert group_qualifiers(groups[0], 2, lots_seed=2) == ranking[1:3]


def test_forfeits_byes_and_set_up_timeouts_are_no_game_played() -> None:
    rng = random.Random(9)
    base = group((1, 2, 3), rng, cycles=1)  # three players: two games and a free round each
    assert all(played_a_game(base, p.start) for p in base.players)
    g1, g2 = [g for r in base.rounds for g in r.games if 1 in (g.white, g.black)]
    timeout = replace(g1, result=GameResult.parse("1-0"), reason=Reason.SETUP_TIMEOUT)
    forfeit = replace(
        g2, result=GameResult.parse("-+" if g2.white == 1 else "+-"), reason=Reason.NO_SHOW
    )
    swap = {id(g1): timeout, id(g2): forfeit}
    rounds = tuple(
        replace(r, games=tuple(swap.get(id(g), g) for g in r.games)) for r in base.rounds
    )
    changed = replace(base, rounds=rounds)
    assert not played_a_game(changed, 1)  # a set-up timeout and a forfeit: no game played
    won = (Outcome.SHORT_WIN, Outcome.SHORT_LOSS)
    short = replace(g1, result=GameResult(*(won if g1.white == 1 else won[::-1])))
    rounds = tuple(
        replace(r, games=tuple({id(g1): short, id(g2): forfeit}.get(id(g), g) for g in r.games))
        for r in base.rounds
    )
    assert played_a_game(replace(base, rounds=rounds), 1)  # a short game was at the board
    never = Tournament(Settings(), base.players, ())
    assert not any(played_a_game(never, p.start) for p in base.players)


def test_too_few_who_played_is_refused() -> None:
    rng = random.Random(3)
    g = group((1, 4, 5, 8), rng, cycles=1)
    forfeits = tuple(
        replace(
            r,
            games=tuple(
                replace(x, result=GameResult.parse("+-"), reason=Reason.NO_SHOW) for x in r.games
            ),
        )
        for r in g.rounds
    )
    idle = replace(g, rounds=forfeits, name="group C")
    with pytest.raises(RuleError, match="group C: only 0 of its players played a game, 1 must"):
        group_qualifiers(idle, 1, lots_seed=1)
    assert group_qualifiers(idle, 1, lots_seed=1, at_least=0) == ()
