"""The interface's words: one msgid per meaning, "Heat A", own starts, dates, money, counts.

The catalogues are translated apart from the code, so these tests do not read
the Norwegian words themselves. Where a test needs to know which msgid (and
which context) a page asks for, it lends the language's catalogue a marked
translation for just that msgid (``lent``) and looks for the mark.
"""

import json
import re
import uuid
from contextlib import contextmanager
from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path

import pytest
from django.conf import settings
from django.core import mail
from django.core.management import call_command
from django.urls import path, reverse
from django.utils import formats, timezone, translation
from django.utils.translation import trans_real
from django_countries import countries

from championship.models import Championship, ChampionshipRole, Heat, Round, Seat
from control import rounds
from core import l10n
from judging.capture_kinds import CaptureInput
from judging.dashboard import capture_values
from judging.models import Capture
from judging.services import capture_record
from registration import services as registration_services
from registration import validation
from tests import factories
from tests.factories import NEXT_YEAR

pytestmark = pytest.mark.django_db

Role = ChampionshipRole.Role
TEMPLATES = Path(settings.BASE_DIR) / "templates"
CONTEXT = "\x04"  # gettext's separator of a message's context and its msgid


@contextmanager
def lent(language: str, words: dict):
    """Lend ``language``'s catalogue translations for some msgids ("context\\x04msgid" too)."""
    catalogue = trans_real.translation(language)._catalog._catalogs[0]
    kept = {key: catalogue[key] for key in words if key in catalogue}
    catalogue.update(words)
    try:
        yield
    finally:
        for key in words:
            catalogue.pop(key, None)
        catalogue.update(kept)


def speak(client, language):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return client


@pytest.fixture
def running(db):
    """A rogaland final: heat A running at table 1 (seating published), heat B to come."""
    championship = factories.championship(slug="rm-2026", name="Rogalandsmesterskapet 2026")
    individual = championship.categories.get(kind="individual")
    final = individual.rounds.get()
    tables = [factories.table(championship), factories.table(championship)]
    ingrid = factories.entry(individual, name="Ingrid Hansen")
    ola = factories.entry(individual, name="Ola Berg")
    heat_a = factories.heat(final, key="a", order=1)
    heat_b = factories.heat(final, key="b", order=2)
    Seat.objects.create(heat=heat_a, table=tables[0], entry=ingrid)
    Seat.objects.create(heat=heat_b, table=tables[1], entry=ola)
    rounds.seating_publish(round_=final)
    heat_a = rounds.heat_start(heat=heat_a)
    return {
        "championship": championship,
        "final": final,
        "tables": tables,
        "ingrid": ingrid,
        "ola": ola,
        "heat_a": heat_a,
        "heat_b": heat_b,
    }


def judge_page(client, championship, table, role=Role.HEAD_JUDGE):
    client.force_login(factories.role(championship, role))
    return client.get(reverse("judging:table", kwargs={"token": table.token}))


def control_room(client, championship, round_):
    client.force_login(factories.role(championship, Role.ORGANISER))
    return client.get(
        reverse(
            "manage:round_control",
            kwargs={"championship_slug": championship.slug, "round_key": round_.key},
        )
    )


# One msgid per meaning ------------------------------------------------------------------------


def test_the_judges_change_is_not_the_language_switchers_change(client, running):
    words = {
        "Change": "[switch]",
        f"judge review{CONTEXT}Change": "[edit]",
        "Not found": "[no such page]",
        f"the last piece{CONTEXT}Not found": "[last piece not found]",
        f"how the judge counts the pieces{CONTEXT}Count": "[count mode]",
    }
    dm = factories.championship(slug="dm-2026", ruleset="dm")  # the last piece rule
    individual = dm.categories.get(kind="individual")
    table = factories.table(dm)
    heat = factories.heat(individual.rounds.order_by("order").first())
    Seat.objects.create(heat=heat, table=table, entry=factories.entry(individual))
    rounds.heat_start(heat=heat)
    with lent("nb", words):
        text = judge_page(speak(client, "nb"), dm, table).text
    assert '<button type="button" class="link" data-action="edit">[edit]</button>' in text
    assert '<button type="submit">[switch]</button>' in text  # the language switcher's
    assert text.count("[switch]") == 1
    assert '<button type="button" data-action="not-found">[last piece not found]</button>' in text
    assert "[no such page]" not in text
    assert '<legend class="visually-hidden">[count mode]</legend>' in text


def test_a_heat_and_a_round_have_their_own_state_words():
    words = {
        f"heat state{CONTEXT}Scheduled": "[heat scheduled]",
        f"heat state{CONTEXT}Closed": "[heat closed]",
        f"round state{CONTEXT}Closed": "[round closed]",
    }
    with lent("sv", words), translation.override("sv"):
        assert str(Heat.State.SCHEDULED.label) == "[heat scheduled]"
        assert str(Heat.State.CLOSED.label) == "[heat closed]"
        assert str(Round.State.CLOSED.label) == "[round closed]"


def test_the_control_rooms_set_and_left_say_what_they_are_about(client, running):
    words = {
        f"set an entrant's own start{CONTEXT}Set": "[set the own start]",
        f"time left in a heat{CONTEXT}Left": "[time left]",
    }
    with lent("nb", words):
        text = control_room(speak(client, "nb"), running["championship"], running["final"]).text
    assert "[set the own start]</button>" in text
    assert "[time left] <strong" in text


def test_the_dashboards_confirmed_mark_is_not_its_counter(client, running):
    judge = factories.role(running["championship"], Role.JUDGE)
    for kind in ("finish", "confirm"):
        capture_record(
            round_=running["final"],
            entry=running["ingrid"],
            judge=judge,
            data=CaptureInput(client_id=uuid.uuid4(), kind=kind, at=timezone.now()),
        )
    words = {
        f"a result the entrant confirmed{CONTEXT}confirmed": "[confirmed mark]",
        (f"dashboard count{CONTEXT}confirmed", 0): "[1 confirmed]",
    }
    client.force_login(factories.role(running["championship"], Role.HEAD_JUDGE))
    url = reverse(
        "manage:dashboard",
        kwargs={
            "championship_slug": running["championship"].slug,
            "round_key": running["final"].key,
        },
    )
    with lent("nb", words):
        text = speak(client, "nb").get(url).text
    assert '<span class="confirmed-mark">✓ [confirmed mark]</span>' in text
    assert re.search(r"<strong>1</strong> \[1 confirmed\]", text)


# "Heat A", everywhere -------------------------------------------------------------------------


def test_a_heat_is_called_by_its_name_or_heat_and_its_key_in_capitals():
    assert Heat(key="b").label == "Heat B"
    assert Heat(key="b", name="Morning heat").label == "Morning heat"
    with lent("nb", {"Heat %(key)s": "Puljeheat %(key)s"}), translation.override("nb"):
        assert Heat(key="a").label == "Puljeheat A"


def test_every_page_calls_the_heat_heat_a(client, running):
    championship, final = running["championship"], running["final"]
    slug = championship.slug
    speak(client, "en")
    judge = judge_page(client, championship, running["tables"][0], Role.JUDGE).text
    assert "Final · Heat A · " in judge and " · a · " not in judge
    detail = client.get(f"/{slug}/").text
    assert "<td>Heat A</td>" in detail and "<td>Heat B</td>" in detail
    results = client.get(f"/{slug}/results/{final.key}/").text
    assert '<td class="hide-narrow">Heat A</td>' in results
    assert ">Heat A</a>" in results and ">Heat B</a>" in results  # the filter
    filtered = client.get(f"/{slug}/results/{final.key}/?heat=b").text
    assert "Finale – Heat B</h1>" in filtered  # the printed list, in the championship's nb
    client.force_login(factories.role(championship, Role.ORGANISER))
    dashboard = client.get(
        reverse("manage:dashboard", kwargs={"championship_slug": slug, "round_key": final.key})
    )
    assert re.search(r'<h2 id="heat-a">Heat A <span', dashboard.text)
    manage = client.get(reverse("manage:control_room", kwargs={"championship_slug": slug})).text
    assert ">Heat A</a> – " in manage and ">Heat B</a> – " in manage


def test_a_named_heat_is_called_by_its_name(client, running):
    Heat.objects.filter(pk=running["heat_b"].pk).update(name="Kveldsheatet")
    slug, final = running["championship"].slug, running["final"]
    speak(client, "en")
    assert "<td>Kveldsheatet</td>" in client.get(f"/{slug}/").text
    results = client.get(f"/{slug}/results/{final.key}/").text
    assert ">Kveldsheatet</a>" in results and "Heat B" not in results


def test_the_entrant_sees_their_heat_and_table_once_the_seating_is_published(client, running):
    entry = running["ola"]
    page = f"/{running['championship'].slug}/entries/{entry.manage_token}/"
    text = speak(client, "en").get(page).text
    assert "<strong>Table 2</strong> · Final · Heat B" in text
    Round.objects.filter(pk=running["final"].pk).update(seating_published_at=None)
    assert "Heat B" not in client.get(page).text


# Commands on buttons, one word for an own start -----------------------------------------------


def test_the_control_room_calls_time_with_a_command(client, running):
    rounds.heat_start(heat=running["heat_b"])
    text = control_room(speak(client, "en"), running["championship"], running["final"]).text
    assert ">Call time in Heat A</button>" in text and ">Call time in Heat B</button>" in text
    assert ">Call time in all heats</button>" in text
    assert "Time up in" not in text


def test_an_own_start_has_one_name(client, running):
    assert str(Capture.Kind.START.label) == "Own start"
    assert str(Seat._meta.get_field("started_at").verbose_name) == "own start"
    text = control_room(speak(client, "en"), running["championship"], running["final"]).text
    assert '<th scope="col">Own start</th>' in text
    assert "Own start of Ingrid Hansen" in text
    assert "An own start is for one entrant alone" in text
    assert "later start" not in text.lower() and "individual start" not in text.lower()
    judge = judge_page(client, running["championship"], running["tables"][0]).text
    assert "A judge cut the taped bag open: this entrant’s clock starts now." in judge


# Nordic dates and times -----------------------------------------------------------------------

MONDAY = datetime(2026, 11, 30, 19, 52)


@pytest.mark.parametrize(
    ("language", "short", "long"),
    [
        ("nb", "man. 30. nov. 19:52", "30. november 2026 kl. 19:52"),
        ("da", "man. 30. nov. 19:52", "30. november 2026 kl. 19:52"),
        ("sv", "mån 30 nov 19:52", "30 november 2026 kl. 19:52"),
        ("en", "Mon 30 Nov 19:52", "30 November 2026, 19:52"),
    ],
)
def test_each_language_reads_its_dates_its_own_way(language, short, long):
    with translation.override(language):
        assert formats.date_format(MONDAY, "SHORT_DATETIME_FORMAT") == short
        assert formats.date_format(MONDAY, "DATETIME_FORMAT") == long


# What a template may pass to |date and |time: named formats, and machine-readable ones.
NAMED = {"DATE_FORMAT", "DATETIME_FORMAT", "SHORT_DATE_FORMAT", "SHORT_DATETIME_FORMAT"}
MACHINE = {"c", "U", "Y-m-d", "Y-m-d H:i"}  # ISO 8601, as in a sortable list
CLOCK = {"H:i", "H:i:s", "H:i:s.u"}  # a 24-hour clock reads the same in every language


def test_no_template_writes_a_date_pattern_of_its_own():
    found = []
    for template in TEMPLATES.rglob("*.*"):
        text = template.read_text()
        for name, pattern in re.findall(r"\|(date|time):[\"']([^\"']*)[\"']", text):
            allowed = NAMED | MACHINE if name == "date" else CLOCK
            if pattern not in allowed:
                found.append(f"{template.relative_to(TEMPLATES)}: |{name}:{pattern!r}")
    assert found == []


def test_the_seating_says_the_start_the_nordic_way_and_the_zone_in_words(client, running):
    final = running["final"]
    Heat.objects.filter(pk=running["heat_b"].pk).update(
        scheduled_start=datetime(2026, 11, 30, 18, 52, tzinfo=UTC)  # 19:52 in Oslo
    )
    url = reverse(
        "control:seating",
        kwargs={"championship_slug": running["championship"].slug, "round_key": final.key},
    )
    text = speak(client, "en").get(url).text
    assert "Starts Mon 30 Nov 19:52 (Norwegian time)" in text
    assert "Europe/Oslo" not in text
    assert "man. 30. nov. 19:52" in speak(client, "nb").get(url).text


def test_a_zone_without_a_name_in_words_keeps_its_iana_name():
    assert l10n.zone_name("Europe/Stockholm") == "Swedish time"
    assert l10n.zone_name("Europe/Copenhagen") == "Danish time"
    assert l10n.zone_name("Europe/Helsinki") == "Europe/Helsinki"


# Money -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("amount", "currency", "language", "shown"),
    [
        (Decimal("200.00"), "NOK", "nb", "200 kr"),
        (Decimal("150.50"), "SEK", "sv", "150,50 kr"),
        (Decimal("300"), "DKK", "da", "300 kr"),
        (Decimal("200.00"), "NOK", "sv", "200 NOK"),
        (Decimal("200.00"), "NOK", "en", "200 NOK"),
        (Decimal("25.00"), "EUR", "nb", "25 EUR"),
        # Thousands as each language groups them: a no-break space, a dot, a comma.
        (Decimal("1500.00"), "NOK", "nb", "1\u00a0500 kr"),
        (Decimal("12345.50"), "SEK", "sv", "12\u00a0345,50 kr"),
        (Decimal("1175.00"), "DKK", "da", "1.175 kr"),
        (Decimal("1500.00"), "NOK", "en", "1,500 NOK"),
    ],
)
def test_an_amount_reads_as_its_readers_expect(amount, currency, language, shown):
    assert l10n.money(amount, currency, language) == shown


def test_the_pages_and_the_e_mail_show_the_fee_in_kroner(
    client, django_capture_on_commit_callbacks
):
    championship = factories.championship(
        slug=f"rm-{NEXT_YEAR}", starts_at=datetime(NEXT_YEAR, 3, 14, 9, tzinfo=UTC)
    )
    individual = championship.categories.get(kind="individual")
    speak(client, "nb")
    assert "<dd>200 kr</dd>" in client.get(f"/{championship.slug}/").text
    assert "<dd>200 kr</dd>" in client.get(f"/{championship.slug}/register/individual/").text
    member = validation.MemberData(
        "Kari Nordmann", "kari@example.org", datetime(1980, 1, 1).date(), region="Rogaland"
    )
    with django_capture_on_commit_callbacks(execute=True):
        entry = registration_services.entry_register(
            category=individual, members=[member], language="nb"
        )
    (message,) = mail.outbox
    assert ": 200 kr (" in message.body and "200,00" not in message.body
    text = client.get(f"/{championship.slug}/entries/{entry.manage_token}/").text
    assert "<dd>200 kr · " in text


# Counts ------------------------------------------------------------------------------------------


def test_the_dashboard_says_one_piece_and_two_pieces():
    one = Capture(kind="pieces", pieces_placed=1, missing_found=1, payload={})
    two = Capture(kind="pieces", pieces_placed=2, missing_found=2, payload={})
    words = {
        ("%(count)s found later", 0): "%(count)s found later (one)",
        ("%(count)s found later", 1): "%(count)s found later (more)",
    }
    with lent("sv", words), translation.override("sv"):
        assert "1 found later (one)" in capture_values(one)
        assert "2 found later (more)" in capture_values(two)
    assert "1 piece placed" in capture_values(one)
    assert "2 pieces placed" in capture_values(two)


def test_the_phone_gets_both_forms_of_each_counted_message(client, running):
    text = judge_page(speak(client, "en"), running["championship"], running["tables"][0]).text
    match = re.search(r'<script id="judge-strings" type="application/json">(.*?)</script>', text)
    strings = json.loads(match.group(1))
    for name in ("waiting", "piecesFound", "piecesCharged", "noPenaltyAdjacent", "invalid"):
        assert set(strings[name]) == {"one", "other"}, name
    assert strings["waiting"] == {
        "one": "%(count)s capture waiting for network — kept on this phone",
        "other": "%(count)s captures waiting for network — kept on this phone",
    }
    assert strings["invalid"]["one"] == "More than %(count)s piece missing: the attempt is invalid."


def test_one_advancing_entry_is_singular(client, running):
    Round.objects.filter(pk=running["final"].pk).update(advance="overall", advance_count=1)
    text = control_room(speak(client, "en"), running["championship"], running["final"]).text
    assert "The best 1 overall advances." in text


# Country names -----------------------------------------------------------------------------------

# The names a native review found left in English in sv, da or nb.
UNTRANSLATED = {
    "AL", "AS", "AU", "BR", "BV", "CA", "CC", "CM", "CU", "CV", "CX", "EG", "GE", "HK", "ID",
    "IN", "JO", "KH", "LB", "NF", "PH", "PN", "SB", "SS", "TD",
}  # fmt: skip


def test_the_country_names_left_in_english_are_the_projects_own_msgids():
    overridden = settings.COUNTRIES_OVERRIDE
    assert set(overridden) >= UNTRANSLATED
    with translation.override("en"):  # the msgids, whatever language an earlier test left
        words = {str(overridden[code]): f"[{code}]" for code in UNTRANSLATED}
    del countries.countries  # its names are kept per language once read (another test's page)
    try:
        with lent("sv", words), translation.override("sv"):
            names = dict(countries)
    finally:
        del countries.countries  # not the lent words for the tests after
    assert {code: names[code] for code in UNTRANSLATED if names[code] != f"[{code}]"} == {}
    assert dict(countries)["NL"] == "Netherlands"  # not "Netherlands (Kingdom of the)"


# The 500 page ------------------------------------------------------------------------------------


def broken(request):
    raise RuntimeError("a bug")


urlpatterns = [path("broken/", broken)]


@pytest.mark.urls(__name__)
def test_the_server_error_page_speaks_the_visitors_language(client):
    client.raise_request_exception = False
    words = {
        "Server error": "[server error]",
        "Something went wrong": "[something went wrong]",
        "The error has been logged. Please try again in a moment.": "[try again]",
    }
    with lent("nb", words):
        response = speak(client, "nb").get("/broken/")
    assert response.status_code == 500
    text = response.content.decode()
    assert '<html lang="nb">' in text
    assert "<title>[server error]</title>" in text
    assert "<h1>[something went wrong]</h1>" in text and "[try again]" in text


# The small things --------------------------------------------------------------------------------


def test_an_empty_entry_list_is_not_numbered(client):
    championship = factories.championship(slug="rm-empty")
    text = speak(client, "en").get(f"/{championship.slug}/").text
    assert '<p class="none">No entries yet.</p>' in text
    assert '<li class="none">' not in text


def test_the_public_sees_the_presets_title_not_its_code(client, running):
    championship = running["championship"]
    text = speak(client, "en").get(f"/{championship.slug}/").text
    assert "follows the Rogalandsmesterskapet i hurtigpusling rules" in text
    assert "(rogaland)" not in text
    client.force_login(factories.role(championship, Role.ORGANISER))
    manage = client.get(
        reverse("manage:control_room", kwargs={"championship_slug": championship.slug})
    ).text
    assert "Rules: Rogalandsmesterskapet i hurtigpusling" in manage and "(rogaland)" not in manage


def test_the_language_switcher_works_without_javascript(client):
    text = speak(client, "en").get("/").text
    form = text[
        text.index('<form class="language"') : text.index(
            "</form>", text.index('<form class="language"')
        )
    ]
    assert '<noscript><button type="submit">Change</button></noscript>' in form
    response = client.post("/i18n/setlang/", {"language": "sv", "next": "/"})
    assert response.status_code == 302
    assert client.get("/").content.decode().startswith('<!doctype html>\n\n<html lang="sv">')


def test_the_demo_puzzles_have_norwegian_motifs(capsys):
    call_command("demo")
    demo = Championship.objects.get(slug="demo")
    motifs = set(demo.categories.values_list("puzzle_motif", flat=True))
    assert "Preikestolen ved soloppgang" in motifs
    assert not any(" at dawn" in motif or " in winter" in motif for motif in motifs)
