"""Knockout tournaments in the store: the bracket, its matches and tie-breaks.

The core engine (:mod:`crosstable.core.pairing.knockout`) decides everything; the
store holds only what the arbiter sees — games and byes — and the engine's state
is *replayed* from them whenever it is needed. Nothing else is stored, so undo,
revert, export and import need nothing special.

How a knockout lives in the tables (docs/knockout.md, "In the tournament store"):

* The settings are the regulations' details: ``match_format`` (``1``, ``2``,
  ``2-at-once``…), ``tie_rule`` (``lower-rated``, ``lots``, ``playoff``,
  ``rapid:2,blitz:2,armageddon``…), ``bracket`` (``seeded``: 1 v N by starting
  number; ``random``: drawn) and ``lots_seed``, the seed of every lot (the random
  bracket, colours, a tie decided by lot). The start writes them back normalised,
  with the seed it drew, so they are recorded.
* Every game is an ordinary :class:`GameRow` with ``match`` = the bracket slot and
  ``match_game`` = the game's number within the match. **Store rounds are
  sittings**: game *n* of every match of knockout round *r* is in store round
  ``base(r) + n − 1``, where ``base(1) = 1`` and the next knockout round starts
  right after the longest match of the round before. A player therefore plays at
  most once per store round — what the core :class:`~crosstable.core.model.Tournament`,
  the live standings and TRF require. With one-game matches store round = knockout
  round. Boards are numbered 1… in bracket order within each store round.
* A first-round bye (a top seed without an opponent) is a :class:`ByeRow` of kind
  ``"U"`` in store round 1.
* The service sets up every game that is certain to be played (both games of a
  two-game match at the start); tie-break games and the next round's matches are
  added by :meth:`KnockoutPlay.pair_next_round` ("continue the knockout").

The package, one module per job: :mod:`.settings` (the regulations' details),
:mod:`.replay` (the engine's state from the stored rows), :mod:`.games` (the start,
inserting games, corrections, withdrawals, places), :mod:`.play` (the use cases) and
:mod:`.view` (the bracket for screens and the API).
"""

from __future__ import annotations

from crosstable.service.knockout.games import (
    check_knockout_correction,
    knockout_places,
    start_knockout,
    withdraw_waiting,
)
from crosstable.service.knockout.play import KnockoutPlay
from crosstable.service.knockout.replay import (
    Due,
    KnockoutMismatchError,
    KnockoutState,
    pairing_event,
    replay,
    round_label,
)
from crosstable.service.knockout.settings import (
    DETAILS,
    KIND,
    knockout_bracket,
    knockout_rules,
    knockout_settings,
)

__all__ = [
    "DETAILS",
    "KIND",
    "Due",
    "KnockoutMismatchError",
    "KnockoutPlay",
    "KnockoutState",
    "check_knockout_correction",
    "knockout_bracket",
    "knockout_places",
    "knockout_rules",
    "knockout_settings",
    "pairing_event",
    "replay",
    "round_label",
    "start_knockout",
    "withdraw_waiting",
]
