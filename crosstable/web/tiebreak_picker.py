"""What a tournament's tie-break picker offers, for the manage page and the JSON API.

A round robin in FIDE mode does not offer the Buchholz family (BH, FB, AOB and their
modifiers: :mod:`crosstable.core.tiebreaks.picker`); a Swiss, and a round robin
outside FIDE mode, offer every tie-break.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from crosstable.core.model import System
from crosstable.core.tiebreaks.picker import (
    hidden_codes,
    hides_buchholz,
    offered_codes,
    offered_presets,
)
from crosstable.core.tiebreaks.presets import BUCHHOLZ_FAMILY, PRESETS
from crosstable.service.read_views import JsonObject


@dataclass(frozen=True, slots=True)
class Picker:
    """The picker of one tournament: its system, FIDE mode and list."""

    system: System
    fide_mode: bool
    chosen: tuple[str, ...]

    @property
    def offered(self) -> tuple[str, ...]:
        return offered_codes(self.system, fide=self.fide_mode)

    @property
    def hidden(self) -> tuple[str, ...]:
        return BUCHHOLZ_FAMILY if hides_buchholz(self.system, fide=self.fide_mode) else ()

    def as_json(self) -> JsonObject:
        presets = offered_presets(self.system, fide=self.fide_mode)
        return {
            "system": self.system.value,
            "fide_mode": self.fide_mode,
            "tiebreaks": list(self.chosen),
            "offered": list(self.offered),
            "presets": {name: list(PRESETS[name]) for name in presets},
            "hidden": list(self.hidden),
            # kept from an import or from before FIDE mode hid them: shown, not offered
            "kept_hidden": list(hidden_codes(self.system, self.chosen, fide=self.fide_mode)),
        }


def picker_of(service: Any, tid: int) -> Picker:
    """The picker of tournament ``tid`` (through the service's reads)."""
    settings = service.overview(tid).settings
    return Picker(
        System(settings["system"]),
        bool(service.fide_mode(tid).on),
        tuple(str(code) for code in settings["tiebreaks"] or ()),
    )


__all__ = ["Picker", "picker_of"]
