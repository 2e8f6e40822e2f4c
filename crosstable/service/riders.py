"""Work that rides in the transaction of the next change: what a caller (the clock)
must write together with the change it makes, so that a crash leaves both or neither.

>>> seen = []
>>> with riding(lambda session, change: seen.append(change)):
...     run_riders(None, "the change")
>>> run_riders(None, "another")  # outside the block nothing rides
>>> seen
['the change']
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

__all__ = ["Rider", "riding", "run_riders"]

#: called with the change's session and its :class:`~crosstable.service.frame.Change`,
#: after the event is appended and before the commit
Rider = Callable[[Any, Any], None]

_RIDERS: ContextVar[tuple[Rider, ...]] = ContextVar("crosstable_riders", default=())


@contextmanager
def riding(rider: Rider) -> Iterator[None]:
    """Run ``rider`` inside the transaction of every change made in this block (an
    error it raises rolls the change back)."""
    token = _RIDERS.set((*_RIDERS.get(), rider))
    try:
        yield
    finally:
        _RIDERS.reset(token)


def run_riders(session: Any, change: Any) -> None:
    """What :class:`~crosstable.service.frame.ChangeFrame` calls before each commit."""
    for rider in _RIDERS.get():
        rider(session, change)
