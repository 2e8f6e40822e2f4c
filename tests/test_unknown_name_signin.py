"""A sign-in with a name nobody has checks the password against a hash anyway, made with
the parameters of the hasher in use, so it costs what a known name with a wrong password
costs and its time tells nothing about which names exist."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

import argon2
import pytest
from argon2 import extract_parameters
from test_service_support import migrated

from crosstable.service.accounts import Accounts, base, users
from crosstable.store import open_store


class Recording(argon2.PasswordHasher):
    """A hasher with its own cost that records the hashes it checks."""

    def __init__(self) -> None:
        super().__init__(time_cost=2, memory_cost=2048, parallelism=2)
        self.checked: list[str] = []

    def verify(self, hash: str | bytes, password: str | bytes) -> Literal[True]:
        self.checked.append(str(hash))
        return super().verify(hash, password)


def test_an_unknown_name_is_checked_against_a_hash_of_the_hashers_parameters(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    hasher = Recording()
    monkeypatch.setattr(users, "password_hasher", lambda: hasher)
    with open_store(migrated(f"sqlite:///{tmp_path / 'names.db'}")) as store:
        accounts = Accounts(store)
        accounts.create_user("ann", "the right password")
        assert accounts.authenticate("nobody", "the right password") is None
        assert accounts.authenticate("ann", "a wrong password") is None
        assert accounts.authenticate("ann", "the right password") is not None
    unknown, wrong, right = (extract_parameters(h) for h in hasher.checked)
    assert unknown == wrong == right == extract_parameters(hasher.hash("x"))
    assert (unknown.time_cost, unknown.memory_cost, unknown.parallelism) == (2, 2048, 2)


def test_the_unused_hash_follows_each_hasher_and_is_made_once() -> None:
    cheap = argon2.PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
    dearer = argon2.PasswordHasher(time_cost=2, memory_cost=4096, parallelism=1)
    first = base.unused_hash(cheap)
    assert base.unused_hash(cheap) == first
    assert extract_parameters(first) == extract_parameters(cheap.hash("x"))
    assert extract_parameters(base.unused_hash(dearer)) == extract_parameters(dearer.hash("x"))
    with pytest.raises(argon2.exceptions.VerifyMismatchError):
        cheap.verify(first, "")
