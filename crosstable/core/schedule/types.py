"""The value every schedule generator returns: rounds of boards, White first."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ScheduledRound:
    """One round: ``boards`` in board order, each ``(white, black)``; ``bye`` has the free round."""

    number: int
    boards: tuple[tuple[int, int], ...]
    bye: int | None = None
    cycle: int = 1


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
