"""What registration tells the apps built on it.

``members_changed``
    Sent inside the transaction that changed them, once the details of an
    entry's members that decide its officiality (residence, citizenship) or its
    members themselves have changed, with ``entries`` (the entries concerned)
    and ``by`` (the user who changed them, or ``None``). The results app
    re-ranks every round those entries have a result in, so that official
    places, prizes and qualification follow the members' details as they are now.
``entry_withdrawn``
    Sent inside the transaction that withdrew an entry, with ``entries`` (the
    entry, in a list). The results app re-ranks every round it has a result in:
    a withdrawn entry is never ranked.
"""

from django.dispatch import Signal

members_changed = Signal()
entry_withdrawn = Signal()
