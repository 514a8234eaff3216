"""Persons and entries: the registration form, eligibility, the waiting list, CSV, check-in.

Who may enter which category and whether an entry is official, capacity and the
waiting list with its offers and deadlines, the entrant's private link, the
organiser's entry list with CSV import and export, the organiser's own questions,
payment status, check-in codes, and puzzlers across championships. It ranks and
judges nothing.
"""
