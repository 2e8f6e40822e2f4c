"""`crosstable series slots|groups|plan` — a series' calendar and stages;
`crosstable series create|open|pause|show|editions|register|withdraw|history` — a series in a
database.

    crosstable series slots --kind weekend --time 18:00 --tz Europe/Moscow \\
        --from 2026-12-05 --count 4 --format json
    crosstable series slots --kind monthly --day 31 --time 12:00 --tz Europe/Berlin \\
        --from 2027-01-01 --count 12 --format ics
    crosstable series groups --players 23 [--max-size 10] --format json
    crosstable series plan --players 40 --format json
    crosstable series create "Workday blitz" --kind workdays --time 19:00 --tz Europe/Moscow
    crosstable series register 1 "Anna Petrova" --rating 1850

The rules are in docs/series.md; the core is :mod:`crosstable.core.series`.
"""

from __future__ import annotations

import datetime as dt
import json
import re
import zoneinfo
from collections.abc import Iterator
from contextlib import contextmanager
from enum import StrEnum
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.table import Table

from crosstable.core.errors import InputError
from crosstable.core.series.calendar import (
    MAX_SLOTS,
    CalendarKind,
    SeriesCalendar,
    weekday_number,
)
from crosstable.core.series.groups import DEFAULT_MAX_GROUP_SIZE, group_sizes_for
from crosstable.core.series.plan import SeriesFormat, plan_series
from crosstable.core.series.sequence import edition_slots

if TYPE_CHECKING:  # the store and services load only when a command needs them
    from crosstable.service import Service

series_app = typer.Typer(
    help="A series' calendar slots, stage groups and stage plan; series in a database.",
    no_args_is_help=True,
)

_TIME = re.compile(r"^([01]\d|2[0-3]):([0-5]\d)$")


class SlotsFormat(StrEnum):
    JSON = "json"
    TABLE = "table"
    ICS = "ics"


class OutputFormat(StrEnum):
    JSON = "json"
    TABLE = "table"


def register(app: typer.Typer) -> None:
    """Add ``crosstable series`` to ``app``."""
    app.add_typer(series_app, name="series")


def _option(name: str, message: str) -> InputError:
    return InputError(message, source=name)


def parse_time(text: str) -> dt.time:
    """``HH:MM`` (24-hour) → a wall-clock time."""
    found = _TIME.match(text.strip())
    if not found:
        raise _option("--time", f"{text!r} is not a time HH:MM (00:00 to 23:59)")
    return dt.time(int(found[1]), int(found[2]))


def parse_zone(text: str) -> zoneinfo.ZoneInfo:
    """An IANA time zone name (``Europe/Moscow``) → its zone."""
    name = text.strip()
    if not name or name.startswith("/") or ".." in name:
        raise _option("--tz", f"{text!r} is not a time zone name (e.g. Europe/Moscow)")
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError, OSError):
        raise _option(
            "--tz", f"unknown time zone {text!r} (an IANA name such as Europe/Moscow)"
        ) from None


def parse_date(text: str) -> dt.date:
    try:
        return dt.date.fromisoformat(text.strip())
    except ValueError:
        raise _option("--from", f"{text!r} is not a date YYYY-MM-DD") from None


def series_calendar(
    kind: CalendarKind, weekday: str | None, day: int | None, time: str, tz: str
) -> SeriesCalendar:
    """The calendar the options describe (every option checked, one message each)."""
    if weekday is not None and kind not in (CalendarKind.WEEKLY, CalendarKind.WEEKEND):
        raise _option(
            "--weekday", f"a {kind.value} series has no weekday (only --kind weekly or weekend)"
        )
    if day is not None and kind is not CalendarKind.MONTHLY:
        raise _option(
            "--day", f"a {kind.value} series has no day of the month (only --kind monthly)"
        )
    if kind is CalendarKind.WEEKLY and weekday is None:
        raise _option("--weekday", "a weekly series needs its weekday (mon…sun)")
    if kind is CalendarKind.MONTHLY:
        if day is None:
            raise _option("--day", "a monthly series needs its day of the month (1…31)")
        if not 1 <= day <= 31:
            raise _option("--day", f"{day} is not a day of the month (1…31)")
    number = None
    if weekday is not None:
        try:
            number = weekday_number(weekday)
        except ValueError:
            raise _option("--weekday", f"{weekday!r} is not a weekday (mon…sun)") from None
        if kind is CalendarKind.WEEKEND and number < 5:
            raise _option("--weekday", f"a weekend series plays on sat or sun, not {weekday!r}")
    # a regular series may go without a time of day (--time ""): it starts a day after
    # the previous edition ends
    wall = None if kind is CalendarKind.REGULAR and not time.strip() else parse_time(time)
    return SeriesCalendar(kind, wall, parse_zone(tz), number, day)


@series_app.command("slots")
def slots_command(
    kind: Annotated[
        CalendarKind,
        typer.Option("--kind", help="weekend, workdays, weekly, monthly (regular has no slots)."),
    ],
    time: Annotated[str, typer.Option("--time", help="Local start time HH:MM (24-hour).")],
    tz: Annotated[str, typer.Option("--tz", help="The series' time zone, e.g. Europe/Moscow.")],
    start: Annotated[
        str, typer.Option("--from", help="First date YYYY-MM-DD (in the series' zone).")
    ],
    count: Annotated[int, typer.Option("--count", "-n", help=f"How many slots (1…{MAX_SLOTS}).")],
    weekday: Annotated[
        str | None, typer.Option("--weekday", help="mon…sun (weekly); sat or sun (weekend).")
    ] = None,
    day: Annotated[
        int | None, typer.Option("--day", help="Day of the month 1…31 (monthly only).")
    ] = None,
    name: Annotated[str, typer.Option("--name", help="The series' name (ics only).")] = "Series",
    output: Annotated[
        SlotsFormat, typer.Option("--format", "-f", help="json, a readable table, or ics.")
    ] = SlotsFormat.TABLE,
) -> None:
    """The next N start times of a series on or after a date.

    The editions' sequence: weekend: the series' weekend day every week
    (--weekday sat or sun; without it every Saturday and Sunday, the days a postponed
    start moves to); workdays: Monday to Friday; weekly: the chosen weekday; monthly:
    the chosen day, or the month's last day when shorter.
    Each at the local time with that day's UTC offset; a time that a daylight-saving
    change skips moves forward by the gap, a repeated hour is its first occurrence.
    """
    if kind is CalendarKind.REGULAR:
        raise _option(
            "--kind",
            "a regular series has no calendar slots: each edition starts as soon as "
            "the previous one ends",
        )
    calendar = series_calendar(kind, weekday, day, time, tz)
    first = parse_date(start)
    if not 1 <= count <= MAX_SLOTS:
        raise _option("--count", f"{count}: between 1 and {MAX_SLOTS} slots")
    found = edition_slots(calendar, first, count)
    if output is SlotsFormat.JSON:
        typer.echo(json.dumps({"slots": [s.isoformat() for s in found]}, indent=2))
        return
    if output is SlotsFormat.ICS:
        from crosstable.formats.ical import series_feed  # deferred: icalendar (start-up time)

        stamp = dt.datetime(first.year, first.month, first.day, tzinfo=dt.UTC)
        feed = series_feed(name, found, series_id=_slug(name), stamp=stamp)
        typer.echo(feed.decode("utf-8"), nl=False)
        return
    table = Table(title=f"{kind.value} series at {time} {calendar.zone_name}")
    table.add_column("#", justify="right")
    table.add_column("Day")
    table.add_column("Start (local)")
    table.add_column("UTC offset")
    table.add_column("UTC")
    for number, slot in enumerate(found, 1):
        table.add_row(
            str(number),
            slot.strftime("%a"),
            slot.strftime("%Y-%m-%d %H:%M"),
            slot.strftime("%z")[:3] + ":" + slot.strftime("%z")[3:],
            slot.astimezone(dt.UTC).strftime("%Y-%m-%d %H:%M"),
        )
    Console().print(table)


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "series"


@series_app.command("groups")
def groups_command(
    players: Annotated[int, typer.Option("--players", "-n", help="Entries in the stage.")],
    max_size: Annotated[
        int, typer.Option("--max-size", "-g", help="Most players in one group.")
    ] = DEFAULT_MAX_GROUP_SIZE,
    output: Annotated[
        OutputFormat, typer.Option("--format", "-f", help="json or a readable table.")
    ] = OutputFormat.TABLE,
) -> None:
    """The stage's groups: the fewest of at most --max-size players
    (default 10), sizes differing by at most one, none under 3, largest first."""
    sizes = group_sizes_for(players, max_size)
    if output is OutputFormat.JSON:
        typer.echo(json.dumps({"groups": list(sizes)}, indent=2))
        return
    table = Table(title=f"{players} players, at most {max_size} a group: {len(sizes)} groups")
    table.add_column("Groups", justify="right")
    table.add_column("Players each", justify="right")
    for size in sorted(set(sizes), reverse=True):
        table.add_row(str(sizes.count(size)), str(size))
    Console().print(table)


@series_app.command("plan")
def plan_command(
    players: Annotated[int, typer.Option("--players", "-n", help="Entries in stage 1.")],
    max_size: Annotated[
        int, typer.Option("--max-size", "-g", help="Most players in one group.")
    ] = DEFAULT_MAX_GROUP_SIZE,
    qualifiers: Annotated[
        int, typer.Option("--qualifiers", "-q", help="Qualifiers per group.")
    ] = 2,
    final_min: Annotated[int, typer.Option("--final-min", help="Fewest players in the final.")] = 6,
    super_final: Annotated[
        int, typer.Option("--super-final", help="The final's top k play the super-final (0: none).")
    ] = 4,
    output: Annotated[
        OutputFormat, typer.Option("--format", "-f", help="json or a readable table.")
    ] = OutputFormat.TABLE,
) -> None:
    """Every stage of an edition if everyone plays: groups → … → final → super-final."""
    fmt = SeriesFormat(
        max_group_size=max_size,
        qualifiers_per_group=qualifiers,
        final_min=final_min,
        super_final_players=super_final,
    )
    stages = plan_series(players, fmt)
    if output is OutputFormat.JSON:
        typer.echo(json.dumps({"stages": [s.to_json() for s in stages]}, indent=2))
        return
    table = Table(title=f"An edition of {players} players")
    for column in ("Stage", "Kind", "Players", "Groups", "Go on", "Rounds", "Games"):
        table.add_column(column, justify="right" if column != "Kind" else "left")
    for s in stages:
        sizes = sorted(set(s.group_sizes), reverse=True)
        groups = " + ".join(f"{s.group_sizes.count(n)}×{n}" for n in sizes)
        table.add_row(
            str(s.number),
            s.kind.value,
            str(s.players),
            groups,
            str(s.qualifiers),
            str(s.rounds),
            str(s.games),
        )
    Console().print(table)


# -- the organiser's commands over a database ----------------------------------

DbOption = Annotated[
    str | None,
    typer.Option("--db", envvar="CROSSTABLE_DB", help="Database file or postgresql:// URL."),
]
NowOption = Annotated[
    str | None,
    typer.Option(
        "--now",
        help="Act as if it were this moment (ISO with its offset). For demos and tests only.",
    ),
]


def parse_now(text: str | None) -> dt.datetime | None:
    """``--now``: an ISO date-time with its UTC offset (None: the real clock)."""
    if text is None:
        return None
    try:
        moment = dt.datetime.fromisoformat(text.strip())
    except ValueError:
        moment = None
    if moment is None or moment.tzinfo is None:
        raise _option(
            "--now",
            f"{text!r} is not a date-time with its UTC offset (e.g. 2026-12-01T18:00:00+03:00)",
        )
    return moment


@contextmanager
def series_service(db: str | None, now: str | None) -> Iterator[Service]:
    """The services over ``db``; the clock stands at ``now`` when it is given."""
    from crosstable.service import FixedClock, Service  # deferred: service layer
    from crosstable.store import open_store  # deferred: SQLAlchemy (start-up time)

    moment = parse_now(now)
    store = open_store(db)
    try:
        yield Service(store, clock=None if moment is None else FixedClock(moment))
    finally:
        store.close()


@series_app.command("create")
def create_command(
    name: Annotated[str, typer.Argument(help="The series' name.")],
    kind: Annotated[
        CalendarKind, typer.Option("--kind", help="weekend, workdays, weekly, monthly, regular.")
    ],
    time: Annotated[str, typer.Option("--time", help="Local start time HH:MM (24-hour).")],
    tz: Annotated[str, typer.Option("--tz", help="The series' time zone, e.g. Europe/Moscow.")],
    weekday: Annotated[
        str | None, typer.Option("--weekday", help="mon…sun (weekly); sat or sun (weekend).")
    ] = None,
    day: Annotated[
        int | None, typer.Option("--day", help="Day of the month 1…31 (monthly only).")
    ] = None,
    max_size: Annotated[
        int, typer.Option("--max-size", "-g", help="Most players in one group.")
    ] = DEFAULT_MAX_GROUP_SIZE,
    qualifiers: Annotated[
        int, typer.Option("--qualifiers", "-q", help="Qualifiers per group.")
    ] = 2,
    final_min: Annotated[int, typer.Option("--final-min", help="Fewest players in the final.")] = 6,
    super_final: Annotated[
        int, typer.Option("--super-final", help="The final's top k play the super-final (0: none).")
    ] = 4,
    tiebreaks: Annotated[
        str, typer.Option("--tiebreaks", help="FIDE tie-break codes, comma-separated.")
    ] = "",
    time_control: Annotated[str, typer.Option("--time-control", help="e.g. G/5 d3.")] = "",
    pre_registration: Annotated[
        bool, typer.Option("--pre-registration", help="Editions are never extended.")
    ] = False,
    deadline: Annotated[
        int, typer.Option("--deadline", help="Registration closes this many minutes before.")
    ] = 60,
    battle: Annotated[
        bool,
        typer.Option(
            "--battle",
            help="Battle chess: every group's colours drawn by the computer before each game.",
        ),
    ] = False,
    setup_minutes: Annotated[
        int | None, typer.Option("--setup-minutes", help="Battle chess: the set-up time (1…120).")
    ] = None,
    db: DbOption = None,
    now: NowOption = None,
) -> None:
    """Create a series and open its first edition at the calendar's next slot."""
    from crosstable.service.series import SeriesSettings  # deferred: service layer

    calendar = series_calendar(kind, weekday, day, time, tz)
    settings = SeriesSettings(
        name=name,
        kind=kind.value,
        start_time=time.strip(),
        zone=calendar.zone_name,
        weekday=calendar.weekday,
        day=calendar.day,
        max_group_size=max_size,
        qualifiers_per_group=qualifiers,
        final_min=final_min,
        super_final_players=super_final,
        tiebreaks=tuple(code for code in tiebreaks.split(",") if code.strip()),
        time_control=time_control,
        pre_registration=pre_registration,
        deadline_minutes=deadline,
        variant="battle" if battle else "",
        setup_minutes=setup_minutes,
    )
    with series_service(db, now) as service:
        sid = service.create_series(settings)
        edition = service.edition_info(service.open_edition(sid))
    typer.echo(
        f"series {sid} “{' '.join(name.split())}” created; edition {edition.number} "
        f"(id {edition.id}) starts {edition.planned_start}, registration until "
        f"{edition.deadline}"
    )


@series_app.command("open")
def open_command(
    series: Annotated[int, typer.Argument(help="The series' id.")],
    db: DbOption = None,
    now: NowOption = None,
) -> None:
    """Open the series' next edition (after the last one's start)."""
    with series_service(db, now) as service:
        edition = service.edition_info(service.open_edition(series))
    typer.echo(
        f"edition {edition.number} (id {edition.id}) starts {edition.planned_start}, "
        f"registration until {edition.deadline}"
    )


@series_app.command("pause")
def pause_command(
    series: Annotated[int, typer.Argument(help="The series' id.")],
    resume: Annotated[
        bool, typer.Option("--resume", help="Go on: the next edition opens by itself again.")
    ] = False,
    db: DbOption = None,
    now: NowOption = None,
) -> None:
    """Pause the series: no edition opens by itself (`series open` still opens one)."""
    from crosstable.service.series.edit import SeriesChanges, edit_series  # deferred: service layer

    with series_service(db, now) as service:
        changed = edit_series(service, series, SeriesChanges(paused=not resume), actor="cli")
    state = "goes on" if resume else "is paused"
    typer.echo(f"series {series} {state}" + ("" if changed else " already"))


@series_app.command("show")
def show_command(
    series: Annotated[int, typer.Argument(help="The series' id.")],
    output: Annotated[
        OutputFormat, typer.Option("--format", "-f", help="json or a readable table.")
    ] = OutputFormat.TABLE,
    db: DbOption = None,
) -> None:
    """A series: its calendar, its format and its editions."""
    with series_service(db, None) as service:
        info = service.series_info(series)
    if output is OutputFormat.JSON:
        typer.echo(json.dumps(info.as_json(), indent=2, ensure_ascii=False))
        return
    table = Table(title=f"series {info.id} “{info.name}”", show_header=False)
    for key, value in info.items():
        if key not in ("id", "name", "editions"):
            table.add_row(key.replace("_", " "), "" if value is None else str(value))
    table.add_row("editions", str(len(info.editions)))
    Console().print(table)


@series_app.command("editions")
def editions_command(
    series: Annotated[int, typer.Argument(help="The series' id.")],
    output: Annotated[
        OutputFormat, typer.Option("--format", "-f", help="json or a readable table.")
    ] = OutputFormat.TABLE,
    db: DbOption = None,
) -> None:
    """The series' editions: start, deadline, state, stage, registered players."""
    with series_service(db, None) as service:
        editions = service.series_info(series).editions
    if output is OutputFormat.JSON:
        typer.echo(json.dumps({"editions": [e.as_json() for e in editions]}, indent=2))
        return
    table = Table(title=f"editions of series {series}")
    for column in ("#", "Id", "Start (UTC)", "State", "Stage", "Registered", "Moved"):
        table.add_column(column)
    for e in editions:
        table.add_row(
            str(e.number),
            str(e.id),
            e.planned_start,
            e.state,
            str(e.stage),
            str(e.registered),
            str(e.postponed),
        )
    Console().print(table)


@series_app.command("register")
def register_command(
    edition: Annotated[int, typer.Argument(help="The edition's id.")],
    name: Annotated[str, typer.Argument(help="The player's name.")],
    rating: Annotated[int | None, typer.Option("--rating", help="The player's rating.")] = None,
    db: DbOption = None,
    now: NowOption = None,
) -> None:
    """Register a player for an edition's stage 1 (until the deadline)."""
    with series_service(db, now) as service:
        service.register_for_edition(edition, name, rating=rating)
    typer.echo(f"{' '.join(name.split())} registered for edition {edition}")


@series_app.command("withdraw")
def withdraw_command(
    edition: Annotated[int, typer.Argument(help="The edition's id.")],
    name: Annotated[str, typer.Argument(help="The player's name.")],
    db: DbOption = None,
    now: NowOption = None,
) -> None:
    """Withdraw a player from an edition (only before stage 1 starts)."""
    with series_service(db, now) as service:
        service.withdraw_from_edition(edition, name)
    typer.echo(f"{' '.join(name.split())} withdrew from edition {edition}")


@series_app.command("register-stage")
def register_stage_command(
    edition: Annotated[int, typer.Argument(help="The edition's id.")],
    name: Annotated[str, typer.Argument(help="The player's name.")],
    db: DbOption = None,
    now: NowOption = None,
) -> None:
    """A qualifier confirms their place in the current stage 2 or later (within two weeks
    of its start)."""
    # registration for stage 2 and later closes two weeks after that stage starts
    with series_service(db, now) as service:
        service.register_for_stage(edition, name)
        window = service.stage_window(edition)
    typer.echo(
        f"{' '.join(name.split())} registered for stage {window['stage']} of edition "
        f"{edition} (open until {window['closes']})"
    )


@series_app.command("withdraw-stage")
def withdraw_stage_command(
    edition: Annotated[int, typer.Argument(help="The edition's id.")],
    name: Annotated[str, typer.Argument(help="The player's name.")],
    db: DbOption = None,
    now: NowOption = None,
) -> None:
    """A player leaves the current stage 2 or later (within two weeks of its start; their
    group's withdrawal rule applies)."""
    with series_service(db, now) as service:
        window = service.stage_window(edition)
        service.withdraw_from_stage(edition, name)
    typer.echo(
        f"{' '.join(name.split())} withdrew from stage {window['stage']} of edition {edition}"
    )


@series_app.command("history")
def history_command(
    series: Annotated[int, typer.Argument(help="The series' id.")],
    output: Annotated[
        OutputFormat, typer.Option("--format", "-f", help="json or one line per step.")
    ] = OutputFormat.TABLE,
    db: DbOption = None,
) -> None:
    """The series' history: every registration, withdrawal and time-driven step."""
    with series_service(db, None) as service:
        lines = service.series_history(series)
    if output is OutputFormat.JSON:
        shown = [line.as_json() for line in lines]
        typer.echo(json.dumps({"history": shown}, indent=2, ensure_ascii=False))
        return
    for line in lines:
        typer.echo(f"{line.at[:19]}  {line.kind:<12} {line.summary}")
