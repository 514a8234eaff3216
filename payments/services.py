"""Reading a statement into the database, and applying it: the only writes of payments.

read
    ``statement_read`` takes a file's bytes: the same file again (its SHA-256) is the
    statement already read, and nothing is written; else the file is read
    (``payments.readers``), refused when it is of another account or currency than
    the championship's, and each credit is stored with its match
    (``payments.matching``); a credit read before from another file (overlapping
    exports: the same bank reference, or the same date, amount and texts) is
    ``duplicate``.
apply
    ``statement_apply`` marks the entries of the matched and overpaid credits paid,
    and those of the suggestions the organiser confirmed; partial credits count
    towards their entry's fee. Each applied line records when; the statement, who
    applied it. Applying again changes nothing.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal

from django.db import transaction
from django.db.models import Q, Sum
from django.utils import timezone
from django.utils.translation import gettext as _

from championship import payees
from championship.models import Championship
from payments import matching, readers
from payments.models import BankLayout, Statement, StatementLine
from registration import payment, services
from registration.models import Entry


class Refused(ValueError):
    """A statement that cannot be read or does not belong here, with why (for the organiser)."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class NeedsMapping(Exception):
    """A CSV file of a layout nobody mapped yet: the organiser says which column holds what."""

    def __init__(self, table: readers.Table):
        super().__init__("unmapped CSV layout")
        self.table = table


@dataclass(frozen=True)
class Outcome:
    """The statement read, and whether it was read before (then every line counts as duplicate)."""

    statement: Statement
    again: bool = False

    def lines(self) -> list[StatementLine]:
        lines = list(self.statement.lines.select_related("entry", "suggested"))
        if self.again:
            for line in lines:
                line.status = StatementLine.Status.DUPLICATE
        return lines


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def layout_save(*, table: readers.Table, columns: dict[str, str], decimal_comma: bool, by) -> None:
    """Remember how a bank's CSV layout is read, for every later file with the same header."""
    missing = [name for name in ("date", "amount") if not columns.get(name)]
    unknown = [column for column in columns.values() if column and column not in table.header]
    if missing or unknown:
        raise Refused(_("Choose the columns of the date and of the amount paid in."))
    BankLayout.objects.update_or_create(
        signature=table.signature,
        defaults={
            "header": table.header,
            "columns": {name: column for name, column in columns.items() if column},
            "decimal_comma": decimal_comma,
            "created_by": by,
        },
    )


def _read(data: bytes, championship: Championship) -> readers.Read:
    if readers.looks_like_xml(data):
        return readers.read_camt(data)
    table = readers.read_table(data)
    layout = table.layout()
    if layout is not None:
        return readers.read_csv(table, layout.mapping, kind=layout.key, currency=layout.currency)
    mapped = BankLayout.objects.filter(signature=table.signature).first()
    if mapped is None:
        raise NeedsMapping(table)
    mapping = readers.Mapping(mapped.columns, decimal_comma=mapped.decimal_comma)
    return readers.read_csv(table, mapping, kind="csv", currency=championship.currency)


def _digits(text: str) -> str:
    return "".join(char for char in text if char.isalnum()).upper()


def account_problem(read: readers.Read, championship: Championship) -> str | None:
    """Return why the statement is not of the championship's account or currency, or ``None``."""
    if read.currency and read.currency != championship.currency:
        return _(
            "This statement is in %(theirs)s, and the championship takes %(ours)s: it is "
            "of another account."
        ) % {"theirs": read.currency, "ours": championship.currency}
    ours = [championship.iban] if championship.iban else []
    # A bankgiro number is no part of an IBAN; an account number is.
    if championship.bank_account and not payees.BANKGIRO.match(championship.bank_account):
        ours.append(_digits(championship.bank_account))
    theirs = _digits(read.account)
    if (
        theirs
        and ours
        and not any(theirs == own or theirs.endswith(own) or own.endswith(theirs) for own in ours)
    ):
        return _(
            "This statement is of the account %(theirs)s, not of the championship's "
            "(%(ours)s, on the edit page)."
        ) % {"theirs": read.account, "ours": ", ".join(ours)}
    return None


def _fingerprints(credits: Iterable[readers.Credit]) -> list[str]:
    seen: Counter[str] = Counter()
    prints = []
    for credit in credits:
        if credit.bank_ref:
            key = f"ref:{credit.bank_ref}"
        else:
            parts = (
                credit.booked_on,
                credit.amount,
                credit.reference,
                credit.message,
                credit.payer,
            )
            key = "row:" + hashlib.sha256("|".join(map(str, parts)).encode()).hexdigest()[:40]
        seen[key] += 1
        prints.append(f"{key}#{seen[key]}"[:200])
    return prints


def payables(championship: Championship) -> list[matching.Payable]:
    """Return the championship's entries that a credit may pay, with what they have received."""
    entries = (
        Entry.objects.filter(category__championship=championship)
        .exclude(status=Entry.Status.WITHDRAWN, payment_status=Entry.Payment.UNPAID)
        .select_related("category__championship")
        .prefetch_related("members")
        .annotate(
            received=Sum(
                "payment_lines__amount",
                filter=Q(payment_lines__applied_at__isnull=False),
                default=Decimal(0),
            )
        )
    )
    return [
        matching.Payable(
            pk=entry.pk,
            reference=payment.reference(entry),
            fee=entry.fee,
            received=entry.received,
            paid=entry.payment_status in (Entry.Payment.PAID, Entry.Payment.WAIVED),
            names=(entry.name, *(member.name for member in entry.members.all())),
        )
        for entry in entries
    ]


def statement_read(*, championship: Championship, data: bytes, file_name: str, by=None) -> Outcome:
    """Read a file into a statement of ``championship`` (see the module's docstring).

    Raise ``Refused`` with the reason, or ``NeedsMapping`` for an unmapped CSV layout;
    nothing is written then.
    """
    sha = digest(data)
    earlier = Statement.objects.filter(championship=championship, sha256=sha).first()
    if earlier is not None:
        return Outcome(earlier, again=True)
    try:
        read = _read(data, championship)
    except readers.Unreadable as error:
        raise Refused(error.message) from None
    problem = account_problem(read, championship)
    if problem:
        raise Refused(problem)
    if not read.credits:
        raise Refused(_("The file holds no payments into the account."))
    prints = _fingerprints(read.credits)
    with transaction.atomic():
        Championship.objects.select_for_update().get(pk=championship.pk)
        statement, created = Statement.objects.get_or_create(
            championship=championship,
            sha256=sha,
            defaults={
                "file_name": file_name[:200],
                "kind": read.kind,
                "account": read.account[:42],
                "currency": read.currency,
                "uploaded_by": by,
            },
        )
        if not created:
            return Outcome(statement, again=True)
        seen = set(
            StatementLine.objects.filter(
                statement__championship=championship, fingerprint__in=prints
            )
            .exclude(status=StatementLine.Status.DUPLICATE)
            .values_list("fingerprint", flat=True)
        )
        fresh = [(c, p) for c, p in zip(read.credits, prints, strict=True) if p not in seen]
        found = iter(
            matching.match(
                ((c.amount, c.reference, c.message, c.payer) for c, _p in fresh),
                payables(championship),
            )
        )
        lines = []
        for position, (credit, fingerprint) in enumerate(
            zip(read.credits, prints, strict=True), start=1
        ):
            if fingerprint in seen:
                result = matching.Match(StatementLine.Status.DUPLICATE)
            else:
                result = next(found)
            lines.append(
                StatementLine(
                    statement=statement,
                    position=position,
                    booked_on=credit.booked_on,
                    amount=credit.amount,
                    currency=credit.currency or read.currency,
                    reference=credit.reference,
                    message=credit.message,
                    payer=credit.payer,
                    fingerprint=fingerprint,
                    status=result.status,
                    entry_id=result.entry,
                    suggested_id=result.suggested,
                )
            )
        StatementLine.objects.bulk_create(lines)
    return Outcome(statement)


@transaction.atomic
def statement_apply(*, statement: Statement, by=None, confirm: Iterable[int] = ()) -> int:
    """Mark the entries the statement pays paid; return how many became paid.

    ``confirm``: positions of unknown lines whose suggested entry the organiser confirmed.
    A statement applied already changes nothing.
    """
    statement = Statement.objects.select_for_update().get(pk=statement.pk)
    if statement.applied_at is not None:
        return 0
    now = timezone.now()
    confirmed = set(confirm)
    lines = list(statement.lines.select_related("entry", "suggested").order_by("position"))
    for line in lines:
        if line.position in confirmed and line.status == StatementLine.Status.UNKNOWN:
            if line.suggested is None:
                raise Refused(_("Line %(line)s has no entry to confirm.") % {"line": line.position})
            line.entry = line.suggested
            line.status = _status_with(line)
            line.save(update_fields=["entry", "status"])
    paying = [line for line in lines if line.entry_id and line.status != "duplicate"]
    _reckon_again(paying)
    StatementLine.objects.filter(pk__in=[line.pk for line in paying]).update(applied_at=now)
    full = {
        line.entry_id
        for line in paying
        if line.status in (StatementLine.Status.MATCHED, StatementLine.Status.OVERPAID)
    }
    became = services.entries_mark_paid(entries=Entry.objects.filter(pk__in=full))
    statement.applied_at, statement.applied_by = now, by
    statement.save(update_fields=["applied_at", "applied_by"])
    return became


def _received_before(entry_ids) -> dict[int, Decimal]:
    """Return what the entries have received through the statements applied so far."""
    totals = (
        StatementLine.objects.filter(entry_id__in=entry_ids, applied_at__isnull=False)
        .values("entry_id")
        .annotate(total=Sum("amount"))
    )
    return {row["entry_id"]: row["total"] for row in totals}


def _status_with(line: StatementLine) -> str:
    received = _received_before([line.entry_id]).get(line.entry_id, Decimal(0))
    return matching.status_of(line.entry.fee, received + line.amount)


def _reckon_again(lines: list[StatementLine]) -> None:
    """Give the lines their status by what their entries have received by now, in order.

    Another statement applied since this one was read may have brought the other half of
    a partial payment.
    """
    received = _received_before({line.entry_id for line in lines})
    for line in lines:
        received[line.entry_id] = received.get(line.entry_id, Decimal(0)) + line.amount
        status = matching.status_of(line.entry.fee, received[line.entry_id])
        if status != line.status:
            line.status = status
            line.save(update_fields=["status"])
