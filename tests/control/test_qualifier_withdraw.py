"""A qualifier who does not start: withdrawn from the next round, replaced by the rule."""

import pytest
from django.core.exceptions import ValidationError

from championship.errors import RoundStateError
from championship.models import OutgoingMail
from control import rounds
from control.withdrawals import qualifier_withdraw
from results.models import QualifierWithdrawal, Result
from results.services import standings_recompute
from tests.control.staged import advance, entrants, qualified, run, staged

pytestmark = pytest.mark.django_db

LAYOUT = (("group", "prelim", None), ("final", "final", None))
# In order of place: Norway's best, Egypt's only, New Zealand's best, Norway's second,
# New Zealand's second, Denmark's only.
COUNTRIES = ("NO", "EG", "NZ", "NO", "NZ", "DK")


@pytest.fixture
def stage(championship):
    made = staged(championship, LAYOUT)
    entries = entrants(championship, 6, countries=COUNTRIES)
    rounds.round_seat(round_=made["group"])
    minutes = {entry.pk: 40 + index for index, entry in enumerate(entries)}
    return made["group"], made["final"], entries, minutes


def by_country(stage):
    group, final, entries, minutes = stage
    # Three places, all of them country places: Norway's, Egypt's and New Zealand's best.
    advance(group, "country", 3, advance_country_places=3)
    run(group, minutes)
    assert qualified(group) == {entries[i].pk: "country" for i in (0, 1, 2)}
    return group, final, entries


def test_a_country_place_passes_to_the_next_of_the_same_country(stage, organiser):
    group, final, entries = by_country(stage)
    offer = qualifier_withdraw(round_=group, entry=entries[2], by=organiser)
    assert not offer.confirmed and offer.route == "country"
    assert offer.entries == (entries[4],)
    assert offer.reason == ("The country place of New Zealand passes to its next-placed entry.")
    # Only offered: nothing changed.
    assert not QualifierWithdrawal.objects.exists()
    assert entries[4].pk not in qualified(group)
    confirmed = qualifier_withdraw(round_=group, entry=entries[2], by=organiser, confirm=True)
    assert confirmed.confirmed and confirmed.entries == (entries[4],)
    assert qualified(group) == {entries[i].pk: "country" for i in (0, 1, 4)}
    withdrawal = QualifierWithdrawal.objects.get()
    assert withdrawal.result.entry == entries[2] and withdrawal.withdrawn_by == organiser
    # Ranking the group anew keeps the withdrawal and its replacement.
    standings_recompute(round_=group)
    assert qualified(group) == {entries[i].pk: "country" for i in (0, 1, 4)}
    assert {e.pk for e in rounds.round_entries(final)} == {entries[i].pk for i in (0, 1, 4)}


def test_a_country_with_nobody_left_gives_its_place_by_classification(stage):
    group, _final, entries = by_country(stage)
    offer = qualifier_withdraw(round_=group, entry=entries[1], confirm=True)
    assert offer.reason == "No one representing Egypt is left: the place goes by classification."
    # Norway's second is the best not yet qualified.
    assert offer.entries == (entries[3],) and offer.route == "classification"
    assert qualified(group) == {
        entries[0].pk: "country",
        entries[2].pk: "country",
        entries[3].pk: "classification",
    }


def test_a_replacement_who_withdraws_is_replaced_in_turn(stage):
    group, _final, entries = by_country(stage)
    qualifier_withdraw(round_=group, entry=entries[2], confirm=True)
    offer = qualifier_withdraw(round_=group, entry=entries[4], confirm=True)
    assert offer.reason == (
        "No one representing New Zealand is left: the place goes by classification."
    )
    assert offer.entries == (entries[3],)
    assert set(qualified(group)) == {entries[i].pk for i in (0, 1, 3)}


def test_in_a_round_of_the_best_n_the_place_goes_to_the_next_by_classification(stage):
    group, _final, entries, minutes = stage
    advance(group, "overall", 2)
    run(group, minutes)
    offer = qualifier_withdraw(round_=group, entry=entries[0], confirm=True)
    assert offer.entries == (entries[2],) and offer.route == ""
    assert offer.reason == "The place goes to the next by classification."
    assert qualified(group) == {entries[1].pk: "", entries[2].pk: ""}
    assert Result.objects.get(round=group, entry=entries[0]).place == 1


def test_everyone_tied_for_the_place_takes_it(stage):
    group, _final, entries, minutes = stage
    advance(group, "overall", 2)
    minutes[entries[3].pk] = minutes[entries[2].pk]
    run(group, minutes)
    offer = qualifier_withdraw(round_=group, entry=entries[1], confirm=True)
    assert offer.entries == (entries[2], entries[3])


def test_the_replacement_takes_the_withdrawn_ones_seat_in_a_seated_next_round(stage):
    group, final, entries = by_country(stage)
    rounds.round_advance(round_=group)
    seat = final.seats.get(entry=entries[2])
    qualifier_withdraw(round_=group, entry=entries[2], confirm=True)
    moved = final.seats.get(entry=entries[4])
    assert (moved.heat_id, moved.table_id, moved.position) == (
        seat.heat_id,
        seat.table_id,
        seat.position,
    )
    assert not final.seats.filter(entry=entries[2]).exists()


def test_the_replacement_in_a_seated_next_round_is_told_they_advanced(stage):
    group, final, entries = by_country(stage)
    for number, entry in enumerate(entries):
        # The contact address is the member's own, as registration stores it.
        entry.contact_email = f"entrant{number}@example.org"
        entry.members.update(email=entry.contact_email)
        entry.save(update_fields=["contact_email"])
    rounds.round_advance(round_=group)
    told = OutgoingMail.objects.filter(kind=OutgoingMail.Kind.ADVANCED)
    assert sorted(told.values_list("to", flat=True)) == sorted(
        entries[i].contact_email for i in (0, 1, 2)
    )
    qualifier_withdraw(round_=group, entry=entries[2], confirm=True)
    (mail,) = told.filter(to=entries[4].contact_email)
    assert final.display_name in mail.subject + mail.body
    assert told.count() == 4


def test_withdrawing_once_the_next_round_started_is_refused(stage):
    group, final, entries = by_country(stage)
    rounds.round_advance(round_=group)
    rounds.round_start(round_=final)
    with pytest.raises(RoundStateError, match="The next round, final, has started"):
        qualifier_withdraw(round_=group, entry=entries[2], confirm=True)
    assert not QualifierWithdrawal.objects.exists()


def test_only_a_qualifier_can_be_withdrawn_and_only_once(stage):
    group, final, entries = by_country(stage)
    with pytest.raises(ValidationError, match="has not qualified"):
        qualifier_withdraw(round_=group, entry=entries[5])
    qualifier_withdraw(round_=group, entry=entries[2], confirm=True)
    with pytest.raises(ValidationError, match="already"):
        qualifier_withdraw(round_=group, entry=entries[2], confirm=True)
    with pytest.raises(RoundStateError, match="last round"):
        qualifier_withdraw(round_=final, entry=entries[0])


def test_the_reason_is_in_the_organisers_language(stage):
    from django.utils import translation

    group, _final, entries = by_country(stage)
    with translation.override("sv"):
        offer = qualifier_withdraw(round_=group, entry=entries[2])
    assert "Nya Zeeland" in offer.reason
