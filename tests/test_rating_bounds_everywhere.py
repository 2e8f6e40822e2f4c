"""One set of rating bounds on every surface (100–4000, 0 for unrated): the account's own
rating (sign-up, the administrator's edit), a series registration (service and command
line) and the JSON API's players refuse what the players' forms refuse, with the same
message; before, these paths had bounds of their own (0–4000, or none)."""

from __future__ import annotations

import datetime as dt
import os
import subprocess
import sys
from pathlib import Path

import pytest

from crosstable.core.errors import RuleError
from crosstable.service import FixedClock
from crosstable.service.accounts import Accounts
from crosstable.store import open_store

OUT_OF_RANGE = "is out of range (100–4000, or 0 for unrated)"


@pytest.fixture
def accounts(tmp_path: Path) -> Accounts:
    clock = FixedClock(dt.datetime(2026, 12, 3, tzinfo=dt.UTC))
    return Accounts(open_store(str(tmp_path / "bounds.db")), clock=clock)


@pytest.mark.parametrize("rating", [99999999999, 4001, 99, -5])
def test_an_account_rating_has_the_players_bounds(accounts: Accounts, rating: int) -> None:
    with pytest.raises(RuleError, match="out of range"):
        accounts.create_user("anna", "password-anna", rating=rating)
    anna = accounts.create_user("anna", "password-anna", rating=1850)
    with pytest.raises(RuleError, match="out of range"):
        accounts.set_user(anna.id, rating=rating, actor="admin")
    assert accounts.user(anna.id).rating == 1850
    assert accounts.set_user(anna.id, rating=0, actor="admin").rating is None  # unrated


def test_the_series_command_line_has_the_players_bounds(tmp_path: Path) -> None:
    env = dict(os.environ, CROSSTABLE_DB=str(tmp_path / "series.db"))
    done = subprocess.run(
        [sys.executable, "-m", "crosstable", "series", "register", "1", "Anna", "--rating", "99"],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2 and OUT_OF_RANGE in done.stderr, done.stderr
