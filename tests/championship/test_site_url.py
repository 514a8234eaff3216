"""QR codes and e-mailed links lead to this server: SITE_URL if set, else the request's address."""

import logging

import pytest
from django.core import checks, mail
from django.urls import reverse

from championship import cards
from championship.models import Category, ChampionshipRole
from championship.services import tables_create
from config import env
from control import rounds
from core import site_url
from core.checks import site_url_check
from registration import services
from registration.models import Entry
from tests import factories
from tests.config.test_settings import run_manage
from tests.control.test_cards import decode, png_pixels, rasterise, svg_modules
from tests.registration.test_views import management, member_data

pytestmark = pytest.mark.django_db

Role = ChampionshipRole.Role
LAN = "192.168.1.23:8000"  # a server on the venue's network, as phones reach it


@pytest.fixture(autouse=True)
def no_site_url(settings):
    """Run as a fresh installation does: SITE_URL unset; the LAN address allowed."""
    settings.SITE_URL = ""
    settings.ALLOWED_HOSTS = ["testserver", "127.0.0.1", "192.168.1.23", "puzzle.example.org"]


@pytest.fixture
def seated(rm):
    individual = rm.categories.get(kind="individual")
    tables_create(championship=rm, count=2)
    for _ in range(2):
        factories.entry(individual)
    final = individual.rounds.get()
    rounds.round_seat(round_=final)
    return final


def cards_page(client, round_, **extra):
    client.force_login(factories.role(round_.championship, Role.ORGANISER))
    response = client.get(
        reverse(
            "manage:cards",
            kwargs={"championship_slug": round_.championship.slug, "round_key": round_.key},
        ),
        **extra,
    )
    assert response.status_code == 200
    return {
        card["table"].token: decode(rasterise(svg_modules(card["qr"])))
        for card in response.context["cards"]
    }


# Table cards and QR images ---------------------------------------------------------------------


def test_without_site_url_the_cards_carry_the_address_they_were_opened_at(client, seated):
    decoded = cards_page(client, seated, HTTP_HOST=LAN)
    assert decoded == {token: f"http://{LAN}/t/{token}/" for token in decoded}
    assert len(decoded) == 2


def test_cards_opened_over_https_carry_https(client, seated):
    decoded = cards_page(client, seated, HTTP_HOST="puzzle.example.org", secure=True)
    assert all(url == f"https://puzzle.example.org/t/{token}/" for token, url in decoded.items())


def test_with_site_url_the_cards_carry_it_whatever_the_request(client, seated, settings):
    settings.SITE_URL = "https://puzzle.example.org"
    decoded = cards_page(client, seated, HTTP_HOST=LAN)
    assert decoded == {token: f"https://puzzle.example.org/t/{token}/" for token in decoded}


def test_the_downloaded_qr_image_carries_the_requests_address(client, rm):
    table = factories.table(rm, number=5)
    client.force_login(factories.role(rm, Role.ORGANISER))
    response = client.get(
        reverse("manage:table_qr", kwargs={"championship_slug": rm.slug, "number": 5}),
        HTTP_HOST=LAN,
    )
    assert decode(png_pixels(response.content)) == f"http://{LAN}/t/{table.token}/"


def test_outside_a_request_without_site_url_no_address_is_guessed(rm):
    table = factories.table(rm, number=1)
    with pytest.raises(site_url.SiteURLUnknown, match="SITE_URL"):
        cards.table_url(table)


def test_an_address_is_never_the_old_default_of_port_8000(client, seated):
    decoded = cards_page(client, seated)
    assert all(url.startswith("http://testserver/t/") for url in decoded.values())
    assert not any("127.0.0.1:8000" in url for url in decoded.values())


# E-mails ---------------------------------------------------------------------------------------


def register_by_form(client, championship, **extra):
    data = {**management(1), **member_data(0, name="Kari Nordmann", email="kari@example.org")}
    response = client.post(f"/{championship.slug}/register/individual/", data, **extra)
    assert response.status_code == 302
    return Entry.objects.get(contact_email="kari@example.org")


def test_the_confirmation_links_to_the_address_the_form_was_sent_to(
    client, rm, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        entry = register_by_form(client, rm, HTTP_HOST=LAN)
    (message,) = mail.outbox
    assert f"http://{LAN}/{rm.slug}/entries/{entry.manage_token}/" in message.body


def test_with_site_url_the_confirmation_links_to_it(
    client, rm, settings, django_capture_on_commit_callbacks
):
    settings.SITE_URL = "https://puzzle.example.org"
    with django_capture_on_commit_callbacks(execute=True):
        entry = register_by_form(client, rm, HTTP_HOST=LAN)
    (message,) = mail.outbox
    assert f"https://puzzle.example.org/{rm.slug}/entries/{entry.manage_token}/" in message.body
    assert LAN not in message.body


def test_a_new_private_link_and_a_promotion_link_to_the_organisers_address(
    client, rm, django_capture_on_commit_callbacks
):
    individual = rm.categories.get(kind="individual")
    Category.objects.filter(pk=individual.pk).update(capacity=1)
    first = factories.entry(individual, contact_email="first@example.org")
    waiting = factories.entry(
        individual, contact_email="second@example.org", status=Entry.Status.WAITLISTED
    )
    client.force_login(factories.role(rm, Role.ORGANISER))
    base = f"/{rm.slug}/manage/entries"
    with django_capture_on_commit_callbacks(execute=True):
        client.post(f"{base}/{first.pk}/new-link/", HTTP_HOST=LAN, secure=True)
        client.post(f"{base}/{waiting.pk}/promote/", HTTP_HOST=LAN, secure=True)
    first.refresh_from_db()
    waiting.refresh_from_db()
    assert waiting.status == Entry.Status.CONFIRMED
    bodies = {message.to[0]: message.body for message in mail.outbox}
    assert f"https://{LAN}/{rm.slug}/entries/{first.manage_token}/" in bodies["first@example.org"]
    assert (
        f"https://{LAN}/{rm.slug}/entries/{waiting.manage_token}/" in bodies["second@example.org"]
    )


def test_a_withdrawal_by_the_organiser_tells_the_promoted_entry_the_organisers_address(
    client, rm, django_capture_on_commit_callbacks
):
    individual = rm.categories.get(kind="individual")
    Category.objects.filter(pk=individual.pk).update(capacity=1)
    first = factories.entry(individual, contact_email="first@example.org")
    waiting = factories.entry(
        individual, contact_email="second@example.org", status=Entry.Status.WAITLISTED
    )
    client.force_login(factories.role(rm, Role.ORGANISER))
    with django_capture_on_commit_callbacks(execute=True):
        client.post(
            f"/{rm.slug}/manage/entries/{first.pk}/withdraw/", {"confirm": "yes"}, HTTP_HOST=LAN
        )
    (promoted,) = [m for m in mail.outbox if m.to == ["second@example.org"]]
    assert f"http://{LAN}/{rm.slug}/entries/{waiting.manage_token}/" in promoted.body


def test_the_api_answers_the_private_link_on_the_requests_address(client, rm):
    response = client.post(
        f"/api/v1/championships/{rm.slug}/categories/individual/entries/",
        {
            "name": "Kari Nordmann",
            "members": [
                {
                    "name": "Kari Nordmann",
                    "email": "kari@example.org",
                    "birth_date": "1990-05-01",
                    "city": "Stavanger",
                    "country": "NO",
                    "citizenship": ["NO"],
                    "region": "Rogaland",
                }
            ],
            "publish_consent": True,
        },
        content_type="application/json",
        HTTP_HOST=LAN,
    )
    assert response.status_code == 201, response.content
    entry = Entry.objects.get()
    assert response.json()["manage_url"] == (
        f"http://{LAN}/{rm.slug}/entries/{entry.manage_token}/"
    )


def test_a_mail_queued_outside_a_request_without_site_url_warns_and_guesses_no_address(
    rm, caplog, django_capture_on_commit_callbacks
):
    individual = rm.categories.get(kind="individual")
    entry = factories.entry(individual, contact_email="me@example.org")
    with (
        caplog.at_level(logging.WARNING, logger="registration.notifications"),
        django_capture_on_commit_callbacks(execute=True),
    ):
        services.entry_rotate_manage_link(entry=entry)
    entry.refresh_from_db()
    (message,) = mail.outbox
    path = f"/{rm.slug}/entries/{entry.manage_token}/"
    assert path in message.body
    assert "127.0.0.1" not in message.body and "http" not in message.body
    (record,) = [r for r in caplog.records if r.name == "registration.notifications"]
    assert "SITE_URL is not set" in record.getMessage()


def test_a_mail_queued_outside_a_request_uses_site_url(
    rm, settings, caplog, django_capture_on_commit_callbacks
):
    settings.SITE_URL = "https://puzzle.example.org"
    entry = factories.entry(rm.categories.get(kind="individual"), contact_email="me@example.org")
    with django_capture_on_commit_callbacks(execute=True):
        services.entry_rotate_manage_link(entry=entry)
    entry.refresh_from_db()
    (message,) = mail.outbox
    assert f"https://puzzle.example.org/{rm.slug}/entries/{entry.manage_token}/" in message.body
    assert not [r for r in caplog.records if r.name == "registration.notifications"]


# Configuration and the deployment check --------------------------------------------------------


def test_site_url_is_unset_by_default_and_read_without_a_trailing_slash():
    assert env.site_url({}) == ""
    assert env.site_url({"SITE_URL": " https://puzzle.example.org/ "}) == (
        "https://puzzle.example.org"
    )
    assert env.site_url({"SITE_URL": "http://192.168.1.23:8000"}) == "http://192.168.1.23:8000"


@pytest.mark.parametrize("value", ["puzzle.example.org", "ftp://x.example", "https://x.org/app/"])
def test_a_site_url_that_is_not_a_sites_address_is_refused(value):
    with pytest.raises(env.ConfigurationError, match="SITE_URL"):
        env.site_url({"SITE_URL": value})


def deploy_messages():
    return {
        message.id: message
        for message in checks.run_checks(include_deployment_checks=True)
        if message.id.startswith("championship.")
    }


def test_the_deploy_check_warns_without_site_url():
    found = deploy_messages()
    assert set(found) == {"championship.W001"}
    assert found["championship.W001"].level == checks.WARNING
    assert "SITE_URL" in found["championship.W001"].msg
    assert site_url_check() == [found["championship.W001"]]


def test_the_deploy_check_warns_of_a_site_url_on_this_machine(settings):
    settings.SITE_URL = "http://127.0.0.1:8000"
    assert set(deploy_messages()) == {"championship.W002"}


def test_the_deploy_check_is_quiet_with_a_public_site_url(settings):
    settings.SITE_URL = "https://puzzle.example.org"
    assert deploy_messages() == {}


def test_the_check_runs_only_for_deployment():
    assert not [
        message for message in checks.run_checks() if message.id.startswith("championship.")
    ]


def test_check_deploy_warns_when_production_runs_without_site_url():
    production = {
        "DEBUG": "false",
        "SECRET_KEY": "kq8s7Jd9-a-real-looking-secret-key-for-the-deploy-check-9f8e7d6c5b4a",
        "ALLOWED_HOSTS": "puzzle.example.org",
    }
    result = run_manage("check", "--deploy", "--fail-level", "WARNING", **production)
    assert result.returncode != 0
    assert "championship.W001" in result.stderr + result.stdout
    result = run_manage("check", "--deploy", **production, SITE_URL="https://puzzle.example.org")
    assert "championship.W" not in result.stderr + result.stdout
