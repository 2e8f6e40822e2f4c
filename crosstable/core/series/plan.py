"""The stages of one edition of a series: groups → … → final → super-final.

Stage 1 puts every entrant into round-robin groups
(:func:`~crosstable.core.series.groups.group_sizes_for`); each group sends its
top ``qualifiers_per_group`` (those who played no game aside) into stage 2, which is grouped the
same way, and so on until the players going on fit one group of at most
``max_group_size``: that stage is the **final**, one round robin. Then the
**super-final**: seed 002 only names it; the product reads it as the final's top
``super_final_players`` (default 4) playing a separate round robin of
``super_final_cycles`` (default 2: a double round robin, six rounds for four
players), whose winner wins the edition. ``super_final_players`` = 0 means no
super-final (the final's winner wins), and a final no larger than the
super-final has none either. Two players make a match (a round robin of two,
``super_final_cycles`` games).

A stage may send more than ``qualifiers_per_group`` per group so that the final
has at least ``final_min`` players (default 6): two groups of 8 and 7 send 3
each, not 2. A stage never sends a whole group (at most the smallest group less
one).

>>> [(s.kind.value, s.group_sizes, s.qualifiers) for s in plan_series(40)]
[('groups', (10, 10, 10, 10), 8), ('final', (8,), 4), ('super-final', (4,), 0)]
>>> [len(s.group_sizes) for s in plan_series(10_000)]
[1000, 200, 40, 8, 2, 1, 1]

The plan is what the entries would give if everyone played; a player who played no game may send
fewer, so the service plans each next stage again from the real qualifiers
(:func:`next_stage`).
"""

from __future__ import annotations

from dataclasses import dataclass

from crosstable.core.errors import RuleError
from crosstable.core.model import StageKind
from crosstable.core.schedule.groups import round_robin_counts
from crosstable.core.series.groups import (
    DEFAULT_MAX_GROUP_SIZE,
    MIN_GROUP_SIZE,
    group_sizes_for,
)

#: the most stages one edition may have (10 000 entries in groups of 10 need 7; with at most
#: half of a group going on, a stage of three or more groups keeps at most 3/4 of its players)
MAX_STAGES = 100
#: the most cycles of a stage's round robins
MAX_CYCLES = 4


@dataclass(frozen=True, slots=True)
class SeriesFormat:
    """How a series' editions are staged (the settings a series is created with)."""

    max_group_size: int = DEFAULT_MAX_GROUP_SIZE
    qualifiers_per_group: int = 2
    final_min: int = 6
    group_cycles: int = 1
    final_cycles: int = 1
    super_final_players: int = 4
    super_final_cycles: int = 2

    def __post_init__(self) -> None:
        group_sizes_for(MIN_GROUP_SIZE, self.max_group_size)  # checks the bounds
        if self.qualifiers_per_group < 1:
            raise RuleError(
                "qualifiers per group: {count} — at least one", count=self.qualifiers_per_group
            )
        if self.qualifiers_per_group > self.max_group_size // 2:
            raise RuleError(
                "qualifiers per group: {count} — at most half of the largest group ({most})",
                count=self.qualifiers_per_group,
                most=self.max_group_size // 2,
            )
        if not MIN_GROUP_SIZE <= self.final_min <= self.max_group_size:
            raise RuleError(
                "final of at least {count}: between {low} and the largest group ({high})",
                count=self.final_min,
                low=MIN_GROUP_SIZE,
                high=self.max_group_size,
            )
        if not 1 <= self.group_cycles <= MAX_CYCLES:
            raise RuleError(
                "group cycles: {cycles} — between 1 and {most}",
                cycles=self.group_cycles,
                most=MAX_CYCLES,
            )
        if not 1 <= self.final_cycles <= MAX_CYCLES:
            raise RuleError(
                "final cycles: {cycles} — between 1 and {most}",
                cycles=self.final_cycles,
                most=MAX_CYCLES,
            )
        if not 1 <= self.super_final_cycles <= MAX_CYCLES:
            raise RuleError(
                "super-final cycles: {cycles} — between 1 and {most}",
                cycles=self.super_final_cycles,
                most=MAX_CYCLES,
            )
        if self.super_final_players == 1 or not 0 <= self.super_final_players <= 10:
            raise RuleError(
                "super-final of {players}: 0 (none) or 2 to 10 players",
                players=self.super_final_players,
            )


@dataclass(frozen=True, slots=True)
class StagePlan:
    """One stage: its groups (one for the final and the super-final), how many of
    each go on, and the round-robin counts."""

    number: int
    kind: StageKind
    players: int
    group_sizes: tuple[int, ...]
    cycles: int
    qualifiers_per_group: int  # 0: nobody goes on (the last stage)

    @property
    def qualifiers(self) -> int:
        return self.qualifiers_per_group * len(self.group_sizes)

    @property
    def rounds(self) -> int:
        """Rounds of the stage: its largest group's (all groups play at once)."""
        return max(round_robin_counts(size, self.cycles)[0] for size in self.group_sizes)

    @property
    def games(self) -> int:
        """Games of the stage, all created at once."""
        return sum(round_robin_counts(size, self.cycles)[1] for size in self.group_sizes)

    def to_json(self) -> dict[str, object]:
        return {
            "stage": self.number,
            "kind": self.kind.value,
            "players": self.players,
            "groups": list(self.group_sizes),
            "cycles": self.cycles,
            "qualifiers_per_group": self.qualifiers_per_group,
            "qualifiers": self.qualifiers,
            "rounds": self.rounds,
            "games": self.games,
        }


def next_stage(
    players: int, number: int, fmt: SeriesFormat, *, after_final: bool = False
) -> StagePlan:
    """Stage ``number`` for ``players`` entrants (or qualifiers); ``after_final``:
    the stage after the final, i.e. the super-final."""
    if after_final:
        if fmt.super_final_players < 2:
            raise RuleError("this series has no super-final")
        if players < 2:
            raise RuleError(
                "{players} players for the super-final: it needs at least 2", players=players
            )
        return StagePlan(
            number, StageKind.SUPER_FINAL, players, (players,), fmt.super_final_cycles, 0
        )
    sizes = group_sizes_for(players, fmt.max_group_size)
    if len(sizes) == 1:
        goes_on = fmt.super_final_players if 2 <= fmt.super_final_players < players else 0
        return StagePlan(number, StageKind.FINAL, players, sizes, fmt.final_cycles, goes_on)
    per_group = max(fmt.qualifiers_per_group, -(-fmt.final_min // len(sizes)))
    per_group = min(per_group, min(sizes) - 1)
    return StagePlan(number, StageKind.GROUPS, players, sizes, fmt.group_cycles, per_group)


def plan_series(players: int, fmt: SeriesFormat | None = None) -> tuple[StagePlan, ...]:
    """Every stage of an edition with ``players`` entrants, if everyone plays."""
    fmt = fmt or SeriesFormat()
    stages = [next_stage(players, 1, fmt)]
    while stages[-1].kind is StageKind.GROUPS:
        if len(stages) >= MAX_STAGES:  # pragma: no cover - see MAX_STAGES
            raise RuleError("more than {most} stages", most=MAX_STAGES)
        stages.append(next_stage(stages[-1].qualifiers, len(stages) + 1, fmt))
    final = stages[-1]
    if final.qualifiers:
        stages.append(next_stage(final.qualifiers, len(stages) + 1, fmt, after_final=True))
    return tuple(stages)
