"""Where entrants pay, in the interchange format (version 4): kept, checked, and refused in
documents of earlier versions."""

import pytest

from championship.models import Championship
from interchange.export import export_document
from interchange.format import PAYEE_FIELDS, InterchangeError
from interchange.write import import_document
from tests.interchange.test_unknown_keys import NO_PAYEES, example, without_version_4

pytestmark = pytest.mark.django_db


def test_the_payees_go_through_an_import_and_an_export_as_they_are():
    document = example()
    championship = import_document(document)
    assert championship.payee == "Stavanger Puslespillklubb"
    assert (championship.vipps_number, championship.bank_account) == ("12345", "86011117947")
    assert championship.refund_days_before == 7
    exported = export_document(championship)["championship"]
    assert {name: exported[name] for name in PAYEE_FIELDS} == {
        name: document["championship"][name] for name in PAYEE_FIELDS
    }


def test_numbers_as_people_type_them_are_stored_compact():
    document = example()
    document["championship"].update(
        vipps_number="123 45", bank_account="8601.11.17947", iban="no93 8601 1117 947"
    )
    championship = import_document(document)
    assert (championship.vipps_number, championship.bank_account, championship.iban) == (
        "12345",
        "86011117947",
        "NO9386011117947",
    )


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("swish_number", "12345", "A Swish number is a business's 10 digits"),
        ("iban", "NO94 8601 1117 947", "This is not a valid IBAN"),
        ("bic", "DNB", "A BIC (SWIFT code) has 8 or 11"),
        ("bank_account", "8601.11.17949", "A Norwegian account number has 11 digits"),
        ("payment_reference_scheme", "giro", '"giro" is not a form of payment references'),
        ("refund_days_before", 400, "must be between 0 and 365, not 400"),
    ],
)
def test_a_wrong_number_is_refused_with_its_path(field, value, message):
    document = example()
    document["championship"][field] = value
    with pytest.raises(InterchangeError) as refused:
        import_document(document)
    assert refused.value.path == f"championship.{field}"
    assert message in refused.value.message
    assert not Championship.objects.exists()


def test_a_version_3_document_has_nowhere_to_pay_and_refuses_the_fields():
    championship = import_document(without_version_4(example()))
    exported = export_document(championship)
    assert {name: exported["championship"][name] for name in PAYEE_FIELDS} == NO_PAYEES
    Championship.objects.all().delete()
    document = without_version_4(example())
    document["championship"]["swish_number"] = "1237856901"
    with pytest.raises(InterchangeError) as refused:
        import_document(document)
    assert str(refused.value) == (
        'championship.swish_number: "swish_number" is a field of version 4 '
        "(the document says version 3)"
    )
