"""Scheveningen tournaments in the store: two teams, every player meets the other team.

The schedule core (:func:`crosstable.core.schedule.scheveningen.scheveningen`)
works on starting numbers: team A is 1…n, team B is n+1…2n, and board i is
always A i's game. The drawing of lots gives every player a starting number in
one list for the whole field, so at the start the numbers are given again team
by team, keeping the drawn order:

* **team A** is the team of the player who drew starting number 1;
* within each team the players keep the order of their drawn numbers — that is
  the board order (after a draw by rating: the rating order; by hand: the order
  typed);
* team A's players get 1…n in that order, team B's n+1…2n.

A draw that already lists team A first (by hand) keeps every number. The new
numbers are row changes of the start event, so undoing the start gives the
drawn numbers back.
"""

from __future__ import annotations

import random as _random
from dataclasses import replace

from crosstable.core.competitor import TEAM, Competitor
from crosstable.core.errors import RuleError
from crosstable.core.model import System
from crosstable.core.pairing_systems import fixed_pairing
from crosstable.core.text import Message
from crosstable.service.frame import Done
from crosstable.service.loading import Loaded, player_of
from crosstable.service.round_robin import RoundRobinRules
from crosstable.service.schedules import insert_schedule
from crosstable.service.unit import Tx
from crosstable.store.models import EntryRow


def teams_of(
    entries: list[EntryRow],
) -> tuple[tuple[str, list[EntryRow]], tuple[str, list[EntryRow]]]:
    """The two teams (name, players in drawn order), team A first; RuleError when the
    entries are not two teams of equal size."""
    ordered = sorted(entries, key=lambda e: (e.start is None, e.start or 0, e.number))
    missing = [e for e in ordered if not (e.team or "").strip()]
    if missing:
        listed = ", ".join(_who(e) for e in missing)
        raise RuleError(
            "every player of a Scheveningen needs a team: no team for {listed}", listed=listed
        )
    teams: dict[str, list[EntryRow]] = {}
    for entry in ordered:
        teams.setdefault(str(entry.team).strip(), []).append(entry)
    if len(teams) != 2:
        found = Message.joined(
            ", ",
            [
                Message("{team} ({count} player)", team=repr(name), count=len(members))
                if len(members) == 1
                else Message("{team} ({count} players)", team=repr(name), count=len(members))
                for name, members in teams.items()
            ],
        )
        raise RuleError(
            "a Scheveningen is played by exactly two teams; there are {count}: {teams}",
            count=len(teams),
            teams=found,
        )
    (first, a), (second, b) = teams.items()
    if len(a) != len(b):
        raise RuleError(
            (
                "the two teams of a Scheveningen need the same number of players: {first} has "
                "{size_first}, {second} has {size_second}"
            ),
            first=repr(first),
            size_first=len(a),
            second=repr(second),
            size_second=len(b),
        )
    return (first, a), (second, b)


def team_competitors(teams: list[tuple[str, list[EntryRow]]]) -> tuple[Competitor, ...]:
    """The teams as competitors of the team kind, numbered 1… in the order given, their
    members numbered team by team in board order (as the start numbers them)."""
    found: list[Competitor] = []
    first = 1
    for number, (name, members) in enumerate(teams, 1):
        players = tuple(
            replace(player_of(entry), start=first + board) for board, entry in enumerate(members)
        )
        found.append(Competitor(number, name, players, kind=TEAM.name, boards=len(players)))
        first += len(players)
    return tuple(found)


def start_scheveningen(tx: Tx, loaded: Loaded) -> Done:
    """Renumber team by team, insert every round and game, status → running."""
    row = tx.tournament
    (name_a, team_a), (name_b, team_b) = teams_of(loaded.entries)
    n = len(team_a)
    ordered = team_a + team_b
    renumbered = any(entry.start != start for start, entry in enumerate(ordered, 1))
    if renumbered:
        for entry in loaded.entries:
            tx.update(entry, start=None)
        tx.flush()
        for start, entry in enumerate(ordered, 1):
            tx.update(entry, start=start)
        tx.flush()
    teams = team_competitors([(name_a, team_a), (name_b, team_b)])
    schedule = fixed_pairing(System.SCHEVENINGEN).schedule(teams, cycles=row.cycles)
    number_of = {start: entry.number for start, entry in enumerate(ordered, 1)}
    insert_schedule(tx, schedule, number_of)
    tx.update(row, status="running")
    rounds = len(schedule.rounds)
    games = sum(len(r.boards) for r in schedule.rounds)
    note = Message("; starting numbers given team by team in the drawn order") if renumbered else ""
    return Done(
        Message(
            (
                "tournament started: Scheveningen, {team_a} (1–{last_a}) against {team_b} "
                "({first_b}–{last_b}): {rounds} rounds, {games} games{note}"
            ),
            team_a=name_a,
            last_a=n,
            team_b=name_b,
            first_b=n + 1,
            last_b=2 * n,
            rounds=rounds,
            games=games,
            note=note,
        ),
        {
            "rounds": rounds,
            "teams": [
                {"team": name_a, "starts": [1, n]},
                {"team": name_b, "starts": [n + 1, 2 * n]},
            ],
            "renumbered": renumbered,
        },
    )


def _who(entry: EntryRow) -> str:
    return f"{entry.start} {entry.name}" if entry.start is not None else entry.name


class ScheveningenRules(RoundRobinRules):
    """A Scheveningen: numbered team by team at the start, then played as a round robin's
    schedule is (withdrawals, the finish)."""

    system = System.SCHEVENINGEN
    #: two teams of 50: 50 rounds of 50 games (2 500 games)
    max_players = 100

    def check_field(self, players: int, cycles: int = 1) -> None:
        if players > self.max_players:
            raise RuleError(
                "a Scheveningen has at most {cap} players, not {players}",
                cap=self.max_players,
                players=players,
            )

    def start(self, tx: Tx, loaded: Loaded, random: _random.Random | None = None) -> Done:
        return start_scheveningen(tx, loaded)
