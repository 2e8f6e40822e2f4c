"""The month a rating list is valid for, as the user gives it or the list's name says.

FIDE's monthly archives carry the month in their names (``standard_dec26frl.zip``:
December 2026); the combined list's ``players_list.zip`` does not, and is then taken as
the list of the month it is imported in, unless the user says otherwise.

>>> month_of_name("standard_dec26frl.zip"), month_of_name("players_list.zip")
('2026-12', None)
>>> parse_month(" 2026-01 ")
'2026-01'
>>> list_month("players_list.zip", "2026-12-03"), list_month("blitz_nov26frl.zip", "2026-12-03")
('2026-12', '2026-11')
"""

from __future__ import annotations

import hashlib
import re

from crosstable.core.errors import RuleError

#: the preferences' key a list's month is kept under (keys are at most 100 characters)
MONTH_KEY = "rating-list-month:{name}@{date}"
_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_NAME_MONTH = re.compile(r"(?<![a-z])(" + "|".join(_MONTHS) + r")[_-]?([0-9]{2})(?![0-9])")
_MONTH = re.compile(r"([0-9]{4})-([0-9]{2})")


def parse_month(text: str) -> str:
    """A month as ``YYYY-MM`` (2000–2099), or a :class:`RuleError` naming what was given."""
    cleaned = text.strip()
    found = _MONTH.fullmatch(cleaned)
    if found is None or not (2000 <= int(found[1]) <= 2099 and 1 <= int(found[2]) <= 12):
        raise RuleError(
            "rating list month {month}: write it as YYYY-MM, e.g. 2026-12", month=repr(text[:20])
        )
    return cleaned


def month_of_name(name: str) -> str | None:
    """The month FIDE's archive name carries (``…_dec26…``), if it carries one."""
    found = _NAME_MONTH.search(name.lower())
    if found is None:
        return None
    return f"20{found[2]}-{_MONTHS.index(found[1]) + 1:02d}"


def list_month(name: str, imported: str, given: str | None = None) -> str:
    """The month a list is valid for: ``given``, else its name's, else the import's."""
    if given is not None and given.strip():
        return parse_month(given)
    return month_of_name(name) or imported[:7]


def month_key(name: str, imported: str) -> str:
    """Where the month of the list imported as ``name`` on ``imported`` is kept; a long
    name is shortened with a digest of the whole, so the key stays within its column.

    >>> month_key("players_list.zip", "2026-12-03")
    'rating-list-month:players_list.zip@2026-12-03'
    >>> len(month_key("x" * 200, "2026-12-03"))
    85
    """
    if len(name) > 56:
        name = name[:40] + hashlib.sha256(name.encode()).hexdigest()[:16]
    return MONTH_KEY.format(name=name, date=imported[:10])
