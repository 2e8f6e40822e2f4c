"""Events longer than 30 days: later ratings entered by round, and FIDE's advice against
rating-based tie-breaks there (the settings: :mod:`.long_event_settings`)."""

from __future__ import annotations

from crosstable.core.errors import RuleError
from crosstable.core.model import Settings
from crosstable.core.text import Message
from crosstable.core.tiebreaks.spec import parse_code
from crosstable.service.errors import NotFoundError
from crosstable.service.frame import Change, ChangeFrame, Done
from crosstable.service.long_event_settings import (
    RATINGS_BY_ROUND,
    long_event,
    ratings_text,
    stored_ratings,
)
from crosstable.service.players import checked_rating
from crosstable.service.unit import Tx
from crosstable.service.warning_levels import FideWarning, Level
from crosstable.store.models import EntryRow, TournamentRow

#: the tie-breaks that read ratings (C.07 art. 10)
RATING_BASED = frozenset({"ARO", "ARO_RATED", "TPR", "PTP", "APRO", "APPO", "RTNG"})


def rated_codes(codes: tuple[str, ...]) -> list[str]:
    """The rating-based tie-breaks of a list."""
    found = []
    for code in codes:
        try:
            name = parse_code(code).name
        except RuleError:
            continue
        if name in RATING_BASED:
            found.append(code)
    return found


def long_event_warning(
    settings: Settings | None, new: Settings, round_number: int
) -> FideWarning | None:
    """A level-2 notice when an event over 30 days gets rating-based tie-breaks (newly
    flagged, or such tie-breaks newly chosen): FIDE advises against them there."""
    rated = rated_codes(new.tiebreaks)
    if not new.long_event or not rated:
        return None
    if settings is not None and settings.long_event and rated == rated_codes(settings.tiebreaks):
        return None
    return FideWarning(
        code="long-event-rating-tiebreaks",
        level=Level.ACKNOWLEDGE,
        message=Message(
            "the event lasts more than 30 days: FIDE advises against rating-based tie-breaks "
            "({codes}), as ratings change during it",
            codes=", ".join(rated),
        ),
        trf=f"Configuration: rating-based tie-breaks in an event over 30 days: {' '.join(rated)}",
        round=round_number,
    )


class LongEvents:
    """Later ratings of the players of an event longer than 30 days."""

    def __init__(self, frame: ChangeFrame) -> None:
        self.frame = frame

    def round_ratings(self, tournament_id: int) -> dict[int, tuple[tuple[int, int], ...]]:
        """Every player's later ratings by registration number (none unless flagged)."""
        with self.frame.store.reading() as session:
            row = session.get(TournamentRow, tournament_id)
            if row is None:
                raise NotFoundError(
                    "there is no tournament {tournament} in this database", tournament=tournament_id
                )
            return stored_ratings(row.regulations)

    def set_round_rating(
        self,
        tournament_id: int,
        number: int,
        from_round: int,
        rating: int | None,
        *,
        actor: str = "",
    ) -> Change:
        """Give player ``number`` (registration number) the rating ``rating`` from round
        ``from_round`` on; None removes the rating that starts there."""
        if from_round < 2:
            raise RuleError(
                "a later rating covers round 2 or later (the first rating covers round 1), "
                "not {round}",
                round=from_round,
            )
        rating = checked_rating(rating)

        def body(tx: Tx) -> Done:
            row = tx.tournament
            if not long_event(row.regulations):
                raise RuleError(
                    "ratings by round are for events longer than 30 days: flag the event first "
                    "(regulations: more than 30 days)"
                )
            if row.status == "finished":
                raise RuleError("the tournament is finished; undo the finish to change it")
            entry = tx.session.get(EntryRow, (row.id, number))
            if entry is None:
                raise RuleError("there is no player {number}", number=number)
            planned = row.rounds_planned
            if planned is not None and from_round > planned:
                raise RuleError(
                    "round {round}: the tournament has {rounds} rounds",
                    round=from_round,
                    rounds=planned,
                )
            ratings = stored_ratings(row.regulations)
            later = dict(ratings.get(number, ()))
            if rating is None:
                if from_round not in later:
                    raise RuleError(
                        "player {number} {name} has no rating from round {round}",
                        number=number,
                        name=entry.name,
                        round=from_round,
                    )
                del later[from_round]
            else:
                later[from_round] = rating
            ratings[number] = tuple(sorted(later.items()))
            text = ratings_text({n: v for n, v in ratings.items() if v})
            tx.update(row, regulations=dict(row.regulations or {}) | {RATINGS_BY_ROUND: text})
            said = (
                Message(
                    "player {number} {name}: rated {rating} from round {round}",
                    number=number,
                    name=entry.name,
                    rating=rating,
                    round=from_round,
                )
                if rating is not None
                else Message(
                    "player {number} {name}: no new rating from round {round}",
                    number=number,
                    name=entry.name,
                    round=from_round,
                )
            )
            return Done(said, {"number": number, "round": from_round, "rating": rating})

        return self.frame.change(tournament_id, "player-edit", body, actor=actor)
