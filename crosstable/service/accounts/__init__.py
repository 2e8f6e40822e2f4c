"""People and permissions: one :class:`Accounts`, one module per job:

* :mod:`.users`: users and passwords;
* :mod:`.tokens`: API tokens;
* :mod:`.approval`: a tournament's owner, the approval of its regulations, the access
  settings of self-registration;
* :mod:`.staff`: organisers and helpers, a user's role;
* :mod:`.entries`: which entry is whose account;
* :mod:`.eligibility`: what may keep an entry out;
* the administrators' acts on accounts (flags, master status, adjustments):
  :class:`crosstable.service.fair_play.PortalRules`;

and what they share in :mod:`.base`: each part is an object of its own, given the
:class:`~.base.AccountsFrame` (the store, the clock, the tournament's lock and history)
and the other parts it calls; :class:`Accounts` makes them and shows their methods as
its own (:func:`~crosstable.service.forward.forward`).

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

from crosstable.service.accounts.approval import Approval
from crosstable.service.accounts.base import (
    ELIGIBILITY_KEYS,
    MIN_PASSWORD,
    OLD_ELIGIBILITY_KEYS,
    USER_FLAGS,
    AccessInfo,
    AccountsFrame,
    UserInfo,
    token_hash,
)
from crosstable.service.accounts.eligibility import Eligibility
from crosstable.service.accounts.entries import EntryLinks
from crosstable.service.accounts.levels import LevelRegister
from crosstable.service.accounts.staff import Staff
from crosstable.service.accounts.tokens import Tokens
from crosstable.service.accounts.users import Users
from crosstable.service.clock import Clock
from crosstable.service.fair_play import PortalRules
from crosstable.service.forward import forward
from crosstable.store import Store


class Accounts:
    """Accounts and permissions over the same store as the tournament service: each
    part does one job (the modules above) and this shows their methods as its own."""

    # users and passwords
    create_user = forward("_users", Users.create_user)
    authenticate = forward("_users", Users.authenticate)
    user = forward("_users", Users.user)
    find_user = forward("_users", Users.find_user)
    users = forward("_users", Users.users)
    set_user = forward("_users", Users.set_user)

    # API tokens, a user's and the game servers'
    create_token = forward("_tokens", Tokens.create_token)
    user_for_token = forward("_tokens", Tokens.user_for_token)
    token_for = forward("_tokens", Tokens.token_for)
    tokens = forward("_tokens", Tokens.tokens)
    revoke_token = forward("_tokens", Tokens.revoke_token)
    create_game_server = forward("_tokens", Tokens.create_game_server)
    grant = forward("_tokens", Tokens.grant)
    set_game_server = forward("_tokens", Tokens.set_game_server)
    granted = forward("_tokens", Tokens.granted)
    game_servers = forward("_tokens", Tokens.game_servers)
    revoke_game_server = forward("_tokens", Tokens.revoke_game_server)

    # a tournament's owner, approval and access settings
    claim = forward("_approval", Approval.claim)
    access = forward("_approval", Approval.access)
    set_access = forward("_approval", Approval.set_access)
    pending = forward("_approval", Approval.pending)

    # organisers and helpers, a user's role
    staff = forward("_staff", Staff.staff)
    playing = forward("_staff", Staff.playing)
    set_staff = forward("_staff", Staff.set_staff)
    role = forward("_staff", Staff.role)
    plays_in_game = forward("_staff", Staff.plays_in_game)

    # which entry is whose account
    link_entry = forward("_entry_links", EntryLinks.link_entry)
    unlink_entry = forward("_entry_links", EntryLinks.unlink_entry)
    entry_of = forward("_entry_links", EntryLinks.entry_of)
    entry_accounts = forward("_entry_links", EntryLinks.entry_accounts)

    # what may keep an entry out
    registration_problems = forward("_eligibility", Eligibility.registration_problems)
    entry_problems = forward("_eligibility", Eligibility.entry_problems)
    check_entry = forward("_eligibility", Eligibility.check_entry)

    # the administrators' acts on accounts, each recorded
    running_entries = forward("_rules", PortalRules.running_entries)
    flag = forward("_rules", PortalRules.flag)
    unflag = forward("_rules", PortalRules.unflag)
    record = forward("_rules", PortalRules.record)
    adjust = forward("_rules", PortalRules.adjust)
    master = forward("_rules", PortalRules.master)
    set_master = forward("_rules", PortalRules.set_master)
    account_history = forward("_rules", PortalRules.account_history)
    level = forward("_rules", PortalRules.level)
    set_level = forward("_rules", PortalRules.set_level)

    # the register of classes and levels
    levels = forward("_levels", LevelRegister.levels)
    set_levels = forward("_levels", LevelRegister.set_levels)

    def __init__(self, store: Store, *, clock: Clock | None = None) -> None:
        frame = AccountsFrame(store, clock=clock)
        self.store = frame.store
        self.clock: Clock = frame.clock
        self._rules = portal_rules(frame)
        self._users = Users(frame, self._rules)
        self._tokens = Tokens(frame)
        self._approval = Approval(frame)
        self._staff = Staff(frame)
        self._entry_links = EntryLinks(frame)
        self._eligibility = Eligibility(frame, self._approval, self._entry_links, self._users)
        self._levels = LevelRegister(frame)


def portal_rules(frame: AccountsFrame) -> PortalRules:
    """The administrators' acts on accounts, over the frame's store and clock."""
    return PortalRules(frame.store, frame.clock)


__all__ = [
    "ELIGIBILITY_KEYS",
    "MIN_PASSWORD",
    "OLD_ELIGIBILITY_KEYS",
    "USER_FLAGS",
    "AccessInfo",
    "Accounts",
    "AccountsFrame",
    "UserInfo",
    "token_hash",
]
