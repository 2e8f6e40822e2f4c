"""The demo data of ``crosstable demo``: two tournaments and an organiser's login.

* seed 003's six-player club round robin, finished (the shipped example
  ``crosstable/examples/club_rr6.trf`` imported through the service's TRF import);
* a ten-player round robin in progress with seed 000's first round entered:
  1–10 1:0, 2–9 1:0, 3–8 0:1, 4–7 ½:½, 5–6 0:1.

>>> import datetime as dt, random
>>> from crosstable.store import open_store
>>> from crosstable.service import FixedClock, Service
>>> service = Service(open_store("sqlite:///:memory:"),
...                   clock=FixedClock(dt.datetime(2026, 5, 1, 18, tzinfo=dt.UTC)),
...                   random=random.Random(1))
>>> demo = build_demo(service)
>>> demo["path"], demo["username"]
('/t/2', 'demo')
>>> [service.overview(t).status for t in demo["tournaments"]]
['finished', 'running']
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from importlib import resources
from typing import Any

from crosstable.core.errors import RuleError
from crosstable.core.model import LotsMethod
from crosstable.formats.trf import parse_trf
from crosstable.service import PlayerInfo, Regulations, Service
from crosstable.service.accounts import Accounts
from crosstable.service.read_views import Shown

USERNAME = "demo"
PASSWORD = "demo-demo"
#: the preference that remembers the demo's tournaments (finished, live) once built
BUILT = "demo.tournaments"
LIVE_NAME = "Клубный чемпионат (demo)"

#: ten players for the round robin in progress (starting numbers 1…10 in this order)
TEN = (
    ("Алексей Смирнов", 1912),
    ("Борис Кузнецов", 1868),
    ("Вера Попова", 1841),
    ("Глеб Васильев", 1803),
    ("Дина Соколова", 1777),
    ("Егор Михайлов", 1750),
    ("Жанна Новикова", 1722),
    ("Захар Фёдоров", 1698),
    ("Ирина Морозова", 1664),
    ("Кирилл Волков", 1630),
)
#: seed 000's first round, by board (Berger round 1 for ten: 1–10, 2–9, 3–8, 4–7, 5–6)
FIRST_ROUND = ("1-0", "1-0", "0-1", "½-½", "0-1")


@dataclass(frozen=True, slots=True, eq=False)  # compared as its JSON
class DemoBuilt(Shown):
    """The demo built: the URL paths of its live and its finished tournament, both
    tournaments' ids (finished, live) and the login to sign in with."""

    path: str
    finished_path: str
    tournaments: tuple[int, int]
    username: str
    password: str


def demo_organiser(accounts: Accounts) -> Any:
    """The demo's login (an administrator), created the first time."""
    user = accounts.find_user(USERNAME)
    if user is None:
        user = accounts.create_user(
            USERNAME, PASSWORD, display_name="Demo organiser", is_admin=True
        )
    return user


def build_demo(service: Service) -> DemoBuilt:
    """Create the demo tournaments; the URL path of the live one and the login to use."""
    accounts = Accounts(service.store, clock=service.clock)
    user = demo_organiser(accounts)
    text = resources.files("crosstable").joinpath("examples", "club_rr6.trf").read_text("utf-8")
    document = parse_trf(text, source="club_rr6.trf")
    finished = service.import_tournament(
        document.tournament, actor=USERNAME, source="club_rr6.trf"
    ).tournament_id
    service.finish(finished, actor=USERNAME)
    accounts.claim(finished, user)

    regulations = Regulations(
        name=LIVE_NAME,
        time_control="G/25 d5",
        details={"venue": "Chess club", "arbiter": "A. Arbiter"},
    )
    for tiebreaks in (("SB", "ARO_RATED"), ("SB", "DE", "WIN")):
        try:
            live = service.create_tournament(
                replace(regulations, tiebreaks=tiebreaks), actor=USERNAME
            ).tournament_id
            break
        except RuleError:  # an older service without the portal's criterion
            continue
    accounts.claim(live, user)
    for name, rating in TEN:
        service.add_player(live, PlayerInfo(name, rating), actor=USERNAME)
    service.draw_lots(live, LotsMethod.MANUAL, order=tuple(range(1, 11)), actor=USERNAME)
    service.start(live, actor=USERNAME)
    for board, result in enumerate(FIRST_ROUND, 1):
        service.record_result(live, 1, board, result, actor=USERNAME)
    service.set_preference(BUILT, f"{finished},{live}")
    return _answer(finished, live)


def find_demo(service: Service) -> DemoBuilt | None:
    """The demo already built in this database (as :func:`build_demo` answers), or None.

    A database built before the demo remembered its tournaments is recognised by the
    demo organiser's account and the tournaments' names.
    """
    remembered = service.preference(BUILT)
    if remembered:
        finished, live = (int(part) for part in remembered.split(","))
        return _answer(finished, live)
    accounts = Accounts(service.store, clock=service.clock)
    if accounts.find_user(USERNAME) is None:
        return None
    listed = service.tournaments()
    live_ids = [t.id for t in listed if t.name == LIVE_NAME]
    finished_ids = [t.id for t in listed if t.id not in live_ids]
    if not live_ids or not finished_ids:
        return None
    return _answer(finished_ids[0], live_ids[0])


def _answer(finished: int, live: int) -> DemoBuilt:
    return DemoBuilt(f"/t/{live}", f"/t/{finished}", (finished, live), USERNAME, PASSWORD)
