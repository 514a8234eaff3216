"""Notes for judges: set by the organiser or the entrant, shown at the table, never public."""

import pytest
from django.conf import settings
from django.urls import reverse
from rest_framework.test import APIClient

from championship.models import ChampionshipRole
from championship.services import tables_create
from control import rounds
from tests import factories

pytestmark = pytest.mark.django_db

NOTE = "Cannot call TIME aloud: watches for a raised card"


@pytest.fixture
def seated(championship):
    """The individual final seated and published, its seating public; a judge."""
    individual = championship.categories.get(kind="individual")
    entry = factories.entry(
        individual,
        members=[factories.person(championship, name="Stille Sofie", region="Rogaland")],
        publish_consent=True,
    )
    factories.entry(individual, publish_consent=True)
    tables_create(championship=championship, count=2)
    final = individual.rounds.get()
    rounds.round_seat(round_=final)
    rounds.seating_publish(round_=final)
    return championship, final, entry


def test_the_entrant_sets_a_note_and_the_judge_sees_it_at_the_table(client, seated):
    championship, final, entry = seated
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    url = reverse("registration:judge_note", args=[championship.slug, entry.manage_token])
    assert client.post(url, {"judge_note": f"  {NOTE}  "}).status_code == 302
    entry.refresh_from_db()
    assert entry.judge_note == NOTE
    refused = client.post(url, {"judge_note": "x" * 301}, follow=True)
    assert "At most 300 characters." in refused.content.decode()
    refused = client.post(url, {"judge_note": "a\x00b"}, follow=True)
    assert "Null characters are not allowed." in refused.content.decode()
    entry.refresh_from_db()
    assert entry.judge_note == NOTE
    judge = factories.role(championship, ChampionshipRole.Role.JUDGE, username="judy")
    client.force_login(judge)
    table = final.seats.get(entry=entry).table
    shown = f"<strong>Note for the judges:</strong> {NOTE}"
    # Before the start (the next heat's list) and while the heat runs (the entry's panel).
    page = client.get(reverse("judging:table", args=[table.token])).content.decode()
    assert shown in page
    rounds.round_start(round_=final)
    page = client.get(reverse("judging:table", args=[table.token])).content.decode()
    assert shown in page
    # The other table's judge page says nothing of it.
    other = final.seats.exclude(entry=entry).get().table
    assert NOTE not in client.get(reverse("judging:table", args=[other.token])).content.decode()


def test_the_organiser_sets_it_and_the_card_only_says_there_is_one(client, seated):
    championship, final, entry = seated
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    client.force_login(factories.role(championship, ChampionshipRole.Role.ORGANISER))
    client.post(
        reverse("manage:entry_judge_note", args=[championship.slug, entry.pk]),
        {"judge_note": NOTE},
    )
    entry.refresh_from_db()
    assert entry.judge_note == NOTE
    cards = client.get(reverse("manage:cards", args=[championship.slug, final.key]))
    text = cards.content.decode()
    assert NOTE not in text
    # The cards speak the championship's language (Norwegian here).
    assert text.count('class="card-note"') == 1


def test_a_note_is_never_public(client, seated):
    championship, final, entry = seated
    entry.judge_note = NOTE
    entry.save()
    rounds.round_start(round_=final)
    public = [
        f"/{championship.slug}/",
        f"/{championship.slug}/results/",
        f"/{championship.slug}/results/{final.key}/",
        f"/{championship.slug}/results/{final.key}.csv",
        f"/{championship.slug}/screen/{final.key}/",
        f"/{championship.slug}/seating/{final.key}/",
    ]
    for path in public:
        answer = client.get(path)
        assert answer.status_code == 200, path
        assert NOTE not in answer.content.decode(), path
    api = APIClient()
    for path in (
        f"/api/v1/championships/{championship.slug}/",
        f"/api/v1/championships/{championship.slug}/rounds/{final.key}/results/",
    ):
        answer = api.get(path)
        assert answer.status_code == 200 and NOTE not in answer.content.decode(), path


@pytest.mark.parametrize(
    ("note", "refusal"),
    [
        ("a\x00b", "Null characters are not allowed."),
        ("a\ud800b", "Unpaired surrogate characters are not allowed."),
    ],
)
def test_a_note_the_database_cannot_store_is_refused_and_nothing_changes(
    championship, note, refusal
):
    from django.core.exceptions import ValidationError

    from registration.services import entry_set_judge_note

    entry = factories.entry(championship.categories.get(kind="individual"))
    with pytest.raises(ValidationError) as refused:
        entry_set_judge_note(entry=entry, note=note)
    assert refused.value.message_dict == {"judge_note": [refusal]}
    entry.refresh_from_db()
    assert entry.judge_note == ""
