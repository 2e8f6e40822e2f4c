"""FIDE C.07 tie-breaks as small registered classes keyed by their FIDE code.

>>> sorted(REGISTRY)[:6]
['AOB', 'APPO', 'APRO', 'ARO', 'ARO_RATED', 'BH']
>>> parse_code("BH/C1").cut_low
1

Modules: :mod:`.spec` (codes and modifiers), :mod:`.field` (the compiled
records and art. 16's adjusted scores), :mod:`.elements` (dummies and cuts),
one module per family of tie-breaks, :mod:`.presets` and :mod:`.explain`.
"""

from __future__ import annotations

from crosstable.core.tiebreaks import (  # noqa: F401 - importing registers the classes
    buchholz,
    direct,
    ratings,
    results,
    sonneborn,
)
from crosstable.core.tiebreaks.base import REGISTRY, Column, TieBreak, tiebreak
from crosstable.core.tiebreaks.explain import Explanation, Item
from crosstable.core.tiebreaks.field import Field, compile_field
from crosstable.core.tiebreaks.presets import (
    PRESETS,
    change_tiebreaks,
    default_tiebreaks,
    preset,
)
from crosstable.core.tiebreaks.spec import TieBreakSpec, parse_code, parse_codes

__all__ = [
    "PRESETS",
    "REGISTRY",
    "Column",
    "Explanation",
    "Field",
    "Item",
    "TieBreak",
    "TieBreakSpec",
    "change_tiebreaks",
    "compile_field",
    "default_tiebreaks",
    "parse_code",
    "parse_codes",
    "preset",
    "tiebreak",
]
