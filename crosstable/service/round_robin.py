"""The round robin's rules: its start on the table the regulations choose (FIDE Berger
by default, the circle method or the Crenshaw-Berger tables:
:mod:`crosstable.core.schedule.kinds`) and a withdrawal.

The Scheveningen (:mod:`crosstable.service.scheveningen`) and a knockout's player with
games still to play (:mod:`crosstable.service.knockout.rules`) withdraw the same way:
every game of theirs without a result from the round on becomes a forfeit.
"""

from __future__ import annotations

import random as _random

from crosstable.core.competitor import players_as_competitors
from crosstable.core.errors import RuleError
from crosstable.core.model import Reason, System
from crosstable.core.pairing_systems import fixed_pairing
from crosstable.core.schedule.kinds import (
    ScheduleKind,
    schedule_comment,
    schedule_kind,
)
from crosstable.core.teams.settings import is_team_tournament
from crosstable.core.text import Message
from crosstable.formats.trf_model import Comment
from crosstable.service.details import Details
from crosstable.service.frame import Done
from crosstable.service.loading import Loaded
from crosstable.service.schedules import insert_schedule
from crosstable.service.swiss.portal import check_portal_settings
from crosstable.service.teams.start import start_team_round_robin
from crosstable.service.unit import Tx
from crosstable.store.models import EntryRow


def check_schedule_setting(
    system: System | str,
    details: Details | None,
    before: Details | None = None,
    status: str = "registration",
) -> None:
    """Refuse a round robin's ``schedule`` that names no table, or a change of table
    once the rounds are made (``status`` past registration), and a Swiss's portal
    setting with a value it cannot have: the creation's and the regulations' check
    (another system refuses these settings itself)."""
    check_portal_settings(system, details)
    if system not in (System.ROUND_ROBIN, System.ROUND_ROBIN.value):
        return
    kind = schedule_kind(details)
    if status != "registration" and kind is not schedule_kind(before):
        raise RuleError(
            "the schedule (Berger, circle or Crenshaw-Berger) was fixed at the start: it "
            "cannot change now"
        )


def schedule_comments(system: System, details: Details | None) -> tuple[Comment, ...]:
    """A TRF export's ``###`` line stating a round robin's table when it is not FIDE's
    Berger tables (a file without one is read, and checked, as Berger)."""
    if system is not System.ROUND_ROBIN:
        return ()
    kind = schedule_kind(details)
    return () if kind is ScheduleKind.BERGER else (Comment(schedule_comment(kind)),)


def withdraw_from_games(tx: Tx, loaded: Loaded, entry: EntryRow, from_round: int | None) -> Done:
    """Every game of ``entry`` without a result, from ``from_round`` on (default: their
    first such game), becomes a forfeit: the opponent gets +; both withdrawn: --."""
    start = loaded.start_of(entry.number)
    games = [g for g in loaded.games if entry.number in (g.white, g.black)]
    pending = [g for g in games if g.result is None]
    if not pending:
        raise RuleError(
            (
                "player {start} {name} has no game left to play: a withdrawal after the last "
                "round is refused"
            ),
            start=start,
            name=entry.name,
        )
    first = from_round if from_round is not None else min(g.round for g in pending)
    last_round = max((r.number for r in loaded.rounds), default=0)
    if not 1 <= first <= last_round:
        raise RuleError(
            "there is no round {round} (rounds 1–{rounds})", round=first, rounds=last_round
        )
    played = [g for g in games if g.round >= first and g.result is not None]
    if played:
        raise RuleError(
            "player {start} already has a result in round {round}: withdraw from a later round",
            start=start,
            round=played[0].round,
        )
    forfeits = [g for g in pending if g.round >= first]
    if not forfeits:
        raise RuleError(
            (
                "player {start} {name} has no game left from round {round}: a withdrawal after "
                "the last round is refused"
            ),
            start=start,
            name=entry.name,
            round=first,
        )
    tx.update(entry, withdrawn_from=first)
    for game in forfeits:
        opponent = loaded.by_number[game.black if game.white == entry.number else game.white]
        gone = opponent.withdrawn_from is not None and opponent.withdrawn_from <= game.round
        lost = "-+" if game.white == entry.number else "+-"
        code = "--" if gone else lost
        tx.update(game, result=code, reason=Reason.NO_SHOW.value)
    said = Message(
        "player {start} {name} withdrew from round {round}",
        start=start,
        name=entry.name,
        round=first,
    )
    return Done(
        (
            Message("{summary}: 1 game forfeited", summary=said)
            if len(forfeits) == 1
            else Message("{summary}: {count} games forfeited", summary=said, count=len(forfeits))
        ),
        {"start": start, "from_round": first, "forfeits": len(forfeits)},
    )


#: a round robin's cycles and games (a double round robin of 100 players)
MAX_CYCLES = 12
MAX_ROUND_ROBIN_GAMES = 9_900


class RoundRobinRules:
    """A round robin: the whole schedule at the start, finished when every game is."""

    system = System.ROUND_ROBIN
    #: 99 rounds and 4 950 games: start ~2 s, the crosstable page ~1.4 s and 0.3 MB
    max_players = 100

    def check_field(self, players: int, cycles: int = 1) -> None:
        if players > self.max_players:
            raise RuleError(
                "a round robin has at most {cap} players, not {players}",
                cap=self.max_players,
                players=players,
            )
        if cycles > MAX_CYCLES:
            raise RuleError(
                "a round robin has at most {cap} cycles, not {cycles}",
                cap=MAX_CYCLES,
                cycles=cycles,
            )
        games = cycles * (players * (players - 1) // 2)
        if games > MAX_ROUND_ROBIN_GAMES:
            raise RuleError(
                (
                    "a round robin has at most {cap} games: {players} players in {cycles} cycles "
                    "make {games}"
                ),
                cap=MAX_ROUND_ROBIN_GAMES,
                players=players,
                cycles=cycles,
                games=games,
            )

    def start(self, tx: Tx, loaded: Loaded, random: _random.Random | None = None) -> Done:
        row = tx.tournament
        if is_team_tournament(row.regulations or {}):  # the competitors are teams
            return start_team_round_robin(tx, loaded, random)
        schedule = fixed_pairing(self.system).schedule(
            players_as_competitors(loaded.tournament().players),
            cycles=row.cycles,
            swap_last_rounds=row.swap_last_rounds,
            details=row.regulations,
        )
        number_of = {loaded.start_of(entry.number): entry.number for entry in loaded.entries}
        insert_schedule(tx, schedule, number_of)
        tx.update(row, status="running")
        rounds = len(schedule.rounds)
        return Done(
            Message(
                "tournament started: {rounds} rounds, {players} players",
                rounds=rounds,
                players=len(loaded.entries),
            ),
            {"rounds": rounds},
        )

    def withdraw(self, tx: Tx, loaded: Loaded, entry: EntryRow, from_round: int | None) -> Done:
        return withdraw_from_games(tx, loaded, entry, from_round)

    def check_correction(self, tx: Tx) -> None:
        return None

    def bracket_places(self, tx: Tx, loaded: Loaded) -> dict[int, int] | None:
        return None

    def check_finished(self, loaded: Loaded) -> None:
        return None


__all__ = [
    "MAX_CYCLES",
    "MAX_ROUND_ROBIN_GAMES",
    "RoundRobinRules",
    "check_schedule_setting",
    "schedule_comments",
    "withdraw_from_games",
]
