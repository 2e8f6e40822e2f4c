"""The demo of ``crosstable demo --series``: a workdays series with a simulated
season of three editions over three weeks of injected time, in the demo database.

* Edition 1: 10 players by the deadline — fewer than 15, so the start moves to the
  next workday (everyone told); 30 more register, 40 play stage 1 in four
  groups of 10; one of them wins every game by forfeit and, having played none, does
  not go on; the final and the super-final follow by themselves.
* Editions 2 and 3: 26 and 18 players, their groups, final and super-final. Each
  opened by itself on the next workday once the edition before
  had started its stage 1 — only edition 1 is opened by the organiser.
* Edition 4, opened by itself too, is open for registration on the real calendar, so a
  visitor can register: its slot went by while the season's clock ran ahead, so the
  tick at the real ``now`` moves its start to the first slot whose deadline is still
  ahead (for any ``now``, whatever its weekday or hour).

Every step is the product's own: registration through the service, the clock-driven
steps by :meth:`Service.tick` with the clock moved (not slept), results through
``record_result``. The demo login (``demo``) plays in every edition, so its
notifications (the header's badge, ``/notifications``) show what a player is told.
The results are drawn by a seeded random source, so a season is the same every time.
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass
from zoneinfo import ZoneInfo

from crosstable.service import Service
from crosstable.service.accounts import Accounts
from crosstable.service.series import SeriesSettings
from crosstable.service.series.shown import Shown
from crosstable.service.series.views import StageView, edition_by_number
from crosstable.web.demo import USERNAME, demo_organiser

#: the preference that remembers the demo series once built
BUILT = "demo.series"
NAME = "Рабочие дни — блиц (demo)"
ZONE = "Europe/Moscow"
#: the player who wins every game of edition 1 by forfeit (and does not go on)
FORFEITER = "Фома Неявкин"
FIRST = ("Анна", "Борис", "Вера", "Глеб", "Дина", "Егор", "Жанна", "Захар", "Ирина", "Кирилл")
LAST = ("Смирнов", "Кузнецов", "Попов", "Васильев", "Соколов")
#: players of each edition (edition 1: 10 by the first deadline, then 30 more); each
#: leaves at least 6 of 10 places taken at the last table, so none is extended
FIELDS = (40, 26, 18)


class DemoClock:
    """The season's injected clock: set by the demo, read by the service."""

    def __init__(self, start: dt.datetime) -> None:
        self.moment = start

    def now(self) -> dt.datetime:
        return self.moment


def _names(count: int, edition: int) -> list[tuple[str, int]]:
    people = [
        (f"{first} {last}{'а' if first in ('Анна', 'Вера', 'Дина', 'Жанна', 'Ирина') else ''}", 0)
        for last in LAST
        for first in FIRST
    ]
    rng = random.Random(edition)
    rng.shuffle(people)
    return [(name, 2100 - 15 * index) for index, (name, _r) in enumerate(people[:count])]


def _play(service: Service, tids: list[int], rng: random.Random, forfeiter: str) -> int:
    played = 0
    for tid in tids:
        tournament = service.tournament(tid)
        names = {p.start: p.name for p in tournament.players}
        for rnd in tournament.rounds:
            for game in rnd.games:
                if game.result is not None:
                    continue
                result = rng.choice(("1-0", "1-0", "½-½", "0-1"))
                if names.get(game.white) == forfeiter:
                    result = "+-"
                elif names.get(game.black) == forfeiter:
                    result = "-+"
                service.record_result(tid, rnd.number, game.board, result, actor="demo")
                played += 1
    return played


def _current(service: Service, series_id: int, number: int) -> tuple[str, list[int]]:
    edition = edition_by_number(service, series_id, number)
    if edition.state != "running" or not edition.stages:
        return edition.state, []
    stage = edition.stages[-1]
    return edition.state, [g.tournament for g in stage.groups if g.tournament]


#: how long before the real ``now`` the season starts: more than it can take (edition 1
#: up to three days ahead and moved once, each next edition up to three days later)
DAYS_BACK = 22


def _open_edition(service: Service, series_id: int) -> int:
    """The series' edition open for registration (the tick opened it)."""
    (found,) = [e for e in service.series_info(series_id).editions if e.state == "registration"]
    return found.id


@dataclass(frozen=True, slots=True, eq=False)  # compared as its JSON
class SeriesDemo(Shown):
    """The demo series: its id, its page's path, the tick's lines and the games played
    while it was built (none when it was built before)."""

    series: int
    path: str
    lines: tuple[str, ...]
    games: int


def build_series_demo(
    service: Service, clock: DemoClock, *, now: dt.datetime, seed: int = 2026
) -> SeriesDemo:
    """Simulate the season before ``now`` on ``service`` (whose clock is ``clock``);
    a summary: the series' id, its path, each edition's lines, the games played."""
    rng = random.Random(seed)
    accounts = Accounts(service.store, clock=service.clock)
    user = demo_organiser(accounts)
    clock.moment = now - dt.timedelta(days=DAYS_BACK)
    series_id = service.create_series(
        SeriesSettings(NAME, "workdays", "19:00", ZONE, time_control="3+2"), actor=USERNAME
    )
    service.set_preference(f"series.{series_id}.organiser", str(user.id))
    lines: list[str] = []
    games = 0
    service.open_edition(series_id, actor=USERNAME)  # the first: the series starts
    for number, field in enumerate(FIELDS, 1):
        edition = _open_edition(service, series_id)  # 2 and 3: opened by the tick
        players = _names(field - 1, number)
        early = players if number > 1 else players[:9]
        service.register_for_edition(edition, user.display_name, rating=1500, user_id=user.id)
        for name, rating in early:
            service.register_for_edition(edition, name, rating=rating)
        info = service.edition_info(edition)
        clock.moment = dt.datetime.fromisoformat(info.deadline) + dt.timedelta(minutes=1)
        lines += service.tick()
        if number == 1:  # postponed: the rest register before the new deadline
            late = [*players[9:-1], (FORFEITER, 1990)]
            for name, rating in late:
                service.register_for_edition(edition, name, rating=rating)
        info = service.edition_info(edition)
        clock.moment = dt.datetime.fromisoformat(info.planned_start) + dt.timedelta(minutes=1)
        lines += service.tick()  # stage 1 starts, and the next edition opens by itself
        for _stage in range(8):
            state, tids = _current(service, series_id, number)
            if state != "running":
                break
            games += _play(service, tids, rng, FORFEITER if number == 1 else "")
            clock.moment += dt.timedelta(hours=2)
            lines += service.tick()
    clock.moment = now
    lines += service.tick()  # edition 4's slot went by: its start moves ahead of now
    service.set_preference(BUILT, str(series_id))
    return SeriesDemo(series_id, f"/series/{series_id}", tuple(lines), games)


def find_series_demo(service: Service) -> SeriesDemo | None:
    """The demo series already built in this database, or None."""
    remembered = service.preference(BUILT)
    if not remembered:
        return None
    series_id = int(remembered)
    return SeriesDemo(series_id, f"/series/{series_id}", (), 0)


def summary(service: Service, series_id: int) -> list[str]:
    """The season in a few lines: each edition's start, players, stages and winner."""
    info = service.series_info(series_id)
    out = [f"{info.name}: workdays at {info.start_time} ({info.zone})"]
    for edition in info.editions:
        shown = edition_by_number(service, series_id, edition.number)
        stages = ", ".join(
            f"{s.kind} {len(s.groups)}×" if s.kind == "groups" else s.kind for s in shown.stages
        )
        moved = f", start moved {edition.postponed}×" if edition.postponed else ""
        start = dt.datetime.fromisoformat(edition.planned_start).astimezone(ZoneInfo(ZONE))
        out.append(
            f"  edition {edition.number}: {edition.state}, {edition.registered} players, "
            f"starts {start:%a %d %b %Y %H:%M}{moved}" + (f"; stages: {stages}" if stages else "")
        )
        if shown.stages and edition.state == "finished":
            winner = _winner(service, shown.stages[-1])
            if winner:
                out.append(f"    winner: {winner}")
    out.append(
        f"  {FORFEITER} won every game of edition 1's group by forfeit and did not go on "
        "(a player who played no game does not qualify)"
    )
    return out


def _winner(service: Service, stage: StageView) -> str:
    if len(stage.groups) != 1 or not stage.groups[0].tournament:
        return ""
    _view, table = service.crosstable(stage.groups[0].tournament)
    ranked = list(getattr(table, "ranked", ()) or ())
    names = {line.start: line.name for line in table.lines}
    return names.get(ranked[0], "") if ranked else ""
