"""Persons and their entries in a championship's categories; puzzlers across championships.

``people``: puzzlers, persons and whether a name may be published; ``entries``:
entries, their members, the organiser's questions and the entrant's private link;
``imports``: a CSV file kept between its preview and its import.
"""

from registration.models.entries import (
    MANAGE_LINK_SALT,
    Entry,
    EntryMember,
    ManageTokenHashField,
    Question,
    entry_for_manage_token,
    new_manage_nonce,
)
from registration.models.imports import StoredImport
from registration.models.people import (
    AddressState,
    Person,
    Puzzler,
    email_key,
    imported_puzzlers,
    name_may_be_published,
    new_puzzler_ref,
    new_ref,
    puzzlers_drop_unused,
    puzzlers_kept,
)

__all__ = [
    "MANAGE_LINK_SALT",
    "AddressState",
    "Entry",
    "EntryMember",
    "ManageTokenHashField",
    "Person",
    "Puzzler",
    "Question",
    "StoredImport",
    "email_key",
    "entry_for_manage_token",
    "imported_puzzlers",
    "name_may_be_published",
    "new_manage_nonce",
    "new_puzzler_ref",
    "new_ref",
    "puzzlers_drop_unused",
    "puzzlers_kept",
]
