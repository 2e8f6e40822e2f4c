"""A player to register and the tie-break list as written: the values the registration checks
before anything is stored (split from service/registration.py, which uses them)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from crosstable.core.errors import RuleError
from crosstable.core.model import Player

__all__ = ["CLUB_LENGTH", "PlayerInfo", "check_tiebreaks"]


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

    def checked(self) -> PlayerInfo:
        name = " ".join(self.name.split())
        if not name:
            raise RuleError("a player needs a name")
        if self.sex not in ("", "m", "w"):
            raise RuleError(
                "player {name}: sex is 'm', 'w' or empty, not {sex}", name=name, sex=repr(self.sex)
            )
        Player(start=1, name=name, rating=self.rating)  # the core's own checks
        club = " ".join(self.club.split())
        if len(club) > CLUB_LENGTH:
            raise RuleError(
                "player {name}: a club is at most {count} characters long",
                name=name,
                count=CLUB_LENGTH,
            )
        return replace(self, name=name, club=club)


#: the longest club name the store keeps (entries.club)
CLUB_LENGTH = 100


def check_tiebreaks(codes: tuple[str, ...]) -> tuple[str, ...]:
    """FIDE tie-break codes as written (``BH/C1``), each known to the core, each once."""
    from crosstable.core.tiebreaks.spec import parse_codes

    cleaned = tuple(code.strip().upper() for code in codes if code.strip())
    parse_codes(cleaned)
    seen: set[str] = set()
    for code in cleaned:
        if code in seen:
            raise RuleError("tie-break {code} is listed twice", code=code)
        seen.add(code)
    return cleaned
