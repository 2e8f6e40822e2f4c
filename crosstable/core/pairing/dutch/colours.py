"""Colour allocation (C.04.3 art. 5) and board order (C.04.2).

Colours, applied in order: grant both preferences; grant the stronger one
(absolute over strong over mild; between two absolute ones the larger colour
difference); alternate from the last round in which the two had different
colours; grant the higher-ranked player's preference; failing all that, the
higher-ranked player gets the initial colour when their pairing number is odd
and the other colour when it is even.
"""

from __future__ import annotations

from collections.abc import Sequence

from crosstable.core.model import Colour
from crosstable.core.pairing.dutch.players import PlayerState


def ranks_higher(a: PlayerState, b: PlayerState, *, accelerated: bool = True) -> bool:
    """True when ``a`` stands above ``b``: more points, then the lower pairing number."""
    sa = a.pairing_score if accelerated else a.score
    sb = b.pairing_score if accelerated else b.score
    return (sa, -a.rank) > (sb, -b.rank)


def _compatible(x: Colour, y: Colour) -> bool:
    return x is not y or x is Colour.NONE


def _first_difference(a: PlayerState, b: PlayerState) -> tuple[Colour, Colour]:
    """The two players' colours in the latest round (counted back) where they differ."""
    ca, cb = a.played_colours, b.played_colours
    i, j = len(ca) - 1, len(cb) - 1
    while i >= 0 and j >= 0 and ca[i] is cb[j]:
        i -= 1
        j -= 1
    if i < 0 or j < 0:
        return Colour.NONE, Colour.NONE
    return ca[i], cb[j]


def _neutral(a: PlayerState, b: PlayerState) -> Colour:
    """Colour for ``a`` from the preferences alone; NONE when they do not decide."""
    if _compatible(a.preference, b.preference):
        if a.preference is not Colour.NONE:
            return a.preference
        if b.preference is not Colour.NONE:
            return b.preference.opposite()
        return Colour.NONE
    if a.absolute and (a.imbalance > b.imbalance or not b.absolute):
        return a.preference
    if b.absolute and (b.imbalance > a.imbalance or not a.absolute):
        return b.preference.opposite()
    if a.strong and not b.strong:
        return a.preference
    if b.strong and not a.strong:
        return b.preference.opposite()
    mine, theirs = _first_difference(a, b)
    if mine is not Colour.NONE and theirs is not Colour.NONE:
        return theirs
    return Colour.NONE


def colour_of(a: PlayerState, b: PlayerState, initial: Colour) -> Colour:
    """The colour ``a`` gets against ``b``."""
    colour = _neutral(a, b)
    if colour is not Colour.NONE:
        return colour
    if a.preference is Colour.NONE:
        if ranks_higher(b, a):
            return initial if b.rank % 2 else initial.opposite()
        return initial.opposite() if a.rank % 2 else initial
    if ranks_higher(b, a):
        return b.preference.opposite()
    return a.preference


def board_order(
    boards: Sequence[tuple[PlayerState, PlayerState]],
) -> list[tuple[PlayerState, PlayerState]]:
    """Boards by the higher player's score, the lower player's score, then rank; in an
    accelerated round the scores are the pairing scores (real plus virtual points)."""

    def key(board: tuple[PlayerState, PlayerState]) -> tuple[object, ...]:
        white, black = board
        high, low = (white, black) if ranks_higher(white, black) else (black, white)
        return (-high.pairing_score, -low.pairing_score, high.rank)

    return sorted(boards, key=key)
