"""What registration tells the apps built on it.

``members_changed``
    Sent inside the transaction that changed them, once the details of an
    entry's members that decide its officiality (residence, citizenship) or its
    members themselves have changed, or what result lists show of the entry or
    its members (names, consent to publication), with ``entries`` (the entries
    concerned) and ``by`` (the user who changed them, or ``None``). The results
    app re-ranks every round those entries have a result in, so that official
    places, prizes and qualification follow the members' details as they are
    now, and moves on the version of every round they are seated in.
``entry_withdrawn``
    Sent inside the transaction that withdrew an entry, or took its withdrawal
    back (the admin), with ``entries`` (the entry, in a list). The results app
    re-ranks every round it has a result in: a withdrawn entry is never ranked.
``entry_walkover``
    Sent inside the transaction that marked an entry as a walk-over, or took
    the walk-over back, with ``entries`` (the entry, in a list), ``reason`` and
    ``by`` (the user, or ``None``). A walk-over is a disqualification (sm): the
    results app lists the entry without a place in every round it has a result
    in, re-ranks those rounds, and refuses the change where the entry has a
    recorded result and ``by`` is not a head judge.
"""

from django.dispatch import Signal

members_changed = Signal()
entry_withdrawn = Signal()
entry_walkover = Signal()
