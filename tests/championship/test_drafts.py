"""A championship starts as a draft: not listed, registration closed, seen by its staff only.

Its checklist says what it lacks; opening it publishes it and opens registration,
in the control room and through the API (``POST …/open/``, 409 with ``missing``).
"""

import json
from datetime import UTC, datetime, timedelta

import pytest
from django.conf import settings
from django.core.exceptions import ValidationError
from django.urls import reverse
from rest_framework.authtoken.models import Token

from championship import drafts
from championship.models import Championship, ChampionshipRole
from championship.services import organisers_group, tables_create
from registration import places
from tests import factories
from tests.factories import NEXT_YEAR

pytestmark = pytest.mark.django_db

Role = ChampionshipRole.Role
START = datetime(NEXT_YEAR, 3, 14, 9, tzinfo=UTC)
PAY = "Vipps {fee} to 123 45, marked {reference}."


@pytest.fixture
def client(client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


@pytest.fixture
def draft():
    """A Rogaland championship next year, a draft without payment instructions (its fees > 0)."""
    return factories.championship(slug="rm-draft", starts_at=START, draft=True)


@pytest.fixture
def organiser(draft):
    return factories.role(draft, Role.ORGANISER, username="kari")


def api(client, user, method, url, **kwargs):
    token = Token.objects.get_or_create(user=user)[0].key
    if method == "post":
        kwargs.setdefault("content_type", "application/json")
    return getattr(client, method)(url, HTTP_AUTHORIZATION=f"Token {token}", **kwargs)


# The checklist and opening, as services.


def test_a_new_drafts_checklist_lacks_the_payment_instructions_only(draft):
    items = {item.key: item for item in drafts.checklist(draft)}
    assert list(items) == [
        "categories",
        "fees",
        "payment_instructions",
        "deadline",
        "rounds",
        "tables",
        "judges",
    ]
    assert [key for key, item in items.items() if not item.done] == [
        "payment_instructions",
        "tables",
        "judges",
    ]
    # Tables and judges are for the day: they do not hold the opening back.
    assert drafts.missing(draft) == ["payment_instructions"]
    assert "Individual" in items["categories"].detail
    assert "Individual: 200 NOK" in items["fees"].detail


def test_opening_is_refused_naming_what_is_missing_and_changes_nothing(draft):
    with pytest.raises(ValidationError) as refused:
        drafts.championship_open(championship=draft)
    assert refused.value.params["missing"] == ["payment_instructions"]
    assert "Payment instructions" in refused.value.messages[0]
    draft.refresh_from_db()
    assert draft.draft is True


def test_a_free_championship_needs_no_payment_instructions(draft):
    draft.categories.update(fee=0)
    assert drafts.missing(draft) == []
    opened = drafts.championship_open(championship=draft)
    assert opened.draft is False
    # Opening again changes nothing.
    assert drafts.championship_open(championship=opened).draft is False


def test_a_deadline_already_passed_and_a_category_without_rounds_hold_the_opening_back(draft):
    draft.payment_instructions = PAY
    draft.save()
    individual = draft.categories.get(kind="individual")
    individual.rounds.all().delete()
    after_the_deadline = draft.effective_registration_deadline() + timedelta(minutes=1)
    assert drafts.missing(draft, now=after_the_deadline) == ["deadline", "rounds"]
    items = {item.key: item for item in drafts.checklist(draft, now=after_the_deadline)}
    assert "has passed" in items["deadline"].detail
    assert "Individual" in items["rounds"].detail


def test_a_championship_without_categories_lacks_categories_fees_and_rounds():
    empty = factories.championship(slug="empty", starts_at=START, with_categories=False)
    assert drafts.missing(empty) == ["categories", "fees", "rounds"]


def test_tables_and_judges_are_ticked_once_there(draft):
    tables_create(championship=draft, count=4)
    factories.role(draft, Role.JUDGE)
    factories.role(draft, Role.HEAD_JUDGE)
    items = {item.key: item for item in drafts.checklist(draft)}
    assert items["tables"].done and items["tables"].detail == "4 tables."
    assert items["judges"].done and items["judges"].detail == "2 judges."


def test_a_draft_takes_no_registrations_until_it_is_open(draft):
    draft.payment_instructions = PAY
    draft.save()
    individual = draft.categories.get(kind="individual")
    assert places.registration_state(individual) == places.CLOSED
    drafts.championship_open(championship=draft)
    draft.refresh_from_db()
    individual = draft.categories.get(kind="individual")
    assert places.registration_state(individual) == places.OPEN


# Who sees a draft's pages.


def test_a_drafts_public_pages_are_shown_to_its_staff_only(client, draft, organiser):
    judge = factories.role(draft, Role.JUDGE)
    stranger = factories.user()
    page = draft.get_absolute_url()
    register = reverse(
        "registration:register",
        kwargs={"championship_slug": draft.slug, "category_key": "individual"},
    )
    for url in (page, register):
        assert client.get(url).status_code == 404
    client.force_login(stranger)
    assert client.get(page).status_code == 404
    for staff in (organiser, judge):
        client.force_login(staff)
        response = client.get(page)
        assert response.status_code == 200
        assert "only this championship's staff see this page" in response.content.decode()


def test_a_drafts_organiser_pages_send_a_visitor_to_log_in(client, draft):
    response = client.get(reverse("manage:control_room", kwargs={"championship_slug": draft.slug}))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_its_staff_find_a_draft_marked_on_their_home_page(client, draft, organiser):
    client.force_login(organiser)
    html = client.get(reverse("home")).content.decode()
    card = html[html.index("Your championships") :]
    assert draft.name in card and 'class="state state-draft"' in card


def test_an_open_championship_is_listed_and_its_pages_public(client, draft):
    home = client.get(reverse("home")).content.decode()
    assert draft.name not in home
    draft.payment_instructions = PAY
    draft.save()
    drafts.championship_open(championship=draft)
    assert draft.name in client.get(reverse("home")).content.decode()
    response = client.get(draft.get_absolute_url())
    assert response.status_code == 200
    assert "A draft" not in response.content.decode()


# The control room.


def test_the_control_room_shows_the_checklist_and_opens_when_it_holds(client, draft, organiser):
    client.force_login(organiser)
    room = reverse("manage:control_room", kwargs={"championship_slug": draft.slug})
    html = client.get(room).content.decode()
    assert 'data-item="payment_instructions"' in html
    assert "Open registration" in html
    opening = reverse("manage:open", kwargs={"championship_slug": draft.slug})

    refused = client.post(opening, follow=True)
    assert "Registration cannot open yet: Payment instructions." in refused.content.decode()
    draft.refresh_from_db()
    assert draft.draft is True

    draft.payment_instructions = PAY
    draft.save()
    opened = client.post(opening, follow=True)
    assert "Registration is open, and the championship is listed" in opened.content.decode()
    assert "Open registration" not in opened.content.decode()
    draft.refresh_from_db()
    assert draft.draft is False


def test_only_an_organiser_opens_a_draft(client, draft):
    judge = factories.role(draft, Role.JUDGE)
    draft.payment_instructions = PAY
    draft.save()
    client.force_login(judge)
    response = client.post(reverse("manage:open", kwargs={"championship_slug": draft.slug}))
    assert response.status_code == 403
    draft.refresh_from_db()
    assert draft.draft is True


# The API.


def test_the_api_opens_a_draft_or_answers_409_with_what_is_missing(client, draft, organiser):
    url = reverse("api:championship-open", kwargs={"championship_slug": draft.slug})
    refused = api(client, organiser, "post", url)
    assert refused.status_code == 409
    assert refused.json()["missing"] == ["payment_instructions"]
    assert Championship.objects.get(pk=draft.pk).draft is True

    draft.payment_instructions = PAY
    draft.save()
    opened = api(client, organiser, "post", url)
    assert opened.status_code == 200
    assert opened.json()["draft"] is False
    # Once open, anyone reads it, and it is listed.
    detail = client.get(reverse("api:championship-detail", args=[draft.slug]))
    assert detail.status_code == 200
    assert [c["slug"] for c in client.get("/api/v1/championships/").json()] == [draft.slug]


def test_the_api_lets_only_organisers_open(client, draft):
    url = reverse("api:championship-open", kwargs={"championship_slug": draft.slug})
    assert client.post(url, content_type="application/json").status_code == 401
    judge = factories.role(draft, Role.JUDGE)
    assert api(client, judge, "post", url).status_code == 403
    assert api(client, judge, "get", reverse("api:championship-detail", args=[draft.slug])).json()[
        "draft"
    ]


def test_a_championship_created_through_the_api_with_its_payment_text_opens_at_once(client):
    creator = factories.user(username="creator")
    creator.groups.add(organisers_group())
    body = {
        "preset": "rogaland",
        "name": "RM",
        "slug": "rm-api",
        "starts_at": f"{NEXT_YEAR}-03-14T10:00",
        "payment_instructions": PAY,
        "registration_deadline": f"{NEXT_YEAR}-03-01T23:59",
    }
    created = api(
        client,
        creator,
        "post",
        "/api/v1/championships/",
        data=json.dumps(body),
        content_type="application/json",
    )
    assert created.status_code == 201, created.json()
    assert created.json()["draft"] is True
    assert created.json()["registration_deadline"] == f"{NEXT_YEAR}-03-01T22:59:00Z"
    url = reverse("api:championship-open", kwargs={"championship_slug": "rm-api"})
    # Opening takes no body; a body in another format than JSON is refused.
    assert api(client, creator, "post", url, data='{"x": 1}').status_code == 400
    assert (
        api(client, creator, "post", url, data="a=b", content_type="text/plain").status_code == 415
    )
    assert Championship.objects.get(slug="rm-api").draft
    assert api(client, creator, "post", url).status_code == 200


def test_the_api_answers_a_registration_for_a_drafts_category_as_for_an_unknown_one(client, draft):
    url = f"/api/v1/championships/{draft.slug}/categories/individual/entries/"
    body = {"members": [{"name": "Ola", "email": "ola@example.org", "birth_date": "1990-01-01"}]}
    response = client.post(url, json.dumps(body), content_type="application/json")
    assert response.status_code == 404
    assert not draft.categories.get(kind="individual").entries.exists()
