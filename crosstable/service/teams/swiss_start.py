"""A team Swiss's start: the teams numbered by their initial ranking (the average
rating of their top boards, then the next player's rating, then the name: no lots),
the players numbered team by team in that order, the rounds fixed and the initial
colour drawn unless the regulations give it. Nothing is paired yet: each round is
paired by :meth:`crosstable.service.teams.swiss.TeamSwissPlay.pair_team_round`."""

from __future__ import annotations

import random as _random

from crosstable.core.errors import RuleError
from crosstable.core.pairing.dutch import default_rounds
from crosstable.core.teams.swiss import initial_order
from crosstable.core.text import Message
from crosstable.service.frame import Done
from crosstable.service.loading import Loaded
from crosstable.service.teams.rows import core_teams, settings_of, team_rows
from crosstable.service.teams.start import number_teams
from crosstable.service.unit import Tx


def start_team_swiss(tx: Tx, loaded: Loaded, random: _random.Random | None) -> Done:
    """The teams numbered by their initial ranking, the players team by team, the rounds
    fixed (the regulations' or as many as a knockout of the teams), the initial colour
    drawn unless the regulations give it; nothing paired yet."""
    row = tx.tournament
    settings = settings_of(row)
    rows = team_rows(tx.session, row.id)
    teams = core_teams(rows, loaded.by_number, settings)  # every team complete
    if len(teams) < 2:
        raise RuleError("a team Swiss needs at least two teams")
    members = {m.entry for team in rows.members.values() for m in team}
    for entry in loaded.entries:
        if entry.number not in members:
            raise RuleError(
                "player {player} is in no team: add the players with their teams",
                player=entry.name,
            )
    rounds = row.rounds_planned or default_rounds(len(teams))
    if rounds >= len(teams) + len(teams) % 2:
        raise RuleError(
            "{rounds} rounds are too many for {teams} teams: a Swiss without rematches has "
            "at most {most}",
            rounds=rounds,
            teams=len(teams),
            most=len(teams) + len(teams) % 2 - 1,
        )
    by_name = {team.name: team for team in rows.teams}
    order = [by_name[t.name] for t in initial_order(teams, settings.boards)]
    number_teams(tx, loaded, rows, order)
    details = dict(row.regulations or {})
    colour = str(details.get("initial_colour") or "").strip().lower()
    if colour not in ("white", "black"):
        colour = (random or _random.Random()).choice(("white", "black"))
    details["initial_colour"] = colour
    tx.update(row, status="running", rounds_planned=rounds, regulations=details)
    tx.flush()
    swiss = settings.swiss
    pairing = swiss.pairing if swiss is not None else "olympiad"
    return Done(
        Message(
            "team Swiss started ({pairing}): {teams} teams, {rounds} rounds, {boards} boards "
            "a match; team 1 has {colour} on board 1 in round 1",
            pairing=pairing,
            teams=len(teams),
            rounds=rounds,
            boards=settings.boards,
            colour=Message(colour),
        ),
        {"rounds": rounds, "teams": [team.name for team in order], "initial_colour": colour},
    )


__all__ = ["start_team_swiss"]
