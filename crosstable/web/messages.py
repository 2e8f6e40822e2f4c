"""Service and rule errors in the reader's language (the web app's error messages).

Errors now carry their own parameters (issue 14 item 4): ``raise RuleError("there
is no round {round} (rounds 1–{rounds})", round=9, rounds=7)`` keeps the template
and the values (:class:`crosstable.core.text.Message`), and :func:`translate`
turns such a message into the reader's language by a gettext lookup of its
template, its values translated in turn and numbers in the reader's notation. A
message without a template of its own (an old f-string) is still matched with
the regular expressions below until every raise carries its template.

The services and the core raise errors with English messages made by f-strings
("round 3 board 2 already has 1-0; to change it, correct the result"). They
stay English there: the command line, logs and the JSON API by default show
them as they are. The web app shows them in the reader's language:

* :data:`CATALOGUE` lists every message as a *template*: the English text with
  ``{name}`` where the f-string inserts a value (``"{where} already has
  {result}; to change it, correct the result"``), and the pieces that messages
  insert (``"round {round} board {board}"``, ``"no result"``, ``"running"``);
* :func:`translate` finds the template a message was made from (the most
  specific one: the most fixed text), looks its translation up in the
  ``errors`` gettext catalogue (``locale/ru/LC_MESSAGES/errors.po``) and puts
  the values back — each one translated too when it is itself a template's
  text ("round 3 board 2" → "тур 3, доска 2"), lists separated by "; " or ", "
  item by item. A message no template matches stays English.

``tests/test_web_messages.py`` reads every ``raise …Error("…")`` of the
services, the core and the web routes with :mod:`ast` and fails when its
message has no template here, so a new message cannot be forgotten. To add
one: add its template below (placeholders are free names; only the fixed text
must be the f-string's), then, in ``crosstable/web``::

    pybabel extract --no-default-keywords -k E_ --no-location --omit-header \\
        -o locale/errors.pot messages.py
    pybabel update -D errors -i locale/errors.pot -d locale
    # translate the new entries in locale/ru/LC_MESSAGES/errors.po, then
    pybabel compile -D errors -d locale

>>> translate("round 3 board 2 already has 1-0; to change it, correct the result", "ru")
'тур 3, доска 2: уже записан результат 1-0; чтобы его изменить, исправьте результат'
>>> translate("the tournament has already started (it is running)", "ru")
'турнир уже начался (состояние: идёт)'
>>> translate("a message nobody wrote a template for", "ru")
'a message nobody wrote a template for'
>>> translate("there is nothing to undo", "en")
'there is nothing to undo'
"""

# ruff: noqa: E501 - the catalogue keeps each message on one line, as gettext shows it

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from babel.support import NullTranslations

from crosstable.core.errors import CrosstableError, InputError
from crosstable.core.text import Message
from crosstable.web import i18n

_PLACEHOLDER = re.compile(r"\{([a-z_][a-z0-9_]*)\}")
#: a value inside a message (or an item of a list) is itself translated down to this depth
_DEPTH = 6
#: how the services join lists of things in a message
_SEPARATORS = ("; ", ", ")


def E_(message: str) -> str:  # noqa: N802 - a gettext-style marker (pybabel extract -k E_)
    """Marks an error template for the ``errors`` catalogue."""
    return message


#: every error message (and every piece of one) as an English template
CATALOGUE: tuple[str, ...] = (
    # -- service/play.py: results, reports, withdrawals, the finish
    E_("round {round} has no board {board} (boards 1–{boards})"),
    E_("there is no round {round} in this tournament (rounds 1–{rounds})"),
    E_("{result} is not a result: use 1-0, ½-½, 0-1, +-, -+ or --"),
    E_(
        "round {round} board {board} changed meanwhile (version {version}, not {expected}): it is {result} now"
    ),
    E_("{where} is not scheduled: the tournament has not started"),
    E_("the tournament is finished and its places are fixed; undo the finish first"),
    E_("absent is white, black or both, not {absent}"),
    E_("the tournament has already started (it is {status})"),
    E_("draw lots first: the starting numbers are not fixed"),
    E_("{where} already has {result}; to change it, correct the result"),
    E_("{where} already has {result}; the tournament is finished and its places are fixed"),
    E_("{where} has no result yet: record it instead"),
    E_("{where} is {result} now, not {guard}"),
    E_("player {player} does not play {where} ({white} – {black})"),
    E_("{where} is already recorded as {result}; ask the organiser to correct it"),
    E_("{where} already has {result}: correct it instead"),
    E_("{where}: there is no report to reject"),
    E_("the tournament has not started: remove the player instead"),
    E_("the tournament is finished: a withdrawal is no longer possible"),
    E_("there is no player with starting number {start}"),
    E_("player {start} {name} withdrew already (from round {round})"),
    E_(
        "player {start} {name} has no game left to play: a withdrawal after the last round is refused"
    ),
    E_("there is no round {round} (rounds 1–{rounds})"),
    E_("player {start} already has a result in round {round}: withdraw from a later round"),
    E_(
        "player {start} {name} has no game left from round {round}: a withdrawal after the last round is refused"
    ),
    E_("the tournament {what}"),
    E_("has not started"),
    E_("is finished already"),
    E_("{count} games have no result yet: {listed}"),
    E_("1 game has no result yet: {listed}"),
    E_("{item} and {count} more"),
    E_("{where}: nobody reported a result; name the result"),
    E_("{where} is disputed (White reported {white}, Black {black}): name the result that stands"),
    # -- pieces the messages insert: places in the tournament, results, states
    E_("round {round} board {board}"),
    E_("no result"),
    E_("registration"),
    E_("running"),
    E_("finished"),
    # -- service/registration.py: regulations, players, lots
    E_("the tournament has started: {what} only before round 1{note}"),
    E_("players are added"),
    E_("players are removed"),
    E_("after the start a player withdraws instead"),
    E_("lots are drawn"),
    E_("tournament {tournament} has no player number {number}"),
    E_("the tournament ends ({end}) before it starts ({start})"),
    E_("a player needs a name"),
    E_("player {name}: sex is 'm', 'w' or empty, not {sex}"),
    E_("player {name}: a club is at most {count} characters long"),
    E_("tie-break {code} is listed twice"),
    E_("a tournament needs a name"),
    E_("unknown setting {name}"),
    E_("unknown player detail {name}"),
    E_("nothing to change: give the player's new name, rating, title…"),
    E_("player {number} {name}: {problem}"),
    E_("{where}: {problem}"),  # a line of a pasted list and what is wrong with it
    E_("rating of player {number} {name}: {problem}"),
    E_("sex is 'm', 'w' or empty, not {sex}"),
    E_("a club is at most {count} characters long"),
    E_("an e-mail address is at most {count} characters long"),
    E_("{address} is not an e-mail address"),
    E_("{kind} is not a kind of notification"),
    E_("{channel} is not a channel of notifications"),
    E_("Telegram login: unexpected field {field}"),
    E_("Telegram login: the field {field} is missing"),
    E_("Telegram login: a field is longer than {count} characters"),
    E_("Telegram login: the signature does not match (not sent by Telegram)"),
    E_("Telegram login: id and auth_date are whole numbers"),
    E_("Telegram login: it is more than a day old; sign in with Telegram again"),
    E_("Telegram login: auth_date is in the future"),
    E_("this Telegram account is linked with another account of the site"),
    E_("your account is linked with another Telegram account; unlink it first"),
    E_("signing in with Telegram is not set up on this site"),
    E_("a time control is at most {count} characters long"),
    E_("only administrators and the series' organiser may edit it"),
    E_("this unsubscribe link is not valid"),
    E_("rating {rating} is negative"),
    E_(
        "cannot change after the start: the tie rule sends the lower-rated player on when a match is drawn (undo the start first)"
    ),
    E_("the tournament is finished; undo the finish to change it"),
    E_("at least two players are needed to draw lots"),
    E_("{setting} cannot change after the start: the schedule is made (undo the start first)"),
    E_("the {setting} was published before round 1 and is locked; give a reason to override it"),
    E_("point system"),
    E_("bye points"),
    E_("tiebreaks"),
    E_("forfeits in tiebreaks"),  # R-RR-14, locked like the tie-break list
    E_("withdrawal rule"),
    E_("rules"),
    E_("system"),
    E_("cycles"),
    E_("rounds"),
    E_("swap last rounds"),
    # -- service/scheveningen.py
    E_("every player of a Scheveningen needs a team: no team for {listed}"),
    E_("a Scheveningen is played by exactly two teams; there are {count}: {teams}"),
    E_("{team} ({count} player)"),
    E_("{team} ({count} players)"),
    E_(
        "the two teams of a Scheveningen need the same number of players: {first} has {size_first}, {second} has {size_second}"
    ),
    # -- service/systems.py, base.py, queries.py, history.py, unit.py
    E_("{system} tournaments cannot be started from the tournament store yet"),
    E_("there is no tournament {tournament} in this database"),
    E_("idempotency key {key} was already used for another request (#{seq}: {summary})"),
    E_("there is nothing to undo"),
    E_("there is no event #{seq} (events 1–{last})"),
    E_("#{seq} is the latest event: nothing to revert"),
    E_(
        "{action} reopens the finished tournament: it takes back the final places and {results}; give a reason and confirm"
    ),
    E_("undo #{seq}"),
    E_("reverting to #{seq}"),
    E_("1 result"),
    E_("{count} results"),
    E_("finish is auto or confirm, not {value}"),
    E_("forfeits in tie-breaks is yes or no, not {value}"),  # R-RR-14
    # -- service/series/later_stages.py: registration for stage 2 and later (R-SE-2)
    E_("{name} is registered for stage {stage} already"),
    E_("stage {stage}: the group's tournament is not made yet"),
    E_(
        "edition {edition} has no stage 2 or later under way: registration for stage 1 is the edition's own"
    ),
    E_("stage {stage} is the {kind}: its players are its qualifiers, registered automatically"),
    E_("stage {stage} has not started yet"),
    E_(
        "stage {stage} of edition {edition}: registration is open only from the stage's start, {opens}, until {closes} (two weeks)"
    ),
    E_(
        "stage {stage} of edition {edition}: a player may withdraw only from the stage's start, {opens}, until {closes} (two weeks)"
    ),
    E_("{name} does not play stage {stage} of edition {edition}"),
    # -- core/reasons.py: the reason recorded with a result
    E_("reason no-show: a no-show is a forfeit (+-, -+ or --), not {result}"),
    E_(
        "reason normal: {result} is a forfeit, not a game played at the board (the reason of a forfeit is no-show)"
    ),
    # -- service/lots.py, service/tie_lots.py: lots for ties (R-RR-10)
    E_("ties after the tie-breaks are shared or lots (drawn), not {value}"),
    E_(
        "the seed of the lots for ties is drawn by the computer when the final places are fixed; it is not given by hand"
    ),
    E_(
        "ties after the tie-breaks (shared or lots) were published before round 1 and are locked; give a reason to override it"
    ),
    E_("the history names an unknown table {table}"),
    E_("{where} is missing; the history cannot be replayed"),
    E_("{where} exists already; the history cannot be replayed"),
    E_("{where}: {name} is {value}, the history expects {expected}"),
    # -- service/exchange.py: JSON import and export
    E_("{where} must be an object"),
    E_("{where}: unknown field {name}"),
    E_("a tournament document is a JSON object"),
    E_("format must be {format}"),
    E_("version {version} is not supported (this crosstable reads version {supported})"),
    E_("two players have the same starting number"),
    E_("TRF export is not available yet"),
    E_("{where}: {name} is missing"),
    E_("{where}.{name}: expected {kind}, got {value}"),
    E_("{name} is missing"),
    E_("{name} must be a list"),
    E_("the tournament is not consistent: {error}"),
    E_("tournament.revision is {revision}, but the last event is #{last}"),
    E_("history[{index}].seq must be {seq}"),
    # -- service/accounts.py: accounts, staff, access, eligibility
    E_("a user name has 2–40 letters, digits, dots, dashes or underscores"),
    E_("a password needs at least {count} characters"),
    E_("unknown account setting {name}"),
    E_("unknown access setting {name}"),
    E_("approval is approved, pending or rejected"),
    E_("a member of staff is an organiser or a helper"),
    E_("{text} is not a date and time (YYYY-MM-DDTHH:MM)"),
    E_("the user name {name} is taken"),
    E_("there is no user {user}"),
    E_("there is no token {token}"),
    E_("unknown eligibility rule {name}"),
    E_("at least {need} rated games are required (you have {have})"),
    E_("at least {need} online tournaments are required (you have {have})"),
    E_("players flagged for computer assistance cannot enter"),
    E_("the regulations are waiting for an administrator's approval"),
    E_("the regulations were not approved"),
    E_("the organiser has not opened self-registration"),
    E_("registration opens at {time}"),
    E_("registration closed at {time}"),
    E_("you are registered already"),
    # -- core: results, players, rounds (crosstable/core/model.py, battle.py, standings)
    E_("player {player} cannot meet themself"),
    E_("there is no round {round}"),
    E_("result {white}{black}: a forfeit is +- , -+ or --"),
    E_("result {text} not understood: use 1-0, ½-½ (or 1/2-1/2, 0.5-0.5, =), 0-1, +- , -+ or --"),
    E_("starting number {start}: must be 1 or more"),
    E_("player {start}: rating {rating} is negative"),
    E_("round {round} board {board}: a player cannot meet themself"),
    E_("cycles: {cycles} — a round robin has at least one cycle"),
    E_("rounds: {rounds} — at least one round"),
    E_("starting numbers must be 1…N in order, each once"),
    E_("round {round} has no board {board}"),
    E_("unknown result code {code}"),
    E_("a bye ({side}) is not a game result"),
    E_("round {round}: no player with starting number {start}"),
    E_("round {round}: player {start} appears twice"),
    E_("round {round} has no game {white}–{black}"),
    # -- core/duration.py: the duration calculator
    E_("players: {players} — a round robin needs at least 3 players"),
    E_("time control is empty (expected e.g. 25+5, G/25 d5 or 90+30)"),
    E_(
        "time control {control}: only the last period can be for the rest of the game; write the earlier ones as moves/minutes (e.g. 40/90,30+30)"
    ),
    E_(
        "time control {control}: the last period must be for the rest of the game (add it without a move count, e.g. 40/90,30+30)"
    ),
    E_("time control {control}: the players have no thinking time"),
    E_("time control {control}: a period of 0 moves"),
    E_("time control {control}: the increment or delay is in seconds, not {unit}"),
    E_("evening: {minutes} minutes — must be more than 0"),
    E_("change-over: {minutes} minutes — must not be negative"),
    E_(
        "time control {control}: {piece} is not understood (expected e.g. 25+5, G/25 d5, 40/90,30+30 or 5400+30)"
    ),
    # -- core/lots.py: the drawing of lots
    E_("an order is given only when the numbers are assigned by hand"),
    E_("a seed is given only when the numbers are drawn by lot"),
    E_("a drawing by lot needs a seed (an integer, published with the draw)"),
    E_("by hand: no starting number for {listed} — list every entrant once"),
    E_("no entrants: nothing to draw"),
    E_("entrant {entrant} is entered twice"),
    E_("drawing of lots {method}: use one of {choices}"),
    E_("by hand: starting number {number} is {key}, who has not entered"),
    E_("by hand: {key} is listed twice (starting numbers {first} and {number})"),
    E_("no entrant {key} in this draw"),
    # -- core/pairing: Swiss (Dutch) pairings
    E_(
        "no pairing satisfies the absolute criteria: every player would need an opponent they may not meet"
    ),
    E_("the pairing left more than one player without an opponent"),
    E_("round {round} cannot be paired: the event has {rounds} rounds"),
    E_("round {round} has a game without a result"),
    E_("round {round} is already paired"),
    E_("players: {players} — a Swiss needs at least 2 players"),
    E_("the lowest rating is above the highest"),
    E_("{name}: {value} — a rate is between 0 and 1"),
    E_(
        "this bracket needs more than 120 bits of weight: install networkx for the exact (slower) matcher"
    ),
    E_("no pairing satisfies the absolute criteria and completion (C4)"),
    E_("round {round}: rounds are numbered from 1"),
    E_("the initial colour (white or black) must be known"),
    E_("starting numbers must be 1…N in order"),
    E_("player {start}: {count} past rounds, expected {expected}"),
    E_("player {start}, round {round}: no opponent {opponent}"),
    # -- core/schedule: round robins, groups, quads, Scheveningen
    E_("the number of players must be a whole number, not {players}"),
    E_("a round robin needs at least 3 players, not {players}"),
    # -- web/routes/wizard.py: the field of players (the format's name as the pieces below)
    E_("players: {format} needs at least {least} players, and the list has {players}"),
    E_("a round robin"),
    E_("a double round robin"),
    E_("a Swiss"),
    E_("a knockout"),
    E_("a Scheveningen"),
    E_("a quads event"),
    E_("a group stage"),
    E_("round {round} does not exist: {players} players play rounds 1…{rounds}"),
    E_("player {player} is not a starting number 1…{players}"),
    E_("the number of cycles must be 1 or more, not {cycles}"),
    E_("repeat_cycles needs one cycle with rounds numbered 1, 2, …"),
    E_("groups: {groups} — at least one group"),
    E_("{players} players cannot fill {groups} groups"),
    E_("games per match: {games} — at least one"),
    E_(
        "{players} players in {groups} groups leaves a group of {smallest}; a round robin needs at least 3 players"
    ),
    E_("qualifiers per group: {qualifiers} — between 1 and {most} (fewer than the smallest group)"),
    E_("a match for third place needs at least four qualifiers"),
    E_("players: {players} — quads need at least 3 players"),
    E_("team size {size}: each team needs at least one player"),
    E_("cycles: {cycles} — at least one cycle"),
    E_("no player {start} in two teams of {size}"),
    E_("a schedule needs 2 players or more, not {players}"),
    # -- core/scoring.py, core/tiebreaks: point systems and tie-breaks
    E_(
        "point system {system}: a win must be worth more than a draw, and a draw at least as much as a loss"
    ),
    E_("point system {system}: two draws ({draws}) would outscore a win and a loss ({win_loss})"),
    E_("point system {text}: write it as WIN-DRAW-LOSS, e.g. 3-1-0"),
    E_("point system {text}: WIN-DRAW-LOSS must be numbers"),
    E_("tie-break {code}: {name} has no /{modifier} modifier"),
    E_("tie-break preset {name}: use one of {choices}"),
    E_(
        "Buchholz ({code}) is not for a round robin: everyone meets the same field, so it only repeats the score order; Sonneborn-Berger or direct encounter tells equal players apart"
    ),
    E_("players: {players} — a tournament needs at least 2 players"),
    E_("rounds per evening: {rounds} — at least one"),
    E_("reserve evenings: {reserve} — zero or more"),
    E_(
        "the tie-break list is part of the published regulations and is locked once round 1 has started; give an override reason to change it"
    ),
    E_("tie-break {code}: unknown modifier /{modifier}"),
    E_("tie-break code is empty"),
    E_("tie-break {code}: unknown code {head} (known: {known})"),
    E_("tie-break {code}: empty modifier"),
    E_("tie-break {code}: limit /{modifier} — write /L-1, /L+2, /L0.5 or /L60%"),
    E_("tie-break {code}: edition /{modifier} — use /V2024 or /V2026"),
    # -- service/swiss.py, core/pairing/dutch: Swiss rounds
    E_("initial colour {colour}: use white or black (or leave it to the lot)"),
    E_("acceleration {acceleration}: use baku or none"),
    E_("forbidden pairs: there is no starting number {start} (players 1–{players})"),
    E_(
        "forbidden pairs {text}: {pair} is not like 1-2 (starting numbers joined by -, pairs separated by commas)"
    ),
    E_("forbidden pairs {text}: {pair} names one player"),
    E_("a Swiss needs at least two players"),
    E_(
        "{rounds} rounds are too many for {players} players: a Swiss without rematches has at most {most}"
    ),
    E_("round {round} cannot be paired: {error}"),
    E_("this is a {system} tournament: rounds are paired this way only in a Swiss"),
    E_("the tournament has not started: draw lots and start it first"),
    E_("the tournament is finished: no more rounds are paired"),
    E_("all {rounds} rounds are paired: enter the last results and finish the tournament"),
    E_("round {round} cannot be paired yet: {waiting}"),
    E_("round {round}: enter the results of board {boards} first"),
    E_("round {round}: enter the results of boards {boards} first"),
    E_("{first} and {last}"),
    E_("board {board}: there is no player {start} (players 1–{players})"),
    E_("player {start} is paired twice ({first} and board {board})"),
    E_("board {board}"),
    E_("the PAB"),
    E_("board {board}: player {start} cannot play themself"),
    E_("PAB: there is no player {start} (players 1–{players})"),
    E_("player {start} has the PAB and plays on {board}"),
    E_("player {start} {reason} round {round}: take them out of the pairing"),
    E_("withdrew before"),
    E_("has a {kind} bye ({code}) in"),
    E_("half-point"),
    E_("zero-point"),
    E_("full-point"),
    E_("an odd number of players is present: one of them gets the PAB"),
    E_("an even number of players is present: no PAB (player {start} must play)"),
    E_("players {players} are not paired: every player present plays or has the PAB"),
    E_(
        "board {board}: {white} and {black} met in round {round} already (a rematch; allow it explicitly to publish it)"
    ),
    E_(
        "player {start} already scored a win without playing (PAB, full-point bye or forfeit): the PAB is never given twice"
    ),
    E_("a PAB of the organiser's choice needs the whole manual pairing"),
    E_("bye kind {kind}: use H (half-point), Z (zero-point) or F (full)"),
    E_("player {start} {name} withdrew from round {round}"),
    E_("player {start} {name} has no bye in round {round}"),
    E_("round {round} is paired already: a bye is entered before the pairing"),
    E_("board {index}: {board} is not a pair (white, black)"),
    E_(
        "{who} has no round left to play (the Swiss has {rounds} rounds): a withdrawal after the last round is refused"
    ),
    E_("player {start} {name}"),
    E_("round {round} of {rounds} is not paired yet: pair and play every round before finishing"),
    E_("board {board}: give White's and Black's numbers: 3-8"),
    # -- service/knockout.py, core/pairing/knockout*: knockouts
    E_("player {start} {name} has no game left to play: the knockout is over"),
    E_(
        "player {start} {name} is out of the knockout already (lost in {round}): there is nothing to withdraw from"
    ),
    E_("{setting} cannot change after the start: the pairings depend on it (undo the start first)"),
    E_("initial colour"),
    E_("acceleration"),
    E_("match format"),
    E_("tie rule"),
    E_("bracket"),
    E_("lots seed"),
    E_("round formats"),
    E_("third place"),
    E_("regulations, match_format {text}: {error}"),
    E_("regulations, tie_rule {text}: {error}"),
    E_("regulations, round_formats {text}: {error}"),
    E_("regulations, third_place {text}: use yes or no"),
    E_("regulations: lots_seed is missing (the start records it)"),
    E_("regulations, lots_seed {text}: not a whole number"),
    E_("regulations, bracket {text}: use seeded or random"),
    # -- core/system_settings.py: a setting of another system, a misspelt one
    E_("regulations, {key}: a setting of {owner}, not of {system}"),
    E_("regulations, {key}: not a setting of {system} (did you mean {name}?)"),
    E_("the knockout has not started: draw lots and start it first"),
    E_("tournament {tournament} is a {system} tournament, not a knockout"),
    E_("{where} is not a game of the bracket (no match slot)"),
    E_("{where}: there is no slot {slot} in the bracket"),
    E_(
        "the byes stored do not match the bracket's ({stored} stored, {bracket} in the bracket): were the bracket settings or the players changed after the start?"
    ),
    E_(
        "round {round} board {board} (slot {slot}, game {game}) is stored as {white} – {black}, but the lot gives White to {lot}: were the knockout settings (lots_seed, match_format, tie_rule) changed after the start?"
    ),
    E_(
        "round {round} board {board} (slot {slot}, game {game}) belongs in round {base}: the games of {label} were changed after it was paired"
    ),
    E_("{label} is paired, but in {earlier} {what} now: {cause}. {hint}"),
    E_("slot {slot} ({top} v {bottom}) has no winner"),
    E_("tie-break games are due or games are left over"),
    E_(
        "round {round} board {board} is a game of slot {slot}, which is not paired yet: the games were changed behind the knockout's back"
    ),
    E_("correction refused: {problem}"),
    E_("the knockout is not over: {still}"),
    E_("{games} no longer needed: continue the knockout to remove them, then finish"),
    E_("the knockout is finished; undo the finish first"),
    E_("the knockout is over: {winner} won; finish it"),
    E_("{label} is not over: {still}"),
    E_("enter the results of {games} first"),
    E_("tie-break games are due: continue the knockout to add them"),
    E_("round {round} boards {boards}"),
    E_("the final"),
    E_("the semi-final"),
    E_("the quarter-final"),
    E_("round {round} (round of {players})"),
    E_("slot {slot} is a bye: there is no match"),
    E_("slot {slot} ({name}) is not paired yet"),
    E_("slot {slot} is in round {round}, which is closed: round {next} is already paired"),
    E_("round {round} is the final: there is no round to pair after it"),
    E_("round {round} is not over: {listed} {verb} no winner yet"),
    E_("slot {slot} ({top} v {bottom})"),
    E_("slot {slot}: a feeding match is not decided"),
    E_("{players} players need {size} lines, not {lines}"),
    E_("every player stands on exactly one line of the bracket"),
    E_("round 1, slot {slot}: two empty lines"),
    E_("there is no slot {slot} (slots 1…{slots})"),
    E_("there is no round {round} (rounds 1…{rounds})"),
    E_("player {player} is not in the bracket"),
    E_("the seed list must name every player exactly once"),
    E_("a knockout needs at least 2 players, not {count}"),
    E_("a bracket has a power of two lines (2, 4, 8…), not {size}"),
    E_("player {player} qualifies twice"),
    E_("the plan has {planned} groups, not {groups}"),
    E_("{group}: {players} players, the plan has {planned}"),
    E_("a single qualifier wins the event: there is no knockout"),
    E_("{group}: {qualifiers} qualifiers from {players} players"),
    E_(
        "{group}: places {first} and {second} are tied (players {start} and {start2}); break the tie before the knockout (a drawing of lots or a play-off)"
    ),
    E_("no groups: nothing to seed"),
    E_("every group sends the same number of qualifiers (at least one)"),
    E_("{kind} is a decider, not a stage of extra games"),
    E_("a stage of extra games has at least one game, not {games}"),
    E_("tie rule: empty"),
    E_("tie rule {text}: unknown stage {kind}"),
    E_("tie rule {text}: {count} is not a number of games"),
    E_("tie rule {text}: end with a decider ({choices})"),
    E_("slot {slot}: player {player} cannot meet themself"),
    E_("slot {slot}, game {game}: enter a final result, not pending"),
    E_("slot {slot}: there is no game {game} to enter (games set up: {numbers})"),
    E_(
        "slot {slot}: game {game} has a result but is not part of the match (games set up: {numbers}); clear it first"
    ),
    E_("a match has at least one game, not {games}"),
    E_("games played at once take both colours: an even number of games"),
    E_("match format {text}: use 1, 2 or 2-at-once"),
    E_("slot {slot} (third place) is not paired yet: it comes with the final"),
    E_("round formats {text}: write round:format, e.g. final:4"),
    E_(
        "round formats {text}: unknown round {round} (final, semi-final, quarter-final, round of N, third-place)"
    ),
    E_("round formats {text}: {round} is given twice"),
    # -- core: a series' calendar, groups, registration, qualification, plan (issue 11)
    E_(
        "{group}: only {count} of its players played a game, {needed} must go on (players {players} played none)"
    ),
    E_(
        "{group}: places {first} and {second} are tied (players {start} and {start2}); break the tie before the next stage (a drawing of lots or a play-off)"
    ),
    E_("the start time is a wall-clock time: give the zone separately"),
    E_("a weekly series needs its weekday (mon…sun)"),
    E_("weekday {weekday}: 0 (Monday) to 6 (Sunday)"),
    E_("only a weekly series has a weekday"),
    E_("a monthly series needs its day of the month (1…31)"),
    E_("day {day}: a day of the month is 1 to 31"),
    E_("only a monthly series has a day of the month"),
    E_("weekday {text}: one of {choices}"),
    E_(
        "a regular series has no calendar slots: each edition starts as soon as the previous one ends"
    ),
    E_("the calendar covers the years {first} to {last}"),
    E_("count {count}: between 1 and {most} slots"),
    E_("a postponement moves the start later"),
    E_("{name} {moment}: a moment needs its time zone"),
    E_("a player enters the stage twice"),
    E_("{players} players do not fill groups of {sizes}"),
    E_("max group size {size}: between {low} and {high}"),
    E_("{players} players: at most {most} in one stage"),
    E_("{players} players: a group needs at least {least}"),
    E_(
        "{players} players cannot be split into groups of {low} to {high} whose sizes differ by at most one (allow larger groups)"
    ),
    E_("this series has no super-final"),
    E_("{players} players for the super-final: it needs at least 2"),
    E_("more than {most} stages"),
    E_("qualifiers per group: {count} — at least one"),
    E_("qualifiers per group: {count} — at most half of the largest group ({most})"),
    E_("final of at least {count}: between {low} and the largest group ({high})"),
    E_("group cycles: {cycles} — between 1 and {most}"),
    E_("final cycles: {cycles} — between 1 and {most}"),
    E_("super-final cycles: {cycles} — between 1 and {most}"),
    E_("super-final of {players}: 0 (none) or 2 to 10 players"),
    E_("a player is ranked twice in one group"),
    E_("a player who played is not in the group's ranking"),
    E_("qualifiers per group: {count} — never negative"),
    E_("{keys} keys for a group of {players} players"),
    E_("{count} entries: a count is never negative"),
    E_("{count} registered: a count is never negative"),
    E_("minimum {minimum}: a stage needs at least {least} players"),
    # -- service: a series in the store, its editions and registrations (issue 11)
    E_("a series needs a name"),
    E_("a series' name has at most {most} characters"),
    E_("a player's name has at most {most} characters"),
    E_("unknown calendar kind {kind} (weekend, workdays, weekly, monthly, regular)"),
    E_("start time {text}: HH:MM, e.g. 19:00"),
    E_("unknown time zone {zone} (an IANA name such as Europe/Moscow)"),
    E_("registration deadline: between 0 and {most} minutes before the start"),
    E_("the series has an edition open for registration already"),
    E_("registration for edition {edition} is closed"),
    E_("{player} is registered for edition {edition} already"),
    E_("edition {edition} has started: a player may withdraw only before stage 1 starts"),
    E_("{player} is not registered for edition {edition}"),
    E_("there is no series {series} in this database"),
    E_("there is no series edition {edition} in this database"),
    E_("weekday {weekday}: one of {days}"),
    E_("series {series} has no edition {edition}"),
    # -- service: a series' news, awards and season standings (issue 11, R-SE-5)
    E_("series {series} has no news item {item}"),
    E_("series {series} has no award {award}"),
    E_("season {season}: a year such as 2026, or all"),
    E_("season {season}: a year from {first} to {last}"),
    # -- service: R-SE-7 petitions for a class or level tournament (issue 11)
    E_("a petition's player needs a name"),
    E_("{player} is listed twice in the petition"),
    E_("{count} players: a class or level tournament needs at least {least}"),
    E_("{count} players: a petition lists at most {most}"),
    E_("a petition names the class or level of its players"),
    E_("a class or level has at most {most} characters"),
    E_("a petition for {level} is waiting already (petition {petition})"),
    E_("state {state}: pending, accepted or refused"),
    E_("petition {petition} is being accepted"),
    E_("petition {petition} was {state} already"),
    E_("accepted"),
    E_("refused"),
    E_("a refusal says why (the reason is empty)"),
    E_("a refusal's reason has at most {most} characters"),
    E_("there is no petition {petition} in this database"),
    E_("{user} is not among the petition's players"),
    E_("only administrators decide petitions"),
    # -- web: forms, the wizard, the organiser's page, the API
    E_("you cannot take away your own administrator rights"),
    E_("the CSV file is empty"),
    E_("the CSV file needs a header row with a 'name' column (line 1)"),
    E_("you cannot register: {problems}"),
    E_("you are not registered in this tournament"),
    E_("choose the player who has the bye"),
    E_("format {format}: use one of {choices}"),
    E_("quads need at least four players"),
    E_("initial colour {colour}: white, black, or empty (by lot)"),
    E_("rounds: {rounds} — a Swiss has at least one round"),
    E_("bracket {bracket}: seeded or random"),
    E_("withdrawal rule {rule} is not known"),
    E_("{where}: rating {rating} is not a whole number"),
    E_("line {line}"),
    E_("CSV line {line}"),
    E_("bye value {value} is not a number"),
    E_("the regulations were not approved by an administrator"),
    E_("{name}: {raw} is not a whole number"),
    E_("type a name, paste a list or choose a CSV file"),
    E_("choose the player who withdraws"),
    E_("there is no account {name}"),
    E_("nothing to change"),
    E_("the order lists registration numbers, e.g. 3 1 2 4"),
    E_(
        "{rounds} rounds need at least {players} players (nobody meets anyone twice); with {count} players a Swiss has at most {most} rounds"
    ),
    E_(
        "players without a team: {count}; add the team as the fifth column (name; rating; title; federation; team)"
    ),
    E_("a Scheveningen has two teams, not {count}"),
    E_("the teams differ in size: {a} {size_a}, {b} {size_b}"),
    E_("{raw} is not a date (YYYY-MM-DD)"),
    E_("Scheveningen needs two teams of equal size (an even number)"),
    # -- web: refusals (who may do what)
    E_("too many {what}; wait a minute and try again"),
    E_("sign-in attempts"),
    E_("sign-ups"),
    # -- web/routes/account.py, service/sessions.py: sign-in limits, password (issue 13)
    E_("too many sign-in attempts; try again in {minutes} min"),
    E_("too many sign-ups from this address; try again in {minutes} min"),
    E_("the new password and its repetition differ"),
    E_("the current password is not right"),
    E_("a password has at most 1000 characters"),
    E_("result reports"),
    E_("results"),
    E_("export formats: trf2026, trf16, json"),
    E_("a full-point bye is given by the organiser only"),
    E_("give the boards to check"),
    E_("only a knockout has a bracket"),
    E_(
        "only administrators and masters (winners of an over-the-board event) may organise tournaments"
    ),
    E_("only administrators may change accounts"),
    E_("only administrators may open this page"),
    E_("only an administrator may approve"),
    E_("only the organiser of this tournament may do that"),
    E_("only the organiser or a helper of this tournament may enter results"),
    E_("only the player or the organiser may ask for a bye"),
    E_("only the two players may report this game"),
    E_("round {round} cannot be published: the next round is {next}"),
    E_("round {round} is not paired yet"),
    E_("sign in first"),
    E_("the API token is not valid"),
    E_("the bracket is made at the start"),
    E_("the form expired or was not sent by this site"),
    # -- web/limits.py, routes/common.py, service/field.py: limits and bad values (issue 13)
    E_("the request is too large: at most {size} here"),
    E_("the request's Content-Length is not a number"),
    E_("{field}: control characters are not allowed"),
    E_("{field}: at most {limit} characters"),
    E_("{name}: {number} is out of range ({low}–{high})"),
    E_("method {method}: random, rating or manual"),
    E_("the form has a field that no page sends"),
    E_("a round robin has at most {cap} players, not {players}"),
    E_("a Scheveningen has at most {cap} players, not {players}"),
    E_("a Swiss has at most {cap} players, not {players}"),
    E_("a knockout has at most {cap} players, not {players}"),
    E_("a round robin has at most {cap} cycles, not {cycles}"),
    E_("a round robin has at most {cap} games: {players} players in {cycles} cycles make {games}"),
    E_("an event of quads or groups has at most {cap} players, not {players}"),
    E_("there are no rounds yet"),
    E_("there is no player {start} in the table"),
    E_("unknown PDF"),
    E_("unknown action {action}"),
    E_("unknown language"),
    E_("unknown print page"),
    E_("you may ask for a bye only for yourself"),
    E_("you may report only your own games"),
    E_("there is no such thing here (a number in the address is too large)"),
    # -- service/stages.py, stage_view.py, web/routes/stages.py: group stage + knockout
    E_("tournament {tournament} is not part of a group stage"),
    E_("regulations, {key} {value}: not a whole number"),
    E_(
        "the group stage of {event} has no group {letters} ({present} of its {groups} groups are here)"
    ),
    E_("the group stage is not over: {groups} not finished yet"),
    E_("{group} (tournament {tournament}, {status})"),
    E_(
        "this knockout stage has no players from its groups yet: create the knockout stage (crosstable knockout-stage)"
    ),
    E_(
        "the players or starting numbers of the knockout stage changed after it was created (they are the bracket's seeds): undo those changes, or undo back to the knockout stage's creation and create it again"
    ),
    E_(
        "the groups' final standings changed after the knockout stage was created ({seeds} would be someone else now): undo the knockout stage and create it again"
    ),
    E_("seed {seed}"),
    E_("a tournament is named twice among the groups"),
    E_("a group stage has at least two groups"),
    E_("tournament {tournament} is a {system}, not a round robin"),
    E_("tournament {tournament} belongs to a group stage already"),
    E_("the knockout stage exists already: tournament {tournament} “{name}”"),
    E_("tournament {tournament} “{name}” is not a knockout waiting for its players"),
    # -- service/import_check.py: a whole-tournament JSON document before import
    E_("tournament must be an object"),
    E_("{where}.version must be a positive number"),
    E_("{where}: a second row with the key {key} in {section}"),
    E_("{where} undoes #{seq}, which is not the last change in force"),
    E_("{where}: the changes do not take back #{seq}'s"),
    E_("{where} reverts to #{seq}, but the rows are not as they were after #{to}"),
    E_("{where}.seq must be {seq}"),
    E_("{where}.{name} must be a text{limit}"),
    E_(" of at most {length} characters"),
    E_("{where}.kind must not be empty"),
    E_("{where}.idempotency_key must be a text of at most 200 characters"),
    E_("{where}.idempotency_key is used twice"),
    E_("{where}.data must be an object"),
    E_("{where}.changes must be a list"),
    E_("{where}.data.{name} must name an earlier event (1–{last})"),
    E_("{where} must be an object with table, key, before and after"),
    E_("{where}.table: unknown table {table}"),
    E_("{where}.key must name {names}"),
    E_("{where}: before and after are both null"),
    E_("{where}.{name}.{column} differs from its key"),
    E_("{where} inserts a row that exists already"),
    E_("{where} changes a row that does not exist"),
    E_("{where}: {name} is {value} at that point, the change expects {expected}"),
    E_("{label} is in the document but not in its history"),
    E_("{label} is in the history but not in the document"),
    E_("{label}: {name} is {value}, its history says {expected}"),
    E_("{where} must not be null"),
    E_("{where}: expected a whole number, got {value}"),
    E_("{where}: {value} is out of range"),
    E_("{where}: expected true or false, got {value}"),
    E_("{where}: expected a text, got {value}"),
    E_("{where}: {count} characters, at most {length} fit"),
    E_("{where}: a text must not contain a NUL character"),
    E_("{where}: expected an object, got {value}"),
    E_("tournament.system: unknown system {system}"),
    E_("the tournament has not started"),
    E_(
        "a battle-chess tournament can be exported by everyone once it is finished (the file carries the seed of the colours)"
    ),
    # battle chess (issue 12 item 1; core/battle.py, service/battle.py)
    E_("variant: {value} is not known; the only variant is 'battle'"),
    E_("{key}: only a battle-chess tournament has one"),
    E_("battle chess is a round robin here; a {system} tournament cannot be one"),
    E_("setup minutes: {value} is not a whole number of minutes"),
    E_("setup minutes: {value} — the set-up time is 1 to {most} minutes"),
    E_("battle seed: {value} is not a whole number from 0 to {most}"),
    E_("battle seed: a battle-chess tournament needs a seed for its colours"),
    E_("set-up timeout: {value} — say who finished setting up: none, white or black"),
    E_("{key} cannot change after the start: the colours depend on it (undo the start first)"),
    E_("this tournament is not battle chess: its colours come from the schedule"),
    E_("the colours are drawn once the tournament has started"),
    E_("the tournament is finished; undo the finish first"),
    E_("the colours of round {round} are already drawn"),
    E_(
        "round {round}'s colours are not drawn yet: the rounds are drawn in order, just before each is played"
    ),
    E_(
        "round {round} board {board}: the colours of round {again} are not drawn yet, so who has White is not known; draw them first"
    ),
    E_("a set-up timeout is a battle-chess result; this tournament is not battle chess"),
    E_("a set-up timeout is a draw or a win of the player who set up in time, not {result}"),
    E_("setup minutes"),
    E_("battle seed"),
    # the portal's rules (issue 12 items 2-4: fair play, eligibility, masters, organisers)
    E_("venue kind is online or otb (over the board), not {value}"),
    E_("eligibility: at least {need} games played are required (you have {have})"),
    E_("eligibility: at least 1 game played is required (you have {have})"),
    E_("eligibility: at least {need} finished online tournaments are required (you have {have})"),
    E_("eligibility: at least 1 finished online tournament is required (you have {have})"),
    E_("{total} = {site} on the site + {adjusted} adjusted"),
    E_("{total} = {site} on the site − {adjusted} adjusted"),
    E_("the tournament cannot start: {problems}"),
    E_(
        "fair play: {names} — an account flagged for computer help cannot take part; remove the entry before the start"
    ),
    E_(
        "an over-the-board event needs at least {least} eligible registered players to start; it has {count}"
    ),
    E_(
        "an over-the-board event needs at least {least} eligible registered players to start; it has {count} — not eligible: {missing}"
    ),
    E_("{entry}: no account on the site"),
    E_("at least {need} games played are required (has {have})"),
    E_("at least 1 game played is required (has {have})"),
    E_("at least {need} finished online tournaments are required (has {have})"),
    E_("at least 1 finished online tournament is required (has {have})"),
    E_("flagged for computer help"),
    E_(
        "organisers: a sole organiser may not play in their own tournament (add another organiser who does not play first)"
    ),
    E_(
        "organisers: a sole organiser may not play in their own tournament (this player would organise alone)"
    ),
    E_(
        "organisers: with several organisers, at least one of them does not play ({names} already play)"
    ),
    E_(
        "organisers: with several organisers, at least one of them does not play (every organiser would play)"
    ),
    E_("organisers: with several organisers, at least one of them does not play ({names} play)"),
    E_(
        "organisers: with several organisers, at least one of them does not play (every organiser left would play)"
    ),
    E_("{name} cannot organise: {problem}"),
    E_(
        "{name} cannot organise: an organiser is an administrator or a master (a winner of an over-the-board event of the site); make them a helper"
    ),
    E_("{name} cannot play in this tournament: {problems}"),
    E_("fair play: an account flagged for computer help cannot take part in tournaments"),
    E_("give the reason (it is kept with the account's record)"),
    E_("the reason has at most {most} characters"),
    E_("{name} is flagged already"),
    E_("{name} is not flagged"),
    E_("tournament {tournament}: {name} plays in no running tournament {again}"),
    E_("tournament {tournament}: the decision is withdraw or stay, not {value}"),
    E_(
        "fair play: {name} plays in running tournaments; decide for each whether they withdraw or stay until the end: {tournaments}"
    ),
    E_("{name} (tournament {tournament})"),
    E_("a withdrawal needs the tournament service"),
    E_("the adjustment of {what} is between -{least} and {most}"),
    E_(
        "{label}: only {count} of its players may go on, {needed} must go on (players {players} played no game or are barred for computer help)"
    ),
    E_("decisions: {key} is not a tournament id"),
    E_("only the account itself or an administrator may see this"),
    # -- service/rating_lists.py: the imported rating lists (issue 16 item 1)
    E_("FIDE id {fide_id} is not in the imported rating lists"),
    E_(
        "the ratings cannot be updated: the tournament has started (the pairings and the tie-breaks already use them)"
    ),
)


@dataclass(frozen=True, slots=True)
class Template:
    """One template, ready to match messages."""

    text: str
    #: the placeholders' names, in order
    names: tuple[str, ...]
    #: the template as a pattern twice: values as short as possible, and as long
    patterns: tuple[re.Pattern[str], re.Pattern[str]]
    #: the longest piece of fixed text (a quick test before the patterns)
    anchor: str
    #: how much fixed text there is (more: more specific, preferred)
    weight: int

    @classmethod
    def of(cls, text: str) -> Template:
        pieces = _PLACEHOLDER.split(text)
        fixed, names = pieces[0::2], tuple(pieces[1::2])

        def pattern(value: str) -> re.Pattern[str]:
            regex = "".join(
                re.escape(piece) + (value if index < len(names) else "")
                for index, piece in enumerate(fixed)
            )
            return re.compile(regex, re.DOTALL)

        return cls(
            text,
            names,
            (pattern("(.*?)"), pattern("(.*)")),
            max(fixed, key=len),
            sum(len(piece) for piece in fixed),
        )


@cache
def templates() -> tuple[Template, ...]:
    """Every template, the most specific first."""
    built = [Template.of(text) for text in dict.fromkeys(CATALOGUE)]
    return tuple(sorted(built, key=lambda t: (-t.weight, t.text)))


def matches(text: str) -> Iterator[tuple[Template, tuple[str, ...]]]:
    """Every way ``text`` is a template's text with values in it (the most specific
    template first); a value always closes the brackets it opens."""
    for template in templates():
        if template.anchor not in text:
            continue
        seen: set[tuple[str, ...]] = set()
        for pattern in template.patterns:
            found = pattern.fullmatch(text)
            if found is None or found.groups() in seen:
                continue
            seen.add(found.groups())
            if all(map(_balanced, found.groups())):
                yield template, found.groups()


def translate(message: str, locale: str | None = None) -> str:
    """``message`` in ``locale`` (default: the request's language); English as it is,
    and unchanged when nothing in it is known.

    A :class:`~crosstable.core.text.Message` is translated by its template (a gettext
    lookup in the ``errors`` catalogue) with its parameters translated in turn and
    numbers in the reader's notation; a plain text is looked up as a whole, and until
    every message carries its template, matched against :data:`CATALOGUE`.

    >>> from crosstable.core.text import Message
    >>> translate(Message("{where} is {result} now, not {guard}", guard="1-0", result="0-1",
    ...     where=Message("round {round} board {board}", round=2, board=1)), "ru")
    'тур 2, доска 1: сейчас результат 0-1, а не 1-0'
    """
    language = locale or i18n.current.get()
    if language == i18n.DEFAULT:
        return message
    return _Reader(language).text(message)


def error_text(error: BaseException, locale: str | None = None) -> str:
    """What the reader sees of an error raised by a service, the core or the web layer
    (an input error's file, line and column as they are, its message translated)."""
    if isinstance(error, InputError):
        return f"{error.location()}: {translate(error.message, locale)}"
    if isinstance(error, CrosstableError):
        return translate(error.text, locale)
    return translate(str(error), locale)


class _Reader:
    """Translates messages into one language (see :func:`translate`)."""

    def __init__(self, language: str) -> None:
        self.language = language
        self.catalog = i18n.error_translations(language)
        self.known: dict[object, object] = getattr(self.catalog, "_catalog", {})

    def text(self, message: str) -> str:
        if (
            isinstance(message, Message)
            and message.params
            and (message.is_list or message.template in self.known)
        ):
            return message.render(self.lookup, self.number)
        return self.lookup(str(message))

    def lookup(self, text: str) -> str:
        """A template's or a plain text's translation (itself when there is none)."""
        if text in self.known:
            return self.catalog.ugettext(text)
        found, _left = _translate(text, self.catalog, 0, {})
        return text if found is None else found

    def number(self, value: object) -> str:
        if isinstance(value, int) or (isinstance(value, Fraction) and value.denominator == 1):
            return str(value)
        if isinstance(value, (float, Fraction)):
            return i18n.number_text(value, self.language)
        return str(value)


#: a translation and how many English letters are left in it (fewer: better)
_Found = tuple[str | None, int]


def _translate(
    text: str, catalog: NullTranslations, depth: int, memo: dict[tuple[str, int], _Found]
) -> _Found:
    """The best translation of ``text`` (None: nothing in it is known), and how much
    English it leaves: a template that matches the whole text, with its values
    translated in turn, or a list ("a; b", "a, b") item by item — whichever leaves
    the least English; on a tie the most specific template."""
    if (text, depth) in memo:
        return memo[text, depth]
    best: _Found = (None, _letters(text))
    if depth <= _DEPTH and text.strip():
        for template, values in matches(text):
            translated = catalog.ugettext(template.text)
            if translated == template.text:
                continue  # (not translated)
            used = set(_PLACEHOLDER.findall(translated))
            filled: dict[str, str] = {}
            left = 0
            for name, value in zip(template.names, values, strict=True):
                if name in used:
                    done, rest = _translate(value, catalog, depth + 1, memo)
                    filled[name] = value if done is None else done
                    left += rest
            if best[0] is None or left < best[1]:
                best = (_fill(translated, filled), left)
            if left == 0:
                break
        for separator in _SEPARATORS:
            if best[1] == 0 or separator not in text:
                continue
            parts = text.split(separator)
            items = [_translate(part, catalog, depth + 1, memo) for part in parts]
            left = sum(rest for _done, rest in items)
            if any(done is not None for done, _rest in items) and left < best[1]:
                joined = [
                    part if done is None else done
                    for part, (done, _r) in zip(parts, items, strict=True)
                ]
                best = (separator.join(joined), left)
    memo[text, depth] = best
    return best


def _letters(text: str) -> int:
    return sum(1 for char in text if "a" <= char.lower() <= "z")


def _balanced(value: str) -> bool:
    """A value of one f-string field closes only brackets it opened, and all of them
    (else the template matched across two fields: "3 players), 'B' (2" is not a number).

    >>> _balanced("'A' (3 players)"), _balanced("3 players), 'B' (2")
    (True, False)
    """
    depth = 0
    for char in value:
        if char in "([":
            depth += 1
        elif char in ")]":
            depth -= 1
            if depth < 0:
                return False
    return depth == 0


def _fill(text: str, values: dict[str, str]) -> str:
    return _PLACEHOLDER.sub(lambda m: values.get(m.group(1), m.group(0)), text)


__all__ = [
    "CATALOGUE",
    "E_",
    "Template",
    "error_text",
    "matches",
    "templates",
    "translate",
]
