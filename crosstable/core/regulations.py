"""A tournament's regulations' details, read through one typed object.

The details are stored as a JSON object of texts (``{"venue": "Yerevan", "ties":
"lots", "initial_colour": "white"}``): fields every tournament may have, each
system's own settings, and free text an organiser adds. :class:`RegulationDetails`
reads the known fields as typed properties and keeps everything, the free-form
remainder included, as it is: it is the read-only mapping of the stored object, so a
page or the JSON API shows it unchanged.

>>> r = RegulationDetails({"venue": " Yerevan ", "ties": "Lots", "setup_minutes": "5",
...     "variant": "battle", "prize_fund": "500"})
>>> r.venue, r.ties, r.battle, r.setup_minutes, r.forfeits_in_tiebreaks
('Yerevan', 'lots', True, 5, True)
>>> r.free
{'prize_fund': '500'}
>>> r == {"venue": " Yerevan ", "ties": "Lots", "setup_minutes": "5", "variant": "battle",
...     "prize_fund": "500"}
True
>>> r["venue"] = "Gyumri"
Traceback (most recent call last):
...
TypeError: the regulations' details are read-only (copy them with dict())
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NoReturn

from crosstable.core.errors import RuleError
from crosstable.core.expulsion import EXPELLED
from crosstable.core.funding import FIELDS as FUNDING_FIELDS
from crosstable.core.funding import Funding
from crosstable.core.model import System
from crosstable.core.rating_method import FIELD as RATING_METHOD
from crosstable.core.system_settings import SETTING_KEYS, SystemSettings, settings_of

#: the corrections meant for the rating report only (service/report_corrections.py)
REPORT_CORRECTIONS = "report_corrections"
#: the details every tournament may have, whatever its system
KNOWN_FIELDS = (
    "venue",
    "venue_kind",
    "arbiter",
    "deputy_arbiter",
    "organiser",
    "ties",
    "ties_lots_seed",
    "forfeits_in_tiebreaks",
    "finish",
    "variant",
    "setup_minutes",
    "battle_seed",
    RATING_METHOD,
    REPORT_CORRECTIONS,
    EXPELLED,
    *FUNDING_FIELDS,
)


class RegulationDetails(dict[str, Any]):
    """The stored details, read-only, with the known fields typed."""

    __slots__ = ()

    def __init__(self, details: Mapping[str, Any] | None = None) -> None:
        super().__init__(details or {})

    def text(self, key: str) -> str:
        """A detail as stripped text ("" when absent)."""
        value = self.get(key)
        return "" if value is None else str(value).strip()

    @property
    def venue(self) -> str:
        return self.text("venue")

    @property
    def venue_kind(self) -> str:
        """``online`` (the default) or ``otb``."""
        return self.text("venue_kind").lower() or "online"

    @property
    def arbiter(self) -> str:
        return self.text("arbiter")

    @property
    def deputy_arbiter(self) -> str:
        return self.text("deputy_arbiter")

    @property
    def organiser(self) -> str:
        return self.text("organiser")

    @property
    def ties(self) -> str:
        """What breaks the ties left after the tie-breaks: ``shared`` (default) or ``lots``."""
        return self.text("ties").lower() or "shared"

    @property
    def forfeits_in_tiebreaks(self) -> bool:
        """Whether forfeits count as games in the tie-breaks (default yes)."""
        return self.text("forfeits_in_tiebreaks").lower() != "no"

    @property
    def funding(self) -> Funding:
        """Who pays, as the regulations state it (nothing stated when it does not read:
        the details were checked when they were stored)."""
        try:
            return Funding.read(self)
        except RuleError:
            return Funding()

    @property
    def battle(self) -> bool:
        """Battle chess (colours drawn before each game)."""
        return self.text("variant").lower() == "battle"

    @property
    def setup_minutes(self) -> int | None:
        """Battle chess's set-up time (None: not given or not a whole number)."""
        text = self.text("setup_minutes")
        return int(text) if text.isascii() and text.isdigit() and len(text) <= 6 else None

    @property
    def free(self) -> dict[str, Any]:
        """What no system and no known field reads: the organiser's own details."""
        settings = {key for keys in SETTING_KEYS.values() for key in keys}
        return {k: v for k, v in self.items() if k not in KNOWN_FIELDS and k not in settings}

    def system_settings(self, system: System) -> SystemSettings:
        """The system's own settings, typed (other details pass)."""
        return settings_of(system, self, strict=False)

    def as_json(self) -> dict[str, Any]:
        """The stored object, as the JSON API writes it."""
        return dict(self)

    def _read_only(self, *args: object, **kwargs: object) -> NoReturn:
        raise TypeError("the regulations' details are read-only (copy them with dict())")

    __setitem__ = _read_only
    __delitem__ = _read_only
    __ior__ = _read_only
    update = _read_only
    pop = _read_only
    popitem = _read_only
    clear = _read_only
    setdefault = _read_only

    def copy(self) -> dict[str, Any]:
        return dict(self)

    def __reduce__(self) -> tuple[Any, ...]:
        return (RegulationDetails, (dict(self),))


__all__ = ["KNOWN_FIELDS", "REPORT_CORRECTIONS", "RegulationDetails"]
