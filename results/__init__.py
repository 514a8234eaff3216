"""Results derived from the captures, the ranking, and everything that shows them.

A result per entry and round, the ranking and a round's version
(``services.standings_recompute``), the sign-off (``official.py``), the public
results pages, the live poll that serves phones and the projector, the venue
screen, diplomas and the page their QR code opens, and puzzlers' pages across
championships.
"""
