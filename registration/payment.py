"""What an entry owes, and how the entrant pays it.

unpaid
    A confirmed entry whose payment status is unpaid: what the organiser counts
    and follows up. An entry on the waiting list or withdrawn owes nothing,
    whatever its payment status says.
due
    An unpaid entry with a fee: the entrant is told how to pay it.
payment reference
    What the entrant marks the payment with, so that the organiser can find the
    entry: the one the entry was given when it was made, in the form its
    championship's bank agreement asks for (a KID, an OCR or FIK reference, an RF
    reference: ``registration.references``), or that the organiser gave it; else the
    entry's id (the ``id`` of the CSV export and the interchange format).
payment instructions
    The championship's text (``Championship.payment_instructions``) with
    ``{reference}`` and ``{fee}`` put in for the entry, and where to pay: the
    championship's payees (``championship.payees``: the Swish, Vipps and MobilePay
    numbers, the bank account, IBAN and BIC), with a QR code where one exists
    (``registration.paycodes``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.urls import reverse
from django.utils.translation import gettext as _

from championship import outbox, payees
from championship.models import Championship, OutgoingMail, PaymentReferenceScheme
from core import site_url
from core.l10n import money
from registration import paycodes, references
from registration.models import Entry

REFERENCE = "{reference}"
FEE = "{fee}"


def is_unpaid(entry: Entry) -> bool:
    """Return whether the entry is confirmed and not paid (nor waived, nor refunded)."""
    return entry.status == Entry.Status.CONFIRMED and entry.payment_status == Entry.Payment.UNPAID


def is_due(entry: Entry) -> bool:
    """Return whether the entry still has a fee to pay."""
    return is_unpaid(entry) and entry.fee > 0


def reference(entry: Entry) -> str:
    """Return the reference the entrant marks the payment with."""
    return entry.payment_reference.strip() or entry.ref


def scheme_of(championship: Championship) -> str | None:
    """Return the scheme of the championship's new references; ``None``: the entry's own id."""
    chosen = championship.payment_reference_scheme
    if chosen == PaymentReferenceScheme.ENTRY:
        return None
    return chosen or references.default_scheme(championship.currency)


def give_reference(entry: Entry, championship: Championship) -> bool:
    """Give a new (saved) entry its reference in the championship's form, unless it has one.

    Return whether it was given (the caller saves ``payment_reference``). The number is
    the entry's id in the database: unique on the site, and the references of one
    championship have one length.
    """
    scheme = scheme_of(championship)
    if entry.payment_reference.strip() or scheme is None:
        return False
    entry.payment_reference = references.make(scheme, entry.pk)
    return True


def fee_text(entry: Entry) -> str:
    """Return the entry's fee as readers expect it: "200 kr" in its own language, else "200 NOK"."""
    return money(entry.fee, entry.category.championship.currency)


@dataclass(frozen=True)
class Method:
    """Where to pay: its name ("Swish", "IBAN"), the number as people read it, and as it is
    copied (the compact form an app or a bank's form takes; empty: nothing to copy)."""

    kind: str
    label: str
    value: str
    copy: str = ""


@dataclass(frozen=True)
class Instructions:
    """How to pay one entry: the organiser's text with its reference and fee put in, where to
    pay, and the QR code to pay with where there is one."""

    text: str
    reference: str
    fee: str
    methods: tuple[Method, ...] = field(default=())
    code: paycodes.PayCode | None = None

    @property
    def reference_shown(self) -> str:
        """Return the reference as it is printed: an RF reference in groups of four."""
        return references.grouped(self.reference)


def methods(championship: Championship) -> tuple[Method, ...]:
    """Return where the championship's entrants pay, in the order they are shown."""
    found = []
    if championship.swish_number:
        found.append(
            Method(
                "swish",
                "Swish",
                payees.display_swish(championship.swish_number),
                championship.swish_number,
            )
        )
    if championship.vipps_number:
        shown = payees.display_app_number(championship.vipps_number)
        found.append(Method("vipps", "Vipps", shown, championship.vipps_number))
    if championship.mobilepay_number:
        shown = payees.display_app_number(championship.mobilepay_number)
        found.append(Method("mobilepay", "MobilePay", shown, championship.mobilepay_number))
    if championship.bank_account:
        bankgiro = payees.BANKGIRO.match(championship.bank_account)
        label = _("Bankgiro") if bankgiro else _("Account number")
        shown = payees.display_account(championship.bank_account, championship.currency)
        found.append(
            Method("account", label, shown, shown if bankgiro else championship.bank_account)
        )
    if championship.iban:
        found.append(
            Method("iban", "IBAN", payees.display_iban(championship.iban), championship.iban)
        )
    if championship.bic:
        found.append(Method("bic", "BIC", championship.bic, championship.bic))
    if found:
        found.append(Method("payee", _("Recipient"), championship.payee))
    return tuple(found)


def pay_code(entry: Entry) -> paycodes.PayCode | None:
    """Return the QR code to pay the entry's fee with, or ``None`` (nothing due, or no code)."""
    if not (is_due(entry) or _offered(entry)):
        return None
    championship = entry.category.championship
    return paycodes.code_for(championship, amount=entry.fee, reference=reference(entry))


def code_url(entry: Entry) -> str | None:
    """Return the absolute address of the entry's payment code (a PNG), or ``None`` without one."""
    if pay_code(entry) is None:
        return None
    path = reverse(
        "registration:payment_code",
        kwargs={
            "championship_slug": entry.category.championship.slug,
            "token": entry.manage_token,
        },
    )
    return site_url.absolute_url(path)


def _offered(entry: Entry) -> bool:
    # An offered place is paid once accepted: its offer says how, beforehand.
    return (
        entry.status == Entry.Status.OFFERED
        and entry.payment_status == Entry.Payment.UNPAID
        and entry.fee > 0
    )


def instructions(entry: Entry) -> Instructions | None:
    """Return how to pay the entry, or ``None`` when nothing is due or the organiser said nothing
    (neither a text nor a place to pay).

    The placeholders are replaced as plain text (not ``str.format``), so that any
    other braces in the organiser's text stay as they are.
    """
    championship = entry.category.championship
    text = championship.payment_instructions.strip()
    where = methods(championship)
    if not (text or where) or not (is_due(entry) or _offered(entry)):
        return None
    code, fee = reference(entry), fee_text(entry)
    return Instructions(
        text=text.replace(REFERENCE, code).replace(FEE, fee),
        reference=code,
        fee=fee,
        methods=where,
        code=paycodes.code_for(championship, amount=entry.fee, reference=code),
    )


def mail_attachments(mail: OutgoingMail) -> list[tuple[str, bytes, str]]:
    """Attach the code to pay with to an entry's mail while its fee is due
    (``outbox.register_attacher``): nothing once it is paid, or where there is no code."""
    entry = Entry.objects.select_related("category__championship").filter(pk=mail.reference).first()
    code = pay_code(entry) if entry is not None else None
    return [(f"{code.kind}.png", paycodes.png(code), "image/png")] if code else []


def attach_to_mail() -> None:
    """Have the mails that ask for the fee carry the code to pay it with."""
    kinds = OutgoingMail.Kind
    for kind in (kinds.REGISTERED, kinds.PROMOTED, kinds.OFFERED, kinds.PAYMENT_REMINDER):
        outbox.register_attacher(kind, mail_attachments)
