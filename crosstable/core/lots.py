"""The drawing of lots: starting numbers 1…N, drawn once before round 1.

Three methods, each returning the model's :class:`~crosstable.core.model.Draw`
(method, seed, order) and the starting number of every entrant:

* **by lot** — random but reproducible: the entrants are put in a fixed order
  (by key, numeric keys numerically) and shuffled with ``random.Random(seed)``.
  Anyone with Python, the published seed and the entry list gets the same
  numbers; the order in which the entries happen to be listed does not matter.
* **by rating** — FIDE C.04.2 art. 2.2 order: rating (highest first; unrated
  count as 0), then FIDE title (GM, IM, WGM, FM, WIM, CM, WFM, WCM, none), then
  name alphabetically (case-insensitive), then the order of entry.
* **by hand** — the arbiter lists every key once, in starting-number order.

>>> field = [Entrant("1", "Ann", 2100), Entrant("2", "Bob", 2300, "FM"), Entrant("3", "Cy")]
>>> draw_lots(field, "rating").draw.order
('2', '1', '3')
>>> lots = draw_lots(field, "random", seed=20260725)
>>> lots.draw.seed, sorted(lots.numbers.values())
(20260725, [1, 2, 3])
>>> draw_lots(field, "random", seed=20260725) == lots
True
"""

from __future__ import annotations

import hashlib
import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from crosstable.core.errors import RuleError
from crosstable.core.model import Draw, LotsMethod, Player

#: FIDE C.04.2 art. 2.2.2 title order; TRF's one- and two-letter codes are accepted too.
TITLE_ORDER: Mapping[str, int] = {
    "GM": 0,
    "G": 0,
    "IM": 1,
    "I": 1,
    "WGM": 2,
    "WG": 2,
    "FM": 3,
    "F": 3,
    "WIM": 4,
    "WI": 4,
    "CM": 5,
    "C": 5,
    "WFM": 6,
    "WF": 6,
    "WCM": 7,
    "WC": 7,
}
UNTITLED = len(set(TITLE_ORDER.values()))


@dataclass(frozen=True, slots=True)
class Entrant:
    """One entry before the draw; ``key`` is what :attr:`Draw.order` records."""

    key: str
    name: str = ""
    rating: int | None = None
    title: str = ""


@dataclass(frozen=True, slots=True)
class Lots:
    """The result of a drawing of lots."""

    draw: Draw
    numbers: Mapping[str, int]  # key → starting number

    def starting_number(self, key: str) -> int:
        try:
            return self.numbers[key]
        except KeyError:
            raise RuleError("no entrant {key} in this draw", key=repr(key)) from None

    def players(self, entrants: Iterable[Entrant]) -> tuple[Player, ...]:
        """The entrants as core :class:`Player` values, in starting-number order."""
        by_key = {e.key: e for e in entrants}
        return tuple(
            Player(start, by_key[key].name or key, by_key[key].rating, by_key[key].title)
            for start, key in enumerate(self.draw.order, start=1)
        )


def entrants_from_players(players: Iterable[Player]) -> tuple[Entrant, ...]:
    """Entrants keyed by their current starting number (e.g. from a TRF file)."""
    return tuple(Entrant(str(p.start), p.name, p.rating, p.title) for p in players)


def draw_lots(
    entrants: Sequence[Entrant],
    method: LotsMethod | str,
    *,
    seed: int | None = None,
    order: Sequence[str] = (),
) -> Lots:
    """Draw the starting numbers of ``entrants`` by ``method`` (random, rating or manual)."""
    try:
        how = LotsMethod(method)
    except ValueError:
        choices = ", ".join(m.value for m in LotsMethod)
        raise RuleError(
            "drawing of lots {method}: use one of {choices}", method=repr(method), choices=choices
        ) from None
    _check_entrants(entrants)
    if how is not LotsMethod.MANUAL and order:
        raise RuleError("an order is given only when the numbers are assigned by hand")
    if how is not LotsMethod.RANDOM and seed is not None:
        raise RuleError("a seed is given only when the numbers are drawn by lot")
    if how is LotsMethod.RANDOM:
        return draw_by_lot(entrants, seed)
    if how is LotsMethod.RATING:
        return draw_by_rating(entrants)
    return draw_by_hand(entrants, order)


def draw_by_lot(entrants: Sequence[Entrant], seed: int | None) -> Lots:
    """Random numbers, reproducible from ``seed`` (an integer published with the draw).

    >>> draw_by_lot([Entrant("a"), Entrant("b"), Entrant("c"), Entrant("d")], 7).draw.order
    ('d', 'b', 'a', 'c')
    """
    if seed is None or isinstance(seed, bool) or not isinstance(seed, int):
        raise RuleError("a drawing by lot needs a seed (an integer, published with the draw)")
    _check_entrants(entrants)
    keys = sorted((e.key for e in entrants), key=_key_order)
    random.Random(seed).shuffle(keys)
    return _lots(LotsMethod.RANDOM, seed, keys)


def draw_by_rating(entrants: Sequence[Entrant]) -> Lots:
    """Rating, title, name, order of entry (FIDE C.04.2 art. 2.2)."""
    _check_entrants(entrants)
    ranked = sorted(enumerate(entrants), key=lambda item: (*rating_order(item[1]), item[0]))
    return _lots(LotsMethod.RATING, None, [e.key for _, e in ranked])


def draw_by_hand(entrants: Sequence[Entrant], order: Sequence[str]) -> Lots:
    """The arbiter's order: every key exactly once, starting number 1 first.

    >>> draw_by_hand([Entrant("a"), Entrant("b")], ["b", "b"])
    Traceback (most recent call last):
    ...
    crosstable.core.errors.RuleError: by hand: 'b' is listed twice (starting numbers 1 and 2)
    """
    _check_entrants(entrants)
    keys = [e.key for e in entrants]
    known = set(keys)
    seen: dict[str, int] = {}
    for number, key in enumerate(order, start=1):
        if key not in known:
            raise RuleError(
                "by hand: starting number {number} is {key}, who has not entered",
                number=number,
                key=repr(key),
            )
        if key in seen:
            raise RuleError(
                "by hand: {key} is listed twice (starting numbers {first} and {number})",
                key=repr(key),
                first=seen[key],
                number=number,
            )
        seen[key] = number
    missing = [key for key in keys if key not in seen]
    if missing:
        listed = ", ".join(repr(k) for k in missing)
        raise RuleError(
            "by hand: no starting number for {listed} — list every entrant once", listed=listed
        )
    return _lots(LotsMethod.MANUAL, None, list(order))


def rating_order(entrant: Entrant) -> tuple[int, int, str, str]:
    """The sort key of the by-rating draw (lower sorts first)."""
    title = TITLE_ORDER.get(entrant.title.strip().upper(), UNTITLED)
    return (-(entrant.rating or 0), title, entrant.name.casefold(), entrant.name)


def _key_order(key: str) -> tuple[int, int, str]:
    if key.isascii() and key.isdigit():
        return (0, int(key), key)
    return (1, 0, key)


def _check_entrants(entrants: Sequence[Entrant]) -> None:
    if not entrants:
        raise RuleError("no entrants: nothing to draw")
    twice = [key for key, count in Counter(e.key for e in entrants).items() if count > 1]
    if twice:
        raise RuleError("entrant {entrant} is entered twice", entrant=repr(twice[0]))


def _lots(method: LotsMethod, seed: int | None, keys: Sequence[str]) -> Lots:
    order = tuple(keys)
    return Lots(Draw(method, seed, order), {key: n for n, key in enumerate(order, start=1)})


#: seeds are below 2**53: exact as JSON numbers
SEED_LIMIT = 2**53


def seed_from(*parts: str) -> int:
    """A seed anyone can derive again: the first eight bytes of the SHA-256 of the
    ``parts`` (UTF-8, joined by the unit separator U+001F), read as a big-endian
    number, modulo 2**53.

    >>> seed_from("ties", "Club", "2026-05-01T18:00:00+00:00", "1:Ann", "2:Bob")
    4387649836387901
    >>> seed_from("ties", "Club") == seed_from("ties", "Club")
    True
    """
    digest = hashlib.sha256("\x1f".join(parts).encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") % SEED_LIMIT
