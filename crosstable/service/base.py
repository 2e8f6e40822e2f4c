"""The former name of :mod:`crosstable.service.frame` (import from there)."""

from __future__ import annotations

from crosstable.service.frame import (
    SUMMARY_MESSAGE,
    Body,
    Change,
    Done,
    Unchanged,
    append_event,
    replayed_change,
    summary_of,
    with_summary_message,
)

__all__ = [
    "SUMMARY_MESSAGE",
    "Body",
    "Change",
    "Done",
    "Unchanged",
    "append_event",
    "replayed_change",
    "summary_of",
    "with_summary_message",
]
