"""The old name of the change frame's module (:mod:`crosstable.service.frame`), kept
while the series still run as a mixin: :class:`ServiceBase` is a
:class:`~crosstable.service.frame.ChangeFrame` under its former private names."""

from __future__ import annotations

from crosstable.service.frame import (
    Body,
    Change,
    ChangeFrame,
    Done,
    Unchanged,
    append_event,
    replayed_change,
    summary_of,
    with_summary_message,
)


class ServiceBase(ChangeFrame):
    """A :class:`ChangeFrame` whose methods also answer to their former private names."""

    _now = ChangeFrame.now
    _change = ChangeFrame.change
    _creating = ChangeFrame.creating
    _committed = ChangeFrame.committed
    _announce = ChangeFrame.announce
    _append = ChangeFrame.append
    _refresh_standings = ChangeFrame.refresh_standings
    _load_live = ChangeFrame.load_live
    _lock = ChangeFrame.lock
    _prior = ChangeFrame.prior
    _revision = ChangeFrame.revision


__all__ = [
    "Body",
    "Change",
    "ChangeFrame",
    "Done",
    "ServiceBase",
    "Unchanged",
    "append_event",
    "replayed_change",
    "summary_of",
    "with_summary_message",
]
