"""What the series' pages show beyond the services' plain values:
moments for the reader's zone, the registration button's state, and an edition's
groups with their standings and qualifiers marked.

Moments: the server writes each in the series' zone, the zone named, inside
``<time datetime=ISO data-local>``; ``static/zones.js`` rewrites it in the browser's
zone (the zone named), so a reader sees his own time and the page still states the
series' one (the element's title). Without script the series' zone stays.

Qualifiers on an edition's page: a stage that ended marks the players who went on
(the stage's recorded end: a player who played no game does not go on,
whatever his place); a stage being played marks the places that qualify if it ended
now (its top ``qualifiers_per_group``), provisional; the last stage marks its winner.
"""

from __future__ import annotations

import datetime as dt
from typing import Any
from zoneinfo import ZoneInfo

from crosstable.service.series.views import edition_board, registered_names, registration_state
from crosstable.web import i18n
from crosstable.web.security import Caller

#: groups shown with their standings on an edition's page (the rest are linked)
MAX_TABLES = 60
#: groups whose whole crosstable is also on the page (a small stage)
MAX_CROSSTABLES = 8


def local_moment(value: str | None, zone: str) -> dict[str, str] | None:
    """A stored UTC moment: ISO for the browser's script, and its text in ``zone``."""
    if not value:
        return None
    moment = dt.datetime.fromisoformat(value)
    shown = moment.astimezone(ZoneInfo(zone))
    return {"iso": moment.isoformat(), "text": f"{i18n.moment_text(shown)} ({zone})"}


def button_state(site: Any, caller: Caller, edition: dict[str, Any]) -> dict[str, Any]:
    """The registration button of an edition: ``phase`` (open, extended, closed,
    started), ``until``, and whether the caller is registered (``mine``)."""
    state = registration_state(site.service, int(edition["id"]))
    mine = False
    if caller.user is not None:
        mine = bool(registered_names(site.service, int(edition["id"]), int(caller.user.id)))
    return state | {"mine": mine}


def _group_table(
    site: Any,
    group: dict[str, Any],
    stage: dict[str, Any],
    caller: Caller,
    entries: dict[int, Any],
    last: bool,
) -> dict[str, Any] | None:
    tid = group.get("tournament")
    if not tid:
        return None
    _view, table = site.service.crosstable(int(tid))
    keys: list[int] = group["keys"]
    qualified = stage.get("qualified")
    per_group = int(stage.get("qualifiers_per_group") or 0)
    lines = {line.start: line for line in table.lines}
    order = list(table.ranked) or sorted(lines)
    rows = []
    for position, start in enumerate(order, 1):
        line = lines[start]
        key = keys[start - 1] if 0 < start <= len(keys) else None
        entry = entries.get(key) if key is not None else None
        if qualified is not None:
            mark = "qualified" if per_group and key in qualified else ""
            if last and position == 1 and line.rank == 1:
                mark = "winner"
        else:
            mark = "qualifying" if per_group and position <= per_group else ""
        mine = bool(caller.user is not None and entry and entry["user"] == caller.user.id)
        rows.append(
            {
                "place": line.place or (str(line.rank) if line.rank else ""),
                "name": line.name,
                "start": start,
                "points": line.points,
                "played": line.played,
                "mark": mark,
                "mine": mine,
            }
        )
    return {"table": table, "rows": rows}


def edition_context(site: Any, caller: Caller, info: dict[str, Any], number: int) -> dict[str, Any]:
    """The edition page's values: the edition with its stages, each group's standings."""
    board = edition_board(site.service, int(info["id"]), number)
    entries = {int(k): v for k, v in board.pop("entries").items()}
    stages = board["stages"]
    shown = 0
    mine_group = None
    for index, stage in enumerate(stages):
        last = index == len(stages) - 1 and board["state"] == "finished"
        for group in stage["groups"]:
            group["view"] = None
            if shown < MAX_TABLES:
                group["view"] = _group_table(site, group, stage, caller, entries, last)
                shown += 1
            if group["view"] and any(row["mine"] for row in group["view"]["rows"]):
                mine_group = {"stage": stage, "group": group}
    small = sum(len(stage["groups"]) for stage in stages) <= MAX_CROSSTABLES
    zone = str(info["zone"])
    return {
        "e": board,
        "small": small,
        "mine_group": mine_group,
        "start": local_moment(board["planned_start"], zone),
        "finished": local_moment(board.get("finished_at"), zone),
        "button": button_state(site, caller, board) if board["state"] == "registration" else None,
        "moment_of": lambda value: local_moment(value, zone),
    }
