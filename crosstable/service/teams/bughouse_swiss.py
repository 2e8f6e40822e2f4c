"""The next round of a Swiss of Bughouse pairs, paired from the results stored.

A Swiss of pairs is a team Swiss (two boards, the Dutch rules) whose details say
``bughouse``: its start is the team Swiss's (the pairs numbered by their average
rating). Each round is paired here rather than by the team Swiss's pairing because a
match's result depends on the Bughouse rule (under ``first``, on the game that
finished first): the Dutch engine pairs the table of pairs
(:func:`crosstable.core.teams.bughouse_pairing.pair_swiss_round`), each match is
seated on two boards and the pair left over has the pairing-allocated bye (both its
players).
"""

from __future__ import annotations

from sqlalchemy import select

from crosstable.core.errors import RuleError
from crosstable.core.model import Colour, System
from crosstable.core.pairing.dutch import default_rounds
from crosstable.core.teams.bughouse import BughouseRules
from crosstable.core.teams.bughouse_pairing import BughouseRound, pair_swiss_round
from crosstable.core.text import Message
from crosstable.service.frame import Done
from crosstable.service.teams.rows import TeamState
from crosstable.service.unit import Tx
from crosstable.store.models import ByeRow, EntryRow, GameRow, RoundRow
from crosstable.store.team_models import LineupRow


def pair_next(tx: Tx, state: TeamState, rules: BughouseRules) -> Done:
    """Pair and seat the next round of the Swiss of pairs in ``tx``'s tournament."""
    row = tx.tournament
    if state.settings.swiss is None or System(row.system) is not System.SWISS_DUTCH:
        raise RuleError(
            "tournament {tournament} is a round robin of pairs: its rounds are paired at the start",
            tournament=row.id,
        )
    if row.status != "running":
        raise RuleError("a Swiss of pairs pairs its rounds once it has started")
    number = len(state.games.rounds) + 1
    total = row.rounds_planned or default_rounds(len(state.teams))
    if number > total:
        raise RuleError(
            "all {rounds} rounds are paired: no round {round}", rounds=total, round=number
        )
    colour = str((row.regulations or {}).get("initial_colour") or "white")
    paired = pair_swiss_round(
        state.games,
        state.teams,
        rules,
        initial_colour=Colour.BLACK if colour == "black" else Colour.WHITE,
        total_rounds=total,
    )
    _insert(tx, state, paired)
    with_bye = {b.player for b in paired.byes}
    bye = next((p.start for p in state.teams if with_bye & set(p.starts)), None)
    return Done(
        Message(
            "round {round} paired: {matches} matches{bye}",
            round=number,
            matches=len(paired.matches),
            bye=Message("; pair {pair} has the bye", pair=bye) if bye is not None else "",
        ),
        {"round": number, "matches": [list(m) for m in paired.matches], "bye": bye},
    )


def _insert(tx: Tx, state: TeamState, paired: BughouseRound) -> None:
    entries = tx.session.scalars(select(EntryRow).where(EntryRow.tournament_id == tx.tournament_id))
    entry_of = {e.start: e.number for e in entries if e.start is not None}
    number = paired.number
    tx.insert(RoundRow(number=number, cycle=1))
    tx.flush()
    for game in paired.games:
        tx.insert(
            GameRow(
                round=number,
                board=game.board,
                white=entry_of[game.white],
                black=entry_of[game.black],
                result=None,
                reason="normal",
                version=1,
            )
        )
    for white, black in paired.matches:
        for start in (white, black):
            pair = state.teams[start - 1]
            team_number = state.rows.team_by_start(start).number
            for board, player in enumerate(pair.starts[:2], 1):
                tx.insert(
                    LineupRow(round=number, team=team_number, board=board, entry=entry_of[player])
                )
    for bye in paired.byes:
        tx.insert(ByeRow(round=number, player=entry_of[bye.player], kind=bye.kind.value))
    tx.flush()


__all__ = ["pair_next"]
