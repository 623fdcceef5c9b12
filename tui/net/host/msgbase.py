"""The messages' base (a msgspec Struct in one tagged union, tag field ``"t"``) and the
messages of a player's account (D-79), kept here so that ``protocol`` stays within bounds."""

from __future__ import annotations

import msgspec

__all__ = ["Account", "AccountInfo", "Elsewhere"]


class _Msg(msgspec.Struct, tag_field="t", kw_only=True, forbid_unknown_fields=True):
    pass


class Account(_Msg, tag="account"):
    """The asker's account (``what`` "show"), a new name for it ("rename", ``value`` the name)
    or another SSH key (``"add_key"``, ``value`` a public key line as in authorized_keys)."""

    what: str = "show"
    value: str = ""


class AccountInfo(_Msg, tag="account_info"):
    """The asker's account: the name, the keys' fingerprints (oldest first), what was done."""

    name: str
    keys: list[str] = []
    note: str = ""


class Elsewhere(_Msg, tag="elsewhere"):
    """The table asked for (``Join``, ``Watch``) is served by another host of this server
    (issue 30): connect to ``address`` with ``token`` and ask there."""

    table: str
    address: str
    token: str
