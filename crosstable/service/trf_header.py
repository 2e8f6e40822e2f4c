"""A stored tournament's TRF header records, and back.

A TRF is complete enough for a rating officer when its header says where, when
and under whom the tournament was played (FIDE's TRF-16 and TRF-2026 texts):

=====  ==================================  =========================================
 tag    what                                from the tournament
=====  ==================================  =========================================
 012    tournament name                     its name (written by the TRF writer)
 022    city                                the regulations' venue
 032    federation                          the regulations' federation
 042    date of start                       its start date, YYYY/MM/DD
 052    date of end                         its end date, YYYY/MM/DD
 062    number of players                   the players registered
 072    number of rated players             the players with a rating above 0
 082    number of teams                     a Scheveningen's teams (team events only)
 092    type of tournament                  its system (written by the TRF writer)
 102    chief arbiter                       the regulations' arbiter
 112    deputy chief arbiter(s)             the regulations' deputy arbiters, a line each
 122    allotted times per moves/game       its time control
 132    dates of the rounds                 the rounds' dates (written by the writer)
 XXR    number of rounds (TRF(x), 142)      the rounds planned (written by the writer)
=====  ==================================  =========================================

Reading a TRF into the store takes the same records back into the same places,
so export → import → export gives the same file.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from crosstable.core.model import Tournament

#: TRF tag → the regulations' detail it holds
DETAIL_TAGS = {"022": "venue", "032": "federation", "102": "arbiter", "112": "deputy_arbiter"}
_DATE = re.compile(r"^\s*(\d{4})[/.-](\d{2})[/.-](\d{2})\s*$")


def trf_date(value: str | None) -> str | None:
    """``2026-12-01`` → ``2026/12/01`` (the TRF's date form); None stays None."""
    if not value:
        return None
    return value.replace("-", "/")


def header_records(
    tournament: Tournament,
    *,
    details: Mapping[str, object],
    start_date: str | None,
    end_date: str | None,
    teams: int = 0,
) -> dict[str, str]:
    """The header records a stored tournament gives, by tag (empty ones left out)."""
    headers: dict[str, str] = {}
    for tag, name in DETAIL_TAGS.items():
        text = str(details.get(name, "")).strip()
        if text:
            headers[tag] = text
    for tag, value in (("042", start_date), ("052", end_date)):
        date = trf_date(value)
        if date:
            headers[tag] = date
    players = tournament.players
    headers["062"] = str(len(players))
    headers["072"] = str(sum(1 for p in players if p.rating is not None and p.rating > 0))
    if teams:
        headers["082"] = str(teams)
    if tournament.settings.time_control.strip():
        headers["122"] = tournament.settings.time_control.strip()
    return headers


@dataclass(frozen=True, slots=True)
class StoredHeader:
    """What a read TRF's header records give the stored tournament."""

    #: the regulations' details: venue, federation, arbiters (by detail name)
    details: dict[str, str] = field(default_factory=dict)
    #: the time control (record 122, at most 100 characters; None: not given)
    time_control: str | None = None
    #: the start and end dates, ISO (None: not given or not a calendar date)
    start_date: str | None = None
    end_date: str | None = None


def stored_header(headers: Mapping[str, str]) -> StoredHeader:
    """What a read TRF's header records give the stored tournament: the regulations'
    details (venue, federation, arbiters) and the start and end dates (ISO), when
    they are there and readable, and the time control; counts (062, 072, 082) are
    derived, not stored."""
    details = {
        name: headers[tag].strip()
        for tag, name in DETAIL_TAGS.items()
        if headers.get(tag, "").strip()
    }
    time_control = headers.get("122", "").strip()[:100] or None
    dates: dict[str, str | None] = {}
    for tag, column in (("042", "start_date"), ("052", "end_date")):
        found = _DATE.match(headers.get(tag, ""))
        if found is None:
            continue
        try:
            dates[column] = dt.date(*(int(part) for part in found.groups())).isoformat()
        except ValueError:
            continue  # not a calendar date: the text stays out, as an unreadable field
    return StoredHeader(
        details,
        time_control,
        start_date=dates.get("start_date"),
        end_date=dates.get("end_date"),
    )
