"""One round of a round robin's cycle paired by hand, and the cycle completed around it.

The arbiter gives the boards of one round whose games have not begun. The round must
seat every player of the field exactly once (an odd field: the player left out has the
free round) and repeat no pair met in a played round of the same cycle. The other
unplayed rounds of the cycle are then re-planned so that over the cycle every pair meets
exactly once: each remaining round is kept as it was where it still fits, otherwise a
bounded backtracking search splits the remaining pairs into perfect matchings of the
field. A pair keeps its scheduled colours; the hand round keeps the colours given.
Nothing is changed when the round is refused.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from crosstable.core.errors import RuleError

#: the search's bound: beyond it the round is refused, never an unbounded search
STEP_LIMIT = 200_000

Pair = frozenset[int]
Boards = tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True)
class CycleRound:
    """One round of a cycle: its boards (White, Black by starting number), the free
    round's player (an odd field) and whether any of its games has begun."""

    number: int
    boards: Boards
    bye: int | None = None
    played: bool = False

    def pairs(self) -> set[Pair]:
        found = {frozenset(board) for board in self.boards}
        if self.bye is not None:
            found.add(frozenset((self.bye, 0)))
        return found


def _check_round(players: Sequence[int], boards: Boards, bye: int | None) -> None:
    seated = [start for board in boards for start in board] + ([bye] if bye is not None else [])
    field = set(players)
    for board, (white, black) in enumerate(boards, 1):
        if white == black:
            raise RuleError(
                "board {board}: player {start} cannot play themselves", board=board, start=white
            )
    for start in seated:
        if start not in field:
            raise RuleError("player {start} is not in this round robin's field", start=start)
    twice = sorted(start for start, times in Counter(seated).items() if times > 1)
    if twice:
        raise RuleError("player {start} is given twice in the round", start=twice[0])
    missing = sorted(field - set(seated))
    if missing:
        raise RuleError("player {start} is not given in the round", start=missing[0])
    if len(field) % 2 == 0 and bye is not None:
        raise RuleError("an even field has no free round")


def _matchings(
    vertices: Sequence[int],
    left: set[Pair],
    rounds: int,
    prefer: Sequence[set[Pair]],
    spent: list[int],
) -> list[set[Pair]] | None:
    """``rounds`` perfect matchings of ``vertices`` that use every pair of ``left`` once
    (None: there are none). A depth-first search on a stack of its own (no recursion):
    each step seats the free player with the fewest partners left, trying first the
    partner ``prefer`` gives for that round; ``spent`` counts the steps, and past
    :data:`STEP_LIMIT` the round is refused."""
    if len(left) != rounds * (len(vertices) // 2):
        return None
    if rounds == 0:
        return []
    adjacent: dict[int, set[int]] = {v: set() for v in vertices}
    for pair in left:
        a, b = tuple(pair)
        adjacent[a].add(b)
        adjacent[b].add(a)
    chosen: list[set[Pair]] = []
    current: set[Pair] = set()
    free = set(vertices)
    index = 0

    def frame() -> list[Any]:
        vertex = min(free, key=lambda v: (len(adjacent[v] & free), v))
        wanted = prefer[index] if index < len(prefer) else set()
        options = sorted(
            adjacent[vertex] & free, key=lambda o: (frozenset((vertex, o)) not in wanted, o)
        )
        return [index, vertex, options, 0]

    stack = [frame()]
    while stack:
        spent[0] += 1
        if spent[0] > STEP_LIMIT:
            raise RuleError("the table cannot be completed with this round (the search gave up)")
        _, vertex, options, position = stack[-1]
        if position >= len(options):  # no partner left: take back the choice before
            stack.pop()
            if not stack:
                return None
            before, seated, tried, at = stack[-1]
            if before < index:
                current, index, free = chosen.pop(), before, set()
            other = tried[at - 1]
            adjacent[seated].add(other)
            adjacent[other].add(seated)
            free |= {seated, other}
            current.discard(frozenset((seated, other)))
            continue
        other = options[position]
        stack[-1][3] = position + 1
        adjacent[vertex].discard(other)
        adjacent[other].discard(vertex)
        free -= {vertex, other}
        current.add(frozenset((vertex, other)))
        if not free:  # the round is complete: the next one
            chosen.append(current)
            index += 1
            if index == rounds:
                return chosen
            current, free = set(), set(vertices)
        stack.append(frame())
    return None


def hand_round(
    players: Sequence[int],
    rounds: Sequence[CycleRound],
    number: int,
    boards: Sequence[tuple[int, int]],
    bye: int | None = None,
) -> tuple[CycleRound, ...]:
    """The cycle's ``rounds`` with round ``number`` paired as ``boards`` (and ``bye``)
    and its other unplayed rounds re-planned; RuleError when the round is refused."""
    given: Boards = tuple((int(w), int(b)) for w, b in boards)
    by_number = {r.number: r for r in rounds}
    if number not in by_number:
        raise RuleError("round {round} is not in this cycle", round=number)
    if by_number[number].played:
        raise RuleError("round {round} has begun: its games have results or reports", round=number)
    if bye is None and len(set(players)) % 2:
        left_out = set(players) - {start for board in given for start in board}
        bye = min(left_out) if len(left_out) == 1 else None
    _check_round(players, given, bye)
    met = {pair: r.number for r in rounds if r.played for pair in r.pairs()}
    new = CycleRound(number, given, bye)
    for white, black in given:
        pair = frozenset((white, black))
        if pair in met:
            raise RuleError(
                "{white} and {black} met in round {round} of this cycle already",
                white=white,
                black=black,
                round=met[pair],
            )
    if bye is not None and frozenset((bye, 0)) in met:
        raise RuleError(
            "player {start} had the free round in round {round} of this cycle already",
            start=bye,
            round=met[frozenset((bye, 0))],
        )
    field = sorted(set(players) | ({0} if len(set(players)) % 2 else set()))
    every = {frozenset((a, b)) for i, a in enumerate(field) for b in field[i + 1 :]}
    left = every - set(met) - new.pairs()
    others = [r for r in rounds if not r.played and r.number != number]
    colours: dict[Pair, tuple[int, int]] = {}
    for r in rounds:
        for white, black in r.boards:
            colours.setdefault(frozenset((white, black)), (white, black))
    planned = {number: new}
    # first the rounds that still fit kept as they are, the others searched for
    fits = [r for r in others if r.pairs() <= left]
    rest = [r for r in others if r not in fits]
    taken = {pair for r in fits for pair in r.pairs()}
    spent = [0]
    found = _matchings(field, set(left) - taken, len(rest), [r.pairs() for r in rest], spent)
    if found is None or len(taken) != sum(len(r.pairs()) for r in fits):
        preferred = [r.pairs() for r in others]
        rest, found = others, _matchings(field, set(left), len(others), preferred, spent)
    if found is None:
        raise RuleError("the table cannot be completed with this round")
    whole = {frozenset(r.pairs()): r for r in rounds if not r.played}
    for old, pairs in zip(rest, found, strict=True):
        same = whole.get(frozenset(pairs))  # another round's pairs: its boards, in its order
        planned[old.number] = (
            _as_round(old, pairs, colours)
            if same is None
            else CycleRound(old.number, same.boards, same.bye)
        )
    return tuple(planned.get(r.number, r) for r in rounds)


def _as_round(
    old: CycleRound, pairs: set[Pair], colours: Mapping[Pair, tuple[int, int]]
) -> CycleRound:
    if pairs == old.pairs():
        return old
    kept = [board for board in old.boards if frozenset(board) in pairs]
    placed = {frozenset(board) for board in kept}
    bye = None
    fresh: list[tuple[int, int]] = []
    for pair in sorted(pairs, key=lambda p: sorted(p)):
        if 0 in pair:
            bye = max(pair)
        elif pair not in placed:
            low, high = sorted(pair)
            fresh.append(colours.get(pair, (low, high)))
    return CycleRound(old.number, tuple(kept + fresh), bye, False)


_BOARD = re.compile(r"^\s*(\d{1,6})\s*[-–]\s*(\d{1,6})\s*$")


def parse_boards(text: str) -> Boards:
    """A round's boards written ``1-4, 2-3`` (White-Black by starting numbers, in board
    order); RuleError naming the part that is wrong.

    >>> parse_boards("1-4, 2–3")
    ((1, 4), (2, 3))
    """
    if len(text) > 10_000:
        raise RuleError("the boards are longer than 10000 characters")
    boards = []
    for place, part in enumerate(text.split(","), 1):
        match = _BOARD.match(part)
        if match is None:
            raise RuleError(
                "board {board}: {text} is not WHITE-BLACK (starting numbers, e.g. 1-4)",
                board=place,
                text=repr(part.strip()),
            )
        boards.append((int(match.group(1)), int(match.group(2))))
    return tuple(boards)


def moved_pairs(before: Sequence[CycleRound], after: Sequence[CycleRound]) -> list[int]:
    """The numbers of the rounds whose boards or free round changed."""
    return [
        a.number
        for a, b in zip(before, after, strict=True)
        if (a.boards, a.bye) != (b.boards, b.bye)
    ]


__all__ = ["STEP_LIMIT", "CycleRound", "hand_round", "moved_pairs", "parse_boards"]
