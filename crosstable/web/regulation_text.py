"""The regulations' details as the regulations page shows them, in the reader's language.

The details are stored as the services keep them (``match_format = "2-at-once"``,
``tie_rule = "rapid:2,blitz:2,armageddon"``, ``third_place = true``); this module
turns each into a label and a sentence ("Match: two games, played at once"; "On a
tie: 2 rapid games, then 2 blitz games, then armageddon"). A value it does not know
how to read is shown as it is stored. Only the keys that link the tournaments of a
group stage + knockout event (its key, the stage, the knockout's seeds as group
entries) are left out: the page's header shows the event in words.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from crosstable.core.errors import RuleError
from crosstable.core.funding import sources_of
from crosstable.core.pairing.knockout import MatchFormat, TieRule, parse_round_formats
from crosstable.core.regulations import RegulationDetails
from crosstable.service.long_event_settings import parse_ratings
from crosstable.web.i18n import N_, gettext, knockout_round, ngettext

_LABELS = {
    "venue": N_("Venue"),
    "venue_kind": N_("Kind of event"),
    "organiser": N_("Organiser"),
    "arbiter": N_("Arbiter"),
    "initial_colour": N_("First player's colour in round 1"),
    "match_format": N_("Match"),
    "tie_rule": N_("On a tie"),
    "bracket": N_("Bracket"),
    "lots_seed": N_("Seed of the lots"),
    "forbidden": N_("Forbidden pairs"),
    "acceleration": N_("Acceleration"),
    "round_formats": N_("Matches by round"),
    "third_place": N_("Match for third place"),
    "stage_name": N_("Event"),
    "stage_group": N_("Group"),
    "stage_groups": N_("Groups in the event"),
    "stage_qualifiers": N_("Qualifiers per group"),
    "knockout_match_format": N_("Knockout: match"),
    "knockout_tie_rule": N_("Knockout: on a tie"),
    "knockout_third_place": N_("Knockout: match for third place"),
    "stage_lots_seed": N_("Seed of the lots at the cut"),
    "finish": N_("End of the tournament"),
    "variant": N_("Variant"),
    "setup_minutes": N_("Set-up time"),
    "battle_seed": N_("Seed of the colours"),
    "forfeits_in_tiebreaks": N_("Forfeits in tie-breaks"),
    "ties": N_("Players equal after the tie-breaks"),
    "ties_lots_seed": N_("Seed of the lots for ties"),
    "schedule": N_("Schedule"),
    "initial_order": N_("Initial order"),
    "order_seed": N_("Seed of the lot"),
    "even_field": N_("An even field only (no bye)"),
    "long_event": N_("The event lasts more than 30 days"),
    "tiebreak_ratings": N_("Ratings in rating-based tie-breaks"),
    "ratings_by_round": N_("Ratings by round"),
    "rating_lists": N_("Rating lists, in order"),
    "funding": N_("Funding"),
    "sponsor": N_("Sponsor"),
    "sponsor_credit": N_("How the sponsor is credited"),
    "rating_method": N_("Rating that ranks the players"),
    # a team tournament's settings (docs/teams.md)
    "competitors": N_("Competitors"),
    "team_boards": N_("Boards in a match"),
    "team_scoring": N_("Match points (won, drawn, lost)"),
    "team_primary": N_("Ranked first by"),
    "team_order": N_("Board order in line-ups"),
    "team_tiebreaks": N_("Team tie-breaks"),
}
#: the details the page leaves out: those that only link an event's tournaments (see the
#: module's docstring) and the rating report's corrections (not rules)
_LINKS = frozenset({"stage_event", "stage", "stage_seeds", "report_corrections"})

_WORDS = {
    # a team tournament: its competitors, its board order
    "team": N_("teams"),
    "fixed": N_("fixed: nobody plays above a team-mate listed ahead"),
    "free": N_("free"),
    "white": N_("White"),
    "black": N_("Black"),
    "seeded": N_("seeded: 1 against the last, 2 against the one before the last, …"),
    "random": N_("drawn by lot"),
    "baku": N_("Baku acceleration (FIDE C.04.5.1)"),
    "lower-rated": N_("the lower-rated player goes on"),
    "lots": N_("by lot"),
    "armageddon": N_("armageddon"),
    "sudden-death": N_("sudden death"),
    # venue_kind: online counts for eligibility, over the board makes masters
    "online": N_("online"),
    "otb": N_("over the board (the players meet at the venue)"),
    # a round robin's table, a Swiss's initial order
    "berger": N_("FIDE Berger tables"),
    "circle": N_("circle method (1 fixed, the rest rotate)"),
    "crenshaw": N_("Crenshaw-Berger tables (US Chess; 3-4 or 7 or more players)"),
    "rating": N_("by rating (FIDE)"),
    "portal": N_("by rating, unrated players at random"),
    "lot": N_("by rating and title, equal players by lot"),
    # the rating method (FIDE's checklist's names)
    "FIDE": N_("the FIDE rating"),
    "NRO": N_("the national rating"),
    "FIDON": N_("the FIDE rating, else the national one"),
    "NIDOF": N_("the national rating, else the FIDE one"),
    "HBFN": N_("the highest of the FIDE, national and manual ratings"),
}


def regulation_items(details: Mapping[str, object], status: str = "") -> list[tuple[str, str]]:
    """(label, value) for each of the regulations' details, in the current language.

    A battle-chess tournament's seed of the colours is shown as its SHA-256 until the
    tournament is finished (``status``), then as it is: anyone can then check that it
    is the seed announced and recompute every game's colours (docs/battle.md)."""
    return [
        (_label(key), seed_text(value, status) if key == "battle_seed" else _value(key, value))
        for key, value in details.items()
        if key not in _LINKS
    ]


def published_details(details: Mapping[str, object], system: str) -> RegulationDetails:
    """The details with the rules that are published even when left at their default:
    whether forfeits count in the tie-breaks (a round robin's or a
    Scheveningen's), what happens to ties after the tie-breaks (not a
    knockout's, whose bracket decides) and the kind of event (online by default).

    >>> list(published_details({"venue": "Yerevan"}, "round-robin"))
    ['venue', 'forfeits_in_tiebreaks', 'ties', 'venue_kind']
    >>> list(published_details({"ties": "lots"}, "knockout"))
    ['ties', 'venue_kind']
    """
    shown: dict[str, object] = dict(details)
    if system in ("round-robin", "scheveningen"):
        shown.setdefault("forfeits_in_tiebreaks", "yes")
    if system != "knockout":
        shown.setdefault("ties", "shared")
    shown.setdefault("venue_kind", "online")
    return RegulationDetails(shown)


def seed_text(value: Any, status: str) -> str:
    """The seed of the colours: as it is once finished, before that its SHA-256."""
    text = str(value)
    if text.startswith("sha256:"):  # as the service publishes it before the finish
        digest = text.removeprefix("sha256:")
    elif status == "finished":
        return text
    else:
        digest = hashlib.sha256(text.encode()).hexdigest()
    return gettext(
        "SHA-256 %(digest)s (the seed itself is shown once the tournament is finished)",
        digest=digest,
    )


def variant_text(value: Any) -> str:
    """``battle`` → what battle chess means for the colours."""
    if str(value).strip().lower() != "battle":
        return str(value)
    drawn = gettext(
        "battle chess: the schedule decides who meets whom; the computer draws the colours "
        "of each game just before its round (round 1 at the start, each next round when "
        "the round before is complete, or earlier when the organiser draws it)"
    )
    lot = gettext(
        "each game's colours are a lot of their own, so the usual alternation of colours "
        "does not apply: a player may have the same colour several times in a row"
    )
    return f"{drawn}; {lot}"


def setup_text(value: Any) -> str:
    """``5`` → the set-up time and what a timeout gives."""
    minutes = int(str(value))
    rule = ngettext(
        "%(num)d minute: if neither player has finished setting up the pieces, the game is "
        "a draw; if only one has, that player wins",
        "%(num)d minutes: if neither player has finished setting up the pieces, the game is "
        "a draw; if only one has, that player wins",
        minutes,
    )
    counted = gettext(  # docs/battle.md: a game played for FIDE C.07, not rated
        "such a game counts as a game played in the tie-breaks (both players were at the "
        "board), and it is not rated (no move was made)"
    )
    return f"{rule}; {counted}"


def finish_text(value: Any) -> str:
    """``auto`` / ``confirm``: how the tournament finishes (service/finishing.py)."""
    mode = str(value).strip().lower()
    if mode == "auto":
        return gettext("with its last result: the places are final then")
    if mode == "confirm":
        return gettext("when the organiser finishes it: the places are final then")
    return str(value)


def forfeits_text(value: Any) -> str:
    """``yes`` / ``no``: whether forfeits count as games in tie-breaks."""
    flag = str(value).strip().lower()
    if flag == "yes":
        return gettext(
            "counted as games: a forfeit win is a win and a forfeit loss a loss "
            "against that opponent (FIDE C.07 15.2)"
        )
    if flag == "no":
        return gettext(
            "not counted: a forfeit, won or lost, is treated as an unplayed round "
            "(FIDE C.07 article 16); it still counts for the points"
        )
    return str(value)


def _label(key: str) -> str:
    return gettext(_LABELS[key]) if key in _LABELS else key


def _value(key: str, value: Any) -> str:
    reader = _READERS.get(key)
    text = str(value)
    if reader is None:
        return gettext(_WORDS[text]) if text in _WORDS else text
    try:
        return reader(value)
    except (RuleError, ValueError, KeyError):
        return text


def match_format_text(value: Any) -> str:
    """``2-at-once`` → "2 games, played at once"."""
    fmt = MatchFormat.parse(str(value))
    games = ngettext("%(num)d game", "%(num)d games", fmt.games)
    if fmt.games > 1 and not fmt.at_once:
        return gettext("%(games)s, colours swapped", games=games)
    if fmt.at_once:
        return gettext("%(games)s, played at once", games=games)
    return games


def tie_rule_text(value: Any) -> str:
    """``rapid:2,blitz:2,armageddon`` → "2 rapid games, then 2 blitz games, then …"."""
    rule = TieRule.parse(str(value))
    stages = [_stage(stage.kind.value, stage.games) for stage in rule.stages]
    decider = rule.decider.value
    parts = [*stages, gettext(_WORDS[decider]) if decider in _WORDS else decider]
    return gettext(", then ").join(parts)


def bracket_note(bracket: object) -> str:
    """The line under a bracket, in words: "Match: 2 games, colours swapped · On a tie: 2
    rapid games, then … · Bracket: seeded (seed 7)" (the stored codes read as the
    regulations page reads them; a code it cannot read is shown as it is)."""

    def get(key: str) -> Any:
        if isinstance(bracket, Mapping):
            return bracket.get(key)
        return getattr(bracket, key, None)

    order = str(get("order") or "")
    orders = {"seeded": gettext("seeded"), "random": gettext("random order")}
    note = " · ".join(
        (
            f"{gettext('Match')}: {_value('match_format', get('format') or '')}",
            f"{gettext('On a tie')}: {_value('tie_rule', get('tie_rule') or '')}",
            f"{gettext('Bracket')}: {orders.get(order, order)}",
        )
    )
    if order == "random" and get("lots_seed") is not None:
        note += f" ({gettext('seed')} {get('lots_seed')})"
    return note


def _stage(kind: str, games: int) -> str:
    if kind == "rapid":
        return ngettext("%(num)d rapid game", "%(num)d rapid games", games)
    if kind == "blitz":
        return ngettext("%(num)d blitz game", "%(num)d blitz games", games)
    return f"{games} × {kind}"


def round_formats_text(value: Any) -> str:
    """``final:4,semi-final:2`` → "Final: 4 games, colours swapped; Semi-final: …"."""
    formats = parse_round_formats(str(value))
    return "; ".join(
        f"{_round_title(name)}: {match_format_text(fmt.label())}" for name, fmt in formats
    )


def _round_title(name: str) -> str:
    if name == "third-place":
        return gettext("Match for third place")
    return knockout_round(name)


def ties_text(value: Any) -> str:
    """``shared`` / ``lots``: what happens to players equal after the whole list."""
    flag = str(value).strip().lower()
    if flag == "shared":
        return gettext("they share the place")
    if flag == "lots":
        return gettext(
            "lots are drawn: the computer draws the seed when the final places are fixed"
        )
    return str(value)


def tiebreak_ratings_text(value: Any) -> str:
    """``first`` / ``per round``: the rating a rating-based tie-break reads."""
    flag = str(value).strip().lower()
    if flag == "first":
        return gettext("each player's first rating")
    if flag == "per round":
        return gettext("the rating of each game's round")
    return str(value)


def ratings_by_round_text(value: Any) -> str:
    """``2:3=1905;4:2=1512`` → "player 2: 1905 from round 3; player 4: 1512 from round 2"."""
    try:
        ratings = parse_ratings(str(value))
    except RuleError:
        return str(value)
    return (
        "; ".join(
            gettext(
                "player %(number)s: %(rating)s from round %(round)s", number=n, rating=r, round=f
            )
            for n, later in ratings.items()
            for f, r in later
        )
        or "—"
    )


def yes_no(value: Any) -> str:
    flag = value if isinstance(value, bool) else str(value).strip().lower() in ("1", "true", "yes")
    return gettext("yes") if flag else gettext("no")


def forbidden_text(value: Any) -> str:
    """``1-2,3-4-5`` → "1 and 2; 3, 4 and 5"."""
    groups = [g.strip() for g in str(value).split(",") if g.strip()]
    return "; ".join(_joined(g.split("-")) for g in groups) or "—"


def _joined(items: Iterable[str]) -> str:
    values = [i.strip() for i in items if i.strip()]
    if len(values) < 2:
        return "".join(values)
    return gettext("%(items)s and %(last)s", items=", ".join(values[:-1]), last=values[-1])


#: the funding sources, as the regulations page names them
_SOURCES = {
    "sponsor": N_("a sponsor"),
    "own_funds": N_("the organiser's own funds"),
    "entry_fees": N_("entry fees"),
    "other": N_("other sources"),
}


def funding_text(value: Any) -> str:
    """``entry_fees,sponsor`` → "entry fees and a sponsor" (as stored when it does not read)."""
    try:
        sources = sources_of(str(value))
    except RuleError:
        return str(value)
    return _joined(gettext(_SOURCES[source]) for source in sources) or "—"


_READERS: dict[str, Callable[[Any], str]] = {
    "match_format": match_format_text,
    "tie_rule": tie_rule_text,
    "round_formats": round_formats_text,
    "third_place": yes_no,
    "even_field": yes_no,
    "long_event": yes_no,
    "tiebreak_ratings": tiebreak_ratings_text,
    "ratings_by_round": ratings_by_round_text,
    "knockout_match_format": match_format_text,
    "knockout_tie_rule": tie_rule_text,
    "knockout_third_place": yes_no,
    "forbidden": forbidden_text,
    "finish": finish_text,
    "variant": variant_text,
    "setup_minutes": setup_text,
    "forfeits_in_tiebreaks": forfeits_text,
    "ties": ties_text,
    "funding": funding_text,
}
