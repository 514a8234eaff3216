"""The venue screen: one address on the projector, switched from the control room or the API."""

import pytest
from django.conf import settings
from django.core.exceptions import ValidationError
from django.urls import reverse
from rest_framework.test import APIClient

from championship.models import ChampionshipRole
from championship.services import tables_create
from control import rounds, screen
from results import venue
from tests import factories

pytestmark = pytest.mark.django_db

UNPUBLISHED = (
    "The seating of “Individual: Final” is not published: publish it first, "
    "or choose a round whose seating is published."
)


@pytest.fixture
def organiser(championship):
    return factories.role(championship, ChampionshipRole.Role.ORGANISER, username="orga")


def seat(championship, category_key="individual", *, publish=True):
    """Seat a category's final with two entries; publish its seating unless told not to."""
    category = championship.categories.get(key=category_key)
    final = category.rounds.get()
    if not championship.tables.exists():
        tables_create(championship=championship, count=6)
    for _ in range(2):
        factories.entry(category)
    rounds.round_seat(round_=final)
    if publish:
        rounds.seating_publish(round_=final)
    final.refresh_from_db()
    return final


def test_the_screen_is_switched_only_to_what_the_championship_has(championship):
    for kwargs, field in (
        ({"show": "film"}, "show"),
        ({"show": "round", "round_key": "nope"}, "round"),
        ({"show": "seating"}, "round"),
        ({"show": "round", "round_key": "individual-final", "heat": "z"}, "heat"),
        ({"show": "podium", "category_key": "nope"}, "category"),
        ({"show": "message", "text": "   "}, "text"),
        ({"show": "message", "text": "x" * 281}, "text"),
    ):
        with pytest.raises(ValidationError) as refused:
            screen.screen_set(championship=championship, **kwargs)
        assert field in refused.value.message_dict, kwargs
    championship.refresh_from_db()
    assert championship.screen == {}
    first = screen.screen_set(championship=championship, show="message", text=" Lunch ")
    assert first == {"show": "message", "text": "Lunch", "version": 1}
    second = screen.screen_set(
        championship=championship, show="round", round_key="individual-final"
    )
    assert second == {"show": "round", "round": "individual-final", "version": 2}


def test_the_venue_address_sends_the_projector_to_the_choice_and_the_state_says_when_it_moves(
    client, championship
):
    slug = championship.slug
    address = reverse("results:venue", args=[slug])
    state = reverse("results:venue_state", args=[slug])
    # Nothing chosen yet: the championship's name.
    assert client.get(address)["Location"] == f"/{slug}/venue/message/?venue=0"
    screen.screen_set(championship=championship, show="round", round_key="individual-final")
    answer = client.get(address)
    assert answer["Location"] == f"/{slug}/screen/individual-final/?venue=1"
    assert "no-cache" in answer["Cache-Control"]
    assert client.get(state).json() == {"version": 1, "url": answer["Location"]}
    page = client.get(answer["Location"]).content.decode()
    assert f'data-state-url="{state}"' in page and "results/venue.js" in page
    # Opened without ?venue (a spectator's projector view): it follows nothing.
    assert "results/venue.js" not in client.get(f"/{slug}/screen/individual-final/").text
    final = seat(championship)
    screen.screen_set(championship=championship, show="seating", round_key="individual-final")
    # The seating's own page for the projector, not the website's.
    published = int(final.seating_published_at.timestamp() * 1000)
    seating = f"/{slug}/seating/individual-final/screen/?venue=2&seating={published}"
    assert client.get(address)["Location"] == seating
    assert "results/venue.js" in client.get(seating).text
    screen.screen_set(championship=championship, show="podium", category_key="individual")
    podium = client.get(client.get(address)["Location"])
    assert podium.status_code == 200 and "results/venue.js" in podium.text


def test_a_message_on_the_venue_screen(client, championship):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    screen.screen_set(championship=championship, show="message", text="<b>Lunch</b> at 12")
    page = client.get(client.get(reverse("results:venue", args=[championship.slug]))["Location"])
    assert "&lt;b&gt;Lunch&lt;/b&gt; at 12" in page.text
    assert championship.name in page.text


def test_the_control_room_switches_the_screen(client, championship, organiser):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    client.force_login(organiser)
    manage = client.get(reverse("manage:control_room", args=[championship.slug])).text
    assert "Venue screen" in manage and f"/{championship.slug}/screen/" in manage
    url = reverse("manage:screen", args=[championship.slug])
    refused = client.post(url, {"show": "message", "text": ""})
    assert refused.status_code == 200 and "Write the message to show." in refused.text
    championship.refresh_from_db()
    assert championship.screen == {}
    answer = client.post(url, {"show": "message", "text": "Prize-giving at 16:00"}, follow=True)
    assert "The venue screen follows within a few seconds." in answer.text
    championship.refresh_from_db()
    assert championship.screen["text"] == "Prize-giving at 16:00"


def test_the_api_switches_the_screen_for_organisers_only(championship, organiser):
    api = APIClient()
    url = f"/api/v1/championships/{championship.slug}/screen/"
    body = {"show": "podium", "category": "individual"}
    assert api.post(url, body, format="json").status_code in (401, 403)
    api.force_authenticate(factories.role(championship, ChampionshipRole.Role.JUDGE))
    assert api.post(url, body, format="json").status_code == 403
    api.force_authenticate(organiser)
    bad = api.post(url, {"show": "round", "round": "nope"}, format="json")
    assert bad.status_code == 400 and "round" in bad.json()
    done = api.post(url, body, format="json")
    assert done.status_code == 200
    assert done.json() == {"show": "podium", "category": "individual", "version": 1}
    championship.refresh_from_db()
    assert venue.target(championship) == f"/{championship.slug}/venue/podium/individual/?venue=1"


def test_a_round_whose_seating_is_not_published_is_refused_for_the_screen(championship):
    seat(championship, publish=False)
    with pytest.raises(ValidationError) as refused:
        screen.screen_set(championship=championship, show="seating", round_key="individual-final")
    assert refused.value.message_dict == {"round": [UNPUBLISHED]}
    championship.refresh_from_db()
    assert championship.screen == {}
    # Its board may be shown: the results board lists no one until the seating is public.
    assert screen.screen_set(
        championship=championship, show="round", round_key="individual-final"
    ) == {"show": "round", "round": "individual-final", "version": 1}
    rounds.seating_publish(round_=championship.rounds.get(key="individual-final"))
    assert screen.screen_set(
        championship=championship, show="seating", round_key="individual-final"
    ) == {"show": "seating", "round": "individual-final", "version": 2}


def test_the_control_room_offers_only_published_seatings_and_refuses_others_in_its_language(
    client, championship, organiser
):
    seat(championship, "individual", publish=False)
    seat(championship, "pair")
    client.force_login(organiser)
    manage = client.get(reverse("manage:control_room", args=[championship.slug])).text
    offered = manage.split('name="seating"')[1].split("</select>")[0]
    assert 'value="pair-final"' in offered and 'value="individual-final"' not in offered
    boards = manage.split('name="round"')[1].split("</select>")[0]
    assert 'value="pair-final"' in boards and 'value="individual-final"' in boards

    # Posted all the same (an old page, a hand-made request): refused, in Norwegian, the
    # championship's language, at the seating's field.
    url = reverse("manage:screen", args=[championship.slug])
    refused = client.post(url, {"show": "seating", "seating": "individual-final"})
    assert refused.status_code == 200
    assert (
        "Bordplasseringen for «Individuell: Finale» er ikke publisert: publiser den først, "
        "eller velg en runde med publisert bordplassering."
    ) in refused.text
    field = refused.text.split('name="seating"')[1].split('<div class="field')[0]
    assert "Bordplasseringen for «Individuell: Finale»" in field
    championship.refresh_from_db()
    assert championship.screen == {}

    done = client.post(url, {"show": "seating", "seating": "pair-final"}, follow=True)
    assert done.status_code == 200
    championship.refresh_from_db()
    assert championship.screen == {"show": "seating", "round": "pair-final", "version": 1}
    # The form shows the choice it made.
    again = client.get(reverse("manage:control_room", args=[championship.slug])).text
    chosen = again.split('name="seating"')[1].split("</select>")[0]
    assert 'value="pair-final" selected' in chosen


def test_the_api_refuses_an_unpublished_seating_in_the_callers_language(championship, organiser):
    seat(championship, publish=False)
    api = APIClient()
    api.force_authenticate(organiser)
    url = f"/api/v1/championships/{championship.slug}/screen/"
    body = {"show": "seating", "round": "individual-final"}
    answer = api.post(url, body, format="json", HTTP_ACCEPT_LANGUAGE="en")
    assert answer.status_code == 400
    assert answer.json() == {"round": [UNPUBLISHED]}
    swedish = api.post(url, body, format="json", HTTP_ACCEPT_LANGUAGE="sv")
    assert swedish.json()["round"][0].startswith("Bordsplaceringen för ”Individuell: Final”")


def test_a_seating_taken_back_or_published_anew_moves_the_screen_on(client, championship):
    """Seating the round again takes its seating back: the screen must not keep the old one."""
    final = seat(championship)
    screen.screen_set(championship=championship, show="seating", round_key=final.key)
    state = reverse("results:venue_state", args=[championship.slug])
    shown = client.get(state).json()
    assert shown["url"].endswith(f"&seating={int(final.seating_published_at.timestamp() * 1000)}")

    rounds.round_seat(round_=final)  # seated again: no longer published
    taken_back = client.get(state).json()
    assert taken_back["version"] == shown["version"]  # the control room switched nothing...
    assert taken_back["url"].endswith("&seating=")  # ... but the page is another
    page = client.get(taken_back["url"])
    assert page.status_code == 200 and 'class="row' not in page.text

    final = rounds.seating_publish(round_=final)
    published = client.get(state).json()["url"]
    assert published.endswith(f"&seating={int(final.seating_published_at.timestamp() * 1000)}")
    assert 'class="row' in client.get(published).text
