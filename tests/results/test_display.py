"""What the results pages show: the clock in the polled board, waiting entrants, Q, print."""

from datetime import date

import pytest
from django.db.models import F

from championship.models import Round, Seat
from control import rounds
from results.models import Result
from results.services import standings_recompute
from tests import factories

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


def seat(championship, round_, heat, name, *, region="Rogaland"):
    person = factories.person(championship, name=name, region=region, birth_date=date(1990, 1, 1))
    entry = factories.entry(round_.category, members=[person], name=name, publish_consent=True)
    Seat.objects.create(heat=heat, table=factories.table(championship), entry=entry)
    return entry


@pytest.fixture
def final(championship):
    """A rogaland final in two heats of two; nothing started."""
    final = championship.categories.get(kind="individual").rounds.get()
    heat_a, heat_b = (
        factories.heat(final, key="a", order=1),
        factories.heat(final, key="b", order=2),
    )
    seat(championship, final, heat_a, "Ada Aase")
    seat(championship, final, heat_a, "Bo Berge", region="Vestland")
    seat(championship, final, heat_b, "Cato Dahl")
    seat(championship, final, heat_b, "Dina Eide")
    return final


def board(client, final, etag=None):
    headers = {"HTTP_HX_REQUEST": "true"}
    if etag:
        headers["HTTP_IF_NONE_MATCH"] = etag
    return client.get(f"/{final.championship.slug}/screen/{final.key}/", **headers)


def live_part(text):
    return text.split('class="results-print')[0]


def test_the_polled_board_brings_the_clock_once_a_heat_starts(client, final):
    before = board(client, final)
    assert 'data-started-ms=""' in before.text
    (heat,) = rounds.round_start(round_=final, heat_key="a")
    after = board(client, final, before["ETag"])
    assert after.status_code == 200
    assert f'data-started-ms="{int(heat.started_at.timestamp() * 1000)}"' in after.text
    assert 'data-limit="7200"' in after.text
    assert board(client, final, after["ETag"]).status_code == 304


def test_the_projector_asks_every_second_and_phones_every_four(client, final):
    """A confirmed tap reaches the few projectors within about a second (docs/performance.md);
    the many phones keep the slower poll."""
    assert 'hx-trigger="every 1s"' in board(client, final).text
    page = client.get(f"/{final.championship.slug}/results/{final.key}/").text
    assert 'hx-trigger="every 4s"' in page and 'hx-trigger="every 1s"' not in page


def test_entrants_of_a_heat_not_started_are_listed_as_waiting(client, final):
    text = live_part(client.get(f"/{final.championship.slug}/results/{final.key}/").text)
    assert "Cato Dahl" not in text  # the seating is not public before it is published

    rounds.round_start(round_=final, heat_key="a")
    text = live_part(client.get(f"/{final.championship.slug}/results/{final.key}/").text)
    for name in ("Ada Aase", "Bo Berge", "Cato Dahl", "Dina Eide"):
        assert name in text
    assert text.count('class="waiting"') == 2 + 1  # two rows, and the legend
    assert "Heat B" in text
    screen = board(client, final).text
    assert "Cato Dahl" in screen and "waiting" in screen


def test_q_shows_only_once_qualification_is_decided(client, championship):
    final = championship.categories.get(kind="individual").rounds.get()
    Round.objects.filter(pk=final.pk).update(advance="overall", advance_count=1)
    final.refresh_from_db()
    heat = factories.heat(final)
    for minutes, name in ((30, "Ada Aase"), (31, "Bo Berge")):
        entry = seat(championship, final, heat, name)
        Result.objects.create(
            round=final, heat=heat, entry=entry, status="finished", time_ms=minutes * 60_000
        )
    Round.objects.filter(pk=final.pk).update(state="running")
    standings_recompute(round_=final)
    url = f"/{championship.slug}/results/{final.key}/"
    assert Result.objects.filter(round=final, qualified=True).count() == 1
    running = live_part(client.get(url).text)
    assert 'class="qualified-mark"' not in running
    assert "Who qualifies is shown once the results are official." in running

    # Time is up and every entry has a result: still provisional, so no "Q" yet.
    Round.objects.filter(pk=final.pk).update(state="closed", version=F("version") + 1)
    standings_recompute(round_=final)
    closed = live_part(client.get(url).text)
    assert 'class="qualified-mark"' not in closed
    assert "Provisional results" in closed

    # Signed off: official, and the "Q" shows.
    Round.objects.filter(pk=final.pk).update(state="published", version=F("version") + 1)
    signed = live_part(client.get(url).text)
    assert signed.count('class="qualified-mark"') == 1 + 1  # Ada, and the legend
    assert "Qualified for the next round" in signed


def test_the_print_copy_is_in_the_championships_language_with_a_header(client, final):
    final.championship.venue = "Stavanger Forum"
    final.championship.save()
    rounds.round_start(round_=final)
    text = client.get(f"/{final.championship.slug}/results/{final.key}/").text
    printed = text.split('class="results-print')[1]
    assert 'lang="nb"' in printed
    assert "Offisiell plassering" in printed and "Official place" not in printed
    assert "Individuell: Finale" in printed
    assert "Stavanger Forum" in printed
    assert "Official place" in live_part(text)  # the screen keeps the visitor's language


def test_only_the_members_who_consented_are_named_in_the_results(client, championship):
    """Consent is each member's: a pair with one consenting member shows that member only."""
    pairs = championship.categories.get(kind="pair")
    final = pairs.rounds.get()
    heat = factories.heat(final, started_at=None)
    asa = factories.person(championship, name="Åsa Berg", region="Rogaland", publish_consent=True)
    ola = factories.person(championship, name="Ola Nes", region="Rogaland", publish_consent=False)
    pair = factories.entry(pairs, members=[asa, ola], name="Åsa & Ola", publish_consent=False)
    Seat.objects.create(heat=heat, table=factories.table(championship), entry=pair)
    rounds.round_start(round_=final)
    Result.objects.filter(round=final, entry=pair).update(status="finished", time_ms=2_400_000)
    standings_recompute(round_=final)

    api = client.get(f"/api/v1/championships/{championship.slug}/rounds/{final.key}/results/")
    (row,) = api.json()["rows"]
    assert row["entry"]["name"] is None and row["entry"]["members"] == ["Åsa Berg"]
    page = live_part(client.get(f"/{championship.slug}/results/{final.key}/").text)
    assert "Åsa Berg" in page and "Name withheld" in page
    assert "Ola Nes" not in page and "Åsa &amp; Ola" not in page
