"""A portal's series: recurring multi-stage tournaments, as pure rules.

* :mod:`~crosstable.core.series.calendar` — when editions may start (slots) and where a
  postponed start moves;
* :mod:`~crosstable.core.series.groups` — a stage's group sizes and snake seeding;
* :mod:`~crosstable.core.series.registration` — registration, its extension, the
  stage-2 window, start or postpone, the class-tournament minimum;
* :mod:`~crosstable.core.series.qualification` — who goes on from a finished stage;
* :mod:`~crosstable.core.series.plan` — an edition's stages, final and super-final.

No clock, no I/O: moments and time zones are passed in. docs/series.md states the rules
and every reading of seed 002 they rest on.
"""
