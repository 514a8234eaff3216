"""Live results pages: 304 for an unchanged round at one query, constant queries, exports."""

import csv
import io
import threading
from datetime import date
from unittest import mock

import pytest
from django.conf import settings
from django.db import connection
from django.db.models import F
from django.test.utils import CaptureQueriesContext

from championship.models import Round, Seat
from results.live_poll import Version
from results.models import Result
from results.services import standings_recompute
from tests import factories

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


def add_results(championship, final, count, *, heat_key="a", offset=0):
    heat = final.heats.filter(key=heat_key).first() or factories.heat(final, key=heat_key)
    individual = final.category
    for index in range(count):
        person = factories.person(
            championship,
            region="Rogaland",
            email=f"secret{offset + index}@example.org",
            birth_date=date(1990, 1, 1),
        )
        entry = factories.entry(individual, members=[person], publish_consent=True)
        Seat.objects.create(heat=heat, table=factories.table(championship), entry=entry)
        Result.objects.create(
            round=final,
            heat=heat,
            entry=entry,
            status="finished",
            time_ms=(30 + offset + index) * 60_000,
        )
    standings_recompute(round_=final)
    final.refresh_from_db()
    return heat


@pytest.fixture
def final(championship):
    return championship.categories.get(kind="individual").rounds.get()


def url(championship, final):
    return f"/{championship.slug}/results/{final.key}/"


def on_screen(text: str) -> str:
    """Return the page without its print copy (the same results, in the championship's language)."""
    return text.split('class="results-print')[0]


def test_the_round_page_lists_every_result_with_places(client, championship, final):
    add_results(championship, final, 3)
    response = client.get(url(championship, final))
    assert response.status_code == 200
    assert on_screen(response.text).count('class="num place"') == 3
    assert "30:00" in response.text and 'hx-trigger="every 4s"' in response.text


def test_an_unchanged_poll_is_304_after_one_query(client, championship, final):
    add_results(championship, final, 5)
    first = client.get(url(championship, final), HTTP_HX_REQUEST="true")
    etag = first["ETag"]
    with CaptureQueriesContext(connection) as queries:
        again = client.get(
            url(championship, final), HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=etag
        )
    assert again.status_code == 304
    assert len(queries) == 1


def test_a_changed_round_answers_200_with_a_new_etag(client, championship, final):
    add_results(championship, final, 2)
    first = client.get(url(championship, final), HTTP_HX_REQUEST="true")
    add_results(championship, final, 1, offset=10)
    again = client.get(
        url(championship, final), HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=first["ETag"]
    )
    assert again.status_code == 200 and again["ETag"] != first["ETag"]
    assert again.text.lstrip().startswith('<div id="results-table"')


def test_a_changed_poll_takes_the_same_queries_whatever_the_round_size(client, championship, final):
    def render():
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url(championship, final), HTTP_HX_REQUEST="true")
        assert response.status_code == 200
        return len(queries)

    add_results(championship, final, 5)
    small = render()
    add_results(championship, final, 60, offset=100)
    assert render() == small


def test_the_rendered_fragment_is_cached_per_version(client, championship, final):
    add_results(championship, final, 5)
    client.get(url(championship, final), HTTP_HX_REQUEST="true")
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url(championship, final), HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert len(queries) == 1  # the round's version; the fragment came from the cache


def test_polling_stops_when_the_results_are_official(client, championship, final):
    add_results(championship, final, 2)
    Round.objects.filter(pk=final.pk).update(state="closed")
    standings_recompute(round_=final)
    text = client.get(url(championship, final)).text
    # Provisional: a protest or correction may still change them, so the page keeps asking.
    assert "Provisional results" in text
    assert "hx-trigger" in text.split('id="results-table"')[1].split(">")[0]
    Round.objects.filter(pk=final.pk).update(state="published", version=F("version") + 1)
    text = client.get(url(championship, final)).text
    assert "Official results" in text
    assert "hx-trigger" not in text.split('id="results-table"')[1].split(">")[0]


def test_the_heat_filter_keeps_the_rounds_places(client, championship, final):
    add_results(championship, final, 2, heat_key="a")
    add_results(championship, final, 2, heat_key="b", offset=1)
    text = client.get(url(championship, final) + "?heat=b").text
    assert on_screen(text).count('class="num place"') == 2
    assert ">2<" in text and ">4<" in text


def test_no_personal_data_in_public_results(client, championship, final):
    add_results(championship, final, 3)
    for path in (
        url(championship, final),
        f"/{championship.slug}/results/",
        f"/{championship.slug}/results/{final.key}.csv",
        f"/{championship.slug}/results/category/individual.csv",
        f"/{championship.slug}/screen/{final.key}/",
    ):
        response = client.get(path)
        assert response.status_code == 200, path
        body = response.content.decode()
        assert "@example.org" not in body and "1990-01-01" not in body, path


def test_the_round_csv(client, championship, final):
    add_results(championship, final, 2)
    response = client.get(f"/{championship.slug}/results/{final.key}.csv")
    text = response.content.decode("utf-8-sig")  # an nb championship: semicolons, in Norwegian
    rows = list(csv.DictReader(io.StringIO(text), delimiter=";"))
    assert [row["Plassering"] for row in rows] == ["1", "2"]
    assert rows[0]["Sluttid (sekunder)"] == "1800" and rows[0]["Offisiell"] == "ja"


def test_the_category_standings_and_podium(client, championship, final):
    add_results(championship, final, 4)
    Round.objects.filter(pk=final.pk).update(state="closed")
    standings_recompute(round_=final)
    text = client.get(f"/{championship.slug}/results/").text
    assert 'class="podium"' in text
    assert text.count('class="prize prize-') >= 3


def test_the_projector_view(client, championship, final):
    add_results(championship, final, 3)
    response = client.get(f"/{championship.slug}/screen/{final.key}/")
    assert response.status_code == 200
    assert 'id="clock"' in response.text
    assert "3 of 3 finished" in response.text
    poll = client.get(f"/{championship.slug}/screen/{final.key}/", HTTP_HX_REQUEST="true")
    assert poll.text.lstrip().startswith('<section id="board"')
    again = client.get(
        f"/{championship.slug}/screen/{final.key}/",
        HTTP_HX_REQUEST="true",
        HTTP_IF_NONE_MATCH=poll["ETag"],
    )
    assert again.status_code == 304


def test_unknown_rounds_are_404(client, championship):
    assert client.get(f"/{championship.slug}/results/no-such-round/").status_code == 404
    assert client.get("/nope/results/").status_code == 404


def test_the_api_documentation_is_served_without_a_cdn(client, db):
    response = client.get("/api/v1/docs/")
    assert response.status_code == 200
    assert "cdn" not in response.text.lower()
    assert "/static/drf_spectacular_sidecar/" in response.text


def test_pages_work_uncached_while_redis_is_down(client, championship, final, settings):
    """The cache is only a cache: a Redis that does not answer costs speed, not pages."""
    from django.core.cache import caches

    from config import env

    settings.CACHES = {"default": env.cache_config({"REDIS_URL": "redis://127.0.0.1:1/0"})}
    assert type(caches["default"]).__module__ == "django_redis.cache"
    add_results(championship, final, 3)
    response = client.get(url(championship, final), HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and "30:00" in response.text
    again = client.get(
        url(championship, final), HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=response["ETag"]
    )
    assert again.status_code == 304
    assert client.get(f"/{championship.slug}/").status_code == 200


def test_many_pollers_of_a_new_version_render_it_once(client, championship, final, monkeypatch):
    """After a capture every poller asks at once; one renders, the others get its work."""
    from django.core.cache import cache

    from results import views

    add_results(championship, final, 3)
    renders = []
    real = views._round_context

    def counting(*args, **kwargs):
        renders.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(views, "_round_context", counting)
    pk, version = final.pk, final.version
    name = f"fragment:v3:{pk}:en:table:"
    cache.add(f"{name}:building", 1)  # another request is rendering this version right now
    etag = f'"{pk}-{version}-en-table-"'
    finishing = threading.Timer(
        0.3,
        cache.set,
        (
            f"{name}:{version}",
            Version.of(etag, '<div id="results-table">from the other request</div>'),
        ),
    )
    finishing.start()
    response = client.get(url(championship, final), HTTP_HX_REQUEST="true")
    finishing.join()
    assert "from the other request" in response.text and response["ETag"] == etag
    assert renders == []


def test_a_poll_during_the_render_of_a_new_version_gets_the_one_before(
    client, championship, final, monkeypatch
):
    """Captures keep coming: one request renders the newest version, the others don't wait."""
    from django.core.cache import cache

    from results import views

    add_results(championship, final, 3)
    first = client.get(url(championship, final), HTTP_HX_REQUEST="true")
    Round.objects.filter(pk=final.pk).update(version=F("version") + 1)
    cache.add(f"fragment:v3:{final.pk}:en:table::building", 1)  # rendering the new one
    monkeypatch.setattr(views, "_round_context", mock.Mock(side_effect=AssertionError("render")))
    during = client.get(url(championship, final), HTTP_HX_REQUEST="true")
    assert during.status_code == 200 and during["ETag"] == first["ETag"]
    assert during.content == first.content
    already = client.get(
        url(championship, final), HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=first["ETag"]
    )
    assert already.status_code == 304 and already["ETag"] == first["ETag"]

    cache.delete(f"fragment:v3:{final.pk}:en:table::building")  # that render is done
    monkeypatch.undo()
    after = client.get(
        url(championship, final), HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=first["ETag"]
    )
    assert after.status_code == 200 and after["ETag"] != first["ETag"]
    current = Round.objects.values_list("version", flat=True).get(pk=final.pk)
    assert after["ETag"] == f'"{final.pk}-{current}-en-table-"'


def test_an_unchanged_poll_is_answered_before_sessions_and_views(client, championship, final):
    """The 304 comes from the middleware: no view runs, whatever language was chosen."""
    from unittest import mock

    from results import views

    add_results(championship, final, 2)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "sv"
    first = client.get(url(championship, final), HTTP_HX_REQUEST="true")
    assert "-sv-table-" in first["ETag"]
    with mock.patch.object(views, "_conditional", side_effect=AssertionError("the view ran")):
        again = client.get(
            url(championship, final), HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=first["ETag"]
        )
    assert again.status_code == 304 and again["ETag"] == first["ETag"]
    # Another language's ETag is another version of the page: the answer is 200.
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "da"
    other = client.get(
        url(championship, final), HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=first["ETag"]
    )
    assert other.status_code == 200 and "-da-table-" in other["ETag"]


def test_under_a_stream_of_captures_a_fragment_is_rendered_a_few_times_a_second(
    client, championship, final, monkeypatch
):
    """A quiet round shows each change at once; a busy one a few times a second."""
    import time
    from types import SimpleNamespace

    from results import live_poll

    add_results(championship, final, 3)
    clock = SimpleNamespace(time=lambda: 1_000_000.2, sleep=time.sleep)
    monkeypatch.setattr(live_poll, "time", clock)

    def capture_and_poll():
        Round.objects.filter(pk=final.pk).update(version=F("version") + 1)
        current = Round.objects.values_list("version", flat=True).get(pk=final.pk)
        response = client.get(url(championship, final), HTTP_HX_REQUEST="true")
        return response["ETag"], f'"{final.pk}-{current}-en-table-"'

    assert live_poll.LIVE_RENDERS_PER_SECOND == 4
    for change in range(4):
        served, newest = capture_and_poll()
        assert served == newest, f"change {change + 1} of 4 in a second: shown at once"
    before = served
    served, newest = capture_and_poll()
    assert served == before != newest, "the fifth in the same second waits for the next"
    clock.time = lambda: 1_000_001.0
    served, newest = capture_and_poll()
    assert served == newest


def test_under_a_stream_of_captures_the_api_builds_a_few_versions_a_second(
    client, championship, final, monkeypatch
):
    """The API's results answer as the fragments do: each version built and rendered once,
    a few times a second at most, the version before served meanwhile with its own ETag."""
    import json
    import time
    from types import SimpleNamespace

    from results import live_poll

    add_results(championship, final, 3)
    clock = SimpleNamespace(time=lambda: 2_000_000.2, sleep=time.sleep)
    monkeypatch.setattr(live_poll, "time", clock)
    api = f"/api/v1/championships/{championship.slug}/rounds/{final.key}/results/"

    def capture_and_poll(**headers):
        Round.objects.filter(pk=final.pk).update(version=F("version") + 1)
        current = Round.objects.values_list("version", flat=True).get(pk=final.pk)
        response = client.get(api, HTTP_ACCEPT="application/json", **headers)
        return response, f'"{final.pk}-{current}"'

    for change in range(live_poll.LIVE_RENDERS_PER_SECOND):
        response, newest = capture_and_poll()
        assert response["ETag"] == newest, f"change {change + 1} in a second: shown at once"
        assert f'"{final.pk}-{json.loads(response.content)["version"]}"' == newest
    before = response["ETag"]
    response, newest = capture_and_poll()
    assert response["ETag"] == before != newest, "the next one in the same second waits"
    assert response.status_code == 200
    assert f'"{final.pk}-{json.loads(response.content)["version"]}"' == before
    # A poller that has the version served is told so, though the round moved on.
    again, _newest = capture_and_poll(HTTP_IF_NONE_MATCH=before)
    assert (again.status_code, again["ETag"]) == (304, before)
    clock.time = lambda: 2_000_001.0
    response, newest = capture_and_poll(HTTP_IF_NONE_MATCH=before)
    assert (response.status_code, response["ETag"]) == (200, newest)
    assert len(json.loads(response.content)["rows"]) == 3


def test_cached_versions_expire_so_old_ones_do_not_pile_up(
    client, championship, final, monkeypatch
):
    from django.core.cache import cache

    from results import live_poll, selectors

    add_results(championship, final, 3)
    stored = {}
    real_set = cache.set

    def recording_set(key, value, timeout=None, **kwargs):
        stored[key] = timeout
        return real_set(key, value, timeout=timeout, **kwargs)

    monkeypatch.setattr(cache, "set", recording_set)
    assert client.get(url(championship, final), HTTP_HX_REQUEST="true").status_code == 200
    assert any(key.startswith("fragment:") for key in stored)
    # The standings themselves are cached for the pages and downloads that read them.
    final.refresh_from_db()
    selectors.round_standings(final)
    assert any(key.startswith("standings:") for key in stored)
    assert all(timeout is not None and 0 < timeout <= 600 for timeout in stored.values()), stored
    assert live_poll.VERSION_TTL == 600


def test_a_poll_that_accepts_gzip_gets_the_version_gzipped_once(
    client, championship, final, monkeypatch
):
    """A browser sends Accept-Encoding: gzip; the fragment is compressed once per version."""
    import gzip

    from results import live_poll

    add_results(championship, final, 3)
    compressions = []
    real = live_poll.compress
    monkeypatch.setattr(
        "results.live_poll.compress", lambda data: compressions.append(1) or real(data)
    )
    plain = client.get(url(championship, final), HTTP_HX_REQUEST="true")
    assert "Content-Encoding" not in plain and "Accept-Encoding" in plain["Vary"]
    zipped = client.get(
        url(championship, final), HTTP_HX_REQUEST="true", HTTP_ACCEPT_ENCODING="gzip, br"
    )
    assert zipped["Content-Encoding"] == "gzip"
    assert gzip.decompress(zipped.content) == plain.content
    assert len(zipped.content) < len(plain.content) / 2
    # Another encoding of the same version: a weak ETag, which a later poll may send back.
    assert zipped["ETag"] == f"W/{plain['ETag']}"
    assert compressions == [1]
    again = client.get(
        url(championship, final),
        HTTP_HX_REQUEST="true",
        HTTP_ACCEPT_ENCODING="gzip",
        HTTP_IF_NONE_MATCH=zipped["ETag"],
    )
    assert again.status_code == 304


def test_a_poll_of_a_version_already_rendered_is_answered_before_the_views(
    client, championship, final, django_assert_max_num_queries, monkeypatch
):
    """Spectators after a change get the rendered version after one query, without the view."""
    from django.core.cache import cache

    from results import live_poll, views
    from results.live_poll import LIVE_RENDERS_PER_SECOND, fragment_name

    # The second whose renders are counted, held still for the test.
    monkeypatch.setattr(live_poll, "_builds_window", lambda name: f"{name}:builds:now")
    add_results(championship, final, 3)
    first = client.get(
        url(championship, final), HTTP_HX_REQUEST="true", HTTP_ACCEPT_ENCODING="gzip"
    )
    real = views._round_context
    monkeypatch.setattr(views, "_round_context", mock.Mock(side_effect=AssertionError("render")))
    with django_assert_max_num_queries(1):
        again = client.get(
            url(championship, final), HTTP_HX_REQUEST="true", HTTP_ACCEPT_ENCODING="gzip"
        )
    assert again.status_code == 200 and again.content == first.content
    assert again["ETag"] == first["ETag"] and again["Content-Encoding"] == "gzip"
    # A new version while this second's renders are spent: the one before, at once.
    Round.objects.filter(pk=final.pk).update(version=F("version") + 1)
    name = fragment_name(final.pk, "en", "table", "")
    cache.set(f"{name}:builds:now", LIVE_RENDERS_PER_SECOND, timeout=60)
    with django_assert_max_num_queries(1):
        during = client.get(url(championship, final), HTTP_HX_REQUEST="true")
    assert during.status_code == 200 and during["ETag"] == first["ETag"].removeprefix("W/")
    with django_assert_max_num_queries(1):
        held = client.get(
            url(championship, final), HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=first["ETag"]
        )
    assert held.status_code == 304
    # Once a render may start again, the poll goes on to the view, which renders it.
    cache.delete(f"{name}:builds:now")
    monkeypatch.setattr(views, "_round_context", real)
    after = client.get(url(championship, final), HTTP_HX_REQUEST="true")
    assert after.status_code == 200 and after["ETag"] != during["ETag"]
