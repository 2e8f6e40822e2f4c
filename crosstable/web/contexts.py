"""The names for what the web layer hands on untyped, each with its reason.

* :data:`ClientJson` — a JSON body as the client sent it, before it is checked (the
  offline app's export, which the import reads and checks field by field): its shape is
  the client's until then.
* :data:`TemplateContext` — the values a Jinja template reads by name: Jinja takes a
  mapping of names to values of every kind (a tournament's view, a table, a flag, a
  callable), so the values are ``Any``; what a page knows of its tournament is typed
  first (:class:`crosstable.web.routes.common.PageContext`) and merged in here.

A submitted form is typed: :data:`FormValues` (what
:func:`crosstable.web.routes.common.checked_form` reads). JSON on the wire is
:data:`crosstable.service.read_views.JsonObject`.
"""

from __future__ import annotations

from typing import Any

#: one value of a submitted form: a text, an uploaded file's bytes, or — for a name sent
#: more than once (check boxes, the boards of a manual pairing) — them all in order
FormValue = str | bytes | list[str | bytes]
#: a submitted form's values by field name
FormValues = dict[str, FormValue]

#: a JSON body from the client before it is checked (the checking code reads it)
ClientJson = dict[str, Any]
#: a template's context: names to values of any kind (Jinja reads them by name)
TemplateContext = dict[str, Any]

__all__ = ["ClientJson", "FormValue", "FormValues", "TemplateContext"]
