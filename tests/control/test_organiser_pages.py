"""The pages of organiser accounts: the form, the administrators' page, the sign-in link.

And the two promises of a site with several organisers: each organiser sees only
their championships, and a championship may have several organisers.
"""

import re
import types
from datetime import UTC, datetime

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from django.core import mail
from django.test import Client, override_settings

from championship import services, staff_links
from championship.models import ChampionshipRole, OutgoingMail, SignInLink
from control import organiser_links, organiser_requests
from control.models import OrganiserRequest
from tests import factories
from tests.factories import NEXT_YEAR

pytestmark = pytest.mark.django_db

Status = OrganiserRequest.Status
SITE = "https://puzzle.example.org"
FORM = "/organisers/request/"
REQUESTS = "/organisers/requests/"
ASKED = {
    "name": "Kari Nordmann",
    "email": "kari@example.org",
    "club": "Stavanger puslelag",
    "message": "Rogalandsmesterskapet i mars, 60 puslere.",
}
throttled = override_settings(
    THROTTLE_ENABLED=True,
    THROTTLE_RATES={**settings.THROTTLE_RATES, "organiser-request": ["2/h"]},
)


@pytest.fixture(autouse=True)
def site_url(settings):
    settings.SITE_URL = SITE


@pytest.fixture(autouse=True)
def clock(monkeypatch):
    """The throttle's clock, fixed so that no window ends in the middle of a test."""
    monkeypatch.setattr(
        "django_ratelimit.core.time", types.SimpleNamespace(time=lambda: 1_900_000_000.0)
    )


def browser(language="en", address="203.0.113.5"):
    client = Client(REMOTE_ADDR=address)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return client


@pytest.fixture
def admin():
    return get_user_model().objects.create_superuser("root", "boss@example.org", "pw-123456789")


@pytest.fixture
def admin_client(admin):
    client = browser()
    client.force_login(admin)
    return client


def approved(email="kari@example.org", name="Kari Nordmann", by=None):
    request = organiser_requests.organiser_request_create(
        name=name, email=email, message="A championship.", language="en"
    )
    user = organiser_requests.organiser_request_approve(request=request, by=by).user
    return get_user_model().objects.get(pk=user.pk)


# The form ----------------------------------------------------------------------------------------


def test_the_form_asks_for_name_e_mail_club_and_the_championship_and_hides_its_honeypot():
    page = browser().get(FORM)
    assert page.status_code == 200
    text = page.text
    assert "<h1>Ask for an organiser account</h1>" in text
    for name in ("name", "email", "club", "message"):
        assert f'name="{name}"' in text
    trap = re.search(
        r'<div class="organiser-request-trap" aria-hidden="true">(.*?)</div>', text, re.S
    )
    assert trap is not None
    assert re.search(r'<input[^>]*name="website"[^>]*tabindex="-1"', trap.group(1))
    css = (settings.BASE_DIR / "static/control/organisers.css").read_text()
    assert re.search(r"\.organiser-request-trap \{[^}]*left: -10000px", css)


def test_a_request_sent_by_the_form_waits_and_the_page_says_what_happens_next(
    admin, django_capture_on_commit_callbacks
):
    visitor = browser(language="sv")
    with django_capture_on_commit_callbacks(execute=True):
        response = visitor.post(FORM, ASKED)
    assert response.status_code == 302 and response.url == "/organisers/request/sent/"
    request = OrganiserRequest.objects.get()
    assert (request.name, request.email, request.club) == (
        "Kari Nordmann",
        "kari@example.org",
        "Stavanger puslelag",
    )
    assert request.language == "sv" and request.status == Status.PENDING
    assert [m.to for m in mail.outbox] == [["boss@example.org"]]
    thanks = browser().get(response.url).text
    assert "Thank you: your request is sent" in thanks
    assert "They approve or refuse it, and you get an e-mail either way" in thanks
    assert "within 3 days" in thanks


def test_a_form_with_bad_input_says_why_and_records_nothing():
    page = browser().post(FORM, {**ASKED, "name": "", "email": "kari@", "message": " "})
    assert page.status_code == 200
    assert page.text.count('class="errors" role="alert"') == 3
    assert "Enter a valid email address." in page.text
    assert not OrganiserRequest.objects.exists()


def test_a_second_request_from_a_waiting_address_is_refused_on_the_form():
    browser().post(FORM, ASKED)
    page = browser().post(FORM, {**ASKED, "email": "KARI@example.org"})
    assert page.status_code == 200
    assert "A request from this address is waiting for a decision already" in page.text
    assert OrganiserRequest.objects.count() == 1


def test_a_filled_honeypot_is_answered_as_if_accepted_but_creates_nothing(admin):
    response = browser().post(FORM, {**ASKED, "website": "https://spam.example"})
    assert response.status_code == 302 and response.url == "/organisers/request/sent/"
    assert not OrganiserRequest.objects.exists()
    assert not OutgoingMail.objects.exists()


@throttled
def test_the_form_is_throttled_per_client_and_a_refused_request_records_nothing():
    visitor = browser()
    for number in range(2):
        assert visitor.post(FORM, {**ASKED, "email": f"k{number}@example.org"}).status_code == 302
    response = visitor.post(FORM, {**ASKED, "email": "k2@example.org"})
    assert response.status_code == 429 and "Retry-After" in response.headers
    assert "Too many requests from your address" in response.text
    assert OrganiserRequest.objects.count() == 2
    assert visitor.get(FORM).status_code == 200  # reading is never counted
    elsewhere = browser(address="198.51.100.7")
    assert elsewhere.post(FORM, {**ASKED, "email": "k3@example.org"}).status_code == 302


@throttled
def test_the_honeypot_counts_against_the_limit_too():
    visitor = browser()
    for _ in range(2):
        visitor.post(FORM, {**ASKED, "website": "x"})
    assert visitor.post(FORM, ASKED).status_code == 429
    assert not OrganiserRequest.objects.exists()


def test_the_home_page_and_the_log_in_page_lead_to_the_form():
    home = browser().get("/").text
    assert f'href="{FORM}">Ask for an organiser account</a>' in home
    login = browser().get("/accounts/login/").text
    assert f'href="{FORM}">Ask for an organiser account</a>' in login
    assert 'action="/organisers/sign-in/"' in login  # "Send me a sign-in link"


def test_an_organiser_is_not_asked_to_ask_again():
    organiser = approved()
    client = browser()
    client.force_login(organiser)
    assert "Ask for an organiser account</a>" not in client.get("/").text
    assert "Your account may create championships already." in client.get(FORM).text


# The administrators' page ------------------------------------------------------------------------


def test_the_requests_page_lists_the_pending_first_then_the_decided(admin, admin_client):
    older = organiser_requests.organiser_request_create(
        name="Per Hansen", email="per@example.org", message="Plan of Per.", language="nb"
    )
    organiser_requests.organiser_request_create(
        name="Kari Nordmann", email="kari@example.org", message="Plan of Kari.", language="sv"
    )
    organiser_requests.organiser_request_create(
        name="Ola Refused", email="ola@example.org", message="Plan of Ola.", language="en"
    )
    refused = OrganiserRequest.objects.get(email="ola@example.org")
    organiser_requests.organiser_request_refuse(request=refused, by=admin, reason="Not here.")
    organiser_requests.organiser_request_approve(request=older, by=admin)
    organiser_requests.organiser_request_create(
        name="Per Hansen", email="per@example.org", message="Again.", language="nb"
    )

    page = admin_client.get(REQUESTS)
    assert page.status_code == 200
    text = page.text
    pending, decided = text.split('id="decided-heading"')
    assert "Waiting for a decision (2)" in pending
    assert pending.index("Plan of Kari.") < pending.index("Again.")  # the oldest first
    assert "Ola" not in pending and pending.count("Approve ") == 2
    assert "Refused" in decided and "Not here." in decided and "Approved" in decided
    assert decided.index("Per Hansen") < decided.index("Ola Refused")  # latest decision first
    assert "per@example.org" in decided  # the account the approval made


def test_an_administrator_approves_and_refuses_in_the_browser(
    admin_client, django_capture_on_commit_callbacks
):
    kari = organiser_requests.organiser_request_create(
        name="Kari Nordmann", email="kari@example.org", message="A plan.", language="nb"
    )
    per = organiser_requests.organiser_request_create(
        name="Per Hansen", email="per@example.org", message="A plan.", language="da"
    )
    with django_capture_on_commit_callbacks(execute=True):
        response = admin_client.post(f"{REQUESTS}{kari.pk}/approve/", follow=True)
    assert response.redirect_chain[-1][0] == f"{REQUESTS}#request-{kari.pk}"
    assert (
        "Approved: Kari Nordmann may now create championships, and is told at kari@example.org."
        in response.text
    )
    with django_capture_on_commit_callbacks(execute=True):
        response = admin_client.post(
            f"{REQUESTS}{per.pk}/refuse/", {"reason": "Only in Rogaland."}, follow=True
        )
    assert "Refused: Per Hansen is told at per@example.org." in response.text
    kari.refresh_from_db()
    per.refresh_from_db()
    assert kari.status == Status.APPROVED and kari.user.username == "kari@example.org"
    assert per.status == Status.REFUSED and per.refusal_reason == "Only in Rogaland."
    assert sorted(m.to[0] for m in mail.outbox) == ["kari@example.org", "per@example.org"]

    # The same button twice: nothing happens twice; a refused one is not approved.
    admin_client.post(f"{REQUESTS}{kari.pk}/approve/")
    refused_again = admin_client.post(f"{REQUESTS}{per.pk}/approve/", follow=True)
    assert "This request is refused already." in refused_again.text
    assert get_user_model().objects.filter(email__iexact="kari@example.org").count() == 1
    assert not get_user_model().objects.filter(email="per@example.org").exists()


def test_a_reason_too_long_is_refused_with_a_message_and_decides_nothing(admin_client):
    per = organiser_requests.organiser_request_create(
        name="Per Hansen", email="per@example.org", message="A plan.", language="da"
    )
    page = admin_client.post(f"{REQUESTS}{per.pk}/refuse/", {"reason": "x" * 1001}, follow=True)
    assert "at most 1000 characters" in page.text
    per.refresh_from_db()
    assert per.status == Status.PENDING


@pytest.mark.parametrize("who", ["anonymous", "organiser", "staff"])
def test_no_one_but_the_sites_administrators_sees_or_decides_requests(rm, who):
    request = organiser_requests.organiser_request_create(
        name="Kari Nordmann", email="kari@example.org", message="A plan.", language="nb"
    )
    client = browser()
    if who == "organiser":
        client.force_login(factories.role(rm, ChampionshipRole.Role.ORGANISER))
    elif who == "staff":
        client.force_login(approved(email="per@example.org", name="Per"))
    answers = [
        client.get(REQUESTS),
        client.post(f"{REQUESTS}{request.pk}/approve/"),
        client.post(f"{REQUESTS}{request.pk}/refuse/", {"reason": "no"}),
    ]
    for answer in answers:
        if who == "anonymous":
            assert answer.status_code == 302 and answer.url.startswith("/accounts/login/")
        else:
            assert answer.status_code == 403
    request.refresh_from_db()
    assert request.status == Status.PENDING


def test_whoever_is_given_the_permission_may_decide_too():
    deputy = factories.user(username="deputy")
    deputy.user_permissions.add(Permission.objects.get(codename="change_organiserrequest"))
    client = browser()
    client.force_login(deputy)
    assert client.get(REQUESTS).status_code == 200


def test_the_buttons_are_post_forms_with_csrf(admin):
    request = organiser_requests.organiser_request_create(
        name="Kari Nordmann", email="kari@example.org", message="A plan.", language="nb"
    )
    client = Client(enforce_csrf_checks=True)
    client.force_login(admin)
    page = client.get(REQUESTS).text
    for action in ("approve", "refuse"):
        form = re.search(
            rf'<form method="post" action="{REQUESTS}{request.pk}/{action}/"[^>]*>(.*?)</form>',
            page,
            re.S,
        )
        assert form and 'name="csrfmiddlewaretoken"' in form.group(1)
    assert client.post(f"{REQUESTS}{request.pk}/approve/").status_code == 403  # no token
    assert client.get(f"{REQUESTS}{request.pk}/approve/").status_code == 405
    request.refresh_from_db()
    assert request.status == Status.PENDING


# Signing in --------------------------------------------------------------------------------------


def test_the_link_page_asks_before_signing_in_and_refuses_a_wrong_link_clearly():
    organiser = approved()
    path = f"/organisers/sign-in/{organiser_links.sign_in_token(organiser)}/"
    visitor = browser()
    opened = visitor.get(path)
    assert opened.status_code == 200 and "_auth_user_id" not in visitor.session
    assert "<h1>Sign in as Kari Nordmann?</h1>" in opened.text
    assert opened.headers["Referrer-Policy"] == "same-origin"
    assert "no-store" in opened.headers["Cache-Control"]

    wrong = browser().get("/organisers/sign-in/not-a-link/")
    assert wrong.status_code == 404
    assert "This sign-in link does not work" in wrong.text
    assert "Send me a sign-in link" in wrong.text


def test_asking_for_a_link_answers_the_same_whoever_has_the_address(
    django_capture_on_commit_callbacks,
):
    approved()
    answers = []
    with django_capture_on_commit_callbacks(execute=True):
        for address in ("kari@example.org", "nobody@example.org"):
            response = browser().post("/organisers/sign-in/", {"email": address}, follow=True)
            main = response.text.split("<main", 1)[1].split("</main>", 1)[0]
            answers.append(main.replace(address, ""))
    assert answers[0] == answers[1]
    assert "a sign-in link is on its way to it" in answers[0]
    assert [m.to for m in mail.outbox] == [["kari@example.org"]]
    wrong = browser().post("/organisers/sign-in/", {"email": "kari@"})
    assert wrong.status_code == 200 and "Enter a valid email address." in wrong.text


@override_settings(
    THROTTLE_ENABLED=True,
    THROTTLE_RATES={**settings.THROTTLE_RATES, "sign-in": ["2/m"], "password-reset": ["1/h"]},
)
def test_sign_in_links_are_counted_even_when_opened_and_link_requests_like_resets():
    path = f"/organisers/sign-in/{organiser_links.sign_in_token(approved())}/"
    visitor = browser()
    assert visitor.get(path).status_code == 200
    assert visitor.get("/organisers/sign-in/not-a-link/").status_code == 404
    assert visitor.post(path).status_code == 429
    assert "_auth_user_id" not in visitor.session
    asker = browser(address="198.51.100.7")
    assert asker.post("/organisers/sign-in/", {"email": "kari@example.org"}).status_code == 302
    assert asker.post("/accounts/password_reset/", {"email": "kari@example.org"}).status_code == 429
    assert OutgoingMail.objects.filter(kind=OutgoingMail.Kind.ORGANISER_LINK).count() == 1


# Several organisers ------------------------------------------------------------------------------


def set_up(by, slug):
    return services.championship_set_up(
        by=by,
        preset="rogaland",
        name=slug.upper(),
        slug=slug,
        starts_at=datetime(NEXT_YEAR, 3, 14, 9, tzinfo=UTC),
    )


def test_each_organiser_sees_and_manages_only_their_own_championships():
    kari, per = approved(), approved(email="per@example.org", name="Per Hansen")
    set_up(kari, "karis")
    set_up(per, "pers")
    client = browser()
    client.force_login(kari)
    home = client.get("/").text
    yours = home.split('id="staff-heading"', 1)[1].split("</section>", 1)[0]
    assert "KARIS" in yours and "PERS" not in yours
    assert client.get("/karis/manage/").status_code == 200
    assert client.get("/pers/manage/").status_code == 403
    assert client.get("/pers/manage/staff/").status_code == 403


def test_an_organiser_adds_a_co_organiser_in_the_browser(django_capture_on_commit_callbacks):
    kari = approved()
    championship = set_up(kari, "karis")
    client = browser()
    client.force_login(kari)
    response = client.post(
        "/karis/manage/staff/",
        {"name": "Per Hansen", "email": "per@example.org", "role": "organiser", "send": "on"},
    )
    assert response.status_code == 302
    link = SignInLink.objects.get(championship=championship)
    co_organiser = browser()
    co_organiser.post(staff_links.sign_in_path(link))
    assert co_organiser.get("/karis/manage/").status_code == 200
    assert client.get("/karis/manage/").status_code == 200
    organisers = set(
        championship.roles.filter(role="organiser").values_list("user__first_name", flat=True)
    )
    assert organisers == {"Kari Nordmann", "Per Hansen"}
    assert Group.objects.get(name="Organisers").user_set.filter(pk=kari.pk).exists()
