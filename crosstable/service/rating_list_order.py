"""The order of rating lists a tournament takes its players' ratings from.

A player's rating comes from the first list of the order that rates them. By default the
order follows the event's time control, as FIDE's checklist for tournament programs
suggests: a standard event takes the standard list, then rapid, then blitz; a rapid
event the *effective* rapid rating (rapid, else standard), then blitz; a blitz event the
effective blitz rating (blitz, else standard), then rapid. The organiser may drop, add
and reorder lists: the regulations' detail ``rating_lists`` (``rapid,standard``), set
with ``crosstable ratinglist order``.

>>> [kind.value for kind in default_order(RatingType.RAPID)]
['rapid', 'standard', 'blitz']
>>> order_text(parse_order(" Blitz , standard "))
'blitz,standard'
"""

from __future__ import annotations

from collections.abc import Mapping

from crosstable.core.errors import RuleError
from crosstable.core.ratings import RatingType

#: the regulations' detail that keeps a tournament's own order
ORDER_KEY = "rating_lists"

ListOrder = tuple[RatingType, ...]

_DEFAULTS: dict[RatingType, ListOrder] = {
    RatingType.STANDARD: (RatingType.STANDARD, RatingType.RAPID, RatingType.BLITZ),
    RatingType.RAPID: (RatingType.RAPID, RatingType.STANDARD, RatingType.BLITZ),
    RatingType.BLITZ: (RatingType.BLITZ, RatingType.STANDARD, RatingType.RAPID),
}


def default_order(kind: RatingType) -> ListOrder:
    """The lists an event of ``kind`` takes ratings from, in order (module docstring)."""
    return _DEFAULTS[kind]


def parse_order(text: str) -> ListOrder:
    """``standard,rapid,blitz`` or part of it, each list once; a :class:`RuleError`
    naming what is wrong otherwise."""
    names = [part.strip().lower() for part in text.split(",")]
    known = {kind.value: kind for kind in RatingType}
    if not text.strip() or any(name not in known for name in names):
        raise RuleError(
            "rating lists {order}: name standard, rapid or blitz, in the order to use them "
            "(e.g. rapid,standard)",
            order=repr(text[:60]),
        )
    if len(set(names)) != len(names):
        raise RuleError("rating lists {order}: each list once", order=repr(text[:60]))
    return tuple(known[name] for name in names)


def order_text(order: ListOrder) -> str:
    return ",".join(kind.value for kind in order)


def order_of(kind: RatingType, details: Mapping[str, object] | None) -> ListOrder:
    """A tournament's order: its own (``rating_lists``), else its time control's default."""
    own = str((details or {}).get(ORDER_KEY) or "").strip()
    return parse_order(own) if own else default_order(kind)


def rating_along(
    ratings: Mapping[RatingType, int | None], order: ListOrder
) -> tuple[int | None, RatingType | None]:
    """The first rating along ``order`` and the list it comes from (None, None: unrated
    in every list of the order).

    >>> rating_along({RatingType.STANDARD: 2633, RatingType.RAPID: None}, default_order(
    ...     RatingType.RAPID))
    (2633, <RatingType.STANDARD: 'standard'>)
    """
    for kind in order:
        rating = ratings.get(kind)
        if rating is not None:
            return rating, kind
    return None, None
