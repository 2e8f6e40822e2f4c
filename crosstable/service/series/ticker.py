"""The in-process ticker of ``crosstable serve``: a background thread
that runs the same pass as ``crosstable tick`` — :meth:`SeriesClock.tick`, then the
outbox's sender when mail is set up — every ``interval`` seconds.

The rules stay in the service with the injected clock: the ticker only decides *when*
a pass runs, never *what* is due (a pass does every step that is due and catches up
in order). Several serve processes, or serve with a cron ``crosstable tick``, are
safe together: one pass at a time per database (the PostgreSQL advisory lock, the
SQLite lease) and every step recorded once under its unique key.

Why no scheduler library (APScheduler, procrastinate…): there is one job, "pass
now", and everything a scheduler would add is already the service's — what is due
and the catch-up after a pause (the clock and the recorded steps), running once
across processes (the lock and the step keys), surviving a crash (the database).
A scheduler's own job store and misfire rules would be a second, competing notion
of "due"; its in-memory trigger is the ``Event.wait`` below. A pass that fails is
logged and the next one runs as usual: the loop never dies of one edition's error.
"""

from __future__ import annotations

import dataclasses
import logging
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from crosstable.service.clockwork import tick_all
from crosstable.service.series.sender import MailSettings, send_due

if TYPE_CHECKING:
    from crosstable.service import Service

log = logging.getLogger("crosstable.ticker")

#: how often ``crosstable serve`` ticks by default (seconds)
DEFAULT_INTERVAL = 60.0


class Ticker:
    """Runs ``service.tick()`` (and ``send``) now and then every ``interval`` seconds."""

    def __init__(
        self,
        service: Service,
        *,
        interval: float = DEFAULT_INTERVAL,
        send: Callable[[], object] | None = None,
        on_pass: Callable[[list[str]], None] | None = None,
    ) -> None:
        if not interval > 0:
            raise ValueError("the ticker's interval is a positive number of seconds")
        self.service = service
        self.interval = interval
        self.send = send
        self.on_pass = on_pass
        self.passes = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def pass_once(self) -> list[str]:
        """One pass: every step that is due, then the outbox; what was done."""
        done: list[str] = []
        try:
            done = tick_all(self.service)  # + tournaments
            for line in done:
                log.info("tick: %s", line)
            if self.send is not None:
                self.send()
        except Exception:  # a failing pass is logged; the next one runs as usual
            log.exception("the series tick failed; the next pass runs in %s s", self.interval)
        self.passes += 1
        if self.on_pass is not None:
            self.on_pass(done)
        return done

    def run(self) -> None:
        """Pass, wait, pass … until :meth:`stop` (the loop of the thread)."""
        while not self._stop.is_set():
            self.pass_once()
            self._stop.wait(self.interval)

    def start(self) -> Ticker:
        """Start the background thread (a daemon: it never holds the process up)."""
        if self._thread is None:
            self._thread = threading.Thread(target=self.run, name="crosstable-ticker", daemon=True)
            self._thread.start()
        return self

    def stop(self, timeout: float | None = 10.0) -> None:
        """Stop after the pass under way (if any)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None


def mail_sender(service: Service) -> Callable[[], object] | None:
    """The outbox's sender over the SMTP server of ``CROSSTABLE_SMTP_*`` (None: no host
    set, so no mail is sent — the in-site list still has every notification)."""
    settings = MailSettings.from_env()
    if settings is None:
        return None
    if not settings.secret:  # the web's own, so the unsubscribe links verify
        settings = dataclasses.replace(settings, secret=service.preference("web.secret") or "")
    final = settings
    return lambda: send_due(service.store, service.clock, final)
