"""The order of rating lists a tournament takes its players' ratings from.

A player's rating comes from the first list of the order that rates them. By default the
order follows the event's time control, as FIDE's checklist for tournament programs
suggests: a standard event takes the standard list, then rapid, then blitz; a rapid
event the *effective* rapid rating (rapid, else standard), then blitz; a blitz event the
effective blitz rating (blitz, else standard), then rapid. The organiser may drop, add
and reorder lists: the regulations' detail ``rating_lists`` (``rapid,standard``), set
with ``crosstable ratinglist order``. A custom list (a national or a club list,
:mod:`crosstable.service.custom_lists`) is named ``custom:NAME`` in the order.

>>> [kind.value for kind in default_order(RatingType.RAPID)]
['rapid', 'standard', 'blitz']
>>> order_text(parse_order(" Blitz , standard "))
'blitz,standard'
>>> order_text(parse_order("custom:RUS,standard"))
'custom:RUS,standard'
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from crosstable.core.errors import RuleError
from crosstable.core.ratings import RatingType

#: the regulations' detail that keeps a tournament's own order
ORDER_KEY = "rating_lists"
#: a custom list's name: letters, digits, - _ . and spaces inside, at most 40
_LIST_NAME = re.compile(
    r"[0-9A-Za-z\u00c0-\u024f\u0400-\u04ff\u0530-\u058f]"
    r"[0-9A-Za-z\u00c0-\u024f\u0400-\u04ff\u0530-\u058f ._-]{0,39}"
)
#: the prefix naming a custom list in an order
CUSTOM = "custom:"


@dataclass(frozen=True, slots=True)
class CustomList:
    """A custom list in an order of lists, by its name."""

    name: str


ListOrder = tuple[RatingType | CustomList, ...]


def check_list_name(name: str) -> str:
    """A custom list's name as kept (spaces single), or a :class:`RuleError`."""
    cleaned = " ".join(name.split())
    if not _LIST_NAME.fullmatch(cleaned) or cleaned.casefold().startswith("fide"):
        raise RuleError(
            "custom rating list name {name}: letters, digits, - _ . and spaces, at most 40 "
            "characters, not starting with FIDE",
            name=repr(name[:60]),
        )
    return cleaned


def fide_part(order: ListOrder) -> tuple[RatingType, ...]:
    """The FIDE lists of an order, in order."""
    return tuple(item for item in order if isinstance(item, RatingType))


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
    known = {kind.value: kind for kind in RatingType}
    items: list[RatingType | CustomList] = []
    for part in text.split(","):
        name = part.strip()
        if name.lower().startswith(CUSTOM):
            try:
                items.append(CustomList(check_list_name(name[len(CUSTOM) :])))
            except RuleError as error:
                raise RuleError(
                    "rating lists {order}: {problem}", order=repr(text[:60]), problem=error
                ) from None
        elif name.lower() in known:
            items.append(known[name.lower()])
        else:
            raise RuleError(
                "rating lists {order}: name standard, rapid, blitz or custom:NAME, in the "
                "order to use them (e.g. rapid,standard)",
                order=repr(text[:60]),
            )
    if len(set(items)) != len(items):
        raise RuleError("rating lists {order}: each list once", order=repr(text[:60]))
    return tuple(items)


def item_text(item: RatingType | CustomList) -> str:
    return item.value if isinstance(item, RatingType) else CUSTOM + item.name


def order_text(order: ListOrder) -> str:
    return ",".join(item_text(item) for item in order)


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
    for kind in fide_part(order):
        rating = ratings.get(kind)
        if rating is not None:
            return rating, kind
    return None, None
