"""A player to register and the tie-break list as written: the values the registration checks
before anything is stored (split from service/registration.py, which uses them)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import TypedDict

from crosstable.core.errors import RuleError
from crosstable.core.model import Player
from crosstable.core.text import Message
from crosstable.core.tiebreaks.spec import parse_codes
from crosstable.formats.limits import HIGHEST_RATING, LOWEST_RATING, rating_in_range

__all__ = [
    "CLUB_LENGTH",
    "PlayerInfo",
    "check_tiebreaks",
    "checked_rating",
    "duplicate_names",
    "name_key",
]


def checked_rating(rating: int | None) -> int | None:
    """``rating`` within the one range of every surface (formats/limits.py): 0 and None
    are unrated (None); else a RuleError naming the field and the range.

    >>> checked_rating(2850), checked_rating(0), checked_rating(None)
    (2850, None, None)
    >>> checked_rating(99999)
    Traceback (most recent call last):
    ...
    crosstable.core.errors.RuleError: rating: 99999 is out of range (100–4000, or 0 for unrated)
    """
    if rating is None or rating == 0:
        return None
    if isinstance(rating, bool) or not rating_in_range(rating):
        raise RuleError(
            "rating: {rating} is out of range ({low}–{high}, or 0 for unrated)",
            rating=rating,
            low=LOWEST_RATING,
            high=HIGHEST_RATING,
        )
    return rating


@dataclass(frozen=True, slots=True)
class PlayerInfo:
    """A player to register: only the name is required (guests need no account)."""

    name: str
    rating: int | None = None
    title: str = ""
    federation: str = ""
    fide_id: str = ""
    birth_date: str = ""
    sex: str = ""
    #: the player's team in a Scheveningen ("" elsewhere)
    team: str = ""
    #: the player's club ("" when not given; not in TRF)
    club: str = ""
    #: the national rating and a rating typed by hand, beside the FIDE one (``rating``);
    #: the regulations' rating method chooses the one the tournament ranks by
    national_rating: int | None = None
    manual_rating: int | None = None
    #: whether the player may take half-point byes (no: free entry, special conditions)
    half_byes: bool = True
    #: the rating list and the id in it the player came from ("RUS:12345"; "": typed)
    rating_source: str = ""

    @classmethod
    def of(cls, player: Player) -> PlayerInfo:
        """A core player (read from a file) to register with what the file says."""
        return cls(
            player.name,
            rating=player.rating,
            title=player.title,
            federation=player.federation,
            fide_id=player.fide_id,
            birth_date=player.birth_date,
            sex=player.sex,
        )

    def checked(self) -> PlayerInfo:
        name = " ".join(self.name.split())
        if not name:
            raise RuleError("a player needs a name")
        if self.sex not in ("", "m", "w"):
            raise RuleError(
                "player {name}: sex is 'm', 'w' or empty, not {sex}", name=name, sex=repr(self.sex)
            )
        Player(start=1, name=name, rating=self.rating)  # the core's own checks
        try:  # one range on every surface (formats/limits.py): 0 is unrated
            rating = checked_rating(self.rating)
        except RuleError as error:
            raise RuleError("player {name}: {problem}", name=name, problem=error) from None
        national = _other_rating(name, "national rating", self.national_rating)
        manual = _other_rating(name, "manual rating", self.manual_rating)
        club = " ".join(self.club.split())
        if len(club) > CLUB_LENGTH:
            raise RuleError(
                "player {name}: a club is at most {count} characters long",
                name=name,
                count=CLUB_LENGTH,
            )
        return replace(
            self,
            name=name,
            club=club,
            rating=rating,
            national_rating=national,
            manual_rating=manual,
            half_byes=bool(self.half_byes),
        )


def _other_rating(name: str, which: str, rating: int | None) -> int | None:
    """A national or manual rating within the one range (0 and None: none)."""
    try:
        return checked_rating(rating)
    except RuleError:
        raise RuleError(
            "player {name}: {which} {rating} is out of range ({low}–{high}, or 0 for none)",
            name=name,
            which=Message(which),
            rating=rating,
            low=LOWEST_RATING,
            high=HIGHEST_RATING,
        ) from None


EDITABLE = (
    "name",
    "rating",
    "title",
    "federation",
    "fide_id",
    "birth_date",
    "sex",
    "club",
    "national_rating",
    "manual_rating",
    "half_byes",
)
#: the details that may choose a player's tournament rating
RATINGS = ("rating", "national_rating", "manual_rating")
#: how the history names each detail
DETAIL_NAMES = {
    "name": "name",
    "rating": "rating",
    "title": "title",
    "federation": "federation",
    "fide_id": "FIDE id",
    "birth_date": "birth date",
    "sex": "sex",
    "club": "club",
    "national_rating": "national rating",
    "manual_rating": "manual rating",
    "half_byes": "half-point byes",
}


def detail_text(value: object) -> str:
    """A detail's value as the history line shows it."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return "(none)" if value in (None, "") else str(value)


class EntryColumns(TypedDict):
    """An entry row's columns for a player's details (``EntryRow(**columns)``)."""

    name: str
    rating: int | None
    title: str
    federation: str
    fide_id: str
    birth_date: str
    sex: str
    club: str
    team: str | None
    national_rating: int | None
    manual_rating: int | None
    half_byes: bool
    rating_source: str


def info_columns(info: PlayerInfo) -> EntryColumns:
    """The entry row's columns for a player's details."""
    return {
        "name": info.name,
        "rating": info.rating,
        "title": info.title,
        "federation": info.federation,
        "fide_id": info.fide_id,
        "birth_date": info.birth_date,
        "sex": info.sex,
        "club": info.club,
        "team": " ".join(info.team.split()) or None,
        "national_rating": info.national_rating,
        "manual_rating": info.manual_rating,
        "half_byes": info.half_byes,
        "rating_source": info.rating_source[:80],
    }


#: the longest club name the store keeps (entries.club)
CLUB_LENGTH = 100


def check_tiebreaks(codes: tuple[str, ...]) -> tuple[str, ...]:
    """FIDE tie-break codes as written (``BH/C1``), each known to the core, each once."""
    cleaned = tuple(code.strip().upper() for code in codes if code.strip())
    parse_codes(cleaned)
    seen: set[str] = set()
    for code in cleaned:
        if code in seen:
            raise RuleError("tie-break {code} is listed twice", code=code)
        seen.add(code)
    return cleaned


def name_key(name: str) -> str:
    """What makes two names the same name: case, spaces and ё/е aside.

    >>> name_key(" Anna  PETROVA ") == name_key("anna petrova")
    True
    >>> name_key("Пётр") == name_key("Петр")
    True
    """
    return " ".join(name.split()).casefold().replace("ё", "е")


def duplicate_names(names: Iterable[str], new: Iterable[str] = ()) -> list[Message]:
    """A warning for each name given to more than one player: among
    ``names`` (the players registered) and ``new`` (those being added), only for the
    names that the new ones repeat (all of them when no ``new`` is given). A warning,
    never a refusal: two players may share a name, and the pages tell them apart.

    >>> [str(m) for m in duplicate_names(["Anna", "Boris"], ["anna "])]
    ['2 players are named Anna: the pages tell them apart by their numbers']
    """
    everyone = list(names) + list(new)
    counts: dict[str, list[str]] = {}
    for name in everyone:
        counts.setdefault(name_key(name), []).append(" ".join(name.split()))
    wanted = {name_key(name) for name in new} if new else set(counts)
    return [
        Message(
            "{count} players are named {name}: the pages tell them apart by their numbers",
            count=len(same),
            name=same[0],
        )
        for key, same in counts.items()
        if len(same) > 1 and key in wanted
    ]
