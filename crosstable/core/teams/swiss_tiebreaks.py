"""The Buchholz cut 1 of a team Swiss: ``BH:MP-C1`` / ``BH:GP-C1``, the team Buchholz
(``BH:MP`` / ``BH:GP``) without its lowest contribution (C.07 14.1).

>>> from crosstable.core.teams.tiebreaks import team_tiebreak
>>> team_tiebreak("bh:mp-c1").code
'BH:MP-C1'
"""

from __future__ import annotations

from fractions import Fraction

from crosstable.core.teams.records import TeamField
from crosstable.core.teams.tiebreaks import (
    TeamBuchholz,
    register_team_tiebreak,
)
from crosstable.core.tiebreaks.explain import Item


class TeamBuchholzCut1(TeamBuchholz):
    article = "14.1"

    def items(self, f: TeamField, team: int) -> tuple[Item, ...]:
        items = list(TeamBuchholz.items(self, f, team))
        amounts = [i.amount for i in items if i.amount is not None]
        if not amounts:
            return tuple(items)
        lowest = min(amounts)
        for k, item in enumerate(items):
            if item.amount == lowest:
                items[k] = Item(item.round, item.opponent, item.text, item.amount, counted=False)
                break
        return tuple(items)

    def value(self, f: TeamField, team: int) -> Fraction:
        return sum(
            (Fraction(i.amount) for i in self.items(f, team) if i.counted and i.amount is not None),
            Fraction(0),
        )


@register_team_tiebreak
class BuchholzMPCut1(TeamBuchholzCut1):
    code = "BH:MP-C1"
    score = "MP"


@register_team_tiebreak
class BuchholzGPCut1(TeamBuchholzCut1):
    code = "BH:GP-C1"
    score = "GP"


__all__ = ["BuchholzGPCut1", "BuchholzMPCut1"]
