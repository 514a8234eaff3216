"""The organiser's control room: setting a championship up, running its rounds, its tables.

The round lifecycle (``rounds.py``: seat, publish, start, close, advance), what the
venue screen shows (``screen.py``), the round report (``report.py``), editing a
championship (``editing.py``), the table cards, and the demo championship. Its
pages are ``views/``, routed from ``config/manage_urls.py``; its public pages are
a round's seating and, for the site rather than a championship, organiser accounts
by request (``organiser_requests.py``, ``organiser_links.py``, under ``/organisers/``).
"""
