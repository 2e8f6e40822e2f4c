"""The bounds every TRF or tournament-JSON input is checked against before any work.

Each limit comes from the TRF layout itself where it has one (a starting number
has 4 columns, a round in records 240/250/260 has 3), so whatever is read can be
written back. Files and lines are bounded so that a hostile or broken file costs
at most a few seconds and a bounded amount of memory (issue 13 item 4; docs/trf.md,
"Limits").
"""

from __future__ import annotations

import re

#: Starting numbers 1…9 999: columns 5–8 of a ``001`` line.
MAX_PLAYERS = 9_999
#: Rounds 1…999: the round fields of records 240, 250 and 260 have three columns.
MAX_ROUNDS = 999
#: A rating has four columns (49–52).
MAX_RATING = 9_999
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


def is_number_text(text: str) -> bool:
    """ASCII digits only, at most :data:`MAX_NUMBER_TEXT` of them.

    ``str.isdigit`` is not enough: it accepts ``²`` and ``６``, which ``int()``
    then refuses or reads as 6.

    >>> is_number_text("0012"), is_number_text("６"), is_number_text("²874"), is_number_text("")
    (True, False, False, False)
    """
    return 0 < len(text) <= MAX_NUMBER_TEXT and text.isascii() and text.isdigit()
