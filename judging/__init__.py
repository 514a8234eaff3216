"""The judges' captures, append-only, and the judge's page on a phone.

A capture (a start, a finish, a count of missing pieces) is recorded by
``services.capture_record``, which derives the entry's result in the same
transaction; nothing rewrites or deletes a capture. The table's page at
``/t/<token>/`` (its script is ``static/judging/judge/``) works offline and never
loses a tap; the head judge's round dashboard decides disputed counts.
"""
