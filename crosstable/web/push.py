"""Live updates through a push server: nginx with nchan.

With ``crosstable serve --push-url URL`` (or ``CROSSTABLE_PUSH_URL``) the app does not
write to spectators' sockets itself: after each committed change it publishes ONE
message per tournament channel to nchan over HTTP, and nchan (C, in nginx) writes it
to every subscriber. Without the setting nothing changes: the embedded hub
(:mod:`crosstable.web.hub`) serves the event streams.

Channels, per tournament and language (a fragment is rendered in the reader's
language; two languages, two channels):

* ``{tid}-{locale}`` — every change: JSON ``{"revision", "change", "base", "cells"}``
  (and ``"order"`` when a Swiss table's rows moved) when only cells changed since
  revision ``base`` (= ``revision - 1``: whoever is current applies them), the cells
  as data (:mod:`crosstable.web.live_cells`: the page renders them); when another
  process published ``base``, its table as data is read from the table channel,
  ``…/{tid}-{locale}.table/last``. Else ``{"revision", "change", "table"}`` with the
  whole fragment; ``"full"`` names the table channel.
  nchan keeps the last messages (``nchan_message_buffer_length``): a reconnecting
  subscriber sends the id of the last message it got (``Last-Event-ID``) and gets
  every message after it, a new one gets the kept messages from the oldest
  (``nchan_subscriber_first_message oldest``); a page skips those not newer than its
  table.
* ``{tid}-{locale}.table`` — the whole fragment at the newest revision
  (``{"revision", "table", "data"}``: the fragment, and the table as data for the next
  publisher's cells), kept by nchan: a page whose table is too old for
  the cells it got reads it there (one GET to nginx, none to the app).

Who publishes (several processes on PostgreSQL): the process that recorded the
change, from the thread that committed it, *before* the change is announced to the
other processes (``pg_notify``, ``ChangeFrame.announce`` publishes on the bus
first). A change the other processes hear of by NOTIFY is never published by them.
A process killed after its commit and before its publish never sent the NOTIFY
either: the listeners' polling finds the change "not announced" (a notification
with no origin), and only the process that holds the PostgreSQL advisory lock
``crosstable.push`` publishes those (:class:`Leadership`; the lock goes with a dead
process's connection, and a process that takes it over publishes what its polls
found meanwhile). So each change is published once; twice only when a process dies
between its publish and its NOTIFY (a duplicate at the same revision: pages skip a
revision they have).

Order across processes: every publisher reads the tournament's revision again
after publishing, and publishes the newest state when it has moved on, so the
last message nchan keeps is never older than a change committed before it.

When nchan cannot be reached (nginx restarting), the tournaments changed meanwhile
are kept and their newest state is published as soon as it answers again (a thread
tries every half second); the committing threads do not wait for it meanwhile.
A message nchan answers and refuses (an error status other than 502–504: too large
for the publisher location, its memory full) is logged and not sent again: it does
not hold up the other tournaments, and the tournament's next change publishes its
newest state.

Channels nobody watches (of 10 000 running tournaments most have no
spectator at a given moment): nchan's answer to a publication says how many
subscribers the channel has (all nginx together, with Redis). A channel whose last
answer said none, or that this process has not published to yet, gets a *marker*
instead of the table — ``{"revision", "fetch": true, "change", "full"}``: no render,
one POST and none to the table channel. Its answer counts the subscribers again:
when someone subscribed meanwhile, the table is rendered and published at once, as
for a watched channel. A page that gets a marker (it subscribed, or reconnected,
while the channel was unwatched) and no newer table soon after reads the table:
from ``full``, else from the app (``static/app.js``). So nothing is lost, and a
tournament without spectators costs one small message per change and language
instead of a read, a render and two messages. (A push server whose answers do not
count subscribers gets the table on every channel, as before.)
"""

from __future__ import annotations

import http.client
import json
import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import TYPE_CHECKING
from urllib.parse import quote, urlsplit

from crosstable.core.errors import CrosstableError
from crosstable.core.row_changes import JsonValue
from crosstable.service.bus import EventBus, Notification
from crosstable.web.live_cells import PushBody, TableData, changed_cells

if TYPE_CHECKING:
    from crosstable.web.push_leader import Leadership

log = logging.getLogger(__name__)

#: the environment variables of the two settings (for any way of starting the app)
PUSH_URL_ENV = "CROSSTABLE_PUSH_URL"
PUSH_PUBLIC_ENV = "CROSSTABLE_PUSH_PUBLIC"
#: where pages subscribe by default (same origin; deploy/nginx.conf)
PUBLIC = "/push"
#: tables kept to find the changed cells (per tournament and language; least recently used go)
KEPT_TABLES = 4096
#: seconds after which a publication counts as safely delivered (an nginx restart
#: later does not publish that tournament again)
RECENT = 120.0
#: seconds a poll-found change is kept by a process that is not the leader (for a takeover)
TAKEOVER_WINDOW = 30.0
#: channels remembered as watched (nchan last answered with subscribers; least recent go)
KEPT_WATCHED = 65536

#: renders the live fragment of a tournament for one language: (tournament, locale) → html
Renderer = Callable[[int, str], tuple[int, str]]
#: renders it in each of several languages from one reading of the table
ManyRenderer = Callable[[int, tuple[str, ...]], list[tuple[int, str]]]
#: a tournament's live table as data (None: sent whole only)
DataReader = Callable[[int], TableData | None]


class PushUrlError(CrosstableError, ValueError):
    """The push server's publisher URL is not usable."""


class PushError(Exception):
    """nchan did not take a message: not reachable, or busy (502, 503, 504): sent again."""


class PushRefusedError(PushError):
    """nchan answered and refused one message (any other error status: too large, a
    location that does not take it, its memory full): logged, not sent again — the
    tournament's next change publishes its newest state; the others go on meanwhile."""


def check_push_url(url: str) -> str:
    """The publisher URL without a trailing slash, checked.

    >>> check_push_url("http://127.0.0.1:8080/push/publish/")
    'http://127.0.0.1:8080/push/publish'
    >>> check_push_url("ftp://x")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    crosstable.web.push.PushUrlError: push URL ftp://x: not an http:// URL of the push ...
    """
    parts = urlsplit(url.strip())
    if parts.scheme != "http" or not parts.hostname or parts.query or parts.fragment:
        raise PushUrlError(
            "push URL {url}: not an http:// URL of the push server's publisher location "
            "(e.g. http://127.0.0.1:8080/push/publish)",
            url=url,
        )
    return url.strip().rstrip("/")


def channel(tournament_id: int, locale: str) -> str:
    """The channel of a tournament's live table in one language.

    >>> channel(5, "ru"), table_channel(5, "ru")
    ('5-ru', '5-ru.table')
    """
    return f"{tournament_id}-{locale}"


def table_channel(tournament_id: int, locale: str) -> str:
    return f"{channel(tournament_id, locale)}.table"


def changes_json(changes: list[Notification], revision: int) -> list[JsonValue]:
    """The ``change`` list of a message (as the hub sends it); ``refresh`` when the
    message stands for changes it does not list (a newer state published again)."""
    if not changes:
        return [{"seq": revision, "kind": "refresh", "summary": "", "games": []}]
    return [
        {"seq": n.seq, "kind": n.kind, "summary": n.summary, "games": [[*g] for g in n.games]}
        for n in changes
    ]


def subscribers_in(answer: bytes) -> int | None:
    """The subscribers nchan's answer to a publication counts (its channel information as
    JSON); None when the answer does not say.

    >>> subscribers_in(b'{"messages": 2, "requested": 0, "subscribers": 1 }')
    1
    >>> subscribers_in(b"") is None, subscribers_in(b'{"subscribers": "x"}') is None
    (True, True)
    """
    try:
        found = json.loads(answer).get("subscribers")
    except (ValueError, AttributeError):
        return None
    return found if isinstance(found, int) and not isinstance(found, bool) and found >= 0 else None


class _Connections(threading.local):
    connection: http.client.HTTPConnection | None = None


class Publisher:
    """Publishes every change this process records (and, as the leader, the changes
    found unannounced) to nchan; see the module's text."""

    def __init__(
        self,
        url: str,
        bus: EventBus,
        render: Renderer,
        revision_of: Callable[[int], int],
        *,
        locales: tuple[str, ...] = ("en", "ru"),
        public: str = PUBLIC,
        leadership: Leadership | None = None,
        timeout: float = 2.0,
        retry_every: float = 0.5,
        render_in: ManyRenderer | None = None,
        data_of: DataReader | None = None,
    ) -> None:
        self.url = check_push_url(url)
        parts = urlsplit(self.url)
        self._host = parts.hostname or "127.0.0.1"
        self._port = parts.port or 80
        self._path = parts.path
        self.public = public.rstrip("/")
        self.bus = bus
        #: every language from one reading of the table (else one render per language)
        self.render_in: ManyRenderer = render_in or (
            lambda tid, locales: [render(tid, locale) for locale in locales]
        )
        #: this process's sentinel channel (gone: nginx restarted)
        self.sentinel = f"alive-{bus.origin}"
        self.revision_of = revision_of
        #: the table as data (None: whole tables only)
        self.data_of = data_of
        self.locales = locales
        self.leadership = leadership
        self.timeout = timeout
        self.retry_every = retry_every
        #: messages nchan took (for tests and the benchmark), and of them the markers
        self.published = 0
        self.markers = 0
        self._local = _Connections()
        self._locks: dict[int, threading.Lock] = {}
        self._locks_lock = threading.Lock()
        #: tournament → the newest table published from here, as data
        self._tables: OrderedDict[int, TableData] = OrderedDict()
        self._tables_lock = threading.Lock()
        #: (tournament, locale) of the channels nchan last answered had subscribers
        self._watched: OrderedDict[tuple[int, str], None] = OrderedDict()
        #: nchan's answers count subscribers (until one does, every channel counts as watched)
        self._counted = False
        #: tournaments whose newest state nchan has not got (it could not be reached)
        self._dirty: dict[int, list[Notification]] = {}
        self._down = False
        #: tournament → when its state was last published from here
        self._published_at: dict[int, float] = {}
        #: poll-found changes seen while not the leader: tournament → when
        self._unowned: dict[int, float] = {}
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._unsubscribe: Callable[[], None] | None = None

    @property
    def counts_subscribers(self) -> bool:
        """nchan's answers count subscribers (channels nobody watches then get markers)."""
        return self._counted

    # -- life ------------------------------------------------------------------------

    def start(self) -> Publisher:
        if self.leadership is not None:
            self.leadership.on_taken = self._taken_over
            self.leadership.start()
        self._unsubscribe = self.bus.subscribe(self._from_bus)
        self._thread = threading.Thread(target=self._retry, name="crosstable-push", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(5)
        if self.leadership is not None:
            self.leadership.stop()

    # -- where pages subscribe -------------------------------------------------------

    def subscribe_url(self, tournament_id: int, locale: str, last_id: str | None = None) -> str:
        """The nchan location of a tournament's changes (``last_id``: nchan's id of the
        last message the subscriber has, when it reconnects)."""
        url = f"{self.public}/live/{channel(tournament_id, locale)}"
        if last_id and ":" in last_id:  # (nchan's ids are "time:tag"; a revision is not one)
            url += f"?last_event_id={quote(last_id, safe='')}"
        return url

    def table_url(self, tournament_id: int, locale: str) -> str:
        return f"{self.public}/table/{table_channel(tournament_id, locale)}"

    # -- who publishes -----------------------------------------------------------------

    def _from_bus(self, notification: Notification) -> None:
        if notification.origin == self.bus.origin:
            self.publish(notification.tournament_id, [notification])
            return
        if notification.origin:
            return  # another process recorded it and published it before announcing it
        # found by a listener's poll: nobody announced it (its process died after the commit)
        if self.leadership is None or self.leadership.leader:
            self.publish(notification.tournament_id, [notification])
            return
        now = time.monotonic()
        self._unowned[notification.tournament_id] = now
        for tid, when in list(self._unowned.items()):
            if now - when > TAKEOVER_WINDOW:
                self._unowned.pop(tid, None)

    def _taken_over(self) -> None:
        """This process became the leader: publish what its polls found meanwhile."""
        found, self._unowned = self._unowned, {}
        for tid in found:
            self.publish(tid, [])

    # -- publishing --------------------------------------------------------------------

    def publish(self, tournament_id: int, changes: list[Notification]) -> None:
        """Publish the newest state of a tournament (after a committed change)."""
        with self._locks_lock:
            if self._down:  # (the retry thread sends it once nchan answers)
                self._dirty.setdefault(tournament_id, []).extend(changes)
                return
        try:
            with self._lock_of(tournament_id):
                self._publish_newest(tournament_id, changes)
        except PushRefusedError as error:
            log.error(
                "the push server refused a message of tournament %s (%s)", tournament_id, error
            )
        except PushError as error:
            log.warning("the push server did not take a change (%s); retrying", error)
            self._went_down({tournament_id: changes})
        except CrosstableError:  # the tournament is gone
            log.debug("tournament %s is gone: nothing to publish", tournament_id)

    def _went_down(self, dirty: dict[int, list[Notification]]) -> None:
        with self._locks_lock:
            self._down = True
            for tid, changes in dirty.items():
                self._dirty.setdefault(tid, [])[:0] = changes
        self._wake.set()

    def _publish_newest(self, tournament_id: int, changes: list[Notification]) -> None:
        for _attempt in range(5):
            revision = -1
            watched = tuple(loc for loc in self.locales if self._is_watched(tournament_id, loc))
            if len(watched) < len(self.locales):  # a marker where nobody watched lately
                # (of the change heard: a newer one is published by whoever committed it;
                # the newest when none is given: published again after an outage)
                revision = (
                    max(n.seq for n in changes) if changes else self.revision_of(tournament_id)
                )
                for locale in self.locales:
                    if locale not in watched and self._mark(
                        tournament_id, locale, changes, revision
                    ):
                        watched += (locale,)  # (someone subscribed meanwhile)
            if not watched:
                return  # (markers: a page takes the newest of those it gets, in any order)
            rendered = self.render_in(tournament_id, watched)
            data = None if self.data_of is None else self.data_of(tournament_id)
            if data is not None and data.revision != rendered[0][0]:
                data = None  # (changed between the two reads: the whole table this time)
            cells = self._cells(tournament_id, watched, data)
            for locale, fragment in zip(watched, rendered, strict=True):
                revision = max(
                    revision,
                    self._publish_locale(tournament_id, locale, changes, fragment, data, cells),
                )
            # (another process may have published an older state after our newer one: the
            # table channel keeps the last)
            if self.revision_of(tournament_id) <= revision:
                return
            changes = []

    def _is_watched(self, tid: int, locale: str) -> bool:
        """Someone watched the channel when nchan last answered (or nchan's answers do
        not count subscribers: then every channel is)"""
        with self._tables_lock:
            return not self._counted or (tid, locale) in self._watched

    def _watching(self, tid: int, locale: str, subscribers: int | None) -> bool:
        """Remember what nchan answered of a live channel's subscribers (None: it did not
        say — counted as watched); True when someone watches."""
        key = (tid, locale)
        with self._tables_lock:
            if subscribers == 0:
                self._watched.pop(key, None)
                return False
            self._watched[key] = None
            self._watched.move_to_end(key)
            while len(self._watched) > KEPT_WATCHED:
                self._watched.popitem(last=False)
        return True

    def _mark(self, tid: int, locale: str, changes: list[Notification], revision: int) -> bool:
        """Publish a marker of ``revision`` (no table); True when the channel turns out
        to have subscribers (then the table follows)."""
        body: PushBody = {
            "revision": revision,
            "fetch": True,
            "change": changes_json(changes, revision),
            "full": self.table_url(tid, locale),
        }
        subscribers = self._post(channel(tid, locale), body)
        self.markers += 1
        self._published_at[tid] = time.monotonic()
        return self._watching(tid, locale, subscribers)

    def _cells(self, tid: int, locales: tuple[str, ...], data: TableData | None) -> PushBody | None:
        """The cells that changed since the table at the revision before ``data`` (the
        one published from here, else the one the table channel keeps), once for every
        language; None: the whole table."""
        if data is None:
            return None
        with self._tables_lock:
            before = self._tables.get(tid)
        if before is None or before.revision != data.revision - 1:
            # (another process published the revision before: its data, as nchan keeps it)
            before = self._kept(tid, locales[0]) or before
        if before is None or before.revision != data.revision - 1:
            return None
        return changed_cells(before, data)

    def _publish_locale(
        self,
        tid: int,
        locale: str,
        changes: list[Notification],
        fragment: tuple[int, str],
        data: TableData | None,
        cells: PushBody | None,
    ) -> int:
        revision, html = fragment
        body: PushBody = {"revision": revision, "change": changes_json(changes, revision)}
        if cells is not None:
            body |= {"base": cells["base"], "cells": cells["cells"]}
            if "order" in cells:
                body["order"] = cells["order"]
        else:
            body["table"] = html
        body["full"] = self.table_url(tid, locale)
        kept: PushBody = {"revision": revision, "table": html}
        if data is not None:
            kept["data"] = data.to_json()
        self._post(table_channel(tid, locale), kept)
        self._watching(tid, locale, self._post(channel(tid, locale), body))
        if data is not None:
            with self._tables_lock:
                newest = self._tables.get(tid)
                if newest is None or newest.revision <= data.revision:
                    self._tables[tid] = data
                    self._tables.move_to_end(tid)
                while len(self._tables) > KEPT_TABLES:
                    self._tables.popitem(last=False)
        self._published_at[tid] = time.monotonic()
        return revision

    def _kept(self, tid: int, locale: str) -> TableData | None:
        """The table channel's table as data, as nchan keeps it (None: none, or
        nchan's configuration has no ``…/last`` location, deploy/nginx.conf)."""
        try:
            status, answer = self._request("GET", f"{table_channel(tid, locale)}/last", None)
            if status != 200:
                return None
            return TableData.from_json(json.loads(answer).get("data"))
        except (PushError, ValueError, AttributeError):
            return None

    def _post(self, name: str, body: PushBody) -> int | None:
        """Publish ``body`` to channel ``name``; the channel's subscribers, as nchan's
        answer counts them (None when it does not say)."""
        data = json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()
        status, answer = self._request("POST", name, data)
        if status in (502, 503, 504):
            raise PushError(f"{self.url}/{name}: HTTP {status}")
        if status not in (200, 201, 202):
            raise PushRefusedError(f"{self.url}/{name}: HTTP {status}, {len(data)} bytes")
        self.published += 1
        subscribers = subscribers_in(answer)
        if subscribers is not None:
            self._counted = True
        return subscribers

    def _request(self, method: str, name: str, data: bytes | None) -> tuple[int, bytes]:
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        for attempt in (1, 2):  # a kept-alive connection nginx closed: once more, anew
            connection = self._local.connection
            if connection is None:
                connection = http.client.HTTPConnection(
                    self._host, self._port, timeout=self.timeout
                )
                self._local.connection = connection
            try:
                connection.request(method, f"{self._path}/{name}", data, headers)
                response = connection.getresponse()
                answer = response.read()
            except (OSError, http.client.HTTPException) as error:
                connection.close()
                self._local.connection = None
                if attempt == 2:
                    raise PushError(f"{self.url}: {error}") from None
                continue
            return response.status, answer
        raise PushError(self.url)  # (not reached)

    def _lock_of(self, tournament_id: int) -> threading.Lock:
        with self._locks_lock:
            lock = self._locks.get(tournament_id)
            if lock is None:
                lock = self._locks[tournament_id] = threading.Lock()
            return lock

    def _retry(self) -> None:
        """Every ``retry_every`` seconds: while nchan is unreachable, try to publish the
        newest state of the tournaments changed meanwhile; while it answers, check that
        it still has this process's sentinel channel — when it does not, nginx was
        restarted (nchan's memory is empty, a message may have been lost on the way):
        publish again the tournaments published lately."""
        sentinel = self.sentinel
        posted = False  # (a sentinel never posted is missing, not lost, unless nchan was down)
        wait = 0.0  # (the first check at once)
        while not self._stop.is_set():
            self._wake.wait(wait)
            self._wake.clear()
            wait = self.retry_every
            if self._stop.is_set():
                return
            try:
                if not self._down:
                    # (also after an outage: a restarted nginx lost every recent channel)
                    if self._get(sentinel) == 404:
                        recent = self._recent()
                        if recent and posted:
                            log.warning("the push server lost its channels: publishing again")
                            self._went_down({tid: [] for tid in recent})
                        self._post(sentinel, {"origin": self.bus.origin})
                    posted = True
                    continue
                posted = True
                self._send_dirty()
            except PushRefusedError as error:
                log.error("the push server refused this process's sentinel (%s)", error)
            except PushError:
                posted = True
                with self._locks_lock:
                    self._down = True

    def _recent(self) -> list[int]:
        now = time.monotonic()
        recent = []
        for tid, when in list(self._published_at.items()):
            if now - when < RECENT:
                recent.append(tid)
            else:
                self._published_at.pop(tid, None)
        return recent

    def _send_dirty(self) -> None:
        with self._locks_lock:
            dirty, self._dirty = self._dirty, {}
        if not dirty:  # (nothing to send: ask whether it answers before saying so)
            self._get(self.sentinel)
        try:
            for tid in list(dirty):
                try:
                    with self._lock_of(tid):
                        self._publish_newest(tid, dirty[tid])
                except CrosstableError:
                    pass
                except PushRefusedError as error:
                    log.error("the push server refused a message of tournament %s (%s)", tid, error)
                del dirty[tid]
        except PushError:
            self._went_down(dirty)
            raise
        with self._locks_lock:
            if not self._dirty:
                self._down = False
                log.warning("the push server answers again")

    def _get(self, name: str) -> int:
        """The status of a GET of a channel's information (404: no such channel)."""
        return self._request("GET", name, None)[0]

    def flush(self, timeout: float = 10.0) -> bool:
        """Wait until nothing is left to send (tests); True if so."""
        deadline = time.monotonic() + timeout
        while self._down or self._dirty:
            if time.monotonic() > deadline:
                return False
            self._wake.set()
            time.sleep(0.05)
        return True
