"""Standings: ranking with a tie-break list, withdrawals, live and final tables.

>>> from crosstable.core.model import Game, GameResult, Player, Round, Tournament
>>> t = Tournament(players=(Player(1, "A"), Player(2, "B")),
...                rounds=(Round(1, (Game(1, 1, 1, 2, GameResult.WHITE_WINS()),)),))
>>> [row.start for row in compute_standings(t).rows]
[1, 2]

Modules: :mod:`.ranking` (points, then the list, group by group; shared ranks or
lots), :mod:`.withdrawals` (the 50 % rule), :mod:`.table` (the rows),
:mod:`.compare` (explanations, "why is A above B"), :mod:`.live` (incremental
updates) and :mod:`.crosstable` (the crosstable view).
"""

from __future__ import annotations

from crosstable.core.standings.crosstable import Crosstable, crosstable_view
from crosstable.core.standings.ranking import Lot, Ranking, rank
from crosstable.core.standings.table import Row, Standings, compute_standings
from crosstable.core.standings.withdrawals import (
    WithdrawalEffect,
    infer_withdrawals,
    withdrawal_effect,
)

__all__ = [
    "Crosstable",
    "Lot",
    "Ranking",
    "Row",
    "Standings",
    "WithdrawalEffect",
    "compute_standings",
    "crosstable_view",
    "infer_withdrawals",
    "rank",
    "withdrawal_effect",
]
