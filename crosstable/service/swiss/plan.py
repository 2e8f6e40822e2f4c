"""The next round of a Swiss as the store has it: the Dutch system's proposal, and the
checks of an organiser's own pairing against the absolute rules and the Dutch system's.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

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
from crosstable.core.pairing.dutch.acceleration import baku
from crosstable.core.pairing.dutch.players import bye_eligible
from crosstable.core.teams.settings import is_team_tournament
from crosstable.core.text import Message
from crosstable.service.loading import Loaded
from crosstable.service.read_views import JsonObject
from crosstable.service.swiss.settings import BYE_KINDS, swiss_settings

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

    def as_json(self) -> JsonObject:
        return {
            "round": self.round,
            "boards": [list(board) for board in self.boards],
            "bye": self.bye,
            "absent": [list(item) for item in self.absent],
        }


# -- the state of the next round ---------------------------------------------------------------


@dataclass
class Plan:
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
            raise RuleError(
                "round {round} cannot be paired: {error}", round=self.round, error=self.error
            )
        return RoundProposal(self.round, self.pairing.boards, self.pairing.bye, self.absent)


def check_swiss(loaded: Loaded) -> None:
    row = loaded.row
    if System(row.system) is not System.SWISS_DUTCH:
        raise RuleError(
            "this is a {system} tournament: rounds are paired this way only in a Swiss",
            system=row.system,
        )
    if is_team_tournament(row.regulations or {}):
        raise RuleError("this Swiss is played by teams: its rounds are paired as a team Swiss")


def check_running(loaded: Loaded) -> None:
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
    if len(boards) == 1:
        return Message(
            "round {round}: enter the results of board {boards} first",
            round=first,
            boards=boards[0],
        )
    listed = Message("{first} and {last}", first=", ".join(boards[:-1]), last=boards[-1])
    return Message(
        "round {round}: enter the results of boards {boards} first", round=first, boards=listed
    )


def plan_round(loaded: Loaded) -> Plan:
    check_swiss(loaded)
    check_running(loaded)
    row = loaded.row
    tournament = loaded.tournament()
    number = next_round(tournament)
    planned = row.rounds_planned or default_rounds(len(tournament.players))
    if number > planned:
        raise RuleError(
            "all {rounds} rounds are paired: enter the last results and finish the tournament",
            rounds=planned,
        )
    waiting = _pending(loaded)
    if waiting is not None:
        raise RuleError(
            "round {round} cannot be paired yet: {waiting}", round=number, waiting=waiting
        )
    settings = swiss_settings(row.regulations)
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
    if settings.baku:
        accelerations = baku(len(tournament.players), planned)
    request = request_for(
        tournament,
        number,
        initial_colour=Colour.WHITE if settings.initial_colour is None else settings.initial_colour,
        accelerations=accelerations,
        forbidden=settings.forbidden,
        absent=withdrawn,
        total_rounds=planned,
    )
    pairing: Pairing | None = None
    error = ""
    try:
        pairing = pair_round(request)
    except NoValidPairingError as failure:
        error = failure.text  # (the message, its template kept)
    return Plan(loaded, tournament, number, request, tuple(sorted(absent.items())), pairing, error)


# -- checking a manual pairing -------------------------------------------------------------


def review(
    plan: Plan,
    boards: tuple[Board, ...],
    bye: int | None,
    allow_rematch: bool,
    *,
    fide: bool = False,
) -> list[str]:
    """Refuse a pairing that breaks the absolute rules; the warnings of one that is
    allowed but not the Dutch system's (empty: it is exactly the engine's). In FIDE mode
    (``fide``) a PAB to a player who already scored a win without playing is listed, as
    FIDE's level-3 warning (service/hand_pairings.py), instead of refused."""
    request = plan.request
    size = len(request.competitors)
    out = {start for start, _ in plan.absent}
    present = set(range(1, size + 1)) - out
    seen: dict[int, str] = {}
    for board, (white, black) in enumerate(boards, 1):
        for start in (white, black):
            if not 1 <= start <= size:
                raise RuleError(
                    "board {board}: there is no player {start} (players 1–{players})",
                    board=board,
                    start=start,
                    players=size,
                )
            if start in seen:
                raise RuleError(
                    "player {start} is paired twice ({first} and board {board})",
                    start=start,
                    first=seen[start],
                    board=board,
                )
            seen[start] = Message("board {board}", board=board)
        if white == black:
            raise RuleError(
                "board {board}: player {start} cannot play themself", board=board, start=white
            )
    if bye is not None:
        if not 1 <= bye <= size:
            raise RuleError(
                "PAB: there is no player {start} (players 1–{players})", start=bye, players=size
            )
        if bye in seen:
            raise RuleError(
                "player {start} has the PAB and plays on {board}", start=bye, board=seen[bye]
            )
        seen[bye] = "the PAB"
    why = dict(plan.absent)
    for start in sorted(set(seen) & out):
        reason = (
            "withdrew before"
            if why[start] == "withdrawn"
            else Message(
                "has a {kind} bye ({code}) in", kind=BYE_KINDS[why[start]], code=why[start]
            )
        )
        raise RuleError(
            "player {start} {reason} round {round}: take them out of the pairing",
            start=start,
            reason=reason,
            round=plan.round,
        )
    history = {c.start: c for c in request.competitors}
    warnings: list[str] = []  # (Messages: the reader's language on the web, in the history)
    for board, (white, black) in enumerate(boards, 1):
        rounds = [
            number
            for number, record in enumerate(history[white].history, 1)
            if record.played and record.opponent == black
        ]
        if rounds:
            if not allow_rematch:
                raise RuleError(
                    "board {board}: {white} and {black} met in round {round} already "
                    "(a rematch; allow it explicitly to publish it)",
                    board=board,
                    white=white,
                    black=black,
                    round=rounds[0],
                )
            warnings.append(
                Message(
                    (
                        "board {board}: {white} and {black} met in round {round} already "
                        "(rematch allowed by the organiser)"
                    ),
                    board=board,
                    white=white,
                    black=black,
                    round=rounds[0],
                )
            )
    if len(present) % 2 and bye is None:
        raise RuleError("an odd number of players is present: one of them gets the PAB")
    if bye is not None and len(present) % 2 == 0:
        raise RuleError(
            "an even number of players is present: no PAB (player {start} must play)", start=bye
        )
    missing = sorted(present - set(seen))
    if missing:
        # always two or more: the checks above leave an even number unpaired
        names = ", ".join(str(s) for s in missing)
        raise RuleError(
            "players {players} are not paired: every player present plays or has the PAB",
            players=names,
        )
    if bye is not None and not bye_eligible(history[bye], request.win) and fide:
        warnings.append(
            Message(
                "the PAB goes to player {start}, who already scored a win without playing "
                "(PAB, full-point bye or forfeit)",
                start=bye,
            )
        )
    elif bye is not None and not bye_eligible(history[bye], request.win):
        raise RuleError(
            (
                "player {start} already scored a win without playing (PAB, full-point bye or "
                "forfeit): the PAB is never given twice"
            ),
            start=bye,
        )
    for group in request.forbidden:
        for board, (white, black) in enumerate(boards, 1):
            if frozenset((white, black)) == group:
                warnings.append(
                    Message(
                        "board {board}: {white} and {black} are a forbidden pair",
                        board=board,
                        white=white,
                        black=black,
                    )
                )
    warnings += _colour_warnings(plan, boards)
    engine = plan.pairing
    if engine is None:
        warnings.append(
            Message("the Dutch system finds no pairing for this round ({error})", error=plan.error)
        )
        return warnings
    ours = {frozenset(b): b for b in engine.boards}
    for board, (white, black) in enumerate(boards, 1):
        same = ours.get(frozenset((white, black)))
        if same is None:
            warnings.append(
                Message(
                    "board {board}: {white} – {black} is not a pair of the Dutch system",
                    board=board,
                    white=white,
                    black=black,
                )
            )
        elif same != (white, black):
            warnings.append(
                Message(
                    (
                        "board {board}: {white} – {black} has the colours reversed "
                        "(the Dutch system gives {first} – {second})"
                    ),
                    board=board,
                    white=white,
                    black=black,
                    first=same[0],
                    second=same[1],
                )
            )
    if bye != engine.bye:
        warnings.append(
            Message("PAB: {chosen} instead of {engine}", chosen=_who(bye), engine=_who(engine.bye))
        )
    if not warnings and tuple(boards) != engine.boards:
        warnings.append(Message("the board order differs from the Dutch system's"))
    return warnings


def _who(start: int | None) -> Message:
    return Message("nobody") if start is None else Message("player {start}", start=start)


def _colour_warnings(plan: Plan, boards: tuple[Board, ...]) -> list[str]:
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
            if abs(difference) > 2:
                warnings.append(
                    Message(
                        (
                            "board {board}: player {start} would have a colour difference "
                            "of {difference}"
                        ),
                        board=board,
                        start=start,
                        difference=f"{difference:+d}",
                    )
                )
            elif played[-3:] == [colour] * 3:
                warnings.append(
                    Message(
                        "board {board}: player {start} would have white three times in a row",
                        board=board,
                        start=start,
                    )
                    if colour is Colour.WHITE
                    else Message(
                        "board {board}: player {start} would have black three times in a row",
                        board=board,
                        start=start,
                    )
                )
    return warnings
