"""The round page's stage actions: dealing a first stage's entrants to its groups, and
withdrawing a qualifier who does not start the next round (control/views/groups.py)."""

from html import escape

import pytest

from championship.models import ChampionshipRole, Round, Seat
from control import rounds
from control.withdrawals import qualifier_withdraw
from results.models import QualifierWithdrawal
from tests import factories
from tests.control.control_room import said, url
from tests.control.staged import advance, entrants, qualified, run, staged

pytestmark = pytest.mark.django_db

Role = ChampionshipRole.Role

GROUPS = (
    ("a", "prelim", "semi"),
    ("b", "prelim", "semi"),
    ("c", "prelim", "semi"),
    ("semi", "semifinal", None),
)
FEEDING = (("group", "prelim", None), ("final", "final", None))
# In order of place: Norway's best, Egypt's only, New Zealand's best, Norway's second,
# New Zealand's second, the neutral flag.
COUNTRIES = ("NO", "EG", "NZ", "NO", "NZ", "neutral")


@pytest.fixture
def boss(english, championship):
    """A client logged in as an organiser of ``championship``, in English."""
    english.force_login(factories.role(championship, Role.ORGANISER, username="boss"))
    return english


@pytest.fixture
def judge_client(client, championship):
    client.force_login(factories.role(championship, Role.JUDGE, username="judge-only"))
    return client


@pytest.fixture
def groups(championship):
    made = staged(championship, GROUPS)
    for key in "abc":
        Round.objects.filter(pk=made[key].pk).update(name=f"Group {key.upper()}")
        made[key].refresh_from_db()
    return made


@pytest.fixture
def feeding(championship):
    """A group whose three places are all country places: Norway's, Egypt's, New Zealand's."""
    made = staged(championship, FEEDING)
    entries = entrants(championship, 6, countries=COUNTRIES)
    rounds.round_seat(round_=made["group"])
    advance(made["group"], "country", 3, advance_country_places=3)
    run(made["group"], {entry.pk: 40 + index for index, entry in enumerate(entries)})
    return made["group"], made["final"], entries


def seats(round_):
    return Seat.objects.filter(round=round_).count()


# Dealing -----------------------------------------------------------------------------------------


def test_a_groups_page_offers_to_deal_the_stage_and_deals_it(boss, championship, groups):
    entrants(championship, 9, prior=True)
    page = boss.get(url("round_control", championship, groups["b"])).content.decode()
    assert "Deal the entrants to groups A–C" in page
    assert "Group sizes" in page
    response = boss.post(
        url("round_groups_deal", championship, groups["b"]), {"group_sizes": "4, 3, 2"}, follow=True
    )
    assert said(response) == ["9 entries are dealt to the groups: Group A 4, Group B 3, Group C 2."]
    assert [seats(groups[key]) for key in "abc"] == [4, 3, 2]
    # Empty sizes: sizes that differ by at most one.
    boss.post(url("round_groups_deal", championship, groups["a"]), {"group_sizes": ""})
    assert [seats(groups[key]) for key in "abc"] == [3, 3, 3]


def test_a_later_round_and_a_round_alone_offer_no_dealing(boss, championship, groups):
    page = boss.get(url("round_control", championship, groups["semi"])).content.decode()
    assert "Deal the entrants" not in page
    response = boss.post(url("round_groups_deal", championship, groups["semi"]), follow=True)
    assert said(response) == [
        "This round is not one of several groups of a first stage: seat it on its own."
    ]


def test_group_sizes_the_service_refuses_are_shown_on_the_form(boss, championship, groups):
    entrants(championship, 9)
    response = boss.post(
        url("round_groups_deal", championship, groups["a"]), {"group_sizes": "5, 5"}
    )
    assert response.status_code == 200
    assert said(response) == ["The entries are not dealt: see the form."]
    assert "Give one size for each of the 3 groups." in response.content.decode()
    response = boss.post(
        url("round_groups_deal", championship, groups["a"]), {"group_sizes": "5, 5, 5"}
    )
    assert "The group sizes add up to 15, but there are 9 entries to deal." in (
        response.content.decode()
    )
    response = boss.post(
        url("round_groups_deal", championship, groups["a"]), {"group_sizes": "five"}
    )
    assert "Give the group sizes as whole numbers" in response.content.decode()
    assert not Seat.objects.exists()


# Withdrawing a qualifier ------------------------------------------------------------------


def test_the_page_lists_the_qualifiers_with_their_country_and_the_passport_flag(
    boss, championship, feeding
):
    group, _final, entries = feeding
    page = boss.get(url("round_control", championship, group)).content.decode()
    assert "Qualified for final" in page
    assert '<abbr class="country" title="New Zealand">NZ</abbr>' in page
    assert page.count('title="Country place — check the passport"') == 3
    assert "3 qualifiers go on by a country place: check their passports" in page
    assert f"3 · {entries[2].name} · NZ" in page
    # Not qualified: not offered.
    assert f"{entries[5].name} · neutral" not in page


def test_the_offer_shows_who_takes_the_place_and_why_and_changes_nothing(
    boss, championship, feeding
):
    group, _final, entries = feeding
    response = boss.post(url("round_withdraw", championship, group), {"entry": entries[2].pk})
    assert response.status_code == 200
    page = response.content.decode()
    assert escape("The country place of New Zealand passes to its next-placed entry.") in page
    assert entries[4].name in page and "country place" in page
    assert f"Withdraw {entries[2].name} from final" in page
    assert not QualifierWithdrawal.objects.exists()
    assert entries[4].pk not in qualified(group)


def test_confirming_withdraws_and_names_the_replacement(boss, championship, feeding):
    group, _final, entries = feeding
    response = boss.post(
        url("round_withdraw", championship, group),
        {"entry": entries[2].pk, "confirm": "on"},
        follow=True,
    )
    assert said(response) == [
        f"{entries[2].name} does not start final; {entries[4].name} takes the place."
    ]
    assert qualified(group) == {entries[i].pk: "country" for i in (0, 1, 4)}
    withdrawal = QualifierWithdrawal.objects.get()
    assert withdrawal.result.entry == entries[2]
    assert withdrawal.withdrawn_by.username == "boss"
    page = response.content.decode()
    assert "Withdrawn from final" in page and "by boss" in page


def test_the_withdrawal_names_the_organiser_by_name_not_user_name(english, championship, feeding):
    group, _final, entries = feeding
    kari = factories.role(
        championship, Role.ORGANISER, username="kari-nordmann-3f9a1c", first_name="Kari Nordmann"
    )
    english.force_login(kari)
    response = english.post(
        url("round_withdraw", championship, group),
        {"entry": entries[2].pk, "confirm": "on"},
        follow=True,
    )
    page = response.content.decode()
    assert "by Kari Nordmann" in page and "kari-nordmann-3f9a1c" not in page


def test_a_country_with_nobody_left_goes_by_classification(boss, championship, feeding):
    group, _final, entries = feeding
    response = boss.post(url("round_withdraw", championship, group), {"entry": entries[1].pk})
    assert escape("No one representing Egypt is left: the place goes by classification.") in (
        response.content.decode()
    )


def test_a_judge_may_not_deal_or_withdraw(judge_client, championship, feeding):
    group, _final, entries = feeding
    for data in ({"entry": entries[2].pk}, {"entry": entries[2].pk, "confirm": "on"}):
        response = judge_client.post(url("round_withdraw", championship, group), data)
        assert response.status_code == 403
    assert judge_client.post(url("round_groups_deal", championship, group)).status_code == 403
    assert not QualifierWithdrawal.objects.exists()
    assert judge_client.get(url("round_control", championship, group)).status_code == 403


def test_refused_withdrawals_show_the_services_message_and_change_nothing(
    boss, championship, feeding
):
    group, final, entries = feeding
    before = qualified(group)
    not_qualified = boss.post(
        url("round_withdraw", championship, group),
        {"entry": entries[5].pk, "confirm": "on"},
        follow=True,
    )
    assert said(not_qualified) == ["This entry has not qualified from this round."]
    qualifier_withdraw(round_=group, entry=entries[2], confirm=True)
    again = boss.post(
        url("round_withdraw", championship, group), {"entry": entries[2].pk}, follow=True
    )
    assert said(again) == ["This entry is withdrawn from the next round already."]
    rounds.round_advance(round_=group)
    rounds.round_start(round_=final)
    started = boss.post(
        url("round_withdraw", championship, group),
        {"entry": entries[0].pk, "confirm": "on"},
        follow=True,
    )
    assert said(started) == [
        "The next round, final, has started: its qualifiers can no longer be withdrawn."
    ]
    assert "final has started: its qualifiers can no longer be withdrawn." in (
        started.content.decode()
    )
    assert QualifierWithdrawal.objects.count() == 1
    assert qualified(group) != before and entries[0].pk in qualified(group)


def test_no_qualifier_chosen_is_refused(boss, championship, feeding):
    group, _final, _entries = feeding
    response = boss.post(url("round_withdraw", championship, group), {"entry": ""}, follow=True)
    assert said(response) == ["Choose the qualifier who does not start the next round."]


# Setting country places and where the qualifiers go ------------------------------------


def test_the_advancement_form_sets_country_places_and_the_round_fed(boss, championship, groups):
    response = boss.post(
        url("round_advancement", championship, groups["a"]),
        {
            "advance": "country",
            "advance_count": "60",
            "advance_country_places": "30",
            "advance_country_requires_completion": "on",
            "advance_per_country": "",
            "into": str(groups["semi"].pk),
        },
    )
    assert response.status_code == 302
    group = Round.objects.get(pk=groups["a"].pk)
    assert group.advance_settings == {
        "overall": 60,
        "country_places": 30,
        "country_place_requires_completion": True,
        "into": groups["semi"].key,
    }
    page = boss.get(url("round_control", championship, group)).content.decode()
    assert "60 places: first the best of each of the first 30 countries" in page


def test_the_advancement_form_refuses_a_round_fed_that_is_not_later(boss, championship, groups):
    before = Round.objects.get(pk=groups["b"].pk).advance_settings
    response = boss.post(
        url("round_advancement", championship, groups["b"]),
        {"advance": "overall", "advance_count": "5", "into": str(groups["a"].pk)},
    )
    assert response.status_code == 200
    assert "Select a valid choice" in response.content.decode()
    assert Round.objects.get(pk=groups["b"].pk).advance_settings == before
