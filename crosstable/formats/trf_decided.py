"""An arbiter's result short of a game (½-0, 0-½, 0-0) said in a TRF's ``###`` line.

A TRF writes each player's side of a game on their own line: ``=`` against ``0`` is
either an arbiter's decision or two entries that contradict each other, and the
format cannot tell which. The strict reading refuses it; so the store's export says
each decided game in a comment line of its own, right after White's line::

    ### Arbiter's decision @ Round 2: 1 - 4 0.5-0

and the reading takes a game so said as written (docs/trf.md). A game played but
not rated (``W D L``) is said with `` not rated``. Export → import → export is
identical: the comments are kept as the file's, and not written twice.

>>> from crosstable.core.model import Game, GameResult, Outcome
>>> game = Game(2, 1, 1, 4, GameResult(Outcome.DRAW, Outcome.LOSS))
>>> comment = decision_comment(game)
>>> comment.text, comment.anchor
(" Arbiter's decision @ Round 2: 1 - 4 0.5-0", '001/1')
>>> sorted(decided_games([comment]))
[(2, 1, 4)]
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace

from crosstable.core.model import Game, Tournament
from crosstable.core.result_codes import is_short_of_a_game, is_unrated_play
from crosstable.formats.trf_model import Comment, TrfDocument

_MARK = re.compile(r"^ ?Arbiter's decision @ Round (\d{1,4}): (\d{1,4}) - (\d{1,4}) ")
_POINTS = {"=": "0.5", "D": "0.5", "0": "0", "L": "0", "1": "1", "W": "1"}


def decision_comment(game: Game) -> Comment:
    """The ``###`` line that says ``game``'s result was the arbiter's decision."""
    assert game.result is not None
    white, black = game.result.white.value, game.result.black.value
    score = f"{_POINTS[white]}-{_POINTS[black]}"
    if is_unrated_play(white, black):
        score += " not rated"
    text = f" Arbiter's decision @ Round {game.round}: {game.white} - {game.black} {score}"
    return Comment(text, f"001/{game.white}")


def decided(game: Game) -> bool:
    """A game whose result gives less than one game's points."""
    result = game.result
    return result is not None and is_short_of_a_game(result.white.value, result.black.value)


def decided_games(comments: Iterable[Comment]) -> frozenset[tuple[int, int, int]]:
    """(round, White, Black) of each game a comment says the arbiter decided."""
    found = set()
    for comment in comments:
        match = _MARK.match(comment.text)
        if match is not None:
            found.add((int(match[1]), int(match[2]), int(match[3])))
    return frozenset(found)


def with_decisions(doc: TrfDocument) -> TrfDocument:
    """``doc`` with a comment for each decided game, and none for a game no longer so
    (a result corrected since)."""
    wanted = [decision_comment(g) for g in _games(doc.tournament) if decided(g)]
    wanted_set = set(wanted)
    kept = [c for c in doc.comments if _MARK.match(c.text) is None or c in wanted_set]
    kept_set = set(kept)
    added = [c for c in wanted if c not in kept_set]
    if not added and len(kept) == len(doc.comments):
        return doc
    return replace(doc, comments=(*kept, *added))


def _games(tournament: Tournament) -> Iterable[Game]:
    for rnd in tournament.rounds:
        yield from rnd.games
