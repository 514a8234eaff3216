"""Organiser accounts by request: asked for, decided by the site's administrators, mailed a link."""

import re
import types

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from django.core import mail, signing
from django.core.exceptions import ValidationError
from django.test import Client
from django.utils import translation
from django.utils.translation import gettext

from championship import outbox, staff_links
from championship.models import ChampionshipRole, OutgoingMail
from control import organiser_links, organiser_requests
from control.models import OrganiserRequest
from control.views.setup import may_create
from tests import factories

pytestmark = pytest.mark.django_db

Kind = OutgoingMail.Kind
Status = OrganiserRequest.Status
SITE = "https://puzzle.example.org"
LINK = re.compile(re.escape(SITE) + r"(/organisers/sign-in/[^/\s]+/)")
# "Hello %(name)s," in each language's catalogue: the mail is in the request's language.
GREETING = {"en": "Hello Kari Nordmann,", "nb": "Hei Kari Nordmann!", "sv": "Hej Kari Nordmann!"}
GREETING["da"] = "Hej Kari Nordmann"


@pytest.fixture(autouse=True)
def site_url(settings):
    settings.SITE_URL = SITE


@pytest.fixture
def admin():
    return get_user_model().objects.create_superuser("root", "boss@example.org", "pw-123456789")


def ask(email="kari@example.org", language="nb", **values):
    values = {
        "name": "Kari Nordmann",
        "email": email,
        "club": "Stavanger puslelag",
        "message": "Rogalandsmesterskapet i mars, 60 puslere, rogaland-reglene.",
        "language": language,
        **values,
    }
    return organiser_requests.organiser_request_create(**values)


def sent(kind):
    """Return the mails of ``kind`` the outbox sent."""
    subjects = set(OutgoingMail.objects.filter(kind=kind).values_list("subject", flat=True))
    return [message for message in mail.outbox if message.subject in subjects]


def link_in(message) -> str:
    return LINK.search(message.body).group(1)


def fresh(user):
    """Read a user again: a user object keeps the permissions it read."""
    return get_user_model().objects.get(pk=user.pk)


# Asking ------------------------------------------------------------------------------------------


def test_a_request_waits_in_its_language_and_each_administrator_is_told(
    admin, django_capture_on_commit_callbacks
):
    deputy = factories.user(username="deputy", email="deputy@example.org")
    group = Group.objects.create(name="Approvers")
    group.permissions.add(Permission.objects.get(codename="change_organiserrequest"))
    deputy.groups.add(group)
    factories.user(username="other", email="other@example.org")  # may not decide
    get_user_model().objects.create_superuser("silent", "", "pw-123456789")  # no address

    with django_capture_on_commit_callbacks(execute=True):
        request = ask()

    assert request.status == Status.PENDING and request.language == "nb"
    assert request.decided_at is None and request.user is None
    notices = sent(Kind.ORGANISER_REQUEST)
    assert sorted(m.to[0] for m in notices) == ["boss@example.org", "deputy@example.org"]
    notice = notices[0]
    assert notice.subject == "Request for an organiser account: Kari Nordmann"
    assert "Kari Nordmann (kari@example.org) asks for an organiser account." in notice.body
    assert "Stavanger puslelag" in notice.body and "60 puslere" in notice.body
    assert "Norwegian Bokmål" in notice.body  # the site's language, English, names it
    assert f"{SITE}/organisers/requests/" in notice.body


@pytest.mark.parametrize(
    ("field", "values", "message"),
    [
        ("name", {"name": "  "}, "Give your name."),
        ("email", {"email": ""}, "Give your e-mail address: the answer is sent there."),
        ("email", {"email": "kari@"}, "Enter a valid email address."),
        ("message", {"message": "\n"}, "Say which championship you plan"),
        ("club", {"club": "x" * 201}, "This is too long (at most 200 characters)."),
        ("message", {"message": "NUL\x00"}, "Null characters are not allowed."),
    ],
)
def test_bad_input_is_refused_at_its_field_and_records_nothing(admin, field, values, message):
    with pytest.raises(ValidationError) as refused:
        ask(**values)
    assert message in " ".join(refused.value.message_dict[field])
    assert not OrganiserRequest.objects.exists()
    assert not OutgoingMail.objects.exists()


def test_an_address_waits_for_one_decision_at_a_time(admin):
    first = ask()
    with pytest.raises(ValidationError) as refused:
        ask(email="KARI@example.org")
    assert "waiting for a decision already" in refused.value.message_dict["email"][0]
    assert OrganiserRequest.objects.count() == 1
    organiser_requests.organiser_request_refuse(request=first, by=admin)
    assert ask().status == Status.PENDING  # once decided, the address may ask again


def test_an_unknown_language_is_recorded_as_the_sites():
    assert ask(language="xx").language == "en"


# Approving ---------------------------------------------------------------------------------------


def test_approving_makes_an_account_without_a_password_that_may_create_championships(admin):
    request = ask()
    approved = organiser_requests.organiser_request_approve(request=request, by=admin)

    assert approved.status == Status.APPROVED
    assert approved.decided_by == admin and approved.decided_at is not None
    user = fresh(approved.user)
    assert user.username == "kari@example.org" and user.get_full_name() == "Kari Nordmann"
    assert user.email == "kari@example.org"
    assert not user.has_usable_password() and not user.is_superuser
    assert may_create(user)
    assert user.groups.filter(name="Organisers").exists()
    assert organiser_links.may_sign_in_by_mail(user)


def test_approving_the_same_request_twice_does_it_once(admin, django_capture_on_commit_callbacks):
    request = ask()
    with django_capture_on_commit_callbacks(execute=True):
        first = organiser_requests.organiser_request_approve(request=request, by=admin)
        again = organiser_requests.organiser_request_approve(request=request, by=None)
    assert again.user == first.user and again.decided_by == admin
    assert get_user_model().objects.filter(email="kari@example.org").count() == 1
    assert OutgoingMail.objects.filter(kind=Kind.ORGANISER_APPROVED).count() == 1


def test_an_address_with_an_account_gets_that_account_rather_than_a_second(
    admin, django_capture_on_commit_callbacks
):
    kari = factories.user(username="kari", email="Kari@Example.org", first_name="Kari")
    with django_capture_on_commit_callbacks(execute=True):
        approved = organiser_requests.organiser_request_approve(request=ask(), by=admin)

    assert approved.user == kari
    kari = fresh(kari)
    assert may_create(kari) and kari.check_password("a-long-password-1")  # password kept
    assert get_user_model().objects.filter(email__iexact="kari@example.org").count() == 1
    (message,) = sent(Kind.ORGANISER_APPROVED)
    # An account with a password logs in with it: no link is mailed for it.
    with translation.override(approved.language):
        assert (
            gettext("Log in as %(username)s with your password:") % {"username": "kari"}
            in message.body
        )
    assert f"{SITE}/accounts/login/" in message.body
    assert "/organisers/sign-in/" not in message.body


def test_a_staff_accounts_address_never_hands_over_that_account(admin, rm):
    """A judge's account came with a link its organiser can print: approval makes a new one."""
    judge = staff_links.link_create(
        championship=rm,
        name="Kari",
        email="kari@example.org",
        role=ChampionshipRole.Role.JUDGE,
        by=None,
        send=False,
    ).user
    approved = organiser_requests.organiser_request_approve(request=ask(), by=admin)
    assert approved.user != judge
    assert not may_create(fresh(judge))
    assert may_create(fresh(approved.user))


def test_a_superusers_address_is_approved_without_changing_the_superuser(admin):
    approved = organiser_requests.organiser_request_approve(
        request=ask(email="boss@example.org"), by=admin
    )
    assert approved.user == admin
    assert not fresh(admin).groups.exists()


def test_the_approval_mail_holds_a_link_that_signs_in_once_in_the_requests_language(
    admin, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        approved = organiser_requests.organiser_request_approve(request=ask(), by=admin)
    (message,) = sent(Kind.ORGANISER_APPROVED)
    assert message.to == ["kari@example.org"]
    assert message.body.startswith(GREETING["nb"])
    path = link_in(message)

    # The outbox kept no working link: the secret was made as the mail was sent.
    stored = OutgoingMail.objects.get(kind=Kind.ORGANISER_APPROVED)
    assert outbox.SECRET in stored.body and path.split("/")[-2] not in stored.body

    browser = Client()
    opened = browser.get(path)
    assert opened.status_code == 200 and "_auth_user_id" not in browser.session
    signed_in = browser.post(path)
    assert signed_in.status_code == 302 and signed_in.url == "/new/"
    assert int(browser.session["_auth_user_id"]) == approved.user_id
    assert browser.get("/new/").status_code == 200

    # Once used, the link signs nobody in again.
    other = Client()
    used = other.post(path)
    assert used.status_code == 410 and "_auth_user_id" not in other.session


@pytest.mark.parametrize("language", ["nb", "sv", "da", "en"])
def test_each_decision_is_mailed_in_the_language_of_the_request(
    admin, language, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        organiser_requests.organiser_request_approve(request=ask(language=language), by=admin)
        refused = ask(email="per@example.org", language=language, name="Kari Nordmann")
        organiser_requests.organiser_request_refuse(request=refused, by=admin, reason="Ikke nå.")
    (approval,) = sent(Kind.ORGANISER_APPROVED)
    (refusal,) = sent(Kind.ORGANISER_REFUSED)
    assert approval.body.startswith(GREETING[language])
    assert refusal.body.startswith(GREETING[language])
    assert refusal.to == ["per@example.org"] and "Ikke nå." in refusal.body
    assert LINK.search(approval.body)


# Refusing ----------------------------------------------------------------------------------------


def test_refusing_records_who_when_and_why_and_tells_the_requester_politely(
    admin, django_capture_on_commit_callbacks
):
    request = ask(language="en")
    with django_capture_on_commit_callbacks(execute=True):
        refused = organiser_requests.organiser_request_refuse(
            request=request, by=admin, reason="  We host only championships in Rogaland.  "
        )
        again = organiser_requests.organiser_request_refuse(request=request, by=None, reason="x")
    assert refused.status == Status.REFUSED and refused.decided_by == admin
    assert refused.refusal_reason == "We host only championships in Rogaland."
    assert again.refusal_reason == refused.refusal_reason  # refused once
    assert refused.user is None and not get_user_model().objects.filter(email="kari@example.org")
    (message,) = sent(Kind.ORGANISER_REFUSED)
    assert message.subject == "Your request for an organiser account"
    assert "Thank you for your interest." in message.body
    assert "Their reason:\nWe host only championships in Rogaland." in message.body


def test_a_refusal_without_a_reason_gives_none(admin, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        organiser_requests.organiser_request_refuse(request=ask(language="en"), by=admin)
    (message,) = sent(Kind.ORGANISER_REFUSED)
    assert "reason" not in message.body


def test_a_decision_is_not_turned_round(admin):
    approved = organiser_requests.organiser_request_approve(request=ask(), by=admin)
    with pytest.raises(ValidationError, match="approved already"):
        organiser_requests.organiser_request_refuse(request=approved, by=admin)
    refused = ask(email="per@example.org")
    organiser_requests.organiser_request_refuse(request=refused, by=admin)
    with pytest.raises(ValidationError, match="refused already"):
        organiser_requests.organiser_request_approve(request=refused, by=admin)
    approved.refresh_from_db()
    refused.refresh_from_db()
    assert approved.status == Status.APPROVED and refused.status == Status.REFUSED
    assert not get_user_model().objects.filter(email="per@example.org").exists()


def test_a_reason_too_long_is_refused_and_decides_nothing(admin):
    request = ask()
    with pytest.raises(ValidationError) as refused:
        organiser_requests.organiser_request_refuse(request=request, by=admin, reason="x" * 1001)
    assert "at most 1000 characters" in refused.value.message_dict["reason"][0]
    request.refresh_from_db()
    assert request.status == Status.PENDING


# The sign-in link --------------------------------------------------------------------------------


@pytest.fixture
def organiser(admin):
    return fresh(organiser_requests.organiser_request_approve(request=ask(), by=admin).user)


def test_a_link_older_than_its_age_is_refused_as_expired(organiser, monkeypatch):
    past = signing.time.time() - organiser_links.MAX_AGE.total_seconds() - 60
    monkeypatch.setattr(signing, "time", types.SimpleNamespace(time=lambda: past))
    token = organiser_links.sign_in_token(organiser)
    monkeypatch.undo()
    with pytest.raises(organiser_links.LinkRefused) as refused:
        organiser_links.user_for_token(token)
    assert refused.value.code == organiser_links.EXPIRED


@pytest.mark.parametrize(
    "change",
    [
        lambda user: setattr(user, "is_active", False),
        lambda user: user.set_password("a-new-password-1"),
        lambda user: setattr(user, "email", "someone.else@example.org"),
        lambda user: user.set_unusable_password(),
        lambda user: user.groups.clear(),
    ],
    ids=["deactivated", "given-a-password", "new-address", "new-marker", "no-longer-organiser"],
)
def test_a_link_stops_when_its_account_changes(organiser, change):
    token = organiser_links.sign_in_token(organiser)
    assert organiser_links.user_for_token(token) == organiser
    change(organiser)
    organiser.save()
    with pytest.raises(organiser_links.LinkRefused):
        organiser_links.user_for_token(token)


@pytest.mark.parametrize("token", ["", "x" * 300, "1.abc:1tXyz:forged", "not a token\x00"])
def test_a_token_this_site_did_not_make_is_invalid(organiser, token):
    with pytest.raises(organiser_links.LinkRefused) as refused:
        organiser_links.user_for_token(token)
    assert refused.value.code == organiser_links.INVALID


def test_a_link_made_under_an_old_key_works_while_the_key_is_a_fallback(organiser, settings):
    token = organiser_links.sign_in_token(organiser)
    settings.SECRET_KEY_FALLBACKS = [settings.SECRET_KEY]
    settings.SECRET_KEY = "a-new-secret-key-for-the-site-0123456789abcdefghij"
    assert organiser_links.user_for_token(token) == organiser
    settings.SECRET_KEY_FALLBACKS = []
    with pytest.raises(organiser_links.LinkRefused):
        organiser_links.user_for_token(token)


def test_a_new_link_goes_only_to_organiser_accounts_without_a_password(
    organiser, rm, django_capture_on_commit_callbacks
):
    factories.user(username="pw", email="pw@example.org").groups.add(
        Group.objects.get(name="Organisers")
    )
    staff_links.link_create(
        championship=rm, name="Judy", email="judy@example.org", role="judge", by=None, send=False
    )
    with django_capture_on_commit_callbacks(execute=True):
        counts = [
            organiser_links.link_send(email=address, language="sv")
            for address in (" KARI@example.org ", "pw@example.org", "judy@example.org", "x@y.z")
        ]
    assert counts == [1, 0, 0, 0]
    (message,) = sent(Kind.ORGANISER_LINK)
    assert message.to == ["kari@example.org"] and message.body.startswith(GREETING["sv"])
    assert Client().post(link_in(message)).url == "/new/"
