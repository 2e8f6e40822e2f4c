"""FIDE Dutch system (C.04.3, 2026): pair the next round of a Swiss.

>>> from crosstable.core.pairing.dutch import Competitor, PairingRequest, pair_round
>>> pair_round(PairingRequest(1, 3, tuple(Competitor(s) for s in range(1, 5)))).boards
((1, 3), (4, 2))
"""

from crosstable.core.pairing.dutch.engine import pair_round
from crosstable.core.pairing.dutch.from_tournament import default_rounds, next_round, request_for
from crosstable.core.pairing.dutch.matching import NoValidPairingError
from crosstable.core.pairing.dutch.model import Competitor, Pairing, PairingRequest, RoundRecord

__all__ = [
    "Competitor",
    "NoValidPairingError",
    "Pairing",
    "PairingRequest",
    "RoundRecord",
    "default_rounds",
    "next_round",
    "pair_round",
    "request_for",
]
