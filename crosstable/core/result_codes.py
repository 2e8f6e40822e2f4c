"""A game's result as its two TRF codes: its spellings, its label and its contradictions.

Besides the usual results (``1-0``, ``½-½``, ``0-1``) and forfeits (``+-``, ``-+``,
``--``), an arbiter may decide a result that gives less than one game's points
(``½-0``, ``0-½``, ``0-0``), and a game may be played but not rated: TRF's codes
``W D L`` (``1-0u``, ``½-½u``, ``0-1u``; an arbiter's ``½-0u`` … too). A result
giving more than one game's points, or mixing a rated side with an unrated one, is a
contradiction and refused:

>>> codes_of("0.5-0"), codes_of("0-1/2"), codes_of("0-0"), codes_of("1-0u"), codes_of("½-½ u")
('=0', '0=', '00', 'WL', 'DD')
>>> label_of("=", "0"), label_of("L", "W")
('½-0', 'LW')
>>> check_codes("1", "1")
Traceback (most recent call last):
...
crosstable.core.errors.RuleError: result 1-1: the two players together get more than one game gives
>>> check_codes("1", "L")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
crosstable.core.errors.RuleError: result 1L: one side is rated and the other is not ...
"""

from __future__ import annotations

from crosstable.core.errors import RuleError

#: each code's points on the 1-½-0 scale, doubled: a game gives at most 2
_RATED = {"1": 2, "=": 1, "0": 0}
_UNRATED = {"W": 2, "D": 1, "L": 0}
_FORFEITS = frozenset({("+", "-"), ("-", "+"), ("-", "-")})
_UNDECIDED = frozenset({" ", "*"})
#: one side's value, as a player's points are written
_SIDES = {"1": "1", "0": "0", "½": "=", "1/2": "=", "0.5": "=", ",5": "=", ".5": "=", "0,5": "="}
_ALIASES = {
    "=": "==",
    "=-=": "==",
    "+-": "+-",
    "-+": "-+",
    "--": "--",
    "+/-": "+-",
    "-/+": "-+",
    "*": "**",
    # TRF's codes of a game played but not rated (battle chess writes its set-up
    # timeouts so): as the label shows them
    "WL": "WL",
    "LW": "LW",
    "DD": "DD",
    "DL": "DL",
    "LD": "LD",
    "LL": "LL",
}
_UNRATED_OF = {"1": "W", "=": "D", "0": "L"}
_LABELS = {("1", "0"): "1-0", ("0", "1"): "0-1", ("=", "="): "½-½", ("*", "*"): "*"}


def codes_of(text: str) -> str:
    """The two codes (White's, Black's) of a result as a user writes it."""
    cleaned = text.strip().replace(" ", "").replace("–", "-").replace("—", "-")
    unrated = False
    for suffix in ("unrated", "u"):
        if cleaned.lower().endswith(suffix) and len(cleaned) > len(suffix):
            cleaned, unrated = cleaned[: -len(suffix)], True
            break
    codes = _ALIASES.get(cleaned.upper() if cleaned.isalpha() else cleaned)
    if codes is None and cleaned.count("-") == 1:
        white, black = cleaned.split("-")
        if white in _SIDES and black in _SIDES:
            codes = _SIDES[white] + _SIDES[black]
    if codes is None:
        raise RuleError(
            (
                "result {text} not understood: use 1-0, ½-½ (or 1/2-1/2, 0.5-0.5, =), 0-1, +-, "
                "-+ or --; an arbiter's ½-0, 0-½ or 0-0; played but not rated 1-0u, ½-½u, 0-1u"
            ),
            text=repr(text),
        )
    if unrated:
        if codes[0] not in _RATED or codes[1] not in _RATED:
            raise RuleError(
                "result {text}: only a game played at the board can be played but unrated "
                "(1-0u, ½-½u, 0-1u, ½-0u, 0-½u, 0-0u)",
                text=repr(text),
            )
        codes = _UNRATED_OF[codes[0]] + _UNRATED_OF[codes[1]]
    check_codes(codes[0], codes[1])
    return codes


def check_codes(white: str, black: str) -> None:
    """Refuse a pair of codes that contradict each other (the bye codes are the caller's)."""
    if white in "+-" or black in "+-":
        if (white, black) not in _FORFEITS:
            raise RuleError(
                "result {white}{black}: a forfeit is +- , -+ or --",
                white="",
                black=f"{white}{black}",
            )
        return
    if (white in _UNDECIDED) != (black in _UNDECIDED):
        raise RuleError(
            "result {result}: one side has a result and the other has none",
            result=white + black,
        )
    for scale in (_RATED, _UNRATED):
        if white in scale and black in scale:
            if scale[white] + scale[black] > 2:
                raise RuleError(
                    "result {result}: the two players together get more than one game gives",
                    result=label_of(white, black),
                )
            return
    if white in _UNDECIDED:
        return
    raise RuleError(
        "result {result}: one side is rated and the other is not (played but unrated: "
        "WL, DD, LW …)",
        result=white + black,
    )


def label_of(white: str, black: str) -> str:
    """``1-0``, ``½-½``, ``½-0``, ``0-0``; a forfeit or an unrated game as its codes."""
    if white in _RATED and black in _RATED:
        half = {"1": "1", "=": "½", "0": "0"}
        return _LABELS.get((white, black), f"{half[white]}-{half[black]}")
    return _LABELS.get((white, black), white + black)


def is_short_of_a_game(white: str, black: str) -> bool:
    """An arbiter's result that gives less than one game: ``½-0``, ``0-½``, ``0-0`` (and
    unrated ``DL``, ``LD``, ``LL``)."""
    for scale in (_RATED, _UNRATED):
        if white in scale and black in scale:
            return scale[white] + scale[black] < 2
    return False


def is_unrated_play(white: str, black: str) -> bool:
    """A game played at the board but not rated (TRF's ``W D L``)."""
    return white in _UNRATED and black in _UNRATED
