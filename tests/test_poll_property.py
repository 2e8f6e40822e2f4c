"""The LISTEN thread's poll by event id (crosstable/service/bus.py, issue 17.3) against
what it stands for: every change committed that nobody announced is published from the
log exactly once, whatever order the transactions took their ids and committed in, and
no announced one is. A stand-in connection answers the poll's three statements from a
list of events; hypothesis chooses the inserts, commits and polls."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from crosstable.service import bus as bus_module
from crosstable.service.bus import EventBus, Notification, PostgresListener


class Events:
    """The events table as a poll sees it: only committed rows."""

    def __init__(self) -> None:
        self.rows: dict[int, tuple[int, int, bool]] = {}  # id → (tournament, seq, committed)

    def execute(self, statement: str, parameters: Any) -> Events:
        committed = sorted(i for i, (_t, _s, done) in self.rows.items() if done)
        if statement == bus_module.POLL_FIRST:
            self.answer = [(i,) for i in reversed(committed)][: parameters[0]]
        elif statement == bus_module.POLL_SINCE:
            last, holes, most = parameters
            wanted = [i for i in committed if i > last or i in set(holes)]
            self.answer = [(i, *self.rows[i][:2]) for i in wanted[:most]]
        else:
            assert statement == bus_module.POLL_EVENTS
            pairs = set(zip(*parameters, strict=True))
            self.answer = sorted(
                (t, s, "result", f"#{s}", "[]")
                for i, (t, s, done) in self.rows.items()
                if done and (t, s) in pairs
            )
        return self

    def fetchall(self) -> list[Any]:
        return list(self.answer)

    def __iter__(self) -> Any:
        return iter(self.answer)


steps = st.lists(
    st.one_of(
        st.tuples(st.just("insert"), st.booleans()),  # announced?
        st.tuples(st.just("commit"), st.integers(0, 50)),
        st.tuples(st.just("poll"), st.just(0)),
    ),
    max_size=60,
)


@settings(max_examples=200, deadline=None)
@given(before=st.integers(0, 5), steps=steps)
def test_every_unannounced_change_is_published_once(before: int, steps: list[Any]) -> None:
    events, bus = Events(), EventBus()
    listener = PostgresListener("postgresql://localhost/x", bus)
    bus.subscribe(listener._heard_of)
    from_log: list[tuple[int, int]] = []
    bus.subscribe(lambda n: from_log.append((n.tournament_id, n.seq)) if n.origin == "" else None)
    for number in range(1, before + 1):  # (there before the first poll: heard already)
        events.rows[number] = (number, 1, True)
    listener._poll(events)
    pending: list[int] = []
    announced: dict[int, bool] = {}
    for kind, value in steps:
        if kind == "insert":  # a transaction takes the next id (each its own tournament)
            number = max(events.rows, default=0) + 1
            events.rows[number] = (number, 1, False)
            announced[number] = value
            pending.append(number)
        elif kind == "commit" and pending:
            number = pending.pop(value % len(pending))
            events.rows[number] = (number, 1, True)
            if announced[number]:  # its NOTIFY reaches this process
                bus.publish(Notification(number, 1, "result", "", origin="other"))
        elif kind == "poll":
            listener._poll(events)
    for number in pending:  # the rest commit, unannounced
        events.rows[number] = (number, 1, True)
        announced[number] = False
    for _ in range(3):
        listener._poll(events)
    assert sorted(from_log) == sorted((n, 1) for n, said in announced.items() if not said)
