"""Hostile input at the edge: bounded forms and JSON bodies, and clear refusals instead of 500.

A registration claiming 100,000 members builds no more member forms than the
category has members; a JSON body too large is 413 and one nested too deeply
400, before it is decoded; a NUL in a token or a heat, an address longer than
SMTP delivers, a seat that is no number, a time of 20 digits, text no database
stores: each gets a clear refusal and changes nothing.
"""

import io
import json
import uuid
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from api import parsers
from championship.models import Championship, ChampionshipRole, Seat
from championship.rulesets import CATEGORY_KINDS
from control import rounds
from control.setup_forms import CategorySetUpFormSet
from core import jsonbounds
from judging.models import Capture
from registration import forms as registration_forms
from registration.models import Entry
from tests import factories
from tests.factories import NEXT_YEAR

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]

Role = ChampionshipRole.Role
MiB = 1024 * 1024


def api_client(user=None) -> APIClient:
    client = APIClient()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    if user is not None:
        client.force_authenticate(user)
    return client


@pytest.fixture
def future(db):
    """A rogaland championship far enough ahead that registration is open."""
    return factories.championship(
        slug=f"rm-{NEXT_YEAR}", starts_at=datetime(NEXT_YEAR, 3, 14, 9, tzinfo=UTC)
    )


@pytest.fixture
def live(championship):
    """A heat started five minutes ago, two entries at two tables; a judge and a head judge."""
    individual = championship.categories.get(kind="individual")
    round_ = individual.rounds.get()
    tables = [factories.table(championship) for _ in range(2)]
    entries = [factories.entry(individual, name=name) for name in ("Ingrid Hansen", "Ola Berg")]
    heat = factories.heat(round_)
    for table, entry in zip(tables, entries, strict=True):
        Seat.objects.create(heat=heat, table=table, entry=entry)
    heat = rounds.heat_start(heat=heat)
    heat.started_at = timezone.now() - timedelta(minutes=5)
    heat.save()
    return SimpleNamespace(
        championship=championship,
        round=round_,
        heat=heat,
        tables=tables,
        entries=entries,
        judge=factories.role(championship, Role.JUDGE, username="judy"),
        head=factories.role(championship, Role.HEAD_JUDGE, username="hedda"),
    )


def member_fields(index, *, name, email="", **extra):
    prefix = f"members-{index}-"
    fields = {
        f"{prefix}name": name,
        f"{prefix}email": email,
        f"{prefix}birth_date": "1990-05-01",
        f"{prefix}city": "Stavanger",
        f"{prefix}country": "NO",
        f"{prefix}citizenship": "NO",
        f"{prefix}region": "Rogaland",
        f"{prefix}years_in_region": "",
    }
    fields.update({f"{prefix}{key}": value for key, value in extra.items()})
    return fields


def management(total, initial=0):
    return {
        "members-TOTAL_FORMS": str(total),
        "members-INITIAL_FORMS": str(initial),
        "members-MIN_NUM_FORMS": "0",
        "members-MAX_NUM_FORMS": "1000",
    }


@pytest.fixture
def member_forms_built(monkeypatch):
    """Count the member forms built, whatever builds them."""
    built = []
    original = registration_forms.MemberForm.__init__

    def counting(self, *args, **kwargs):
        built.append(self)
        original(self, *args, **kwargs)

    monkeypatch.setattr(registration_forms.MemberForm, "__init__", counting)
    return built


def register_url(championship, category, suffix=""):
    return f"/{championship.slug}/register/{category}/{suffix}"


# Formsets -------------------------------------------------------------------------------------


def hundred_thousand_members():
    """The management form claims 100,000 members; 990 names come (within Django's 1,000 fields)."""
    data = management(100_000)
    data.update({f"members-{index}-name": f"Member {index}" for index in range(990)})
    return data


def test_a_registration_claiming_100000_members_builds_at_most_the_categorys_forms(
    client, future, member_forms_built
):
    team = future.categories.get(kind="team")
    response = client.post(register_url(future, "team"), hundred_thousand_members())
    assert response.status_code == 200
    assert (
        f"An entry in this category has {team.min_members} to {team.max_members} members."
        in response.text
    )
    assert not Entry.objects.exists()
    assert 0 < len(member_forms_built) <= team.max_members
    assert response.text.count('<fieldset class="member card">') <= team.max_members


def test_the_live_check_of_a_100000_member_form_builds_at_most_the_categorys_forms(
    client, future, member_forms_built
):
    team = future.categories.get(kind="team")
    response = client.post(
        register_url(future, "team", "check/"), hundred_thousand_members(), HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    assert 0 < len(member_forms_built) <= team.max_members


def test_the_manage_page_bounds_the_members_formset_too(client, future, member_forms_built):
    individual = future.categories.get(kind="individual")
    entry = factories.entry(individual)
    response = client.post(f"/{future.slug}/entries/{entry.manage_token}/", management(100_000))
    assert response.status_code == 200
    assert "An entry in this category has 1 member." in response.text
    assert 0 < len(member_forms_built) <= individual.max_members


def test_the_new_championship_formset_builds_at_most_one_form_per_kind():
    data = {
        "categories-TOTAL_FORMS": "100000",
        "categories-INITIAL_FORMS": "0",
        "categories-MIN_NUM_FORMS": "0",
        "categories-MAX_NUM_FORMS": "1000",
    }
    formset = CategorySetUpFormSet(data, prefix="categories")
    assert len(formset.forms) == len(CATEGORY_KINDS)
    assert not formset.is_valid()
    assert formset.non_form_errors()


def test_the_registration_api_refuses_more_members_than_the_category_has(future):
    body = {"members": [{} for _ in range(100_000)]}
    response = api_client().post(
        f"/api/v1/championships/{future.slug}/categories/pair/entries/", body, format="json"
    )
    assert response.status_code == 400
    assert response.json() == {"members": ["An entry in this category has 2 members."]}
    assert not Entry.objects.exists()


# JSON bodies: size and depth ------------------------------------------------------------------


def capture_body(entry, **extra):
    return {
        "id": str(uuid.uuid4()),
        "round": "individual-final",
        "entry": entry.ref,
        "kind": "finish",
        "at": (timezone.now() - timedelta(seconds=3)).isoformat(),
        **extra,
    }


def captures_url(championship):
    return f"/api/v1/championships/{championship.slug}/captures/"


def nested(levels: int) -> str:
    return "[" * levels + "]" * levels


def test_a_capture_body_over_a_mebibyte_is_413(live):
    body = capture_body(live.entries[0], reason="x" * (2 * MiB))
    response = api_client(live.judge).post(captures_url(live.championship), body, format="json")
    assert response.status_code == 413
    assert response.json() == {"detail": "The request body is too large: at most 1.0\xa0MB."}
    assert not Capture.objects.exists()


def test_a_deeply_nested_capture_body_is_400(live):
    response = api_client(live.judge).post(
        captures_url(live.championship),
        nested(100_000),
        content_type="application/json",
    )
    assert response.status_code == 400
    assert response.json() == {"detail": "The JSON document nests too deeply: at most 32 levels."}
    assert not Capture.objects.exists()


def test_the_registration_api_refuses_a_large_body_and_a_deep_one(future):
    url = f"/api/v1/championships/{future.slug}/categories/individual/entries/"
    client = api_client()
    large = {"members": [{"name": "Kari", "city": "x" * (2 * MiB)}]}
    response = client.post(url, large, format="json")
    assert response.status_code == 413
    deep = '{"members": [{"name": "Kari", "citizenship": ' + nested(50) + "}]}"
    response = client.post(url, deep, content_type="application/json")
    assert response.status_code == 400
    assert "nests too deeply" in response.json()["detail"]
    assert not Entry.objects.exists()


def test_a_body_announced_too_large_is_refused_without_being_read(future):
    """The test client's payload refuses to be read past its end: 413 comes before any read."""
    url = f"/api/v1/championships/{future.slug}/categories/individual/entries/"
    response = api_client().post(url, {"members": []}, format="json", CONTENT_LENGTH=str(30 * MiB))
    assert response.status_code == 413
    assert not Entry.objects.exists()


class Endless(io.RawIOBase):
    """A body that never ends, counting what is read of it."""

    def __init__(self):
        self.read_bytes = 0

    def readable(self):
        return True

    def read(self, size=-1):
        assert size >= 0, "the whole body was asked for"
        self.read_bytes += size
        return b" " * size


def test_a_body_without_length_is_read_up_to_one_byte_over_the_limit():
    stream = Endless()
    with pytest.raises(parsers.BodyTooLarge):
        parsers.read_body(stream, {}, limit=1000)
    assert stream.read_bytes == 1001


@pytest.mark.parametrize(
    ("text", "levels"),
    [
        ("1", 0),
        ('{"a": [1, {"b": []}]}', 4),
        ('["[[[[{{{{", "\\"[[["]', 1),
        (nested(32), 32),
        (nested(33), 33),
    ],
)
def test_the_depth_is_counted_on_the_bytes_without_the_strings(text, levels):
    assert jsonbounds.deepest(text.encode()) == levels


@pytest.fixture
def superuser(db):
    return factories.user(username="root", is_superuser=True, is_staff=True)


IMPORT_URL = "/api/v1/championships/import/"


def exported(championship, slug):
    from interchange.export import export_document

    document = export_document(championship)
    document["championship"]["slug"] = slug
    return document


def test_the_import_takes_a_document_larger_than_other_bodies(championship, superuser):
    text = json.dumps(exported(championship, "copy")) + " " * (2 * MiB)
    response = api_client(superuser).post(IMPORT_URL, text, content_type="application/json")
    assert response.status_code == 201, response.content[:300]
    assert Championship.objects.filter(slug="copy").exists()


def test_the_import_refuses_a_body_over_its_own_limit_and_a_deep_one(superuser, db):
    client = api_client(superuser)
    response = client.post(
        IMPORT_URL, "{}", content_type="application/json", CONTENT_LENGTH=str(21 * MiB)
    )
    assert response.status_code == 413
    assert response.json() == {"detail": "The request body is too large: at most 20.0\xa0MB."}
    deep = '{"championship": ' + nested(100_000) + "}"
    response = client.post(IMPORT_URL, deep, content_type="application/json")
    assert response.status_code == 400
    assert "nests too deeply" in response.json()["detail"]
    assert Championship.objects.count() == 0


# Member e-mail ---------------------------------------------------------------------------------

LONG_EMAIL = "k" * 64 + "@" + ("b" * 60 + ".") * 3 + "example.org"  # 259 characters


def test_a_member_email_over_254_characters_is_refused_by_the_form(client, future):
    assert 254 < len(LONG_EMAIL) <= 320
    data = {
        **management(1),
        **member_fields(0, name="Kari Nordmann", email=LONG_EMAIL, publish_consent="on"),
    }
    response = client.post(register_url(future, "individual"), data)
    assert response.status_code == 200
    assert "Ensure this value has at most 254 characters" in response.text
    assert not Entry.objects.exists()


def test_a_member_email_over_254_characters_is_refused_by_the_api(future):
    body = {"members": [{"name": "Kari Nordmann", "email": LONG_EMAIL, "region": "Rogaland"}]}
    response = api_client().post(
        f"/api/v1/championships/{future.slug}/categories/individual/entries/", body, format="json"
    )
    assert response.status_code == 400
    assert response.json() == {
        "members": [{"email": ["Ensure this field has no more than 254 characters."]}]
    }
    assert not Entry.objects.exists()


# Tokens with a NUL -----------------------------------------------------------------------------


def test_a_nul_in_a_manage_link_is_404(client, future):
    entry = factories.entry(future.categories.get(kind="individual"))
    token = entry.manage_token[:5] + "%00" + entry.manage_token[5:]
    response = client.get(f"/{future.slug}/entries/{token}/")
    assert response.status_code == 404
    assert client.post(f"/{future.slug}/entries/{token}/withdraw/").status_code == 404
    assert client.get(f"/{future.slug}/entries/{entry.manage_token}/").status_code == 200


def test_a_nul_in_a_table_token_is_404(client, live):
    client.force_login(live.head)
    token = live.tables[0].token + "%00"
    assert client.get(f"/t/{token}/").status_code == 404
    state = client.get(f"/t/{token}/state/")
    assert state.status_code == 404 and state.json() == {"error": "unknown_table"}
    assert client.post(f"/t/{token}/start/", {"seat": "1"}).status_code == 404
    assert client.get(f"/t/{live.tables[0].token}/").status_code == 200


# ?heat= -----------------------------------------------------------------------------------------


def results_urls(live):
    slug, key = live.championship.slug, live.round.key
    return [f"/{slug}/results/{key}/", f"/{slug}/screen/{key}/"]


@pytest.mark.parametrize("heat", ["a%00", "a%0D%0ASet-Cookie:%20x=1", "zz", "a" * 31])
def test_a_heat_that_is_not_the_rounds_is_404_on_the_pages_and_their_polls(client, live, heat):
    for url in results_urls(live):
        page = client.get(f"{url}?heat={heat}")
        assert page.status_code == 404, url
        assert "There is no such heat in this round." in page.text
        poll = client.get(f"{url}?heat={heat}", HTTP_HX_REQUEST="true")
        assert poll.status_code == 404, url
        assert "ETag" not in poll
        # Through the middleware that answers unchanged polls first.
        again = client.get(
            f"{url}?heat={heat}", HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH='"1-1-en-table-a"'
        )
        assert again.status_code == 404, url


def test_a_heat_of_the_round_is_shown(client, live):
    for url in results_urls(live):
        assert client.get(f"{url}?heat=a").status_code == 200
        poll = client.get(f"{url}?heat=a", HTTP_HX_REQUEST="true")
        assert poll.status_code == 200 and poll["ETag"].endswith('-a"')


# Captures: text no database stores, a time of 20 digits ----------------------------------------


NUL_REFUSED = {
    "non_field_errors": [
        "The capture holds text that cannot be stored: a NUL character or an unpaired surrogate."
    ]
}
# Refused by the parser, for every endpoint: an answer cannot quote it back.
SURROGATE_REFUSED = {"detail": "The body holds text that cannot be stored: an unpaired surrogate."}


@pytest.mark.parametrize(
    ("extra", "refusal"),
    [
        ('"note\\u0000": 1', NUL_REFUSED),
        ('"note": "a\\u0000b"', NUL_REFUSED),
        ('"note": "\\ud800"', SURROGATE_REFUSED),
        ('"reason": "\\udfff"', SURROGATE_REFUSED),
        ('"\\ud800": 1', SURROGATE_REFUSED),
        ('"note": {"deeper": ["\\u0000"]}', NUL_REFUSED),
    ],
)
def test_a_capture_with_a_nul_or_a_lone_surrogate_is_400(live, extra, refusal):
    body = json.dumps(capture_body(live.entries[0]))[:-1] + ", " + extra + "}"
    response = api_client(live.judge).post(
        captures_url(live.championship), body, content_type="application/json"
    )
    assert response.status_code == 400
    assert response.json() == refusal
    assert not Capture.objects.exists()


def test_a_capture_keeps_only_the_fields_of_its_kind(live):
    body = capture_body(
        live.entries[0], note="hello", pieces_placed=None, time=None, reason="", extra={"a": [1]}
    )
    response = api_client(live.judge).post(captures_url(live.championship), body, format="json")
    assert response.status_code == 201, response.json()
    capture = Capture.objects.get()
    assert set(capture.payload) == {"id", "round", "entry", "kind", "at"}


def correction(live, time, **extra):
    return capture_body(live.entries[0], kind="correction", time=time, reason="Typo", **extra)


def test_a_correction_time_of_20_digits_is_400_by_the_api(live):
    client = api_client(live.head)
    response = client.post(
        captures_url(live.championship), correction(live, "99999999999999:00:00"), format="json"
    )
    assert response.status_code == 400
    assert response.json() == {"time": ["A time is at most 24:00:00."]}
    too_long = client.post(
        captures_url(live.championship), correction(live, "9" * 5000 + ":00:00"), format="json"
    )
    assert too_long.status_code == 400 and "time" in too_long.json()
    assert not Capture.objects.exists()
    ok = client.post(captures_url(live.championship), correction(live, "24:00:00"), format="json")
    assert ok.status_code == 201, ok.json()


def test_a_correction_time_of_20_digits_is_refused_on_the_dashboard(client, live):
    client.force_login(live.head)
    url = reverse(
        "manage:dashboard_correct",
        kwargs={"championship_slug": live.championship.slug, "round_key": live.round.key},
    )
    response = client.post(
        url,
        {
            "entry": live.entries[0].pk,
            "time": "99999999999999:00:00",
            "status": "finished",
            "reason": "Typo",
        },
    )
    assert response.status_code == 200
    assert "A time is at most 24:00:00." in response.text
    assert not Capture.objects.exists()


# A head judge's later start --------------------------------------------------------------------


@pytest.mark.parametrize("seat", ["abc", "²", "1" * 30, "-1"])
def test_a_later_start_for_a_seat_that_is_no_number_is_400(client, live, seat):
    client.force_login(live.head)
    url = reverse("judging:start_now", kwargs={"token": live.tables[0].token})
    response = client.post(url, {"seat": seat})
    assert response.status_code == 400
    assert response.text == "This seat is not at this table: open the table's page again."
    assert not Seat.objects.filter(started_at__isnull=False).exists()
