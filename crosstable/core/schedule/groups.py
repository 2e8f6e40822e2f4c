"""Group stage + knockout: the plan an organiser publishes.

Seed 001's example, after the FIDE Grand Prix 2022: sixteen players in four
double-round-robin groups of four, the group winners to semi-finals and a final —
48 group games + 2 + 1 = 51 games, 6 group rounds + 2 knockout rounds.

>>> plan = plan_group_stage(16, groups=4, cycles=2, qualifiers_per_group=1)
>>> plan.group_sizes, plan.group_games, plan.knockout_games, plan.total_games
((4, 4, 4, 4), 48, 3, 51)
>>> plan.group_rounds, plan.knockout_rounds, plan.total_rounds
(6, 2, 8)

Groups are seeded by rating with the *snake* (serpentine) order: ranks 1…g go to
groups 1…g, ranks g+1…2g to groups g…1, and so on — group 1 gets ranks 1, 2g,
2g+1, 4g, …; group sizes differ by at most one.

>>> snake_groups(8, 2)
((1, 4, 5, 8), (2, 3, 6, 7))

The knockout is a bracket of ``qualifiers`` players (1st meets 2nd, 3rd
meets 4th in the drawn or seeded order). When the number of qualifiers is not a
power of two, the top seeds get byes in the first knockout round (RULES.md
§6.1); a bracket of q players needs q − 1 matches and ⌈log₂ q⌉ rounds. A match
of k games takes k rounds.
"""

from __future__ import annotations

from dataclasses import dataclass

from crosstable.core.errors import RuleError


@dataclass(frozen=True, slots=True)
class GroupStagePlan:
    """Counts for a group stage followed by a knockout."""

    players: int
    group_sizes: tuple[int, ...]
    cycles: int
    qualifiers_per_group: int
    qualifiers: int
    group_rounds: int  # the longest group decides
    group_games: int
    knockout_rounds: int  # knockout stages (semi-final, final…)
    knockout_byes: int  # first-round byes when qualifiers is not a power of two
    knockout_matches: int
    games_per_match: int
    third_place_match: bool
    knockout_games: int
    total_games: int
    total_rounds: int  # group rounds + knockout rounds × games per match

    @property
    def knockout_round_names(self) -> tuple[str, ...]:
        """``("semi-final", "final")`` and so on, first knockout round first."""
        names = []
        for left in range(self.knockout_rounds, 0, -1):
            field = 2**left
            names.append(
                {2: "final", 4: "semi-final", 8: "quarter-final"}.get(field, f"round of {field}")
            )
        return tuple(names)

    def to_json(self) -> dict[str, object]:
        return {
            "players": self.players,
            "groups": list(self.group_sizes),
            "cycles": self.cycles,
            "qualifiers_per_group": self.qualifiers_per_group,
            "qualifiers": self.qualifiers,
            "group_rounds": self.group_rounds,
            "group_games": self.group_games,
            "knockout_rounds": self.knockout_rounds,
            "knockout_byes": self.knockout_byes,
            "knockout_games": self.knockout_games,
            "total_games": self.total_games,
            "total_rounds": self.total_rounds,
        }


def group_sizes(players: int, groups: int) -> tuple[int, ...]:
    """The sizes of the snake-seeded groups (they differ by at most one).

    >>> group_sizes(10, 4), group_sizes(5, 3)
    ((3, 3, 2, 2), (1, 2, 2))
    """
    return tuple(len(group) for group in snake_groups(players, groups))


def snake_groups(players: int, groups: int) -> tuple[tuple[int, ...], ...]:
    """Rating ranks 1…``players`` dealt into ``groups`` in snake order.

    The last, incomplete row keeps the direction of the snake, so the larger
    groups are the first ones when that row runs forward and the last ones when
    it runs back.
    """
    if groups < 1:
        raise RuleError("groups: {groups} — at least one group", groups=groups)
    if players < groups:
        raise RuleError(
            "{players} players cannot fill {groups} groups", players=players, groups=groups
        )
    dealt: list[list[int]] = [[] for _ in range(groups)]
    for index in range(players):
        row, position = divmod(index, groups)
        group = position if row % 2 == 0 else groups - 1 - position
        dealt[group].append(index + 1)
    return tuple(tuple(group) for group in dealt)


def round_robin_counts(size: int, cycles: int = 1) -> tuple[int, int]:
    """``(rounds, games)`` of a round robin of ``size`` players with ``cycles`` cycles."""
    rounds = size - 1 if size % 2 == 0 else size
    return cycles * rounds, cycles * size * (size - 1) // 2


def plan_group_stage(
    players: int,
    *,
    groups: int,
    cycles: int = 1,
    qualifiers_per_group: int = 1,
    games_per_match: int = 1,
    third_place_match: bool = False,
) -> GroupStagePlan:
    """The counts of a group stage of ``groups`` round robins and a knockout of the qualifiers."""
    if cycles < 1:
        raise RuleError("cycles: {cycles} — a round robin has at least one cycle", cycles=cycles)
    if games_per_match < 1:
        raise RuleError("games per match: {games} — at least one", games=games_per_match)
    sizes = group_sizes(players, groups)
    smallest = min(sizes)
    if smallest < 3:
        raise RuleError(
            (
                "{players} players in {groups} groups leaves a group of {smallest}; a round robin "
                "needs at least 3 players"
            ),
            players=players,
            groups=groups,
            smallest=smallest,
        )
    if not 1 <= qualifiers_per_group < smallest:
        raise RuleError(
            (
                "qualifiers per group: {qualifiers} — between 1 and {most} (fewer than the "
                "smallest group)"
            ),
            qualifiers=qualifiers_per_group,
            most=smallest - 1,
        )
    qualifiers = groups * qualifiers_per_group
    counts = [round_robin_counts(size, cycles) for size in sizes]
    group_rounds = max(rounds for rounds, _ in counts)
    group_games = sum(games for _, games in counts)
    knockout_rounds = (qualifiers - 1).bit_length()  # ⌈log₂ q⌉; 0 when one qualifier
    byes = 2**knockout_rounds - qualifiers
    matches = qualifiers - 1
    if third_place_match:
        if qualifiers < 4:
            raise RuleError("a match for third place needs at least four qualifiers")
        matches += 1
    knockout_games = matches * games_per_match
    return GroupStagePlan(
        players=players,
        group_sizes=sizes,
        cycles=cycles,
        qualifiers_per_group=qualifiers_per_group,
        qualifiers=qualifiers,
        group_rounds=group_rounds,
        group_games=group_games,
        knockout_rounds=knockout_rounds,
        knockout_byes=byes,
        knockout_matches=matches,
        games_per_match=games_per_match,
        third_place_match=third_place_match,
        knockout_games=knockout_games,
        total_games=group_games + knockout_games,
        total_rounds=group_rounds + knockout_rounds * games_per_match,
    )


@dataclass(frozen=True, slots=True)
class StageEvenings:
    """The club evenings a group stage + knockout needs."""

    group_evenings: int
    knockout_evenings: int
    reserve_evenings: int

    @property
    def evenings(self) -> int:
        return self.group_evenings + self.knockout_evenings + self.reserve_evenings

    def to_json(self) -> dict[str, int]:
        return {
            "group_evenings": self.group_evenings,
            "knockout_evenings": self.knockout_evenings,
            "reserve_evenings": self.reserve_evenings,
            "evenings": self.evenings,
        }


def stage_evenings(
    plan: GroupStagePlan, rounds_per_evening: int, *, reserve: int = 1
) -> StageEvenings:
    """Evenings = the group rounds at ``rounds_per_evening`` an evening, then one
    evening per knockout round and game of a match, then ``reserve`` evenings.

    Seed 001's reading: six group rounds two an evening are three evenings; the
    semi-finals and the final are an evening each (a knockout round waits for the
    winners of the one before, and a drawn knockout game is decided on the same
    evening by its tie rule); the sixth evening of seed 001's "six evenings" is the
    reserve for play-offs and a postponed game.

    >>> plan = plan_group_stage(16, groups=4, cycles=2, qualifiers_per_group=1)
    >>> stage_evenings(plan, 2).to_json()
    {'group_evenings': 3, 'knockout_evenings': 2, 'reserve_evenings': 1, 'evenings': 6}
    """
    if rounds_per_evening < 1:
        raise RuleError("rounds per evening: {rounds} — at least one", rounds=rounds_per_evening)
    if reserve < 0:
        raise RuleError("reserve evenings: {reserve} — zero or more", reserve=reserve)
    group = -(-plan.group_rounds // rounds_per_evening)
    knockout = plan.knockout_rounds * plan.games_per_match
    return StageEvenings(group, knockout, reserve if knockout else 0)
