"""The checks of a tournament's regulations' details, one call for the creation and for
an edit of the regulations: each setting is refused with its reason before anything is
stored (a misspelt key, the finish, the kind of event, forfeits in the tie-breaks, a
long event's ratings, a timed start, the round-robin schedule, the funding), and the
class or level the tournament is for is checked against the portal's register (in the
change's transaction: the register is in the store)."""

from __future__ import annotations

from sqlalchemy.orm import Session

from crosstable.core.errors import RuleError
from crosstable.core.funding import Funding
from crosstable.core.model import System
from crosstable.core.rating_method import rating_method
from crosstable.core.schedule.kinds import check_schedule_fits, schedule_kind
from crosstable.core.system_settings import check_keys
from crosstable.service.details import Details
from crosstable.service.eligibility import check_venue_kind
from crosstable.service.finishing import check_finish_setting
from crosstable.service.levels import checked_level_detail
from crosstable.service.loading import check_forfeit_setting
from crosstable.service.long_event_settings import check_long_event_settings
from crosstable.service.round_robin import check_schedule_setting
from crosstable.service.timed_start import check_capacity, check_start_settings


def check_details(
    system: System,
    details: Details,
    *,
    before: Details | None = None,
    status: str = "registration",
) -> None:
    """Refuse a detail that does not read (``before`` and ``status``: an edit's)."""
    check_keys(system, details)  # a misspelt setting
    check_finish_setting(details)
    check_venue_kind(details)  # online or otb
    check_forfeit_setting(details)
    check_long_event_settings(details)  # over 30 days, ratings by round
    check_start_settings(system, details)  # start time, capacity
    check_schedule_setting(system, details, before, status)  # a table, an order
    Funding.read(details)  # who pays
    rating_method(details)  # which rating ranks the players


def check_first_players(system: System, details: Details, players: int) -> None:
    """Refuse first players that the regulations cannot seat: more than a knockout's
    capacity, or a round-robin field its chosen table does not have (Crenshaw-Berger's
    5 or 6)."""
    check_capacity(system, details, players)
    if players >= 3 and system is System.ROUND_ROBIN:  # (fewer: the field's own check)
        check_schedule_fits(schedule_kind(details), players)


def check_level(session: Session, details: Details) -> None:
    """Refuse a class or level that is not one of the portal's levels."""
    checked_level_detail(session, details)


#: the details a Swiss or a knockout fixes at the start (bracket, lots, colours), and
#: the rating method every system's ranking reads
FIXED_AT_START = (
    "initial_colour",
    "acceleration",
    "match_format",
    "tie_rule",
    "bracket",
    "lots_seed",
    "round_formats",
    "third_place",
    "rating_method",
)
#: fixed at the start also when the regulations had none: an acceleration added later
#: would change the pairings already made (a rating method, the ratings read after it)
NONE_ADDED = ("acceleration", "rating_method")


def check_fixed_after_start(current: Details, details: Details, *, fide: bool) -> None:
    """Refuse, once the tournament has started, a change of what the pairings depend on;
    in FIDE mode also a change of the prohibited pairs (level 5: leave FIDE mode first)."""
    for key in FIXED_AT_START:
        before = str(current.get(key, ""))
        if (key in current or key in NONE_ADDED) and str(details.get(key, "")) != before:
            raise RuleError(
                (
                    "{setting} cannot change after the start: the pairings depend on it (undo the "
                    "start first)"
                ),
                setting=key.replace("_", " "),
            )
    if fide and str(details.get("forbidden", "")) != str(current.get("forbidden", "")):
        raise RuleError(
            "prohibited pairs cannot change after the start in FIDE mode (level 5): leave "
            "FIDE mode first"
        )
