"""An organiser builds the WJPC 2024 individual structure from the preset and seats semifinal 1.

Issue 34's "Done when": from the New championship page, with the ``wjpc`` preset
and its groups (6 groups, 2 semifinals, a final), at laptop size
(1366x768), nothing in the admin. The entrants come from factories; the organiser
sets a small field's advancement, deals the entrants to groups A to F, and, once
groups A to C have results, seats semifinal 1: exactly their qualifiers, equal
places of different groups interleaved (A's 1st, B's 1st, C's 1st, A's 2nd …).

With SCREENSHOTS set, each screen is written under ``$SCREENSHOTS/wjpc/`` to be looked at.
"""

import time

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from championship import services
from championship.models import Championship, Round
from control import rounds
from results.models import Result
from tests.browser import screens
from tests.browser.conftest import PASSWORD, log_in
from tests.control.staged import advance, entrants, run

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

GROUPS = ("A", "B", "C", "D", "E", "F")
# 36 entrants: some countries share, one neutral flag; in registration order.
COUNTRIES = (
    *("ES", "PL", "CZ", "NO", "ES", "DE", "PL", "US", "ES", "CZ", "GB", "IT"),
    *("NO", "ES", "PL", "FR", "neutral", "DE", "ES", "CZ", "PL", "US", "AR", "ES"),
    *("JP", "PL", "NZ", "ES", "EG", "CZ", "DE", "ES", "PL", "NO", "FI", "ES"),
)


def shot(page, name):
    screens.shot(page, name, area="wjpc")


def round_page(page, live_server, key):
    page.goto(f"{live_server.url}/wjpc-2024/manage/rounds/individual-{key}/")
    return page


def create_from_the_preset(page, live_server):
    """New championship → wjpc → the preset's groups for individuals → Create."""
    year = timezone.now().year + 1
    page.get_by_role("link", name="New championship").click()
    expect(page.get_by_role("heading", name="New championship")).to_be_visible()
    page.get_by_label("World Jigsaw Puzzle Championship (wjpc)").check()
    expect(page.locator("#setup-individual")).to_be_visible()
    page.fill("#id_name", "WJPC 2024")
    expect(page.locator("input[name=slug]")).to_have_value("wjpc-2024")
    page.fill("input[name=starts_at]", f"{year}-09-20T09:00")
    page.get_by_label("Venue").fill("Feria de Valladolid")
    expect(page.locator("#id_timezone")).to_have_value("Europe/Madrid")
    individual = page.locator("#setup-individual")
    stages = individual.locator("select[name$=-stages]")
    expect(stages).to_have_value("layout:wjpc")
    expect(stages.locator("option:checked")).to_have_text(
        "The preset's groups: 6 × Preliminary round → 2 × Semifinal → Final"
    )
    shot(page, "1_new_championship")
    page.get_by_role("button", name="Create the championship").click()
    expect(page.get_by_role("heading", name="Control room")).to_be_visible()
    expect(page.locator(".messages")).to_contain_text("you are its organiser")


def check_the_structure(page, live_server):
    """The control room lists the rounds; each group's page says where its qualifiers go."""
    names = [f"Group {g}" for g in GROUPS] + ["Semifinal 1", "Semifinal 2", "Final"]
    cards = page.locator("#manage-rounds ~ ul.cards > li h3", has_text="Individual")
    expect(cards).to_have_text([f"Individual: {name}" for name in names])
    fed = [f"Qualifiers go to Semifinal {1 if index < 3 else 2}" for index in range(6)]
    individual = page.locator("ul.category-rounds[aria-label=Individual] .round-into")
    expect(individual).to_have_text([*fed, "Qualifiers go to Final", "Qualifiers go to Final"])
    shot(page, "2_control_room")
    for index, group in enumerate(GROUPS):
        round_page(page, live_server, f"group-{group.lower()}")
        into = page.locator("form.advance-form").get_by_label("Qualifiers go to")
        fed = "Semifinal 1" if index < 3 else "Semifinal 2"
        expect(into.locator("option:checked")).to_have_text(fed)
        # A group feeds a round of a later stage, never a parallel group; the empty
        # choice names the round it stands for.
        following = f"Group {GROUPS[index + 1]}" if index < 5 else "Semifinal 1"
        expect(into.locator("option")).to_have_text(
            [f"The next round by order: {following}", "Semifinal 1", "Semifinal 2", "Final"]
        )
    round_page(page, live_server, "group-a")
    section = page.locator("section[aria-labelledby=advance-heading]")
    expect(section).to_contain_text(
        "60 places: first the best of each of the first 30 countries (a country place), "
        "then by classification."
    )
    form = page.locator("form.advance-form")
    expect(form.get_by_label("Advance")).to_have_value("country")
    expect(form.get_by_label("K", exact=True)).to_have_value("30")
    expect(form.get_by_label("A country place needs a completed puzzle")).to_be_checked()


def set_group_a_advancement(page, live_server):
    """A small field: 4 places, the best of the first 2 countries first, a completed puzzle."""
    round_page(page, live_server, "group-a")
    form = page.locator("form.advance-form")
    # The form shows the fields of the kind chosen.
    kind = form.locator("select[name=advance]")
    country_places = form.get_by_label("K", exact=True)
    remaining = form.locator("input[name=advance_best_remaining]")
    expect(remaining).to_be_hidden()
    kind.select_option("per_heat")
    expect(remaining).to_be_visible()
    expect(country_places).to_be_hidden()
    expect(form.get_by_label("A country place needs a completed puzzle")).to_be_hidden()
    shot(page, "2b_advancement_per_heat")
    kind.select_option("none")
    expect(form.locator("input[name=advance_count]")).to_be_hidden()
    kind.select_option("country")
    expect(country_places).to_be_visible()
    expect(remaining).to_be_hidden()
    form.locator("input[name=advance_count]").fill("4")
    form.get_by_label("K", exact=True).fill("2")
    form.get_by_role("button", name="Save the advancement").click()
    expect(page.locator(".messages")).to_contain_text("The advancement is saved.")
    expect(page.locator("section[aria-labelledby=advance-heading]")).to_contain_text(
        "4 places: first the best of each of the first 2 countries (a country place)"
    )


def deal(page, live_server):
    round_page(page, live_server, "group-a")
    panel = page.locator("#groups-deal")
    expect(panel.get_by_role("heading")).to_have_text("Deal the entrants to groups A–F")
    # Before the deal, the group counts the stage's entrants as still to be dealt.
    expect(page.locator(".round-state .meta")).to_have_text(
        "36 entries to deal to groups A–F · 90 minutes"
    )
    shot(page, "3_group_round_page")
    panel.get_by_role("button", name="Deal the entrants to groups A–F").click()
    shares = ", ".join(f"Group {group} 6" for group in GROUPS)
    expect(page.locator(".messages")).to_contain_text(
        f"36 entries are dealt to the groups: {shares}."
    )
    expect(page.locator("#groups-deal .stage-groups li")).to_have_text(
        [f"Group {group} 6 seated" for group in GROUPS], use_inner_text=True
    )
    shot(page, "3b_groups_dealt")


def interleaved(groups: list[Round]) -> list[str]:
    """The qualifiers of ``groups`` by place, equal places in the groups' order.

    As the seating shows them: the entry's name, its group and its place there.
    """
    ranked = []
    for index, group in enumerate(groups):
        for result in Result.objects.filter(round=group, qualified=True).select_related("entry"):
            seen = f"{result.entry.name} {group.display_name}, place {result.place}"
            ranked.append((result.place, index, seen))
    return [seen for _place, _index, seen in sorted(ranked)]


@pytest.mark.long
def test_an_organiser_builds_the_wjpc_structure_and_seats_semifinal_1(laptop, live_server):
    page = laptop
    services.organiser_account_set(username="marta", password=PASSWORD)
    log_in(page, live_server, "marta")

    began = time.monotonic()
    create_from_the_preset(page, live_server)
    check_the_structure(page, live_server)
    set_group_a_advancement(page, live_server)
    building = time.monotonic() - began
    assert building < 120, f"building the structure took {building:.0f} s"

    championship = Championship.objects.get(slug="wjpc-2024")
    category = championship.categories.get(kind="individual")
    by_key = {r.key.removeprefix("individual-"): r for r in category.rounds.all()}
    assert by_key["group-a"].advance_settings == {
        "overall": 4,
        "country_places": 2,
        "country_place_requires_completion": True,
        "into": "individual-semifinal-1",
    }
    for group in "bcdef":
        advance(by_key[f"group-{group}"], "country", 4, advance_country_places=2)
    services.tables_create(championship=championship, count=40)
    entrants(championship, len(COUNTRIES), countries=COUNTRIES, prior=True)

    deal(page, live_server)

    # Groups A to C run (by service): in each group the k-th seated finishes in 40 + k
    # minutes, so places are equal across the groups and interleave.
    feeding = [by_key[f"group-{group}"] for group in "abc"]
    for group in feeding:
        seated = rounds.round_entries(group)
        order = {seat.entry_id: n for n, seat in enumerate(group.seats.order_by("table__number"))}
        run(group, {entry.pk: 40 + order[entry.pk] for entry in seated})
    expected = interleaved(feeding)
    assert len(expected) == 12

    round_page(page, live_server, "semifinal-1")
    expect(page.locator(".fed-by")).to_contain_text(
        "The qualifiers of Group A, Group B, Group C, by their place in their own group"
    )
    page.locator("#seat-form").get_by_role("button", name="Seat the round").click()
    expect(page.locator(".messages")).to_contain_text("The round is seated in 1 heat.")
    names = page.locator("table.seating tbody th[scope=row]")
    expect(names).to_have_text(expected)
    shot(page, "4_semifinal_seating")
    assert building < 600
