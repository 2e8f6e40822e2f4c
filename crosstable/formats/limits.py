"""The bounds every TRF or tournament-JSON input is checked against before any work.

Each limit comes from the TRF layout itself where it has one (a starting number
has 4 columns, a round in records 240/250/260 has 3), so whatever is read can be
written back. Files and lines are bounded so that a hostile or broken file costs
at most a few seconds and a bounded amount of memory (docs/trf.md,
"Limits").
"""

from __future__ import annotations

import re

#: Starting numbers 1…9 999: columns 5–8 of a ``001`` line.
MAX_PLAYERS = 9_999
#: Rounds 1…999: the round fields of records 240, 250 and 260 have three columns.
MAX_ROUNDS = 999
#: A rating has four columns (49–52) of a TRF: what a TRF file can hold.
MAX_RATING = 9_999
#: A player's rating, on every surface (the command line, the pages, CSV, the JSON API,
#: TRF and JSON import): 0 or nothing for an unrated player, else 100…4000.
#: FIDE's list holds 1400 (its floor since March 2024; 1000 before) to about 2850, but
#: TRF files carry national ratings in the same column (French and Irish events of the
#: reference data go down to 471) and engine events reach 3595, so the range is FIDE's
#: scale with room at both ends; a typo such as 20 for 2000, or 99999999999, is refused
#: at entry, before any export or import can break on it (docs/store.md, "Ratings").
LOWEST_RATING = 100
HIGHEST_RATING = 4_000
#: Bytes of a TRF or tournament-JSON file: 9 999 players of 40 rounds fit (a 300-player
#: Swiss of 11 rounds is 40 kB); a file at the limit reads in seconds, not minutes.
MAX_FILE_BYTES = 4 * 1024 * 1024
#: Lines of a TRF: 9 999 players, as many national-rating lines, and room for records.
MAX_LINES = 50_000
#: Characters of one TRF line: a ``001`` line with :data:`MAX_ROUNDS` rounds.
MAX_LINE = 91 + 10 * MAX_ROUNDS
#: Characters of one number written in a TRF (``0001``, ``4.5``, ``-1.25``).
MAX_NUMBER_TEXT = 12
#: Absolute value of any points value (a points column holds four characters).
MAX_POINTS = 9_999
#: Characters of one JSON text value (a name, a header, a comment).
MAX_TEXT = 10_000


#: Characters no TRF line and no JSON text value may hold: they break the columns or the
#: lines of a TRF (a tab is one character but several columns in an editor).
CONTROL = re.compile(r"[\x00-\x1f\x7f\x85\u2028\u2029]")


def rating_in_range(rating: int) -> bool:
    """A rating a player may have: 0 (unrated) or :data:`LOWEST_RATING`…:data:`HIGHEST_RATING`.

    >>> rating_in_range(2850), rating_in_range(0), rating_in_range(20), rating_in_range(99999)
    (True, True, False, False)
    """
    return rating == 0 or LOWEST_RATING <= rating <= HIGHEST_RATING


def is_number_text(text: str) -> bool:
    """ASCII digits only, at most :data:`MAX_NUMBER_TEXT` of them.

    ``str.isdigit`` is not enough: it accepts ``²`` and ``６``, which ``int()``
    then refuses or reads as 6.

    >>> is_number_text("0012"), is_number_text("６"), is_number_text("²874"), is_number_text("")
    (True, False, False, False)
    """
    return 0 < len(text) <= MAX_NUMBER_TEXT and text.isascii() and text.isdigit()
