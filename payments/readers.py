"""Reading what a bank delivers: its credits, with the account and currency they are in.

camt.053, camt.054 (ISO 20022 XML, any version)
    A statement (``BkToCstmrStmt/Stmt``), a notification (``BkToCstmrDbtCdtNtfctn/
    Ntfctn``) or a report (``BkToCstmrAcctRpt/Rpt``): the account (``Acct/Id/IBAN``
    or ``Othr/Id``) and its currency, and each booked credit entry (``Ntry`` with
    ``CdtDbtInd`` ``CRDT``) transaction by transaction (``NtryDtls/TxDtls``): its
    amount, the structured reference (``RmtInf/Strd/CdtrRefInf/Ref``: a KID, an OCR,
    a FIK or RF reference), the unstructured message (``RmtInf/Ustrd``), the payer
    (``RltdPties/Dbtr``) and the bank's own reference of it (``Refs/AcctSvcrRef``).
    Read with defusedxml: no entity expansion, no external entities.
CSV (``LAYOUTS``)
    The export layouts of large banks of each country, told by their header, and
    Swish's report; another layout is read by the columns the organiser mapped once
    for it (``Mapping``, stored by the header's signature).

Every reader raises ``Unreadable`` with a message for the organiser.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal, InvalidOperation

from defusedxml import ElementTree
from defusedxml.common import DefusedXmlException
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from core import csvfile

MAX_LINES = 5000
TEXT_MAX = 500


class Unreadable(ValueError):
    """A file that is not a statement this reader knows, with why (for the organiser)."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class Credit:
    """One payment into the account."""

    booked_on: date | None
    amount: Decimal
    currency: str = ""
    reference: str = ""
    message: str = ""
    payer: str = ""
    bank_ref: str = ""


@dataclass(frozen=True)
class Read:
    """What a file says: its kind, the account and currency (empty where it does not say)."""

    kind: str
    credits: list[Credit]
    account: str = ""
    currency: str = ""


# XML ------------------------------------------------------------------------------------------


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _child(element, *path: str):
    """Return the element at ``path`` (local names, namespaces ignored), or ``None``."""
    for name in path:
        if element is None:
            return None
        element = next((c for c in element if _local(c.tag) == name), None)
    return element


def _children(element, name: str) -> list:
    return [c for c in element if _local(c.tag) == name] if element is not None else []


def _text(element, *path: str) -> str:
    found = _child(element, *path)
    return (found.text or "").strip() if found is not None else ""


def _amount(element) -> tuple[Decimal, str] | None:
    if element is None or not (element.text or "").strip():
        return None
    try:
        return Decimal(element.text.strip()), element.get("Ccy", "")
    except InvalidOperation:
        raise Unreadable(
            _("An amount in the file is not a number: “%(text)s”.") % {"text": element.text[:40]}
        ) from None


def _day(element, *path: str) -> date | None:
    moment = _text(element, *path, "Dt") or _text(element, *path, "DtTm")[:10]
    try:
        return date.fromisoformat(moment) if moment else None
    except ValueError:
        return None


CAMT_KINDS = {
    "BkToCstmrStmt": ("camt.053", "Stmt"),
    "BkToCstmrDbtCdtNtfctn": ("camt.054", "Ntfctn"),
    "BkToCstmrAcctRpt": ("camt.052", "Rpt"),
}


def read_camt(data: bytes) -> Read:
    """Return the booked credits of a camt.053, camt.054 (or camt.052) document."""
    try:
        root = ElementTree.fromstring(data, forbid_dtd=True)
    except (ElementTree.ParseError, DefusedXmlException, ValueError):
        raise Unreadable(_("The file is not well-formed XML.")) from None
    body = next(iter(root), None) if _local(root.tag) == "Document" else None
    kind = CAMT_KINDS.get(_local(body.tag)) if body is not None else None
    if kind is None:
        raise Unreadable(
            _("The XML file is not an ISO 20022 bank statement (camt.053 or camt.054).")
        )
    name, part = kind
    credits: list[Credit] = []
    accounts, currencies = set(), set()
    for section in _children(body, part):
        account = _text(section, "Acct", "Id", "IBAN") or _text(section, "Acct", "Id", "Othr", "Id")
        if account:
            accounts.add(account.replace(" ", "").upper())
        if _text(section, "Acct", "Ccy"):
            currencies.add(_text(section, "Acct", "Ccy").upper())
        for entry in _children(section, "Ntry"):
            credits.extend(_credits_of(entry))
            if len(credits) > MAX_LINES:
                raise Unreadable(
                    _("The file has more than %(count)s payments.") % {"count": MAX_LINES}
                )
    if len(accounts) > 1:
        raise Unreadable(_("The file holds statements of several accounts: upload one at a time."))
    return Read(
        kind=name,
        credits=credits,
        account=accounts.pop() if accounts else "",
        currency=currencies.pop() if len(currencies) == 1 else "",
    )


def _credits_of(entry) -> list[Credit]:
    status = _text(entry, "Sts") or _text(entry, "Sts", "Cd")
    reversed_ = _text(entry, "RvslInd").lower() == "true"
    if _text(entry, "CdtDbtInd") != "CRDT" or reversed_ or status not in ("", "BOOK"):
        return []
    booked = _day(entry, "BookgDt") or _day(entry, "ValDt")
    whole = _amount(_child(entry, "Amt"))
    details = [t for d in _children(entry, "NtryDtls") for t in _children(d, "TxDtls")]
    entry_ref = _text(entry, "AcctSvcrRef") or _text(entry, "NtryRef")
    if not details:
        if whole is None:
            return []
        return [
            Credit(
                booked,
                whole[0],
                whole[1],
                message=_text(entry, "AddtlNtryInf")[:TEXT_MAX],
                bank_ref=entry_ref,
            )
        ]
    credits = []
    for index, detail in enumerate(details):
        amount = (
            _amount(_child(detail, "Amt"))
            or _amount(_child(detail, "AmtDtls", "TxAmt", "Amt"))
            or (whole if len(details) == 1 else None)
        )
        if amount is None:
            continue
        remittance = _child(detail, "RmtInf")
        structured = next(
            (
                _text(strd, "CdtrRefInf", "Ref")
                for strd in _children(remittance, "Strd")
                if _text(strd, "CdtrRefInf", "Ref")
            ),
            "",
        )
        unstructured = " ".join(
            (u.text or "").strip() for u in _children(remittance, "Ustrd") if u.text
        )
        message = " ".join(filter(None, [unstructured, _text(detail, "AddtlTxInf")]))
        payer = _text(detail, "RltdPties", "Dbtr", "Nm") or _text(
            detail, "RltdPties", "Dbtr", "Pty", "Nm"
        )
        own = _text(detail, "Refs", "AcctSvcrRef")
        end_to_end = _text(detail, "Refs", "EndToEndId")
        if end_to_end.upper() == "NOTPROVIDED":
            end_to_end = ""
        credits.append(
            Credit(
                booked,
                amount[0],
                amount[1],
                reference=structured[:140],
                message=message[:TEXT_MAX],
                payer=payer[:200],
                bank_ref=own or end_to_end or (f"{entry_ref}/{index}" if entry_ref else ""),
            )
        )
    return credits


# CSV ------------------------------------------------------------------------------------------

FIELDS = ("date", "amount", "text", "payer", "reference", "bank_ref")
FIELD_NAMES = {
    "date": gettext_lazy("Date"),
    "amount": gettext_lazy("Amount paid in"),
    "text": gettext_lazy("Text or message"),
    "payer": gettext_lazy("Payer"),
    "reference": gettext_lazy("Reference"),
    "bank_ref": gettext_lazy("The bank's own reference"),
}


@dataclass(frozen=True)
class Mapping:
    """Which column holds what (by the header's names), and whether amounts have a decimal comma.

    ``amount`` is the column of the amount paid in; a layout with one signed amount
    column takes its positive amounts only. A field may join several columns (a first
    and a last name). ``decimal_comma`` ``None``: told by each amount (two decimals
    after the last separator).
    """

    columns: dict[str, str | tuple[str, ...]]
    decimal_comma: bool | None = True


@dataclass(frozen=True)
class Layout:
    """A bank's export, known by its header."""

    key: str
    name: str
    header: tuple[str, ...]
    mapping: Mapping
    currency: str = ""
    accounts: tuple[str, ...] = field(default=())


# Documented in docs/organisers.md ("How to get paid"), each with its source.
LAYOUTS = (
    Layout(
        "sparebank1",
        "SpareBank 1 (Norway)",
        ("Dato", "Beskrivelse", "Rentedato", "Inn", "Ut", "Til konto", "Fra konto"),
        Mapping({"date": "Dato", "amount": "Inn", "text": "Beskrivelse"}, decimal_comma=True),
        currency="NOK",
    ),
    Layout(
        "swedbank",
        "Swedbank (Sweden)",
        (
            "Radnummer",
            "Clearingnummer",
            "Kontonummer",
            "Produkt",
            "Valuta",
            "Bokföringsdag",
            "Transaktionsdag",
            "Valutadag",
            "Referens",
            "Beskrivning",
            "Belopp",
            "Bokfört saldo",
        ),
        Mapping(
            {
                "date": "Bokföringsdag",
                "amount": "Belopp",
                "text": "Beskrivning",
                "reference": "Referens",
            },
            decimal_comma=False,
        ),
        currency="SEK",
    ),
    Layout(
        "danske",
        "Danske Bank (Denmark)",
        ("Dato", "Tekst", "Beløb", "Saldo", "Status", "Afstemt"),
        Mapping({"date": "Dato", "amount": "Beløb", "text": "Tekst"}, decimal_comma=True),
        currency="DKK",
    ),
    Layout(
        "vipps",
        "Vipps settlement report (Norway)",
        (
            "Salgsdato",
            "Salgssted",
            "Vippsnummer",
            "Produkt",
            "Transaksjons-ID",
            "Ordre-ID",
            "Brutto",
            "Gebyr",
            "Netto",
            "Transaksjonstype",
            "Oppgjørs-ID",
            "Oppgjørsdato",
            "Oppgjørssum",
            "Oppgjørskonto",
            "Fornavn",
            "Etternavn",
            "Melding",
        ),
        Mapping(
            {
                "date": "Salgsdato",
                "amount": "Brutto",
                "text": "Melding",
                "payer": ("Fornavn", "Etternavn"),
                "bank_ref": "Transaksjons-ID",
            },
            decimal_comma=None,
        ),
        currency="NOK",
    ),
    Layout(
        "swish",
        "Swish report (Sweden)",
        ("Datum", "Tid", "Referensnummer", "Belopp", "Mobilnummer", "Namn", "Meddelande"),
        Mapping(
            {
                "date": "Datum",
                "amount": "Belopp",
                "text": "Meddelande",
                "payer": "Namn",
                "bank_ref": "Referensnummer",
            },
            decimal_comma=True,
        ),
        currency="SEK",
    ),
)


def header_signature(header: list[str]) -> str:
    """Return what identifies a CSV layout: its column names, in order, without case or spaces."""
    names = "\x1f".join(" ".join(name.split()).casefold() for name in header)
    return hashlib.sha256(names.encode()).hexdigest()


def _same_header(header: list[str], layout: Layout) -> bool:
    names = [" ".join(name.split()).casefold() for name in header if name.strip()]
    return names == [name.casefold() for name in layout.header]


@dataclass(frozen=True)
class Table:
    """A CSV file's header and rows (each with its line number)."""

    header: list[str]
    rows: list[tuple[int, list[str]]]

    @property
    def signature(self) -> str:
        return header_signature(self.header)

    def layout(self) -> Layout | None:
        return next((layout for layout in LAYOUTS if _same_header(self.header, layout)), None)


def read_table(data: bytes) -> Table:
    """Return a CSV file's header and rows; a bank's title lines before the header are left out."""
    try:
        text = csvfile.decode(data)
        # Swedbank's export starts with "* Transaktioner Period …" above its header.
        text = "\n".join(line for line in text.splitlines() if not line.startswith("*"))
        _delimiter, rows = csvfile.read_table(text, max_rows=MAX_LINES)
    except csvfile.CsvFileError as error:
        raise Unreadable(error.message) from None
    (_number, header), *body = rows
    return Table([name.strip().lstrip("\ufeff") for name in header], body)


AMOUNT = re.compile(r"^[+-]?\d+(?:[.,]\d+)?$")
DATE_FORMATS = ("%Y-%m-%d", "%d.%m.%Y", "%d-%m-%Y", "%d/%m/%Y", "%Y%m%d", "%d.%m.%y")


def parse_amount(text: str, *, decimal_comma: bool | None) -> Decimal | None:
    """Return a CSV amount ("1.234,50", "1 234,50", "-39.00", "'-39,00") or ``None`` if empty.

    ``decimal_comma`` ``None``: the separator before the last two digits is the decimal one.
    """
    cleaned = text.strip().lstrip("'").replace("\u00a0", "").replace(" ", "").replace("kr", "")
    if not cleaned:
        return None
    if decimal_comma is None:
        decimal_comma = len(cleaned) > 2 and cleaned[-3] == ","
    if decimal_comma:
        cleaned = cleaned.replace(".", "").replace(",", ".")
    else:
        cleaned = cleaned.replace(",", "")
    if not AMOUNT.match(cleaned):
        raise ValueError(text)
    return Decimal(cleaned)


def parse_day(text: str) -> date:
    text = text.strip()[:10] if len(text.strip()) > 10 and "-" in text[:10] else text.strip()
    for pattern in DATE_FORMATS:
        try:
            return datetime.strptime(text, pattern).date()
        except ValueError:
            continue
    raise ValueError(text)


def read_csv(table: Table, mapping: Mapping, *, kind: str, currency: str = "") -> Read:
    """Return the credits of a CSV table by ``mapping``; a row that cannot be read is refused."""
    index = {" ".join(name.split()).casefold(): i for i, name in enumerate(table.header)}
    columns: dict[str, list[int]] = {}
    for name, wanted in mapping.columns.items():
        for column in (wanted,) if isinstance(wanted, str) else wanted:
            position = index.get(" ".join(column.split()).casefold())
            if position is None:
                raise Unreadable(_("The file has no column “%(column)s”.") % {"column": column})
            columns.setdefault(name, []).append(position)
    credits = []
    for number, cells in table.rows:

        def cell(name: str, cells=cells) -> str:
            found = (cells[p].strip() for p in columns.get(name, ()) if p < len(cells))
            return " ".join(part for part in found if part)

        try:
            amount = parse_amount(cell("amount"), decimal_comma=mapping.decimal_comma)
        except ValueError:
            raise Unreadable(
                _("Row %(row)s: “%(text)s” is not an amount.")
                % {"row": number, "text": cell("amount")[:40]}
            ) from None
        if amount is None or amount <= 0:
            continue  # a payment out, or a row of another kind
        try:
            booked = parse_day(cell("date"))
        except ValueError:
            raise Unreadable(
                _("Row %(row)s: “%(text)s” is not a date.")
                % {"row": number, "text": cell("date")[:40]}
            ) from None
        credits.append(
            Credit(
                booked,
                amount,
                currency,
                reference=cell("reference")[:140],
                message=cell("text")[:TEXT_MAX],
                payer=cell("payer")[:200],
                bank_ref=cell("bank_ref")[:150],
            )
        )
    return Read(kind=kind, credits=credits, currency=currency)


def looks_like_xml(data: bytes) -> bool:
    start = data.lstrip(b"\xef\xbb\xbf \t\r\n")[:100]
    return start.startswith(b"<")
