"""Pay-by-phone QR codes: Swish's prefilled code and the EPC code, read back by zbar.

zbar (zbarimg, Debian's zbar-tools) is a decoder of its own, not the library that
drew the codes: what it reads is what a phone's camera would.
"""

import shutil
import subprocess
from datetime import timedelta
from decimal import Decimal

import pytest
from django.core import mail

from championship.models import Category, Championship
from registration import paycodes, payment, references, services
from registration.models import Entry
from tests import factories
from tests.registration.test_services import member

ZBAR = "zbarimg"


def zbar(png: bytes, tmp_path) -> str:
    """Return the text zbar reads in a PNG (its bytes as UTF-8), failing when it reads none."""
    assert shutil.which(ZBAR), "zbarimg (Debian's zbar-tools) is needed to read the QR codes"
    image = tmp_path / "code.png"
    image.write_bytes(png)
    read = subprocess.run(
        [ZBAR, "--raw", "--quiet", "-Sbinary", str(image)], capture_output=True, check=True
    )
    return read.stdout.decode("utf-8").removesuffix("\n")


# Swish's QR code specification: "if a company (1237856901) send an invoice for 100 SEK
# with OCR number 12229445, then the content of the QR code is C1237856901;100,00;12229445;0".
def test_the_swish_code_is_the_specification_s_example():
    assert (
        paycodes.swish_text("1237856901", Decimal("100"), "12229445")
        == "C1237856901;100,00;12229445;0"
    )
    assert paycodes.swish_text("1237856901", Decimal("150.5"), "KID 4711/a") == (
        "C1237856901;150,50;KID%204711%2Fa;0"
    )


# The EPC's guideline (EPC069-12) shows a code for the Red Cross of Belgium, 1 euro,
# "Urgency fund"; the same in version 002, without its purpose and its note to the payer.
def test_the_epc_code_is_the_guideline_s_example():
    assert paycodes.epc_text(
        name="Red Cross of Belgium",
        iban="BE72000000001616",
        bic="BPOTBEB1",
        amount=Decimal("1.00"),
        reference="Urgency fund",
    ) == "\n".join(
        [
            "BCD",
            "002",
            "1",
            "SCT",
            "BPOTBEB1",
            "Red Cross of Belgium",
            "BE72000000001616",
            "EUR1",
            "",
            "",
            "Urgency fund",
        ]
    )


def test_an_rf_reference_goes_in_the_structured_field():
    text = paycodes.epc_text(
        name="Suomen Palapeliliitto",
        iban="FI2112345600000785",
        bic="",
        amount=Decimal("150.50"),
        reference="RF18539007547034",
    )
    assert text.split("\n")[4:] == [
        "",
        "Suomen Palapeliliitto",
        "FI2112345600000785",
        "EUR150.5",
        "",
        "RF18539007547034",
    ]


@pytest.mark.parametrize(
    "code",
    [
        paycodes.PayCode("swish", "C1237856901;100,00;12229445;0"),
        paycodes.PayCode(
            "epc",
            "BCD\n002\n1\nSCT\nBPOTBEB1\nSpeedpuslespil Ærø\nDK5000400440116243\nEUR150.5\n\n"
            "RF18539007547034",
        ),
    ],
    ids=["swish", "epc"],
)
def test_zbar_reads_exactly_what_the_code_holds(code, tmp_path):
    assert zbar(paycodes.png(code), tmp_path) == code.text


@pytest.fixture
def stockholm(db):
    """An SM in kronor with a Swish number (the individual fee: 250,50 SEK)."""
    championship = factories.championship(ruleset="sm")
    Championship.objects.filter(pk=championship.pk).update(swish_number="1237856901")
    Category.objects.filter(championship=championship).update(fee=Decimal("250.50"))
    championship.refresh_from_db()
    return championship


@pytest.fixture
def tallinn(db):
    """A championship in euro with an IBAN and a BIC (fees of 20 euro)."""
    championship = factories.championship(currency="EUR")
    Category.objects.filter(championship=championship).update(fee=Decimal("20"))
    Championship.objects.filter(pk=championship.pk).update(
        iban="FI2112345600000785", bic="NDEAFIHH", payee_name="Palapeli ry"
    )
    championship.refresh_from_db()
    return championship


def register(championship):
    category = championship.categories.get(kind="individual")
    return services.entry_register(
        category=category,
        members=[member("Kari Nordmann")],
        send_mail=False,
        now=factories.START - timedelta(days=30),
    )


def code_url(entry):
    return f"/{entry.category.championship.slug}/entries/{entry.manage_token}/pay.png"


def test_an_entry_s_swish_code_pays_its_fee_with_its_reference(client, stockholm, tmp_path):
    entry = register(stockholm)
    assert references.is_valid("ocr", entry.payment_reference)
    answer = client.get(code_url(entry))
    assert answer["Content-Type"] == "image/png"
    assert zbar(answer.content, tmp_path) == f"C1237856901;250,50;{entry.payment_reference};0"


def test_an_entry_s_epc_code_pays_its_fee_with_its_rf_reference(client, tallinn, tmp_path):
    entry = register(tallinn)
    assert references.is_valid("rf", entry.payment_reference)
    lines = zbar(client.get(code_url(entry)).content, tmp_path).split("\n")
    assert lines[4:8] == ["NDEAFIHH", "Palapeli ry", "FI2112345600000785", "EUR20"]
    assert lines[9] == entry.payment_reference
    # On the page, as it is printed (in groups of four), and copied as the bank takes it.
    page = client.get(f"/{tallinn.slug}/entries/{entry.manage_token}/").text
    assert f'"payment-reference">{references.grouped(entry.payment_reference)}<' in page
    assert " " in references.grouped(entry.payment_reference)
    assert f'data-copy="{entry.payment_reference}"' in page


def test_no_code_once_paid_nor_for_a_wrong_link_nor_without_a_payee(client, stockholm, rm):
    entry = register(stockholm)
    services.entry_set_payment(entry=entry, status="paid")
    assert client.get(code_url(entry)).status_code == 404
    assert client.get(f"/{stockholm.slug}/entries/not-a-token/pay.png").status_code == 404
    # Kroner have no code: Vipps and MobilePay take the number and the reference typed.
    Championship.objects.filter(pk=rm.pk).update(vipps_number="12345")
    norwegian = register(rm)
    assert payment.pay_code(norwegian) is None
    assert client.get(code_url(norwegian)).status_code == 404


def test_the_entry_s_page_shows_where_to_pay_with_copy_buttons_and_the_code(
    client, english, stockholm
):
    Championship.objects.filter(pk=stockholm.pk).update(
        bank_account="5050-1055", payee_name="Svenska Pusselförbundet"
    )
    entry = register(stockholm)
    page = client.get(f"/{stockholm.slug}/entries/{entry.manage_token}/").text
    assert "<dt>Swish</dt>" in page and "123 785 69 01" in page
    assert 'data-copy="1237856901"' in page
    assert "<dt>Bankgiro</dt>" in page and 'data-copy="5050-1055"' in page
    assert f'data-copy="{entry.payment_reference}"' in page
    assert "Svenska Pusselförbundet" in page
    assert f'<img src="{code_url(entry)}"' in page


def test_the_registration_mail_carries_the_swish_code_and_the_numbers(
    stockholm, django_capture_on_commit_callbacks, settings, tmp_path
):
    settings.SITE_URL = "https://puzzle.example.org"
    Championship.objects.filter(pk=stockholm.pk).update(vipps_number="12345")
    with django_capture_on_commit_callbacks(execute=True):
        entry = services.entry_register(
            category=stockholm.categories.get(kind="individual"),
            members=[member("Kari Nordmann")],
            now=factories.START - timedelta(days=30),
        )
    (message,) = mail.outbox
    attached = {name: content for name, content, _type in message.attachments}
    assert set(attached) == {"check-in.png", "swish.png"}
    expected = f"C1237856901;250,50;{entry.payment_reference};0"
    assert zbar(attached["swish.png"], tmp_path) == expected
    assert "Swish: 123 785 69 01" in message.body
    assert "Vipps: 123 45" in message.body
    assert f"{entry.payment_reference}" in message.body
    # Once paid, a mail sent again carries no code to pay with.
    Entry.objects.filter(pk=entry.pk).update(payment_status="paid")
    assert payment.mail_attachments(type("Mail", (), {"reference": entry.pk})()) == []
