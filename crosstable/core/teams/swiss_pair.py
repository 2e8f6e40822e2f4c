"""The team Swiss's next round: settings read from the regulations' details, the
request built from the boards played, and the pairing by the method chosen.

The details of a team Swiss (besides the team settings of
:mod:`crosstable.core.teams.settings`):

* ``team_system``: ``swiss`` (a round robin when absent);
* ``team_pairing``: ``olympiad`` (FIDE's Olympiad Pairing Rules, the default) or
  ``dutch`` (the Dutch rules with teams as competitors);
* ``team_bye``: the match points and game points of the bye, as ``MP/GP`` (by default
  a won match's match points and half the boards' game points).

>>> s = TeamSwissSettings.from_details({"team_system": "swiss", "team_boards": "4"}, 4)
>>> s.pairing, s.bye
('olympiad', (Fraction(2, 1), Fraction(2, 1)))
>>> TeamSwissSettings.from_details({"team_pairing": "monrad"}, 4)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
crosstable.core.errors.RuleError: team Swiss pairing 'monrad': olympiad or dutch
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from crosstable.core.errors import RuleError
from crosstable.core.model import Colour, Tournament
from crosstable.core.teams.matches import TeamScoring
from crosstable.core.teams.roster import Team
from crosstable.core.teams.swiss import (
    SWISS_PAIRINGS,
    TeamPairing,
    TeamSwissRequest,
    team_histories,
)
from crosstable.core.teams.swiss_dutch import dutch_team_pairing
from crosstable.core.teams.swiss_olympiad import olympiad_pairing
from crosstable.core.teams.swiss_tiebreaks import BuchholzMPCut1

#: the default tie-breaks name the cut-1 Buchholz: registered on import
CUT1 = BuchholzMPCut1.code


def is_team_swiss(details: Mapping[str, object]) -> bool:
    """The regulations' details make a team tournament a Swiss."""
    return str(details.get("team_system") or "").strip().lower() == "swiss"


def _points(text: str) -> Fraction:
    try:
        value = Fraction(text.strip().replace("½", "1/2"))
    except (ValueError, ZeroDivisionError):
        raise _bad_bye(text) from None
    if value < 0:
        raise _bad_bye(text)
    return value


def _bad_bye(text: str) -> RuleError:
    return RuleError("team bye {given}: two numbers as MP/GP, e.g. 2/2", given=repr(text))


@dataclass(frozen=True, slots=True)
class TeamSwissSettings:
    pairing: str
    bye: tuple[Fraction, Fraction]

    @classmethod
    def from_details(
        cls, details: Mapping[str, object], boards: int, scoring: TeamScoring | None = None
    ) -> TeamSwissSettings:
        pairing = str(details.get("team_pairing") or "olympiad").strip().lower()
        if pairing not in SWISS_PAIRINGS:
            raise RuleError("team Swiss pairing {given}: olympiad or dutch", given=repr(pairing))
        win = (scoring or TeamScoring()).match_points.win
        text = str(details.get("team_bye") or "").strip()
        if text:
            parts = text.split("/")
            if len(parts) != 2:
                raise _bad_bye(text)
            bye = (_points(parts[0]), _points(parts[1]))
        else:
            bye = (win, Fraction(boards, 2))
        return cls(pairing, bye)

    def to_details(self) -> dict[str, str]:
        return {
            "team_system": "swiss",
            "team_pairing": self.pairing,
            "team_bye": f"{self.bye[0]}/{self.bye[1]}",
        }


def default_team_swiss_tiebreaks(primary: str) -> tuple[str, ...]:
    """A team Swiss's tie-breaks when the regulations name none: the other score, the
    direct encounter, Buchholz cut 1, Buchholz, the Olympiad Sonneborn-Berger.

    >>> default_team_swiss_tiebreaks("MP")
    ('MPVGP', 'EDE', 'BH:MP-C1', 'BH:MP', 'EMGSB')
    """
    return ("MPVGP", "EDE", f"BH:{primary}-C1", f"BH:{primary}", "EMGSB")


def team_swiss_request(
    games: Tournament,
    teams: Sequence[Team],
    *,
    round_number: int,
    total_rounds: int,
    scoring: TeamScoring,
    settings: TeamSwissSettings,
    initial_colour: Colour = Colour.WHITE,
    absent: frozenset[int] = frozenset(),
) -> TeamSwissRequest:
    """The request for ``round_number`` from the rounds before it."""
    earlier = Tournament(
        players=games.players,
        rounds=tuple(r for r in games.rounds if r.number < round_number),
        settings=games.settings,
    )
    histories = team_histories(earlier, teams, scoring, settings.bye)
    boards = max((t.boards for t in teams), default=1)
    return TeamSwissRequest(
        round_number,
        total_rounds,
        histories,
        settings.pairing,
        scoring,
        boards,
        initial_colour,
        absent,
    )


def pair_teams(request: TeamSwissRequest) -> TeamPairing:
    """The round paired by the request's method."""
    if request.method == "dutch":
        return dutch_team_pairing(request)
    return olympiad_pairing(request)


__all__ = [
    "TeamSwissSettings",
    "default_team_swiss_tiebreaks",
    "is_team_swiss",
    "pair_teams",
    "team_swiss_request",
]
