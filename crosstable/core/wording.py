"""English wording shared by the services' messages: a number with its noun, in the
singular for one and the plural otherwise (never "game(s)").

Error messages that the web app translates are written as two whole sentences
instead (``"1 game has …" if n == 1 else f"{n} games have …"``), so that each has its
own template in ``crosstable/web/messages.py``; these helpers serve the summaries.

>>> counted(1, "board"), counted(3, "board"), counted(2, "match", "matches")
('1 board', '3 boards', '2 matches')
>>> plural(1, "round"), plural(0, "round")
('round', 'rounds')
"""

from __future__ import annotations


def plural(count: int, singular: str, many: str | None = None) -> str:
    """``singular`` for one, else ``many`` (by default ``singular`` + "s")."""
    return singular if count == 1 else (many if many is not None else singular + "s")


def counted(count: int, singular: str, many: str | None = None) -> str:
    """``count`` and its noun: ``1 game``, ``2 games``."""
    return f"{count} {plural(count, singular, many)}"


__all__ = ["counted", "plural"]
