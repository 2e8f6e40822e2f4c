"""`crosstable tick [--db URL] [--now ISO] [--send]` — one pass of every time-driven step.

For cron or a systemd timer: every step that is due (a series' deadlines, extensions,
postponements, stages' starts and ends; a tournament's start at its preset time, a
knockout's next games and daily rounds: crosstable.service.clockwork) is done once,
in order; a second process
ticking at the same moment does nothing. ``--now`` is for demos and tests only.
``--send`` then mails the outbox's due notifications (crosstable.service.series.sender:
once each, retried with a backoff) over the SMTP server of ``--smtp-host`` /
``CROSSTABLE_SMTP_HOST`` and the other ``CROSSTABLE_SMTP_*`` settings.
"""

from __future__ import annotations

import dataclasses
from typing import Annotated, Any

import typer

from crosstable.cli.series import DbOption, NowOption, series_service


def register(app: typer.Typer) -> None:
    """Add ``crosstable tick`` to ``app``."""
    app.command("tick")(tick_command)


def tick_command(
    db: DbOption = None,
    now: NowOption = None,
    send: Annotated[
        bool, typer.Option("--send", help="Then mail the due notifications over SMTP.")
    ] = False,
    smtp_host: Annotated[
        str | None,
        typer.Option("--smtp-host", envvar="CROSSTABLE_SMTP_HOST", help="SMTP server's host."),
    ] = None,
    smtp_port: Annotated[
        int | None,
        typer.Option("--smtp-port", envvar="CROSSTABLE_SMTP_PORT", help="SMTP port (25)."),
    ] = None,
    smtp_from: Annotated[
        str | None,
        typer.Option("--smtp-from", envvar="CROSSTABLE_SMTP_FROM", help="The mails' From."),
    ] = None,
    smtp_starttls: Annotated[
        bool, typer.Option("--smtp-starttls", help="Use STARTTLS (or CROSSTABLE_SMTP_STARTTLS=1).")
    ] = False,
) -> None:
    """Do every step that is due now (series, tournaments' starts, knockout rounds), once."""
    from crosstable.service.clockwork import tick_all  # deferred: service layer
    from crosstable.service.series.sender import MailSettings, send_due  # deferred: service layer

    settings = None
    if send:
        base = MailSettings.from_env() or MailSettings(host=smtp_host or "")
        settings = dataclasses.replace(
            base,
            host=smtp_host or base.host,
            port=smtp_port or base.port,
            sender=smtp_from or base.sender,
            starttls=smtp_starttls or base.starttls,
        )
        if not settings.host:
            typer.echo(
                "error: --send needs an SMTP server: --smtp-host or CROSSTABLE_SMTP_HOST", err=True
            )
            raise typer.Exit(2)
    with series_service(db, now) as service:
        done = tick_all(service)
        for line in done:
            typer.echo(line)
        if not done:
            typer.echo("nothing is due")
        if settings is not None:
            if not settings.secret:  # the web's own (crosstable.web.app): its links verify
                secret = service.preference("web.secret") or ""
                settings = dataclasses.replace(settings, secret=secret)
            report = send_due(service.store, service.clock, settings)
            for error in report.errors:
                typer.echo(f"not delivered: {error}", err=True)
            typer.echo(
                f"notifications: {report.sent} mailed, {report.skipped} without mail, "
                f"{report.failed} to retry, {report.gave_up} given up"
            )
            _send_telegram(service)  # users who linked Telegram (CROSSTABLE_TELEGRAM_BOT_TOKEN)


def _send_telegram(service: Any) -> None:
    """The outbox's Telegram channel, when a bot token is configured."""
    # deferred: the service layer (start-up time)
    from crosstable.service.series.telegram_sender import TelegramSettings, send_due_telegram

    settings = TelegramSettings.from_env()
    if settings is None:
        return
    report = send_due_telegram(service.store, service.clock, settings)
    for error in report.errors:
        typer.echo(f"not sent to Telegram: {error}", err=True)
    typer.echo(f"Telegram: {report.sent} sent, {report.failed} to retry, {report.gave_up} given up")
