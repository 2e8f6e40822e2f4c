"""FIDE checklist Q109-110: an acceleration is fixed at the start — one given cannot
change or go, and one added after the start when none was set is refused, whether the
details are replaced or one key changed, in FIDE mode or not; nothing is stored and the
next round is paired without it. Before the start it may be added."""

# ruff: noqa: F811 - pytest fixtures imported from test_service_support
from __future__ import annotations

import pytest

from crosstable.core.errors import RuleError
from crosstable.core.model import System
from crosstable.service import Service
from tests.test_service_support import db_url, registered, service, started, store  # noqa: F401


def test_q109_q110_an_acceleration_added_after_the_start_is_refused(service: Service) -> None:
    before = registered(service, 8, system=System.SWISS_DUTCH, rounds=4)
    service.edit_regulations(before, detail_changes={"acceleration": "baku"})  # before round 1
    assert service.overview(before).settings["regulations"]["acceleration"] == "baku"
    for details in ({}, {"fide_mode": "off"}):
        tid = started(service, 8, system=System.SWISS_DUTCH, rounds=4, details=details)
        revision = service.revision(tid)
        with pytest.raises(RuleError, match="acceleration cannot change after the start"):
            service.edit_regulations(tid, detail_changes={"acceleration": "baku"})
        with pytest.raises(RuleError, match="acceleration cannot change after the start"):
            current = dict(service.overview(tid).settings["regulations"])
            service.edit_regulations(tid, details={**current, "acceleration": "baku"})
        assert service.revision(tid) == revision
        assert "acceleration" not in service.overview(tid).settings["regulations"]
        service.publish_round(tid)  # paired as it started: without acceleration
        round_1 = [g for g in service.overview(tid).games if g.round == 1]
        pairs = sorted(tuple(sorted((g.white, g.black))) for g in round_1)
        assert pairs == [(1, 5), (2, 6), (3, 7), (4, 8)]  # top half against bottom half
    kept = started(
        service, 8, system=System.SWISS_DUTCH, rounds=4, details={"acceleration": "baku"}
    )
    with pytest.raises(RuleError, match="acceleration cannot change after the start"):
        current = dict(service.overview(kept).settings["regulations"])
        current.pop("acceleration")
        service.edit_regulations(kept, details=current)  # nor taken away
