"""`crosstable serve` — the web application on a database, migrations applied.

crosstable serve [--db URL] [--host 127.0.0.1] [--port 8000] [--trusted-proxy ADDR ...]
                 [--no-tick] [--tick-every SECONDS] [--push-url URL]

The series' clock ticks in the process, every ``--tick-every`` seconds
(60), and mails the outbox when ``CROSSTABLE_SMTP_HOST`` is set
(:mod:`crosstable.service.series.ticker`); ``--no-tick`` leaves it to cron's
``crosstable tick``.

Several ``serve`` processes on one PostgreSQL database stay in step: each
LISTENs for the others' changes and pushes them to its own viewers.

With ``--push-url`` (or ``CROSSTABLE_PUSH_URL``, for every process of a deployment)
the live updates go out through nginx with nchan instead
(:mod:`crosstable.web.push`, docs/deploy.md): the process that records a change
publishes it once to the push server's publisher location at that URL, and pages
subscribe under ``/push`` (``CROSSTABLE_PUSH_PUBLIC`` names another prefix).

Forwarded headers (``X-Forwarded-For``, ``X-Forwarded-Proto``) are believed only
from the proxies named with ``--trusted-proxy`` (an address or a network such as
``10.0.0.0/8``; repeat it) or in ``CROSSTABLE_TRUSTED_PROXIES`` (comma-separated).
By default none is trusted, not even 127.0.0.1: otherwise anyone who reaches the
port on this machine could claim any address and walk past the sign-in limits.

>>> trusted_proxies(["127.0.0.1", "10.0.0.0/8"], env="")
('127.0.0.1', '10.0.0.0/8')
>>> server_options(())
{'proxy_headers': False}
>>> server_options(("127.0.0.1",))
{'proxy_headers': True, 'forwarded_allow_ips': '127.0.0.1'}
"""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Sequence
from typing import Annotated, Any

import typer

from crosstable.cli.backup import safeguarded, scheduled
from crosstable.core.errors import CrosstableError

#: the environment variable that names the trusted proxies (comma-separated)
TRUSTED_PROXIES_ENV = "CROSSTABLE_TRUSTED_PROXIES"


class WebMissingError(CrosstableError):
    """The web extra is not installed."""


class ProxyAddressError(CrosstableError):
    """A trusted proxy is not an address or a network."""


def register(app: typer.Typer) -> None:
    """Add ``crosstable serve`` to ``app``."""
    app.command("serve")(serve)


def serve(
    db: Annotated[
        str | None,
        typer.Option(
            "--db",
            help="Database: a file path, sqlite:///… or postgresql://… "
            "(default: $CROSSTABLE_DB or the per-user file).",
        ),
    ] = None,
    host: Annotated[str, typer.Option("--host", help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="Port to listen on.")] = 8000,
    trusted_proxy: Annotated[
        list[str] | None,
        typer.Option(
            "--trusted-proxy",
            help="A reverse proxy (address or network) whose X-Forwarded-For and "
            f"X-Forwarded-Proto are believed; repeat for several (also ${TRUSTED_PROXIES_ENV}, "
            "comma-separated). Default: none.",
        ),
    ] = None,
    tick: Annotated[
        bool,
        typer.Option(
            "--tick/--no-tick",
            help="Run the series' clock in this process (every --tick-every seconds); "
            "--no-tick when cron or another process runs `crosstable tick`.",
        ),
    ] = True,
    tick_every: Annotated[
        float, typer.Option("--tick-every", min=1, max=3600, help="Seconds between ticks.")
    ] = 60.0,
    push_url: Annotated[
        str | None,
        typer.Option(
            "--push-url",
            help="Publish live updates to nginx/nchan at this publisher URL "
            "(e.g. http://127.0.0.1:8080/push/publish; also $CROSSTABLE_PUSH_URL) "
            "instead of streaming them from this process. See docs/deploy.md.",
        ),
    ] = None,
) -> None:
    """Run the web application: live crosstables, results, print pages, JSON API."""
    from crosstable.web.push import check_push_url  # deferred: the web layer (start-up time)

    run(
        db,
        host=host,
        port=port,
        trusted=trusted_proxies(trusted_proxy or []),
        tick_every=tick_every if tick else None,
        push_url=None if push_url is None else check_push_url(push_url),
    )


def trusted_proxies(given: Sequence[str], env: str | None = None) -> tuple[str, ...]:
    """The proxies named on the command line and in the environment, each checked."""
    named = os.environ.get(TRUSTED_PROXIES_ENV, "") if env is None else env
    found: list[str] = []
    for item in [*given, *named.split(",")]:
        value = item.strip()
        if not value:
            continue
        try:
            ipaddress.ip_network(value, strict=False)
        except ValueError:
            raise ProxyAddressError(
                f"trusted proxy {value!r}: not an IP address or network (e.g. 10.0.0.1, 10.0.0.0/8)"
            ) from None
        if value not in found:
            found.append(value)
    return tuple(found)


def server_options(trusted: Sequence[str]) -> dict[str, Any]:
    """uvicorn's settings for forwarded headers: off unless proxies are named."""
    if not trusted:
        return {"proxy_headers": False}
    return {"proxy_headers": True, "forwarded_allow_ips": ",".join(trusted)}


def run(
    db: str | None,
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    banner: str = "",
    trusted: Sequence[str] | None = None,
    tick_every: float | None = None,
    push_url: str | None = None,
) -> None:
    """Start the server (blocks until interrupted); with ``tick_every`` the series'
    clock ticks in a background thread (crosstable.service.series.ticker)."""
    proxies = trusted_proxies([]) if trusted is None else tuple(trusted)
    try:
        import uvicorn

        from crosstable.web.app import create_app  # deferred: the web layer (start-up time)
    except ImportError as error:
        raise WebMissingError(
            f"the web application needs its extra: pip install 'crosstable[web]' ({error.name})"
        ) from None
    from crosstable.service import Service  # deferred: the service layer (start-up time)
    from crosstable.service.series.telegram_sender import with_telegram  # deferred: service layer
    from crosstable.service.series.ticker import Ticker, mail_sender  # deferred: service layer
    from crosstable.store import open_store, resolve_url  # deferred: SQLAlchemy (start-up time)

    service = safeguarded(Service(open_store(db)))  # backups before risky changes
    app = create_app(service=service, push_url=push_url)
    shown = resolve_url(db)
    typer.echo(banner or f"crosstable on http://{host}:{port}/  (database {shown})")
    ticker = None
    if tick_every is not None:
        send = with_telegram(service, mail_sender(service))  # Telegram too
        ticker = Ticker(service, interval=tick_every, send=send).start()
    backups = scheduled(service)  # a SQLite file's backup every hour when it changed
    try:
        uvicorn.run(
            app,
            host=host,
            port=port,
            log_level="warning",
            timeout_graceful_shutdown=3,
            **server_options(proxies),
        )
    finally:
        if ticker is not None:
            ticker.stop()
        if backups is not None:
            backups.stop()
