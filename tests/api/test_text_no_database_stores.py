"""Text no database stores (a NUL character, a lone surrogate) is refused with a message, never
a 500: in an answer to the organiser's question through the API (anonymous), the form and the
CSV import, and in the admin's JSON fields. PostgreSQL's jsonb cannot hold ``\\u0000``; the
check does not depend on it, and holds on SQLite as well."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import DataError, connection, transaction
from django.utils.html import escape
from rest_framework.test import APIClient

from championship.models import Championship, ChampionshipRole
from core import jsonbounds
from registration.models import Entry, Person, Question
from tests import factories
from tests.championship.test_admin import admin_url, change_form_data
from tests.factories import NEXT_YEAR
from tests.registration.test_views import management, member_data

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]

NUL_REFUSED = "Null characters are not allowed."


@pytest.fixture
def asked(db):
    """A championship open for registration that asks one text question (id ``c8ee32c2c4``)."""
    championship = factories.championship(
        slug=f"rm-{NEXT_YEAR}", starts_at=datetime(NEXT_YEAR, 3, 14, 9, tzinfo=UTC)
    )
    Question.objects.create(championship=championship, ref="c8ee32c2c4", text="Allergies")
    return championship


def register_through_the_api(championship, answer):
    return APIClient().post(
        f"/api/v1/championships/{championship.slug}/categories/individual/entries/",
        {
            "members": [
                {
                    "name": "Kari",
                    "email": "kari@example.org",
                    "birth_date": "1980-01-01",
                    "region": "Rogaland",
                }
            ],
            "answers": {"c8ee32c2c4": answer},
        },
        format="json",
        HTTP_ACCEPT_LANGUAGE="en",
    )


def test_an_anonymous_answer_with_a_nul_is_400_with_the_question_named(asked):
    response = register_through_the_api(asked, "a\u0000b")
    assert response.status_code == 400
    assert response.json() == {"answers": {"c8ee32c2c4": [NUL_REFUSED]}}
    assert not Entry.objects.exists() and not Person.objects.exists()


def test_an_answer_with_a_lone_surrogate_is_400(asked):
    url = f"/api/v1/championships/{asked.slug}/categories/individual/entries/"
    body = '{"members": [{"name": "Kari", "email": "kari@example.org"}], '
    body += '"answers": {"c8ee32c2c4": "a\\ud800b"}}'
    response = APIClient().post(url, body, content_type="application/json")
    assert response.status_code == 400
    assert not Entry.objects.exists()


def test_the_answer_without_the_nul_is_stored(asked):
    assert register_through_the_api(asked, "a b").status_code == 201
    assert Entry.objects.get().answers == {"c8ee32c2c4": "a b"}


def test_the_form_refuses_an_answer_with_a_nul(client, asked):
    data = {
        **management(1),
        **member_data(0, name="Kari", email="kari@example.org"),
        "q_c8ee32c2c4": "a\u0000b",
    }
    response = client.post(f"/{asked.slug}/register/individual/", data)
    assert response.status_code == 200
    assert NUL_REFUSED in response.text
    assert not Entry.objects.exists()


def test_the_csv_import_refuses_a_file_with_a_nul(client, asked):
    client.force_login(factories.role(asked, ChampionshipRole.Role.ORGANISER, username="desk"))
    text = "category;name;e-mail;region;Allergies\nindividual;Kari;kari@example.org;Rogaland;a\0b\n"
    upload = SimpleUploadedFile("entries.csv", text.encode(), content_type="text/csv")
    response = client.post(f"/{asked.slug}/manage/entries/import/", {"file": upload})
    assert response.status_code == 200
    assert "The file is not a text file in UTF-8 or Windows-1252" in response.text
    assert not Entry.objects.exists()


@pytest.mark.parametrize(
    ("value", "why"),
    [
        ("a\u0000b", jsonbounds.NUL),
        ({"k\u0000": 1}, jsonbounds.NUL),
        ([["deep", {"x": "\udfff"}]], jsonbounds.LONE_SURROGATE),
        ({"a": ["ok", 1, None, True, 2.5]}, None),
    ],
)
def test_one_check_finds_the_text_wherever_it_is(value, why):
    assert jsonbounds.bad_text(value) == why


def test_the_parser_looks_for_lone_surrogates_alone():
    assert jsonbounds.bad_text(["a\u0000", "\ud800"], surrogates_only=True) == (
        jsonbounds.LONE_SURROGATE
    )
    assert jsonbounds.bad_text(["a\u0000"], surrogates_only=True) is None


# The admin's JSON fields ---------------------------------------------------------------------


def test_the_admin_refuses_a_nul_in_a_questions_choices(admin_client, asked):
    question = Question.objects.create(
        championship=asked, ref="size", text="Size", kind="choice", choices=["S", "M"]
    )
    url = admin_url(Question, "change", question.pk)
    data = change_form_data(admin_client.get(url))
    data.pop("categories")  # none chosen: asked in every category
    data["choices"] = json.dumps(["S", "M\u0000"])
    response = admin_client.post(url, data)
    assert response.status_code == 200
    assert NUL_REFUSED in response.text
    question.refresh_from_db()
    assert question.choices == ["S", "M"]


def test_the_admin_refuses_a_nul_in_the_rule_overrides(admin_client, asked):
    url = admin_url(Championship, "change", asked.pk)
    data = change_form_data(admin_client.get(url))
    data["rule_overrides"] = json.dumps({"eligibility_region": "Roga\u0000land"})
    response = admin_client.post(url, data)
    assert response.status_code == 200
    assert NUL_REFUSED in response.text
    asked.refresh_from_db()
    assert asked.rule_overrides == {}


def test_the_admin_refuses_a_lone_surrogate_in_a_citizenship(admin_client, asked):
    person = factories.person(asked, name="Kari", citizenship=["NO"])
    url = admin_url(Person, "change", person.pk)
    data = change_form_data(admin_client.get(url))
    data["citizenship"] = '["\\ud800"]'
    response = admin_client.post(url, data)
    assert response.status_code == 200
    assert escape("Unpaired surrogate characters are not allowed.") in response.text
    person.refresh_from_db()
    assert person.citizenship == ["NO"]


# On PostgreSQL, where jsonb refuses the NUL itself ---------------------------------------------


@pytest.mark.postgres
def test_on_postgresql_the_nul_answer_is_400_not_the_databases_error(asked):
    if connection.vendor != "postgresql":
        pytest.skip("jsonb's refusal of \\u0000 needs PostgreSQL: set DATABASE_URL=postgres://...")
    entry = factories.entry(asked.categories.get(key="individual"))
    # What the check stands before: the database's own refusal, a 500 if it were reached.
    with pytest.raises(DataError), transaction.atomic():
        Entry.objects.filter(pk=entry.pk).update(answers={"c8ee32c2c4": "a\u0000b"})
    response = register_through_the_api(asked, "a\u0000b")
    assert response.status_code == 400
    assert response.json() == {"answers": {"c8ee32c2c4": [NUL_REFUSED]}}
    assert Entry.objects.count() == 1
