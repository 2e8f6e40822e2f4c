"""Swiss tournaments (FIDE Dutch) in the store: paired round by round (issue 6).

The start fixes the number of rounds (the regulations', else ⌈log₂ N⌉, R-SW-3)
and the initial colour (the regulations', else drawn by lot with the injected
random source and written back into the regulations, so it is recorded). No
round is paired then: each round is proposed by the Dutch engine
(:func:`crosstable.core.pairing.dutch.pair_round`) once every result of the
round before is in, shown for approval, and published as one event — the
engine's pairing, or the organiser's own, which the event records as a manual
pairing with the ways it differs from the Dutch system's.

Players with a half-, zero- or full-point bye entered for a round (H, Z, F) and
players who withdrew are not paired in it (a withdrawn player's round is recorded
as a zero-point bye, as a TRF file shows an absence). The pairing-allocated bye (PAB) is a
bye row of kind ``U`` (worth a win unless the point system says otherwise;
never twice, R-SW-2). Regulations details read here: ``initial_colour``
(``white``/``black``), ``forbidden`` (``"1-2,3-4"``: pairs by starting number
that may not meet) and ``acceleration`` (``baku``).
"""

from __future__ import annotations

import random as _random
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from crosstable.core.errors import RuleError
from crosstable.core.model import Colour, System, Tournament
from crosstable.core.pairing.dutch import (
    NoValidPairingError,
    Pairing,
    PairingRequest,
    default_rounds,
    next_round,
    pair_round,
    request_for,
)
from crosstable.core.pairing.dutch.players import bye_eligible
from crosstable.core.wording import counted
from crosstable.service.base import Change, Done, ServiceBase, Unchanged, replayed_change
from crosstable.service.errors import NotFoundError
from crosstable.service.loading import Loaded
from crosstable.service.unit import Tx
from crosstable.store.models import ByeRow, EntryRow, GameRow, RoundRow

#: requested byes: half-point, zero-point, full-point
BYE_KINDS = {"H": "half-point", "Z": "zero-point", "F": "full-point"}
_COLOURS = {"white": Colour.WHITE, "black": Colour.BLACK}

Board = tuple[int, int]


@dataclass(frozen=True, slots=True)
class RoundProposal:
    """The Dutch system's pairing of the next round, before it is published.

    Starting numbers throughout; ``boards`` are (white, black) in board order,
    ``bye`` is the PAB, ``absent`` the players not paired and why
    (``"H"``, ``"Z"``, ``"F"`` or ``"withdrawn"``).
    """

    round: int
    boards: tuple[Board, ...]
    bye: int | None
    absent: tuple[tuple[int, str], ...]

    def as_json(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "boards": [list(board) for board in self.boards],
            "bye": self.bye,
            "absent": [list(item) for item in self.absent],
        }


# -- the regulations' details ------------------------------------------------------------


def parse_forbidden(text: str) -> tuple[tuple[int, ...], ...]:
    """``"1-2,3-4-5"`` → ((1, 2), (3, 4, 5)): groups of players who may not meet.

    >>> parse_forbidden(" 1-2, 3-4-5 ")
    ((1, 2), (3, 4, 5))
    """
    groups: list[tuple[int, ...]] = []
    for part in text.split(","):
        if not part.strip():
            continue
        members: list[int] = []
        for number in part.split("-"):
            if not number.strip().isdigit():
                raise RuleError(
                    f"forbidden pairs {text!r}: {part.strip()!r} is not like 1-2 "
                    "(starting numbers joined by -, pairs separated by commas)"
                )
            members.append(int(number))
        if len(set(members)) < 2:
            raise RuleError(f"forbidden pairs {text!r}: {part.strip()!r} names one player")
        groups.append(tuple(members))
    return tuple(groups)


def initial_colour_of(details: dict[str, Any]) -> Colour:
    """The initial colour the start fixed (white when a tournament has none recorded)."""
    return _COLOURS.get(str(details.get("initial_colour", "")).strip().lower(), Colour.WHITE)


def _check_details(details: dict[str, Any], players: int) -> None:
    colour = str(details.get("initial_colour", "")).strip().lower()
    if colour and colour not in _COLOURS:
        raise RuleError(f"initial colour {colour!r}: use white or black (or leave it to the lot)")
    acceleration = str(details.get("acceleration", "")).strip().lower()
    if acceleration not in ("", "baku"):
        raise RuleError(f"acceleration {acceleration!r}: use baku or none")
    for group in parse_forbidden(str(details.get("forbidden", ""))):
        for start in group:
            if not 1 <= start <= players:
                raise RuleError(
                    f"forbidden pairs: there is no starting number {start} (players 1–{players})"
                )


def _max_rounds(players: int) -> int:
    """Without a rematch, an even field has N − 1 rounds at most, an odd one N."""
    return players if players % 2 else players - 1


# -- the start -----------------------------------------------------------------------------


def start_swiss(tx: Tx, loaded: Loaded, *, random: _random.Random | None = None) -> Done:
    """Fix the rounds and the initial colour; status → running; nothing paired yet."""
    row = tx.tournament
    players = len(loaded.entries)
    if players < 2:
        raise RuleError("a Swiss needs at least two players")
    details = dict(row.regulations or {})
    _check_details(details, players)
    rounds = row.rounds_planned or default_rounds(players)
    if rounds > _max_rounds(players):
        raise RuleError(
            f"{rounds} rounds are too many for {players} players: a Swiss without rematches "
            f"has at most {_max_rounds(players)}"
        )
    colour = str(details.get("initial_colour", "")).strip().lower()
    drawn = not colour
    if drawn:
        colour = (random or _random.Random()).choice(("white", "black"))
    details["initial_colour"] = colour
    tx.update(row, status="running", rounds_planned=rounds, regulations=details)
    how = "drawn by lot" if drawn else "as the regulations say"
    return Done(
        f"tournament started: Swiss (Dutch system), {rounds} rounds, {players} players; "
        f"player 1 has {colour} in round 1 ({how}); pair round 1 when ready",
        {"rounds": rounds, "initial_colour": colour, "colour_drawn": drawn},
    )


# -- the state of the next round ---------------------------------------------------------------


@dataclass
class _Plan:
    """The next round as the store has it: the engine's request and its pairing."""

    loaded: Loaded
    tournament: Tournament
    round: int
    request: PairingRequest
    absent: tuple[tuple[int, str], ...]
    pairing: Pairing | None  # None: the engine finds no valid pairing
    error: str = ""

    def proposal(self) -> RoundProposal:
        if self.pairing is None:
            raise RuleError(f"round {self.round} cannot be paired: {self.error}")
        return RoundProposal(self.round, self.pairing.boards, self.pairing.bye, self.absent)


def _check_swiss(loaded: Loaded) -> None:
    row = loaded.row
    if System(row.system) is not System.SWISS_DUTCH:
        raise RuleError(
            f"this is a {row.system} tournament: rounds are paired this way only in a Swiss"
        )


def _check_running(loaded: Loaded) -> None:
    status = loaded.row.status
    if status == "registration":
        raise RuleError("the tournament has not started: draw lots and start it first")
    if status == "finished":
        raise RuleError("the tournament is finished: no more rounds are paired")


def _pending(loaded: Loaded) -> str | None:
    """ "round 2: enter the results of boards 1 and 3 first", or None when all are in."""
    missing = [g for g in loaded.games if g.result is None]
    if not missing:
        return None
    first = min(g.round for g in missing)
    boards = [str(g.board) for g in missing if g.round == first]
    listed = boards[0] if len(boards) == 1 else ", ".join(boards[:-1]) + " and " + boards[-1]
    noun = "board" if len(boards) == 1 else "boards"
    return f"round {first}: enter the results of {noun} {listed} first"


def _plan(loaded: Loaded) -> _Plan:
    _check_swiss(loaded)
    _check_running(loaded)
    row = loaded.row
    tournament = loaded.tournament()
    number = next_round(tournament)
    planned = row.rounds_planned or default_rounds(len(tournament.players))
    if number > planned:
        raise RuleError(
            f"all {planned} rounds are paired: enter the last results and finish the tournament"
        )
    waiting = _pending(loaded)
    if waiting is not None:
        raise RuleError(f"round {number} cannot be paired yet: {waiting}")
    details = dict(row.regulations or {})
    entered = {
        loaded.start_of(b.player): b.kind
        for b in loaded.byes
        if b.round == number and b.kind in BYE_KINDS
    }
    withdrawn = {
        loaded.start_of(e.number)
        for e in loaded.entries
        if e.withdrawn_from is not None and e.withdrawn_from <= number
    }
    absent = {start: "withdrawn" for start in withdrawn} | entered
    accelerations: dict[int, list[Fraction]] | None = None
    if str(details.get("acceleration", "")).strip().lower() == "baku":
        from crosstable.core.pairing.dutch.acceleration import baku

        accelerations = baku(len(tournament.players), planned)
    request = request_for(
        tournament,
        number,
        initial_colour=initial_colour_of(details),
        accelerations=accelerations,
        forbidden=parse_forbidden(str(details.get("forbidden", ""))),
        absent=withdrawn,
        total_rounds=planned,
    )
    pairing: Pairing | None = None
    error = ""
    try:
        pairing = pair_round(request)
    except NoValidPairingError as failure:
        error = str(failure)
    return _Plan(loaded, tournament, number, request, tuple(sorted(absent.items())), pairing, error)


# -- checking a manual pairing -------------------------------------------------------------


def _review(
    plan: _Plan, boards: tuple[Board, ...], bye: int | None, allow_rematch: bool
) -> list[str]:
    """Refuse a pairing that breaks the absolute rules; the warnings of one that is
    allowed but not the Dutch system's (empty: it is exactly the engine's)."""
    request = plan.request
    size = len(request.competitors)
    out = {start for start, _ in plan.absent}
    present = set(range(1, size + 1)) - out
    seen: dict[int, str] = {}
    for board, (white, black) in enumerate(boards, 1):
        for start in (white, black):
            if not 1 <= start <= size:
                raise RuleError(f"board {board}: there is no player {start} (players 1–{size})")
            if start in seen:
                raise RuleError(f"player {start} is paired twice ({seen[start]} and board {board})")
            seen[start] = f"board {board}"
        if white == black:
            raise RuleError(f"board {board}: player {white} cannot play themself")
    if bye is not None:
        if not 1 <= bye <= size:
            raise RuleError(f"PAB: there is no player {bye} (players 1–{size})")
        if bye in seen:
            raise RuleError(f"player {bye} has the PAB and plays on {seen[bye]}")
        seen[bye] = "the PAB"
    why = dict(plan.absent)
    for start in sorted(set(seen) & out):
        reason = (
            "withdrew before"
            if why[start] == "withdrawn"
            else f"has a {BYE_KINDS[why[start]]} bye ({why[start]}) in"
        )
        raise RuleError(f"player {start} {reason} round {plan.round}: take them out of the pairing")
    history = {c.start: c for c in request.competitors}
    warnings: list[str] = []
    for board, (white, black) in enumerate(boards, 1):
        rounds = [
            number
            for number, record in enumerate(history[white].history, 1)
            if record.played and record.opponent == black
        ]
        if rounds:
            text = f"board {board}: {white} and {black} met in round {rounds[0]} already"
            if not allow_rematch:
                raise RuleError(text + " (a rematch; allow it explicitly to publish it)")
            warnings.append(text + " (rematch allowed by the organiser)")
    if len(present) % 2 and bye is None:
        raise RuleError("an odd number of players is present: one of them gets the PAB")
    if bye is not None and len(present) % 2 == 0:
        raise RuleError(f"an even number of players is present: no PAB (player {bye} must play)")
    missing = sorted(present - set(seen))
    if missing:
        # always two or more: the checks above leave an even number unpaired
        names = ", ".join(str(s) for s in missing)
        raise RuleError(
            f"players {names} are not paired: every player present plays or has the PAB"
        )
    if bye is not None and not bye_eligible(history[bye], request.win):
        raise RuleError(
            f"player {bye} already scored a win without playing (PAB, full-point bye or "
            "forfeit): the PAB is never given twice"
        )
    for group in request.forbidden:
        for board, (white, black) in enumerate(boards, 1):
            if frozenset((white, black)) == group:
                warnings.append(f"board {board}: {white} and {black} are a forbidden pair")
    warnings += _colour_warnings(plan, boards)
    engine = plan.pairing
    if engine is None:
        warnings.append(f"the Dutch system finds no pairing for this round ({plan.error})")
        return warnings
    ours = {frozenset(b): b for b in engine.boards}
    for board, (white, black) in enumerate(boards, 1):
        same = ours.get(frozenset((white, black)))
        if same is None:
            warnings.append(f"board {board}: {white} – {black} is not a pair of the Dutch system")
        elif same != (white, black):
            warnings.append(
                f"board {board}: {white} – {black} has the colours reversed "
                f"(the Dutch system gives {same[0]} – {same[1]})"
            )
    if bye != engine.bye:
        warnings.append(f"PAB: {_who(bye)} instead of {_who(engine.bye)}")
    if not warnings and tuple(boards) != engine.boards:
        warnings.append("the board order differs from the Dutch system's")
    return warnings


def _who(start: int | None) -> str:
    return "nobody" if start is None else f"player {start}"


def _colour_warnings(plan: _Plan, boards: tuple[Board, ...]) -> list[str]:
    """C.04.1 f/g: a colour difference above 2 or the same colour three times in a row."""
    warnings: list[str] = []
    for board, pair in enumerate(boards, 1):
        for start, colour in zip(pair, (Colour.WHITE, Colour.BLACK), strict=True):
            played = [
                r.colour
                for r in plan.request.competitors[start - 1].history
                if r.played and r.colour is not Colour.NONE
            ] + [colour]
            difference = played.count(Colour.WHITE) - played.count(Colour.BLACK)
            word = "white" if colour is Colour.WHITE else "black"
            if abs(difference) > 2:
                warnings.append(
                    f"board {board}: player {start} would have a colour difference "
                    f"of {difference:+d}"
                )
            elif played[-3:] == [colour] * 3:
                warnings.append(
                    f"board {board}: player {start} would have {word} three times in a row"
                )
    return warnings


# -- the use cases ---------------------------------------------------------------------------


class SwissPlay(ServiceBase):
    """Use cases of a Swiss tournament: propose and publish each round's pairing."""

    def propose_round(self, tournament_id: int) -> RoundProposal:
        """The Dutch system's pairing of the next round (nothing is changed)."""
        with self.store.reading() as session:
            loaded = Loaded(session, _tournament_row(session, tournament_id))
            return _plan(loaded).proposal()

    def review_pairing(
        self,
        tournament_id: int,
        boards: list[Board] | tuple[Board, ...],
        bye: int | None = None,
        *,
        allow_rematch: bool = False,
    ) -> list[str]:
        """Check an organiser's pairing of the next round without publishing it: a
        RuleError when it breaks the rules, else how it differs from the Dutch system's."""
        wanted = _boards(boards)
        with self.store.reading() as session:
            loaded = Loaded(session, _tournament_row(session, tournament_id))
            return _review(_plan(loaded), wanted, bye, allow_rematch)

    def publish_round(
        self,
        tournament_id: int,
        boards: list[Board] | tuple[Board, ...] | None = None,
        bye: int | None = None,
        *,
        allow_rematch: bool = False,
        actor: str = "",
        idempotency_key: str | None = None,
    ) -> Change:
        """Publish the next round: the Dutch system's pairing (``boards`` None) or the
        organiser's (recorded as a manual pairing, with warnings, when it differs)."""
        wanted = None if boards is None else _boards(boards)
        if wanted is None and bye is not None:
            raise RuleError("a PAB of the organiser's choice needs the whole manual pairing")
        request = {
            "op": "publish",
            "boards": None if wanted is None else [list(b) for b in wanted],
            "bye": bye,
            "allow_rematch": allow_rematch,
        }

        def body(tx: Tx) -> Done:
            loaded = Loaded(tx.session, tx.tournament)
            plan = _plan(loaded)
            if wanted is None:
                proposal = plan.proposal()
                chosen, pab, warnings = proposal.boards, proposal.bye, []
            else:
                chosen, pab = wanted, bye
                warnings = _review(plan, wanted, bye, allow_rematch)
            number = plan.round
            if not any(r.number == number for r in loaded.rounds):
                tx.insert(RoundRow(number=number, cycle=1))
                tx.flush()
            numbers = {loaded.start_of(e.number): e.number for e in loaded.entries}
            for board, (white, black) in enumerate(chosen, 1):
                tx.insert(
                    GameRow(
                        round=number,
                        board=board,
                        white=numbers[white],
                        black=numbers[black],
                        result=None,
                        reason="normal",
                        version=1,
                    )
                )
            if pab is not None:
                tx.insert(ByeRow(round=number, player=numbers[pab], kind="U"))
            for start, why in plan.absent:
                if why == "withdrawn":  # recorded as absent (zero-point), as TRF shows it
                    tx.insert(ByeRow(round=number, player=numbers[start], kind="Z"))
            tx.flush()
            manual = bool(warnings)
            names = {loaded.start_of(e.number): e.name for e in loaded.entries}
            summary = f"round {number} paired: {counted(len(chosen), 'board')}"
            if pab is not None:
                summary += f", PAB {pab} {names[pab]}"
            if plan.absent:
                summary += f", {len(plan.absent)} not paired"
            if manual:
                summary += "; manual pairing, differs from the Dutch system's: " + "; ".join(
                    warnings
                )
            data: dict[str, Any] = {
                "round": number,
                "boards": [list(b) for b in chosen],
                "bye": pab,
                "absent": [list(a) for a in plan.absent],
                "manual": manual,
                "warnings": warnings,
            }
            return Done(summary, data)

        return self._change(
            tournament_id,
            "pairing",
            body,
            actor=actor,
            idempotency_key=idempotency_key,
            request=request,
        )

    def published_with_key(self, tournament_id: int, idempotency_key: str) -> Change | None:
        """The round published earlier with ``idempotency_key`` (None: none was), so a
        client that lost the answer can tell that its request went through."""
        from sqlalchemy import select

        from crosstable.store.models import EventRow

        with self.store.reading() as session:
            _tournament_row(session, tournament_id)
            event = session.scalars(
                select(EventRow).where(
                    EventRow.tournament_id == tournament_id,
                    EventRow.idempotency_key == idempotency_key,
                    EventRow.kind == "pairing",
                )
            ).one_or_none()
            if event is None:
                return None
            return replayed_change(event)

    def request_bye(
        self,
        tournament_id: int,
        start: int,
        round_number: int,
        kind: str = "H",
        *,
        actor: str = "",
    ) -> Change:
        """A player will not play ``round_number`` (not paired yet): a half-point (H),
        zero-point (Z) or full-point (F) bye, as the regulations allow."""
        code = kind.strip().upper()
        if code not in BYE_KINDS:
            raise RuleError(f"bye kind {kind!r}: use H (half-point), Z (zero-point) or F (full)")

        def body(tx: Tx) -> Done:
            loaded = Loaded(tx.session, tx.tournament)
            entry = _future_round(loaded, start, round_number)
            if entry.withdrawn_from is not None and entry.withdrawn_from <= round_number:
                raise RuleError(
                    f"player {start} {entry.name} withdrew from round {entry.withdrawn_from}"
                )
            what = f"{BYE_KINDS[code]} bye ({code})"
            current = next(
                (b for b in loaded.byes if b.round == round_number and b.player == entry.number),
                None,
            )
            where = f"player {start} {entry.name}: {what} in round {round_number}"
            if current is not None:
                if current.kind == code:
                    raise Unchanged(f"{where} is already entered")
                before = current.kind
                tx.update(current, kind=code)
                return Done(f"{where} (was {before})", _bye_data(start, round_number, code))
            if not any(r.number == round_number for r in loaded.rounds):
                tx.insert(RoundRow(number=round_number, cycle=1))
                tx.flush()
            tx.insert(ByeRow(round=round_number, player=entry.number, kind=code))
            tx.flush()
            return Done(where, _bye_data(start, round_number, code))

        return self._change(tournament_id, "bye", body, actor=actor)

    def cancel_bye(
        self, tournament_id: int, start: int, round_number: int, *, actor: str = ""
    ) -> Change:
        """Take back a bye requested for a round not paired yet: the player is paired."""

        def body(tx: Tx) -> Done:
            loaded = Loaded(tx.session, tx.tournament)
            entry = _future_round(loaded, start, round_number)
            current = next(
                (b for b in loaded.byes if b.round == round_number and b.player == entry.number),
                None,
            )
            if current is None:
                raise RuleError(f"player {start} {entry.name} has no bye in round {round_number}")
            kind = current.kind
            tx.delete(current)
            others = [b for b in loaded.byes if b.round == round_number and b is not current]
            games = [g for g in loaded.games if g.round == round_number]
            if not others and not games:
                rnd = next(r for r in loaded.rounds if r.number == round_number)
                tx.delete(rnd)
            return Done(
                f"player {start} {entry.name}: bye ({kind}) in round {round_number} cancelled, "
                "the player will be paired",
                _bye_data(start, round_number, None),
            )

        return self._change(tournament_id, "bye-cancel", body, actor=actor)


def _bye_data(start: int, round_number: int, kind: str | None) -> dict[str, Any]:
    return {"start": start, "round": round_number, "kind": kind}


def _future_round(loaded: Loaded, start: int, round_number: int) -> EntryRow:
    """The player, checked to be in a running Swiss whose ``round_number`` is not paired."""
    _check_swiss(loaded)
    _check_running(loaded)
    entry = loaded.entry_by_start(start)
    if entry is None:
        raise NotFoundError(f"there is no player with starting number {start}")
    planned = loaded.row.rounds_planned or default_rounds(len(loaded.entries))
    if not 1 <= round_number <= planned:
        raise RuleError(f"there is no round {round_number} (rounds 1–{planned})")
    paired = next_round(loaded.tournament()) - 1
    if round_number <= paired:
        raise RuleError(
            f"round {round_number} is paired already: a bye is entered before the pairing"
        )
    return entry


def _boards(boards: list[Board] | tuple[Board, ...]) -> tuple[Board, ...]:
    out: list[Board] = []
    for index, board in enumerate(boards, 1):
        try:
            white, black = board
            out.append((int(white), int(black)))
        except (TypeError, ValueError):
            raise RuleError(f"board {index}: {board!r} is not a pair (white, black)") from None
    return tuple(out)


def _tournament_row(session: Any, tournament_id: int) -> Any:
    from crosstable.store.models import TournamentRow

    row = session.get(TournamentRow, tournament_id)
    if row is None:
        raise NotFoundError(f"there is no tournament {tournament_id} in this database")
    return row


# -- withdrawal and finish (called from crosstable.service.play for a Swiss) -------------------


def withdraw_swiss(tx: Tx, loaded: Loaded, entry: EntryRow, from_round: int | None) -> Done:
    """A Swiss player leaves: a game of theirs still without a result from ``from_round``
    on is forfeited (the opponent present wins), byes they asked for in rounds not yet
    paired are dropped, and no later round pairs them."""
    start = loaded.start_of(entry.number)
    who = f"player {start} {entry.name}"
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
                f"{who} has no round left to play (the Swiss has {planned} rounds): "
                "a withdrawal after the last round is refused"
            )
        raise RuleError(f"there is no round {first} (rounds 1–{planned})")
    if first < 1:
        raise RuleError(f"there is no round {first} (rounds 1–{planned})")
    done = [g.round for g in games if g.round >= first and g.result is not None]
    done += [
        b.round
        for b in loaded.byes
        if b.player == entry.number and b.round >= first and b.kind == "U"
    ]
    if done:
        raise RuleError(
            f"player {start} already has a result in round {min(done)}: withdraw from a later round"
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
    parts = [f"{who} withdrew from round {first}"]
    if forfeits:
        parts.append(f"{counted(len(forfeits), 'game')} forfeited")
    if dropped:
        rounds = ", ".join(str(b.round) for b in dropped)  # a player's byes: a round each
        parts.append(
            f"requested byes in rounds {rounds} dropped"
            if len(dropped) > 1
            else f"requested bye in round {rounds} dropped"
        )
    parts.append(f"not paired from round {max(first, paired + 1)} on")
    return Done(
        ": ".join(parts[:1]) + ": " + "; ".join(parts[1:]),
        {"start": start, "from_round": first, "forfeits": len(forfeits)},
    )


def check_swiss_finished(loaded: Loaded) -> None:
    """Every planned round of a Swiss is paired (the results are checked by the caller)."""
    planned = loaded.row.rounds_planned or default_rounds(len(loaded.entries))
    number = next_round(loaded.tournament())
    if number <= planned:
        raise RuleError(
            f"round {number} of {planned} is not paired yet: pair and play every round "
            "before finishing"
        )
