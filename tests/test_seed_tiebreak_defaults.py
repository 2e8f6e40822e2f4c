"""The tie-break orders the source documents name are the defaults where they apply
(R-RR-10, seeds 000 and 002): a series' group round robins rank by Sonneborn-Berger,
then the average rating of the opponents met; the portal's Swiss (its initial order)
by the full Buchholz first, then its cuts. A list the organiser gives is kept, and a
tournament outside the portal's rules keeps its system's FIDE default. SQLite and
PostgreSQL."""
# ruff: noqa: F811 - pytest fixtures imported from test_service_support and test_web_swiss

from __future__ import annotations

from test_service_support import db_url, service, store  # noqa: F401
from test_web_swiss import Site, site  # noqa: F401

from crosstable.core.model import System
from crosstable.core.tiebreaks import default_tiebreaks
from crosstable.service import Regulations, Service
from crosstable.service.series import SeriesSettings
from crosstable.service.tiebreak_order import published_tiebreaks


def _tiebreaks(service: Service, tid: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(the stored list, the published order)."""
    settings = service.overview(tid).settings
    return tuple(settings["tiebreaks"]), published_tiebreaks(settings)


def _swiss(service: Service, tiebreaks: tuple[str, ...] = (), **details: str) -> int:
    regulations = Regulations(
        name="Swiss", system=System.SWISS_DUTCH, tiebreaks=tiebreaks, details=details
    )
    return service.create_tournament(regulations).tournament_id


def test_r_rr_10_the_portal_swiss_ranks_by_the_full_buchholz_first(service: Service) -> None:
    portal = _swiss(service, initial_order="portal")
    assert _tiebreaks(service, portal) == (("BH", "BH/C1", "BH/C2"),) * 2
    # the organiser's own list is kept
    own = _swiss(service, ("SB", "BH"), initial_order="portal")
    assert _tiebreaks(service, own) == (("SB", "BH"),) * 2
    # a Swiss in FIDE's order keeps the system's default, published from creation
    fide = _swiss(service)
    assert _tiebreaks(service, fide) == ((), default_tiebreaks(System.SWISS_DUTCH))
    # a round robin likewise
    rr = service.create_tournament(Regulations(name="RR")).tournament_id
    assert _tiebreaks(service, rr) == ((), default_tiebreaks(System.ROUND_ROBIN))


def test_r_rr_10_a_series_ranks_its_groups_by_sb_then_the_average_rating(
    service: Service,
) -> None:
    plain = service.create_series(SeriesSettings("Blitz", "workdays", "19:00", "Europe/Moscow"))
    assert service.series_info(plain)["tiebreaks"] == "SB,ARO_RATED"
    own = service.create_series(
        SeriesSettings("Rapid", "workdays", "19:00", "Europe/Moscow", tiebreaks=("DE", "SB"))
    )
    assert service.series_info(own)["tiebreaks"] == "DE,SB"


def test_r_rr_10_the_wizard_gives_the_portal_swiss_its_default(site: Site) -> None:
    players = "\n".join(f"P{i}; {2000 - i}" for i in range(1, 7))
    # the page's choice "default" (its list for the format)
    portal = site.create(
        name="Portal", format="swiss", list=players, initial_order="portal", tiebreaks="default"
    )
    assert _tiebreaks(site.service, portal)[1] == ("BH", "BH/C1", "BH/C2")
    fide = site.create(name="Fide", format="swiss", list=players, tiebreaks="default")
    assert _tiebreaks(site.service, fide)[1] == default_tiebreaks(System.SWISS_DUTCH)
