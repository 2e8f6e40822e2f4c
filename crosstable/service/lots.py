"""The drawing of lots for starting numbers (R-RR-4): the one place that calls the lots core."""

from __future__ import annotations

from collections.abc import Sequence

from crosstable.core.lots import Entrant, draw_lots
from crosstable.core.model import LotsMethod
from crosstable.store.models import EntryRow


def draw_order(
    entries: Sequence[EntryRow],
    method: LotsMethod,
    *,
    seed: int | None,
    order: tuple[int, ...] = (),
) -> tuple[int, ...]:
    """Registration numbers in starting-number order (keys of the draw: registration numbers).

    ``order`` (by hand) lists every registration number once, in starting-number order.
    """
    entrants = [Entrant(str(e.number), e.name, e.rating, e.title) for e in entries]
    lots = draw_lots(entrants, method, seed=seed, order=tuple(str(n) for n in order))
    return tuple(int(key) for key in lots.draw.order)
