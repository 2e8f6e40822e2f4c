"""A team tournament's TRF-2026 team records besides 310 (docs/trf.md, "Team records"),
made from its games and teams: ``300`` for each line-up out of the roster order, one
``320`` with the team PAB of each round (a Swiss), ``330`` for each match forfeited on every
board, then one ``801`` and one ``802`` line per team."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from crosstable.core.model import ByeKind, Outcome, Tournament
from crosstable.core.teams import Team, rounds_of_matches, team_standings
from crosstable.core.teams.matches import Match
from crosstable.core.teams.settings import TeamSettings
from crosstable.formats.trf_team_records import (
    ForfeitedMatch,
    OutOfOrder,
    TeamByes,
    TeamLine,
    TeamRound,
    format_300,
    format_320,
    format_330,
    format_801,
    format_802,
    position_char,
)


def _side(match: Match, team: int) -> tuple[int, ...]:
    return tuple(g.white if match.team_of[g.white] == team else g.black for g in match.games)


def _forfeit_kind(match: Match) -> str | None:
    """330's kind when every board was forfeited the same way (``+-`` the White team won
    them all, ``-+`` the Black team, ``--`` both lost them all); else None."""
    seen = set()
    for game in match.games:
        result = game.result
        if result is None or not result.is_forfeit:
            return None
        white_first = match.team_of[game.white] == match.white
        seen.add((result.white, result.black) if white_first else (result.black, result.white))
    kinds = {
        (Outcome.FORFEIT_WIN, Outcome.FORFEIT_LOSS): "+-",
        (Outcome.FORFEIT_LOSS, Outcome.FORFEIT_WIN): "-+",
        (Outcome.FORFEIT_LOSS, Outcome.FORFEIT_LOSS): "--",
    }
    return kinds.get(seen.pop()) if len(seen) == 1 else None


def _pab_teams(games: Tournament, teams: Sequence[Team]) -> dict[int, int]:
    owner = {s: t.start for t in teams for s in t.starts}
    return {
        rnd.number: owner[b.player]
        for rnd in games.rounds
        for b in rnd.byes
        if b.kind is ByeKind.PAIRING and b.player in owner
    }


def team_lines(
    games: Tournament, teams: Sequence[Team], settings: TeamSettings
) -> tuple[tuple[str, str], ...]:
    """The records 300, 320, 330, 801 and 802 as (tag, text) pairs."""
    rounds = rounds_of_matches(games, teams)
    roster = {t.start: t.starts for t in teams}
    out: list[tuple[str, str]] = []
    forfeited: list[ForfeitedMatch] = []
    for matches in rounds:
        for match in matches:
            for team in (match.white, match.black):
                played = _side(match, team)
                if list(played) != [s for s in roster[team] if s in played]:
                    record = OutOfOrder(match.round, team, match.opponent(team), played)
                    out.append(("300", format_300(record)[4:]))
            kind = _forfeit_kind(match)
            if kind is not None:
                forfeited.append(ForfeitedMatch(kind, match.round, match.white, match.black))
    pab = _pab_teams(games, teams)
    if settings.swiss is not None and games.rounds:
        bye = TeamByes(*settings.swiss.bye, tuple(pab.get(r.number, 0) for r in games.rounds))
        out.append(("320", format_320(bye)[4:]))
    out.sort(key=lambda record: record[1])  # 300 by round and team
    forfeited.sort(key=lambda f: (f.round, f.white, f.black))
    out.extend(("330", format_330(f)[4:]) for f in forfeited)
    if games.rounds:
        out.extend(_team_round_lines(games, teams, settings, rounds, pab))
    return tuple(out)


def _team_round_lines(
    games: Tournament,
    teams: Sequence[Team],
    settings: TeamSettings,
    rounds: Sequence[Sequence[Match]],
    pab: dict[int, int],
) -> list[tuple[str, str]]:
    table = team_standings(games, teams, settings.tiebreaks, settings.scoring)
    rows = {r.team: r for r in table.rows}
    by_team: dict[int, dict[int, Match]] = {t.start: {} for t in teams}
    for matches in rounds:
        for match in matches:
            by_team[match.white][match.round] = match
            by_team[match.black][match.round] = match
    roster = {t.start: t.starts for t in teams}
    lines801: list[tuple[str, str]] = []
    lines802: list[tuple[str, str]] = []
    for team in teams:
        number = team.start
        blocks: list[tuple[str, str, str, str]] = []
        played: list[TeamRound] = []
        for rnd in games.rounds:
            found = by_team[number].get(rnd.number)
            if found is None:
                word = "PAB" if pab.get(rnd.number) == number else "ZPB"
                gp = settings.scoring.bye[1] if word == "PAB" else Fraction(0)
                code = "U" if word == "PAB" else "Z"
                played.append(TeamRound(None, word, "", gp, False))
                blocks.append((word, "", code * settings.boards, ""))
                continue
            match = found
            if not match.finished:
                break
            colour = "w" if match.white == number else "b"
            points = sum(match.board_points(number, settings.scoring), Fraction(0))
            played.append(TeamRound(match.opponent(number), "", colour, points, match.forfeited))
            side = _side(match, number)
            results = "".join(
                (g.result.white if g.white == player else g.result.black).value
                if g.result is not None
                else " "
                for g, player in zip(match.games, side, strict=True)
            )
            positions = "".join(position_char(roster[number].index(p) + 1) for p in side)
            blocks.append((str(match.opponent(number)), colour, results, positions))
        row = rows[number]
        head = TeamLine("802", number, "", row.mp, row.gp, tuple(played))
        lines802.append(("802", format_802(head)[4:]))
        lines801.append(("801", format_801(head, blocks)[4:]))
    return lines801 + lines802


__all__ = ["team_lines"]
