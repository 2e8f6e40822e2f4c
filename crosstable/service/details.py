"""The regulations' details as the services read and edit them: one name for each.

The details are a tournament's stored JSON object (``TournamentRow.regulations``):
texts as a rule (``{"venue": "Yerevan", "ties": "lots"}``), a few kept as JSON text
(the rating report's corrections, the expelled players). Every reader takes them as
:data:`Details`, read-only, each value an ``object`` that the reader reads as text
(``str(details.get(key) or "")``) or checks: the stored column, a
``core/regulations.RegulationDetails`` and an edit's mapping of texts all are one. An
edit builds a :data:`DetailsEdit`, a new object written back whole with
``tx.update(row, regulations=...)``. An edit of the regulations is given by keyword
(``edit_regulations(tid, rounds=9, detail_changes={"venue": "Hall"})``): a
:data:`RegulationsEdit`, each setting its own type, which each check reads for the
settings it knows (:func:`given_details`: the details it replaces or changes).

>>> from crosstable.service.pairing_phase_state import phase_round, with_phase
>>> edited: DetailsEdit = with_phase({"venue": "Hall"}, 3)
>>> edited, phase_round(edited)
({'venue': 'Hall', 'pairing_phase': '3'}, 3)
"""

from __future__ import annotations

from collections.abc import Mapping

#: the regulations' details as read: detail name → its stored value (a text, as a rule)
Details = Mapping[str, object]
#: the regulations' details an edit makes: a new object, stored whole
DetailsEdit = dict[str, object]
#: an edit of the regulations as given by keyword: setting name → its value (a name, a
#: date, the tie-break codes, the ``details`` that replace the details, the
#: ``detail_changes`` that change some of them…)
RegulationsEdit = Mapping[str, object]


def given_details(given: RegulationsEdit, key: str = "details") -> Details | None:
    """The details an edit gives under ``key`` (``details``: they replace the details;
    ``detail_changes``: they change some keys), None when it gives none.

    >>> given_details({"rounds": 9}), given_details({"details": {"venue": "Hall"}})
    (None, {'venue': 'Hall'})
    """
    value = given.get(key)
    if value is None:
        return None
    if not isinstance(value, Mapping):
        raise TypeError(f"an edit's {key} are a mapping of details, not {type(value).__name__}")
    return value


def edited_details(current: Details | None, given: RegulationsEdit) -> DetailsEdit:
    """The details an edit of the regulations leaves: ``details`` replaces the current ones
    (given as None: not given), then ``detail_changes`` changes some keys, as texts.

    >>> edited_details({"forbidden": "1-2", "venue": "Hall"}, {"detail_changes": {"forbidden": ""}})
    {'forbidden': '', 'venue': 'Hall'}
    >>> edited_details({"venue": "Hall"}, {"details": {"ties": "lots"}, "detail_changes": {"a": 1}})
    {'ties': 'lots', 'a': '1'}
    """
    replaced = given_details(given)
    details: DetailsEdit = dict(current or {}) if replaced is None else dict(replaced)
    changes = given_details(given, "detail_changes") or {}
    return details | {str(key): str(value) for key, value in changes.items()}


def folded_edit(given: RegulationsEdit, current: Details | None) -> RegulationsEdit:
    """``given`` with its ``detail_changes`` folded into the ``details`` it leaves (the
    current details, or those it replaces them with); ``given`` itself without any.

    >>> folded_edit({"rounds": 9, "detail_changes": {"venue": "Hall"}}, {"ties": "lots"})
    {'rounds': 9, 'details': {'ties': 'lots', 'venue': 'Hall'}}
    """
    if "detail_changes" not in given:
        return given
    values = {key: value for key, value in given.items() if key != "detail_changes"}
    values["details"] = edited_details(current, given)
    return values


__all__ = [
    "Details",
    "DetailsEdit",
    "RegulationsEdit",
    "edited_details",
    "folded_edit",
    "given_details",
]
