"""Who can still win: each player's chances of first place and of the top K, on points
alone, exact over the remaining games of a round robin (docs/race.md)."""

from crosstable.core.race.decide import RaceReport, RaceRow, Status, clinched, possible, race
from crosstable.core.race.feasible import Budget, TooHard
from crosstable.core.race.problem import RaceProblem, race_problem

__all__ = [
    "Budget",
    "RaceProblem",
    "RaceReport",
    "RaceRow",
    "Status",
    "TooHard",
    "clinched",
    "possible",
    "race",
    "race_problem",
]
