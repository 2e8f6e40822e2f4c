"""The drawing of lots for starting numbers (R-RR-4): the one place that calls the lots core."""

from __future__ import annotations

from collections.abc import Sequence

from crosstable.core.errors import RuleError
from crosstable.core.model import LotsMethod
from crosstable.store.models import EntryRow


def draw_order(
    entries: Sequence[EntryRow],
    method: LotsMethod,
    *,
    seed: int | None,
    order: tuple[int, ...] = (),
) -> tuple[int, ...]:
    """Registration numbers in starting-number order.

    ``order`` (by hand) lists every registration number once, in starting-number order.
    """
    numbers = [entry.number for entry in entries]
    if method is LotsMethod.MANUAL:
        if sorted(order) != sorted(numbers):
            missing = sorted(set(numbers) - set(order))
            extra = sorted(set(order) - set(numbers))
            if extra:
                raise RuleError(f"by hand: there is no player {extra[0]}")
            if missing:
                raise RuleError(f"by hand: the order leaves out player {missing[0]}")
            raise RuleError("by hand: each player is listed once")
        return tuple(order)
    if order:
        raise RuleError("an order is given only when drawing by hand")
    raise RuleError("the drawing of lots is not available yet")
