"""The knockout bracket: who stands on which line, which match feeds which.

A bracket of ``size`` = 2ⁿ lines (the smallest power of two that holds the
field) has ``size − 1`` match *slots*, numbered round by round, top to bottom:
slots 1…size/2 are round 1, the next size/4 are round 2, and so on; the last
slot is the final. Slot ``k`` of round 1 is lines ``2k − 1`` and ``2k``; a later
slot takes the winners of two neighbouring slots of the round before. When the
field is not a power of two, ``size − N`` lines stay empty and the player
opposite an empty line has a *bye*: no match, straight into round 2.

Two ways to fill the lines:

* **seeded** (by rating, or any seed list given): the standard seeding positions
  (:func:`seeding_positions`) — seed 1 meets seed ``size``, 2 meets ``size − 1``…
  and seeds 1 and 2 sit in opposite halves, 1…4 in different quarters, 1…8 in
  different eighths, so the top seeds can only meet late. Missing seeds
  (``N + 1 … size``) leave their lines empty: the top seeds get the byes.
* **random** (the portal's rule): the players are put in a random order, drawn
  with ``random.Random(seed)`` as the drawing of lots does
  (:func:`crosstable.core.lots.draw_by_lot`), and the 1st meets the 2nd, the 3rd
  the 4th… When byes are needed the first ``size − N`` players of the drawn
  order get them, on the lines seeds 1…(size − N) would have, so that each bye
  meets a first-round winner in round 2; the rest meet in drawn order.

>>> seeding_positions(8)
(1, 8, 4, 5, 2, 7, 3, 6)
>>> b = seeded_bracket(6)
>>> b.lines
(1, None, 4, 5, 2, None, 3, 6)
>>> [s.players for s in b.first_round_matches], b.byes
([(4, 5), (3, 6)], (1, 2))
>>> b.slot(5).feeders, b.slot(5).next, b.meeting_round(1, 2)
((1, 2), 7, 3)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from crosstable.core.errors import RuleError
from crosstable.core.lots import Entrant, draw_by_lot, draw_by_rating
from crosstable.core.model import Draw, LotsMethod, Player


class BracketOrder(Enum):
    """How the lines of the bracket were filled."""

    SEEDED = "seeded"  # standard seeding positions of a seed list (rating by default)
    RANDOM = "random"  # drawn order, 1st v 2nd, 3rd v 4th (portal rule)
    GROUPS = "groups"  # qualifiers of a group stage, cross-seeded (knockout_groups)


def bracket_size(players: int) -> int:
    """The smallest power of two that holds ``players`` (at least 2).

    >>> bracket_size(2), bracket_size(5), bracket_size(64), bracket_size(65)
    (2, 8, 64, 128)
    """
    if players < 2:
        raise RuleError("a knockout needs at least 2 players, not {count}", count=players)
    return 1 << (players - 1).bit_length()


def seeding_positions(size: int) -> tuple[int, ...]:
    """The seed standing on each line of a seeded bracket of ``size`` lines.

    Built by doubling: each seed ``s`` of the bracket of ``k`` lines becomes the
    pair ``s`` v ``2k + 1 − s``. Seeds ``2j − 1`` and ``2j`` always end up in
    opposite halves, and seeds 1…2ᵐ in different parts of size ``size / 2ᵐ``.

    >>> seeding_positions(2), seeding_positions(4)
    ((1, 2), (1, 4, 2, 3))
    """
    if size < 2 or size & (size - 1):
        raise RuleError("a bracket has a power of two lines (2, 4, 8…), not {size}", size=size)
    order = [1, 2]
    while len(order) < size:
        k2 = 2 * len(order) + 1
        order = [seed for s in order for seed in (s, k2 - s)]
    return tuple(order)


def round_name(players_in_round: int) -> str:
    """``final``, ``semi-final``, ``quarter-final``, else ``round of N``.

    >>> round_name(2), round_name(4), round_name(8), round_name(32)
    ('final', 'semi-final', 'quarter-final', 'round of 32')
    """
    return {2: "final", 4: "semi-final", 8: "quarter-final"}.get(
        players_in_round, f"round of {players_in_round}"
    )


@dataclass(frozen=True, slots=True)
class Slot:
    """One match slot. Round 1: ``players`` (``None`` = empty line); later: ``feeders``."""

    number: int
    round: int
    players: tuple[int | None, int | None] | None  # round 1 only: (top line, bottom line)
    feeders: tuple[int, int] | None  # rounds ≥ 2: the slots whose winners meet here
    next: int | None  # the slot the winner goes to; None for the final

    @property
    def is_bye(self) -> bool:
        """A round-1 slot with one empty line: its player goes on without a match."""
        return self.players is not None and None in self.players

    @property
    def bye_player(self) -> int | None:
        if not self.is_bye or self.players is None:
            return None
        top, bottom = self.players
        return top if top is not None else bottom

    def to_json(self) -> dict[str, object]:
        item: dict[str, object] = {"slot": self.number}
        if self.players is not None:
            item["players"] = list(self.players)
            item["bye"] = self.bye_player
        if self.feeders is not None:
            item["from"] = list(self.feeders)
        item["next"] = self.next
        return item


@dataclass(frozen=True, slots=True)
class Bracket:
    """The filled bracket: lines, slots and how they came about."""

    players: tuple[Player, ...]
    order: BracketOrder
    lines: tuple[int | None, ...]  # starting number on each line, None = empty
    seeding: tuple[int, ...]  # seed list (seeded, groups) or drawn order (random)
    draw: Draw | None = None  # the drawing of lots (random order): method, seed, order

    def __post_init__(self) -> None:
        size = bracket_size(len(self.players))
        if len(self.lines) != size:
            raise RuleError(
                "{players} players need {size} lines, not {lines}",
                players=len(self.players),
                size=size,
                lines=len(self.lines),
            )
        placed = sorted(p for p in self.lines if p is not None)
        if placed != sorted(p.start for p in self.players):
            raise RuleError("every player stands on exactly one line of the bracket")
        for k in range(0, size, 2):
            if self.lines[k] is None and self.lines[k + 1] is None:
                raise RuleError("round 1, slot {slot}: two empty lines", slot=k // 2 + 1)

    @property
    def size(self) -> int:
        return len(self.lines)

    @property
    def seed(self) -> int | None:
        """The published seed of the random draw (None when seeded)."""
        return self.draw.seed if self.draw is not None else None

    @property
    def rounds(self) -> int:
        """Number of knockout rounds, ⌈log₂ N⌉."""
        return self.size.bit_length() - 1

    @property
    def slots(self) -> tuple[Slot, ...]:
        return tuple(self.slot(n) for n in range(1, self.size))

    def round_of(self, number: int) -> int:
        """The round of slot ``number``."""
        if not 1 <= number < self.size:
            raise RuleError(
                "there is no slot {slot} (slots 1…{slots})", slot=number, slots=self.size - 1
            )
        first, width, rnd = 1, self.size // 2, 1
        while number >= first + width:
            first, width, rnd = first + width, width // 2, rnd + 1
        return rnd

    def first_slot(self, rnd: int) -> int:
        """The number of the first slot of round ``rnd``."""
        if not 1 <= rnd <= self.rounds:
            raise RuleError(
                "there is no round {round} (rounds 1…{rounds})", round=rnd, rounds=self.rounds
            )
        return self.size - (self.size >> (rnd - 1)) + 1

    def round_slots(self, rnd: int) -> tuple[Slot, ...]:
        first = self.first_slot(rnd)
        return tuple(self.slot(n) for n in range(first, first + (self.size >> rnd)))

    def slot(self, number: int) -> Slot:
        rnd = self.round_of(number)
        index = number - self.first_slot(rnd)  # 0-based within the round
        nxt = None if rnd == self.rounds else self.first_slot(rnd + 1) + index // 2
        if rnd == 1:
            pair = (self.lines[2 * index], self.lines[2 * index + 1])
            return Slot(number, 1, pair, None, nxt)
        before = self.first_slot(rnd - 1) + 2 * index
        return Slot(number, rnd, None, (before, before + 1), nxt)

    @property
    def first_round_matches(self) -> tuple[Slot, ...]:
        """Round-1 slots with two players, top to bottom."""
        return tuple(s for s in self.round_slots(1) if not s.is_bye)

    @property
    def byes(self) -> tuple[int, ...]:
        """Players with a first-round bye, top to bottom."""
        return tuple(s.bye_player for s in self.round_slots(1) if s.bye_player is not None)

    def line_of(self, player: int) -> int:
        """The 0-based line of ``player``."""
        try:
            return self.lines.index(player)
        except ValueError:
            raise RuleError("player {player} is not in the bracket", player=player) from None

    def meeting_round(self, a: int, b: int) -> int:
        """The only round in which players ``a`` and ``b`` can meet (if both keep winning)."""
        if a == b:
            raise RuleError("player {player} cannot meet themself", player=a)
        return (self.line_of(a) ^ self.line_of(b)).bit_length()

    def to_json(self) -> dict[str, object]:
        """The bracket as documented in docs/knockout.md."""
        rounds = []
        for rnd in range(1, self.rounds + 1):
            rounds.append(
                {
                    "round": rnd,
                    "name": round_name(self.size >> (rnd - 1)),
                    "slots": [s.to_json() for s in self.round_slots(rnd)],
                }
            )
        return {
            "players": len(self.players),
            "size": self.size,
            "rounds": self.rounds,
            "order": self.order.value,
            "seed": self.seed,
            "seeding": list(self.seeding),
            "lines": list(self.lines),
            "matches": [list(s.players or ()) for s in self.first_round_matches],
            "byes": list(self.byes),
            "bracket": rounds,
        }


def numbered_players(count: int) -> tuple[Player, ...]:
    """``count`` unnamed, unrated players 1…count (rating rank = starting number)."""
    if count < 2:
        raise RuleError("a knockout needs at least 2 players, not {count}", count=count)
    return tuple(Player(start, "") for start in range(1, count + 1))


def seeded_lines(seeding: Sequence[int], size: int) -> tuple[int | None, ...]:
    """Lines of a bracket: the seed list at the standard seeding positions."""
    return tuple(
        seeding[seed - 1] if seed <= len(seeding) else None for seed in seeding_positions(size)
    )


def random_lines(drawn: Sequence[int], size: int) -> tuple[int | None, ...]:
    """Lines in drawn order: byes first (at the lines of seeds 1…b), then 1st v 2nd…"""
    byes = size - len(drawn)
    lines: list[int | None] = [None] * size
    line_of_seed = {seed: line for line, seed in enumerate(seeding_positions(size))}
    bye_lines: set[int] = set()
    for seed in range(1, byes + 1):
        line = line_of_seed[seed]
        lines[line] = drawn[seed - 1]
        bye_lines.update((line, line ^ 1))
    rest = iter(drawn[byes:])
    for line in range(size):
        if line not in bye_lines:
            lines[line] = next(rest)
    return tuple(lines)


def seeded_bracket(
    players: int | Sequence[Player], seeding: Sequence[int] | None = None
) -> Bracket:
    """A seeded bracket: by ``seeding`` (starting numbers, seed 1 first) or by rating.

    Without a seed list the order is FIDE C.04.2 art. 2.2's (rating, title, name,
    entry order) — :func:`crosstable.core.lots.draw_by_rating`; for unnamed,
    unrated players that is the order of starting numbers.
    """
    field = numbered_players(players) if isinstance(players, int) else tuple(players)
    size = bracket_size(len(field))
    if seeding is None:
        ranked = draw_by_rating([_entrant(p) for p in field])
        order = tuple(int(key) for key in ranked.draw.order)
    else:
        order = tuple(seeding)
        if sorted(order) != sorted(p.start for p in field):
            raise RuleError("the seed list must name every player exactly once")
    return Bracket(field, BracketOrder.SEEDED, seeded_lines(order, size), order)


def random_bracket(players: int | Sequence[Player], seed: int) -> Bracket:
    """The portal's bracket: a random order drawn from ``seed``; 1st v 2nd, 3rd v 4th…

    >>> random_bracket(4, seed=7).lines
    (4, 2, 1, 3)
    """
    field = numbered_players(players) if isinstance(players, int) else tuple(players)
    size = bracket_size(len(field))
    lots = draw_by_lot([_entrant(p) for p in field], seed)
    drawn = tuple(int(key) for key in lots.draw.order)
    draw = Draw(LotsMethod.RANDOM, seed, lots.draw.order)
    return Bracket(field, BracketOrder.RANDOM, random_lines(drawn, size), drawn, draw)


def _entrant(player: Player) -> Entrant:
    return Entrant(str(player.start), player.name, player.rating, player.title)
