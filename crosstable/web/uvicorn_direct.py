"""What the live hub relies on inside uvicorn and asyncio, in one place.

Two tricks make writing one event to a thousand spectators cheap
(:mod:`crosstable.web.hub`); both depend on things neither uvicorn nor asyncio
promise, so they live here, and ``tests/test_web_uvicorn_direct.py`` pins each
of them — a uvicorn or Python upgrade that changes them fails a test instead of
the live page:

* **Writing to uvicorn's connection itself** (:func:`direct_connection`,
  :func:`write_chunk`). Under uvicorn with httptools, the ASGI ``send`` of a
  streamed response is a bound method of the connection's
  ``RequestResponseCycle``, which writes each body message as one HTTP/1.1
  chunk on ``cycle.transport`` unless ``cycle.disconnected`` or
  ``cycle.flow.write_paused`` (then ``send`` waits). Relied on: that module
  name, the attributes ``response_started``, ``chunked_encoding``,
  ``response_complete``, ``disconnected``, ``flow.write_paused`` and
  ``transport.write``, and the chunk framing (:func:`http_chunk`). Any other
  server, or anything unexpected, keeps the plain ``send``.
* **Driving a coroutine by hand** (:func:`start_eagerly`). A ``send`` that does
  not have to wait is run to its end as a plain call, without a task; one that
  waits is handed to a task. Relied on: ``coroutine.send(None)`` yields the
  asyncio future it waits for (or None for a bare yield), and a task takes such
  a future over by clearing its ``_asyncio_future_blocking`` flag before
  awaiting it (asyncio's own protocol between futures and tasks).
"""

from __future__ import annotations

import asyncio
import types
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

#: an ASGI message or connection scope: a dict whose keys depend on its ``type`` (the ASGI
#: specification's own shape; a server hands it over as such)
AsgiMessage = dict[str, Any]
#: an ASGI ``send``
Send = Callable[[AsgiMessage], Awaitable[None]]

#: the module of uvicorn's httptools connection (whose ``send`` the hub may bypass)
HTTPTOOLS_MODULE = "uvicorn.protocols.http.httptools_impl"


def http_chunk(data: bytes) -> bytes:
    """``data`` as one chunk of a chunked HTTP/1.1 body (what the server would write).

    >>> http_chunk(b"event: x\\r\\n\\r\\n")
    b'c\\r\\nevent: x\\r\\n\\r\\n\\r\\n'
    """
    return b"%x\r\n%b\r\n" % (len(data), data)


def direct_connection(send: Send, scope: AsgiMessage) -> Any | None:
    """The uvicorn connection behind ``send`` when the hub may write chunks to it itself.

    uvicorn (with httptools) writes each body message of a streamed response as one
    chunk on the connection's transport, unless the connection is gone or its
    buffer is over the high-water mark (then ``send`` waits). Doing exactly that
    here, with chunks encoded once per broadcast, saves the per-viewer message,
    coroutine and copy: a third of the time it takes to write to a thousand
    viewers. Any other server, or anything unexpected, keeps the plain ``send``.
    Call it after the response's start was sent.
    """
    cycle: Any = getattr(send, "__self__", None)
    if type(cycle).__module__ != HTTPTOOLS_MODULE:
        return None
    try:
        usable = (
            scope.get("method") == "GET"
            and cycle.response_started is True
            and cycle.chunked_encoding is True
            and cycle.response_complete is False
            and isinstance(cycle.disconnected, bool)
            and isinstance(cycle.flow.write_paused, bool)
            and callable(cycle.transport.write)
        )
    except AttributeError:
        return None
    return cycle if usable else None


def start_eagerly(coroutine: Awaitable[None]) -> Coroutine[Any, Any, None] | None:
    """Run ``coroutine`` until it finishes (None) or first waits (a coroutine for the rest).

    Writing to a connection whose buffer has room never waits, so the usual case
    costs a plain call instead of a task and two trips through the event loop.

    >>> async def quick() -> None:
    ...     pass
    >>> start_eagerly(quick()) is None
    True
    >>> async def slow() -> None:
    ...     await asyncio.sleep(0)
    >>> asyncio.run(_await_if_needed(start_eagerly(slow())))
    'finished later'
    """
    if not isinstance(coroutine, types.CoroutineType):  # another awaitable: a task awaits it
        return _await(coroutine)
    try:
        waiting = coroutine.send(None)
    except StopIteration:
        return None
    return _resume(coroutine, waiting)


async def _await(awaitable: Awaitable[None]) -> None:
    await awaitable


async def _resume(coroutine: Coroutine[Any, Any, None], waiting: Any) -> None:
    """Go on with a coroutine that was started by hand and is waiting for ``waiting``
    (an asyncio future, or None for a bare yield) — what a task would have done."""
    while True:
        try:
            if waiting is None:
                await asyncio.sleep(0)
            else:
                # a task takes the future over from the coroutine that yielded it
                waiting._asyncio_future_blocking = False
                await waiting
        except BaseException as error:  # the future failed, or we were cancelled: tell it
            try:
                waiting = coroutine.throw(error)
            except StopIteration:
                return
            continue
        try:
            waiting = coroutine.send(None)
        except StopIteration:
            return


async def _await_if_needed(rest: Coroutine[Any, Any, None] | None) -> str:
    if rest is None:
        return "finished at once"
    await rest
    return "finished later"


def write_chunk(connection: Any, chunk: bytes) -> bool:
    """Write ``chunk`` (made by :func:`http_chunk`) to a connection that
    :func:`direct_connection` gave, as its ``send`` would. False when its buffer is
    over the high-water mark (the caller's ``send`` waits for it instead); a
    connection that is gone takes nothing (the stream is ending)."""
    if connection.flow.write_paused:
        return False
    if not connection.disconnected:
        connection.transport.write(chunk)
    return True
