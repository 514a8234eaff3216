"""Staff sign in with a personal link instead of a password; organisers add, print and revoke."""

import io
import re
from datetime import timedelta

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from championship import staff_links
from championship.models import ChampionshipRole, SignInLink, validate_slug_not_reserved
from championship.services import tables_create
from control import rounds
from tests import factories
from tests.control.test_cards import decode, rasterise, svg_modules

# Within the bounds a championship's start must keep.
SOON = timezone.now().replace(microsecond=0) + timedelta(days=60)

pytestmark = pytest.mark.django_db

Role = ChampionshipRole.Role
SITE = "https://puzzle.example.org"


@pytest.fixture(autouse=True)
def site_url(settings):
    settings.SITE_URL = SITE


@pytest.fixture
def rm():
    """A rogaland championship (in Norwegian) with two tables and a seated final."""
    championship = factories.championship(
        slug="rm-2099",
        name="Rogalandsmesterskapet 2099",
        starts_at=SOON,
    )
    tables_create(championship=championship, count=2)
    individual = championship.categories.get(kind="individual")
    factories.entry(individual)
    rounds.round_seat(round_=individual.rounds.get())
    return championship


@pytest.fixture
def organiser(rm):
    return factories.role(rm, Role.ORGANISER, username="orga")


def english(client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


@pytest.fixture
def organiser_client(client, organiser):
    client.force_login(organiser)
    return english(client)


def staff_url(championship):
    return reverse("manage:staff", kwargs={"championship_slug": championship.slug})


def add(championship, name="Kari Nordmann", role=Role.JUDGE, email="", by=None):
    return staff_links.link_create(
        championship=championship, name=name, email=email, role=role, by=by
    )


def path_of(link):
    return staff_links.sign_in_path(link)


def phone():
    """A phone that has never been here: a browser of its own, in English."""
    return english(Client())


def table_page(rm, number=1):
    return rm.tables.get(number=number).get_absolute_url()


# The organiser's page ---------------------------------------------------------------------------


def test_the_control_room_links_to_the_staff_page(organiser_client, rm):
    page = organiser_client.get(
        reverse("manage:control_room", kwargs={"championship_slug": rm.slug})
    )
    assert staff_url(rm) in page.text


def test_an_organiser_adds_a_judge_by_name_who_gets_an_account_without_a_password(
    organiser_client, rm, organiser
):
    response = organiser_client.post(
        staff_url(rm), {"name": "  Kari   Nordmann ", "email": "", "role": "judge", "send": "on"}
    )
    assert response.status_code == 302
    link = SignInLink.objects.get()
    assert response.url == f"{staff_url(rm)}#person-{link.pk}"
    assert (link.championship, link.role, link.created_by) == (rm, "judge", organiser)
    user = link.user
    assert user.get_full_name() == "Kari Nordmann"
    assert user.username.startswith("kari-nordmann-")
    assert not user.has_usable_password() and not user.is_staff and not user.is_superuser
    assert ChampionshipRole.objects.filter(championship=rm, user=user, role="judge").exists()
    assert not mail.outbox  # no e-mail address, no mail

    page = organiser_client.get(response.url)
    row = re.search(rf'<tr id="person-{link.pk}".*?</tr>', page.text, re.S).group(0)
    assert "Kari Nordmann" in row and "Judge" in row and "Active" in row
    assert "not opened yet" in row
    assert "is added: print the badge, or send the link." in page.text


def test_the_page_lists_each_persons_role_and_whether_the_link_works(organiser_client, rm):
    add(rm, "Hanne Hovud", Role.HEAD_JUDGE)
    gone = add(rm, "Per Borte")
    staff_links.link_revoke(link=gone, by=None)
    add(rm, "Olav Med", Role.ORGANISER)
    factories.role(rm, Role.JUDGE, username="passordjens")
    page = organiser_client.get(staff_url(rm)).text
    rows = re.findall(r'<tr id="person-\d+".*?</tr>', page, re.S)
    assert [re.search(r'<th scope="row">([^<]+)', row).group(1) for row in rows] == [
        "Olav Med",
        "Hanne Hovud",
        "Per Borte",
    ]
    assert "Co-organiser" in rows[0] and "Head judge" in rows[1] and "Active" in rows[1]
    assert "Revoked" in rows[2] and "Badge" not in rows[2] and "New link" in rows[2]
    # Staff added in the admin with a password are listed apart.
    assert "Staff who sign in with a password" in page and "passordjens – Judge" in page


def test_a_name_is_required_and_the_e_mail_must_be_valid(organiser_client, rm):
    page = organiser_client.post(
        staff_url(rm), {"name": " ", "email": "not-an-address", "role": "judge"}
    )
    assert page.status_code == 200
    assert "Nobody added: see the form." in page.text
    assert "This field is required." in page.text and "Enter a valid email address." in page.text
    assert not SignInLink.objects.exists()
    with pytest.raises(ValidationError) as refused:
        add(rm, "K" * 151, role="referee", email="k" * 250 + "@example.org")
    assert set(refused.value.message_dict) == {"name", "email", "role"}
    assert not SignInLink.objects.exists()


@pytest.mark.parametrize("who", ["anonymous", "judge", "head judge", "other organiser"])
def test_only_the_championships_organisers_may_manage_its_staff(client, rm, who):
    link = add(rm)
    if who != "anonymous":
        other = factories.championship(slug="other")
        user = {
            "judge": lambda: factories.role(rm, Role.JUDGE),
            "head judge": lambda: factories.role(rm, Role.HEAD_JUDGE),
            "other organiser": lambda: factories.role(other, Role.ORGANISER),
        }[who]()
        client.force_login(user)
    kwargs = {"championship_slug": rm.slug, "link": link.pk}
    answers = [
        client.get(staff_url(rm)),
        client.post(staff_url(rm), {"name": "Mallory", "role": "organiser"}),
        client.get(reverse("manage:staff_badges", kwargs={"championship_slug": rm.slug})),
        client.get(reverse("manage:staff_badge", kwargs=kwargs)),
        client.post(reverse("manage:staff_revoke", kwargs=kwargs)),
        client.post(reverse("manage:staff_renew", kwargs=kwargs)),
        client.post(reverse("manage:staff_send", kwargs=kwargs)),
    ]
    if who == "anonymous":
        assert all(a.status_code == 302 and "/accounts/login/" in a.url for a in answers)
    else:
        assert [a.status_code for a in answers] == [403] * len(answers)
    assert SignInLink.objects.get().active and SignInLink.objects.count() == 1


def test_another_championships_link_is_not_found_from_this_one(organiser_client, rm):
    theirs = add(factories.championship(slug="other"))
    kwargs = {"championship_slug": rm.slug, "link": theirs.pk}
    assert organiser_client.post(reverse("manage:staff_revoke", kwargs=kwargs)).status_code == 404
    assert organiser_client.get(reverse("manage:staff_badge", kwargs=kwargs)).status_code == 404
    theirs.refresh_from_db()
    assert theirs.active


def test_no_championship_may_take_the_slug_of_the_sign_in_links():
    with pytest.raises(ValidationError):
        validate_slug_not_reserved("s")


# Opening the link ---------------------------------------------------------------------------------


def test_a_judges_link_signs_a_phone_in_and_opens_their_tables_without_a_password(rm):
    link = add(rm)
    judge = phone()
    assert judge.get(table_page(rm)).status_code == 302  # asked to log in

    response = judge.post(path_of(link))
    assert response.status_code == 302 and response.url == "/"
    assert response.headers["Cache-Control"].startswith("max-age=0")
    home = judge.get("/")
    assert "Signed in as Kari Nordmann (Judge, Rogalandsmesterskapet 2099)." in home.text
    assert "Your championships" in home.text and table_page(rm) in home.text
    table = judge.get(table_page(rm))
    assert table.status_code == 200 and "Table 1" in table.text
    link.refresh_from_db()
    assert link.last_used_at is not None


def test_opening_a_link_signs_nobody_in_but_shows_whom_the_button_signs_in_as(rm):
    """A link in an image, a mail scanner's prefetch or a stranger's page signs no one in."""
    link = add(rm)
    visitor = Client(enforce_csrf_checks=True)
    english(visitor)
    opened = visitor.get(path_of(link))
    assert opened.status_code == 200
    assert "_auth_user_id" not in visitor.session
    assert visitor.get(table_page(rm)).status_code == 302  # still asked to log in
    link.refresh_from_db()
    assert link.last_used_at is None  # not even counted as opened
    page = opened.text
    assert "<h1>Sign in as Kari Nordmann?</h1>" in page
    assert "Judge · Rogalandsmesterskapet 2099" in page
    form = re.search(r'<form method="post">(.*?)</form>', page, re.S).group(1)
    assert 'name="csrfmiddlewaretoken"' in form
    assert re.search(r'<button type="submit" class="primary wide">Sign in as Kari Nordmann<', form)
    assert "This browser is signed in as" not in page  # nobody is
    assert "no-store" in opened.headers["Cache-Control"]
    assert opened.headers["Referrer-Policy"] == "same-origin"

    # The button posts the form, with its CSRF token: that signs in, as before.
    forged = visitor.post(path_of(link))
    assert forged.status_code == 403 and "_auth_user_id" not in visitor.session
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form).group(1)
    signed_in = visitor.post(path_of(link), {"csrfmiddlewaretoken": token})
    assert signed_in.status_code == 302 and signed_in.url == "/"
    assert int(visitor.session["_auth_user_id"]) == link.user_id
    assert visitor.get(table_page(rm)).status_code == 200


def test_the_link_page_speaks_the_championships_language(rm):
    opened = Client().get(path_of(add(rm)))
    assert 'lang="nb"' in opened.text
    assert "<h1>Logge inn som Kari Nordmann?</h1>" in opened.text
    assert ">Logg inn som Kari Nordmann<" in opened.text


def test_a_browser_signed_in_as_the_person_already_goes_straight_to_their_screen(rm):
    link = add(rm)
    judge = phone()
    judge.post(path_of(link))
    again = judge.get(path_of(link))
    assert again.status_code == 302 and again.url == "/"
    assert int(judge.session["_auth_user_id"]) == link.user_id


def test_a_head_judge_lands_on_the_judging_dashboard_and_an_organiser_in_the_control_room(rm):
    head = add(rm, "Hanne Hovud", Role.HEAD_JUDGE)
    co = add(rm, "Olav Med", Role.ORGANISER)
    final = rm.rounds.get(category__kind="individual")
    landed = phone().post(path_of(head))
    assert landed.url == reverse(
        "manage:dashboard", kwargs={"championship_slug": rm.slug, "round_key": final.key}
    )
    assert phone().post(path_of(co)).url == reverse(
        "manage:control_room", kwargs={"championship_slug": rm.slug}
    )
    organiser = phone()
    organiser.post(path_of(co))
    assert organiser.get(staff_url(rm)).status_code == 200


def test_a_link_signs_in_only_to_its_own_championship(rm):
    other = factories.championship(slug="other")
    tables_create(championship=other, count=1)
    judge = phone()
    judge.post(path_of(add(rm)))
    assert judge.get(other.tables.get().get_absolute_url()).status_code == 403


def test_a_badge_opened_again_signs_in_another_phone_too(rm):
    """A badge is the person's key until revoked: a second phone, or the same after a restart."""
    link = add(rm)
    first, second = phone(), phone()
    first.post(path_of(link))
    second.post(path_of(link))
    second.post(path_of(link))
    assert first.get(table_page(rm)).status_code == 200
    assert second.get(table_page(rm)).status_code == 200


@pytest.mark.parametrize(
    "token", ["A" * 22, "short", "x" * 400, "abc%00def", "ÆØÅæøåÆØÅæøåÆØÅæøåÆØÅæ", "%3Cscript%3E"]
)
def test_an_unknown_link_is_refused_with_a_clear_message_never_an_error(client, rm, token):
    add(rm)
    response = english(client).get(f"/s/{token}/")
    assert response.status_code == 404
    assert "This sign-in link does not work" in response.text
    assert "No sign-in link has this address." in response.text
    assert "Ask the organiser for a new link." in response.text
    assert "_auth_user_id" not in client.session


def test_a_revoked_link_is_refused_and_ends_the_phones_session_at_once(rm, organiser_client):
    link = add(rm)
    judge = phone()
    judge.post(path_of(link))
    assert judge.get(table_page(rm)).status_code == 200

    revoke = reverse("manage:staff_revoke", kwargs={"championship_slug": rm.slug, "link": link.pk})
    response = organiser_client.post(revoke)
    assert response.status_code == 302
    assert "is revoked" in organiser_client.get(response.url).text

    asked = judge.get(table_page(rm))
    assert asked.status_code == 302 and asked.url.startswith("/accounts/login/")
    refused = judge.get(path_of(link))
    assert refused.status_code == 410
    assert "The organiser of Rogalandsmesterskapet 2099 has revoked this link" in refused.text
    assert "Ask the organiser for a new link." in refused.text
    assert judge.get(table_page(rm)).status_code == 302


def test_revoking_one_link_signs_out_no_one_else(rm):
    kept, revoked = add(rm, "Kari Beholdt"), add(rm, "Per Borte")
    kept_phone, revoked_phone = phone(), phone()
    kept_phone.post(path_of(kept))
    revoked_phone.post(path_of(revoked))
    staff_links.link_revoke(link=revoked, by=None)
    assert kept_phone.get(table_page(rm)).status_code == 200
    assert revoked_phone.get(table_page(rm)).status_code == 302


def test_the_refusal_speaks_the_championships_language(rm):
    link = add(rm)
    staff_links.link_revoke(link=link, by=None)
    refused = Client().get(path_of(link))
    assert refused.status_code == 410
    assert 'lang="nb"' in refused.text


def test_a_new_link_replaces_a_lost_badge(rm, organiser_client):
    lost = add(rm)
    judge = phone()
    judge.post(path_of(lost))
    renew = reverse("manage:staff_renew", kwargs={"championship_slug": rm.slug, "link": lost.pk})
    assert organiser_client.post(renew).status_code == 302
    new = SignInLink.objects.get(revoked_at__isnull=True)
    assert new.user == lost.user and new.role == lost.role and new.pk != lost.pk
    assert judge.get(table_page(rm)).status_code == 302  # the phone with the lost badge is out
    assert phone().get(path_of(lost)).status_code == 410
    again = phone()
    again.post(path_of(new))
    assert again.get(table_page(rm)).status_code == 200
    # A revoked person comes back the same way.
    staff_links.link_revoke(link=new, by=None)
    renew = reverse("manage:staff_renew", kwargs={"championship_slug": rm.slug, "link": new.pk})
    organiser_client.post(renew)
    latest = SignInLink.objects.get(revoked_at__isnull=True)
    assert phone().post(path_of(latest)).status_code == 302


def test_a_browser_signed_in_as_someone_else_is_asked_before_it_changes_hands(
    organiser_client, rm, organiser
):
    link = add(rm)
    asked = organiser_client.get(path_of(link))
    assert asked.status_code == 200
    assert "This browser is signed in as orga." in asked.text
    assert "Sign in as Kari Nordmann" in asked.text
    assert asked.headers["Referrer-Policy"] == "same-origin"
    assert "Stay signed in as before" in asked.text
    assert int(organiser_client.session["_auth_user_id"]) == organiser.pk
    switched = organiser_client.post(path_of(link))
    assert switched.status_code == 302
    assert int(organiser_client.session["_auth_user_id"]) == link.user_id


def test_the_database_holds_no_link_in_the_clear(rm, organiser_client):
    link = add(rm, email="kari@example.org")
    token = staff_links.sign_in_token(link)
    phone().post(path_of(link))
    organiser_client.get(staff_url(rm))
    dump = io.StringIO()
    call_command("dumpdata", stdout=dump)
    assert token not in dump.getvalue()
    assert link.token_hash in dump.getvalue()  # only its hash


def test_a_link_made_under_an_old_secret_key_keeps_working_and_prints_while_it_is_a_fallback(
    rm, settings, organiser_client
):
    link = add(rm)
    path = path_of(link)
    settings.SECRET_KEY_FALLBACKS = [settings.SECRET_KEY]
    settings.SECRET_KEY = "a-new-secret-key-" + "x" * 40
    assert path_of(link) == path
    badge = reverse("manage:staff_badge", kwargs={"championship_slug": rm.slug, "link": link.pk})
    assert "staff-badge-qr" in organiser_client.get(badge).text
    settings.SECRET_KEY_FALLBACKS = []
    assert path_of(link) is None
    page = organiser_client.get(badge).text
    assert "cannot be printed" in page and "staff-badge-qr" not in page
    # The printed badge still opens: the lookup is by the hash of what it carries.
    judge = phone()
    assert judge.post(path).status_code == 302
    assert judge.get(table_page(rm)).status_code == 200


# Badges and e-mail ------------------------------------------------------------------------------


def badge_codes(page: str) -> list[str]:
    svgs = re.findall(r'<div class="staff-badge-qr">\s*(<svg.*?</svg>)', page, re.S)
    return [decode(rasterise(svg_modules(svg))) for svg in svgs]


def test_the_badges_carry_each_persons_sign_in_code_in_the_championships_language(
    organiser_client, rm
):
    kari = add(rm)
    hanne = add(rm, "Hanne Hovud", Role.HEAD_JUDGE)
    staff_links.link_revoke(link=add(rm, "Per Borte"), by=None)
    page = organiser_client.get(
        reverse("manage:staff_badges", kwargs={"championship_slug": rm.slug})
    )
    text = page.text
    assert "2 badges, each with a personal sign-in code" in text  # the organiser's English
    assert text.count('class="staff-badge"') == 2 and "Per Borte" not in text
    assert badge_codes(text) == [SITE + path_of(hanne), SITE + path_of(kari)]
    sheet = text[text.index('class="badge-sheet') :]
    assert 'lang="nb"' in sheet and "Overdommer" in sheet and "Dommer" in sheet
    assert "Rogalandsmesterskapet 2099" in sheet

    one = organiser_client.get(
        reverse("manage:staff_badge", kwargs={"championship_slug": rm.slug, "link": kari.pk})
        + "?size=a7"
    ).text
    assert one.count('class="staff-badge"') == 1 and "badges-a7" in one
    assert badge_codes(one) == [SITE + path_of(kari)]


def test_a_person_with_an_e_mail_gets_the_link_by_mail_in_the_championships_language(
    organiser_client, rm, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        organiser_client.post(
            staff_url(rm),
            {"name": "Kari Nordmann", "email": "kari@example.org", "role": "judge", "send": "on"},
        )
    link = SignInLink.objects.get()
    (message,) = mail.outbox
    assert message.to == ["kari@example.org"]
    assert "Rogalandsmesterskapet 2099" in message.subject
    assert f"{SITE}{path_of(link)}" in message.body
    assert "Hei Kari Nordmann" in message.body  # Norwegian, the championship's language
    assert "orga" in message.body

    # Sent again from the page; not at all when the box is left empty.
    send = reverse("manage:staff_send", kwargs={"championship_slug": rm.slug, "link": link.pk})
    with django_capture_on_commit_callbacks(execute=True):
        page = organiser_client.post(send, follow=True)
    assert "The link is on its way to kari@example.org." in page.text
    assert len(mail.outbox) == 2 and mail.outbox[1].body == message.body
    with django_capture_on_commit_callbacks(execute=True):
        organiser_client.post(
            staff_url(rm), {"name": "Per Stille", "email": "per@example.org", "role": "judge"}
        )
    assert len(mail.outbox) == 2


def test_a_revoked_link_is_never_mailed(organiser_client, rm, django_capture_on_commit_callbacks):
    link = add(rm, email="kari@example.org")
    staff_links.link_revoke(link=link, by=None)
    send = reverse("manage:staff_send", kwargs={"championship_slug": rm.slug, "link": link.pk})
    with django_capture_on_commit_callbacks(execute=True):
        page = organiser_client.post(send, follow=True)
    assert "This link cannot be sent" in page.text
    assert not mail.outbox


def test_an_e_mail_address_never_opens_an_existing_account(rm):
    """Inviting someone's address makes a new account: the link cannot take over theirs."""
    admin = get_user_model().objects.create_superuser("root", "boss@example.org", "pw-123456789")
    link = add(rm, "Boss", email="boss@example.org")
    assert link.user != admin and not link.user.is_superuser
