"""Answering FIDE's warnings in tests: run an action, confirming every warning it asks."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from crosstable.service.warning_levels import ConfirmationNeeded


def confirm_all(action: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[Any, list[Any]]:
    """``action(*args, **kwargs)`` confirming each warning it raises; its answer and the
    warnings seen (at most two: a level-4 warning's two steps)."""
    seen: list[ConfirmationNeeded] = []
    token = None
    for _ in range(3):
        try:
            return action(*args, confirm=token, **kwargs), seen
        except ConfirmationNeeded as asked:
            seen.append(asked)
            token = asked.token
    raise AssertionError("more than two confirmations asked")


def confirmed(action: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """The answer of ``action`` once every warning it raises is confirmed."""
    return confirm_all(action, *args, **kwargs)[0]
