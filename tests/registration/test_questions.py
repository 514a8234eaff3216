"""The organiser's own questions: asked in the form, the API and the CSV import; shown to the
organiser and in the export; changed by the entrant through their link; carried by the
interchange format."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from rest_framework.test import APIClient

from championship.models import ChampionshipRole
from interchange.export import export_document
from interchange.format import InterchangeError
from interchange.write import import_document
from registration.models import Entry, Question
from registration.questions import clean_answers, questions_for
from tests import factories
from tests.registration.csv_entries import confirm, member, read_export, register, upload

# The pages in English (the root conftest's ``english``); ``future`` is the package conftest's.
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


@pytest.fixture
def asked(future):
    """Four questions: a shirt size (individual only, required), diet, allergies, first time."""
    individual = future.categories.get(kind="individual")
    shirt = Question.objects.create(
        championship=future,
        ref="shirt",
        order=1,
        text="T-shirt size",
        kind="choice",
        choices=["S", "M", "L"],
        required=True,
    )
    shirt.categories.set([individual])
    Question.objects.create(
        championship=future,
        ref="diet",
        order=2,
        text="Diet",
        kind="choices",
        choices=["Vegetarian", "Gluten-free", "Lactose-free"],
    )
    Question.objects.create(championship=future, ref="allergy", order=3, text="Allergies")
    Question.objects.create(
        championship=future, ref="first", order=4, text="First championship?", kind="yes_no"
    )
    return future


def test_each_kind_takes_its_answers_and_refuses_others(asked):
    individual = asked.categories.get(kind="individual")
    questions = questions_for(individual)
    assert [q.ref for q in questions] == ["shirt", "diet", "allergy", "first"]
    good = clean_answers(
        questions,
        {
            "shirt": "M",
            "diet": ["Lactose-free", "Vegetarian"],
            "allergy": "  nuts ",
            "first": True,
        },
    )
    # Choices in the question's order; text trimmed.
    assert good == {
        "shirt": "M",
        "diet": ["Vegetarian", "Lactose-free"],
        "allergy": "nuts",
        "first": True,
    }
    for answers, ref, message in (
        ({"diet": []}, "shirt", "needs an answer"),
        ({"shirt": "XL"}, "shirt", "Choose one of: S, M, L."),
        ({"shirt": "M", "diet": ["Vegan"]}, "diet", "Choose among"),
        ({"shirt": "M", "diet": "Vegetarian"}, "diet", "Give a list of choices."),
        ({"shirt": "M", "first": "yes"}, "first", "Answer yes or no."),
        ({"shirt": "M", "allergy": "x" * 501}, "allergy", "At most 500 characters."),
        ({"shirt": "M", "nope": "?"}, "nope", "No such question is asked"),
    ):
        with pytest.raises(ValidationError) as refused:
            clean_answers(questions, answers)
        assert message in " ".join(refused.value.message_dict[ref]), answers
    # The pair category is not asked the shirt size.
    pair = asked.categories.get(kind="pair")
    assert [q.ref for q in questions_for(pair)] == ["diet", "allergy", "first"]


def test_the_form_asks_stores_and_refuses(client, asked):
    individual = asked.categories.get(kind="individual")
    url = f"/{asked.slug}/register/{individual.key}/"
    page = client.get(url).content.decode()
    assert "T-shirt size" in page and "First championship?" in page
    base = {
        "members-TOTAL_FORMS": "1",
        "members-INITIAL_FORMS": "0",
        "members-MIN_NUM_FORMS": "0",
        "members-MAX_NUM_FORMS": "1000",
        "members-0-name": "Kari Nordmann",
        "members-0-email": "kari@example.org",
        "members-0-birth_date": "1980-01-01",
        "members-0-region": "Rogaland",
    }
    refused = client.post(url, base)
    assert refused.status_code == 200 and "This field is required." in refused.content.decode()
    assert not Entry.objects.exists()
    answered = client.post(
        url,
        {
            **base,
            "q_shirt": "L",
            "q_diet": ["Gluten-free"],
            "q_allergy": "Peanuts",
            "q_first": "no",
        },
    )
    assert answered.status_code == 302
    entry = Entry.objects.get()
    assert entry.answers == {
        "shirt": "L",
        "diet": ["Gluten-free"],
        "allergy": "Peanuts",
        "first": False,
    }
    # The entrant changes an answer through the private link.
    manage = f"/{asked.slug}/entries/{entry.manage_token}/"
    page = client.get(manage)
    form = page.context["entry_form"]
    formset = page.context["formset"]
    data = {}
    for each in [form, formset.management_form, *formset.forms]:
        for name in each.fields:
            value = each[name].value()
            if value not in (None, False):
                data[each[name].html_name] = "on" if value is True else value
    data["q_shirt"] = "S"
    assert client.post(manage, data).status_code == 302
    entry.refresh_from_db()
    assert entry.answers["shirt"] == "S" and entry.answers["allergy"] == "Peanuts"


def test_the_api_lists_the_questions_and_takes_answers(asked):
    api = APIClient()
    detail = api.get(f"/api/v1/championships/{asked.slug}/").json()
    shirt = next(q for q in detail["questions"] if q["id"] == "shirt")
    assert shirt == {
        "id": "shirt",
        "text": "T-shirt size",
        "kind": "choice",
        "choices": ["S", "M", "L"],
        "required": True,
        "categories": ["individual"],
    }
    url = f"/api/v1/championships/{asked.slug}/categories/individual/entries/"
    body = {
        "members": [
            {
                "name": "Kari",
                "email": "kari@example.org",
                "birth_date": "1980-01-01",
                "region": "Rogaland",
            }
        ],
        "answers": {"shirt": "XXL", "first": True},
    }
    refused = api.post(url, body, format="json")
    assert refused.status_code == 400
    assert refused.json()["answers"] == {"shirt": ["Choose one of: S, M, L."]}
    assert not Entry.objects.exists()
    body["answers"]["shirt"] = "M"
    created = api.post(url, body, format="json")
    assert created.status_code == 201, created.json()
    entry = Entry.objects.get()
    assert entry.answers == {"shirt": "M", "first": True}
    own = api.get(f"/api/v1/championships/{asked.slug}/entries/{entry.manage_token}/").json()
    assert own["answers"] == {"shirt": "M", "first": True}


def test_the_organiser_sees_them_and_the_csv_round_trips_them(client, asked):
    organiser = factories.role(asked, ChampionshipRole.Role.ORGANISER, username="desk")
    client.force_login(organiser)
    register(
        asked,
        "individual",
        [member("Kari Nordmann", "kari@example.org")],
        answers={"shirt": "M", "diet": ["Vegetarian", "Gluten-free"], "first": True},
    )
    listing = client.get(f"/{asked.slug}/manage/entries/?category=individual").content.decode()
    assert "<dt>T-shirt size</dt><dd>M</dd>" in listing
    assert "<dt>Diet</dt><dd>Vegetarian, Gluten-free</dd>" in listing
    exported = client.get(f"/{asked.slug}/manage/entries/export.csv?category=individual")
    (row,) = read_export(exported)
    # The question's text as it was written; the yes of a Norwegian championship's file.
    assert (row["T-shirt size"], row["Diet"], row["First championship?"]) == (
        "M",
        "Vegetarian; Gluten-free",
        "ja",
    )
    # Imported again (as a new entrant): the answers come back.
    Entry.objects.all().delete()
    text = (
        "category;name;e-mail;birth date;region;T-shirt size;Diet;First championship?\n"
        "individual;Ola Nordmann;ola@example.org;1980-01-01;Rogaland;L;"
        '"Vegetarian; Lactose-free";nei\n'
    )
    preview = upload(client, asked, text.encode())
    assert confirm(client, preview).status_code == 302
    entry = Entry.objects.get()
    assert entry.answers == {
        "shirt": "L",
        "diet": ["Vegetarian", "Lactose-free"],
        "first": False,
    }
    # A bad answer is a problem of the row, shown before anything is saved.
    bad = "category;name;e-mail;region;T-shirt size\nindividual;Per;per@example.org;Rogaland;XXL\n"
    page = client.get(upload(client, asked, bad.encode())).content.decode()
    assert "T-shirt size: Choose one of: S, M, L." in page


def test_the_organiser_adds_changes_and_removes_a_question(client, future):
    client.force_login(factories.role(future, ChampionshipRole.Role.ORGANISER, username="desk"))
    url = f"/{future.slug}/manage/questions/"
    one_choice = {
        "new-text": "Shirt",
        "new-kind": "choice",
        "new-choices_text": "M",
        "new-required": "on",
    }
    page = client.post(url, one_choice)
    assert page.status_code == 200
    assert "Give at least two choices, one per line." in page.content.decode()
    assert not Question.objects.exists()
    assert client.post(url, {**one_choice, "new-choices_text": "S\nM\n M \nL"}).status_code == 302
    question = Question.objects.get()
    assert (question.choices, question.required, question.order) == (["S", "M", "L"], True, 1)
    entry = register(
        future, "individual", [member("Kari", "kari@example.org")], answers={question.ref: "S"}
    )
    prefix = f"q{question.pk}"
    changed = {
        "question": question.pk,
        f"{prefix}-text": "T-shirt size",
        f"{prefix}-kind": "choice",
        f"{prefix}-choices_text": "S\nM\nL\nXL",
    }
    assert client.post(url, changed).status_code == 302
    question.refresh_from_db()
    assert (question.text, question.choices, question.required) == (
        "T-shirt size",
        ["S", "M", "L", "XL"],
        False,
    )
    delete = f"{url}{question.pk}/delete/"
    client.post(delete)  # not confirmed: nothing happens
    assert Question.objects.exists()
    assert client.post(delete, {"confirm": "yes"}).status_code == 302
    assert not Question.objects.exists()
    entry.refresh_from_db()
    assert entry.answers == {}


def test_the_question_services_order_ask_and_remove_with_the_answers(asked):
    from registration.questions import question_add, question_change, question_delete

    individual, pair = (asked.categories.get(kind=kind) for kind in ("individual", "pair"))
    added = question_add(
        championship=asked, question=Question(text="Club", ref="club"), categories=[pair]
    )
    assert added.order == 5 and list(added.categories.all()) == [pair]
    question_change(question=added, categories=[individual, pair])
    assert set(added.categories.all()) == {individual, pair}
    entry = register(
        asked,
        "individual",
        [member("Kari", "kari@example.org")],
        answers={"shirt": "M", "club": "Puslerne"},
    )
    question_delete(question=added)
    entry.refresh_from_db()
    assert entry.answers == {"shirt": "M"}
    assert not Question.objects.filter(ref="club").exists()


def test_the_interchange_format_carries_questions_and_answers(asked):
    register(
        asked,
        "individual",
        [member("Kari Nordmann", "kari@example.org")],
        answers={"shirt": "M", "allergy": "Nuts"},
    )
    document = export_document(asked)
    assert [q["id"] for q in document["questions"]] == ["shirt", "diet", "allergy", "first"]
    document["championship"]["slug"] = "copy-with-questions"
    copy = import_document(document)
    entry = Entry.objects.get(category__championship=copy)
    assert entry.answers == {"shirt": "M", "allergy": "Nuts"}
    assert list(copy.questions.get(ref="shirt").categories.values_list("key", flat=True)) == [
        "individual"
    ]
    (competition,) = [c for c in document["competitions"] if c["key"] == "individual"]
    competition["entries"][0]["answers"] = {"shirt": "XXL"}
    document["championship"]["slug"] = "copy-refused"
    with pytest.raises(InterchangeError) as refused:
        import_document(document)
    assert refused.value.path == "competitions[0].entries[0].answers.shirt"
