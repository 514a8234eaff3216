"""The organiser's screens, one module per screen.

``dashboard`` the control room of a championship; ``setup`` New and Edit
championship; ``round`` one round's page and its buttons; ``tables`` the
venue's tables; ``ranking`` a prior ranking for seeding; ``cards`` the table
cards; ``seating`` the public seating; ``organisers`` organiser accounts by
request, for the site (``/organisers/…``). What they share is in ``common``.
Every organiser page is behind ``organiser_required``; every write goes
through a service (``control.rounds``, ``championship.services``,
``registration.services``).
"""
