"""A round paired by hand in FIDE mode, with FIDE's warning levels.

When the organiser publishes a Swiss round of their own making and it differs from the
Dutch system's pairing (other pairs or colours, another PAB, a rematch allowed, a
forbidden pair, a third colour in a row…), FIDE's checklist wants at least a level-3
warning that lists the differences and a ``### MPA @ Round n: …`` line in the TRF. The
differences are those the pairing review names (service/swiss/plan.py ``review``); a
pairing identical to the engine's takes no warning. Outside FIDE mode a hand pairing is
published as before, its differences in the history line only.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from crosstable.core.model import Colour
from crosstable.core.pairing.dutch.model import PairingRequest, RoundRecord
from crosstable.core.pairing.dutch.players import bye_eligible, colour_data
from crosstable.core.text import Message
from crosstable.service.fide_mode import in_fide_mode
from crosstable.service.unit import Tx
from crosstable.service.warning_levels import FideWarning, Level

#: the code of the warning, which publish_round logs (the others it acknowledges)
MANUAL = "manual-pairing"


def manual_pairing_warnings(tx: Tx, number: int, differences: Sequence[str]) -> list[FideWarning]:
    """The level-3 warning of round ``number`` paired by hand with these ``differences``
    from the Dutch system's pairing (none: the same pairing, or not in FIDE mode)."""
    if not differences or not in_fide_mode(tx.session, tx.tournament):
        return []
    listed = Message.joined("; ", list(differences))
    return [
        FideWarning(
            code=MANUAL,
            level=Level.CONFIRM,
            message=Message(
                "round {round} paired by hand differs from the Dutch system's pairing: {listed}",
                round=number,
                listed=listed,
            ),
            consequences=(
                Message(
                    "for the players: round {round} is played as paired by hand",
                    round=number,
                ),
                Message("for the rating officer: the TRF file lists the differences (### MPA)"),
            ),
            trf=f"MPA: {listed}",
            round=number,
        )
    ]


#: the codes of the level-3 warnings of a hand pairing that breaks one of the rules
#: FIDE's checklist names (each logged, and written as an ``### MPA`` line)
RULES = frozenset(
    {
        "hand-rematch",
        "hand-forbidden-pair",
        "hand-pab-ineligible",
        "hand-third-colour",
        "hand-colour-difference",
    }
)


def rule_warnings(
    tx: Tx, request: PairingRequest, boards: Sequence[tuple[int, int]], bye: int | None
) -> list[FideWarning]:
    """FIDE mode: a level-3 warning of its own for each rule a hand pairing breaks — a
    rematch, a prohibited pair, the PAB to a player who already scored a win without
    playing, and before the last round a third colour in a row or a colour difference
    above 2 (outside FIDE mode: none)."""
    if not in_fide_mode(tx.session, tx.tournament):
        return []
    history = {c.start: c for c in request.competitors}
    found: list[FideWarning] = []

    def warn(code: str, message: Message) -> None:
        found.append(
            FideWarning(code, Level.CONFIRM, message, trf=f"MPA: {message}", round=request.round)
        )

    for board, (white, black) in enumerate(boards, 1):
        met = [
            number
            for number, record in enumerate(history[white].history, 1)
            if record.played and record.opponent == black
        ]
        pair = {"board": board, "white": white, "black": black}
        if met:
            warn(
                "hand-rematch",
                Message(
                    "board {board}: {white} and {black} met in round {round} already "
                    "(rematch allowed by the organiser)",
                    round=met[0],
                    **pair,
                ),
            )
        if frozenset((white, black)) in request.forbidden:
            warn(
                "hand-forbidden-pair",
                Message("board {board}: {white} and {black} are a forbidden pair", **pair),
            )
        if request.round < request.total_rounds:  # (the last round relaxes the colours)
            for start, colour in zip((white, black), (Colour.WHITE, Colour.BLACK), strict=True):
                _colour_rules(warn, board, start, colour, history[start].history)
        due = [_due(history[start].history) for start in (white, black)]
        if due == [Colour.BLACK, Colour.WHITE]:  # both against their due colour: level 2
            message = Message(
                "board {board}: both players get the colour opposite to the one they were due "
                "({white} was due black, {black} white)",
                **pair,
            )
            found.append(
                FideWarning(
                    "hand-colours-reversed", Level.ACKNOWLEDGE, message, round=request.round
                )
            )
    if bye is not None and bye in history and not bye_eligible(history[bye], request.win):
        warn(
            "hand-pab-ineligible",
            Message(
                "the PAB goes to player {start}, who already scored a win without playing "
                "(PAB, full-point bye or forfeit)",
                start=bye,
            ),
        )
    return found


def _due(past: Sequence[RoundRecord]) -> Colour:
    """The colour a player is due by the colours played (C.04.3's preference; NONE: none)."""
    played = tuple(r.colour for r in past if r.played and r.colour is not Colour.NONE)
    return colour_data(played)[1]


def _colour_rules(
    warn: Callable[[str, Message], None],
    board: int,
    start: int,
    colour: Colour,
    past: Sequence[RoundRecord],
) -> None:
    played = [r.colour for r in past if r.played and r.colour is not Colour.NONE] + [colour]
    difference = played.count(Colour.WHITE) - played.count(Colour.BLACK)
    if abs(difference) > 2:
        message = Message(
            "board {board}: player {start} would have a colour difference of {difference}",
            board=board,
            start=start,
            difference=f"{difference:+d}",
        )
        warn("hand-colour-difference", message)
    if played[-3:] == [colour] * 3 and colour is Colour.WHITE:
        message = Message(
            "board {board}: player {start} would have white three times in a row",
            board=board,
            start=start,
        )
        warn("hand-third-colour", message)
    elif played[-3:] == [colour] * 3:
        message = Message(
            "board {board}: player {start} would have black three times in a row",
            board=board,
            start=start,
        )
        warn("hand-third-colour", message)


__all__ = ["MANUAL", "RULES", "manual_pairing_warnings", "rule_warnings"]
