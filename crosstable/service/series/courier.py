"""One SMTP connection for a pass over the outbox.

A pass used to open a connection for every mail: the TCP connection, the server's
greeting, EHLO, STARTTLS and the login, then QUIT, for each of up to 500 mails. A
:class:`Courier` opens the connection at the first mail and keeps it for the next ones;
the pass closes it at its end. After any error the connection is closed (the next mail
opens a new one), so that one mail's trouble cannot leave the next in a half-finished
exchange. When a kept connection turns out to be gone — the server closed it (a limit of
mails a connection, an idle timeout) or answered 421 — the mail is given once more on a
new connection: that is the server's state, not an answer about the mail. Any other
refusal (a busy mailbox, 450) stays the mail's, for its retries later.
"""

from __future__ import annotations

import contextlib
import smtplib
from email.message import EmailMessage
from typing import Protocol

#: the server is closing the connection (RFC 5321, 4.2.3)
CLOSING = 421


class SmtpSettings(Protocol):
    """Where and how to reach the SMTP server."""

    @property
    def host(self) -> str: ...
    @property
    def port(self) -> int: ...
    @property
    def timeout(self) -> float: ...
    @property
    def starttls(self) -> bool: ...
    @property
    def username(self) -> str: ...
    @property
    def password(self) -> str: ...


def connection_lost(error: BaseException) -> bool:
    """The server or the network ended the connection: nothing was said about the mail.

    >>> connection_lost(smtplib.SMTPServerDisconnected("gone"))
    True
    >>> connection_lost(smtplib.SMTPRecipientsRefused({"a@example.org": (450, b"busy")}))
    False
    >>> connection_lost(smtplib.SMTPSenderRefused(421, b"closing", "s@example.org"))
    True
    """
    if isinstance(error, smtplib.SMTPServerDisconnected):
        return True
    if isinstance(error, smtplib.SMTPRecipientsRefused):
        answers = error.recipients.values()
        return bool(answers) and all(code == CLOSING for code, _text in answers)
    if isinstance(error, smtplib.SMTPResponseException):
        return error.smtp_code == CLOSING
    if isinstance(error, smtplib.SMTPException):
        return False
    return isinstance(error, OSError)  # (the socket's own errors)


def opened(settings: SmtpSettings) -> smtplib.SMTP:
    """A connection to the server, greeted and logged in as the settings say."""
    smtp = smtplib.SMTP(settings.host, settings.port, timeout=settings.timeout)
    try:
        if settings.starttls:
            smtp.starttls()
        if settings.username:
            smtp.login(settings.username, settings.password)
    except BaseException:
        smtp.close()
        raise
    return smtp


class Courier:
    """Delivers mails one by one over one kept SMTP connection; :meth:`close` it."""

    def __init__(self, settings: SmtpSettings) -> None:
        self.settings = settings
        self._smtp: smtplib.SMTP | None = None

    def deliver(self, message: EmailMessage, recipient: str) -> None:
        """One mail to ``recipient`` alone (the envelope names it: recipients are never
        read from the headers); raises :class:`smtplib.SMTPException` or OSError."""
        kept = self._smtp is not None
        try:
            self._send(message, recipient)
        except (smtplib.SMTPException, OSError) as error:
            if not (kept and connection_lost(error)):
                raise
            self._send(message, recipient)  # (the kept connection was gone: on a new one)

    def _send(self, message: EmailMessage, recipient: str) -> None:
        """Send on the kept connection (opened if there is none); closed on any error."""
        if self._smtp is None:
            self._smtp = opened(self.settings)
        try:
            self._smtp.send_message(message, to_addrs=[recipient])
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        smtp, self._smtp = self._smtp, None
        if smtp is not None:
            with contextlib.suppress(smtplib.SMTPException, OSError):
                smtp.quit()
            smtp.close()
