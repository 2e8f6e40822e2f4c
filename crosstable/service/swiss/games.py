"""A Swiss's start, withdrawals and finish (called through its system's rules)."""

from __future__ import annotations

import random as _random

from crosstable.core.errors import RuleError
from crosstable.core.pairing.dutch import (
    default_rounds,
    next_round,
)
from crosstable.core.system_settings import SwissSettings
from crosstable.core.text import Message
from crosstable.service.frame import Done
from crosstable.service.loading import Loaded
from crosstable.service.swiss.portal import apply_portal_order, check_even_field
from crosstable.service.swiss.settings import max_rounds
from crosstable.service.unit import Tx
from crosstable.store.models import EntryRow

# -- the start -----------------------------------------------------------------------------


def start_swiss(tx: Tx, loaded: Loaded, *, random: _random.Random | None = None) -> Done:
    """Fix the rounds and the initial colour; status → running; nothing paired yet."""
    row = tx.tournament
    players = len(loaded.entries)
    if players < 2:
        raise RuleError("a Swiss needs at least two players")
    details = dict(row.regulations or {})
    settings = SwissSettings.from_details(details)  # a misspelt setting is refused here
    settings.check_players(players)
    check_even_field(details, players)  # the portal's rule, when the regulations ask
    rounds = row.rounds_planned or default_rounds(players)
    if rounds > max_rounds(players):
        raise RuleError(
            (
                "{rounds} rounds are too many for {players} players: a Swiss without rematches "
                "has at most {most}"
            ),
            rounds=rounds,
            players=players,
            most=max_rounds(players),
        )
    drawn = settings.initial_colour is None
    if settings.initial_colour is None:
        colour = (random or _random.Random()).choice(("white", "black"))
    else:
        colour = settings.initial_colour.name.lower()
    details["initial_colour"] = colour
    ordered = apply_portal_order(tx, loaded.entries, details, row.created_at)
    tx.update(row, status="running", rounds_planned=rounds, regulations=details)
    how = Message("drawn by lot") if drawn else Message("as the regulations say")
    started = Message(
        (
            "tournament started: Swiss (Dutch system), {rounds} rounds, {players} players; "
            "player 1 has {colour} in round 1 ({how}); pair round 1 when ready"
        ),
        rounds=rounds,
        players=players,
        colour=Message("white") if colour == "white" else Message("black"),
        how=how,
    )
    data: dict[str, object] = {"rounds": rounds, "initial_colour": colour, "colour_drawn": drawn}
    if ordered is None:
        return Done(started, data)
    data["order_seed"] = int(details["order_seed"])
    return Done(Message("{started}; {ordered}", started=started, ordered=ordered), data)


# -- withdrawal and finish (called from crosstable.service.play for a Swiss) -------------------


def withdraw_swiss(tx: Tx, loaded: Loaded, entry: EntryRow, from_round: int | None) -> Done:
    """A Swiss player leaves: a game of theirs still without a result from ``from_round``
    on is forfeited (the opponent present wins), byes they asked for in rounds not yet
    paired are dropped, and no later round pairs them."""
    start = loaded.start_of(entry.number)
    who = Message("player {start} {name}", start=start, name=entry.name)
    paired = next_round(loaded.tournament()) - 1
    planned = loaded.row.rounds_planned or default_rounds(len(loaded.entries))
    games = [g for g in loaded.games if entry.number in (g.white, g.black)]
    pending = [g for g in games if g.result is None]
    if from_round is not None:
        first = from_round
    elif pending:
        first = min(g.round for g in pending)
    else:
        first = paired + 1
    if first > planned:
        if from_round is None:
            raise RuleError(
                (
                    "{who} has no round left to play (the Swiss has {rounds} rounds): a "
                    "withdrawal after the last round is refused"
                ),
                who=who,
                rounds=planned,
            )
        raise RuleError(
            "there is no round {round} (rounds 1–{rounds})", round=first, rounds=planned
        )
    if first < 1:
        raise RuleError(
            "there is no round {round} (rounds 1–{rounds})", round=first, rounds=planned
        )
    done = [g.round for g in games if g.round >= first and g.result is not None]
    done += [
        b.round
        for b in loaded.byes
        if b.player == entry.number and b.round >= first and b.kind == "U"
    ]
    if done:
        raise RuleError(
            "player {start} already has a result in round {round}: withdraw from a later round",
            start=start,
            round=min(done),
        )
    tx.update(entry, withdrawn_from=first)
    forfeits = [g for g in pending if g.round >= first]
    for game in forfeits:
        opponent = loaded.by_number[game.black if game.white == entry.number else game.white]
        gone = opponent.withdrawn_from is not None and opponent.withdrawn_from <= game.round
        lost = "-+" if game.white == entry.number else "+-"
        tx.update(game, result="--" if gone else lost, reason="no-show")
    dropped = [
        b for b in loaded.byes if b.player == entry.number and b.round >= first and b.round > paired
    ]
    for bye in dropped:
        tx.delete(bye)
    emptied = (
        {b.round for b in dropped}
        - {b.round for b in loaded.byes if b not in dropped}
        - {g.round for g in loaded.games}
    )
    for rnd in loaded.rounds:
        if rnd.number in emptied:
            tx.delete(rnd)
    parts: list[Message] = []
    if forfeits:
        parts.append(
            Message("1 game forfeited")
            if len(forfeits) == 1
            else Message("{count} games forfeited", count=len(forfeits))
        )
    if dropped:
        rounds = Message.joined(", ", [b.round for b in dropped])  # a player's byes: a round each
        parts.append(
            Message("requested byes in rounds {rounds} dropped", rounds=rounds)
            if len(dropped) > 1
            else Message("requested bye in round {round} dropped", round=dropped[0].round)
        )
    parts.append(Message("not paired from round {round} on", round=max(first, paired + 1)))
    return Done(
        Message(
            "{who} withdrew from round {round}: {details}",
            who=who,
            round=first,
            details=Message.joined("; ", parts),
        ),
        {"start": start, "from_round": first, "forfeits": len(forfeits)},
    )


def check_swiss_finished(loaded: Loaded) -> None:
    """Every planned round of a Swiss is paired (the results are checked by the caller)."""
    planned = loaded.row.rounds_planned or default_rounds(len(loaded.entries))
    number = next_round(loaded.tournament())
    if number <= planned:
        raise RuleError(
            (
                "round {round} of {rounds} is not paired yet: pair and play every round before "
                "finishing"
            ),
            round=number,
            rounds=planned,
        )
