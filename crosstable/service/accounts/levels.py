"""The portal's register of classes and levels (the administrator's rating bands): read
and replaced as a whole. A player's own level is an administrator's act on the account
(:meth:`crosstable.service.fair_play.PortalRules.set_level`)."""

from __future__ import annotations

from typing import Any

from crosstable.core.levels import Levels
from crosstable.service.accounts.base import AccountsFrame
from crosstable.service.levels import read_levels, write_levels


class LevelRegister:
    """The levels' bands, over the accounts' store."""

    def __init__(self, frame: AccountsFrame) -> None:
        self.frame = frame

    def levels(self) -> Levels:
        with self.frame.store.reading() as session:
            return read_levels(session)

    def set_levels(self, bands: str | list[Any]) -> Levels:
        """Replace the register: ``"Level 1: 0-1199; Level 2: 1200-"`` or the JSON list
        :meth:`Levels.as_json` writes; checked before anything is stored."""
        levels = Levels.parse(bands) if isinstance(bands, str) else Levels.from_json(bands)
        with self.frame.store.transaction() as session:
            write_levels(session, levels)
        return levels
