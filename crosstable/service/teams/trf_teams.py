"""A team tournament's team records in its TRF export (docs/teams.md, "TRF"):

* one team record per team: ``310`` in TRF-2026 (the team's drawn number, name, match
  points, game points, rank and its members' starting numbers in board order), written
  as ``013`` (name and members) in TRF-16;
* ``352``, the team board colours of the team drawn White in a match (``WBWB…``: board
  1 White, alternating down the boards, as the matches are seated);
* ``362``, the match points of a won, drawn and lost match (``TW 2.0    TD 1.0    TL
  0.0``, the symbol and its value as record 162 writes its own).

``192`` names the kind of team tournament (:func:`type_code`), ``202`` its team
tie-breaks when they are not the default ones; the records 300, 320, 330, 801 and 802
come from :func:`team_trf_lines` (:mod:`.trf_lines`). ``082`` (the number of teams) is
written from the players' teams as for every tournament. An imported team file becomes
a team tournament (:mod:`.trf_plan`), so the export of an imported export is the same
file.
"""

from __future__ import annotations

from fractions import Fraction

from sqlalchemy.orm import Session

from crosstable.core.teams import DEFAULT_TEAM_TIEBREAKS, team_standings
from crosstable.core.teams.settings import TeamSettings, is_team_tournament
from crosstable.core.teams.swiss_pair import default_team_swiss_tiebreaks
from crosstable.formats.trf_model import Team
from crosstable.formats.trf_text import format_fixed
from crosstable.service.teams.rows import team_state
from crosstable.service.teams.trf_lines import team_lines
from crosstable.store.models import TournamentRow


def board_colours(boards: int) -> str:
    """``352``: board 1 White for the team drawn White, the colours alternating.

    >>> board_colours(4), board_colours(1)
    ('WBWB', 'W')
    """
    return "".join("W" if board % 2 else "B" for board in range(1, boards + 1))


def match_points_line(win: Fraction, draw: Fraction, loss: Fraction) -> str:
    """``362``: the match points of a won, drawn and lost match.

    >>> match_points_line(Fraction(2), Fraction(1), Fraction(0))
    'TW 2.0    TD 1.0    TL 0.0'
    """
    fields = (("TW", win), ("TD", draw), ("TL", loss))
    return "    ".join(f"{symbol}{format_fixed(value, 4)}" for symbol, value in fields)


def team_trf(session: Session, row: TournamentRow) -> tuple[tuple[Team, ...], dict[str, str]]:
    """The team records and the team header tags of a started team tournament (none for
    a tournament of players, or one not started: its teams have no numbers yet)."""
    if not is_team_tournament(row.regulations or {}) or row.status == "registration":
        return (), {}
    state = team_state(session, row)
    settings = state.settings
    table = team_standings(state.games, state.teams, settings.tiebreaks, settings.scoring)
    by_team = {r.team: r for r in table.rows}
    teams = tuple(
        Team(
            name=team.name,
            members=team.starts,
            record="310",
            number=team.start,
            match_points=by_team[team.start].mp,
            game_points=by_team[team.start].gp,
            rank=by_team[team.start].place,
        )
        for team in state.teams
    )
    points = settings.scoring.match_points
    headers = {
        "192": type_code(row, settings),
        "352": board_colours(settings.boards),
        "362": match_points_line(points.win, points.draw, points.loss),
    }
    defaults = (
        default_team_swiss_tiebreaks(settings.scoring.primary)
        if settings.swiss is not None
        else DEFAULT_TEAM_TIEBREAKS
    )
    if settings.tiebreaks != defaults:  # (the default list goes without saying)
        headers["202"] = ",".join(settings.tiebreaks)
    return teams, headers


def type_code(row: TournamentRow, settings: TeamSettings) -> str:
    """``192``: ``FIDE_TEAM_ROUNDROBIN`` (``…DOUBLEROUNDROBIN``) for a team round robin,
    ``CUSTOM_TEAM_SWISS_MP`` (``_GP``: game points first) for a team Swiss."""
    if settings.swiss is not None:
        return f"CUSTOM_TEAM_SWISS_{settings.scoring.primary}"
    return "FIDE_TEAM_DOUBLEROUNDROBIN" if (row.cycles or 1) == 2 else "FIDE_TEAM_ROUNDROBIN"


def team_trf_lines(session: Session, row: TournamentRow) -> tuple[tuple[str, str], ...]:
    """The team records 300, 320, 330, 801 and 802 of a started team tournament, as
    (tag, text) pairs in that order (none for a tournament of players)."""
    if not is_team_tournament(row.regulations or {}) or row.status == "registration":
        return ()
    state = team_state(session, row)
    return team_lines(state.games, state.teams, state.settings)


__all__ = ["board_colours", "match_points_line", "team_trf", "team_trf_lines", "type_code"]
