"""A knockout's games in the store: the start, the games inserted as the bracket sets them up,
corrections checked against the bracket, withdrawals and the final places.
"""

from __future__ import annotations

import random as _random
from dataclasses import asdict, dataclass

from sqlalchemy import select

from crosstable.core.errors import RuleError
from crosstable.core.model import Reason, System
from crosstable.core.pairing.knockout import (
    BracketOrder,
    Knockout,
    TieRule,
)
from crosstable.core.system_settings import KnockoutSettings
from crosstable.core.text import Message
from crosstable.service.frame import Done
from crosstable.service.knockout.replay import (
    Due,
    KnockoutState,
    check_knockout,
    games_text,
    replay,
    round_label,
    still_to_play,
)
from crosstable.service.knockout.settings import (
    knockout_bracket,
)
from crosstable.service.loading import Loaded, player_of, result_label
from crosstable.service.unit import Tx
from crosstable.store.models import ByeRow, EntryRow, GameRow, RoundRow

# -- starting --------------------------------------------------------------------------


def start_knockout(tx: Tx, loaded: Loaded, *, random: _random.Random | None = None) -> Done:
    """Fix the bracket and the settings (written back into the regulations), insert
    round 1's games and byes, status → running. ``random`` draws ``lots_seed`` when the
    regulations do not give one (the service's injected source)."""
    row = tx.tournament
    check_knockout(row)
    details = dict(row.regulations or {})
    settings = KnockoutSettings.from_details(details)  # a misspelt setting is refused here
    seed = settings.lots_seed
    if seed is None:
        seed = (random or _random.Random()).randrange(1, 10**9)
    settings = settings.with_seed(seed)
    rules = settings.rules()
    order = settings.bracket
    ordered = sorted(loaded.entries, key=lambda e: e.start or 0)
    players = tuple(player_of(entry) for entry in ordered)
    bracket = knockout_bracket(players, order, seed)
    ko = Knockout.start(bracket, rules)
    details.update(settings.to_details(complete=True))
    tx.update(row, regulations=details)
    by_start = {entry.start: entry for entry in ordered if entry.start is not None}
    tx.insert(RoundRow(number=1, cycle=1))
    tx.flush()
    due = [Due(slot, game, game.number) for slot, game in ko.pending_games()]
    inserted = insert_games(tx, due, by_start)
    for start in bracket.byes:
        tx.insert(ByeRow(round=1, player=by_start[start].number, kind="U"))
    tx.flush()
    tx.update(row, status="running")
    how = (
        Message("seeded")
        if order is BracketOrder.SEEDED
        else Message("random order, seed {seed}", seed=seed)
    )
    byes = Message.joined(
        ", ",
        [Message("{start} {name}", start=s, name=by_start[s].name) for s in bracket.byes],
    )
    summary = Message(
        (
            "knockout started: {players} players, {rounds} rounds ({how}; match {format}"
            "{round_formats}{third}, tie rule {tie_rule}); {first}: {matches} match(es){byes}"
        ),
        players=len(players),
        rounds=bracket.rounds,
        how=how,
        format=rules.format.label(),
        round_formats=Message.joined(
            "",
            [
                Message(", {name} {format}", name=name, format=fmt.label())
                for name, fmt in rules.round_formats
            ],
        ),
        third=Message(", a match for third place") if rules.third_place else "",
        tie_rule=tie_rule_text(rules.tie_rule),
        first=round_label(bracket, 1),
        matches=len(ko.matches),
        byes=Message(", byes: {byes}", byes=byes) if bracket.byes else "",
    )
    return Done(
        summary,
        {
            "rounds": bracket.rounds,
            "paired_round": 1,
            "lots_seed": seed,
            "games": games_json(inserted),
            "byes": list(bracket.byes),
        },
    )


def tie_rule_text(rule: TieRule) -> Message:
    """The tie rule as its setting writes it (``rapid:2,blitz:2,armageddon``), the game
    kinds and the decider in the reader's words (plain values: E_ in web/messages.py)."""
    stages = [Message("{kind}:{games}", kind=s.kind.value, games=s.games) for s in rule.stages]
    return Message.joined(",", [*stages, rule.decider.value])


@dataclass(frozen=True, slots=True)
class InsertedGame:
    """A knockout game just inserted: where it is, its match and game, who plays it and a
    forfeit's result (None: to be played)."""

    round: int
    board: int
    #: the bracket's match (slot) and the game's number within the match
    slot: int
    game: int
    #: the kind of game (``regular``, ``rapid``, ``blitz``…: knockout_match.GameKind)
    kind: str
    #: starting numbers
    white: int
    black: int
    #: a forfeit's result as its label (``1-0F``…), None for a game to play
    result: str | None


def games_json(games: list[InsertedGame]) -> list[dict[str, str | int | None]]:
    """The inserted games as the event's data stores them: each its fields, in order."""
    return [asdict(game) for game in games]


def insert_games(tx: Tx, due: list[Due], by_start: dict[int, EntryRow]) -> list[InsertedGame]:
    """Insert ``due`` games (rounds as needed; boards after the last of each round, in
    bracket order). A game of a player who withdrew before it is a forfeit at once."""
    tid = tx.tournament_id
    rounds = set(tx.session.scalars(select(RoundRow.number).where(RoundRow.tournament_id == tid)))
    boards: dict[int, int] = {}
    for number, board in tx.session.execute(
        select(GameRow.round, GameRow.board).where(GameRow.tournament_id == tid)
    ):
        boards[number] = max(boards.get(number, 0), board)
    new_rounds = sorted({d.round for d in due} - rounds)
    for number in new_rounds:
        tx.insert(RoundRow(number=number, cycle=1))
    if new_rounds:
        tx.flush()
    inserted: list[InsertedGame] = []
    for d in sorted(due, key=lambda d: (d.round, d.slot, d.game.number)):
        board = boards.get(d.round, 0) + 1
        boards[d.round] = board
        white, black = by_start[d.game.white], by_start[d.game.black]
        result = _forfeit(white, black, d.round)
        tx.insert(
            GameRow(
                round=d.round,
                board=board,
                white=white.number,
                black=black.number,
                result=result,
                reason=Reason.NO_SHOW.value if result else Reason.NORMAL.value,
                version=1,
                match=d.slot,
                match_game=d.game.number,
            )
        )
        inserted.append(
            InsertedGame(
                round=d.round,
                board=board,
                slot=d.slot,
                game=d.game.number,
                kind=d.game.kind.value,
                white=d.game.white,
                black=d.game.black,
                result=result_label(result) if result else None,
            )
        )
    tx.flush()
    return inserted


def _forfeit(white: EntryRow, black: EntryRow, rnd: int) -> str | None:
    """The forfeit result of a game whose player withdrew before ``rnd`` (both: none)."""
    gone_white = white.withdrawn_from is not None and white.withdrawn_from <= rnd
    gone_black = black.withdrawn_from is not None and black.withdrawn_from <= rnd
    if gone_white and not gone_black:
        return "-+"
    if gone_black and not gone_white:
        return "+-"
    return None


# -- hooks for Play.correct_result and Play.finish -------------------------------------


def check_knockout_correction(tx: Tx) -> None:
    """Refuse a correction (already applied in ``tx``) that would change who went on
    from a round whose next round is paired, or leave a result outside its match.

    Meant for :meth:`crosstable.service.play.Play.correct_result`: call it right after
    the game's update, for a knockout; the RuleError rolls the correction back. A
    correction inside the current round (say, one that makes tie-break games
    unnecessary) passes: :meth:`KnockoutPlay.pair_next_round` removes those games.
    """
    row = tx.tournament
    if row.system != System.KNOCKOUT.value or row.status == "registration":
        return
    tx.flush()
    state = replay(tx.session, Loaded(tx.session, row), correcting=True)
    if state.problem is not None:
        raise RuleError("correction refused: {problem}", problem=state.problem)


def withdraw_waiting(tx: Tx, loaded: Loaded, entry: EntryRow) -> Done:
    """A knockout player with no game to play right now (waiting for the next round,
    or for a match's next games) withdraws: every game the bracket gives them later is
    inserted as a forfeit loss when it is paired (for ``Play.withdraw``)."""
    state = replay(tx.session, loaded).checked()
    ko = state.knockout
    start = loaded.start_of(entry.number)
    if ko.finished:
        raise RuleError(
            "player {start} {name} has no game left to play: the knockout is over",
            start=start,
            name=entry.name,
        )
    lost = ko.eliminated_in(start)
    if lost is not None:
        raise RuleError(
            (
                "player {start} {name} is out of the knockout already (lost in {round}): there is "
                "nothing to withdraw from"
            ),
            start=start,
            name=entry.name,
            round=state.round_label(lost),
        )
    first = max((r.number for r in loaded.rounds), default=0) + 1
    tx.update(entry, withdrawn_from=first)
    return Done(
        Message(
            "player {start} {name} withdrew: their next game is a forfeit",
            start=start,
            name=entry.name,
        ),
        {"start": start, "from_round": first, "forfeits": 0},
    )


# -- finishing -------------------------------------------------------------------------


def knockout_places(tx: Tx, loaded: Loaded) -> dict[int, int]:
    """Final places from the bracket, by starting number (for ``Play.finish``).

    The champion is 1st, the loser of the final 2nd; players who lost in the same
    round share the places of that round and each gets the best of them: both losing
    semi-finalists 3 (places 3–4), the quarter-final losers 5 (5–8), and so on; after
    a match for third place its winner is 3rd and its loser 4th. Refused while the
    final (or the match for third place) is undecided, while games no longer needed
    are stored, or when the games disagree with the bracket.
    """
    return final_places(replay(tx.session, loaded))


def final_places(state: KnockoutState) -> dict[int, int]:
    """The bracket's final places by the bracket's starting numbers (each the best of the
    places its round shares); refused while the knockout is not over or while games no
    longer needed are stored, or when the games disagree with the bracket."""
    state = state.checked()
    ko = state.knockout
    if not ko.finished:
        raise RuleError("the knockout is not over: {still}", still=still_to_play(state))
    if state.surplus:
        raise RuleError(
            "{games} no longer needed: continue the knockout to remove them, then finish",
            games=games_text(state.surplus),
        )
    return {start: int(place.split("-")[0]) for start, place in ko.placings().items() if place}
