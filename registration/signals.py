"""What registration tells the apps built on it.

``members_changed``
    Sent inside the transaction that changed them, once the details of an
    entry's members that decide its officiality (residence, citizenship) or its
    members themselves have changed, with ``entries`` (the entries concerned)
    and ``by`` (the user who changed them, or ``None``). The results app
    re-ranks every round those entries have a result in, so that official
    places, prizes and qualification follow the members' details as they are now.
``entry_withdrawn``
    Sent inside the transaction that withdrew an entry, or took its withdrawal
    back (the admin), with ``entries`` (the entry, in a list). The results app
    re-ranks every round it has a result in: a withdrawn entry is never ranked.
``entry_page_results``
    Sent by the entrant's private page with ``entry``; a receiver answers with
    the entry's results the entrant may see (confirmed, or decided: did not
    start, disqualified), in round order. The results app answers.
"""

from django.dispatch import Signal

members_changed = Signal()
entry_withdrawn = Signal()
entry_page_results = Signal()
