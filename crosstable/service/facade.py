"""The service: every use case of a tournament and of a series, over one change frame.

:class:`Service` is a facade. It builds the change frame
(:class:`~crosstable.service.frame.ChangeFrame`: the store, clock, random source, bus
and live tables every part shares) and the parts, one per job, each an object of its
own that receives the frame and whatever else it calls; it shows their use cases as
its own methods (:func:`~crosstable.service.forward.forward`), each done by exactly
one part (tests/test_service_parts.py).

Two parts only wrap use cases of others: :class:`~crosstable.service.tie_lots.TieLots`
checks the regulations' ``ties`` detail around the registration's
``create_tournament`` and ``edit_regulations``, and
:class:`~crosstable.service.battle.Battle` checks battle chess around those (through
TieLots), around play's results and the start, and around the TRF exchange. The
service shows the outermost wrapper of a use case, so its checks come first. Parts
that record a result or run a tournament themselves (a forfeit, a set-up timeout, a
series' tournaments) are handed the service, so those calls go through the same
checks as an organiser's.
"""

from __future__ import annotations

import random as _random

from crosstable.service.adjourned import Adjournments
from crosstable.service.battle import Battle, BattleChess
from crosstable.service.bus import EventBus
from crosstable.service.checkin import CheckIn
from crosstable.service.clock import Clock
from crosstable.service.exchange import Exchange
from crosstable.service.expulsion import Expulsions
from crosstable.service.fide_mode import FideMode
from crosstable.service.forward import forward
from crosstable.service.frame import ChangeFrame
from crosstable.service.history import History
from crosstable.service.knockout import KnockoutPlay
from crosstable.service.live import LiveTables
from crosstable.service.long_events import LongEvents
from crosstable.service.pairing_phase import PairingPhase
from crosstable.service.pgn import PgnPlay
from crosstable.service.play import Play
from crosstable.service.queries import Queries
from crosstable.service.registration import Registration
from crosstable.service.report_corrections import ReportCorrections
from crosstable.service.round_robin_hand import RoundRobinHand
from crosstable.service.safeguard import Safeguard
from crosstable.service.series import SeriesPlay
from crosstable.service.series.editions import SeriesEditions
from crosstable.service.series.later_stages import StageRegistration
from crosstable.service.series.news import SeriesNews
from crosstable.service.series.petitions import SeriesPetitions
from crosstable.service.series.season import SeriesSeason
from crosstable.service.series.tick import SeriesClock
from crosstable.service.stages import StagePlay
from crosstable.service.swiss import SwissPlay
from crosstable.service.tables import ReadModel
from crosstable.service.teams.bughouse import BughousePlay
from crosstable.service.teams.part import TeamPlay
from crosstable.service.teams.swiss import TeamSwissPlay
from crosstable.service.tie_lots import TieLots
from crosstable.store import Store


class Service:
    """Every use case of a tournament, over one store, clock, random source and bus."""

    # registration.py: before the first round: regulations, players, lots
    add_player = forward("registration", Registration.add_player)
    draw_lots = forward("registration", Registration.draw_lots)
    edit_player = forward("registration", Registration.edit_player)
    player_details = forward("registration", Registration.player_details)
    remove_player = forward("registration", Registration.remove_player)
    # play.py: from the start to the finish: results, withdrawals, the finish
    confirm_result = forward("play", Play.confirm_result)
    finish = forward("play", Play.finish)
    mark_forfeit = forward("play", Play.mark_forfeit)
    reject_reports = forward("play", Play.reject_reports)
    withdraw = forward("play", Play.withdraw)
    # adjourned.py: adjourned games (result not known yet) and their later results
    adjourn_game = forward("adjournments", Adjournments.adjourn_game)
    adjourned_result = forward("adjournments", Adjournments.adjourned_result)
    # battle.py: the use cases battle chess and the ``ties`` detail check first
    correct_result = forward("battle", Battle.correct_result)
    create_tournament = forward("battle", Battle.create_tournament)
    edit_regulations = forward("battle", Battle.edit_regulations)
    export_trf = forward("battle", Battle.export_trf)
    import_tournament = forward("battle", Battle.import_tournament)
    record_result = forward("battle", Battle.record_result)
    report_result = forward("battle", Battle.report_result)
    start = forward("battle", Battle.start)
    # battle.py: battle chess's own use cases: the colours, set-up timeouts
    battle_rules = forward("battle_chess", BattleChess.battle_rules)
    colours_drawn = forward("battle_chess", BattleChess.colours_drawn)
    draw_colours = forward("battle_chess", BattleChess.draw_colours)
    record_setup_timeout = forward("battle_chess", BattleChess.record_setup_timeout)
    # swiss/: a Swiss's rounds: propose and publish each pairing
    cancel_bye = forward("swiss", SwissPlay.cancel_bye)
    propose_round = forward("swiss", SwissPlay.propose_round)
    publish_round = forward("swiss", SwissPlay.publish_round)
    published_with_key = forward("swiss", SwissPlay.published_with_key)
    request_bye = forward("swiss", SwissPlay.request_bye)
    review_pairing = forward("swiss", SwissPlay.review_pairing)
    # round_robin_hand.py: a round robin's round paired by hand, checked against the table
    pair_round_robin_round = forward("rr_hand", RoundRobinHand.pair_round_robin_round)
    # pairing_phase.py: a Swiss round's manual-pairing phase (edit, then validate)
    edit_pairings = forward("phases", PairingPhase.edit_pairings)
    pairing_phase = forward("phases", PairingPhase.pairing_phase)
    validate_pairings = forward("phases", PairingPhase.validate_pairings)
    # knockout/: a knockout's bracket: the next games and rounds
    bracket = forward("knockout", KnockoutPlay.bracket)
    bracket_view = forward("knockout", KnockoutPlay.bracket_view)
    knockout_state = forward("knockout", KnockoutPlay.knockout_state)
    pair_next_round = forward("knockout", KnockoutPlay.pair_next_round)
    # stages.py: a group stage + knockout event: the knockout stage
    create_knockout_stage = forward("stages", StagePlay.create_knockout_stage)
    link_group_stage = forward("stages", StagePlay.link_group_stage)
    stage_of = forward("stages", StagePlay.stage_of)
    # history.py: the event log: history, undo, revert
    # fide_mode.py: FIDE mode, and leaving it for good
    fide_mode = forward("fide", FideMode.fide_mode)
    leave_fide_mode = forward("fide", FideMode.leave_fide_mode)
    # report_corrections.py: corrections meant for the rating report only
    correct_for_report = forward("report", ReportCorrections.correct_for_report)
    report_corrections = forward("report", ReportCorrections.report_corrections)
    # expulsion.py: expelled players
    expel = forward("expulsions_part", Expulsions.expel)
    expulsions = forward("expulsions_part", Expulsions.expulsions)
    history = forward("event_log", History.history)
    revert_to = forward("event_log", History.revert_to)
    undo = forward("event_log", History.undo)
    verify = forward("event_log", History.verify)
    # exchange.py: TRF and JSON export and import
    export_json = forward("exchange", Exchange.export_json)
    import_json = forward("exchange", Exchange.import_json)
    trf_export_notes = forward("exchange", Exchange.trf_export_notes)
    # pgn.py: the games' moves: PGN per game, per round, the tournament's PGN
    clear_moves = forward("pgn", PgnPlay.clear_moves)
    export_pgn = forward("pgn", PgnPlay.export_pgn)
    game_moves = forward("pgn", PgnPlay.game_moves)
    games_with_moves = forward("pgn", PgnPlay.games_with_moves)
    import_pgn = forward("pgn", PgnPlay.import_pgn)
    record_moves = forward("pgn", PgnPlay.record_moves)
    # queries.py: the reads: a consistent snapshot each, never blocking a writer
    byes = forward("queries", Queries.byes)
    crosstable = forward("queries", Queries.crosstable)
    key_used = forward("queries", Queries.key_used)
    live_standings = forward("queries", Queries.live_standings)
    overview = forward("queries", Queries.overview)
    planned_rounds = forward("queries", Queries.planned_rounds)
    preference = forward("queries", Queries.preference)
    revision = forward("queries", Queries.revision)
    set_preference = forward("queries", Queries.set_preference)
    snapshot = forward("queries", Queries.snapshot)
    table_state = forward("queries", Queries.table_state)
    teams = forward("queries", Queries.teams)
    tournament = forward("queries", Queries.tournament)
    tournaments = forward("queries", Queries.tournaments)
    # teams/: team tournaments: teams and members, line-ups, the team reads
    add_team = forward("teams_part", TeamPlay.add_team)
    add_team_member = forward("teams_part", TeamPlay.add_team_member)
    board_prizes = forward("teams_part", TeamPlay.board_prizes)
    check_match = forward("teams_part", TeamPlay.check_match)
    create_team_tournament = forward("teams_part", TeamPlay.create_team_tournament)
    player_scores = forward("teams_part", TeamPlay.player_scores)
    set_lineup = forward("teams_part", TeamPlay.set_lineup)
    team_list = forward("teams_part", TeamPlay.team_list)
    team_matches = forward("teams_part", TeamPlay.team_matches)
    team_standings = forward("teams_part", TeamPlay.team_standings)
    # teams/swiss.py: the team Swiss: created, each round paired
    create_team_swiss = forward("team_swiss", TeamSwissPlay.create_team_swiss)
    pair_team_round = forward("team_swiss", TeamSwissPlay.pair_team_round)
    # teams/bughouse.py: Bughouse events: the rule, the first-finished marks, the reads
    bughouse_matches = forward("bughouse", BughousePlay.bughouse_matches)
    bughouse_rule = forward("bughouse", BughousePlay.bughouse_rule)
    bughouse_standings = forward("bughouse", BughousePlay.bughouse_standings)
    create_bughouse_tournament = forward("bughouse", BughousePlay.create_bughouse_tournament)
    mark_first_finished = forward("bughouse", BughousePlay.mark_first_finished)
    pair_bughouse_round = forward("bughouse", BughousePlay.pair_bughouse_round)
    # checkin.py: the hall's check-in before a round, byes for the absent
    absent_byes = forward("checkin", CheckIn.absent_byes)
    # long_events.py: later ratings of an event over 30 days
    set_round_rating = forward("long_events", LongEvents.set_round_rating)
    round_ratings = forward("long_events", LongEvents.round_ratings)
    cancel_check_in = forward("checkin", CheckIn.cancel_check_in)
    check_in = forward("checkin", CheckIn.check_in)
    checkin_view = forward("checkin", CheckIn.checkin_view)
    # series/: editions, the clock's ticks, news, the season, petitions
    create_series = forward("series", SeriesEditions.create_series)
    edition_info = forward("series", SeriesEditions.edition_info)
    open_edition = forward("series", SeriesEditions.open_edition)
    register_for_edition = forward("series", SeriesEditions.register_for_edition)
    series_history = forward("series", SeriesEditions.series_history)
    series_info = forward("series", SeriesEditions.series_info)
    withdraw_from_edition = forward("series", SeriesEditions.withdraw_from_edition)
    register_for_stage = forward("series", StageRegistration.register_for_stage)
    stage_window = forward("series", StageRegistration.stage_window)
    withdraw_from_stage = forward("series", StageRegistration.withdraw_from_stage)
    tick = forward("series", SeriesClock.tick)
    award = forward("series", SeriesNews.award)
    awards_page = forward("series", SeriesNews.awards_page)
    badges = forward("series", SeriesNews.badges)
    news_item = forward("series", SeriesNews.news_item)
    news_page = forward("series", SeriesNews.news_page)
    series_awards = forward("series", SeriesNews.series_awards)
    series_news = forward("series", SeriesNews.series_news)
    season_standings = forward("series", SeriesSeason.season_standings)
    accept_petition = forward("series", SeriesPetitions.accept_petition)
    petition = forward("series", SeriesPetitions.petition)
    petition_info = forward("series", SeriesPetitions.petition_info)
    petitions = forward("series", SeriesPetitions.petitions)
    refuse_petition = forward("series", SeriesPetitions.refuse_petition)

    def __init__(
        self,
        store: Store,
        *,
        clock: Clock | None = None,
        random: _random.Random | None = None,
        bus: EventBus | None = None,
    ) -> None:
        frame = ChangeFrame(store, clock=clock, random=random, bus=bus)
        self.frame = frame
        self.registration = Registration(frame)
        self.play = Play(frame, results=self)
        self.adjournments = self.play.adjournments
        self.queries = Queries(frame)
        self.exchange = Exchange(frame, self.queries)
        self.battle_chess = BattleChess(frame, results=self)
        self.battle = Battle(
            frame,
            registration=TieLots(frame, self.registration),
            play=self.play,
            exchange=self.exchange,
            colours=self.battle_chess,
        )
        self.swiss = SwissPlay(frame)
        self.phases = PairingPhase(frame, self.swiss)
        self.rr_hand = RoundRobinHand(frame)
        self.knockout = KnockoutPlay(frame)
        self.stages = StagePlay(frame)
        self.event_log = History(frame)
        self.pgn = PgnPlay(frame)
        self.checkin = CheckIn(frame)
        self.long_events = LongEvents(frame)
        self.fide = FideMode(frame)
        self.report = ReportCorrections(frame)
        self.expulsions_part = Expulsions(frame)
        self.teams_part = TeamPlay(frame, self)
        self.team_swiss = TeamSwissPlay(frame, self)
        self.bughouse = BughousePlay(frame, self)
        self.series = SeriesPlay(frame, self)

    # -- what the frame holds, as the service's own ---------------------------------

    @property
    def store(self) -> Store:
        return self.frame.store

    @property
    def clock(self) -> Clock:
        return self.frame.clock

    @property
    def random(self) -> _random.Random:
        return self.frame.random

    @property
    def bus(self) -> EventBus:
        return self.frame.bus

    @property
    def live_tables(self) -> LiveTables:
        return self.frame.live_tables

    @live_tables.setter
    def live_tables(self, tables: LiveTables) -> None:
        self.frame.live_tables = tables

    @property
    def fast_path(self) -> bool:
        """Record results through :mod:`crosstable.service.recording` when the live
        table allows (False: always the ordinary path; the answers are the same)."""
        return self.frame.fast_path

    @fast_path.setter
    def fast_path(self, fast: bool) -> None:
        self.frame.fast_path = fast

    @property
    def safeguard(self) -> Safeguard | None:
        """Asked for a backup before a risky change (service/safeguard.py; None: none)."""
        return self.frame.safeguard

    @safeguard.setter
    def safeguard(self, safeguard: Safeguard | None) -> None:
        self.frame.safeguard = safeguard

    @property
    def read_model(self) -> ReadModel:
        """This service's read model (made on first use; one per service)."""
        return self.queries.read_model
