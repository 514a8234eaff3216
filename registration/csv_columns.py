"""The columns of an entries file: their names in the export, the aliases a header may use
(``navn``, ``e-post``, ``fødselsdato``, ``ort`` …), and the values a cell may hold."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime

from django.utils.translation import gettext as _
from django_countries import countries

from championship.rules.represents import NEUTRAL
from core import csvfile
from registration.models import Entry

EXPORT_COLUMNS = (
    "category",
    "id",
    "name",
    "status",
    "registered_at",
    "official",
    "fee",
    "payment_status",
    "payment_reference",
    "publish_consent",
    "adult_name",
    "represents",
    "checked_in_at",
)
MEMBER_FIELDS = (
    "name",
    "email",
    "birth_date",
    "city",
    "country",
    "citizenship",
    "region",
    "years_in_region",
    "publish_consent",
)
MEMBER_COLUMNS = 4

# Limits of what an import reads: a club's list is far smaller.
MAX_FILE_BYTES = 1_000_000
MAX_ROWS = 2000

# Lengths of the fields the rows are saved in.
MAX_LENGTHS = {
    "name": 200,
    "adult_name": 200,
    "payment_reference": 100,
    "member.name": 200,
    "member.email": 254,
    "member.city": 100,
    "member.region": 100,
}

# A cell a spreadsheet would run as a formula is written with a leading apostrophe.
FORMULA_STARTS = csvfile.FORMULA_STARTS


# Reading the file -----------------------------------------------------------------------------


def _normalise(header: str) -> str:
    return re.sub(r"[\s_\-.:/()]+", " ", header.strip().casefold()).strip()


# Header names, normalised (lower case, spaces for "_", "-" and "."), of each entry column.
ENTRY_ALIASES = {
    "category": {"category", "kategori", "klasse", "klass", "class"},
    "id": {"id", "entry id"},
    "name": {
        "name",
        "navn",
        "namn",
        "entry",
        "entry name",
        "team",
        "team name",
        "lag",
        "lagnavn",
        "lagnamn",
        "hold",
        "holdnavn",
    },
    "status": {"status"},
    "registered_at": {"registered at", "registered"},
    "official": {"official", "offisiell", "officiell", "officiel"},
    "fee": {"fee", "avgift", "startavgift", "gebyr", "startkontingent"},
    "payment_status": {"payment status", "payment", "betaling", "betalning", "betalingsstatus"},
    "payment_reference": {
        "payment reference",
        "reference",
        "referanse",
        "referens",
        "reference nr",
        "betalingsreferanse",
        "betalningsreferens",
    },
    "publish_consent": {"publish consent", "consent", "samtykke", "samtycke"},
    "adult_name": {
        "adult name",
        "accompanying adult",
        "adult",
        "foresatt",
        "voksen",
        "målsman",
        "vårdnadshavare",
        "forælder",
        "værge",
        "ledsager",
    },
    # The country the entry represents; not "country" or "nationality", which are a member's.
    "represents": {
        "represents",
        "country represented",
        "represented country",
        "representing",
        "flag",
        "nation",
        "representerer",
        "land som representeres",
        "representert land",
        "nasjon",
        "flagg",
        "representerar",
        "land som representeras",
        "representerat land",
        "flagga",
        "repræsenterer",
        "land, der repræsenteres",
        "land der repræsenteres",
        "repræsenteret land",
    },
    "checked_in_at": {"checked in at", "checked in"},
}
MEMBER_ALIASES = {
    "name": {"name", "navn", "namn"},
    "email": {"email", "e mail", "e post", "epost", "mail", "e postadresse", "e postadress"},
    "birth_date": {
        "birth date",
        "birthdate",
        "date of birth",
        "dob",
        "fødselsdato",
        "födelsedatum",
        "fødselsdag",
        "født",
        "född",
    },
    "city": {"city", "home town", "hometown", "town", "by", "ort", "hjemsted", "hemort", "bosted"},
    "country": {"country", "land"},
    "citizenship": {
        "citizenship",
        "nationality",
        "statsborgerskap",
        "medborgarskap",
        "statsborgerskab",
        "nasjonalitet",
        "nationalitet",
    },
    "region": {"region", "fylke", "län", "county", "landsdel"},
    "years_in_region": {"years in region"},
    "publish_consent": {"publish consent", "consent", "samtykke", "samtycke"},
}
MEMBER_PREFIX = re.compile(r"^(?:member|deltaker|deltagare|deltager|medlem)\s?(\d{1,2})\s?(.+)$")

_ENTRY_BY_ALIAS = {alias: key for key, aliases in ENTRY_ALIASES.items() for alias in aliases}
_MEMBER_BY_ALIAS = {alias: key for key, aliases in MEMBER_ALIASES.items() for alias in aliases}


@dataclass(frozen=True)
class Column:
    """What a column of the file holds: an entry field, or a field of member ``member``."""

    field: str
    member: int | None = None


def map_header(header: list[str]) -> tuple[dict[int, Column], list[str]]:
    """Return the recognised columns by position, and the names of the ignored ones.

    A member field without a member number (``e-post``) belongs to the first
    member, unless the file also has that field numbered (``member1_email``).
    A column named twice counts once, the first time.
    """
    columns: dict[int, Column] = {}
    ignored: list[str] = []
    unnumbered: dict[int, Column] = {}
    for position, raw in enumerate(header):
        name = _normalise(raw)
        column = None
        match = MEMBER_PREFIX.match(name)
        if match and match.group(2) in _MEMBER_BY_ALIAS and int(match.group(1)) >= 1:
            column = Column(_MEMBER_BY_ALIAS[match.group(2)], int(match.group(1)))
        elif name in _ENTRY_BY_ALIAS:
            column = Column(_ENTRY_BY_ALIAS[name])
        elif name in _MEMBER_BY_ALIAS:
            unnumbered[position] = Column(_MEMBER_BY_ALIAS[name], 1)
            continue
        if column is None or column in columns.values():
            if raw.strip():
                ignored.append(raw.strip())
            continue
        columns[position] = column
    for position, column in unnumbered.items():
        if column in columns.values():
            ignored.append(header[position].strip())
        else:
            columns[position] = column
    return dict(sorted(columns.items())), ignored


# Values -----------------------------------------------------------------------------------


DATE_FORMATS = ("%Y-%m-%d", "%d.%m.%Y", "%d/%m/%Y")
YES = {"yes", "y", "ja", "j", "true", "1", "x"}
NO = {"no", "n", "nei", "nej", "false", "0", ""}
PAYMENT_ALIASES = {
    "betalt": Entry.Payment.PAID,
    "betald": Entry.Payment.PAID,
    "ubetalt": Entry.Payment.UNPAID,
    "obetald": Entry.Payment.UNPAID,
    "ikke betalt": Entry.Payment.UNPAID,
    "ikke betalt endnu": Entry.Payment.UNPAID,
    "refundert": Entry.Payment.REFUNDED,
    "återbetald": Entry.Payment.REFUNDED,
    "refunderet": Entry.Payment.REFUNDED,
    "fritatt": Entry.Payment.WAIVED,
    "fritagen": Entry.Payment.WAIVED,
    "fritaget": Entry.Payment.WAIVED,
}


def parse_date(text: str) -> date:
    """Return the date of ``YYYY-MM-DD``, ``DD.MM.YYYY`` or ``DD/MM/YYYY``; raise ``ValueError``."""
    for pattern in DATE_FORMATS:
        try:
            return datetime.strptime(text.strip(), pattern).date()
        except ValueError:
            continue
    raise ValueError(text)


def country_code(text: str) -> str:
    """Return the ISO code of a country given by code or English name, or "" when unknown."""
    text = text.strip()
    if not text:
        return ""
    if len(text) == 2:
        # An ISO code is two ASCII letters: "0²" would pass for a number to the library.
        return countries.alpha2(text) if text.isascii() and text.isalpha() else ""
    return countries.by_name(text) or ""


# The neutral flag, as a cell may write it (and the active language's "Neutral flag").
NEUTRAL_WORDS = {
    "neutral",
    "neutral flag",
    "international puzzlers",
    "nøytral",
    "nøytralt flagg",
    "neutral flagga",
    "neutralt flag",
}


def represents_code(text: str) -> str:
    """Return what an entry represents, given by code, English name or the neutral flag.

    ``neutral`` for the neutral flag, an ISO code for a country, "" for an empty
    cell; ``None`` when the text is neither.
    """
    text = text.strip()
    if not text:
        return ""
    word = " ".join(text.split()).casefold()
    if word in NEUTRAL_WORDS or word == str(_("Neutral flag")).casefold():
        return NEUTRAL
    return country_code(text) or None


def payment_status_of(text: str) -> str | None:
    value = text.strip().casefold()
    if value in Entry.Payment.values:
        return value
    for choice, label in Entry.Payment.choices:
        if value == str(label).casefold():
            return choice
    return PAYMENT_ALIASES.get(value)
