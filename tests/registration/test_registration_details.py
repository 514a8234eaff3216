"""Registration details: deadlines on the championship page, the birth date where an age rule
applies, a live check that agrees with the submit, and consent asked of each member."""

import re
from datetime import UTC, date, datetime, timedelta

import pytest
from django.conf import settings
from django.utils import timezone

from championship.models import Category, Championship
from registration.models import Entry, Person
from tests import factories
from tests.factories import NEXT_YEAR

pytestmark = pytest.mark.django_db

MANAGEMENT = {"members-INITIAL_FORMS": "0", "members-MIN_NUM_FORMS": "0"}


def english(client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"


@pytest.fixture
def sm(db):
    """Pussel-SM on 8 May next year, Stockholm: the minimum age in individual is 14."""
    return factories.championship(
        slug=f"sm-{NEXT_YEAR}", ruleset="sm", starts_at=datetime(NEXT_YEAR, 5, 8, 8, tzinfo=UTC)
    )


def member(index, name, *, email="", birth="1980-01-01", **fields):
    data = {"name": name, "email": email, "birth_date": birth, **fields}
    return {f"members-{index}-{key}": value for key, value in data.items()}


def form(*members, total=None, **entry):
    data = {**MANAGEMENT, "members-TOTAL_FORMS": str(total or len(members)), **entry}
    data["members-MAX_NUM_FORMS"] = "1000"
    for each in members:
        data.update(each)
    return data


# The championship page -----------------------------------------------------------------------


def test_each_category_shows_the_deadline_in_the_championships_time_and_language(client, sm):
    # The organiser's deadline: 30 April, 23:59 in Stockholm (summer time, UTC+2).
    Championship.objects.filter(pk=sm.pk).update(
        registration_deadline=datetime(NEXT_YEAR, 4, 30, 21, 59, tzinfo=UTC)
    )
    opens = datetime(NEXT_YEAR, 3, 1, 7, 0, tzinfo=UTC)  # 08:00 in Stockholm (winter time)
    Category.objects.filter(championship=sm, kind="team").update(registration_opens_at=opens)
    text = client.get(f"/{sm.slug}/").text  # no language chosen: the championship's, Swedish
    assert text.count('<dd class="registration-deadline">') == 3
    deadline = (
        f'<time datetime="{NEXT_YEAR}-04-30T23:59:00+02:00">30 april {NEXT_YEAR} kl. 23:59</time>'
    )
    assert text.count(deadline) == 3
    assert text.count('<dd class="registration-opens">') == 1
    assert (
        f'<time datetime="{NEXT_YEAR}-03-01T08:00:00+01:00">1 mars {NEXT_YEAR} kl. 08:00</time>'
        in text
    )
    english(client)
    text = client.get(f"/{sm.slug}/").text
    assert text.count(f"30 April {NEXT_YEAR}, 23:59</time>") == 3
    assert "Registration opens" in text and f"1 March {NEXT_YEAR}, 08:00</time>" in text
    assert "Registration closes" in text


def test_the_deadline_shown_is_the_earlier_of_the_organisers_and_the_presets(client, rm):
    english(client)
    Championship.objects.filter(pk=rm.pk).update(
        registration_deadline=datetime(NEXT_YEAR, 3, 13, 12, tzinfo=UTC)
    )
    text = client.get(f"/{rm.slug}/").text
    # Rogaland closes five days before the start: 9 March, 10:00 in Oslo.
    assert (
        text.count(
            f'<time datetime="{NEXT_YEAR}-03-09T10:00:00+01:00">9 March {NEXT_YEAR}, 10:00</time>'
        )
        == 3
    )
    Championship.objects.filter(pk=rm.pk).update(
        registration_deadline=datetime(NEXT_YEAR, 2, 1, 22, 59, tzinfo=UTC)
    )
    assert client.get(f"/{rm.slug}/").text.count(f"1 February {NEXT_YEAR}, 23:59</time>") == 3


def test_the_norwegian_page_writes_the_date_the_norwegian_way(client, rm):
    text = client.get(f"/{rm.slug}/").text
    deadline = (
        f'<time datetime="{NEXT_YEAR}-03-09T10:00:00+01:00">9. mars {NEXT_YEAR} kl. 10:00</time>'
    )
    assert text.count(deadline) == 3


# The form: the birth date ---------------------------------------------------------------------


def birth_date_label(text, index=0):
    return re.search(rf'<label for="id_members-{index}-birth_date">(.*?)</label>', text).group(1)


REQUIRED = 'Birth date <span aria-hidden="true">*</span>'


def test_the_birth_date_is_marked_required_where_an_age_rule_applies(client, sm, rm):
    english(client)
    individual = client.get(f"/{sm.slug}/register/individual/").text
    assert birth_date_label(individual) == REQUIRED
    assert "The minimum age in this category is 14 on the day of the championship." in individual
    assert 'id="id_members-0-birth_date_helptext"' in individual  # what aria-describedby names
    assert "Fields marked * are required." in individual
    # Nobody 14 or older needs an adult: sm's individual form does not ask for one.
    assert 'name="adult_name"' not in individual
    assert 'name="adult_name"' in client.get(f"/{sm.slug}/register/pair/").text
    pair = client.get(f"/{rm.slug}/register/pair/").text  # no minimum age, but an adult age
    assert birth_date_label(pair, 1) == REQUIRED
    assert "Under 16 on the day of the championship, an accompanying adult must be named." in pair


def test_the_birth_date_is_optional_where_no_age_rule_applies(client):
    english(client)
    free = factories.championship(
        slug="rm-free",
        starts_at=datetime(NEXT_YEAR, 3, 14, 9, tzinfo=UTC),
        rule_overrides={"adult_required_below": None},
    )
    text = client.get(f"/{free.slug}/register/individual/").text
    assert birth_date_label(text) == "Birth date"
    data = form(member(0, "Uten Dato", email="u@example.org", birth="", region="Rogaland"))
    assert client.post(f"/{free.slug}/register/individual/", data).status_code == 302


def test_a_missing_birth_date_is_refused_with_the_reason(client, sm):
    english(client)
    data = form(member(0, "Sven", email="sven@example.se", birth="", citizenship="SE"))
    response = client.post(f"/{sm.slug}/register/individual/", data)
    assert response.status_code == 200
    assert "Give the birth date: this category has an age limit." in response.text
    assert not Entry.objects.exists()


# The live check agrees with the submit ----------------------------------------------------------


def check(client, championship, category, data):
    response = client.post(
        f"/{championship.slug}/register/{category}/check/", data, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    return response.text


def test_a_12_year_old_is_told_the_entry_will_be_refused_not_official(client, sm):
    english(client)
    twelve = member(
        0, "Lilla Lisa", email="lisa@example.se", birth=f"{NEXT_YEAR - 12}-01-01", citizenship="SE"
    )
    text = check(client, sm, "individual", form(twelve))
    assert 'class="officiality refused"' in text
    assert "As filled in, the entry will be refused:" in text
    assert "Lilla Lisa: Too young for this category (12 on the day of the championship)." in text
    assert "will be official" not in text
    # Submitting says the same, and saves nothing.
    response = client.post(f"/{sm.slug}/register/individual/", form(twelve))
    assert "Too young for this category (12 on the day of the championship)." in response.text
    assert not Entry.objects.exists()
    # Fourteen on the day: official, and the submit takes it.
    fourteen = member(
        0, "Stora Stina", email="s@example.se", birth=f"{NEXT_YEAR - 14}-05-08", citizenship="SE"
    )
    assert "The entry will be official." in check(client, sm, "individual", form(fourteen))
    assert client.post(f"/{sm.slug}/register/individual/", form(fourteen)).status_code == 302


def test_a_refused_12_year_old_reads_the_age_limit_once_and_their_own_age_once(client, sm):
    english(client)
    twelve = member(
        0, "Lilla Lisa", email="lisa@example.se", birth=f"{NEXT_YEAR - 12}-01-01", citizenship="SE"
    )
    text = client.post(f"/{sm.slug}/register/individual/", form(twelve)).text
    field = text[text.index('<label for="id_members-0-birth_date">') :]
    field = field[: field.index('<div class="field')]
    help_text = "The minimum age in this category is 14 on the day of the championship."
    error = "Too young for this category (12 on the day of the championship)."
    assert text.count(help_text) == 1 and text.count(error) == 1
    assert field.index(help_text) < field.index(error)


def test_a_child_without_an_adult_is_told_before_submitting(client, rm):
    english(client)
    members = (
        member(0, "Mor", email="mor@example.org", region="Rogaland"),
        member(1, "Barn", birth=f"{NEXT_YEAR - 9}-01-01", region="Rogaland"),
    )
    text = check(client, rm, "pair", form(*members))
    assert "As filled in, the entry will be refused:" in text
    assert "Barn is under 16 on the day of the championship: name the accompanying adult." in text
    text = check(client, rm, "pair", form(*members, adult_name="Mor"))
    assert "The entry will be official." in text


def test_what_is_not_filled_in_yet_is_not_a_refusal(client, sm):
    english(client)
    # No e-mail and no birth date yet: the box speaks of officiality only.
    text = check(client, sm, "individual", form(member(0, "Sven", birth="", citizenship="SE")))
    assert "The entry will be official." in text and "refused" not in text


def test_a_member_already_registered_is_told_before_submitting(client):
    english(client)
    dm = factories.championship(
        slug=f"dm-{NEXT_YEAR}", ruleset="dm", starts_at=datetime(NEXT_YEAR, 5, 1, 9, tzinfo=UTC)
    )
    individual = dm.categories.get(kind="individual")
    factories.entry(
        individual, members=[factories.person(dm, name="Mette", email="mette@example.dk")]
    )
    data = form(member(0, "Mette Hansen", email="mette@example.dk"))
    text = check(client, dm, "individual", data)
    assert (
        "Mette Hansen: mette@example.dk is already registered in this category: one entry per "
        "person." in text
    )


# Consent, member by member --------------------------------------------------------------------


def test_each_member_of_a_pair_is_asked_for_consent(client, rm):
    english(client)
    text = client.get(f"/{rm.slug}/register/pair/").text
    for index in (0, 1):
        assert f'name="members-{index}-publish_consent"' in text
    assert 'name="publish_consent"' not in text
    assert text.count("This member agrees that the name may be published") == 2
    individual = client.get(f"/{rm.slug}/register/individual/").text
    assert "I agree that the name may be published in entry and result lists." in individual


def test_only_the_consenting_member_of_a_pair_is_published(client, sm):
    english(client)
    data = form(
        member(
            0,
            "Åsa Öberg",
            email="asa@example.se",
            citizenship="SE",
            city="Malmö",
            publish_consent="on",
        ),
        member(1, "Hemliga Hanna", birth="1985-02-02", citizenship="SE", city="Lund"),
        name="Öberg & Hemliga",
    )
    response = client.post(f"/{sm.slug}/register/pair/", data)
    assert response.status_code == 302
    entry = Entry.objects.get()
    consents = dict(Person.objects.values_list("name", "publish_consent"))
    assert consents == {"Åsa Öberg": True, "Hemliga Hanna": False}
    assert entry.publish_consent is False  # not every member consents
    text = client.get(f"/{sm.slug}/").text
    assert "Åsa Öberg" in text and "Malmö" in text
    assert "Hemliga" not in text and "Lund" not in text
    start = text.rindex("<li>", 0, text.index("Åsa Öberg"))
    listed = text[start : text.index("</li>", start)]
    assert "Öberg &amp; Hemliga" not in listed  # the entry's name: not everyone consents
    assert listed.count("Name withheld") == 1  # Hanna


def test_the_entrant_gives_or_takes_back_a_members_consent_on_the_private_page(client, rm):
    english(client)
    pair = rm.categories.get(kind="pair")
    first = factories.person(
        rm,
        name="En",
        email="en@example.org",
        region="Rogaland",
        birth_date=date(1980, 1, 1),
        publish_consent=True,
    )
    second = factories.person(
        rm,
        name="To",
        email="to@example.org",
        region="Rogaland",
        birth_date=date(1981, 1, 1),
        publish_consent=True,
    )
    entry = factories.entry(pair, members=[first, second], publish_consent=True)
    page = client.get(f"/{rm.slug}/entries/{entry.manage_token}/")
    assert page.text.count("checked") >= 2
    data = {
        **form(
            member(0, "En", email="en@example.org", region="Rogaland", publish_consent="on"),
            member(1, "To", email="to@example.org", birth="1981-01-01", region="Rogaland"),
        ),
        "members-INITIAL_FORMS": "2",
    }
    response = client.post(f"/{rm.slug}/entries/{entry.manage_token}/", data)
    assert response.status_code == 302
    first.refresh_from_db(), second.refresh_from_db(), entry.refresh_from_db()
    assert (first.publish_consent, second.publish_consent, entry.publish_consent) == (
        True,
        False,
        False,
    )


def test_correcting_one_member_keeps_the_others(client, rm):
    english(client)
    pair = rm.categories.get(kind="pair")
    first = factories.person(
        rm, name="En", email="en@example.org", region="Rogaland", birth_date=date(1980, 1, 1)
    )
    second = factories.person(
        rm, name="To", email="to@example.org", region="Rogaland", birth_date=date(1981, 1, 1)
    )
    entry = factories.entry(pair, members=[first, second])
    page = client.get(f"/{rm.slug}/entries/{entry.manage_token}/")
    data = {}
    formset = page.context["formset"]
    for each in [formset.management_form, *formset.forms]:
        for name in each.fields:
            value = each[name].value()
            if value not in (None, False):
                data[each[name].html_name] = "on" if value is True else value
    data["members-0-name"] = "Ein"
    assert client.post(f"/{rm.slug}/entries/{entry.manage_token}/", data).status_code == 302
    assert list(entry.members.order_by("memberships__position").values_list("name", flat=True)) == [
        "Ein",
        "To",
    ]


def test_the_api_takes_each_members_consent(client, sm):
    body = {
        "members": [
            {
                "name": "Anna",
                "email": "anna@example.se",
                "birth_date": "1980-02-01",
                "citizenship": "SE",
                "publish_consent": True,
            },
            {
                "name": "Bo",
                "birth_date": "1978-06-30",
                "citizenship": "SE",
                "publish_consent": False,
            },
        ],
        "publish_consent": True,
    }
    response = client.post(
        f"/api/v1/championships/{sm.slug}/categories/pair/entries/",
        body,
        content_type="application/json",
    )
    assert response.status_code == 201, response.content
    assert dict(Person.objects.values_list("name", "publish_consent")) == {
        "Anna": True,
        "Bo": False,
    }
    assert Entry.objects.get().publish_consent is False
    # A member who says nothing takes the registration's consent.
    body = {
        "members": [
            {
                "name": "Cia",
                "email": "cia@example.se",
                "birth_date": "1980-02-01",
                "citizenship": "SE",
            }
        ],
        "publish_consent": True,
    }
    client.post(
        f"/api/v1/championships/{sm.slug}/categories/individual/entries/",
        body,
        content_type="application/json",
    )
    assert Person.objects.get(name="Cia").publish_consent is True
    assert Entry.objects.get(name="Cia").publish_consent is True


def test_registration_still_closes_at_the_deadline(client, db):
    soon = factories.championship(slug="rm-soon", starts_at=timezone.now() + timedelta(days=4))
    english(client)
    text = client.get(f"/{soon.slug}/").text
    assert text.count("Registration has closed.") == 3
    assert text.count('<dd class="registration-deadline">') == 3
