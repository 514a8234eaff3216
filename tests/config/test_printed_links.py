"""Every kind of link the site printed or mailed still opens the same page.

Each address is written out as it was printed (a card, a badge, a diploma, a
mail), never made with ``reverse``: a change of the URLconf that moves one of
them fails here.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.tokens import default_token_generator
from django.contrib.auth.views import PasswordResetConfirmView
from django.urls import resolve
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from championship import staff_links, staff_views
from championship.models import ChampionshipRole
from core import tokens
from judging import views as judging_views
from registration import address_views, addresses, checkin, organiser_checkin
from registration.models import Entry
from results import diploma_views, entry_page
from tests import factories
from tests.results.test_diplomas import run

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]

Role = ChampionshipRole.Role
# A private link mailed before links were derived: stored as it was, now only as its hash.
LEGACY_TOKEN = "Qk9x3-rTj0Yh_aZ1c2V3bA"


@pytest.fixture
def entry(championship):
    individual = championship.categories.get(kind="individual")
    person = factories.person(championship, name="Kari Nordmann", email="kari@example.org")
    return factories.entry(individual, members=[person], contact_email="kari@example.org")


def opens(client, path, view):
    assert resolve(path).func == view
    return client.get(path)


def test_a_table_cards_qr_code(client, championship, judge):
    table = factories.table(championship)
    client.force_login(judge)
    response = opens(client, f"/t/{table.token}/", judging_views.table)
    assert response.status_code == 200


def test_a_staff_badge_or_sign_in_mail(client, championship, organiser):
    link = staff_links.link_create(
        championship=championship, name="Kari Judge", role=Role.JUDGE, by=organiser, send=False
    )
    token = staff_links.sign_in_token(link)
    response = opens(client, f"/s/{token}/", staff_views.sign_in)
    assert response.status_code == 200 and "Kari Judge" in response.text


def test_a_diplomas_qr_code(client, championship, organiser):
    final = run(championship)
    entry = final.category.entries.get(name="Åse Øvrebø Ærø")
    path = f"/{championship.slug}/results/{final.key}/{entry.ref}/"
    response = opens(client, path, diploma_views.result_detail)
    assert response.status_code == 200 and "Åse Øvrebø Ærø" in response.text


def test_an_entrants_private_link(client, championship, entry):
    path = f"/{championship.slug}/entries/{entry.manage_token}/"
    response = opens(client, path, entry_page.entry_page)
    assert response.status_code == 200 and "Kari Nordmann" in response.text


def test_an_entrants_private_link_mailed_before_links_were_derived(client, championship, entry):
    Entry.objects.filter(pk=entry.pk).update(legacy_token_hash=tokens.token_hash(LEGACY_TOKEN))
    path = f"/{championship.slug}/entries/{LEGACY_TOKEN}/"
    response = opens(client, path, entry_page.entry_page)
    assert response.status_code == 200 and "Kari Nordmann" in response.text


def test_an_address_confirmation_link(client, championship, entry):
    person = entry.members.get()
    token = addresses.address_token(person)
    path = f"/{championship.slug}/address/{token}/"
    response = opens(client, path, address_views.confirm_address)
    assert response.status_code == 200 and "Kari Nordmann" in response.text


def test_a_check_in_qr_code(client, championship, organiser, entry):
    client.force_login(organiser)
    code = checkin.checkin_code(entry)
    path = f"/{championship.slug}/manage/checkin/code/{code}/"
    response = opens(client, path, organiser_checkin.checkin_code)
    assert response.status_code == 200 and "Kari Nordmann" in response.text


def test_an_entrants_diploma(client, championship, organiser):
    final = run(championship)
    entry = final.category.entries.get(name="Bjørn Hemmelig")
    path = f"/{championship.slug}/entries/{entry.manage_token}/diploma/{final.key}.pdf"
    response = opens(client, path, diploma_views.entry_diploma)
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"


def test_a_password_reset_link(client):
    user = factories.user(email="kari@example.org")
    uidb64 = urlsafe_base64_encode(force_bytes(user.pk))
    token = default_token_generator.make_token(user)
    path = f"/accounts/reset/{uidb64}/{token}/"
    assert resolve(path).func.view_class is PasswordResetConfirmView
    response = client.get(path)
    # Django hides the token from the address bar: on to the form, with the token in the session.
    assert response.status_code == 302
    assert response["Location"] == f"/accounts/reset/{uidb64}/set-password/"
    assert client.get(response["Location"]).status_code == 200
