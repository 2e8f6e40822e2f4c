"""The bounds a rating-list file is read within (docs/rating-lists.md, "Limits").

FIDE's combined TXT list of 2026 holds about 1.8 million players in some 300 MB;
its XML list is about three times that. The bounds leave room for growth while a
hostile file still costs bounded memory and time.
"""

from __future__ import annotations

#: bytes of the list itself (after unzipping; a zip's declared and real size both)
MAX_FILE_BYTES = 2 * 1024 * 1024 * 1024
#: players in one list
MAX_PLAYERS = 3_000_000
#: characters of one TXT line (FIDE's are 162)
MAX_TXT_LINE = 400
#: characters of one CSV line
MAX_CSV_LINE = 4_000
#: characters of one XML field (<name>…</name>)
MAX_FIELD = 400
#: bad lines skipped and reported before the whole file is refused
MAX_PROBLEMS = 1_000
