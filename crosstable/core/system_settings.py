"""The settings of each pairing system as typed values.

A tournament's regulations keep them as text in their details, next to free text
such as the venue (``{"match_format": "2", "tie_rule": "lots", "venue": "Yerevan"}``),
the format every stored tournament has. Each system reads its own settings through
ONE class here — :class:`SwissSettings`, :class:`KnockoutSettings`,
:class:`ScheveningenSettings`, :class:`RoundRobinSettings`, or a plug-in's, registered
with :func:`register_settings` — whose
:meth:`~SwissSettings.from_details` checks every value (a :class:`SettingError`
naming the key) and, ``strict``, refuses a setting the system does not have: another
system's (``match_format`` in a Swiss) or a misspelt one (``tie_rules``).
:meth:`~SwissSettings.to_details` gives the text back; the two are inverse:

>>> s = KnockoutSettings.from_details({"match_format": "2", "tie_rule": "Lots", "venue": "Y"})
>>> s.to_details()
{'match_format': '2', 'tie_rule': 'lots', 'bracket': 'seeded'}
>>> KnockoutSettings.from_details(s.to_details()) == s
True
>>> def refused(details):
...     try:
...         SwissSettings.from_details(details)
...     except SettingError as error:
...         return str(error)
>>> refused({"initial_colour": "white", "tie_rule": "lots"})
'regulations, tie_rule: a setting of a knockout, not of a Swiss'
>>> refused({"initial_color": "white"})
'regulations, initial_color: not a setting of a Swiss (did you mean initial_colour?)'
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar, Self

from crosstable.core.errors import RuleError
from crosstable.core.model import Colour, System
from crosstable.core.pairing.knockout_bracket import BracketOrder
from crosstable.core.pairing.knockout_match import (
    MatchFormat,
    MatchRules,
    TieRule,
    parse_round_formats,
    round_formats_label,
)

Details = Mapping[str, Any]


class SettingError(RuleError):
    """A system setting that cannot be used: ``key`` is the regulations' detail,
    ``value`` what it says, ``why`` what is wrong (the command line names its option)."""

    def __init__(
        self,
        message: str = "",
        /,
        *,
        setting: str,
        given: object = "",
        why: object = "",
        **params: object,
    ) -> None:
        super().__init__(message, **params)
        self.key = setting
        self.value = given
        self.why = str(why or self.message)

    def option_text(self) -> str:
        """The message as the command line says it: ``--initial-colour 'red': use …``."""
        option = "--" + self.key.replace("_", "-")
        if self.value == "" or repr(self.value) in self.why:
            return f"{option}: {self.why}"
        return f"{option} {self.value!r}: {self.why}"


#: the settings each system reads from the regulations' details
SWISS_KEYS = (
    "initial_colour",
    "forbidden",
    "acceleration",
    "initial_order",
    "order_seed",
    "even_field",
)
KNOCKOUT_KEYS = ("match_format", "tie_rule", "bracket", "lots_seed", "round_formats", "third_place")
SETTING_KEYS: dict[System, tuple[str, ...]] = {
    System.ROUND_ROBIN: ("schedule",),
    System.SWISS_DUTCH: SWISS_KEYS,
    System.KNOCKOUT: KNOCKOUT_KEYS,
    System.SCHEVENINGEN: (),
}
#: how a message names a tournament of each system
SYSTEM_NOUNS = {
    System.ROUND_ROBIN: "a round robin",
    System.SWISS_DUTCH: "a Swiss",
    System.KNOCKOUT: "a knockout",
    System.SCHEVENINGEN: "a Scheveningen",
}
_OWNER = {key: system for system, keys in SETTING_KEYS.items() for key in keys}
#: how close a key must be to a setting's to count as a misspelling of it (0…1)
_CLOSE = 0.8
_YES_NO = {"yes": True, "true": True, "1": True, "no": False, "false": False, "0": False}
_COLOURS = {"white": Colour.WHITE, "black": Colour.BLACK}


def _text(details: Details, key: str) -> str:
    return str(details.get(key) or "").strip()


def check_keys(system: System, details: Details) -> None:
    """Refuse a detail that is another system's setting, or close to the name of a
    setting (a misspelling); other details (the venue, the arbiter…) pass."""
    own = SETTING_KEYS.get(system)
    if own is None:
        raise RuleError("system {system} has no settings registered", system=system.value)
    for key in details:
        if key in own:
            continue
        owner = _OWNER.get(key)
        noun = SYSTEM_NOUNS[system]
        if owner is not None:
            raise SettingError(
                "regulations, {key}: a setting of {owner}, not of {system}",
                setting=key,
                key=key,
                owner=SYSTEM_NOUNS[owner],
                system=noun,
            )
        close = difflib.get_close_matches(key.strip().lower(), list(_OWNER), n=1, cutoff=_CLOSE)
        if close:
            raise SettingError(
                "regulations, {key}: not a setting of {system} (did you mean {name}?)",
                setting=key,
                key=key,
                system=noun,
                name=close[0],
            )


# -- the Swiss -------------------------------------------------------------------------


def parse_forbidden(text: str) -> tuple[tuple[int, ...], ...]:
    """``"1-2,3-4-5"`` → ((1, 2), (3, 4, 5)): groups of players who may not meet.

    >>> parse_forbidden(" 1-2, 3-4-5 ")
    ((1, 2), (3, 4, 5))
    """
    groups: list[tuple[int, ...]] = []
    for part in text.split(","):
        if not part.strip():
            continue
        members: list[int] = []
        for number in part.split("-"):
            if not number.strip().isdigit():
                raise SettingError(
                    (
                        "forbidden pairs {text}: {pair} is not like 1-2 (starting numbers joined "
                        "by -, pairs separated by commas)"
                    ),
                    setting="forbidden",
                    given=text,
                    text=repr(text),
                    pair=repr(part.strip()),
                )
            members.append(int(number))
        if len(set(members)) < 2:
            raise SettingError(
                "forbidden pairs {text}: {pair} names one player",
                setting="forbidden",
                given=text,
                text=repr(text),
                pair=repr(part.strip()),
            )
        groups.append(tuple(members))
    return tuple(groups)


@dataclass(frozen=True, slots=True)
class SwissSettings:
    """A Swiss (FIDE Dutch): player 1's colour in round 1 (None: drawn by lot at the
    start), groups of starting numbers who may not meet, Baku acceleration."""

    initial_colour: Colour | None = None
    forbidden: tuple[tuple[int, ...], ...] = ()
    baku: bool = False

    system: ClassVar[System] = System.SWISS_DUTCH

    @classmethod
    def from_details(cls, details: Details, *, strict: bool = True) -> SwissSettings:
        if strict:
            check_keys(cls.system, details)
        colour = _text(details, "initial_colour").lower()
        if colour and colour not in _COLOURS:
            raise SettingError(
                "initial colour {colour}: use white or black (or leave it to the lot)",
                setting="initial_colour",
                given=colour,
                why="use white or black (or leave it to the lot)",
                colour=repr(colour),
            )
        speed = _text(details, "acceleration").lower()
        if speed not in ("", "baku"):
            raise SettingError(
                "acceleration {acceleration}: use baku or none",
                setting="acceleration",
                given=speed,
                why="use baku or none",
                acceleration=repr(speed),
            )
        return cls(
            initial_colour=_COLOURS.get(colour),
            forbidden=parse_forbidden(str(details.get("forbidden") or "")),
            baku=speed == "baku",
        )

    def to_details(self) -> dict[str, str]:
        """``initial_colour`` always ("" while the lot is to decide), the rest when set."""
        colour = "" if self.initial_colour is None else self.initial_colour.name.lower()
        out = {"initial_colour": colour}
        if self.forbidden:
            out["forbidden"] = ",".join("-".join(map(str, group)) for group in self.forbidden)
        if self.baku:
            out["acceleration"] = "baku"
        return out

    def check_players(self, players: int) -> None:
        """Every forbidden pair names players of the field (1…``players``)."""
        for group in self.forbidden:
            for start in group:
                if not 1 <= start <= players:
                    raise SettingError(
                        (
                            "forbidden pairs: there is no starting number {start} (players "
                            "1–{players})"
                        ),
                        setting="forbidden",
                        start=start,
                        players=players,
                    )


# -- the knockout ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class KnockoutSettings:
    """A knockout: the games of a match, the tie rule, the bracket order, the seed of
    every lot (None until the start draws it), formats by round, a match for third place."""

    match_format: MatchFormat = field(default_factory=MatchFormat)
    tie_rule: TieRule = field(default_factory=TieRule)
    bracket: BracketOrder = BracketOrder.SEEDED
    lots_seed: int | None = None
    round_formats: tuple[tuple[str, MatchFormat], ...] = ()
    third_place: bool = False

    system: ClassVar[System] = System.KNOCKOUT

    @classmethod
    def from_details(cls, details: Details, *, strict: bool = True) -> KnockoutSettings:
        if strict:
            check_keys(cls.system, details)
        text = str(details.get("match_format") or "1")
        try:
            fmt = MatchFormat.parse(text)
        except RuleError as error:
            raise SettingError(
                "regulations, match_format {text}: {error}",
                setting="match_format",
                given=text,
                why=error,
                text=repr(text),
                error=error,
            ) from None
        rule = str(details.get("tie_rule") or "lower-rated")
        try:
            tie = TieRule.parse(rule)
        except RuleError as error:
            raise SettingError(
                "regulations, tie_rule {text}: {error}",
                setting="tie_rule",
                given=rule,
                why=error,
                text=repr(rule),
                error=error,
            ) from None
        rounds = str(details.get("round_formats") or "")
        try:
            formats = parse_round_formats(rounds)
        except RuleError as error:
            raise SettingError(
                "regulations, round_formats {text}: {error}",
                setting="round_formats",
                given=rounds,
                why=error,
                text=repr(rounds),
                error=error,
            ) from None
        third = (_text(details, "third_place") or "no").lower()
        if third not in _YES_NO:
            raise SettingError(
                "regulations, third_place {text}: use yes or no",
                setting="third_place",
                given=third,
                why="use yes or no",
                text=repr(third),
            )
        order = (_text(details, "bracket") or "seeded").lower()
        if order not in ("seeded", "random"):
            raise SettingError(
                "regulations, bracket {text}: use seeded or random",
                setting="bracket",
                given=order,
                why="use seeded or random",
                text=repr(order),
            )
        seed = _text(details, "lots_seed")
        if seed and not seed.removeprefix("-").isdigit():
            raise SettingError(
                "regulations, lots_seed {text}: not a whole number",
                setting="lots_seed",
                given=seed,
                why="not a whole number",
                text=repr(seed),
            )
        return cls(
            match_format=fmt,
            tie_rule=tie,
            bracket=BracketOrder(order),
            lots_seed=int(seed) if seed else None,
            round_formats=formats,
            third_place=_YES_NO[third],
        )

    def to_details(self, *, complete: bool = False) -> dict[str, str]:
        """The match format, tie rule and bracket always; the seed, the formats by round
        and the match for third place when set, or always (``complete``: as the start
        records them)."""
        out = {
            "match_format": self.match_format.label(),
            "tie_rule": self.tie_rule.label(),
            "bracket": self.bracket.value,
        }
        if complete or self.lots_seed is not None:
            out["lots_seed"] = "" if self.lots_seed is None else str(self.lots_seed)
        if complete or self.round_formats:
            out["round_formats"] = round_formats_label(self.round_formats)
        if complete or self.third_place:
            out["third_place"] = "yes" if self.third_place else "no"
        return out

    def rules(self, seed: int | None = None) -> MatchRules:
        """The core's match rules, every lot from ``seed`` (else the recorded seed)."""
        chosen = self.lots_seed if seed is None else seed
        if chosen is None:
            raise SettingError(
                "regulations: lots_seed is missing (the start records it)",
                setting="lots_seed",
            )
        return MatchRules(
            self.match_format,
            self.tie_rule,
            chosen,
            ahead=True,
            round_formats=self.round_formats,
            third_place=self.third_place,
        )

    def with_seed(self, seed: int) -> KnockoutSettings:
        return replace(self, lots_seed=seed)


# -- the round robin and the Scheveningen ----------------------------------------------


class NoSettings:
    """A system whose details hold no settings of its own: ``from_details`` only
    refuses other systems' settings (and misspelt ones)."""

    __slots__ = ()
    system: ClassVar[System]

    @classmethod
    def from_details(cls, details: Details, *, strict: bool = True) -> Self:
        if strict:
            check_keys(cls.system, details)
        return cls()

    def to_details(self) -> dict[str, str]:
        return {}


@dataclass(frozen=True, slots=True)
class RoundRobinSettings(NoSettings):
    """A round robin has no settings in the details (cycles and the swap of the last
    rounds are the regulations' own fields)."""

    system: ClassVar[System] = System.ROUND_ROBIN


@dataclass(frozen=True, slots=True)
class ScheveningenSettings(NoSettings):
    """A Scheveningen has no settings in the details (the teams are the players',
    the cycles the regulations' field)."""

    system: ClassVar[System] = System.SCHEVENINGEN


SystemSettings = SwissSettings | KnockoutSettings | RoundRobinSettings | ScheveningenSettings
_CLASSES: dict[System, Any] = {
    System.ROUND_ROBIN: RoundRobinSettings,
    System.SWISS_DUTCH: SwissSettings,
    System.KNOCKOUT: KnockoutSettings,
    System.SCHEVENINGEN: ScheveningenSettings,
}
_BUILT_IN = frozenset(_CLASSES)


def settings_of(system: System, details: Details, *, strict: bool = True) -> SystemSettings:
    """The typed settings of a ``system`` tournament from its regulations' details."""
    found: SystemSettings = _CLASSES[system].from_details(details, strict=strict)
    return found


def register_settings(
    system: System, settings: type[Any], noun: str, keys: tuple[str, ...] = ()
) -> None:
    """A plug-in system's settings: the class reading them (``from_details``,
    ``to_details``), how a message names a tournament of it ("a toy system"), and the
    detail keys that are its own (refused in other systems' regulations)."""
    for key in keys:
        owner = _OWNER.get(key)
        if owner is not None and owner is not system:
            raise RuleError(
                "setting {key} is already {owner}'s", key=key, owner=SYSTEM_NOUNS[owner]
            )
    SETTING_KEYS[system] = keys
    SYSTEM_NOUNS[system] = noun
    _CLASSES[system] = settings
    for key in keys:
        _OWNER[key] = system


def unregister_settings(system: System) -> None:
    """Forget a plug-in system's settings (the built-in systems keep theirs)."""
    if system in _BUILT_IN:
        return
    for key in SETTING_KEYS.pop(system, ()):
        _OWNER.pop(key, None)
    SYSTEM_NOUNS.pop(system, None)
    _CLASSES.pop(system, None)


__all__ = [
    "KNOCKOUT_KEYS",
    "SETTING_KEYS",
    "SWISS_KEYS",
    "SYSTEM_NOUNS",
    "KnockoutSettings",
    "NoSettings",
    "RoundRobinSettings",
    "ScheveningenSettings",
    "SettingError",
    "SwissSettings",
    "SystemSettings",
    "check_keys",
    "parse_forbidden",
    "register_settings",
    "settings_of",
    "unregister_settings",
]
