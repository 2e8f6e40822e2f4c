"""The site's Telegram bot: what it reads from an update and what it answers, as Bot API
calls (https://core.telegram.org/bots/api) whose texts are message templates the web
layer writes in the reader's language and sends.

* **Updates** (:func:`incoming`): a private chat's command (``/start``, ``/games``,
  ``/help``; ``/start@name payload`` too) or a press on one of the bot's inline
  buttons (a ``callback_query``). Anything else — other messages, malformed updates,
  texts too long — is left alone (None): the webhook answers Telegram 200 and nothing
  happens.
* **Buttons** (:func:`report_data`, :func:`parse_report`): a result button carries
  ``r:<tournament>:<round>:<board>:<w|d|b>`` (at most 64 bytes, Telegram's limit).
  A modified client can send any data, so the data say only what the player asks: who
  asks is Telegram's ``from.id``, whose linked account must play that game — the site's
  own checks decide (the report goes through the same call as the site's report).
* **Answers**: ``/start`` sends a button that opens the Mini App (``web_app``);
  ``/games`` lists the player's games without a result in running tournaments (at most
  :data:`MOST_GAMES`), each with the buttons 1-0, ½-½ and 0-1; a press is answered with
  ``answerCallbackQuery`` (what happened, or why not) and the list is redrawn with
  ``editMessageText`` (the report shown). The organiser confirms a reported result on
  the site, as any report.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import and_, or_, select
from sqlalchemy.orm import aliased

from crosstable.core.text import Message
from crosstable.service.loading import result_label
from crosstable.service.series.mail_text import LANGUAGE_KEY, LANGUAGES
from crosstable.store import Store
from crosstable.store.accounts_models import EntryAccountRow
from crosstable.store.models import EntryRow, GameRow, PreferenceRow, TournamentRow

#: the most games one list shows (and buttons it carries)
MOST_GAMES = 10
#: Telegram's longest command text worth reading, and its callback data limit
MAX_COMMAND = 200
MAX_DATA = 64
#: the results a button reports, by its letter
RESULTS = {"w": "1-0", "d": "½-½", "b": "0-1"}
_REPORT = re.compile(r"r:([0-9]{1,9}):([0-9]{1,4}):([0-9]{1,4}):([wdb])")
_COMMAND = re.compile(r"/([a-z_]{1,32})(?:@[A-Za-z0-9_]{1,64})?(?:\s+(.*))?", re.S)
_LARGEST_ID = 2**63 - 1


@dataclass(frozen=True)
class Command:
    """A command in a private chat."""

    chat_id: int
    from_id: int
    language: str
    name: str
    argument: str = ""


@dataclass(frozen=True)
class Press:
    """A press on an inline button of one of the bot's messages."""

    query_id: str
    from_id: int
    language: str
    data: str
    chat_id: int | None = None
    message_id: int | None = None


@dataclass(frozen=True)
class Report:
    """What a result button asks: report ``result`` for a game."""

    tournament_id: int
    round: int
    board: int
    result: str


@dataclass(frozen=True)
class CurrentGame:
    tournament_id: int
    tournament: str
    round: int
    board: int
    white: str
    black: str
    mine: str  # "white" or "black"
    reported: str | None  # what this player reported, if anything


#: a body of Telegram's Bot API (JSON over HTTP, named as the Bot API names its fields;
#: its ``text`` values are Message templates until sent): a third party's JSON
BotJson = dict[str, Any]
#: a part of an update Telegram sends (the update, its message, its sender…): a third
#: party's JSON, read field by field, each checked before it is used
BotUpdate = Mapping[str, object]


@dataclass(frozen=True)
class BotCall:
    """One Bot API call: its method and JSON body (``text`` values are templates)."""

    method: str
    body: BotJson = field(default_factory=dict)


def _identifier(value: object) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    return value if -_LARGEST_ID <= value <= _LARGEST_ID and value != 0 else None


def _language(sender: BotUpdate) -> str:
    code = sender.get("language_code", "")
    return code.split("-", 1)[0].lower()[:8] if isinstance(code, str) else ""


def incoming(update: Any) -> Command | Press | None:
    """What an update asks of the bot, or None when it is nothing for it."""
    if not isinstance(update, Mapping):
        return None
    press = update.get("callback_query")
    if isinstance(press, Mapping):
        return _press(press)
    message = update.get("message")
    if isinstance(message, Mapping):
        return _command(message)
    return None


def _press(press: BotUpdate) -> Press | None:
    sender, data, query = press.get("from"), press.get("data"), press.get("id")
    if not isinstance(sender, Mapping) or not isinstance(data, str) or not isinstance(query, str):
        return None
    who = _identifier(sender.get("id"))
    if who is None or who < 0 or not query or len(query) > 64 or len(data) > MAX_DATA:
        return None
    chat_id = message_id = None
    message = press.get("message")
    chat = message.get("chat") if isinstance(message, Mapping) else None
    if isinstance(message, Mapping) and isinstance(chat, Mapping):
        chat_id = _identifier(chat.get("id"))
        message_id = _identifier(message.get("message_id"))
    return Press(query, who, _language(sender), data, chat_id, message_id)


def _command(message: BotUpdate) -> Command | None:
    sender, chat, text = message.get("from"), message.get("chat"), message.get("text")
    if not isinstance(sender, Mapping) or not isinstance(chat, Mapping):
        return None
    if not isinstance(text, str) or len(text) > MAX_COMMAND or chat.get("type") != "private":
        return None
    who, chat_id = _identifier(sender.get("id")), _identifier(chat.get("id"))
    found = _COMMAND.fullmatch(text.strip())
    if who is None or chat_id is None or who < 0 or found is None:
        return None
    return Command(chat_id, who, _language(sender), found.group(1), (found.group(2) or "")[:64])


def report_data(tournament_id: int, round_number: int, board: int, letter: str) -> str:
    """A result button's callback data."""
    return f"r:{tournament_id}:{round_number}:{board}:{letter}"


def parse_report(data: str) -> Report | None:
    """What a result button's data ask, or None when they are not a result button's."""
    found = _REPORT.fullmatch(data)
    if found is None:
        return None
    tid, rnd, board, letter = found.groups()
    return Report(int(tid), int(rnd), int(board), RESULTS[letter])


def current_games(store: Store, user_id: int, limit: int = MOST_GAMES) -> list[CurrentGame]:
    """The account's games without a result in running tournaments, by tournament,
    round and board (at most ``limit``)."""
    white, black = aliased(EntryRow), aliased(EntryRow)
    plays = and_(
        GameRow.tournament_id == EntryAccountRow.tournament_id,
        or_(GameRow.white == EntryAccountRow.number, GameRow.black == EntryAccountRow.number),
    )
    query = (
        select(GameRow, EntryAccountRow.number, TournamentRow.name, white.name, black.name)
        .join(EntryAccountRow, plays)
        .join(TournamentRow, TournamentRow.id == GameRow.tournament_id)
        .join(
            white,
            and_(white.tournament_id == GameRow.tournament_id, white.number == GameRow.white),
        )
        .join(
            black,
            and_(black.tournament_id == GameRow.tournament_id, black.number == GameRow.black),
        )
        .where(
            EntryAccountRow.user_id == user_id,
            TournamentRow.status == "running",
            GameRow.result.is_(None),
        )
        .order_by(GameRow.tournament_id, GameRow.round, GameRow.board)
        .limit(limit)
    )
    games = []
    with store.reading() as session:
        for game, number, name, white_name, black_name in session.execute(query):
            mine = "white" if game.white == number else "black"
            report = game.white_report if mine == "white" else game.black_report
            games.append(
                CurrentGame(
                    game.tournament_id,
                    name,
                    game.round,
                    game.board,
                    white_name,
                    black_name,
                    mine,
                    None if report is None else result_label(report),
                )
            )
    return games


def language_for(store: Store, user_id: int | None, spoken: str, default: str) -> str:
    """The language the bot writes in: the account's choice for mails and Telegram,
    else the Telegram app's language when the site has it, else ``default``."""
    if user_id is not None:
        with store.reading() as session:
            row = session.get(PreferenceRow, LANGUAGE_KEY.format(user=user_id))
            if row is not None and row.value in LANGUAGES:
                return str(row.value)
    return spoken if spoken in LANGUAGES else default


def app_button(app_url: str) -> BotJson:
    """The inline keyboard with the button that opens the Mini App."""
    return {"inline_keyboard": [[{"text": Message("Open the app"), "web_app": {"url": app_url}}]]}


def games_text(games: list[CurrentGame], said: object = "") -> tuple[Message, BotJson]:
    """The list of a player's games and its result buttons (``said`` above it)."""
    lines: list[object] = [said] if said else []
    rows: list[list[BotJson]] = []
    if not games:
        lines.append(Message("You have no games without a result in running tournaments."))
    else:
        lines.append(Message("Your games without a result (the organiser confirms reports):"))
    for number, game in enumerate(games, 1):
        colour = Message("white") if game.mine == "white" else Message("black")
        line = Message(
            "{number}. {tournament}, round {round}, board {board}: {white} – {black} (you play "
            "{colour})",
            number=number,
            tournament=game.tournament,
            round=game.round,
            board=game.board,
            white=game.white,
            black=game.black,
            colour=colour,
        )
        if game.reported:
            line = Message("{line}; you reported {result}", line=line, result=game.reported)
        lines.append(line)
        rows.append(
            [
                {
                    "text": Message("{number}: {result}", number=number, result=result),
                    "callback_data": report_data(game.tournament_id, game.round, game.board, key),
                }
                for key, result in RESULTS.items()
            ]
        )
    return Message.joined("\n", lines), {"inline_keyboard": rows}


def answer_command(
    command: Command, user_id: int | None, games: list[CurrentGame], app_url: str
) -> list[BotCall]:
    """The calls that answer a command of the Telegram user (linked with the account
    ``user_id``, or not linked: None)."""
    chat = command.chat_id
    if command.name == "start" or user_id is None:
        text: object = Message(
            "Welcome! Open the app to see your tournaments, games and results. Send /games to "
            "list your games without a result and report a result with the buttons."
        )
        if user_id is None:
            text = Message(
                "{welcome}\nYour Telegram account is not linked with an account of the site yet: "
                "open the app to sign in; the organiser then adds you to the tournament.",
                welcome=text,
            )
        body: BotJson = {"chat_id": chat, "text": text}
        if app_url:
            body["reply_markup"] = app_button(app_url)
        return [BotCall("sendMessage", body)]
    if command.name == "games":
        text, keyboard = games_text(games)
        return [BotCall("sendMessage", {"chat_id": chat, "text": text, "reply_markup": keyboard})]
    help_text = Message("Commands: /start opens the app, /games lists your games without a result.")
    return [BotCall("sendMessage", {"chat_id": chat, "text": help_text})]


def answer_press(press: Press, said: object, games: list[CurrentGame] | None) -> list[BotCall]:
    """The calls that answer a button press: Telegram's answer to the press (``said``,
    shown to the player) and, when the list is known, the list redrawn with it."""
    calls = [BotCall("answerCallbackQuery", {"callback_query_id": press.query_id, "text": said})]
    if games is not None and press.chat_id is not None and press.message_id is not None:
        text, keyboard = games_text(games, said)
        body = {
            "chat_id": press.chat_id,
            "message_id": press.message_id,
            "text": text,
            "reply_markup": keyboard,
        }
        calls.append(BotCall("editMessageText", body))
    return calls
