"""Scheveningen schedules: two teams, everyone meets every player of the other team.

Team A is starting numbers 1…n, team B is n+1…2n (``B j`` = ``n + j``). There
are n rounds of n boards, n² games; board i is always A i's game, and in round r
A 1 meets B r (the conventions of the published tables, RULES.md §6.2).

>>> s = scheveningen(4)
>>> [f"{w}-{b}" for w, b in s.rounds[0].boards]   # A1-B1 A2-B2 B3-A3 B4-A4
['1-5', '2-6', '7-3', '8-4']

Colours — what every table guarantees (tested for n = 1…30 and more):

* each player has White ⌊n/2⌋ or ⌈n/2⌉ times (n even: exactly n/2, so 3–3 for 2×6);
* nobody has the same colour three rounds in a row;
* team A has White on ⌊n/2⌋ or ⌈n/2⌉ boards of every round when n is odd or a
  multiple of 4; for n = 6, 10, 14, … it is n/2 ± 1 (4–2 and 2–4 for six boards),
  and for n = 2 it is 2–0 then 0–2, as in the published two-board table.

Three constructions (docs/variants.md explains them):

* odd n — A i plays B(i + r − 1) (cyclic); A i alternates colours, with one
  switch of phase placed so everyone stays balanced. This reproduces the
  published 3-, 5- and 7-board tables.
* n = 4k — the teams are split in halves; in the first n/2 rounds each half
  meets the same half of the other team, then the other half, cyclically; the
  top half of team A starts with White and A players alternate. This reproduces
  the published 4- and 8-board tables.
* n = 4k + 2 — halves again, each pairing of halves played as the odd table of
  size n/2: normal colours in the first half of the event, reversed and in
  reverse round order in the second. This reproduces the published 2-board
  table; the published 6- and 10-board tables (which differ between sources)
  balance each round exactly, which no halves construction can do (see
  docs/variants.md).

Double Scheveningen: the second cycle plays the rounds of the first with colours
reversed — in the same order when that gives nobody three of one colour in a
row across the junction (n = 1, 2 and multiples of 4), otherwise starting from
the first round that avoids it and continuing cyclically (round 2 for odd n,
round n/2 for n = 6, 10, 14, …). With more cycles, odd cycles repeat the first
and even cycles the second.
"""

from __future__ import annotations

from crosstable.core.errors import ScheduleError
from crosstable.core.schedule.types import Schedule, ScheduledRound


def scheveningen(team_size: int, *, cycles: int = 1) -> Schedule:
    """The schedule of two teams of ``team_size``; ``cycles=2`` for a double Scheveningen.

    >>> s = scheveningen(6)
    >>> s.players, len(s.rounds), sum(len(r.boards) for r in s.rounds)
    (12, 6, 36)
    >>> [r.cycle for r in scheveningen(2, cycles=2).rounds]
    [1, 1, 2, 2]
    """
    if team_size < 1:
        raise ScheduleError("team size {size}: each team needs at least one player", size=team_size)
    if cycles < 1:
        raise ScheduleError("cycles: {cycles} — at least one cycle", cycles=cycles)
    n = team_size
    table = [[_game(n, board, r) for board in range(n)] for r in range(n)]
    first = [tuple((a, b) if a_white else (b, a) for a, b, a_white in games) for games in table]
    reversed_colours = [tuple((black, white) for white, black in boards) for boards in first]
    second = reversed_colours
    if cycles > 1:
        for start in range(n):
            second = reversed_colours[start:] + reversed_colours[:start]
            if not _joins_have_triple(_cycles(first, second, cycles), n, start):
                break
    rounds = tuple(
        ScheduledRound(number, boards, None, cycle)
        for number, (cycle, boards) in enumerate(_cycles(first, second, cycles), start=1)
    )
    return Schedule(2 * n, rounds)


def _game(n: int, board: int, r: int) -> tuple[int, int, bool]:
    """Round ``r`` (0-based), board ``board`` (0-based): (A number, B number, A has White)."""
    if n % 2 == 1:
        opponent = (board + r) % n
        return board + 1, n + opponent + 1, _odd_a_white(n, board, r)
    m = n // 2
    half, k = divmod(board, m)
    if n % 4 == 0:
        block, step = divmod(r, m)
        opponent = (half ^ block) * m + (k + step) % m
        return board + 1, n + opponent + 1, (r + half) % 2 == 0
    if r < m:  # n = 4k + 2: own half, odd table of size m
        opponent = half * m + (k + r) % m
        return board + 1, n + opponent + 1, _odd_a_white(m, k, r)
    d = 2 * m - 1 - r  # other half, odd table reversed in time and colours
    opponent = (1 - half) * m + (k + d) % m
    return board + 1, n + opponent + 1, not _odd_a_white(m, k, d)


def _odd_a_white(n: int, k: int, d: int) -> bool:
    """Odd table of size ``n``: does A(k+1) have White against B(k+d+1) in round d+1?

    The first (n+1)/2 A players start with White, the others with Black; each
    alternates, and A i (i ≥ 2) switches phase once, from round ``f`` on, so that
    its own and its opponents' colours stay balanced.
    """
    i = k + 1
    top = (n + 1) // 2
    switch = n + 2 - 2 * i if i <= top else 2 * n + 1 - 2 * i
    phase = (1 if i > top else 0) + (1 if i > 1 and d >= switch else 0)
    return (d + phase) % 2 == 0


Boards = tuple[tuple[int, int], ...]


def _cycles(first: list[Boards], second: list[Boards], cycles: int) -> list[tuple[int, Boards]]:
    return [
        (cycle, boards)
        for cycle in range(1, cycles + 1)
        for boards in (first if cycle % 2 == 1 else second)
    ]


def _joins_have_triple(rounds: list[tuple[int, Boards]], n: int, start: int) -> bool:
    """Three of a colour in a row across a cycle junction or the wrap inside a rotated cycle.

    Within one cycle the tables never give three in a row, so only the rounds
    around the new neighbours need checking: O(n) per try.
    """
    joins = {cycle * n for cycle in range(1, len(rounds) // n)}
    if start:
        joins |= {cycle * n + n - start for cycle in range(1, len(rounds) // n, 2)}
    for join in joins:
        colours: dict[int, list[bool]] = {}
        for _, boards in rounds[max(0, join - 2) : join + 2]:
            for white, black in boards:
                colours.setdefault(white, []).append(True)
                colours.setdefault(black, []).append(False)
        if any(
            seq[i] == seq[i + 1] == seq[i + 2]
            for seq in colours.values()
            for i in range(len(seq) - 2)
        ):
            return True
    return False


def team_of(team_size: int, start: int) -> tuple[str, int]:
    """``("A", i)`` or ``("B", j)`` for a starting number of a Scheveningen.

    >>> team_of(6, 8)
    ('B', 2)
    """
    if not 1 <= start <= 2 * team_size:
        raise ScheduleError("no player {start} in two teams of {size}", start=start, size=team_size)
    if start <= team_size:
        return "A", start
    return "B", start - team_size
