"""Battle chess: colours drawn per round, set-up timeouts.

A tournament is battle chess when its regulations' details say ``variant:
battle`` (docs/battle.md). Then:

* the schedule (FIDE Berger tables) still decides who meets whom, but not who has
  White: the computer draws each game's colours from the tournament's seed
  (``battle_seed``, drawn with the injected random source when the regulations
  give none), the round and the two players' starting numbers
  (:class:`crosstable.core.battle.BattleColours`), so anyone with the seed can check
  every colour afterwards;
* "just before the game" is: round 1 at the start, round r + 1 when the last result
  of round r is recorded — each its own recorded change (``colours``), undoable —
  or earlier by the organiser's "draw colours for round r" step
  (:meth:`BattleChess.draw_colours`, only for the next round not yet drawn);
* a result (and a forfeit, and a player's report) of a game whose colours are not
  drawn yet is refused: who had White is not known;
* a set-up timeout is recorded with :meth:`BattleChess.record_setup_timeout`:
  nobody finished setting up → a draw; only one did → that player wins. It is
  stored as TRF's result of a game shorter than one move (``W``/``D``/``L``) with the
  reason ``setup-timeout``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from sqlalchemy import select

from crosstable.core import battle as rules
from crosstable.core.battle import BattleColours
from crosstable.core.errors import RuleError
from crosstable.core.model import GameResult, Reason, System, Tournament
from crosstable.core.reasons import check_reason
from crosstable.core.text import Message
from crosstable.service.details import folded_edit
from crosstable.service.errors import NotFoundError
from crosstable.service.exchange import Exchange
from crosstable.service.frame import Change, ChangeFrame, Done
from crosstable.service.play import Play, ResultLike, ResultRecorder
from crosstable.service.read_views import JsonObject
from crosstable.service.registration import Regulations
from crosstable.service.tie_lots import TieLots
from crosstable.service.unit import Tx
from crosstable.service.warning_levels import FideWarning
from crosstable.store import Store
from crosstable.store.models import EntryRow, GameRow, RoundRow, TournamentRow

#: the regulations' details that cannot change once the tournament has started
FIXED_AT_START = (rules.VARIANT, rules.SEED)


class Battle:
    """The battle-chess checks around the ordinary use cases: each method checks or
    completes its input, then calls the use case it wraps (the regulations', through
    the checks of the ``ties`` detail; play's; the exchange's), and after some of them
    draws the colours (``colours``: :class:`BattleChess`)."""

    def __init__(
        self,
        frame: ChangeFrame,
        *,
        registration: TieLots,
        play: Play,
        exchange: Exchange,
        colours: BattleChess,
    ) -> None:
        self.frame = frame
        self.registration = registration
        self.play = play
        self.exchange = exchange
        self.colours = colours

    # -- regulations ---------------------------------------------------------------

    def create_tournament(
        self, regulations: Regulations, *, players: Any = (), actor: str = ""
    ) -> Change:
        details = rules.check_battle_details(
            regulations.details, regulations.system, self._new_seed(regulations.details)
        )
        if details != dict(regulations.details):
            regulations = replace(regulations, details=details)
        return self.registration.create_tournament(regulations, players=players, actor=actor)

    def edit_regulations(
        self,
        /,
        tournament_id: int,
        *,
        actor: str = "",
        override_reason: str | None = None,
        **values: Any,
    ) -> Change:
        if {"detail_changes", "details", "system"} & values.keys():
            with self.frame.store.reading() as session:
                row = session.get(TournamentRow, tournament_id)
                # (the keys named, the other details kept: the check below sees them all)
                values = dict(folded_edit(values, None if row is None else row.regulations))
                if row is not None:
                    current = dict(row.regulations or {})
                    system = values.get("system", System(row.system))
                    new = values.get("details", current)
                    # a battle tournament keeps its seed through an edit that leaves it out
                    if (
                        "details" in values
                        and rules.is_battle(new)
                        and not str(new.get(rules.SEED, "")).strip()
                        and current.get(rules.SEED)
                    ):
                        new = dict(new) | {rules.SEED: current[rules.SEED]}
                    checked = rules.check_battle_details(new, system, self._new_seed(new))
                    if row.status != "registration":
                        for key in FIXED_AT_START:
                            if str(current.get(key, "")) != str(checked.get(key, "")):
                                raise RuleError(
                                    (
                                        "{key} cannot change after the start: the colours depend "
                                        "on it (undo the start first)"
                                    ),
                                    key=key.replace("_", " "),
                                )
                    if "details" in values:
                        values["details"] = checked
        return self.registration.edit_regulations(
            tournament_id, actor=actor, override_reason=override_reason, **values
        )

    def _new_seed(self, details: Any) -> int | None:
        if not rules.is_battle(details) or str(details.get(rules.SEED, "")).strip():
            return None
        return int(self.frame.random.getrandbits(48))

    # -- TRF -------------------------------------------------------------------------

    def export_trf(self, tournament_id: int, edition: str = "trf2026") -> str:
        """As :meth:`Exchange.export_trf`; a battle-chess tournament says so in its 092,
        with the seed and the set-up time, and its set-up timeouts are the W/D/L games."""
        text = self.exchange.export_trf(tournament_id, edition)
        found = battle_in(self.frame.store, tournament_id)
        if found is None:
            return text
        lines = text.split("\n")
        for index, line in enumerate(lines):
            if line.startswith("092 "):
                lines[index] = "092 " + trf_type_text(line[4:], found)
                break
        else:
            at = next((i + 1 for i, line in enumerate(lines) if line.startswith("012")), 0)
            lines.insert(at, "092 " + trf_type_text("", found))
        return "\n".join(lines)

    def import_tournament(
        self,
        tournament: Tournament,
        *,
        actor: str = "",
        source: str = "",
        headers: dict[str, str] | None = None,
        records: JsonObject | None = None,
        warnings: Sequence[FideWarning] = (),
    ) -> Change:
        """As :meth:`Exchange.import_tournament`; a TRF that says battle chess in its 092
        (as :meth:`export_trf` writes it) gives a battle-chess tournament: its W/D/L games
        are set-up timeouts, its rounds with a result have their colours drawn, and the
        seed and set-up time are its regulations' (a second recorded change)."""
        details = battle_from_trf(headers)
        if details is None:
            return self.exchange.import_tournament(
                tournament,
                actor=actor,
                source=source,
                headers=headers,
                records=records,
                warnings=warnings,
            )
        rules.check_battle_details(details, tournament.settings.system, 0)
        rounds = tuple(
            replace(
                rnd,
                games=tuple(
                    replace(game, reason=Reason.SETUP_TIMEOUT)
                    if game.result is not None and rules.is_setup_result(game.result)
                    else game
                    for game in rnd.games
                ),
            )
            for rnd in tournament.rounds
        )
        change = self.exchange.import_tournament(
            replace(tournament, rounds=rounds),
            actor=actor,
            source=source,
            headers=headers,
            warnings=warnings,
        )
        played = {rnd.number for rnd in rounds if any(g.result is not None for g in rnd.games)}
        # and, as in play, the round after a complete one (its colours are the drawn ones)
        played |= {
            rnd.number + 1
            for rnd in rounds
            if rnd.games and all(g.result is not None for g in rnd.games)
        }

        def body(tx: Tx) -> Done:
            row = tx.tournament
            seed = details.get(rules.SEED) or str(self._new_seed({rules.VARIANT: rules.BATTLE}))
            tx.update(row, regulations=dict(row.regulations or {}) | details | {rules.SEED: seed})
            for number in sorted(played):
                found = tx.session.get(RoundRow, (row.id, number))
                if found is not None:
                    tx.update(found, colours_drawn=True)
            return Done(Message("battle chess read from the file: colours seed and set-up time"))

        self.frame.change(change.tournament_id, "regulations", body, actor=actor)
        return change

    # -- colours -------------------------------------------------------------------

    def start(self, tournament_id: int, *, actor: str = "") -> Change:
        change = self.play.start(tournament_id, actor=actor)
        if not change.replayed and battle_in(self.frame.store, tournament_id) is not None:
            self.colours.draw_colours(tournament_id, 1, actor=actor)
        return change

    def _check_drawn(self, tournament_id: int, round_number: int, board: int) -> None:
        """Refuse a result of a battle-chess game whose colours are not drawn yet."""
        drawn = self.colours.colours_drawn(tournament_id)
        if drawn is None or round_number not in drawn or drawn[round_number]:
            return
        raise RuleError(
            (
                "round {round} board {board}: the colours of round {again} are not drawn yet, so "
                "who has White is not known; draw them first"
            ),
            round=round_number,
            board=board,
            again=round_number,
        )

    # -- results ---------------------------------------------------------------------

    def record_result(
        self,
        tournament_id: int,
        round_number: int,
        board: int,
        result: ResultLike,
        *,
        actor: str = "",
        idempotency_key: str | None = None,
        expected_version: int | None = None,
        reason: Reason | None = None,
    ) -> Change:
        found = battle_in(
            self.frame.store, tournament_id
        )  # one read; a classical tournament needs no more
        result, reason = self._setup_alias(tournament_id, result, reason, found)
        _fits(result, reason)
        if found is not None:
            self._check_drawn(tournament_id, round_number, board)
        change = self.play.record_result(
            tournament_id,
            round_number,
            board,
            result,
            actor=actor,
            idempotency_key=idempotency_key,
            expected_version=expected_version,
            reason=reason,
        )
        if found is not None and not change.replayed:
            self._draw_next(tournament_id, round_number, actor)
        return change

    def correct_result(
        self,
        tournament_id: int,
        round_number: int,
        board: int,
        result: ResultLike | None,
        *,
        expected: ResultLike | None = None,
        actor: str = "",
        idempotency_key: str | None = None,
        reason: Reason | None = None,
        confirm: str | None = None,
    ) -> Change:
        if result is not None:
            result, reason = self._setup_alias(tournament_id, result, reason)
            _fits(result, reason)
        return self.play.correct_result(
            tournament_id,
            round_number,
            board,
            result,
            expected=expected,
            actor=actor,
            idempotency_key=idempotency_key,
            reason=reason,
            confirm=confirm,
        )

    def _setup_alias(
        self,
        tournament_id: int,
        result: ResultLike,
        reason: Reason | None,
        found: rules.BattleRules | bool | None = True,
    ) -> tuple[ResultLike, Reason | None]:
        """``setup-draw``, ``setup-white``, ``setup-black`` (the CLI's and the API's words
        for a set-up timeout) as the result and reason; refused outside battle chess.
        ``found``: the tournament's battle rules when already read (True: read them)."""
        battle = battle_in(self.frame.store, tournament_id) if found is True else found
        if isinstance(result, str):
            finished = SETUP_WORDS.get(result.strip().lower())
            if finished is not None:
                result, reason = rules.setup_timeout_result(finished), Reason.SETUP_TIMEOUT
        if reason is None and battle is not None:
            value = result if isinstance(result, GameResult) else GameResult.parse(result)
            if rules.is_setup_result(value):  # in battle chess a W/D/L game is a set-up timeout
                reason = Reason.SETUP_TIMEOUT
        if reason is Reason.SETUP_TIMEOUT:
            if battle is None:
                self._battle_tournament_exists(tournament_id)
                raise RuleError(_NOT_BATTLE)
            value = result if isinstance(result, GameResult) else GameResult.parse(result)
            if not rules.is_setup_result(value):
                raise RuleError(
                    (
                        "a set-up timeout is a draw or a win of the player who set up in time, "
                        "not {result}"
                    ),
                    result=value.label(),
                )
        return result, reason

    def report_result(
        self,
        tournament_id: int,
        round_number: int,
        board: int,
        result: ResultLike,
        *,
        player: int,
        actor: str = "",
        idempotency_key: str | None = None,
    ) -> Change:
        self._check_drawn(tournament_id, round_number, board)
        change = self.play.report_result(
            tournament_id,
            round_number,
            board,
            result,
            player=player,
            actor=actor,
            idempotency_key=idempotency_key,
        )
        if not change.replayed:
            self._draw_next(tournament_id, round_number, actor)
        return change

    def _battle_tournament_exists(self, tournament_id: int) -> None:
        with self.frame.store.reading() as session:
            if session.get(TournamentRow, tournament_id) is None:
                raise NotFoundError(
                    "there is no tournament {tournament} in this database", tournament=tournament_id
                )

    def _draw_next(self, tournament_id: int, round_number: int, actor: str) -> None:
        """The round is complete: the next round's colours are drawn (its own change)."""
        with self.frame.store.reading() as session:
            row = session.get(TournamentRow, tournament_id)
            if row is None or row.status != "running" or not rules.is_battle(row.regulations):
                return
            pending = session.scalars(
                select(GameRow.board).where(
                    GameRow.tournament_id == tournament_id,
                    GameRow.round == round_number,
                    GameRow.result.is_(None),
                )
            ).first()
            following = session.get(RoundRow, (tournament_id, round_number + 1))
            if pending is not None or following is None or following.colours_drawn:
                return
        self.colours.draw_colours(tournament_id, round_number + 1, actor=actor)


class BattleChess:
    """The battle-chess use cases: the colours drawn round by round, the set-up
    timeouts (recorded through ``results``: the service, so that every check around
    :meth:`~crosstable.service.play.Play.record_result` applies)."""

    def __init__(self, frame: ChangeFrame, results: ResultRecorder) -> None:
        self.frame = frame
        self.results = results

    def draw_colours(self, tournament_id: int, round_number: int, *, actor: str = "") -> Change:
        """Draw the colours of every game of ``round_number`` (the next round not drawn)."""

        def body(tx: Tx) -> Done:
            row = tx.tournament
            battle = rules.battle_rules(row.regulations)
            if battle is None:
                raise RuleError(
                    "this tournament is not battle chess: its colours come from the schedule"
                )
            if row.status == "registration":
                raise RuleError("the colours are drawn once the tournament has started")
            if row.status == "finished":
                raise RuleError("the tournament is finished; undo the finish first")
            rounds = {
                r.number: r
                for r in tx.session.scalars(
                    select(RoundRow).where(RoundRow.tournament_id == row.id)
                )
            }
            target = rounds.get(round_number)
            if target is None:
                raise RuleError("there is no round {round}", round=round_number)
            if target.colours_drawn:
                raise RuleError(
                    "the colours of round {round} are already drawn", round=round_number
                )
            earlier = [
                n for n in sorted(rounds) if n < round_number and not rounds[n].colours_drawn
            ]
            if earlier:
                raise RuleError(
                    (
                        "round {round}'s colours are not drawn yet: the rounds are drawn in "
                        "order, just before each is played"
                    ),
                    round=earlier[0],
                )
            starts = {
                e.number: (e.start or 0, e.name)
                for e in tx.session.scalars(
                    select(EntryRow).where(EntryRow.tournament_id == row.id)
                )
            }
            number_of = {start: number for number, (start, _) in starts.items()}
            colours = BattleColours(battle.seed)
            games = tx.session.scalars(
                select(GameRow)
                .where(GameRow.tournament_id == row.id, GameRow.round == round_number)
                .order_by(GameRow.board)
            ).all()
            boards: list[dict[str, int]] = []
            shown: list[Message] = []
            for game in games:
                white, black = colours.colours(
                    round_number, starts[game.white][0], starts[game.black][0]
                )
                tx.update(game, white=number_of[white], black=number_of[black])
                boards.append({"board": game.board, "white": white, "black": black})
                shown.append(
                    Message(
                        "board {board}: {white} (White) – {black}",
                        board=game.board,
                        white=starts[game.white][1],
                        black=starts[game.black][1],
                    )
                )
            tx.update(target, colours_drawn=True)
            summary = Message("round {round}: colours drawn by the computer", round=round_number)
            if shown:
                summary = Message(
                    "{summary} — {boards}", summary=summary, boards=Message.joined("; ", shown)
                )
            return Done(summary, {"round": round_number, "boards": boards})

        return self.frame.change(tournament_id, "colours", body, actor=actor)

    def colours_drawn(self, tournament_id: int) -> dict[int, bool] | None:
        """Round → are its colours drawn (None: not a battle-chess tournament)."""
        with self.frame.store.reading() as session:
            row = session.get(TournamentRow, tournament_id)
            if row is None or not rules.is_battle(row.regulations):
                return None
            return {
                number: bool(drawn)
                for number, drawn in session.execute(
                    select(RoundRow.number, RoundRow.colours_drawn).where(
                        RoundRow.tournament_id == tournament_id
                    )
                )
            }

    def battle_rules(self, tournament_id: int) -> rules.BattleRules | None:
        """The tournament's battle-chess rules (None: not battle chess)."""
        return battle_in(self.frame.store, tournament_id)

    def record_setup_timeout(
        self,
        tournament_id: int,
        round_number: int,
        board: int,
        finished: str,
        *,
        actor: str = "",
        idempotency_key: str | None = None,
        expected_version: int | None = None,
    ) -> Change:
        """``finished`` is who set up the pieces in time — ``none`` (a draw),
        ``white`` or ``black`` (that player wins)."""
        value = rules.setup_timeout_result(finished)
        return self.results.record_result(
            tournament_id,
            round_number,
            board,
            value,
            actor=actor,
            idempotency_key=idempotency_key,
            expected_version=expected_version,
            reason=Reason.SETUP_TIMEOUT,
        )


def battle_in(store: Store, tournament_id: int) -> rules.BattleRules | None:
    """The tournament's battle-chess rules (None: classical chess, or no tournament).

    (Read before every result: its regulations alone, :meth:`Store.first`.)"""
    found = store.first(select(TournamentRow.regulations).where(TournamentRow.id == tournament_id))
    return None if found is None else rules.battle_rules(found[0])


#: how an exported TRF says battle chess: words added to its 092 (type of tournament)
TRF_WORDS = "battle chess"
_TRF_BATTLE = re.compile(
    r"battle chess(?:, colours seed (?P<seed>\d{1,16}))?(?:, set-up (?P<minutes>\d{1,3}) min)?",
    re.IGNORECASE,
)


def trf_type_text(text: str, found: rules.BattleRules) -> str:
    """A 092 text with the battle-chess words (docs/battle.md)."""
    words = f"{TRF_WORDS}, colours seed {found.seed}"
    if found.setup_minutes is not None:
        words += f", set-up {found.setup_minutes} min"
    return f"{text.rstrip()}; {words}" if text.strip() else words


def battle_from_trf(headers: dict[str, str] | None) -> dict[str, str] | None:
    """The battle-chess details a TRF's 092 gives (None: not battle chess)."""
    found = _TRF_BATTLE.search((headers or {}).get("092", ""))
    if found is None:
        return None
    details = {rules.VARIANT: rules.BATTLE}
    if found.group("seed"):
        details[rules.SEED] = str(int(found.group("seed")))
    if found.group("minutes"):
        details[rules.SETUP_MINUTES] = str(int(found.group("minutes")))
    return details


#: the words for a set-up timeout's result → who finished setting up in time
SETUP_WORDS = {
    "setup-draw": "none",
    "setup-none": "none",
    "setup-white": "white",
    "setup-black": "black",
}
_NOT_BATTLE = "a set-up timeout is a battle-chess result; this tournament is not battle chess"


def battle_of(row: TournamentRow) -> rules.BattleRules | None:
    """The battle-chess rules of a tournament row (None: not battle chess)."""
    return rules.battle_rules(row.regulations)


def _fits(result: ResultLike, reason: Reason | None) -> None:
    """A reason given with a result fits it (a no-show is a forfeit…; core/reasons.py)."""
    if reason is not None:
        value = result if isinstance(result, GameResult) else GameResult.parse(result)
        check_reason(value, reason)
