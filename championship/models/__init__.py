"""The championship, its categories, rounds, heats, tables, seats and staff roles.

One module per part (``championship``, ``rounds``, ``staff``, ``mail``,
``submissions``); every model, and the callables the migrations name, are
importable from here.
"""

from championship.models.championship import (
    RESERVED_SLUGS,
    Category,
    Championship,
    Currency,
    PaymentReferenceScheme,
    Preset,
    new_token,
    validate_slug_not_reserved,
    validate_timezone,
)
from championship.models.mail import OutgoingMail
from championship.models.rounds import Heat, Round, Seat, Table
from championship.models.staff import ChampionshipRole, SignInLink
from championship.models.submissions import Submission

__all__ = [
    "RESERVED_SLUGS",
    "Category",
    "Championship",
    "ChampionshipRole",
    "Currency",
    "Heat",
    "OutgoingMail",
    "PaymentReferenceScheme",
    "Preset",
    "Round",
    "Seat",
    "SignInLink",
    "Submission",
    "Table",
    "new_token",
    "validate_slug_not_reserved",
    "validate_timezone",
]
