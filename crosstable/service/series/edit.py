"""Editing a series: its name, the stages' format, tie-breaks, time
control, pre-registration, the deadline's lead and whether it is paused (no edition
opens by itself while it is) — one transaction, one line of the
series' history naming what changed (old → new).

The calendar (kind, weekday or day, start time, zone) is not edited: seed 002 fixes
the start time when the series starts, and the open edition's start and deadline are
already on it. A change of the format applies to the stages made from then on (a
stage already made keeps its groups); a new deadline lead to the editions opened
from then on. Every value is checked by the same rules as at creation.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from crosstable.core.errors import RuleError
from crosstable.core.model import System
from crosstable.core.text import Message
from crosstable.core.tiebreaks.picker import check_offered
from crosstable.service.players import check_tiebreaks
from crosstable.service.series.editions import checked_settings, series_row
from crosstable.service.series.lines import record
from crosstable.service.series.needs import StoreAndClock
from crosstable.service.series.shown import series_rules

MAX_TIME_CONTROL = 100  # the column's width
#: what an edit may change (the rest of the series is the calendar)
EDITABLE = (
    "name",
    "max_group_size",
    "qualifiers_per_group",
    "final_min",
    "group_cycles",
    "final_cycles",
    "super_final_players",
    "super_final_cycles",
    "tiebreaks",
    "time_control",
    "pre_registration",
    "deadline_minutes",
    "paused",
)


@dataclass(frozen=True, slots=True)
class SeriesChanges:
    """The new values (None: unchanged)."""

    name: str | None = None
    max_group_size: int | None = None
    qualifiers_per_group: int | None = None
    final_min: int | None = None
    group_cycles: int | None = None
    final_cycles: int | None = None
    super_final_players: int | None = None
    super_final_cycles: int | None = None
    tiebreaks: tuple[str, ...] | None = None
    time_control: str | None = None
    pre_registration: bool | None = None
    deadline_minutes: int | None = None
    #: True: the series is paused — the tick opens no edition of it by itself
    paused: bool | None = None


def edit_series(
    service: StoreAndClock, series_id: int, changes: SeriesChanges, *, actor: str = ""
) -> list[str]:
    """Change the series; what changed, one ``field: old → new`` each (none: nothing)."""
    wanted = {name: getattr(changes, name) for name in EDITABLE}
    wanted = {name: value for name, value in wanted.items() if value is not None}
    at = service.clock.now().isoformat(timespec="microseconds")
    with service.store.transaction() as session:
        row = series_row(session, series_id, lock=True)
        before = series_rules(row)
        after = replace(before, **wanted)
        name, _calendar = checked_settings(after)
        tiebreaks = check_tiebreaks(after.tiebreaks)
        check_offered(System.ROUND_ROBIN, tiebreaks, fide=True)  # its groups' picker
        after = replace(
            after, name=name, tiebreaks=tiebreaks, time_control=after.time_control.strip()
        )
        if len(after.time_control) > MAX_TIME_CONTROL:
            raise RuleError(
                "a time control is at most {count} characters long", count=MAX_TIME_CONTROL
            )
        said: list[str] = []
        fields: list[str] = []
        for field_name in EDITABLE:
            old, new = getattr(before, field_name), getattr(after, field_name)
            if old == new:
                continue
            shown = (lambda v: ",".join(v) or "-") if field_name == "tiebreaks" else str
            if field_name == "name":  # ("name" alone would be looked up in every message)
                line = Message("name: {before} → {after}", before=old, after=new)
            else:
                line = Message(
                    "{field}: {before} → {after}",
                    field=field_name,
                    before=shown(old),
                    after=shown(new),
                )
            said.append(line)
            fields.append(field_name)
            setattr(row, field_name, ",".join(new) if field_name == "tiebreaks" else new)
        if said:
            record(
                session,
                row.id,
                None,
                "edit",
                Message(
                    "series {id} edited — {changes}", id=row.id, changes=Message.joined("; ", said)
                ),
                at=at,
                actor=actor,
                data={"changed": fields},
            )
        return said
