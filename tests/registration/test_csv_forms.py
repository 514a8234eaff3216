"""The entries import's row forms: each refused cell is a problem naming the member and the
value, the row keeps what it can of it, and nothing of a refused file is imported."""

from datetime import UTC, date, datetime

import pytest
from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import translation

from championship.models import ChampionshipRole
from registration import csv_columns, csv_io
from registration.csv_forms import DateCell, EntryRowForm, MemberRowForm
from registration.models import Entry, Person
from tests import factories
from tests.factories import NEXT_YEAR

pytestmark = pytest.mark.django_db

ORGANISER = ChampionshipRole.Role.ORGANISER
PAIR_HEADER = [
    "category",
    "member1_name",
    "member1_email",
    "member1_birth_date",
    "member1_region",
    "member2_name",
    "member2_email",
    "member2_birth_date",
    "member2_region",
]
PAIR_ROW = {
    "category": "pair",
    "member1_name": "Kari Nordmann",
    "member1_email": "kari@example.org",
    "member1_birth_date": "1980-01-01",
    "member1_region": "Rogaland",
    "member2_name": "Ola Nordmann",
    "member2_email": "ola@example.org",
    "member2_birth_date": "1981-02-03",
    "member2_region": "Rogaland",
}


@pytest.fixture
def future(db):
    return factories.championship(
        slug=f"rm-{NEXT_YEAR}", starts_at=datetime(NEXT_YEAR, 3, 14, 9, tzinfo=UTC)
    )


@pytest.fixture
def organiser_client(client, future):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    client.force_login(factories.role(future, ORGANISER, username="desk"))
    return client


def pair_file(**cells) -> str:
    """Return a file of one valid pair, with ``cells`` (by column) changed or added."""
    row = {**PAIR_ROW, **cells}
    return ",".join(row) + "\n" + ",".join(row.values()) + "\n"


def problems_of(text, championship, **kwargs) -> list[list[str]]:
    return [
        row.problems for row in csv_io.parse_entries(text, championship=championship, **kwargs).rows
    ]


# Refused cells, through the import ----------------------------------------------------------


@pytest.mark.parametrize(
    ("column", "value", "message"),
    [
        ("member2_email", "not-an-email", "Member 2: “not-an-email” is not an e-mail address."),
        (
            "member2_birth_date",
            "31.02.1990",
            "Member 2: “31.02.1990” is not a date: write 2010-05-31, 31.05.2010 or 31/05/2010.",
        ),
        (
            "member2_country",
            "Atlantis",
            "Member 2: “Atlantis” is not a country: write its name or its two-letter code, "
            "e.g. Norway or NO.",
        ),
        (
            "member2_citizenship",
            "NO XX",
            "Member 2: “XX” is not a country: write its name or its two-letter code, "
            "e.g. Norway or NO.",
        ),
        ("member2_years_in_region", "121", "Member 2: “121” is not a number of years."),
        ("member2_years_in_region", "-1", "Member 2: “-1” is not a number of years."),
        ("member2_years_in_region", "five", "Member 2: “five” is not a number of years."),
        (
            "member2_publish_consent",
            "maybe",
            "Member 2: Consent to publication: write yes or no, not “maybe”.",
        ),
        ("member2_name", "N" * 201, "Member 2: name is longer than 200 characters."),
        ("member2_city", "C" * 101, "Member 2: home town is longer than 100 characters."),
    ],
)
def test_a_refused_cell_is_the_rows_problem_and_nothing_is_imported(
    organiser_client, future, column, value, message
):
    response = organiser_client.post(
        f"/{future.slug}/manage/entries/import/",
        {"file": SimpleUploadedFile("pair.csv", pair_file(**{column: value}).encode())},
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    preview_url = response.url
    page = organiser_client.get(preview_url)
    (row,) = page.context["preview"].rows
    assert row.problems == [message]
    assert message.replace("'", "&#x27;") in page.text
    response = organiser_client.post(preview_url, {"action": "import"})
    assert response.url == preview_url
    assert not Entry.objects.exists() and not Person.objects.exists()


def test_the_messages_are_in_the_championships_language(future):
    text = pair_file(member2_email="nei", member2_name="N" * 201, member2_years_in_region="x")
    with translation.override("nb"):
        (problems,) = problems_of(text, future)
    assert problems == [
        "Medlem 2: «nei» er ikke en e-postadresse.",
        "Medlem 2: «x» er ikke et antall år.",
        "Medlem 2: navn er lengre enn 200 tegn.",
    ]


def test_a_refused_field_is_not_reported_again_by_the_registration_rules(future):
    # A category with an age rule wants a birth date: a refused one is reported once.
    text = "name,email,birth_date,region\nPer,per@example.org,31.02.2010,Rogaland\n"
    (problems,) = problems_of(text, future, default_category=future.categories.get(key="pair"))
    assert problems == [
        "Member 1: “31.02.2010” is not a date: write 2010-05-31, 31.05.2010 or 31/05/2010.",
        "An entry in this category has 2 members.",
    ]
    text = "name,email,birth_date,region\nPer,per@example.org,,Rogaland\n"
    individual = future.categories.get(key="individual")
    assert problems_of(text, future, default_category=individual) == [
        ["Member 1: Give the birth date: this category has an age limit."]
    ]


def test_the_officiality_is_told_of_the_citizenships_that_are_countries(db):
    sm = factories.championship(
        slug=f"sm-{NEXT_YEAR}",
        ruleset="sm",
        starts_at=datetime(NEXT_YEAR, 5, 1, 9, tzinfo=UTC),
        rule_overrides={"unofficial_allowed": False},
    )
    text = "\n".join(
        [
            "category,name,email,birth_date,citizenship",
            "individual,Sven,sven@example.se,1980-01-01,XX",
            "individual,Stina,stina@example.se,1980-01-01,SE/XX",
        ]
    )
    not_a_country = (
        "Member 1: “XX” is not a country: write its name or its two-letter code, e.g. Norway or NO."
    )
    # The member's own officiality error is left out: the citizenship is reported already.
    assert problems_of(text, sm) == [
        [
            not_a_country,
            "This championship takes official entries only, and this entry would be "
            "unofficial (hors concours).",
        ],
        [not_a_country],
    ]


def test_an_overlong_text_is_a_problem_and_is_cut(future):
    text = "name,email,birth_date,region,payment_reference\n"
    text += f"'={'N' * 205},n@example.org,1990-01-01,Rogaland,'-{'R' * 120}\n"
    preview = csv_io.parse_entries(
        text, championship=future, default_category=future.categories.get(key="individual")
    )
    (row,) = preview.rows
    assert row.problems == [
        "name is longer than 200 characters.",
        "payment reference is longer than 100 characters.",
    ]
    # The formula's apostrophe is taken away first, then the text is cut.
    assert row.name == "=" + "N" * 199
    assert row.members[0].name == row.name
    assert row.payment_reference == "-" + "R" * 99


def test_an_overlong_email_address_is_checked_as_it_is_cut(future):
    address = "a" * 250 + "@example.org"
    (problems,) = problems_of(pair_file(member2_email=address), future)
    assert problems == [
        "Member 2: e-mail is longer than 254 characters.",
        f"Member 2: “{address[:254]}” is not an e-mail address.",
    ]


# The forms on their own ----------------------------------------------------------------------


def test_a_member_form_cleans_the_cells():
    form = MemberRowForm(
        {
            "name": "Åse",
            "email": "ase@example.org",
            "birth_date": "31/05/2010",
            "country": "Norway",
            "citizenship": "no, se;DK",
            "years_in_region": "7",
            "publish_consent": "Ja",
        }
    )
    assert form.is_valid(), form.errors
    member = form.member_data()
    assert (member.name, member.email, member.birth_date) == (
        "Åse",
        "ase@example.org",
        date(2010, 5, 31),
    )
    assert (member.country, member.citizenship) == ("NO", ("NO", "SE", "DK"))
    assert (member.years_in_region, member.publish_consent) == (7, True)


def test_a_member_form_keeps_what_it_can_of_refused_cells():
    form = MemberRowForm(
        {
            "name": "Per",
            "email": "per@",
            "birth_date": "yesterday",
            "country": "XX",
            "citizenship": "SE XX",
            "years_in_region": "200",
            "publish_consent": "perhaps",
        }
    )
    assert not form.is_valid()
    assert set(form.errors) == {
        "email",
        "birth_date",
        "country",
        "citizenship",
        "years_in_region",
        "publish_consent",
    }
    member = form.member_data()
    assert (member.email, member.birth_date, member.country) == ("per@", None, "")
    assert (member.citizenship, member.years_in_region) == (("SE",), None)
    assert member.publish_consent is False


def test_a_members_consent_is_none_when_not_given():
    assert MemberRowForm({"name": "Per"}).member_data().publish_consent is None
    assert (
        MemberRowForm({"name": "Per", "publish_consent": ""}).member_data().publish_consent is None
    )
    assert (
        MemberRowForm({"name": "Per", "publish_consent": "NEI"}).member_data().publish_consent
        is False
    )


def test_an_entry_form_reads_category_payment_consent_and_status(future):
    categories = {"individual": future.categories.get(key="individual")}
    pair = future.categories.get(key="pair")

    def entry(data, default=None):
        return EntryRowForm(data, categories=categories, default_category=default)

    form = entry(
        {
            "category": "Individual",
            "name": "Kari",
            "payment_status": "Betalt",
            "publish_consent": "x",
            "status": "Withdrawn",
        }
    )
    assert form.is_valid(), form.errors
    values = form.row_values()
    assert values["category"] == categories["individual"]
    assert (values["payment_status"], values["publish_consent"], values["withdrawn"]) == (
        "paid",
        True,
        True,
    )
    # No reference column: nothing to change; an empty cell: no reference.
    assert values["payment_reference"] is None
    assert entry({"payment_reference": ""}, pair).row_values()["payment_reference"] == ""
    assert entry({"category": ""}, pair).row_values()["category"] == pair
    assert entry({"status": "confirmed"}, pair).row_values()["withdrawn"] is False
    assert entry({"publish_consent": ""}, pair).row_values()["publish_consent"] is False

    refused = entry({"category": "quartet", "payment_status": "stolen"})
    assert refused.errors == {
        "category": ["There is no category “quartet”: use one of individual."],
        "payment_status": [
            "Unknown payment status “stolen”: write unpaid, paid, refunded, waived."
        ],
    }
    assert refused.row_values()["category"] is None
    assert entry({"category": ""}).errors == {"category": ["The row has no category."]}


@pytest.mark.parametrize(
    "text",
    [
        "2010-05-31",
        "31.05.2010",
        "31/05/2010",
        "1.2.2003",
        " 2010-05-31 ",
        "31.02.2010",
        "2010/05/31",
    ],
)
def test_the_date_field_takes_what_parse_date_takes(text):
    field = DateCell()
    try:
        expected = csv_columns.parse_date(text)
    except ValueError:
        with pytest.raises(ValidationError, match="is not a date"):
            field.clean(text)
    else:
        assert field.clean(text) == expected
