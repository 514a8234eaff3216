"""The admin: every page answers, organisers see only their own championships, captures stay put."""

import json
import uuid
from datetime import UTC, datetime

import pytest
from django.contrib import admin
from django.contrib.auth.models import Permission, User
from django.test import RequestFactory
from django.urls import reverse

from championship.models import (
    Category,
    Championship,
    ChampionshipRole,
    Heat,
    Round,
    Seat,
    Table,
)
from control.admin import ChampionshipAdmin
from judging.models import Capture
from registration.models import Entry, EntryMember, Person
from registration.services import entries_mark_paid
from results.models import Result

APPS = ("championship", "registration", "judging", "results")


# Factories ----------------------------------------------------------------------------


def make_championship(slug="alpha", name="Alpha Open", **fields) -> Championship:
    values = {
        "slug": slug,
        "name": name,
        "ruleset": "rogaland",
        "starts_at": datetime(2030, 3, 2, 9, 0, tzinfo=UTC),
        "currency": "NOK",
        "language": "nb",
    }
    values.update(fields)
    return Championship.objects.create(**values)


def make_world(slug="alpha", name="Alpha Open", judge=None) -> dict:
    """Create a championship with one object of every model, named after ``name``."""
    championship = make_championship(slug=slug, name=name)
    category = Category.objects.create(
        championship=championship, key="individual", kind="individual", name=f"{name} Solo"
    )
    round_ = Round.objects.create(
        category=category, key="individual-final", name="Final", stage="final"
    )
    heat = Heat.objects.create(round=round_, key="h1", name="Heat 1")
    table = Table.objects.create(championship=championship, number=1, label=f"{name} table")
    person = Person.objects.create(
        championship=championship, name=f"{name} Puzzler", email=f"{slug}@example.com"
    )
    entry = Entry.objects.create(category=category, name=f"{name} Entry")
    EntryMember.objects.create(entry=entry, person=person, position=1)
    seat = Seat.objects.create(heat=heat, table=table, entry=entry)
    judge = judge or User.objects.create_user(f"judge-{slug}")
    role = ChampionshipRole.objects.create(championship=championship, user=judge, role="judge")
    capture = Capture.objects.create(
        client_id=uuid.uuid4(),
        championship=championship,
        round=round_,
        heat=heat,
        entry=entry,
        kind="finish",
        judge=judge,
        elapsed_ms=1_234_567,
        reason="",
    )
    result = Result.objects.create(
        round=round_, heat=heat, entry=entry, status="finished", time_ms=1_234_567
    )
    return {
        Championship: championship,
        Category: category,
        Round: round_,
        Heat: heat,
        Table: table,
        Seat: seat,
        ChampionshipRole: role,
        Person: person,
        Entry: entry,
        Capture: capture,
        Result: result,
    }


def admin_url(model, view, *args) -> str:
    opts = model._meta
    return reverse(f"admin:{opts.app_label}_{opts.model_name}_{view}", args=args)


def form_data(form) -> dict:
    """Return what a browser would post for ``form`` as it was rendered (its initial values)."""
    data = {}
    for name, field in form.fields.items():
        key = form.add_prefix(name)
        value = form[name].value()
        if isinstance(value, datetime):
            data[f"{key}_0"] = value.strftime("%Y-%m-%d")
            data[f"{key}_1"] = value.strftime("%H:%M:%S")
        elif value is True:
            data[key] = "on"
        elif value is None or value is False:
            if field.required:
                data[key] = ""
        elif isinstance(value, dict | list):
            data[key] = json.dumps(value)
        else:
            data[key] = value
    return data


def change_form_data(response) -> dict:
    """Return the post data of an admin change page, inlines and management forms included."""
    data = form_data(response.context["adminform"].form)
    for inline in response.context["inline_admin_formsets"]:
        formset = inline.formset
        data.update(form_data(formset.management_form))
        for form in formset.initial_forms:
            data.update(form_data(form))
    for key in list(data):
        if key.endswith("-TOTAL_FORMS"):
            data[key] = data[key.replace("-TOTAL_FORMS", "-INITIAL_FORMS")]
    return data


@pytest.fixture
def world(db):
    return make_world()


@pytest.fixture
def organiser(db):
    """A staff user with every permission of the four apps, organiser of championship A."""
    user = User.objects.create_user("organiser", password="x", is_staff=True)
    user.user_permissions.set(Permission.objects.filter(content_type__app_label__in=APPS))
    return user


@pytest.fixture
def two_championships(organiser):
    a = make_world("alpha", "Alpha Open")
    b = make_world("bravo", "Bravo Cup")
    ChampionshipRole.objects.create(championship=a[Championship], user=organiser, role="organiser")
    return a, b


# Every page answers ------------------------------------------------------------------


@pytest.mark.django_db
def test_every_changelist_answers_for_a_superuser(admin_client, world):
    for model in admin.site._registry:
        response = admin_client.get(admin_url(model, "changelist"))
        assert response.status_code == 200, model


@pytest.mark.django_db
def test_every_changelist_search_answers(admin_client, world):
    for model in admin.site._registry:
        response = admin_client.get(admin_url(model, "changelist"), {"q": "x"})
        assert response.status_code == 200, model


@pytest.mark.django_db
def test_every_add_page_answers_for_a_superuser(admin_client, rf, admin_user):
    for model, model_admin in admin.site._registry.items():
        request = rf.get("/")
        request.user = admin_user
        expected = 200 if model_admin.has_add_permission(request) else 403
        response = admin_client.get(admin_url(model, "add"))
        assert response.status_code == expected, model
    assert not admin.site._registry[Capture].has_add_permission(request)


@pytest.mark.django_db
def test_every_change_page_answers_for_a_superuser(admin_client, world):
    for model, obj in world.items():
        response = admin_client.get(admin_url(model, "change", obj.pk))
        assert response.status_code == 200, model


@pytest.mark.django_db
def test_every_model_is_registered():
    registered = set(admin.site._registry)
    assert {
        Championship,
        Category,
        Round,
        Heat,
        Table,
        Seat,
        ChampionshipRole,
        Person,
        Entry,
        Capture,
        Result,
    } <= registered
    entry_inlines = {inline.model for inline in admin.site._registry[Entry].inlines}
    assert EntryMember in entry_inlines


# Scoping -------------------------------------------------------------------------------


@pytest.mark.django_db
def test_organiser_sees_only_own_categories_and_entries(client, organiser, two_championships):
    a, _b = two_championships
    client.force_login(organiser)

    response = client.get(admin_url(Category, "changelist"))
    assert response.status_code == 200
    html = response.content.decode()
    assert "Alpha Open Solo" in html
    assert "Bravo" not in html
    assert list(response.context["cl"].queryset) == [a[Category]]

    response = client.get(admin_url(Entry, "changelist"))
    assert response.status_code == 200
    html = response.content.decode()
    assert "Alpha Open Entry" in html
    assert "Bravo" not in html
    assert list(response.context["cl"].queryset) == [a[Entry]]


@pytest.mark.django_db
def test_organiser_sees_only_own_objects_of_every_model(client, organiser, two_championships):
    a, b = two_championships
    client.force_login(organiser)
    for model, obj in b.items():
        response = client.get(admin_url(model, "changelist"))
        assert response.status_code == 200, model
        queryset = response.context["cl"].queryset
        assert obj not in queryset, model
        assert a[model] in queryset, model


@pytest.mark.django_db
def test_organiser_cannot_open_another_championships_objects(client, organiser, two_championships):
    a, b = two_championships
    client.force_login(organiser)

    response = client.get(admin_url(Entry, "change", b[Entry].pk))
    assert response.status_code in (302, 404)
    if response.status_code == 302:
        assert response["Location"] == reverse("admin:index")

    for model, obj in b.items():
        response = client.get(admin_url(model, "change", obj.pk))
        assert response.status_code in (302, 404), model

    assert client.get(admin_url(Entry, "change", a[Entry].pk)).status_code == 200


@pytest.mark.django_db
def test_organiser_edits_own_championship_but_cannot_add_one(client, organiser, two_championships):
    a, b = two_championships
    client.force_login(organiser)

    assert client.get(admin_url(Championship, "add")).status_code == 403
    response = client.post(
        admin_url(Championship, "add"),
        {"slug": "new", "name": "New", "ruleset": "rogaland", "currency": "NOK"},
    )
    assert response.status_code == 403
    assert not Championship.objects.filter(slug="new").exists()

    assert client.get(admin_url(Championship, "change", a[Championship].pk)).status_code == 200
    assert client.get(admin_url(Championship, "change", b[Championship].pk)).status_code in (
        302,
        404,
    )


@pytest.mark.django_db
def test_organiser_saves_own_championship_and_adds_a_round(client, organiser, two_championships):
    a, b = two_championships
    championship = a[Championship]
    client.force_login(organiser)
    url = admin_url(Championship, "change", championship.pk)
    data = change_form_data(client.get(url))
    data["name"] = "Alpha Open 2030"
    data["rounds-TOTAL_FORMS"] = int(data["rounds-INITIAL_FORMS"]) + 1
    new = f"rounds-{data['rounds-INITIAL_FORMS']}-"
    data.update(
        {
            f"{new}category": a[Category].pk,
            f"{new}key": "individual-semifinal",
            f"{new}name": "Semifinal",
            f"{new}order": 2,
            f"{new}stage": "semifinal",
            f"{new}state": "planned",
            f"{new}advance": "overall",
            f"{new}advance_count": 10,
        }
    )
    response = client.post(url, data)
    assert response.status_code == 302, response.context["adminform"].form.errors
    championship.refresh_from_db()
    assert championship.name == "Alpha Open 2030"
    semifinal = Round.objects.get(key="individual-semifinal")
    assert semifinal.championship == championship
    assert semifinal.category == a[Category]

    # A round of the other championship's category is refused.
    data = change_form_data(client.get(url))
    data["rounds-TOTAL_FORMS"] = int(data["rounds-INITIAL_FORMS"]) + 1
    new = f"rounds-{data['rounds-INITIAL_FORMS']}-"
    data.update(
        {
            f"{new}category": b[Category].pk,
            f"{new}key": "sneaky",
            f"{new}name": "Sneaky",
            f"{new}order": 3,
            f"{new}stage": "final",
            f"{new}state": "planned",
            f"{new}advance": "none",
        }
    )
    response = client.post(url, data)
    assert response.status_code == 200
    assert not Round.objects.filter(key="sneaky").exists()


@pytest.mark.django_db
def test_organiser_foreign_key_choices_are_scoped(client, organiser, two_championships):
    a, b = two_championships
    client.force_login(organiser)

    response = client.get(admin_url(Category, "add"))
    choices = response.context["adminform"].form.fields["championship"].queryset
    assert list(choices) == [a[Championship]]

    response = client.get(admin_url(Seat, "add"))
    fields = response.context["adminform"].form.fields
    assert list(fields["table"].queryset) == [a[Table]]
    assert list(fields["entry"].queryset) == [a[Entry]]
    assert list(fields["heat"].queryset) == [a[Heat]]

    response = client.post(
        admin_url(Category, "add"),
        {
            "championship": b[Championship].pk,
            "key": "pair",
            "kind": "pair",
            "order": 0,
            "min_members": 2,
            "max_members": 2,
            "pieces": 500,
            "time_limit_minutes": 120,
            "fee": "0",
        },
    )
    assert response.status_code == 200  # the form again, with an error
    assert "championship" in response.context["adminform"].form.errors
    assert not Category.objects.filter(championship=b[Championship], key="pair").exists()


@pytest.mark.django_db
def test_autocomplete_is_scoped(client, organiser, two_championships):
    a, _b = two_championships
    client.force_login(organiser)
    response = client.get(
        reverse("admin:autocomplete"),
        {"app_label": "results", "model_name": "result", "field_name": "entry", "term": ""},
    )
    assert response.status_code == 200
    ids = {int(item["id"]) for item in response.json()["results"]}
    assert ids == {a[Entry].pk}


@pytest.mark.django_db
def test_staff_without_a_role_sees_nothing(client, two_championships):
    user = User.objects.create_user("staff", is_staff=True)
    user.user_permissions.set(Permission.objects.filter(content_type__app_label__in=APPS))
    client.force_login(user)
    response = client.get(admin_url(Entry, "changelist"))
    assert response.status_code == 200
    assert list(response.context["cl"].queryset) == []


@pytest.mark.django_db
def test_round_inline_offers_only_the_championships_categories(admin_client, world):
    make_world("bravo", "Bravo Cup")
    championship = world[Championship]
    response = admin_client.get(admin_url(Championship, "change", championship.pk))
    round_formsets = [
        inline.formset
        for inline in response.context["inline_admin_formsets"]
        if inline.formset.model is Round
    ]
    assert len(round_formsets) == 1
    choices = round_formsets[0].form.base_fields["category"].queryset
    assert list(choices) == [world[Category]]


# Captures are append-only -------------------------------------------------------------


@pytest.mark.django_db
def test_capture_admin_refuses_changes_even_to_a_superuser(admin_client, world):
    capture = world[Capture]

    response = admin_client.get(admin_url(Capture, "change", capture.pk))
    assert response.status_code == 200  # read-only view
    assert str(capture.client_id) in response.content.decode()
    assert b'name="_save"' not in response.content

    response = admin_client.post(admin_url(Capture, "change", capture.pk), {"reason": "edited"})
    assert response.status_code == 403
    assert admin_client.get(admin_url(Capture, "delete", capture.pk)).status_code == 403
    response = admin_client.post(admin_url(Capture, "delete", capture.pk), {"post": "yes"})
    assert response.status_code == 403
    assert Capture.objects.filter(pk=capture.pk).exists()
    assert admin_client.get(admin_url(Capture, "add")).status_code == 403

    response = admin_client.get(admin_url(Capture, "changelist"))
    assert "delete_selected" not in response.content.decode()
    capture.refresh_from_db()
    assert capture.reason == ""


@pytest.mark.django_db
def test_results_are_view_only_even_to_a_superuser(admin_client, world):
    """A result is derived from captures; the admin shows it and changes nothing."""
    result = world[Result]
    response = admin_client.get(admin_url(Result, "change", result.pk))
    assert response.status_code == 200
    assert "Final time" in response.text or "final time" in response.text.lower()
    posted = admin_client.post(admin_url(Result, "change", result.pk), {"time_ms": 1})
    assert posted.status_code == 403
    result.refresh_from_db()
    assert result.time_ms != 1
    assert admin_client.get(admin_url(Result, "add")).status_code == 403


# Entries -----------------------------------------------------------------------------


@pytest.mark.django_db
def test_mark_as_paid_action(admin_client, world):
    entry = world[Entry]
    other = Entry.objects.create(category=entry.category, name="Other")
    response = admin_client.post(
        admin_url(Entry, "changelist"),
        {"action": "mark_as_paid", "_selected_action": [entry.pk]},
        follow=True,
    )
    assert response.status_code == 200
    entry.refresh_from_db()
    other.refresh_from_db()
    assert entry.payment_status == "paid"
    assert other.payment_status == "unpaid"


@pytest.mark.django_db
def test_mark_paid_counts_only_changed_entries(world):
    entry = world[Entry]
    assert entries_mark_paid(entries=Entry.objects.filter(pk=entry.pk)) == 1
    assert entries_mark_paid(entries=Entry.objects.filter(pk=entry.pk)) == 0


@pytest.mark.django_db
def test_entry_search_finds_members_names_and_emails(admin_client, world):
    entry = world[Entry]
    for term in ("Alpha Open Puzzler", "alpha@example.com", entry.ref, "Alpha Open Entry"):
        response = admin_client.get(admin_url(Entry, "changelist"), {"q": term})
        assert list(response.context["cl"].queryset) == [entry], term
    response = admin_client.get(admin_url(Entry, "changelist"), {"q": "nobody"})
    assert list(response.context["cl"].queryset) == []


# Championship --------------------------------------------------------------------------


@pytest.mark.django_db
def test_championship_form_validates_rule_overrides(admin_user):
    request = RequestFactory().get("/")
    request.user = admin_user
    model_admin = ChampionshipAdmin(Championship, admin.site)
    form_class = model_admin.get_form(request)
    data = {
        "name": "Gamma",
        "slug": "gamma",
        "is_public": "on",
        "starts_at_0": "2030-03-02",
        "starts_at_1": "09:00:00",
        "timezone": "Europe/Oslo",
        "ruleset": "rogaland",
        "currency": "NOK",
        "language": "nb",
    }
    form = form_class(data={**data, "rule_overrides": '{"no_such_parameter": 1}'})
    assert not form.is_valid()
    assert "rule_overrides" in form.errors

    form = form_class(data={**data, "rule_overrides": "{}"})
    assert form.is_valid(), form.errors


@pytest.mark.django_db
def test_table_token_is_read_only(admin_client, world):
    table = world[Table]
    response = admin_client.get(admin_url(Table, "change", table.pk))
    assert "token" not in response.context["adminform"].form.fields
    assert table.token in response.content.decode()


@pytest.mark.django_db
def test_a_larger_capacity_in_the_admin_confirms_the_waiting_list(
    admin_client, django_capture_on_commit_callbacks
):
    from championship.models import Category
    from registration.models import Entry
    from tests import factories

    championship = factories.championship(slug="cap-admin")
    category = championship.categories.get(kind="individual")
    Category.objects.filter(pk=category.pk).update(capacity=1)
    factories.entry(category, status="confirmed")
    waiting = factories.entry(category, status="waitlisted")
    page = admin_client.get(admin_url(Category, "change", category.pk))
    form = page.context["adminform"].form
    data = {name: form[name].value() for name in form.fields if form[name].value() is not None}
    data["capacity"] = 2
    for inline in page.context["inline_admin_formsets"]:
        management = inline.formset.management_form
        for name in management.fields:
            data[management.add_prefix(name)] = management[name].value()
    with django_capture_on_commit_callbacks(execute=True):
        response = admin_client.post(admin_url(Category, "change", category.pk), data)
    assert response.status_code == 302, (
        getattr(response, "context", None) and response.context["adminform"].form.errors
    )
    waiting.refresh_from_db()
    assert waiting.status == Entry.Status.CONFIRMED
    category.refresh_from_db()
    assert category.capacity == 2
