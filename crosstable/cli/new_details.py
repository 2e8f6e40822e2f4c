"""The regulations' details ``crosstable new`` writes for a system: the portal Swiss's,
the round robin's table, each system's own settings, and the rating method — each
checked here, so that a typo fails before anything is stored."""

from __future__ import annotations

from crosstable.core.errors import RuleError
from crosstable.core.model import System
from crosstable.core.rating_method import FIELD as RATING_METHOD
from crosstable.core.rating_method import RatingMethod, rating_method
from crosstable.core.schedule.kinds import SCHEDULE_KEY, schedule_kind
from crosstable.core.system_settings import SettingError


def portal_swiss(system: System, order: str, seed: str, even: bool) -> dict[str, str]:
    """The portal Swiss's settings given (refused for another system; checked here)."""
    from crosstable.service.swiss.portal import PortalSwiss  # deferred: the service layer

    details = {
        key: value
        for key, value in (
            ("initial_order", order.strip().lower()),
            ("order_seed", seed.strip()),
            ("even_field", "yes" if even else ""),
        )
        if value
    }
    if details and system is not System.SWISS_DUTCH:
        option = "--" + next(iter(details)).replace("_", "-")
        raise RuleError(f"{option} is for Swiss tournaments (--system dutch), not a {system.value}")
    try:
        PortalSwiss.from_details(details)
    except SettingError as error:
        raise RuleError(error.option_text()) from None
    return details


def schedule_detail(system: System, text: str) -> str:
    """The round robin's table named by ``--schedule`` (refused for another system)."""
    if system is not System.ROUND_ROBIN:
        raise RuleError(f"--schedule is for round robins, not a {system.value}")
    try:
        return schedule_kind({SCHEDULE_KEY: text}).value
    except SettingError as error:
        raise RuleError(error.option_text()) from None


def system_details_of(
    system: System,
    *,
    rounds: int | None,
    initial_colour: str,
    forbidden: str,
    acceleration: str,
    match_format: str | None,
    tie_rule: str | None,
    bracket: str | None,
) -> dict[str, str]:
    """The regulations' details each system reads (checked here, so a typo fails now)."""
    swiss = {
        "--rounds": rounds is not None,
        "--initial-colour": bool(initial_colour),
        "--forbidden": bool(forbidden),
        "--acceleration": bool(acceleration),
    }
    knockout = {
        "--match-format": match_format is not None,
        "--tie-rule": tie_rule is not None,
        "--bracket": bracket is not None,
    }
    for options, wanted, what in (
        (swiss, System.SWISS_DUTCH, "Swiss tournaments (--system dutch)"),
        (knockout, System.KNOCKOUT, "knockout tournaments (--system knockout)"),
    ):
        given = [option for option, used in options.items() if used]
        if given and system is not wanted:
            raise RuleError(f"{given[0]} is for {what}, not a {system.value}")
    from crosstable.service.formats import system_details  # deferred: service layer

    try:  # the wizard's function: the same choice makes the same regulations
        return system_details(
            system,
            rounds=rounds,
            initial_colour=initial_colour,
            forbidden=forbidden,
            acceleration=acceleration,
            match_format=match_format,
            tie_rule=tie_rule,
            bracket=bracket,
        )
    except SettingError as error:
        raise RuleError(error.option_text()) from None


def rating_method_detail(text: str) -> dict[str, str]:
    """The rating method named by ``--rating-method`` (nothing for FIDE, the default)."""
    method = rating_method({RATING_METHOD: text})
    return {} if method is RatingMethod.FIDE else {RATING_METHOD: method.value}
