"""The venue screen: one address on the projector, switched from the control room or the API."""

import pytest
from django.conf import settings
from django.core.exceptions import ValidationError
from django.urls import reverse
from rest_framework.test import APIClient

from championship.models import ChampionshipRole
from control import screen
from results import venue
from tests import factories

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser(championship):
    return factories.role(championship, ChampionshipRole.Role.ORGANISER, username="orga")


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
    screen.screen_set(championship=championship, show="seating", round_key="individual-final")
    assert client.get(address)["Location"] == f"/{slug}/seating/individual-final/?venue=2"
    assert "results/venue.js" in client.get(f"/{slug}/seating/individual-final/?venue=2").text
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
