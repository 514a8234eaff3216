"""Every URL, for every kind of visitor: who may do what, and no personal data in public.

The test walks the project's URL patterns and fails for a pattern it does not
know, so a new page or endpoint must say who may use it.
"""

import re
from datetime import UTC, date, datetime, timedelta

import pytest
from django.conf import settings
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils import timezone
from rest_framework.authtoken.models import Token

from championship.models import ChampionshipRole, Seat
from championship.services import tables_create
from control import rounds
from judging.capture_kinds import CaptureInput
from judging.services import capture_record
from registration.checkin import checkin_code
from results.services import standings_recompute
from tests import factories
from tests.factories import NEXT_YEAR

pytestmark = pytest.mark.django_db

Role = ChampionshipRole.Role

PUBLIC, MANAGE_LINK, JUDGE, HEAD_JUDGE, ORGANISER, SUPERUSER, LOGGED_IN = (
    "public",
    "manage link",
    "judge",
    "head judge",
    "organiser",
    "superuser",
    "logged in",
)

# URL name → (who may use it, method). Django's own account pages are public.
ACCESS = {
    ":health": (PUBLIC, "get"),
    ":favicon": (PUBLIC, "get"),
    ":login": (PUBLIC, "get"),
    ":logout": (PUBLIC, "post"),
    ":password_change": (LOGGED_IN, "get"),
    ":password_change_done": (LOGGED_IN, "get"),
    ":password_reset": (PUBLIC, "get"),
    ":password_reset_done": (PUBLIC, "get"),
    ":password_reset_confirm": (PUBLIC, "get"),
    ":password_reset_complete": (PUBLIC, "get"),
    ":set_language": (PUBLIC, "post"),
    "api:schema": (PUBLIC, "get"),
    "api:docs": (PUBLIC, "get"),
    "api:time": (PUBLIC, "get"),
    "api:championship-list": (PUBLIC, "get"),
    "api:championship-import": (SUPERUSER, "post"),
    "api:championship-detail": (PUBLIC, "get"),
    "api:round-results": (PUBLIC, "get"),
    "api:entry-register": (PUBLIC, "post"),
    "api:round-action": (ORGANISER, "post"),
    "api:captures": (JUDGE, "post"),
    "api:screen": (ORGANISER, "post"),
    "api:championship-export": (ORGANISER, "get"),
    "api:not-found": (PUBLIC, "get"),
    "judging:table": (JUDGE, "get"),
    "judging:table_state": (JUDGE, "get"),
    "judging:service_worker": (PUBLIC, "get"),
    "judging:start_now": (HEAD_JUDGE, "post"),
    "manage:dashboard": (HEAD_JUDGE, "get"),
    "manage:dashboard_mark": (HEAD_JUDGE, "post"),
    "manage:dashboard_correct": (HEAD_JUDGE, "post"),
    "registration:register": (PUBLIC, "get"),
    "registration:check": (PUBLIC, "post"),
    "results:entry_page": (MANAGE_LINK, "get"),
    "registration:withdraw": (MANAGE_LINK, "post"),
    "manage:entries": (ORGANISER, "get"),
    "manage:entries_export": (ORGANISER, "get"),
    "manage:entries_import": (ORGANISER, "get"),
    "manage:entries_import_preview": (ORGANISER, "get"),
    "manage:entries_import_progress": (ORGANISER, "get"),
    "manage:entry_promote": (ORGANISER, "post"),
    "manage:entry_payment": (ORGANISER, "post"),
    "manage:entry_withdraw": (ORGANISER, "post"),
    "manage:entry_walkover": (ORGANISER, "post"),
    "manage:entry_new_link": (ORGANISER, "post"),
    "manage:checkin": (ORGANISER, "get"),
    "manage:checkin_entry": (ORGANISER, "post"),
    "results:index": (PUBLIC, "get"),
    "results:category_csv": (PUBLIC, "get"),
    "results:round": (PUBLIC, "get"),
    "results:round_csv": (PUBLIC, "get"),
    "results:screen": (PUBLIC, "get"),
    "results:venue": (PUBLIC, "get"),
    "results:venue_state": (PUBLIC, "get"),
    "results:venue_message": (PUBLIC, "get"),
    "results:venue_podium": (PUBLIC, "get"),
    ":home": (PUBLIC, "get"),
    "registration:championship": (PUBLIC, "get"),
    "control:seating": (PUBLIC, "get"),
    "control:seating_screen": (PUBLIC, "get"),
    "manage:control_room": (ORGANISER, "get"),
    "manage:edit": (ORGANISER, "get"),
    "manage:screen": (ORGANISER, "post"),
    "manage:message": (ORGANISER, "post"),
    # And the group Organisers, whom this world does not have (tests/control/test_setup.py).
    ":new": (SUPERUSER, "get"),
    "manage:round_control": (ORGANISER, "get"),
    "manage:round_advancement": (ORGANISER, "post"),
    "manage:round_seat": (ORGANISER, "post"),
    "manage:round_groups_deal": (ORGANISER, "post"),
    "manage:round_withdraw": (ORGANISER, "post"),
    "manage:round_publish": (ORGANISER, "post"),
    "manage:round_start": (ORGANISER, "post"),
    "manage:round_close": (ORGANISER, "post"),
    "manage:round_sign_off": (HEAD_JUDGE, "post"),
    "manage:round_advance": (ORGANISER, "post"),
    "manage:round_ranking": (ORGANISER, "get"),
    "manage:heat_start": (ORGANISER, "post"),
    "manage:heat_close": (ORGANISER, "post"),
    "manage:seat_move": (ORGANISER, "post"),
    "manage:seat_start": (ORGANISER, "post"),
    "manage:tables": (ORGANISER, "get"),
    "manage:table_edit": (ORGANISER, "post"),
    "manage:table_rotate": (ORGANISER, "get"),
    "manage:table_qr": (ORGANISER, "get"),
    "manage:cards": (ORGANISER, "get"),
    "manage:staff": (ORGANISER, "get"),
    "manage:staff_badges": (ORGANISER, "get"),
    "manage:staff_badge": (ORGANISER, "get"),
    "manage:staff_revoke": (ORGANISER, "post"),
    "manage:staff_renew": (ORGANISER, "post"),
    "manage:staff_send": (ORGANISER, "post"),
    "manage:mail": (ORGANISER, "get"),
    "manage:mail_retry": (ORGANISER, "post"),
    "manage:payments": (ORGANISER, "get"),
    "manage:payments_map": (ORGANISER, "get"),
    "manage:payments_statement": (ORGANISER, "get"),
    "manage:payments_apply": (ORGANISER, "post"),
    "manage:payments_refunds": (ORGANISER, "get"),
    "manage:payments_refund_done": (ORGANISER, "post"),
    "manage:payments_cancel": (ORGANISER, "post"),
    "api:statements": (ORGANISER, "post"),
    "api:entry-list": (ORGANISER, "get"),
    "api:statement-apply": (ORGANISER, "post"),
    ":sign_in": (PUBLIC, "get"),
    "api:judges": (ORGANISER, "post"),
    "api:judge": (ORGANISER, "delete"),
    ":puzzler": (PUBLIC, "get"),
    ":calendar": (PUBLIC, "get"),
    ":calendar_feed": (PUBLIC, "get"),
    "registration:calendar_feed": (PUBLIC, "get"),
    "registration:accept": (MANAGE_LINK, "post"),
    "registration:judge_note": (MANAGE_LINK, "post"),
    "registration:payment_code": (MANAGE_LINK, "get"),
    "registration:represents": (MANAGE_LINK, "post"),
    "registration:send_address_link": (MANAGE_LINK, "post"),
    "registration:confirm_address": (PUBLIC, "get"),
    "manage:entry_judge_note": (ORGANISER, "post"),
    "api:entry-own": (MANAGE_LINK, "get"),
    "api:entry-accept": (MANAGE_LINK, "post"),
    "api:entry-withdraw": (MANAGE_LINK, "post"),
    "manage:entry_release": (ORGANISER, "post"),
    "manage:checkin_code": (ORGANISER, "get"),
    "manage:questions": (ORGANISER, "get"),
    "manage:question_delete": (ORGANISER, "post"),
    "results:result_detail": (PUBLIC, "get"),
    "results:entry_diploma": (MANAGE_LINK, "get"),
    "manage:round_diplomas": (ORGANISER, "get"),
    "manage:round_report": (HEAD_JUDGE, "get"),
    "manage:round_report_csv": (HEAD_JUDGE, "get"),
    "manage:tables_group": (ORGANISER, "post"),
    "manage:open": (ORGANISER, "post"),
    "api:championship-open": (ORGANISER, "post"),
    # Organiser accounts: anyone asks; the site's administrators (superusers) decide.
    "organisers:request": (PUBLIC, "get"),
    "organisers:request_sent": (PUBLIC, "get"),
    "organisers:requests": (SUPERUSER, "get"),
    "organisers:approve": (SUPERUSER, "post"),
    "organisers:refuse": (SUPERUSER, "post"),
    "organisers:link": (PUBLIC, "get"),
    "organisers:link_sent": (PUBLIC, "get"),
    "organisers:sign_in": (PUBLIC, "get"),
    "api:organiser-requests": (PUBLIC, "post"),
}

# Who is allowed, by the kind of URL.
ALLOWED = {
    PUBLIC: {"anonymous", "entrant", "outside judge", "judge", "head judge", "organiser"},
    MANAGE_LINK: {"anonymous", "entrant", "outside judge", "judge", "head judge", "organiser"},
    LOGGED_IN: {"entrant", "outside judge", "judge", "head judge", "organiser"},
    JUDGE: {"judge", "head judge", "organiser"},
    HEAD_JUDGE: {"head judge", "organiser"},
    ORGANISER: {"organiser"},
    SUPERUSER: set(),
}
VISITORS = ("anonymous", "entrant", "outside judge", "judge", "head judge", "organiser")

SECRET_EMAIL = "hemmelig.adresse@example.org"
SECRET_CONTACT = "foresatt.hemmelig@example.org"
SECRET_BIRTH = date(1987, 6, 5)
# The product asks for no phone number, but organisers type them into notes and
# payment references: they must not surface either.
SECRET_PHONE = "+47 912 34 567"
PHONE_SHAPED = re.compile(r"\+\d{2}[ \d]{8,12}\d|\b9\d{2} ?\d{2} ?\d{3}\b")


def routes(resolver=None, namespace="", prefix=""):
    """Yield (name, route) of every URL pattern of the project, admin's excepted."""
    for pattern in (resolver or get_resolver()).url_patterns:
        if isinstance(pattern, URLResolver):
            if pattern.namespace == "admin":
                continue
            yield from routes(
                pattern, pattern.namespace or namespace, prefix + str(pattern.pattern)
            )
        elif isinstance(pattern, URLPattern):
            yield f"{namespace}:{pattern.name}", prefix + str(pattern.pattern)


ROUTES = dict(routes())


@pytest.fixture
def world(db):
    """Championship A, running and seated, with a visitor of every kind; championship B."""
    a = factories.championship(slug="a", starts_at=datetime(NEXT_YEAR, 3, 14, 9, tzinfo=UTC))
    b = factories.championship(slug="b", ruleset="sm")
    individual = a.categories.get(kind="individual")
    tables_create(championship=a, count=4)
    person = factories.person(
        a, name="Kari Hemmelig", email=SECRET_EMAIL, birth_date=SECRET_BIRTH, region="Rogaland"
    )
    entry = factories.entry(
        individual,
        members=[person],
        publish_consent=True,
        contact_email=SECRET_CONTACT,
        notes=f"Ring mor på {SECRET_PHONE} ved sykdom.",
        payment_reference=f"Vipps {SECRET_PHONE}",
    )
    factories.entry(individual, publish_consent=True)
    final = individual.rounds.get()
    rounds.round_seat(round_=final)
    rounds.seating_publish(round_=final)
    (heat,) = rounds.round_start(round_=final)
    heat.started_at = timezone.now() - timedelta(minutes=30)
    heat.save()
    users = {
        "entrant": factories.user(),
        "outside judge": factories.role(b, Role.JUDGE),
        "judge": factories.role(a, Role.JUDGE),
        "head judge": factories.role(a, Role.HEAD_JUDGE),
        "organiser": factories.role(a, Role.ORGANISER),
    }
    capture_record(
        round_=final,
        entry=entry,
        judge=users["judge"],
        data=CaptureInput(
            client_id="3f8a1f0e-8c49-4a1e-9f7b-0b6c1c2d3e4f",
            kind="finish",
            at=timezone.now() - timedelta(seconds=5),
        ),
    )
    standings_recompute(round_=final)
    seat = Seat.objects.filter(round=final).first()
    table = seat.table
    kwargs = {
        "championship_slug": a.slug,
        "round_key": final.key,
        "category_key": "individual",
        "heat_key": heat.key,
        "seat": seat.pk,
        "pk": entry.pk,
        "number": table.number,
        "action": "start",
        "uidb64": "MQ",
        "link": 0,
        "judge_id": 0,
        "ref": person.puzzler.ref,
        "person": person.pk,
        "entry_ref": entry.ref,
        "code": checkin_code(entry),
        "request_id": 0,
        "statement_id": 0,
    }
    return {
        "a": a,
        "entry": entry,
        "table": table,
        "kwargs": kwargs,
        "users": users,
    }


def url_of(name, world):
    """Return the URL of a pattern, with the world's values for its parameters."""
    values = dict(world["kwargs"])
    if name in ("judging:table", "judging:table_state", "judging:start_now"):
        values["token"] = world["table"].token
    elif name in (
        "results:entry_page",
        "registration:withdraw",
        "registration:accept",
        "registration:judge_note",
        "registration:payment_code",
        "registration:represents",
        "registration:send_address_link",
        "results:entry_diploma",
        "api:entry-own",
        "api:entry-accept",
        "api:entry-withdraw",
    ):
        values["token"] = world["entry"].manage_token
    elif name in (
        "manage:entries_import_preview",
        "manage:entries_import_progress",
        "manage:payments_map",
    ):
        values["token"] = "no-such-upload"
    elif name in (":sign_in", "organisers:sign_in"):
        values["token"] = "no-such-sign-in-link"
    elif name == "registration:confirm_address":
        values["token"] = "no-such-address-link"
    elif name == ":password_reset_confirm":
        values["token"] = "set-password"
    elif name == "api:not-found":
        return "/api/v1/no/such/endpoint/"
    route = ROUTES[name]
    return "/" + re.sub(r"<(?:\w+:)?(\w+)>", lambda m: str(values[m.group(1)]), route)


def request(client, method, url):
    if method == "post":
        return client.post(url, {}, HTTP_ACCEPT="text/html")
    if method == "delete":
        return client.delete(url)
    return client.get(url)


def refused(response, visitor):
    """Return whether the answer refuses the visitor (log in first, or no access)."""
    if response.status_code in (401, 403):
        return True
    if response.status_code == 302:
        return reverse("login") in response.url
    return False


def client_for(visitor, world, client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    if visitor != "anonymous":
        client.force_login(world["users"][visitor])
    return client


def test_every_url_pattern_is_classified():
    assert set(ROUTES) == set(ACCESS)


@pytest.mark.parametrize("visitor", VISITORS)
def test_who_may_use_what(client, world, visitor):
    client = client_for(visitor, world, client)
    wrong = []
    # Logging out comes last: it would end the visitor's session for the others.
    for name, (kind, method) in sorted(ACCESS.items(), key=lambda item: item[0] == ":logout"):
        url = url_of(name, world)
        response = request(client, method, url)
        assert response.status_code < 500, (name, url, response.status_code)
        allowed = visitor in ALLOWED[kind]
        if allowed and refused(response, visitor):
            wrong.append(f"{visitor} refused at {name} ({response.status_code})")
        if not allowed and not refused(response, visitor):
            wrong.append(f"{visitor} let into {name} ({response.status_code})")
    assert not wrong, "\n".join(wrong)


def test_the_api_answers_token_holders_by_their_roles(client, world):
    organiser = Token.objects.create(user=world["users"]["organiser"]).key
    judge = Token.objects.create(user=world["users"]["judge"]).key
    export = url_of("api:championship-export", world)
    assert client.get(export, HTTP_AUTHORIZATION=f"Token {organiser}").status_code == 200
    assert client.get(export, HTTP_AUTHORIZATION=f"Token {judge}").status_code == 403
    assert client.get(export, HTTP_AUTHORIZATION="Token not-a-token").status_code == 401


def test_a_wrong_manage_link_or_table_code_finds_nothing(client, world):
    client = client_for("organiser", world, client)
    assert client.get(f"/{world['a'].slug}/entries/{'x' * 22}/").status_code == 404
    assert client.get(f"/t/{'y' * 22}/").status_code == 404


def test_no_personal_data_in_any_public_page_or_api_answer(client, world):
    """E-mail addresses, birth dates and phone numbers never appear where the public can look."""
    client = client_for("anonymous", world, client)
    birth_forms = {
        SECRET_BIRTH.isoformat(),
        SECRET_BIRTH.strftime("%d.%m.%Y"),
        SECRET_BIRTH.strftime("%d/%m/%Y"),
    }
    for name, (kind, method) in ACCESS.items():
        if kind != PUBLIC or method != "get":
            continue
        body = request(client, method, url_of(name, world)).content.decode(errors="replace")
        assert SECRET_EMAIL not in body and "hemmelig.adresse" not in body, name
        assert SECRET_CONTACT not in body and "foresatt.hemmelig" not in body, name
        assert not any(form in body for form in birth_forms), name
        assert not PHONE_SHAPED.search(body), (name, PHONE_SHAPED.search(body))
    # The scan would see them: the organiser's own list shows the payment reference.
    organiser = client_for("organiser", world, client)
    listed = organiser.get(f"/{world['a'].slug}/manage/entries/").content.decode()
    assert PHONE_SHAPED.search(listed) and SECRET_PHONE in listed
    # The registration page of the entrant's own championship lists names only.
    assert "Kari Hemmelig" in client.get(f"/{world['a'].slug}/").text
