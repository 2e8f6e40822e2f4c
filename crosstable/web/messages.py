"""Service and rule errors in the reader's language (the web app's error messages).

Errors carry their own parameters: the services and the core
raise them with a message *template* and named values,
``raise RuleError("there is no round {round} (rounds 1–{rounds})", round=9,
rounds=7)`` (a :class:`crosstable.core.text.Message`: a ``str`` whose value is
the English text, so the command line, logs and the JSON API by default show it
as before). The web app shows them in the reader's language: :func:`translate`
looks the template up in the ``errors`` gettext catalogue
(``locale/ru/LC_MESSAGES/errors.po``), translates each value in turn — a value
that is itself a Message by its template, a plain text as a whole (a constant
message is its own template: ``"running"``), a list (``Message.joined``) item
by item — and writes numbers in the reader's notation (``0,5`` in Russian).
No regular expressions: a text without a template of its own stays English.

How to add a message:

1. raise it with a literal template and its values by name
   (``raise NotFoundError("there is no user {user}", user=user_id)``), or make
   a piece of one with ``Message("round {round} board {board}", round=r,
   board=b)``; a text inserted as a plain value (a state, a setting's name) is
   marked with ``E_`` in :data:`CATALOGUE` below;
2. extract and translate (``scripts/extract_errors.py`` reads the templates
   from the code with :mod:`ast`)::

    python scripts/extract_errors.py
    cd crosstable/web
    pybabel update -D errors -i locale/errors.pot -d locale
    # translate the new entries in locale/ru/LC_MESSAGES/errors.po (no "fuzzy" left), then
    pybabel compile -D errors -d locale

``tests/test_web_messages.py`` fails when an error, a Message or an HTTP
error's detail is put together as text (an f-string, ``+``, a ``str.join``),
when a template has no Russian translation or is not given its values, and
when the .pot, .po and .mo are not up to date. ``scripts/codemods/
error_templates.py`` converts f-string messages of old code into this form.

>>> from crosstable.core.text import Message
>>> where = Message("round {round} board {board}", round=3, board=2)
>>> translate(Message("{where} already has {result}; to change it, correct the result",
...                   where=where, result="1-0"), "ru")
'тур 3, доска 2: уже записан результат 1-0; чтобы его изменить, исправьте результат'
>>> translate(Message("the tournament has already started (it is {status})", status="running"), "ru")
'турнир уже начался (состояние: идёт)'
>>> translate("there is nothing to undo", "ru"), translate("there is nothing to undo", "en")
('отменять нечего', 'there is nothing to undo')
>>> translate("a message nobody wrote a template for", "ru")
'a message nobody wrote a template for'
"""

# ruff: noqa: E501 - the catalogue keeps each text on one line, as gettext shows it

from __future__ import annotations

from fractions import Fraction

from babel.numbers import get_decimal_symbol

from crosstable.core.errors import CrosstableError, InputError
from crosstable.core.text import Message
from crosstable.web import i18n


def E_(message: str) -> str:  # noqa: N802 - a gettext-style marker (scripts/extract_errors.py)
    """Marks a text of the ``errors`` catalogue that is not a literal template in the code."""
    return message


#: texts of the errors catalogue that the code does not write as a literal template: values
#: inserted as plain texts and looked up whole (states, settings' and formats' names, pieces),
#: and constant messages returned by helpers (scripts/extract_errors.py extracts these too)
CATALOGUE: tuple[str, ...] = (
    E_("the tournament {what}"),
    E_("has not started"),
    E_("is finished already"),
    E_("no result"),
    E_("registration"),
    E_("running"),
    E_("finished"),
    E_("players are added"),
    E_("players are removed"),
    E_("after the start a player withdraws instead"),
    E_("lots are drawn"),
    E_("{where}: {problem}"),
    E_("sex is 'm', 'w' or empty, not {sex}"),
    E_("a club is at most {count} characters long"),
    E_("rating {rating} is negative"),
    E_(
        "cannot change after the start: the tie rule sends the lower-rated player on when a match is drawn (undo the start first)"
    ),
    E_("point system"),
    E_("bye points"),
    E_("tiebreaks"),
    E_("forfeits in tiebreaks"),
    E_("withdrawal rule"),
    E_("rules"),
    E_("system"),
    E_("cycles"),
    E_("rounds"),
    E_("swap last rounds"),
    E_("1 result"),
    E_("at least {need} rated games are required (you have {have})"),
    E_("at least {need} online tournaments are required (you have {have})"),
    E_("players flagged for computer assistance cannot enter"),
    E_("the regulations are waiting for an administrator's approval"),
    E_("the regulations were not approved"),
    E_("the organiser has not opened self-registration"),
    E_("you are registered already"),
    E_("you are registered"),  # the flash after registering (web/routes/pages.py)
    E_("registration withdrawn"),
    E_("approved"),  # an administrator's decision (the flash on the admin page)
    E_("rejected"),
    # names the product makes in the site's language (service/series/lines.made_name)
    E_("{head} — final"),
    E_("{head} — super-final"),
    E_("{head} — stage {stage}, group {group}"),
    E_("{name} — knockout"),
    E_("an organiser"),  # a role in the staff's history lines (service/accounts/staff.py)
    E_("a helper"),
    E_("withdrew"),  # a withdrawal's note under the crosstable (core/standings/withdrawals.py)
    E_("withdrew (a run of forfeits)"),
    E_("provisional: games are still to be played"),
    E_("a round robin"),
    E_("a double round robin"),
    E_("a Swiss"),
    E_("a knockout"),
    E_("a Scheveningen"),
    E_("a quads event"),
    E_("a rating-groups event"),
    E_("a group stage"),
    E_("the PAB"),
    E_("withdrew before"),
    E_("half-point"),
    E_("zero-point"),
    E_("full-point"),
    E_("initial colour"),
    E_("acceleration"),
    E_("match format"),
    E_("tie rule"),
    E_("bracket"),
    E_("lots seed"),
    E_("round formats"),
    E_("third place"),
    E_("tie-break games are due or games are left over"),
    E_("tie-break games are due: continue the knockout to add them"),
    E_("the final"),
    E_("the semi-final"),
    E_("the quarter-final"),
    E_("weekday {weekday}: one of {days}"),
    E_("accepted"),
    E_("refused"),
    E_("initial colour {colour}: white, black, or empty (by lot)"),
    E_("bracket {bracket}: seeded or random"),
    E_("the regulations were not approved by an administrator"),
    E_("sign-in attempts"),
    E_("sign-ups"),
    E_("result reports"),
    E_("results"),
    E_("only the organiser of this tournament may do that"),
    E_("only the organiser or a helper of this tournament may enter results"),
    E_("the request's Content-Length is not a number"),
    E_("there is no such thing here (a number in the address is too large)"),
    E_("a set-up timeout is a battle-chess result; this tournament is not battle chess"),
    E_("setup minutes"),
    E_("battle seed"),
    E_("at least {need} games played are required (has {have})"),
    E_("at least 1 game played is required (has {have})"),
    E_("at least {need} finished online tournaments are required (has {have})"),
    E_("at least 1 finished online tournament is required (has {have})"),
    E_("flagged for computer help"),
    E_("not a master"),  # the master status of an account (organisers.MasterStatus.text)
    E_(
        "organisers: a sole organiser may not play in their own tournament (add another organiser who does not play first)"
    ),
    E_(
        "organisers: a sole organiser may not play in their own tournament (this player would organise alone)"
    ),
    E_(
        "organisers: with several organisers, at least one of them does not play (every organiser would play)"
    ),
    E_(
        "organisers: with several organisers, at least one of them does not play (every organiser left would play)"
    ),
    E_("fair play: an account flagged for computer help cannot take part in tournaments"),
    # history lines: a result's reason, a cleared result, the approval
    E_("no-show"),
    E_("set-up timeout"),
    E_("adjudicated"),
    E_("played"),
    E_("cleared"),
    E_("the administrator's approval is withdrawn until it is given again"),
    # PGN as read by crosstable/formats/pgn.py (formats are not scanned)
    E_("the PGN contains a NUL character"),
    E_("game {index}: more than {most} headers"),
    E_("game {index}: more than {most} moves"),
    E_("game {index}: not readable as PGN ({why})"),
    E_("more than {most} games in one PGN"),
    E_("more than {most} moves in all the games of one PGN"),
    E_("game {index}"),
    E_('game {index} (White "{white}" – Black "{black}", Round "{round}")'),
    E_("{where}: White's move {number}, {san}, is illegal"),
    E_("{where}: Black's move {number}, {san}, is illegal"),
    E_("{where}: White's move {number}, {san}, is ambiguous"),
    E_("{where}: Black's move {number}, {san}, is ambiguous"),
    E_("{where}: White's move {number}, {san}, is not a move"),
    E_("{where}: Black's move {number}, {san}, is not a move"),
    E_("{where}: the variant {variant} is not played here"),
    E_("{where}: the FEN header is not a position a game can start from"),
    E_("{where}: Result {result} is not 1-0, 0-1, 1/2-1/2 or *"),
    E_("{where}: {count} characters, at most {most} are kept of one game"),
    E_("the game's moves cannot be read"),
    # history lines of the systems: a knockout's game kinds, rating lists
    E_("regular"),
    E_("rapid"),
    E_("blitz"),
    E_("armageddon"),
    E_("sudden-death"),
    E_("standard"),
    E_("round-robin"),
    E_("dutch"),
    E_("knockout"),
    E_("scheveningen"),
    E_("lower-rated"),
    E_("lots"),
    E_("final"),
    E_("semi-final"),
    E_("quarter-final"),
    E_("third-place"),
    # the series' history lines: a stage's kind, an edited setting's
    # name and a yes/no value (crosstable/service/series/edit.py, tick.py)
    E_("groups"),
    E_("super-final"),
    E_("the edition is finished"),
    E_("True"),
    E_("False"),
    E_("max_group_size"),
    E_("qualifiers_per_group"),
    E_("final_min"),
    E_("group_cycles"),
    E_("final_cycles"),
    E_("super_final_players"),
    E_("super_final_cycles"),
    E_("time_control"),
    E_("pre_registration"),
    E_("deadline_minutes"),
    E_("paused"),
    # the portal's rating tie-break's article (an explanation's note)
    E_("portal rules: average rating of the opponents met, unrounded"),
)


def translate(message: str, locale: str | None = None) -> str:
    """``message`` in ``locale`` (default: the request's language); English as it is,
    and unchanged when nothing in it is known (see the module's doc)."""
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

    def text(self, message: str) -> str:
        if isinstance(message, Message) and message.params:
            return message.render(self.lookup, self.number)
        return self.lookup(str(message))

    def lookup(self, text: str) -> str:
        """A template's or a plain text's translation (itself when there is none)."""
        return self.catalog.ugettext(text) if text else text

    def number(self, value: object) -> str:
        decimals = getattr(value, "decimals", None)
        if isinstance(decimals, int):  # (a formula's fixed decimals: only the sign changes)
            return format(value, "").replace(".", get_decimal_symbol(self.language))
        if isinstance(value, int) or (isinstance(value, Fraction) and value.denominator == 1):
            return str(value)
        if isinstance(value, (float, Fraction)):
            return i18n.number_text(value, self.language)
        return str(value)


__all__ = ["CATALOGUE", "E_", "error_text", "translate"]
