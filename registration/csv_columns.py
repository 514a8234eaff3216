"""The columns of an entries file: their names in the export, the aliases a header may use
(``navn``, ``e-post``, ``fødselsdato``, ``ort`` …), and the values a cell may hold.

column names
    The export names its columns in the championship's language ("Betalingsstatus",
    "Deltaker 1: e-post"); an English file keeps the names it always had
    (``payment_status``, ``member1_email``). An import reads the names of every
    language, the English ones and the aliases, so an export of any championship
    reads back into any other.
words
    The same holds for the words of the cells: a status, a payment status, yes
    or no, the neutral flag ("avmeldt", "betald", "nej", "nøytralt flagg").
countries
    A country cell holds a two-letter code or a country's name in English,
    Norwegian, Swedish or Danish (``registration.countries``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime

from django.conf import settings
from django.utils.translation import gettext as _
from django.utils.translation import override, pgettext_lazy

from championship.rules.represents import NEUTRAL
from core import csvfile
from core.process_cache import Store
from registration import countries
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

# The export's column names in the active language (an English file: the keys themselves).
HEADERS = {
    "category": pgettext_lazy("csv header", "category"),
    "id": pgettext_lazy("csv header", "id"),
    "name": pgettext_lazy("csv header", "name"),
    "status": pgettext_lazy("csv header", "status"),
    "registered_at": pgettext_lazy("csv header", "registered_at"),
    "official": pgettext_lazy("csv header", "official"),
    "fee": pgettext_lazy("csv header", "fee"),
    "payment_status": pgettext_lazy("csv header", "payment_status"),
    "payment_reference": pgettext_lazy("csv header", "payment_reference"),
    "publish_consent": pgettext_lazy("csv header", "publish_consent"),
    "adult_name": pgettext_lazy("csv header", "adult_name"),
    "represents": pgettext_lazy("csv header", "represents"),
    "checked_in_at": pgettext_lazy("csv header", "checked_in_at"),
}
# A member's column: "member1_email", "Deltaker 1: e-post".
MEMBER_HEADER = pgettext_lazy("csv header", "member%(number)s_%(field)s")
MEMBER_FIELD_HEADERS = {
    "name": pgettext_lazy("csv member column", "name"),
    "email": pgettext_lazy("csv member column", "email"),
    "birth_date": pgettext_lazy("csv member column", "birth_date"),
    "city": pgettext_lazy("csv member column", "city"),
    "country": pgettext_lazy("csv member column", "country"),
    "citizenship": pgettext_lazy("csv member column", "citizenship"),
    "region": pgettext_lazy("csv member column", "region"),
    "years_in_region": pgettext_lazy("csv member column", "years_in_region"),
    "publish_consent": pgettext_lazy("csv member column", "publish_consent"),
}
# The words of the export's cells in the active language (an English file: the values).
STATUS_WORDS = {
    Entry.Status.CONFIRMED: pgettext_lazy("csv value", "confirmed"),
    Entry.Status.WAITLISTED: pgettext_lazy("csv value", "waitlisted"),
    Entry.Status.OFFERED: pgettext_lazy("csv value", "offered"),
    Entry.Status.WITHDRAWN: pgettext_lazy("csv value", "withdrawn"),
}
PAYMENT_WORDS = {
    Entry.Payment.UNPAID: pgettext_lazy("csv value", "unpaid"),
    Entry.Payment.PAID: pgettext_lazy("csv value", "paid"),
    Entry.Payment.REFUNDED: pgettext_lazy("csv value", "refunded"),
    Entry.Payment.WAIVED: pgettext_lazy("csv value", "waived"),
}
NEUTRAL_WORD = pgettext_lazy("csv value", "neutral")


def member_header(number: int, field: str) -> str:
    """Return the name of member ``number``'s column of ``field`` in the active language."""
    return MEMBER_HEADER % {"number": number, "field": MEMBER_FIELD_HEADERS[field]}


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
MEMBER_WORDS = ("member", "deltaker", "deltagare", "deltager", "medlem")

_ENTRY_BY_ALIAS = {alias: key for key, aliases in ENTRY_ALIASES.items() for alias in aliases}
_MEMBER_BY_ALIAS = {alias: key for key, aliases in MEMBER_ALIASES.items() for alias in aliases}


@dataclass(frozen=True)
class Names:
    """What an import recognises, in every language: column names and the words of cells.

    ``entry`` and ``member``: each column's names (normalised) with its field;
    ``member_prefix`` matches a member's column ("deltaker 1 e post"); then the
    words (casefolded) of a withdrawn status, of each payment status, and of the
    neutral flag.
    """

    entry: dict[str, str]
    member: dict[str, str]
    member_prefix: re.Pattern
    withdrawn: frozenset[str]
    payments: dict[str, str]
    neutral: frozenset[str]


_names: Store[Names] = Store("csv_names", size=1)


def _make_names() -> Names:
    entry, member, words = dict(_ENTRY_BY_ALIAS), dict(_MEMBER_BY_ALIAS), set(MEMBER_WORDS)
    withdrawn = {Entry.Status.WITHDRAWN.value}
    payments = {**PAYMENT_ALIASES, **{value: value for value in Entry.Payment.values}}
    neutral = set(NEUTRAL_WORDS)
    for language, _name in settings.LANGUAGES:
        with override(language):
            for key, label in HEADERS.items():
                entry.setdefault(_normalise(str(label)), key)
            for key, label in MEMBER_FIELD_HEADERS.items():
                member.setdefault(_normalise(str(label)), key)
            # "Deltaker %(number)s: %(field)s": what comes before the number.
            word = _normalise(str(MEMBER_HEADER).split("%(number)s")[0])
            if word:
                words.add(word)
            withdrawn |= {
                str(Entry.Status.WITHDRAWN.label).casefold(),
                str(STATUS_WORDS[Entry.Status.WITHDRAWN]).casefold(),
            }
            for choice, label in Entry.Payment.choices:
                payments.setdefault(str(label).casefold(), choice)
                payments.setdefault(str(PAYMENT_WORDS[choice]).casefold(), choice)
            neutral |= {str(NEUTRAL_WORD).casefold(), str(_("Neutral flag")).casefold()}
    alternatives = "|".join(re.escape(word) for word in sorted(words, key=len, reverse=True))
    prefix = re.compile(rf"^(?:{alternatives})\s?(\d{{1,2}})\s?(.+)$")
    return Names(
        entry=entry,
        member=member,
        member_prefix=prefix,
        withdrawn=frozenset(withdrawn),
        payments=payments,
        neutral=frozenset(neutral),
    )


def names() -> Names:
    """Return what an import recognises (made once per process)."""
    return _names.get_or_make("names", _make_names)


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
    recognised = names()
    columns: dict[int, Column] = {}
    ignored: list[str] = []
    unnumbered: dict[int, Column] = {}
    for position, raw in enumerate(header):
        name = _normalise(raw)
        column = None
        match = recognised.member_prefix.match(name)
        if match and match.group(2) in recognised.member and int(match.group(1)) >= 1:
            column = Column(recognised.member[match.group(2)], int(match.group(1)))
        elif name in recognised.entry:
            column = Column(recognised.entry[name])
        elif name in recognised.member:
            unnumbered[position] = Column(recognised.member[name], 1)
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
    """Return the ISO code of a country given by code or name (in en, nb, sv or da), or ""."""
    return countries.code_of(text)


# A word of a cell of countries: what ``countries.WORD_SEPARATORS`` does not match.
_WORD = re.compile(r"[^\s,;/]+")


def country_parts(text: str) -> list[tuple[str, str]]:
    """Return the countries of a cell that may hold several, each as (as written, code).

    Codes and names are separated by spaces, commas, semicolons or slashes
    ("NO SE", "Norge, Sverige"); a name may have several words ("Sri Lanka
    Norge" is two countries), the longest name first. Words that name no
    country come as one part with code "" (a run of them, up to a separator
    other than a space).
    """
    words = list(_WORD.finditer(text))
    longest = countries.longest_name_words()
    parts: list[tuple[str, str]] = []
    unknown: tuple[int, int] | None = None  # the span of the run of unknown words
    index = 0
    while index < len(words):
        start = words[index].start()
        for end_index in range(min(len(words), index + longest), index, -1):
            written = text[start : words[end_index - 1].end()]
            code = countries.code_of(written)
            if code:
                break
        if code:
            if unknown is not None:
                parts.append((text[unknown[0] : unknown[1]], ""))
                unknown = None
            parts.append((written, code))
            index = end_index
            continue
        if unknown is not None and text[unknown[1] : start].strip():
            parts.append((text[unknown[0] : unknown[1]], ""))
            unknown = None
        unknown = (unknown[0] if unknown else start, words[index].end())
        index += 1
    if unknown is not None:
        parts.append((text[unknown[0] : unknown[1]], ""))
    return parts


# The neutral flag, as a cell may write it (and "Neutral flag" and the export's word for it,
# in every language: ``names``).
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
    """Return what an entry represents, given by code, name or the neutral flag.

    ``neutral`` for the neutral flag, an ISO code for a country, "" for an empty
    cell; ``None`` when the text is neither.
    """
    text = text.strip()
    if not text:
        return ""
    if " ".join(text.split()).casefold() in names().neutral:
        return NEUTRAL
    return country_code(text) or None


def represents_cell(code: str) -> str:
    """Return what an entry represents as the export writes it: a code, or the neutral flag."""
    return str(NEUTRAL_WORD) if code == NEUTRAL else code


def payment_status_of(text: str) -> str | None:
    """Return the payment status a cell names (its value, label or word, any language), or None."""
    return names().payments.get(text.strip().casefold())


def is_withdrawn(text: str) -> bool:
    """Return whether a status cell says withdrawn (its value, label or word, any language)."""
    return text.strip().casefold() in names().withdrawn
