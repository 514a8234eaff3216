"""The prior-ranking import: the preview, the files it reads, what confirming saves."""

from datetime import timedelta

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from championship.services import tables_create
from registration.models import Entry
from tests import factories
from tests.control.control_room import T0, said, seats_of, url

pytestmark = pytest.mark.django_db


# Prior ranking ---------------------------------------------------------------------------------


def upload(client, path, content: bytes, name="ranking.csv", **kwargs):
    return client.post(
        path,
        {"action": "upload", "file": SimpleUploadedFile(name, content, "text/csv")},
        **kwargs,
    )


@pytest.fixture
def ranked_field(individual):
    """Four entries: Åse and Bjørn with e-mails, Ødegård & co by name, one left unranked."""
    championship = individual.championship
    made = {}
    for number, (name, email) in enumerate(
        [
            ("Åse Økland", "ase@example.no"),
            ("Bjørn Berg", "Bjorn.Berg@Example.no"),
            ("Ødegård Sæther", "ode@example.no"),
            ("Unranked Person", "nobody@example.no"),
        ]
    ):
        person = factories.person(championship, name=name, email=email, region="Rogaland")
        made[name] = factories.entry(
            individual, members=[person], registered_at=T0 + timedelta(minutes=number)
        )
    return made


def test_ranking_preview_matches_by_email_and_name_and_saves_nothing(org, rm, final, ranked_field):
    content = (
        "email,name,rank\n"
        "BJORN.BERG@example.NO,,1\n"
        ",ødegård sæther,2\n"
        "ase@example.no,Whatever,3\n"
        "ghost@example.no,,4\n"
        ",Åse Økland,5\n"
        "nobody@example.no,,first\n"
    ).encode()
    path = url("round_ranking", rm, final)
    response = upload(org, path, content)
    assert response.status_code == 302 and response.url == path
    response = org.get(path)
    preview = response.context["preview"]
    assert [(row.line, row.entry.name, row.rank) for row in preview.matched] == [
        (2, "Bjørn Berg", 1),
        (3, "Ødegård Sæther", 2),
        (4, "Åse Økland", 3),
    ]
    assert [(row.line, row.problem) for row in preview.unmatched] == [
        (5, "No confirmed entry of this category has this e-mail or name."),
        (6, "Row 4 already ranks Åse Økland."),
        (7, "“first” is not a rank (a whole number from 1)."),
    ]
    assert [entry.name for entry in preview.not_in_file] == ["Unranked Person"]
    page = response.content.decode()
    assert "Save the ranks of 3 entries" in page and "Unranked Person" in page
    assert not Entry.objects.filter(prior_ranking__isnull=False).exists()


def test_a_windows_1252_semicolon_file_is_read_and_confirming_saves_the_ranks(
    org, rm, individual, final, ranked_field
):
    tables_create(championship=rm, count=6)
    Entry.objects.filter(pk=ranked_field["Unranked Person"].pk).update(prior_ranking=9)
    content = "Name;Rank\r\nØdegård Sæther;1\r\nÅse Økland;2\r\nBjørn Berg;3\r\n".encode("cp1252")
    path = url("round_ranking", rm, final)
    upload(org, path, content)
    assert [row.rank for row in org.get(path).context["preview"].matched] == [1, 2, 3]
    response = org.post(path, {"action": "confirm", "clear_others": "yes"}, follow=True)
    assert said(response) == ["The prior ranking of 3 entries is saved."]
    ranks = dict(Entry.objects.values_list("name", "prior_ranking"))
    assert ranks == {
        "Ødegård Sæther": 1,
        "Åse Økland": 2,
        "Bjørn Berg": 3,
        "Unranked Person": None,
    }
    # The preview is gone from the session: confirming again is refused.
    response = org.post(path, {"action": "confirm"}, follow=True)
    assert said(response) == ["Upload the file again: its preview has expired."]
    # Seating by seeding follows the ranks; the unranked sit last.
    org.post(url("round_seat", rm, final), {"heats": "1", "order": "seeding"})
    assert [(s.table.number, s.entry.name) for s in seats_of(final)] == [
        (1, "Ødegård Sæther"),
        (2, "Åse Økland"),
        (3, "Bjørn Berg"),
        (4, "Unranked Person"),
    ]


def test_confirming_can_keep_the_other_entries_ranks(org, rm, final, ranked_field):
    Entry.objects.filter(pk=ranked_field["Unranked Person"].pk).update(prior_ranking=9)
    path = url("round_ranking", rm, final)
    upload(org, path, b"email,rank\nase@example.no,1\n")
    org.post(path, {"action": "confirm"})
    assert Entry.objects.get(pk=ranked_field["Unranked Person"].pk).prior_ranking == 9
    assert Entry.objects.get(pk=ranked_field["Åse Økland"].pk).prior_ranking == 1


def test_cancelling_the_preview_saves_nothing(org, rm, final, ranked_field):
    path = url("round_ranking", rm, final)
    upload(org, path, b"email;rank\nase@example.no;1\n")
    response = org.post(path, {"action": "cancel"}, follow=True)
    assert response.context["preview"] is None
    assert not Entry.objects.filter(prior_ranking__isnull=False).exists()


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"who,place\nase@example.no,1\n", "must name the columns"),
        (b"", "The submitted file is empty."),
        (b"\n ; \n\n", "The file is empty."),
        (b"\x81\x8d\x8f\x90\x9d", "neither UTF-8 nor Windows-1252"),
    ],
)
def test_a_file_that_cannot_be_read_is_refused(org, rm, final, ranked_field, content, message):
    response = upload(org, url("round_ranking", rm, final), content)
    assert response.status_code == 200
    assert any(message in error for error in response.context["form"].errors["file"])
    assert response.context["preview"] is None


def test_ranking_import_matches_only_confirmed_entries_of_the_category(org, rm, individual, final):
    person = factories.person(rm, name="Waiting Wenche", email="w@example.no")
    factories.entry(individual, members=[person], status=Entry.Status.WAITLISTED)
    pair = rm.categories.get(kind="pair")
    factories.entry(pair, name="Other Category")
    path = url("round_ranking", rm, final)
    upload(org, path, b"email,name,rank\nw@example.no,,1\n,Other Category,2\n")
    preview = org.get(path).context["preview"]
    assert not preview.matched and len(preview.unmatched) == 2
