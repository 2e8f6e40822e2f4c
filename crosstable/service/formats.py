"""From what the organiser chooses to the regulations: one function for the web
wizard, the JSON API and ``crosstable new``.

The wizard offers *formats* (a double round robin, quads, a group stage…), the
command line a *system* with options; both end in the same pairing system and the
same settings in the regulations' details, made here by the typed settings of
:mod:`crosstable.core.system_settings` — so the same choice gives the same
regulations whichever way it came in, and a bad value is refused naming it.

>>> system_details(System.KNOCKOUT, match_format="2", tie_rule="Lots")
{'match_format': '2', 'tie_rule': 'lots', 'bracket': 'seeded'}
>>> system_details(System.SWISS_DUTCH, initial_colour="Black", forbidden=" 1-2 ,3-4")
{'initial_colour': 'black', 'forbidden': '1-2,3-4'}
>>> system_details(System.SWISS_DUTCH, rounds=0)
Traceback (most recent call last):
...
crosstable.core.system_settings.SettingError: rounds: 0 — a Swiss has at least one round
"""

from __future__ import annotations

from crosstable.core.errors import RuleError
from crosstable.core.model import System
from crosstable.core.system_settings import KnockoutSettings, SettingError, SwissSettings
from crosstable.core.text import Message

#: the formats of the wizard (and of ``POST /api/v1/tournaments``)
FORMATS = (
    "round-robin",
    "double-round-robin",
    "swiss",
    "knockout",
    "scheveningen",
    "quads",
    "groups",
    "rating-groups",
)
#: the pairing system of each format (what ``Regulations.system`` records)
SYSTEMS = {
    "round-robin": System.ROUND_ROBIN,
    "double-round-robin": System.ROUND_ROBIN,
    "swiss": System.SWISS_DUTCH,
    "knockout": System.KNOCKOUT,
    "scheveningen": System.SCHEVENINGEN,
    "quads": System.ROUND_ROBIN,
    "groups": System.ROUND_ROBIN,
    "rating-groups": System.ROUND_ROBIN,
}


def system_of_format(format_: str) -> System:
    """The pairing system of a wizard format (RuleError naming the formats)."""
    if format_ not in FORMATS:
        raise RuleError(
            "format {format}: use one of {choices}",
            format=repr(format_),
            choices=Message.joined(", ", FORMATS),
        )
    return SYSTEMS[format_]


def system_details(
    system: System,
    *,
    rounds: int | None = None,
    initial_colour: str = "",
    forbidden: str = "",
    acceleration: str = "",
    match_format: str | None = None,
    tie_rule: str | None = None,
    bracket: str | None = None,
    third_place: bool = False,
) -> dict[str, str]:
    """The regulations' details a ``system`` tournament reads, checked and normalised
    (a :class:`SettingError` names the setting); options of other systems are ignored
    here — the command line refuses them by name before it calls this."""
    if system is System.SWISS_DUTCH:
        if rounds is not None and rounds < 1:
            raise SettingError(
                "rounds: {rounds} — a Swiss has at least one round",
                setting="rounds",
                given=rounds,
                why="at least one round",
                rounds=rounds,
            )
        swiss = SwissSettings.from_details(
            {"initial_colour": initial_colour, "forbidden": forbidden, "acceleration": acceleration}
        )
        return swiss.to_details()
    if system is System.KNOCKOUT:
        knockout = KnockoutSettings.from_details(
            {
                "match_format": match_format or "1",
                "tie_rule": tie_rule or "lower-rated",
                "bracket": bracket or "seeded",
                "third_place": "yes" if third_place else "no",
            }
        )
        return knockout.to_details()
    return {}


__all__ = ["FORMATS", "SYSTEMS", "system_details", "system_of_format"]
