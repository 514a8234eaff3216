"""Team changes: a pair or team changes its members through its private link until the
championship's deadline (sm: two weeks before), with every rule checked again."""

from datetime import date, timedelta

import pytest
from django.conf import settings
from django.utils import timezone

from championship.models import Championship
from registration import places
from tests import factories

pytestmark = pytest.mark.django_db


def swede(championship, name, **fields):
    fields.setdefault("birth_date", date(1990, 1, 1))
    return factories.person(championship, name=name, citizenship=["SE"], **fields)


def sm_starting_in(days: int) -> Championship:
    """A Pussel-SM starting in ``days`` days whose registration closed yesterday."""
    now = timezone.now()
    championship = factories.championship(ruleset="sm", starts_at=now + timedelta(days=days))
    Championship.objects.filter(pk=championship.pk).update(
        registration_deadline=now - timedelta(days=1)
    )
    championship.refresh_from_db()
    return championship


def a_pair(championship):
    pair = championship.categories.get(kind="pair")
    members = [swede(championship, "Anna Ek"), swede(championship, "Bo Berg")]
    return factories.entry(pair, members=members, publish_consent=True)


def form_data(client, entry):
    """The private page's form as it comes, to change and send."""
    page = client.get(f"/{entry.category.championship.slug}/entries/{entry.manage_token}/")
    formset = page.context["formset"]
    data = {}
    for each in [page.context["entry_form"], formset.management_form, *formset.forms]:
        for name in each.fields:
            value = each[name].value()
            if value not in (None, False):
                data[each[name].html_name] = "on" if value is True else value
    return page, data


def test_the_sm_preset_gives_two_weeks_and_the_others_none():
    assert factories.championship(ruleset="sm").member_changes_days_before == 14
    assert factories.championship(ruleset="dm").member_changes_days_before is None
    assert factories.championship(ruleset="rogaland").member_changes_days_before is None


def test_a_pair_changes_a_member_after_registration_closed_until_two_weeks_before(client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    championship = sm_starting_in(20)
    entry = a_pair(championship)
    assert places.details_editable(entry)
    page, data = form_data(client, entry)
    assert "Change members or correct details" in page.content.decode()
    assert "You can make changes until" in page.content.decode()
    data.update(
        {
            "members-1-name": "Cecilia Dahl",
            "members-1-email": "cecilia@example.org",
            "members-1-citizenship": "SE",
            "members-1-birth_date": "1995-05-05",
        }
    )
    url = f"/{championship.slug}/entries/{entry.manage_token}/"
    assert client.post(url, data).status_code == 302
    names = list(entry.members.order_by("memberships__position").values_list("name", flat=True))
    assert names == ["Anna Ek", "Cecilia Dahl"]
    entry.refresh_from_db()
    assert entry.name == "Anna Ek & Cecilia Dahl"


def test_a_changed_member_is_checked_again_and_officiality_follows(client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    championship = sm_starting_in(20)
    entry = a_pair(championship)
    _page, data = form_data(client, entry)
    url = f"/{championship.slug}/entries/{entry.manage_token}/"
    # Too young without an accompanying adult: refused, nothing changes.
    young = {**data, "members-1-name": "Liten", "members-1-birth_date": "2020-01-01"}
    refused = client.post(url, young)
    assert refused.status_code == 200 and "accompanying adult" in refused.text
    assert "Bo Berg" in entry.members.values_list("name", flat=True)
    # A Norwegian partner: accepted (sm allows unofficial entries), and the pair is unofficial.
    norwegian = {**data, "members-1-name": "Ola Nordmann", "members-1-citizenship": "NO"}
    assert client.post(url, norwegian).status_code == 302
    page = client.get(url).content.decode()
    assert "Ola Nordmann" in page and "No (hors concours)" in page


def test_after_the_deadline_nothing_changes(client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    championship = sm_starting_in(10)  # two weeks before was four days ago
    entry = a_pair(championship)
    assert not places.details_editable(entry)
    page, data = form_data(client, entry)
    assert "Change members or correct details" not in page.content.decode()
    data["members-1-name"] = "Sent Too Late"
    client.post(f"/{championship.slug}/entries/{entry.manage_token}/", data)
    assert "Sent Too Late" not in entry.members.values_list("name", flat=True)


def test_an_individual_changes_nothing_once_registration_closed(client):
    championship = sm_starting_in(20)
    individual = championship.categories.get(kind="individual")
    entry = factories.entry(individual, members=[swede(championship, "Solo")])
    assert not places.details_editable(entry)
    # Without a deadline of its own (dm), a pair too stops when registration closes.
    dm = factories.championship(ruleset="dm", starts_at=timezone.now() + timedelta(days=20))
    Championship.objects.filter(pk=dm.pk).update(
        registration_deadline=timezone.now() - timedelta(days=1)
    )
    dm.refresh_from_db()
    pair = factories.entry(dm.categories.get(kind="pair"))
    assert not places.details_editable(pair)


def test_dm_one_entry_per_person_is_checked_on_a_change(client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    dm = factories.championship(ruleset="dm", starts_at=timezone.now() + timedelta(days=30))
    Championship.objects.filter(pk=dm.pk).update(member_changes_days_before=7)
    dm.refresh_from_db()
    pair_category = dm.categories.get(kind="pair")
    taken = factories.person(dm, name="Taken", email="taken@example.org", citizenship=["DK"])
    factories.entry(
        pair_category, members=[taken, factories.person(dm, name="Other", citizenship=["DK"])]
    )
    entry = factories.entry(
        pair_category,
        members=[
            factories.person(dm, name="Mine", citizenship=["DK"], birth_date=date(1990, 1, 1)),
            factories.person(dm, name="Partner", citizenship=["DK"], birth_date=date(1990, 1, 1)),
        ],
    )
    _page, data = form_data(client, entry)
    data.update({"members-1-name": "Taken", "members-1-email": "TAKEN@example.org"})
    response = client.post(f"/{dm.slug}/entries/{entry.manage_token}/", data)
    assert response.status_code == 200
    assert "is already registered in this category: one entry per person." in response.text
    assert "Partner" in entry.members.values_list("name", flat=True)


def test_the_deadline_goes_through_the_interchange_format():
    from interchange.export import export_document
    from interchange.write import import_document

    sm = factories.championship(ruleset="sm", slug="sm-deadline")
    document = export_document(sm)
    assert document["championship"]["member_changes_days_before"] == 14
    document["championship"]["slug"] = "sm-again"
    document["championship"]["member_changes_days_before"] = None
    assert import_document(document).member_changes_days_before is None
    del document["championship"]["member_changes_days_before"]
    document["championship"]["slug"] = "sm-preset"
    assert import_document(document).member_changes_days_before == 14
