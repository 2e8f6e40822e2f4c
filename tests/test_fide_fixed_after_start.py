"""What the pairings depend on is fixed once a Swiss has started (FIDE's checklist Q108,
Q194-196): an acceleration cannot be added afterwards when there was none, and in FIDE
mode the prohibited pairs cannot change at all (level 5: leaving FIDE mode first lets
the arbiter add one); nothing is stored when refused (SQLite and PostgreSQL)."""

# ruff: noqa: F811 - pytest fixtures imported from test_service_support

from __future__ import annotations

import pytest
from fide_support import confirmed
from test_service_support import db_url, service, store  # noqa: F401
from test_service_swiss import swiss

from crosstable.core.errors import RuleError
from crosstable.service import Service


def _details(service: Service, tid: int) -> dict[str, str]:
    return dict(service.overview(tid).settings.regulations)


def test_r_b_1_q108_an_acceleration_cannot_be_added_after_the_start(service: Service) -> None:
    tid = swiss(service, 8, rounds=4)
    with pytest.raises(RuleError, match="acceleration cannot change after the start"):
        service.edit_regulations(tid, detail_changes={"acceleration": "baku"})
    assert "acceleration" not in _details(service, tid)


def test_r_b_1_q196_prohibited_pairs_change_only_outside_fide_mode_after_the_start(
    service: Service,
) -> None:
    tid = swiss(service, 8, rounds=4, forbidden="1-2")
    with pytest.raises(RuleError, match="prohibited pairs cannot change after the start"):
        service.edit_regulations(tid, detail_changes={"forbidden": "1-2,3-4"})
    assert _details(service, tid)["forbidden"] == "1-2"
    confirmed(service.leave_fide_mode, tid)
    service.edit_regulations(tid, detail_changes={"forbidden": "1-2,3-4"})
    assert _details(service, tid)["forbidden"] == "1-2,3-4"
    before = swiss(service, 8, rounds=4, start=False)  # before the start: free to change
    service.edit_regulations(before, detail_changes={"forbidden": "5-6"})
    assert _details(service, before)["forbidden"] == "5-6"
