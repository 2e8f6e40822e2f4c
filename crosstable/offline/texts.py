"""The offline app's words in English, Russian and Armenian: the page's labels and the
core's messages, looked up in the web app's gettext catalogues (shipped in the app)."""

from __future__ import annotations

import gettext
from functools import cache
from pathlib import Path

from crosstable.core.text import Message

LOCALE = Path(__file__).resolve().parent.parent / "web" / "locale"
LANGUAGES = ("en", "ru", "hy")


def _(text: str) -> str:  # marks a label for pybabel extract; looked up in labels()
    return text


LABELS: dict[str, str] = {
    "title": _("Tournament in the browser"),
    "offline": _("Works without a connection; kept in this browser only."),
    "kind": _("Kind"),
    "round-robin": _("Round robin"),
    "knockout": _("Knockout"),
    "swiss": _("Swiss"),
    "rounds": _("Rounds"),
    "match_format": _("Games in a match"),
    "tie_rule": _("Tie-break"),
    "third_place": _("Match for third place"),
    "name": _("Name"),
    "rating": _("Rating"),
    "create": _("New tournament"),
    "add": _("Add player"),
    "start": _("Start"),
    "pair": _("Pair the next round"),
    "undo": _("Undo"),
    "export": _("Export JSON"),
    "import": _("Import JSON"),
    "backups": _("Backups"),
    "restore": _("Restore"),
    "standings": _("Standings"),
    "round": _("Round"),
    "board": _("Board"),
    "game": _("Game"),
    "white": _("White"),
    "black": _("Black"),
    "result": _("Result"),
    "points": _("Points"),
    "place": _("Place"),
    "bye": _("Bye"),
    "winner": _("Winner"),
    "finished": _("The tournament is over."),
    "discard": _("Close tournament"),
    "loading": _("Loading the tournament engine…"),
    "bughouse": _("Bughouse"),
    "pair_name": _("Pair's name"),
    "player_one": _("First board player"),
    "player_two": _("Second board player"),
    "system": _("System"),
    "rule": _("Match rule"),
    "rule_sum": _("sum: both games' points added"),
    "rule_first": _("first: the game finished first decides"),
    "first": _("Finished first"),
    "match": _("Match"),
    "match_points": _("Match points"),
    "game_points": _("Game points"),
}


@cache
def _catalogue(lang: str, domain: str) -> gettext.NullTranslations:
    if lang not in LANGUAGES or lang == "en":
        return gettext.NullTranslations()
    return gettext.translation(domain, str(LOCALE), languages=[lang], fallback=True)


def labels(lang: str) -> dict[str, str]:
    """Every label of the page in ``lang`` (English for an unknown language)."""
    catalogue = _catalogue(lang, "messages")
    return {key: catalogue.gettext(text) for key, text in LABELS.items()}


def say(message: Message, lang: str) -> str:
    """A core message in ``lang``."""
    catalogue = _catalogue(lang, "errors")
    return message.render(catalogue.gettext, str)
