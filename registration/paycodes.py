"""Pay-by-phone QR codes: the fee and the reference filled in, so that nothing is mistyped.

Swish (SEK, where the championship has a Swish number)
    The Swish app's prefilled code, as Swish's QR code specification gives it:
    ``C<number>;<amount>;<message>;<lock mask>`` — the amount with two decimals and
    a decimal comma, the message (the reference) URL-encoded, and lock mask 0: the
    payer can change neither the amount nor the message.
EPC (EUR, where the championship has an IBAN)
    The European Payments Council's QR code for a SEPA credit transfer (EPC069-12,
    version 002, UTF-8): the payee's BIC, name and IBAN, the amount (``EUR150.5``),
    and the reference: an RF creditor reference in the structured field, any other
    in the unstructured one (a code carries one or the other).

Vipps and MobilePay have no public code for a prefilled payment: their numbers are
shown with the reference to type (``registration.payment``).
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING
from urllib.parse import quote

import qrcode
import qrcode.image.pil

from registration import references

if TYPE_CHECKING:
    from championship.models import Championship

SWISH_MESSAGE_MAX = 50
EPC_NAME_MAX = 70
EPC_REFERENCE_MAX = 35
EPC_TEXT_MAX = 140
EPC_AMOUNT_MAX = Decimal("999999999.99")
QUIET_ZONE = 4


@dataclass(frozen=True)
class PayCode:
    """A QR code to pay with: what kind (``swish``, ``epc``) and the text it holds."""

    kind: str
    text: str


def swish_text(number: str, amount: Decimal, message: str) -> str:
    """Return a Swish prefilled code's text: ``C1234567890;150,50;1234567;0``."""
    shown = f"{amount.quantize(Decimal('0.01'))}".replace(".", ",")
    return f"C{number};{shown};{quote(message[:SWISH_MESSAGE_MAX], safe='')};0"


def epc_amount(amount: Decimal) -> str:
    """Return an amount as the EPC code writes it: ``EUR150.5``, ``EUR12``, no trailing zeros."""
    text = f"{amount.quantize(Decimal('0.01')):f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return f"EUR{text}"


def epc_text(*, name: str, iban: str, bic: str, amount: Decimal, reference: str) -> str:
    """Return an EPC QR code's text (version 002, UTF-8, SEPA credit transfer)."""
    rf = references.is_valid("rf", reference)
    lines = [
        "BCD",
        "002",
        "1",
        "SCT",
        bic,
        name[:EPC_NAME_MAX],
        iban,
        epc_amount(amount),
        "",  # purpose
        reference[:EPC_REFERENCE_MAX] if rf else "",
        "" if rf else reference[:EPC_TEXT_MAX],
    ]
    return "\n".join(lines).rstrip("\n")


def code_for(championship: Championship, *, amount: Decimal, reference: str) -> PayCode | None:
    """Return the QR code to pay ``amount`` marked ``reference``; ``None`` where there is none."""
    if amount <= 0:
        return None
    if championship.currency == "SEK" and championship.swish_number:
        return PayCode("swish", swish_text(championship.swish_number, amount, reference))
    if championship.currency == "EUR" and championship.iban and amount <= EPC_AMOUNT_MAX:
        return PayCode(
            "epc",
            epc_text(
                name=championship.payee,
                iban=championship.iban,
                bic=championship.bic,
                amount=amount,
                reference=reference,
            ),
        )
    return None


def png(code: PayCode, *, box_size: int = 8) -> bytes:
    """Return the code as a black and white PNG.

    Error correction M, as Swish's design guide and the EPC's guideline ask (the
    EPC code at most version 13); the quiet zone of four modules.
    """
    image = qrcode.QRCode(
        error_correction=qrcode.constants.ERROR_CORRECT_M, border=QUIET_ZONE, box_size=box_size
    )
    image.add_data(code.text.encode("utf-8"))
    image.make(fit=True)
    buffer = io.BytesIO()
    image.make_image(image_factory=qrcode.image.pil.PilImage).save(buffer, format="PNG")
    return buffer.getvalue()
