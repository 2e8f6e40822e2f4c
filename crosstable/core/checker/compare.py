"""Compare a round as played with the pairing the rules give, board by board.

Board order is not compared (a TRF does not record it); a pair of the rules
played with the colours the other way round is a ``colours`` finding, a pair
the rules do not make is a ``pairing`` finding naming whom the rules pair each
player with, and a PAB or free round given to someone else is a ``bye`` finding.
"""

from __future__ import annotations

from crosstable.core.checker.findings import Boards, Finding

__all__ = ["compare_round"]


def compare_round(
    number: int,
    played: Boards,
    played_bye: int | None,
    expected: Boards,
    expected_bye: int | None,
    *,
    bye_word: str = "the PAB",
    unplayed_is_absence: bool = False,
) -> tuple[Finding, ...]:
    """The findings of round ``number`` (empty: it agrees).

    ``unplayed_is_absence``: a pair of the rules whose two players both have no
    game in the round is an absence (a round robin's withdrawal), not a finding.

    >>> [f.message for f in compare_round(1, ((1, 4), (3, 2)), None, ((1, 4), (2, 3)), None)]
    ['3-2: the rules give 2 White against 3']
    >>> [f.kind for f in compare_round(1, ((1, 2), (3, 4)), None, ((1, 4), (2, 3)), None)]
    ['pairing', 'pairing']
    """
    rules = {frozenset(board): board for board in expected}
    partner = {w: b for w, b in expected} | {b: w for w, b in expected}
    findings: list[Finding] = []
    playing: set[int] = set()
    for white, black in played:
        playing.update((white, black))
        board = rules.get(frozenset((white, black)))
        if board == (white, black):
            continue
        if board is not None:
            message = f"{white}-{black}: the rules give {black} White against {white}"
            findings.append(Finding("colours", message, number, (white, black)))
            continue
        first, second = (_fate(who, partner, expected_bye, bye_word) for who in (white, black))
        if first.startswith("pair ") and second.startswith("pair "):
            second = second.removeprefix("pair ")
        message = f"{white}-{black} is not a pair of the rules, which {first} and {second}"
        findings.append(Finding("pairing", message, number, (white, black)))
    for white, black in expected:
        if white in playing or black in playing:
            continue  # the game one of them played instead is already listed
        if unplayed_is_absence:
            continue
        message = f"{white}-{black} of the rules is not played (neither has a game)"
        findings.append(Finding("missing", message, number, (white, black)))
    if played_bye != expected_bye:
        if played_bye is None:
            message = f"nobody has {bye_word}; the rules give it to {expected_bye}"
        elif expected_bye is None:
            message = f"{played_bye} has {bye_word}; the rules give nobody one"
        else:
            message = f"{played_bye} has {bye_word}; the rules give it to {expected_bye}"
        who = tuple(p for p in (played_bye, expected_bye) if p is not None)
        findings.append(Finding("bye", message, number, who))
    return tuple(findings)


def _fate(who: int, partner: dict[int, int], bye: int | None, bye_word: str) -> str:
    if who in partner:
        return f"pair {who} with {partner[who]}"
    if who == bye:
        return f"give {who} {bye_word}"
    return f"leave {who} unpaired"
