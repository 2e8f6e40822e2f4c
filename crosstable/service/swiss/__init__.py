"""Swiss tournaments (FIDE Dutch) in the store: paired round by round.

The start fixes the number of rounds (the regulations', else ⌈log₂ N⌉)
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
never twice). Regulations details read here: ``initial_colour``
(``white``/``black``), ``forbidden`` (``"1-2,3-4"``: pairs by starting number
that may not meet) and ``acceleration`` (``baku``).

The package, one module per job: :mod:`.settings` (the regulations' details),
:mod:`.plan` (the next round's proposal and the review of a manual pairing),
:mod:`.games` (the start, withdrawals, the finish) and :mod:`.play` (the use cases).
"""

from __future__ import annotations

from crosstable.service.swiss.games import check_swiss_finished, start_swiss, withdraw_swiss
from crosstable.service.swiss.plan import Board, RoundProposal
from crosstable.service.swiss.play import SwissPlay
from crosstable.service.swiss.settings import BYE_KINDS, initial_colour_of, parse_forbidden

__all__ = [
    "BYE_KINDS",
    "Board",
    "RoundProposal",
    "SwissPlay",
    "check_swiss_finished",
    "initial_colour_of",
    "parse_forbidden",
    "start_swiss",
    "withdraw_swiss",
]
