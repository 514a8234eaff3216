"""Entrants are told: their seat, that they advanced, their official result; the organiser writes.

Each mail goes in the entry's language (en, nb, sv, da), to its contact address,
and each kind can be turned off per championship.
"""

import re
import uuid
from datetime import timedelta

import pytest
from django.core import mail
from django.core.exceptions import ValidationError
from django.urls import reverse

from championship import submissions
from championship.models import ChampionshipRole, OutgoingMail, Round
from championship.services import tables_create
from control import notifications, rounds
from judging.capture_kinds import CaptureInput
from judging.services import capture_record
from results.models import Result
from tests import factories

pytestmark = pytest.mark.django_db

LANGUAGES = ("en", "nb", "sv", "da")
# What each mail says, in each language: the words a reader looks for.
SEATING = {"en": "Table", "nb": "Bord", "sv": "Bord", "da": "Bord"}
HEAT = {"en": "Heat A", "nb": "Heat A", "sv": "Heat A", "da": "Heat A"}
ADVANCED = {"en": "you are through", "nb": "videre", "sv": "vidare", "da": "videre"}
OFFICIAL = {"en": "are official", "nb": "offisielle", "sv": "officiella", "da": "officielle"}


@pytest.fixture
def dm(settings):
    settings.SITE_URL = "https://puzzle.example.org"
    championship = factories.championship(slug="dm-2026", ruleset="dm", name="DM 2026")
    individual = championship.categories.get(kind="individual")
    prelim, final = individual.rounds.order_by("order")
    Round.objects.filter(pk=prelim.pk).update(advance="overall", advance_count=2)
    prelim.refresh_from_db()
    tables_create(championship=championship, count=6)
    for n, language in enumerate(LANGUAGES):
        factories.entry(
            individual,
            members=[factories.person(championship, name=f"Deltager {language}")],
            name=f"Deltager {language}",
            contact_email=f"{language}@example.org",
            language=language,
            registered_at=championship.starts_at - timedelta(days=30 - n),
        )
    # One without an address: it gets no mail, and nothing fails.
    factories.entry(individual, name="Uden adresse", contact_email="")
    return championship, prelim, final


def by_address():
    return {message.to[0].split("@")[0]: message for message in mail.outbox}


def test_publishing_the_seating_tells_each_entrant_their_heat_table_and_time(
    dm, django_capture_on_commit_callbacks
):
    _championship, prelim, _final = dm
    rounds.round_seat(round_=prelim)
    with django_capture_on_commit_callbacks(execute=True):
        rounds.seating_publish(round_=prelim)
    mails = by_address()
    assert set(mails) == set(LANGUAGES)
    for language, message in mails.items():
        seat = prelim.seats.get(entry__contact_email=f"{language}@example.org")
        assert SEATING[language] in message.body and HEAT[language] in message.body
        assert f": {seat.table.number}" in message.body
        assert "https://puzzle.example.org/dm-2026/entries/" in message.body
        assert "DM 2026" in message.subject
    assert OutgoingMail.objects.filter(kind="seating", state="sent").count() == 4
    # Published again: nobody is told twice.
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        rounds.seating_publish(round_=prelim)
    assert mail.outbox == []


def test_each_kind_can_be_turned_off(dm, django_capture_on_commit_callbacks):
    championship, prelim, _final = dm
    championship.mail_seating = False
    championship.save()
    rounds.round_seat(round_=prelim)
    with django_capture_on_commit_callbacks(execute=True):
        rounds.seating_publish(round_=prelim)
    assert mail.outbox == []


def timed(prelim, minutes):
    factories.ran_earlier(prelim)
    judge = factories.role(prelim.championship, ChampionshipRole.Role.JUDGE, username="timer")
    started = prelim.heats.get().started_at
    for result, minute in zip(
        Result.objects.filter(round=prelim).order_by("entry__registered_at"), minutes, strict=True
    ):
        at = started + timedelta(minutes=minute)
        capture_record(
            round_=prelim,
            entry=result.entry,
            judge=judge,
            data=CaptureInput(client_id=uuid.uuid4(), kind="finish", at=at),
            now=at,
        )
    rounds.round_close(round_=prelim)
    prelim.refresh_from_db()


def test_the_official_results_and_the_advance_are_told_in_each_language(
    dm, django_capture_on_commit_callbacks
):
    _championship, prelim, final = dm
    rounds.round_seat(round_=prelim)
    rounds.round_start(round_=prelim)
    # en 43:00, nb 41:00, sv 42:00, da 40:00, the fifth 44:00: da and nb advance.
    timed(prelim, (43, 41, 42, 40, 44))
    with django_capture_on_commit_callbacks(execute=True):
        rounds.round_sign_off(round_=prelim, by=None)
    mails = by_address()
    assert set(mails) == set(LANGUAGES)
    for language, message in mails.items():
        assert OFFICIAL[language] in message.body, (language, message.body)
        assert "https://puzzle.example.org/dm-2026/results/individual-prelim/" in message.body
    assert "43:00" in mails["en"].body and "Place: 4" in mails["en"].body
    assert "Plassering: 2" in mails["nb"].body and "41:00" in mails["nb"].body
    assert "Placering: 1" in mails["da"].body
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        rounds.round_advance(round_=prelim)
    mails = by_address()
    assert set(mails) == {"da", "nb"}
    assert ADVANCED["da"] in mails["da"].body and ADVANCED["nb"] in mails["nb"].body
    assert final.display_name in mails["da"].subject or "Finale" in mails["da"].subject


def test_the_organiser_writes_to_a_category_or_a_round(
    dm, client, django_capture_on_commit_callbacks
):
    championship, prelim, _final = dm
    organiser = factories.role(championship, ChampionshipRole.Role.ORGANISER, username="orga")
    client.force_login(organiser)
    url = reverse("manage:message", args=[championship.slug])
    refused = client.post(url, {"audience": "", "subject": "", "body": ""})
    assert refused.status_code == 200 and mail.outbox == []
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post(
            url,
            {
                "audience": "category:individual",
                "subject": "Parking",
                "body": "Park at P2.",
                "submission": submissions.new_token(),
            },
            follow=True,
        )
    assert answer.status_code == 200
    assert sorted(m.to[0] for m in mail.outbox) == sorted(
        f"{language}@example.org" for language in LANGUAGES
    )
    assert all(m.subject == "DM 2026: Parking" and "Park at P2." in m.body for m in mail.outbox)
    mail.outbox.clear()
    # A round's audience is its seated entrants: none yet.
    assert (
        notifications.message_send(
            audience=notifications.Audience(championship=championship, round=prelim.key),
            subject="Start",
            body="Soon",
        )
        == 0
    )
    with pytest.raises(ValidationError) as refused:
        notifications.message_send(
            audience=notifications.Audience(championship=championship, category="nope"),
            subject="x",
            body="y",
        )
    assert set(refused.value.message_dict) == {"audience"}


@pytest.mark.parametrize(
    ("minutes", "through"),
    [((40, 43, 41, 44, 45), {"en", "sv"}), ((43, 41, 44, 40, 45), {"nb", "da"})],
)
def test_the_advance_is_told_in_each_language(
    dm, django_capture_on_commit_callbacks, minutes, through
):
    _championship, prelim, final = dm
    rounds.round_seat(round_=prelim)
    rounds.round_start(round_=prelim)
    timed(prelim, minutes)
    rounds.round_sign_off(round_=prelim, by=None)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        rounds.round_advance(round_=prelim)
    mails = by_address()
    assert set(mails) == through
    for language, message in mails.items():
        seat = final.seats.get(entry__contact_email=f"{language}@example.org")
        assert ADVANCED[language] in message.body, (language, message.body)
        assert f": {seat.table.number}" in message.body and HEAT[language] in message.body
        assert "DM 2026" in message.subject


def test_the_organisers_message_greets_each_entrant_in_their_language(
    dm, django_capture_on_commit_callbacks
):
    championship, _prelim, _final = dm
    with django_capture_on_commit_callbacks(execute=True):
        sent = notifications.message_send(
            audience=notifications.Audience(championship=championship),
            subject="Parkering",
            body="P2.",
        )
    assert sent == 4  # the fifth entry has no address
    greeting = {"en": "Hello", "nb": "Hei", "sv": "Hej", "da": "Hej"}
    signed = {
        "en": "the organisers",
        "nb": "arrangørene",
        "sv": "arrangörerna",
        "da": "arrangørerne",
    }
    for language, message in by_address().items():
        assert message.body.startswith(greeting[language]), (language, message.body)
        assert signed[language] in message.body


# The same form twice --------------------------------------------------------------------------


def submission_token(html: str) -> str:
    """Return the submission token that the page's bulk form carries."""
    return re.search(r'name="submission" value="([^"]+)"', html).group(1)


@pytest.fixture
def organiser_client(dm, client, settings):
    championship, _prelim, _final = dm
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    client.force_login(factories.role(championship, ChampionshipRole.Role.ORGANISER))
    return client


def said(response) -> list[str]:
    return [str(message) for message in response.context["messages"]]


def test_the_same_message_form_sent_twice_queues_each_mail_once(
    dm, organiser_client, django_capture_on_commit_callbacks
):
    """A double click, or sending again after a timeout, answers as the first did."""
    championship, _prelim, _final = dm
    page = organiser_client.get(reverse("manage:control_room", args=[championship.slug])).text
    url = reverse("manage:message", args=[championship.slug])
    data = {"audience": "", "subject": "Parking", "body": "Park at P2."}
    data["submission"] = submission_token(page)
    with django_capture_on_commit_callbacks(execute=True):
        first = organiser_client.post(url, data, follow=True)
        second = organiser_client.post(url, data, follow=True)
    assert said(first) == ["The message is on its way to 4 entrants."]
    assert said(second) == ["The message is already sent: it is on its way to 4 entrants."]
    assert sorted(m.to[0] for m in mail.outbox) == sorted(f"{x}@example.org" for x in LANGUAGES)
    assert OutgoingMail.objects.filter(kind="message").count() == 4
    # The form shown anew is a new message: written again and sent, it goes again.
    data["submission"] = submission_token(second.text)
    organiser_client.post(url, data)
    assert OutgoingMail.objects.filter(kind="message").count() == 8


def test_a_refused_message_form_keeps_its_token_and_goes_once_corrected(dm, organiser_client):
    championship, _prelim, _final = dm
    page = organiser_client.get(reverse("manage:control_room", args=[championship.slug])).text
    url = reverse("manage:message", args=[championship.slug])
    data = {"audience": "", "subject": "Parking", "body": "", "submission": submission_token(page)}
    refused = organiser_client.post(url, data)
    assert refused.status_code == 200 and "The message is not sent: see the form." in refused.text
    assert submission_token(refused.text) == data["submission"]
    data["body"] = "Park at P2."
    assert said(organiser_client.post(url, data, follow=True)) == [
        "The message is on its way to 4 entrants."
    ]
    assert said(organiser_client.post(url, data, follow=True)) == [
        "The message is already sent: it is on its way to 4 entrants."
    ]
    assert OutgoingMail.objects.filter(kind="message").count() == 4


@pytest.mark.parametrize("token", [None, "", "short", "x" * 65, "not a token at all, spaces"])
def test_a_message_form_without_its_token_is_refused_and_shown_with_a_new_one(
    dm, organiser_client, token
):
    championship, _prelim, _final = dm
    url = reverse("manage:message", args=[championship.slug])
    data = {"audience": "", "subject": "Parking", "body": "Park at P2."}
    if token is not None:
        data["submission"] = token
    refused = organiser_client.post(url, data)
    assert refused.status_code == 200
    assert "This form is out of date: reload the page and send it again." in refused.text
    assert not OutgoingMail.objects.exists()
    data["submission"] = submission_token(refused.text)
    assert said(organiser_client.post(url, data, follow=True)) == [
        "The message is on its way to 4 entrants."
    ]


def test_the_advance_form_submitted_twice_seats_and_tells_the_qualified_once(
    dm, organiser_client, django_capture_on_commit_callbacks
):
    championship, prelim, final = dm
    rounds.round_seat(round_=prelim)
    rounds.round_start(round_=prelim)
    timed(prelim, (43, 41, 42, 40, 44))  # da and nb advance
    rounds.round_sign_off(round_=prelim, by=None)
    control = reverse("manage:round_control", args=[championship.slug, prelim.key])
    token = submission_token(organiser_client.get(control).text)
    advance = reverse("manage:round_advance", args=[championship.slug, prelim.key])
    mail.outbox.clear()
    refused = organiser_client.post(advance, {"submission": "not a token"}, follow=True)
    assert said(refused) == ["This form is out of date: reload the page and send it again."]
    assert not final.seats.exists()
    with django_capture_on_commit_callbacks(execute=True):
        first = organiser_client.post(advance, {"submission": token}, follow=True)
    seats = list(final.seats.values_list("pk", "entry__contact_email"))
    with django_capture_on_commit_callbacks(execute=True):
        second = organiser_client.post(advance, {"submission": token}, follow=True)
    assert said(first) == [f"The qualified are seated in {final.display_name}."]
    assert said(second) == [f"The qualified are already seated in {final.display_name}."]
    assert sorted(m.to[0] for m in mail.outbox) == ["da@example.org", "nb@example.org"]
    assert list(final.seats.values_list("pk", "entry__contact_email")) == seats
    # Advanced again from the page shown anew (after a correction, say): seated and told anew.
    with django_capture_on_commit_callbacks(execute=True):
        organiser_client.post(advance, {"submission": submission_token(second.text)})
    assert len(mail.outbox) == 4
