"""A team tournament's settings, read from the regulations' details.

A round robin whose details say ``competitors: team`` is played by teams:

* ``team_boards``: the boards of every match (default 4);
* ``team_scoring``: the match points of a won, drawn and lost match (default ``2-1-0``);
* ``team_primary``: ``MP`` (match points rank first, the default) or ``GP`` (game points);
* ``team_order``: ``fixed`` (the board-order rule, the default) or ``free``;
* ``team_tiebreaks``: the team tie-breaks in order (default ``GP,EDE,EMGSB,BC``; a team
  Swiss: ``MPVGP,EDE,BH:MP-C1,BH:MP,EMGSB``);
* ``team_system``, ``team_pairing``, ``team_bye``: a team Swiss
  (:mod:`crosstable.core.teams.swiss_pair`).

>>> s = TeamSettings.from_details({"competitors": "team", "team_boards": "6"})
>>> s.boards, s.scoring.match_points.label(), s.tiebreaks
(6, '2-1-0', ('GP', 'EDE', 'EMGSB', 'BC'))
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from crosstable.core.errors import RuleError
from crosstable.core.scoring import PointSystem
from crosstable.core.teams.matches import TeamScoring
from crosstable.core.teams.standings import DEFAULT_TEAM_TIEBREAKS
from crosstable.core.teams.swiss_pair import (
    TeamSwissSettings,
    default_team_swiss_tiebreaks,
    is_team_swiss,
)
from crosstable.core.teams.tiebreaks import team_tiebreak

#: the most boards a match may have
MAX_BOARDS = 20


def is_team_tournament(details: Mapping[str, object]) -> bool:
    """The regulations' details say the competitors are teams."""
    return str(details.get("competitors") or "").strip().lower() == "team"


@dataclass(frozen=True, slots=True)
class TeamSettings:
    boards: int = 4
    scoring: TeamScoring = field(default_factory=TeamScoring)
    free_order: bool = False
    tiebreaks: tuple[str, ...] = DEFAULT_TEAM_TIEBREAKS
    #: a team Swiss's pairing and bye (None: a round robin)
    swiss: TeamSwissSettings | None = None

    @classmethod
    def from_details(cls, details: Mapping[str, object]) -> TeamSettings:
        boards_text = str(details.get("team_boards") or "4").strip()
        if not boards_text.isdigit() or not 1 <= int(boards_text) <= MAX_BOARDS:
            raise RuleError(
                "team boards {given}: a whole number from 1 to {most}",
                given=repr(boards_text),
                most=MAX_BOARDS,
            )
        points = PointSystem.parse(str(details.get("team_scoring") or "2-1-0"))
        primary = str(details.get("team_primary") or "MP").strip().upper()
        order = str(details.get("team_order") or "fixed").strip().lower()
        if order not in ("fixed", "free"):
            raise RuleError("team order {given}: fixed or free", given=repr(order))
        listed = str(details.get("team_tiebreaks") or "").strip()
        scoring = TeamScoring(match_points=points, primary=primary)
        swiss = None
        defaults: tuple[str, ...] = DEFAULT_TEAM_TIEBREAKS
        if is_team_swiss(details):
            swiss = TeamSwissSettings.from_details(details, int(boards_text), scoring)
            scoring = replace(scoring, bye=swiss.bye)
            defaults = default_team_swiss_tiebreaks(primary)
        codes = (
            tuple(team_tiebreak(c).code for c in listed.split(",") if c.strip())
            if listed
            else defaults
        )
        return cls(int(boards_text), scoring, order == "free", codes, swiss)

    def to_details(self) -> dict[str, str]:
        return {
            "competitors": "team",
            "team_boards": str(self.boards),
            "team_scoring": self.scoring.match_points.label(),
            "team_primary": self.scoring.primary,
            "team_order": "free" if self.free_order else "fixed",
            "team_tiebreaks": ",".join(self.tiebreaks),
            **(self.swiss.to_details() if self.swiss is not None else {}),
        }


__all__ = ["MAX_BOARDS", "TeamSettings", "is_team_tournament"]
