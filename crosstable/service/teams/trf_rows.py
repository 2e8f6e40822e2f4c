"""The team rows of an imported team TRF (:mod:`.trf_plan`), stored in the import's own
transaction: the team settings in the regulations, the teams numbered as in the file, their
members in board order, every round's line-ups; a team round robin whose file stops
before its end gets its rounds to come from the teams' Berger table, as its start would
have seated them."""

from __future__ import annotations

from sqlalchemy import select

from crosstable.core.errors import CrosstableError
from crosstable.core.model import Colour, System
from crosstable.core.teams import seat_round, team_round_robin
from crosstable.formats.trf_export import kept_records
from crosstable.formats.trf_model import TrfDocument
from crosstable.formats.trf_team_records import TEAM_TAGS
from crosstable.service.read_views import JsonObject
from crosstable.service.teams.trf_plan import TeamPlan
from crosstable.service.unit import Tx
from crosstable.store.models import EntryRow, GameRow, RoundRow
from crosstable.store.team_models import LineupRow, TeamMemberRow, TeamRow


def store_team_plan(tx: Tx, plan: TeamPlan, initial: Colour | None = None) -> int:
    """Store ``plan``'s team rows in ``tx`` (the imported tournament's); the number of
    rounds still to come added from the Berger table."""
    row = tx.tournament
    details = dict(row.regulations or {}) | plan.settings.to_details()
    if plan.system is System.SWISS_DUTCH and not details.get("initial_colour"):
        colour = initial or plan.first_colour()
        if colour is not None:
            details["initial_colour"] = "white" if colour is Colour.WHITE else "black"
    tx.update(row, regulations=details)
    for number, name, _ in plan.teams:
        tx.insert(TeamRow(number=number, start=number, name=name, captain=None))
    tx.flush()
    entries = {
        e.number: e
        for e in tx.session.scalars(select(EntryRow).where(EntryRow.tournament_id == row.id))
    }
    for number, name, members in plan.teams:
        for position, start in enumerate(members, 1):
            tx.update(entries[start], team=name[:100])
            tx.insert(TeamMemberRow(entry=start, team=number, position=position))
    tx.flush()
    for (round_number, team), players in sorted(plan.lineups.items()):
        for board, start in enumerate(players, 1):
            tx.insert(LineupRow(round=round_number, team=team, board=board, entry=start))
    tx.flush()
    return _rounds_to_come(tx, plan) if plan.system is System.ROUND_ROBIN else 0


def _rounds_to_come(tx: Tx, plan: TeamPlan) -> int:
    teams = plan.core_teams()
    try:
        schedule = team_round_robin(teams, cycles=plan.cycles)
    except CrosstableError:
        return 0
    played = plan.tournament.rounds
    if len(schedule.rounds) <= len(played):
        return 0
    owner = {s: n for n, _, members in plan.teams for s in members}
    for rnd, scheduled in zip(played, schedule.rounds, strict=False):
        pairs = {frozenset((owner[g.white], owner[g.black])) for g in rnd.games}
        if rnd.number != scheduled.number or pairs != {frozenset(b) for b in scheduled.boards}:
            return 0
    later = schedule.rounds[len(played) :]
    for scheduled in later:
        tx.insert(RoundRow(number=scheduled.number, cycle=scheduled.cycle))
    tx.flush()
    for scheduled in later:
        for game in seat_round(scheduled, teams, {}):
            tx.insert(
                GameRow(
                    round=game.round,
                    board=game.board,
                    white=game.white,
                    black=game.black,
                    result=None,
                    reason="normal",
                    version=1,
                )
            )
        for pair in scheduled.boards:
            for team in pair:
                lineup = teams[team - 1].default_lineup(scheduled.number)
                for board, start in enumerate(lineup.players, 1):
                    tx.insert(
                        LineupRow(round=scheduled.number, team=team, board=board, entry=start)
                    )
    tx.flush()
    return len(later)


def team_kept_records(doc: TrfDocument) -> JsonObject:
    """The records kept with an imported team file, less those its rows now hold (the
    teams, 300/320/330/801/802, the board colours and match points): the export
    writes them from the rows."""
    kept = kept_records(doc)
    kept.pop("teams", None)
    others = [r for r in kept.get("other_records") or [] if r[0] not in TEAM_TAGS]
    if others:
        kept["other_records"] = others
    else:
        kept.pop("other_records", None)
    headers = {
        t: v for t, v in (kept.get("headers") or {}).items() if t not in ("352", "362", "802")
    }
    if headers:
        kept["headers"] = headers
    else:
        kept.pop("headers", None)
    return kept


__all__ = ["store_team_plan", "team_kept_records"]
