"""Group stage + knockout: the qualifiers of the groups fill the bracket.

The plan (:func:`crosstable.core.schedule.groups.plan_group_stage`) says how
many groups play and how many of each go on. After the groups, each group's
final standings (points, then the group's tie-breaks — :func:`group_ranking`)
give its qualifiers, and they are *cross-seeded* into the bracket:

* the group winners are seeds 1…g in group order (A1, B1, C1…), at the
  standard seeding positions: A1 and B1 in opposite halves, and so on;
* the qualifiers of each next place (runners-up, then third-placed…) take the
  seeds of that place, (r−1)·g + 1 … r·g. Who gets which line keeps group
  mates apart: first the assignment makes the earliest round in which any two
  group mates could meet as late as it can be; then the lines are filled
  weakest seed first, each with the qualifier who meets a group mate latest,
  ties to the earliest group (as long as the rest can still be completed).

With two qualifiers from an even number of groups this is the familiar
A1 v B2, B1 v A2, C1 v D2, D1 v C2, and group mates can meet only in the final.

A player who played no game in the group — forfeits, no-shows and set-up
timeouts only, or byes — does not go on, whatever their place (seed
002: "players who played no game cannot go on to the next round"); the next
player moves up (:func:`played_a_game`, :func:`group_qualifiers`).

>>> lines, seeding = cross_seeded_lines([[11, 12], [21, 22]])
>>> lines
(11, 22, 21, 12)
>>> lines, _ = cross_seeded_lines([[11, 12], [21, 22], [31, 32], [41, 42]])
>>> [lines[k : k + 2] for k in range(0, 8, 2)]
[(11, 22), (41, 32), (21, 12), (31, 42)]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from crosstable.core.errors import RuleError
from crosstable.core.model import Player, Reason, Tournament
from crosstable.core.pairing.knockout import Knockout
from crosstable.core.pairing.knockout_bracket import (
    Bracket,
    BracketOrder,
    bracket_size,
    seeding_positions,
)
from crosstable.core.pairing.knockout_match import MatchRules
from crosstable.core.schedule.groups import GroupStagePlan, snake_groups
from crosstable.core.standings import compute_standings
from crosstable.core.text import Message


def group_ranking(
    group: Tournament,
    tiebreaks: str | Sequence[str] | None = None,
    *,
    qualifiers: int | None = None,
    lots_seed: int | None = None,
) -> tuple[int, ...]:
    """The group's starting numbers in final ranking order (points, then ``tiebreaks``).

    With ``qualifiers`` = k, a tie between places k and k + 1 that the list does
    not break is an error (break it with ``lots_seed`` or a play-off first).
    """
    standings = compute_standings(group, tiebreaks, final=True, lots_seed=lots_seed)
    rows = [row for row in standings.rows if not row.excluded]
    if qualifiers is not None:
        if not 1 <= qualifiers < len(rows):
            raise RuleError(
                "{group}: {qualifiers} qualifiers from {players} players",
                group=group.name or "group",
                qualifiers=qualifiers,
                players=len(rows),
            )
        last, first_out = rows[qualifiers - 1], rows[qualifiers]
        if last.rank is None or last.rank == first_out.rank:
            raise RuleError(
                (
                    "{group}: places {first} and {second} are tied (players {start} and "
                    "{start2}); break the tie before the knockout (a drawing of lots or a "
                    "play-off)"
                ),
                group=group.name or "group",
                first=qualifiers,
                second=qualifiers + 1,
                start=last.start,
                start2=first_out.start,
            )
    return tuple(row.start for row in rows)


#: results that are not a game played: no move was made at the board
_NOT_PLAYED = frozenset({Reason.NO_SHOW, Reason.SETUP_TIMEOUT})


def played_a_game(group: Tournament, start: int) -> bool:
    """Whether the player played at least one game in ``group``.

    A game counts when its result is over the board (a win, draw or loss, also a
    short game of less than one move: the player was at the board) and it was not
    decided by a no-show or by the battle-chess set-up time. Forfeits,
    byes and the free round of an odd round robin are not games played.
    """
    for rnd in group.rounds:
        for game in rnd.games:
            if start not in (game.white, game.black) or game.reason in _NOT_PLAYED:
                continue
            if game.outcome_of(start).is_over_the_board:
                return True
    return False


def group_qualifiers(
    group: Tournament,
    qualifiers: int,
    tiebreaks: str | Sequence[str] | None = None,
    *,
    lots_seed: int | None = None,
    at_least: int | None = None,
    barred: frozenset[int] = frozenset(),
) -> tuple[int, ...]:
    """The group's top ``qualifiers`` starting numbers in ranking order, leaving out
    every player who played no game and every starting number in ``barred``
    (an account flagged for computer help): the next player moves up.

    A tie between the last qualifier and the first player left out that the
    tie-breaks do not break is an error, as in :func:`group_ranking`. Fewer
    players who played than ``at_least`` (default: ``qualifiers``) is an error;
    with a smaller ``at_least`` the group sends the players it has.
    """
    label = group.name or "group"
    standings = compute_standings(group, tiebreaks, final=True, lots_seed=lots_seed)
    rows = [row for row in standings.rows if not row.excluded]
    if not 1 <= qualifiers < len(rows):
        raise RuleError(
            "{group}: {qualifiers} qualifiers from {players} players",
            group=label,
            qualifiers=qualifiers,
            players=len(rows),
        )
    eligible = [row for row in rows if played_a_game(group, row.start) and row.start not in barred]
    needed = qualifiers if at_least is None else at_least
    if len(eligible) < needed:
        played = {row.start for row in eligible}
        idle = [row.start for row in rows if row.start not in played]
        if barred & set(idle):
            raise RuleError(
                (
                    "{label}: only {count} of its players may go on, {needed} must go on (players "
                    "{players} played no game or are barred for computer help)"
                ),
                label=label,
                count=len(eligible),
                needed=needed,
                players=Message.joined(", ", map(str, idle)),
            )
        raise RuleError(
            (
                "{group}: only {count} of its players played a game, {needed} must go on (players "
                "{players} played none)"
            ),
            group=label,
            count=len(eligible),
            needed=needed,
            players=Message.joined(", ", map(str, idle)),
        )
    if len(eligible) > qualifiers:
        last, first_out = eligible[qualifiers - 1], eligible[qualifiers]
        if last.rank is None or last.rank == first_out.rank:
            raise RuleError(
                (
                    "{group}: places {first} and {second} are tied (players {start} and "
                    "{start2}); break the tie before the next stage (a drawing of lots or a "
                    "play-off)"
                ),
                group=label,
                first=qualifiers,
                second=qualifiers + 1,
                start=last.start,
                start2=first_out.start,
            )
    return tuple(row.start for row in eligible[:qualifiers])


def cross_seeded_lines(
    qualifiers: Sequence[Sequence[int]],
) -> tuple[tuple[int | None, ...], tuple[int, ...]]:
    """``(lines, seeding)`` for the qualifiers of each group, best placed first."""
    groups = len(qualifiers)
    if groups < 1:
        raise RuleError("no groups: nothing to seed")
    per_group = len(qualifiers[0])
    if per_group < 1 or any(len(q) != per_group for q in qualifiers):
        raise RuleError("every group sends the same number of qualifiers (at least one)")
    total = groups * per_group
    size = bracket_size(total)
    line_of_seed = {seed: line for line, seed in enumerate(seeding_positions(size))}
    placed: dict[int, int] = {}  # player → line
    seeding: list[int] = [0] * total
    for place in range(per_group):
        seeds = list(range((place + 1) * groups, place * groups, -1))  # weakest seed first
        if place == 0:  # the winners: seed i is group i's winner
            chosen = {seed: seed - 1 for seed in seeds}
        else:
            chosen = _assign([line_of_seed[s] for s in seeds], qualifiers, placed)
            chosen = {seed: chosen[line_of_seed[seed]] for seed in seeds}
        for seed, group in chosen.items():
            player = qualifiers[group][place]
            if player in placed:
                raise RuleError("player {player} qualifies twice", player=player)
            placed[player] = line_of_seed[seed]
            seeding[seed - 1] = player
    lines: list[int | None] = [None] * size
    for player, line in placed.items():
        lines[line] = player
    return tuple(lines), tuple(seeding)


def _separation(line: int, group: Sequence[int], placed: dict[int, int]) -> int:
    """The earliest round in which ``line`` could meet an already placed group mate."""
    rounds = [(line ^ placed[p]).bit_length() for p in group if p in placed]
    return min(rounds, default=64)


def _assign(
    lines: Sequence[int], qualifiers: Sequence[Sequence[int]], placed: dict[int, int]
) -> dict[int, int]:
    """Line → group for one place: the latest first meeting of group mates that can be
    had on every line at once; then line by line, the latest for that line, earliest group."""
    groups = range(len(qualifiers))
    apart = {(line, g): _separation(line, qualifiers[g], placed) for line in lines for g in groups}
    best = 0
    for threshold in sorted(set(apart.values()), reverse=True):
        if _complete(lines, list(groups), apart, threshold, {}):
            best = threshold
            break
    chosen: dict[int, int] = {}
    for line in lines:
        candidates = sorted(
            (g for g in groups if g not in chosen.values() and apart[line, g] >= best),
            key=lambda g: (-apart[line, g], g),
        )
        for g in candidates:
            trial = {**chosen, line: g}
            if _complete(lines, list(groups), apart, best, trial):
                chosen = trial
                break
    return chosen


def _complete(
    lines: Sequence[int],
    groups: list[int],
    apart: dict[tuple[int, int], int],
    threshold: int,
    fixed: dict[int, int],
) -> bool:
    """Can the lines not in ``fixed`` get the groups left, each at least ``threshold`` apart?"""
    free = [g for g in groups if g not in fixed.values()]
    owner: dict[int, int] = {}  # group → line (Kuhn's augmenting paths)

    def augment(line: int, seen: set[int]) -> bool:
        for g in free:
            if apart[line, g] >= threshold and g not in seen:
                seen.add(g)
                if g not in owner or augment(owner[g], seen):
                    owner[g] = line
                    return True
        return False

    return all(augment(line, set()) for line in lines if line not in fixed)


def cross_seeded_bracket(qualifiers: Sequence[Sequence[Player]]) -> Bracket:
    """The bracket of the groups' qualifiers (each group's list best placed first)."""
    numbers = [[p.start for p in group] for group in qualifiers]
    lines, seeding = cross_seeded_lines(numbers)
    players = sorted((p for group in qualifiers for p in group), key=lambda p: p.start)
    return Bracket(tuple(players), BracketOrder.GROUPS, lines, seeding)


def knockout_from_groups(
    groups: Sequence[Tournament],
    plan: GroupStagePlan,
    *,
    members: Sequence[Sequence[int]] | None = None,
    rules: MatchRules | None = None,
    tiebreaks: str | Sequence[str] | None = None,
    lots_seed: int | None = None,
) -> Knockout:
    """Round 1 of the knockout after the group stage of ``plan``.

    ``groups[i]`` is group i's finished round robin; ``members[i][j]`` is the
    event's starting number of that group's starting number j + 1 (default: the
    plan's snake seeding, :func:`crosstable.core.schedule.groups.snake_groups`,
    with the event's players numbered by rating rank).
    """
    if len(groups) != len(plan.group_sizes):
        raise RuleError(
            "the plan has {planned} groups, not {groups}",
            planned=len(plan.group_sizes),
            groups=len(groups),
        )
    if members is None:
        members = snake_groups(plan.players, len(plan.group_sizes))
    qualifiers: list[list[Player]] = []
    for index, group in enumerate(groups):
        label = group.name or f"group {chr(ord('A') + index)}"
        numbers = members[index]
        if len(group.players) != len(numbers) or len(numbers) != plan.group_sizes[index]:
            raise RuleError(
                "{group}: {players} players, the plan has {planned}",
                group=label,
                players=len(group.players),
                planned=plan.group_sizes[index],
            )
        top = group_qualifiers(  # who played no game does not go on
            replace(group, name=label),
            plan.qualifiers_per_group,
            tiebreaks,
            lots_seed=lots_seed,
        )
        qualifiers.append([replace(group.player(s), start=numbers[s - 1]) for s in top])
    if plan.qualifiers < 2:
        raise RuleError("a single qualifier wins the event: there is no knockout")
    return Knockout.start(cross_seeded_bracket(qualifiers), rules)
