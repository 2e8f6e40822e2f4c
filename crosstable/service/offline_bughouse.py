"""A Bughouse event of the offline app (a tournament JSON with its ``"bughouse"``
member) made a stored Bughouse event, as an organiser makes one.

The file is first played through by the core in full (refused, naming the place,
before anything is stored); then the event is created with the file's rule (a Swiss
with its rounds and its initial colour), the pairs and their two players added in
the file's order, started, and each round paired (a Swiss), each result entered and
each first-finished game marked through the service's own use cases, so the stored
event is an ordinary one with its history. A round robin of pairs keeps the file's
numbering of the pairs: its start is the server's start with the pairs in that order
instead of drawn by lot; a Swiss's numbering is the server's own (by the pairs'
average rating), which the file must have.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from crosstable.core.errors import InputError, RuleError
from crosstable.core.model import System, Tournament
from crosstable.core.teams.bughouse import bughouse_details
from crosstable.core.teams.swiss import initial_order
from crosstable.core.text import Message
from crosstable.formats.bughouse_json import read_bughouse
from crosstable.offline.bughouse_exchange import state_of
from crosstable.service import Change, PlayerInfo, Regulations, Service
from crosstable.service.frame import Done
from crosstable.service.loading import Loaded
from crosstable.service.start_rules import check_start
from crosstable.service.teams.start import start_team_round_robin
from crosstable.service.unit import Tx


class InFileOrder(random.Random):
    """A random source whose shuffle keeps the teams in the order they were added
    (their registration numbers): the file's numbering of the pairs."""

    def shuffle(self, x: Any, *args: Any) -> None:
        x.sort(key=lambda team: team.number)


def import_bughouse(
    service: Service, tournament: Tournament, member: Any, source: str, actor: str
) -> Change:
    """The Bughouse event of ``tournament`` (its players' games) and ``member``, stored."""
    part = read_bughouse(member, tournament, source)
    state = state_of(tournament, part, source)  # the whole file checked by the core
    swiss = tournament.settings.system is System.SWISS_DUTCH
    knockout = tournament.settings.system is System.KNOCKOUT
    rated = [p.name for p in initial_order(part.pairs, 2)]
    if (swiss or knockout) and rated != [p.name for p in part.pairs]:
        raise InputError(
            "$.bughouse.pairs: a Swiss of pairs is numbered by the pairs' average rating "
            "and this file's pairs are not",
            source=source,
        )
    start = next(e for e in state["log"] if e["do"] == "start")
    details = bughouse_details(part.rule, swiss=swiss)
    name = tournament.name or "Bughouse"
    if knockout:  # the file's knockout settings, the seed of its lots included
        assert part.knockout is not None  # (checked by the core's replay)
        details |= part.knockout
        regulations = Regulations(name=name, system=System.KNOCKOUT, details=details)
    elif swiss:
        details["initial_colour"] = part.colour
        regulations = Regulations(
            name=name, system=System.SWISS_DUTCH, rounds=start["rounds"], details=details
        )
    else:
        regulations = Regulations(name=name, system=System.ROUND_ROBIN, details=details)
    created = service.create_tournament(regulations, actor=actor)
    tid = created.tournament_id
    for number, pair in enumerate(part.pairs, 1):
        service.add_team(tid, pair.name, actor=actor)
        for p in pair.members:
            info = PlayerInfo.of(p)
            service.add_team_member(tid, number, info, actor=actor)
    if swiss or knockout:
        service.start(tid, actor=actor)
    else:
        start_in_order(service, tid, actor)
    games = 0
    for entry in state["log"]:
        if entry["do"] == "pair":
            service.pair_bughouse_round(tid, actor=actor)
        elif entry["do"] == "result":
            service.record_result(tid, entry["round"], entry["board"], entry["result"], actor=actor)
            games += 1
        elif entry["do"] == "first":
            service.mark_first_finished(tid, entry["round"], entry["board"], actor=actor)
    summary = Message(
        "tournament {tournament} “{name}” imported from {source}: a Bughouse event, "
        "{pairs} pairs, {games} games",
        tournament=tid,
        name=name,
        source=source or "JSON",
        pairs=len(part.pairs),
        games=games,
    )
    return replace(created, summary=summary)


def start_in_order(service: Service, tournament_id: int, actor: str) -> Change:
    """Start a round robin of pairs with the pairs numbered in the order they were added."""

    def body(tx: Tx) -> Done:
        row = tx.tournament
        if row.status != "registration":
            raise RuleError(
                "the tournament has already started (it is {status})", status=row.status
            )
        check_start(tx.session, row)  # the portal's rules, as every start
        return start_team_round_robin(tx, Loaded(tx.session, row), InFileOrder())

    return service.frame.change(tournament_id, "start", body, actor=actor)


__all__ = ["InFileOrder", "import_bughouse", "start_in_order"]
