"""US Chess's Crenshaw–Berger tables, as far as they are published.

* 3–4 players: the quad table (US Chess's quad sheet): round 1 ``1–4 2–3``,
  round 2 ``3–1 4–2``, round 3 ``1–2 3–4``, the left number with White. Three
  players play it with player 4 absent: whoever meets 4 has the free round.
* 7 players or more: FIDE's Berger table of the even size (an odd field with the
  free round, as Berger does it) with its rounds in the opposite order: round 1
  is Berger's last round, the last round Berger's first. The pairings and their
  colours are Berger's; only the order of the rounds differs.
* 5–6 players: refused. The rulebook's 6-player table was not made by that rule
  and its pairings are not published where we can read them.

docs/schedules.md names the sources; tests/data/crenshaw_facts.txt holds the
published facts the tables are checked against.

>>> [r.boards for r in crenshaw_table(4).rounds]
[((1, 4), (2, 3)), ((3, 1), (4, 2)), ((1, 2), (3, 4))]
>>> crenshaw_table(3).rounds[0]
ScheduledRound(number=1, boards=((2, 3),), bye=1, cycle=1)
>>> crenshaw_table(14).rounds[0].boards[0]
(7, 14)
"""

from __future__ import annotations

from crosstable.core.errors import ScheduleError
from crosstable.core.schedule.berger import berger_table
from crosstable.core.schedule.cycles import repeat_cycles
from crosstable.core.schedule.types import Schedule, ScheduledRound

__all__ = ["QUAD_TABLE", "crenshaw_fits", "crenshaw_schedule", "crenshaw_table"]

#: the quad sheet's rounds, board 1 first, White left
QUAD_TABLE: tuple[tuple[tuple[int, int], ...], ...] = (
    ((1, 4), (2, 3)),
    ((3, 1), (4, 2)),
    ((1, 2), (3, 4)),
)


def crenshaw_fits(players: int) -> bool:
    """Whether a published table seats ``players``: 3–4 (the quad table) or 7 and more."""
    return players in (3, 4) or players >= 7


def _quad(players: int) -> Schedule:
    rounds = []
    for number, boards in enumerate(QUAD_TABLE, start=1):
        seated = tuple(b for b in boards if 4 not in b) if players == 3 else boards
        bye = next((w if b == 4 else b for w, b in boards if 4 in (w, b)), None)
        rounds.append(ScheduledRound(number, seated, bye if players == 3 else None))
    return Schedule(players, tuple(rounds))


def crenshaw_table(players: int) -> Schedule:
    """One cycle of the Crenshaw–Berger table for ``players`` (3–4, or 7 and more).

    >>> [r.boards[0] for r in crenshaw_table(16).rounds][:2]
    [(8, 16), (16, 15)]
    """
    if isinstance(players, bool) or not isinstance(players, int):
        raise ScheduleError(
            "the number of players must be a whole number, not {players}", players=repr(players)
        )
    if not crenshaw_fits(players):
        raise ScheduleError(
            "the Crenshaw-Berger tables are published for 3-4 and for 7 or more players, "
            "not {players}",
            players=players,
        )
    if players <= 4:
        return _quad(players)
    berger = berger_table(players).rounds
    count = len(berger)
    return Schedule(players, tuple(r.renumbered(count + 1 - r.number, 1) for r in reversed(berger)))


def crenshaw_schedule(players: int, cycles: int = 1, *, swap_last_rounds: bool = True) -> Schedule:
    """The Crenshaw-Berger schedule, single or over several cycles: even cycles with every
    colour reversed, as Berger's are played. FIDE exchanges the last two rounds of
    cycle 1 so that nobody plays one colour three times running across the junction;
    with the rounds in the opposite order the same exchange is the first two rounds of
    each even cycle (the exact mirror of FIDE's double Berger schedule), made when
    ``swap_last_rounds`` is on.

    >>> [r.boards for r in crenshaw_schedule(4, cycles=2).rounds][3:5]
    [((1, 3), (2, 4)), ((4, 1), (3, 2))]
    """
    plain = repeat_cycles(crenshaw_table(players), cycles, swap_last_rounds=False)
    if not swap_last_rounds or cycles == 1:
        return plain
    rounds = list(plain.rounds)
    per_cycle = len(rounds) // cycles
    for start in range(per_cycle, len(rounds), 2 * per_cycle):  # each even cycle's first
        one, two = rounds[start], rounds[start + 1]
        rounds[start] = two.renumbered(one.number, one.cycle)
        rounds[start + 1] = one.renumbered(two.number, two.cycle)
    return Schedule(players, tuple(rounds))
