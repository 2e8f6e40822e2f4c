"""The value every schedule generator returns: rounds of boards, White first."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


class ScheduledRound:
    """One round: ``boards`` in board order, each ``(white, black)``; ``bye`` has the free round.

    The round is stored by columns — the White players and the Black players in
    board order — and ``boards`` pairs them up on demand. A 2000-player table is
    then 4000 small tuples instead of two million pair objects (a fifth of the
    memory, and most of the build time goes away with the garbage collector's
    work on them). Immutable and compared by value, like a frozen dataclass.

    >>> r = ScheduledRound(2, ((5, 3), (1, 2)), bye=4)
    >>> r.boards, r.whites, r.blacks
    (((5, 3), (1, 2)), (5, 1), (3, 2))
    >>> r == ScheduledRound(2, whites=(5, 1), blacks=(3, 2), bye=4)
    True
    """

    __slots__ = ("blacks", "bye", "cycle", "number", "whites")

    number: int
    whites: tuple[int, ...]
    blacks: tuple[int, ...]
    bye: int | None
    cycle: int

    def __init__(
        self,
        number: int,
        boards: Iterable[tuple[int, int]] = (),
        bye: int | None = None,
        cycle: int = 1,
        *,
        whites: tuple[int, ...] | None = None,
        blacks: tuple[int, ...] | None = None,
    ) -> None:
        if whites is None or blacks is None:
            if whites is not None or blacks is not None:
                raise ValueError("give both whites and blacks, or boards")
            pairs = tuple(boards)
            whites = tuple(white for white, _ in pairs)
            blacks = tuple(black for _, black in pairs)
        elif len(whites) != len(blacks):
            raise ValueError("whites and blacks must have one entry per board")
        set_ = object.__setattr__
        set_(self, "number", number)
        set_(self, "whites", whites)
        set_(self, "blacks", blacks)
        set_(self, "bye", bye)
        set_(self, "cycle", cycle)

    @property
    def boards(self) -> tuple[tuple[int, int], ...]:
        """``(white, black)`` per board, board 1 first."""
        return tuple(zip(self.whites, self.blacks, strict=True))

    def __len__(self) -> int:
        """Number of boards."""
        return len(self.whites)

    def with_colours_reversed(
        self, number: int | None = None, cycle: int | None = None
    ) -> ScheduledRound:
        """The same games with White and Black exchanged (the second cycle of a double)."""
        return ScheduledRound(
            self.number if number is None else number,
            bye=self.bye,
            cycle=self.cycle if cycle is None else cycle,
            whites=self.blacks,
            blacks=self.whites,
        )

    def renumbered(self, number: int, cycle: int) -> ScheduledRound:
        """The same games as round ``number`` of cycle ``cycle``."""
        return ScheduledRound(
            number, bye=self.bye, cycle=cycle, whites=self.whites, blacks=self.blacks
        )

    def _key(self) -> tuple[int, tuple[int, ...], tuple[int, ...], int | None, int]:
        return (self.number, self.whites, self.blacks, self.bye, self.cycle)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ScheduledRound):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (
            f"ScheduledRound(number={self.number}, boards={self.boards!r}, "
            f"bye={self.bye!r}, cycle={self.cycle})"
        )

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"ScheduledRound is immutable: cannot set {name}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"ScheduledRound is immutable: cannot delete {name}")


@dataclass(frozen=True, slots=True)
class Schedule:
    """A whole pre-determined schedule for ``players`` starting numbers 1…players."""

    players: int
    rounds: tuple[ScheduledRound, ...]

    def to_json(self) -> dict[str, object]:
        """The command-line JSON shape of DESIGN.md."""
        return {
            "players": self.players,
            "rounds": [
                {
                    "round": r.number,
                    "boards": [[white, black] for white, black in r.boards],
                    "bye": r.bye,
                }
                for r in self.rounds
            ],
        }
