"""People and permissions (R-OR-1, R-OR-2): one :class:`Accounts`, one module per job:

* :mod:`.users`: users and passwords;
* :mod:`.tokens`: API tokens;
* :mod:`.approval`: a tournament's owner, the approval of its regulations, the access
  settings of self-registration;
* :mod:`.staff`: organisers and helpers, a user's role;
* :mod:`.entries`: which entry is whose account;
* :mod:`.eligibility`: what may keep an entry out;
* the administrators' acts on accounts (flags, master status, adjustments):
  :class:`crosstable.service.fair_play.PortalRules`;

and what they share in :mod:`.base`.

The tournament use cases (:class:`crosstable.service.Service`) know nothing of
accounts; the web app asks :class:`Accounts` *who may* before calling them.
Passwords are argon2 hashes (argon2-cffi); API tokens are random and only their
SHA-256 is stored.

>>> import datetime as dt
>>> from crosstable.store import open_store
>>> from crosstable.service import FixedClock
>>> accounts = Accounts(open_store("sqlite:///:memory:"),
...                     clock=FixedClock(dt.datetime(2026, 5, 1, tzinfo=dt.UTC)))
>>> ann = accounts.create_user("ann", "correct horse", is_admin=True)
>>> accounts.authenticate("ann", "correct horse").username
'ann'
>>> accounts.authenticate("ann", "wrong") is None
True
"""

from __future__ import annotations

from crosstable.service.accounts.approval import Approval, _describe_access
from crosstable.service.accounts.base import (
    ELIGIBILITY_KEYS,
    MIN_PASSWORD,
    OLD_ELIGIBILITY_KEYS,
    USER_FLAGS,
    AccessInfo,
    AccountsBase,
    UserInfo,
    _hasher,
    _parse_time,
    _user,
    token_hash,
)
from crosstable.service.accounts.eligibility import Eligibility
from crosstable.service.accounts.entries import EntryLinks
from crosstable.service.accounts.staff import Staff
from crosstable.service.accounts.tokens import Tokens
from crosstable.service.accounts.users import Users


class Accounts(Users, Tokens, Approval, Staff, EntryLinks, Eligibility):
    """Accounts and permissions over the same store as the tournament service: each
    part is one job (the modules above); they share :class:`AccountsBase`."""


__all__ = [
    "ELIGIBILITY_KEYS",
    "MIN_PASSWORD",
    "OLD_ELIGIBILITY_KEYS",
    "USER_FLAGS",
    "AccessInfo",
    "Accounts",
    "AccountsBase",
    "UserInfo",
    "_describe_access",
    "_hasher",
    "_parse_time",
    "_user",
    "token_hash",
]
