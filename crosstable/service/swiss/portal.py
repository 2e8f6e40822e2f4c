"""The portal's Swiss (its rules, seed 002): the initial order by rating with the
unrated players placed at random, reproducibly from a published seed, and the rule that
the field must be even, as settings of the regulations' details.

* ``initial_order``: ``rating`` (FIDE's order, the default: rating, title, name; the
  unrated last by title and name), ``portal`` (the rated players as FIDE orders them,
  then the unrated shuffled by ``random.Random(seed)`` from the order of their
  registration numbers) or ``lot`` (rating and title as FIDE orders them, players equal
  in both ordered by that lot instead of by name);
* ``order_seed``: the seed of that shuffle, an integer; left empty, the start derives
  one from the tournament (its creation moment and entries) and records it, so the
  regulations page shows it and anyone can draw the same order again;
* ``even_field``: ``yes`` refuses to start an odd field (the portal's rule 1); ``no``,
  the default, gives an odd field FIDE's pairing-allocated bye each round.

>>> field = [Entrant("1", "Ann", None), Entrant("2", "Bob", 2300), Entrant("3", "Cy"),
...          Entrant("4", "Dan", 2100), Entrant("5", "Eve")]
>>> portal_order(field, 7)[:2]
('2', '4')
>>> sorted(portal_order(field, 7)[2:])
['1', '3', '5']
>>> portal_order(field, 7) == portal_order(list(reversed(field)), 7)
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from crosstable.core.errors import RuleError
from crosstable.core.lots import SEED_LIMIT, Entrant, rating_order, seed_from
from crosstable.core.system_settings import SettingError
from crosstable.core.text import Message
from crosstable.service.details import Details, DetailsEdit
from crosstable.service.tournament_ratings import method_of, rating_of
from crosstable.service.unit import Tx
from crosstable.store.models import EntryRow

INITIAL_ORDER = "initial_order"
ORDER_SEED = "order_seed"
EVEN_FIELD = "even_field"
_YES = ("yes", "true", "1", "on")
_NO = ("", "no", "false", "0", "off")


@dataclass(frozen=True, slots=True)
class PortalSwiss:
    """The portal's settings of a Swiss (module docstring)."""

    portal_order: bool = False
    seed: int | None = None
    even_field: bool = False
    #: rating and title, then a lot among the players equal in both (not their names)
    lot_ties: bool = False

    @classmethod
    def from_details(cls, details: Details | None) -> PortalSwiss:
        """The settings, each checked (a :class:`SettingError` naming the setting)."""
        details = details or {}
        order = str(details.get(INITIAL_ORDER) or "").strip().lower()
        if order not in ("", "rating", "portal", "lot"):
            raise SettingError(
                "initial order {order}: use rating, portal or lot",
                setting=INITIAL_ORDER,
                given=order,
                why="use rating, portal or lot",
                order=repr(order),
            )
        text = str(details.get(ORDER_SEED) or "").strip()
        seed = None
        if text:
            if not (text.isascii() and text.isdigit() and len(text) <= 16):
                raise SettingError(
                    "order seed {seed}: a whole number from 0 to 2^53 - 1",
                    setting=ORDER_SEED,
                    given=text,
                    why="a whole number from 0 to 2^53 - 1",
                    seed=repr(text),
                )
            seed = int(text)
            if seed >= SEED_LIMIT:
                raise SettingError(
                    "order seed {seed}: a whole number from 0 to 2^53 - 1",
                    setting=ORDER_SEED,
                    given=text,
                    why="a whole number from 0 to 2^53 - 1",
                    seed=repr(text),
                )
        even = str(details.get(EVEN_FIELD) or "").strip().lower()
        if even not in _YES + _NO:
            raise SettingError(
                "even field {even}: use yes or no",
                setting=EVEN_FIELD,
                given=even,
                why="use yes or no",
                even=repr(even),
            )
        return cls(
            portal_order=order == "portal",
            seed=seed,
            even_field=even in _YES,
            lot_ties=order == "lot",
        )


def portal_order(entrants: Sequence[Entrant], seed: int) -> tuple[str, ...]:
    """The keys in the portal's initial order: the rated by FIDE's order (rating, title,
    name), then the unrated shuffled with ``random.Random(seed)`` from the order of
    their keys (numeric keys numerically), so the order of the list does not matter."""
    rated = sorted((e for e in entrants if e.rating), key=lambda e: (*rating_order(e), e.key))
    unrated = sorted((e.key for e in entrants if not e.rating), key=_key_order)
    random.Random(seed).shuffle(unrated)
    return (*(e.key for e in rated), *unrated)


def lot_order(entrants: Sequence[Entrant], seed: int) -> tuple[str, ...]:
    """The keys by rating (highest first, unrated as 0) and title as FIDE orders them,
    players equal in both ordered by ``random.Random(seed)`` from the order of their keys
    instead of alphabetically.

    >>> field = [Entrant("1", "Ann", 2000), Entrant("2", "Bob", 2000), Entrant("3", "Cy",
    ...          2000), Entrant("4", "Dan", 2200)]
    >>> lot_order(field, 1)[0], sorted(lot_order(field, 1)[1:])
    ('4', ['1', '2', '3'])
    """
    keys = sorted((e.key for e in entrants), key=_key_order)
    random.Random(seed).shuffle(keys)
    drawn = {key: place for place, key in enumerate(keys)}
    ranked = sorted(entrants, key=lambda e: (*rating_order(e)[:2], drawn[e.key]))
    return tuple(e.key for e in ranked)


def _key_order(key: str) -> tuple[int, int, str]:
    return (0, int(key), key) if key.isascii() and key.isdigit() else (1, 0, key)


def check_portal_settings(system: object, details: Details | None) -> None:
    """Refuse a Swiss's portal setting with a value it cannot have (creation, edits)."""
    if getattr(system, "value", system) == "dutch":
        PortalSwiss.from_details(details)


def check_even_field(details: Details | None, players: int) -> None:
    """The portal's rule 1 when the regulations ask for it: an even field only."""
    if PortalSwiss.from_details(details).even_field and players % 2:
        raise RuleError(
            (
                "the regulations ask for an even field: {players} players are registered "
                "(one more, or one fewer, to start)"
            ),
            players=players,
        )


def apply_portal_order(
    tx: Tx, entries: Sequence[EntryRow], details: DetailsEdit, created_at: object
) -> Message | None:
    """At the start of a Swiss whose regulations choose the portal's order: number the
    entries in it (the seed given, or derived and recorded in ``details``) and say so;
    None when the regulations keep FIDE's order."""
    settings = PortalSwiss.from_details(details)
    if not settings.portal_order and not settings.lot_ties:
        return None
    seed = settings.seed
    if seed is None:
        parts = (f"{entry.number}:{entry.name}" for entry in entries)
        seed = seed_from("swiss-order", str(created_at), *parts)
    details[ORDER_SEED] = str(seed)
    method = method_of(tx.tournament.regulations)
    entrants = [Entrant(str(e.number), e.name, rating_of(e, method), e.title) for e in entries]
    by_number = {str(e.number): e for e in entries}
    for entry in entries:
        tx.update(entry, start=None)
    tx.flush()
    ordered = lot_order(entrants, seed) if settings.lot_ties else portal_order(entrants, seed)
    for start, key in enumerate(ordered, 1):
        tx.update(by_number[key], start=start)
    if settings.lot_ties:
        return Message(
            "initial order by rating and title, players equal in both placed by lot (seed {seed})",
            seed=seed,
        )
    unrated = sum(1 for e in entries if not rating_of(e, method))
    return Message(
        "initial order by rating, {unrated} unrated placed at random (seed {seed})",
        unrated=unrated,
        seed=seed,
    )


__all__ = [
    "EVEN_FIELD",
    "INITIAL_ORDER",
    "ORDER_SEED",
    "PortalSwiss",
    "apply_portal_order",
    "check_even_field",
    "check_portal_settings",
    "lot_order",
    "portal_order",
]
