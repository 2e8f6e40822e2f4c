"""TRF code tables: tournament types (092/192), scoring (162/XXS), titles, sex.

>>> system_from_text("Individual: Round-Robin")
(<System.ROUND_ROBIN: 'round-robin'>, None)
>>> system_from_text("FIDE_DOUBLEROUNDROBIN")
(<System.ROUND_ROBIN: 'round-robin'>, 2)
>>> system_from_text("Individual: Swiss-System")
(<System.SWISS_DUTCH: 'dutch'>, None)
>>> system_from_text("Blitz") is None
True
"""

from __future__ import annotations

import re
from fractions import Fraction

from crosstable.core.errors import RuleError
from crosstable.core.model import System
from crosstable.core.scoring import PointSystem

# 192: FIDE's encoded tournament types (TRF-2026 code table) → system, cycles.
_CODES_192: dict[str, tuple[System, int | None]] = {
    "FIDE_ROUNDROBIN": (System.ROUND_ROBIN, 1),
    "BERGER_ROUNDROBIN": (System.ROUND_ROBIN, 1),
    "CUSTOM_ROUNDROBIN": (System.ROUND_ROBIN, None),
    "FIDE_DOUBLEROUNDROBIN": (System.ROUND_ROBIN, 2),
    "BERGER_DOUBLEROUNDROBIN": (System.ROUND_ROBIN, 2),
    "FIDE_SCHEVENINGEN": (System.SCHEVENINGEN, 1),
    "FIDE_DOUBLESCHEVENINGEN": (System.SCHEVENINGEN, 2),
    "CUSTOM_SCHEVENINGEN": (System.SCHEVENINGEN, None),
    "CUSTOM_KNOCKOUT": (System.KNOCKOUT, None),
    # team round robins (a team file: service/teams/trf_plan.py)
    "FIDE_TEAM_ROUNDROBIN": (System.ROUND_ROBIN, 1),
    "BERGER_TEAM_ROUNDROBIN": (System.ROUND_ROBIN, 1),
    "FIDE_TEAM_DOUBLEROUNDROBIN": (System.ROUND_ROBIN, 2),
    "BERGER_TEAM_DOUBLEROUNDROBIN": (System.ROUND_ROBIN, 2),
    "CUSTOM_TEAM_ROUNDROBIN": (System.ROUND_ROBIN, None),
}

# Words in free text (092, or an unknown 192 code), checked in this order.
_KEYWORDS: tuple[tuple[str, System], ...] = (
    (r"schevening", System.SCHEVENINGEN),
    (r"knock[\s_-]*out|\bk\.?o\.?\b", System.KNOCKOUT),
    (
        r"round[\s_-]*robin|berger|all[\s_-]*play[\s_-]*all|rundenturnier|toutes[\s_-]*rondes"
        r"|tournoi[\s_-]*ferm|torneo[\s_-]*a[\s_-]*girone|круговой|круговая",
        System.ROUND_ROBIN,
    ),
    (r"swiss|schweizer|suisse|dutch|dubov|burstein|monrad|швейцар", System.SWISS_DUTCH),
)

CANONICAL_TYPE_TEXT: dict[System, str] = {
    System.ROUND_ROBIN: "Individual: Round-Robin",
    System.SWISS_DUTCH: "Individual: Swiss-System",
    System.SCHEVENINGEN: "Individual: Scheveningen",
    System.KNOCKOUT: "Individual: Knockout",
}


def system_from_text(text: str) -> tuple[System, int | None] | None:
    """The system (and cycles, when the text says) named by a 092 or 192 text."""
    code = text.strip().upper()
    if code in _CODES_192:
        return _CODES_192[code]
    swiss = (
        "FIDE_DUTCH",
        "FIDE_DUBOV",
        "FIDE_BURSTEIN",
        "CUSTOM_SWISS",
        "FIDE_TEAM",
        "CUSTOM_TEAM_SWISS",
    )
    if code.startswith(swiss):
        return System.SWISS_DUTCH, None
    lowered = text.lower()
    for pattern, system in _KEYWORDS:
        if re.search(pattern, lowered):
            cycles: int | None = None
            if system is System.ROUND_ROBIN and re.search(
                r"double|doppel|aller[\s-]*retour", lowered
            ):
                cycles = 2
            return system, cycles
    return None


# ---------------------------------------------------------------- titles and sex

_SHORT_TITLES = {
    "G": "GM",
    "M": "IM",
    "F": "FM",
    "C": "CM",
    "WG": "WGM",
    "WM": "WIM",
    "WF": "WFM",
    "WC": "WCM",
}


def title_from_text(text: str) -> str:
    """``g`` → ``GM``, ``wf`` → ``WFM``; full titles are upper-cased; others kept."""
    cleaned = text.strip().upper()
    return _SHORT_TITLES.get(cleaned, cleaned)


def sex_from_text(char: str) -> str | None:
    """``m``/``M`` → ``m``; ``w``/``W``/``f``/``F`` → ``w``; blank → ``""``; else None."""
    if char in ("", " "):
        return ""
    lowered = char.lower()
    if lowered == "m":
        return "m"
    if lowered in ("w", "f"):
        return "w"
    return None


# ---------------------------------------------------------------- scoring

XXS_CODES = ("WW", "BW", "WD", "BD", "WL", "BL", "ZPB", "HPB", "FPB", "PAB", "FW", "FL")
_XXS_DEFAULTS = {
    "WW": Fraction(1),
    "BW": Fraction(1),
    "WD": Fraction(1, 2),
    "BD": Fraction(1, 2),
    "WL": Fraction(0),
    "BL": Fraction(0),
    "ZPB": Fraction(0),
    "HPB": Fraction(1, 2),
    "FPB": Fraction(1),
    "PAB": Fraction(1),
    "FW": Fraction(1),
    "FL": Fraction(0),
}
_XXS_SHORTCUTS = {"W": ("WW", "BW", "FW", "FPB"), "D": ("WD", "BD", "HPB")}


def normalized(system: PointSystem) -> PointSystem:
    """The same point system with every optional value that equals its default set to None."""
    return PointSystem(
        win=system.win,
        draw=system.draw,
        loss=system.loss,
        forfeit_win=_unless(system.forfeit_win, system.win),
        forfeit_loss=_unless(system.forfeit_loss, system.loss),
        pairing_bye=_unless(system.pairing_bye, system.win),
        full_bye=_unless(system.full_bye, system.win),
        half_bye=_unless(system.half_bye, system.draw),
        zero_bye=system.zero_bye,
    )


def _unless(value: Fraction | None, default: Fraction) -> Fraction | None:
    return None if value is None or value == default else value


def xxs_values(assignments: list[tuple[str, Fraction]]) -> dict[str, Fraction]:
    """Apply ``CODE=value`` assignments (shortcuts W and D included) over JaVaFo's defaults."""
    values = dict(_XXS_DEFAULTS)
    for code, value in assignments:
        for target in _XXS_SHORTCUTS.get(code, (code,)):
            values[target] = value
    return values


def point_system_from_xxs(values: dict[str, Fraction]) -> PointSystem:
    """A point system from the twelve XXS values; colour-dependent scoring is refused."""
    for white, black in (("WW", "BW"), ("WD", "BD"), ("WL", "BL")):
        if values[white] != values[black]:
            raise RuleError(
                f"XXS {white}={values[white]} but {black}={values[black]}: "
                "scoring that depends on the colour is not supported"
            )
    return normalized(
        PointSystem(
            win=values["WW"],
            draw=values["WD"],
            loss=values["WL"],
            forfeit_win=values["FW"],
            forfeit_loss=values["FL"],
            pairing_bye=values["PAB"],
            full_bye=values["FPB"],
            half_bye=values["HPB"],
            zero_bye=values["ZPB"],
        )
    )


def xxs_from_point_system(system: PointSystem) -> dict[str, Fraction]:
    """The twelve XXS values of a point system."""
    return {
        "WW": system.win,
        "BW": system.win,
        "WD": system.draw,
        "BD": system.draw,
        "WL": system.loss,
        "BL": system.loss,
        "ZPB": system.zero_bye,
        "HPB": system.half_bye_points,
        "FPB": system.full_bye_points,
        "PAB": system.pairing_bye_points,
        "FW": system.forfeit_win_points,
        "FL": system.forfeit_loss_points,
    }


def xxs_differences(system: PointSystem) -> list[tuple[str, Fraction]]:
    """The XXS codes whose value differs from JaVaFo's default, in a fixed order."""
    values = xxs_from_point_system(system)
    return [(code, values[code]) for code in XXS_CODES if values[code] != _XXS_DEFAULTS[code]]


# 162 symbols: W (win, forfeit win, FPB), D (draw, HPB), L (loss), A (ZPB, forfeit loss),
# P (PAB, default W), X (unknown result, default D).
SCORE_162_SYMBOLS = ("W", "D", "L", "A", "P", "X")


def point_system_from_162(values: dict[str, Fraction]) -> PointSystem:
    win = values.get("W", Fraction(1))
    draw = values.get("D", Fraction(1, 2))
    loss = values.get("L", Fraction(0))
    absence = values.get("A", Fraction(0))
    return normalized(
        PointSystem(
            win=win,
            draw=draw,
            loss=loss,
            forfeit_loss=absence,
            pairing_bye=values.get("P", win),
            zero_bye=absence,
        )
    )


def values_162(system: PointSystem) -> dict[str, Fraction]:
    """The W/D/L/A/P values of a point system (A is the zero-point bye's value)."""
    return {
        "W": system.win,
        "D": system.draw,
        "L": system.loss,
        "A": system.zero_bye,
        "P": system.pairing_bye_points,
    }


def fits_162(system: PointSystem) -> bool:
    """Whether record 162 alone can say this point system (else XXS is written too)."""
    return normalized(system) == point_system_from_162(values_162(system))
