"""The finish: the final places, fixed by the organiser or by the last result.

Seeds 000 and 002: the tournament ends with its last game, and the places are
distributed then. So a result that completes the tournament finishes it in the
same change: the result's event also fixes the places and sets
the status to finished (its data says ``"finished": "auto"``, its summary says so),
and undoing that result reopens the tournament as an ordinary undo. "Complete"
is, per system:

* round robin and Scheveningen — every scheduled game has a result;
* Swiss — every planned round is paired and every game has a result;
* knockout — the final (and the match for third place) is decided, with no game
  left that the bracket no longer needs.

Regulations that say ``finish = confirm`` keep the tournament running until the
organiser finishes it (:meth:`crosstable.service.play.Play.finish`). Finishing a
finished tournament changes nothing and says so (a replayed change).
"""

from __future__ import annotations

from sqlalchemy import func, select

from crosstable.core.errors import RuleError
from crosstable.core.text import Message
from crosstable.service.adjournment_state import check_none_open
from crosstable.service.details import Details
from crosstable.service.frame import Done
from crosstable.service.live import final_places
from crosstable.service.loading import Loaded
from crosstable.service.lots import (
    TIES_SEED,
    derived_ties_seed,
    shared_places,
    ties_by_lots,
    ties_lots_seed,
)
from crosstable.service.systems import rules_of
from crosstable.service.unit import Tx
from crosstable.store.models import GameRow

#: the regulations' detail that says how the tournament finishes
FINISH = "finish"
#: auto: with its last result (the default); confirm: when the organiser finishes it
FINISH_MODES = ("auto", "confirm")


def finish_mode(details: Details | None) -> str:
    """``auto`` or ``confirm`` (what the regulations say; auto when they say nothing)."""
    return str((details or {}).get(FINISH) or "auto").strip().lower()


def check_finish_setting(details: Details) -> None:
    """Refuse a ``finish`` detail that is neither auto nor confirm."""
    if FINISH in details and finish_mode(details) not in FINISH_MODES:
        raise RuleError(
            "finish is auto or confirm, not {value}", value=repr(str(details[FINISH])[:40])
        )


def final_standing(tx: Tx, loaded: Loaded) -> dict[int, int]:
    """The final place by starting number; RuleError while the tournament is not over."""
    row = loaded.row
    rules = rules_of(row)  # the system's own say (a knockout's bracket, a Swiss's rounds)
    bracket_places = rules.bracket_places(tx, loaded)
    missing = [g for g in loaded.games if g.result is None]
    if missing:
        listed = Message.joined(
            ", ",
            (
                Message("round {round} board {board}", round=g.round, board=g.board)
                for g in missing[:5]
            ),
        )
        if len(missing) > 5:
            listed = Message("{item} and {count} more", item=listed, count=len(missing) - 5)
        if len(missing) == 1:
            raise RuleError("1 game has no result yet: {listed}", listed=listed)
        raise RuleError(
            "{count} games have no result yet: {listed}", count=len(missing), listed=listed
        )
    check_none_open(loaded)  # an adjourned game without its result: standings provisional
    rules.check_finished(loaded)
    if bracket_places is not None:
        return bracket_places
    places = final_places(loaded.tournament())
    if ties_by_lots(row.regulations) and shared_places(places):
        return lots_for_ties(tx, loaded)
    return places


def lots_for_ties(tx: Tx, loaded: Loaded) -> dict[int, int]:
    """The final places when a tie is left after the whole list and the regulations ask
    for lots: the seed is derived from the tournament (so a finish undone and made
    again draws the same order), recorded in the regulations as a change of this same
    event (undo takes it back; the history, replayed, gives the same places) and the
    standings are ranked with it."""
    row = loaded.row
    seed = ties_lots_seed(row.regulations)
    if seed is None:
        seed = derived_ties_seed(row, loaded.entries)
        tx.update(row, regulations=dict(row.regulations or {}) | {TIES_SEED: str(seed)})
    return final_places(loaded.tournament())


def fix_places(tx: Tx, loaded: Loaded, places: dict[int, int]) -> str:
    """Write the final places and the status; what to say ("places are final; first: …")."""
    for entry in loaded.entries:
        tx.update(entry, place=places.get(loaded.start_of(entry.number)))
    tx.update(loaded.row, status="finished")
    said = Message("places are final; first: {winners}", winners=winners(loaded))
    seed = ties_lots_seed(loaded.row.regulations)
    if seed is not None:  # the history says the ties were drawn, and with what
        said = Message(
            "{places}; ties after the tie-breaks: lots drawn, seed {seed}", places=said, seed=seed
        )
    return said


def winners(loaded: Loaded) -> str:
    first = [e for e in loaded.entries if e.place == 1]
    return " and ".join(e.name for e in first) or "nobody"


def finish_by_itself(tx: Tx, answer: str | Done) -> Done:
    """``answer`` (a result's summary), finishing the tournament in the same change when
    that result completed it and the regulations do not ask the organiser to confirm."""
    done = answer if isinstance(answer, Done) else Done(answer)
    row = tx.tournament
    if row.status != "running" or finish_mode(row.regulations) != "auto":
        return done
    tx.flush()
    counts = select(func.count(), func.count(GameRow.result)).where(GameRow.tournament_id == row.id)
    games, with_result = tx.session.execute(counts).one()
    if games == 0 or with_result < games:
        return done
    loaded = Loaded(tx.session, row)
    try:
        places = final_standing(tx, loaded)
    except RuleError:  # not over yet (a Swiss round to pair, a knockout match to go on)
        return done
    said = fix_places(tx, loaded, places)
    return Done(
        Message(
            "{summary}; the last result is in: the tournament is finished, {places}",
            summary=done.summary,
            places=said,
        ),
        done.data | {"finished": "auto"},
    )
