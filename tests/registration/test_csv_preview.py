"""A CSV file of entries previewed, with its problems, and confirmed."""

import pytest
from django.conf import settings

from championship.models import Category
from registration.models import Entry, Person
from tests import factories
from tests.factories import NEXT_YEAR
from tests.registration.csv_entries import (
    DATA,
    ORGANISER,
    confirm,
    future_championship,
    member,
    register,
    upload,
)

# The pages in English (the root conftest's ``english``).
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


# Preview and confirm -------------------------------------------------------------------------


def test_the_preview_lists_each_rows_problems_and_saves_nothing(organiser_client, future):
    data = (DATA / "problems.csv").read_bytes()
    preview_url = upload(organiser_client, future, data, category="individual")
    response = organiser_client.get(preview_url)
    preview = response.context["preview"]
    problems = {row.line: row.problems for row in preview.rows}
    assert problems[2] == []
    assert problems[3] == [
        "Member 1: “31.02.1990” is not a date: write 2010-05-31, 31.05.2010 or 31/05/2010."
    ]
    assert problems[4] == ["Member 1: “not-an-email” is not an e-mail address."]
    assert problems[5] == [
        "Lite Barn is under 16 on the day of the championship: name the accompanying adult."
    ]
    assert problems[6] == ["Member 1: Give the member's name."]
    for messages in problems.values():
        for message in messages:
            assert message.replace("'", "&#x27;") in response.text
    assert "Skip the rows with problems" in response.text
    assert not Entry.objects.exists() and not Person.objects.exists()


def test_confirm_refuses_while_a_row_is_invalid_unless_skipping(organiser_client, future):
    preview_url = upload(
        organiser_client, future, (DATA / "problems.csv").read_bytes(), category="individual"
    )
    response = confirm(organiser_client, preview_url)
    assert response.status_code == 302 and response.url == preview_url
    page = organiser_client.get(preview_url)
    assert "Nothing was saved: 4 rows have problems." in page.text
    assert not Entry.objects.exists() and not Person.objects.exists()
    response = confirm(organiser_client, preview_url, skip_invalid="yes")
    assert [e.name for e in Entry.objects.all()] == ["Gyldig Person"]
    page = organiser_client.get(response.url)
    assert "1 entry imported: 1 confirmed, 0 on the waiting list. 4 rows were left out." in (
        page.text
    )
    # The stored file is gone: the same confirmation cannot import twice.
    again = confirm(organiser_client, preview_url)
    assert again.url == f"/{future.slug}/manage/entries/import/"
    assert Entry.objects.count() == 1


def test_imported_entries_take_their_status_from_the_capacity(organiser_client, future):
    individual = future.categories.get(key="individual")
    Category.objects.filter(pk=individual.pk).update(capacity=2)
    register(future, "individual", [member("Først", "forst@example.org")])
    data = "\n".join(
        [
            "name,email,birth_date,region,status",
            "To,to@example.org,1990-01-01,Rogaland,waitlisted",
            "Tre,tre@example.org,1990-01-01,Rogaland,confirmed",
        ]
    ).encode()
    preview_url = upload(organiser_client, future, data, category="individual")
    preview = organiser_client.get(preview_url)
    assert [row.expected_status for row in preview.context["preview"].rows] == [
        "confirmed",
        "waitlisted",
    ]
    assert "a status in the file is not taken over" in preview.text
    confirm(organiser_client, preview_url)
    statuses = dict(Entry.objects.values_list("name", "status"))
    assert statuses == {"Først": "confirmed", "To": "confirmed", "Tre": "waitlisted"}


def test_duplicates_within_the_file_where_one_entry_per_person(client):
    dm = future_championship(f"dm-{NEXT_YEAR}", ruleset="dm")
    client.force_login(factories.role(dm, ORGANISER))
    register(dm, "individual", [member("Allerede", "allerede@example.org")])
    data = "\n".join(
        [
            "category;name;email;birth date",
            "individual;Første;same@example.org;01.01.1990",
            "individual;Andre;SAME@example.org;01.01.1991",
            "individual;Tredje;allerede@example.org;01.01.1992",
            "pair;Par;same@example.org;01.01.1990",
        ]
    ).encode()
    preview_url = upload(client, dm, data)
    preview = client.get(preview_url).context["preview"]
    problems = {row.line: row.problems for row in preview.rows}
    assert problems[2] == []
    assert problems[3] == [
        "Member 1: SAME@example.org is already in row 2 of the file: "
        "one entry per person in a category."
    ]
    assert problems[4] == [
        "Member 1: allerede@example.org is already registered in this category: "
        "one entry per person."
    ]
    # Another category: not a duplicate (but a pair needs two members).
    assert problems[5] == ["An entry in this category has 2 members."]


def test_a_row_with_an_unknown_category_or_payment(organiser_client, future):
    data = "\n".join(
        [
            "category,name,email,birth_date,region,payment_status,publish_consent",
            "quartet,A,a@example.org,1990-01-01,Rogaland,,",
            "individual,B,b@example.org,1990-01-01,Rogaland,stolen,",
            "individual,C,c@example.org,1990-01-01,Rogaland,,maybe",
        ]
    ).encode()
    preview = organiser_client.get(upload(organiser_client, future, data)).context["preview"]
    problems = [row.problems for row in preview.rows]
    assert problems[0] == ["There is no category “quartet”: use one of individual, pair, team."]
    assert problems[1] == ["Unknown payment status “stolen”: write unpaid, paid, refunded, waived."]
    assert problems[2] == ["Consent to publication: write yes or no, not “maybe”."]


def test_overlong_values_are_problems_not_errors(organiser_client, future):
    data = "name,email,birth_date,region,payment_reference\n"
    data += f"{'N' * 201},n@example.org,1990-01-01,Rogaland,{'R' * 101}\n"
    preview = organiser_client.get(
        upload(organiser_client, future, data.encode(), category="individual")
    ).context["preview"]
    (row,) = preview.rows
    assert "name is longer than 200 characters." in row.problems
    assert "payment reference is longer than 100 characters." in row.problems


def test_the_row_data_stays_on_the_server(organiser_client, future):
    preview_url = upload(
        organiser_client, future, (DATA / "problems.csv").read_bytes(), category="individual"
    )
    page = organiser_client.get(preview_url).text
    form = page[page.index('class="stack card narrow import-confirm"') :]
    form = form[: form.index("</form>")]
    assert form.count('type="hidden"') == 1  # the CSRF token, and no row data
    # Another organiser's session does not know the upload.
    other_client = type(organiser_client)()
    other_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    other_client.force_login(factories.role(future, ORGANISER))
    response = other_client.post(preview_url, {"action": "import", "skip_invalid": "yes"})
    assert response.url == f"/{future.slug}/manage/entries/import/"
    assert "This import is no longer available" in other_client.get(response.url).text
    assert not Entry.objects.exists()


def test_cancelling_the_import(organiser_client, future):
    preview_url = upload(
        organiser_client,
        future,
        (DATA / "cp1252_semicolon.csv").read_bytes(),
        category="individual",
    )
    response = organiser_client.post(preview_url, {"action": "cancel"})
    assert response.url == f"/{future.slug}/manage/entries/import/"
    assert confirm(organiser_client, preview_url).url == response.url
    assert not Entry.objects.exists()
