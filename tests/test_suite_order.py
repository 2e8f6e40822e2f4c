"""The suite's own scheduling aids (tests/conftest.py): the figures of a run are recorded
per file when asked, and the files come slowest first from those figures."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import conftest
import pytest


def fake(**fields: Any) -> Any:
    """A stand-in for pytest's report, session or item: just the fields read."""
    return SimpleNamespace(**fields)


def test_a_run_records_each_files_seconds_when_asked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "durations.json"
    monkeypatch.setenv(conftest.RECORD_DURATIONS, str(target))
    monkeypatch.setattr(conftest, "SPENT", conftest.defaultdict(float))
    for nodeid, seconds in [
        ("tests/a.py::x", 1.25),
        ("tests/a.py::y", 2.0),
        ("tests/b.py::z", 0.5),
    ]:
        conftest.pytest_runtest_logreport(fake(nodeid=nodeid, duration=seconds))
    conftest.pytest_sessionfinish(fake(config=SimpleNamespace(workerinput={})))
    assert not target.exists()  # a worker writes nothing: the main process hears all
    conftest.pytest_sessionfinish(fake(config=SimpleNamespace()))
    recorded = json.loads(target.read_text(encoding="utf-8"))
    assert recorded == {"tests/a.py": 3.25, "tests/b.py": 0.5}
    items = [fake(nodeid=n) for n in ["tests/b.py::z", "tests/c.py::w", "tests/a.py::x"]]
    conftest.slowest_files_first(items, recorded)
    assert [i.nodeid for i in items] == ["tests/a.py::x", "tests/b.py::z", "tests/c.py::w"]


def test_nothing_is_recorded_unless_asked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(conftest.RECORD_DURATIONS, raising=False)
    monkeypatch.setattr(conftest, "SPENT", conftest.defaultdict(float))
    conftest.pytest_runtest_logreport(fake(nodeid="tests/a.py::x", duration=1.0))
    assert not conftest.SPENT


def test_the_checked_in_figures_name_test_files_with_seconds() -> None:
    """Each figure names a file of the run: a test file, or a module whose doctests run
    (the product's, or the tests' own support modules), as the recorder writes them."""
    figures = json.loads(conftest.DURATIONS.read_text(encoding="utf-8"))
    assert figures
    assert any(name.startswith("tests/test_") for name in figures)
    for name, seconds in figures.items():
        assert name.startswith(("tests/", "crosstable/")) and name.endswith(".py"), name
        assert (conftest.ROOT / name).is_file(), name
        assert isinstance(seconds, int | float) and seconds >= 0, (name, seconds)


def test_passwords_in_the_tests_are_argon2id_hashes_made_quickly() -> None:
    """The product's hasher in the test process is argon2id at the tests' small cost;
    its hashes check as argon2 hashes, and a hash at the product's cost (made by a
    served app in another process) is still checked."""
    from argon2 import PasswordHasher

    from crosstable.service.accounts.base import password_hasher

    hasher = password_hasher()
    assert isinstance(hasher, PasswordHasher)
    made = hasher.hash("password-anna")
    assert made.startswith("$argon2id$v=19$m=1024,t=1,p=1$")
    assert hasher.verify(made, "password-anna")
    product = PasswordHasher.__mro__[1]()
    assert product.time_cost == 3 and product.memory_cost == 65536
    assert hasher.verify(product.hash("password-boris"), "password-boris")
