"""A person joins the puzzler of their e-mail address only through the link mailed to it.

The link comes in the registration's mail (the contact), in a mail of its own
(another member, a changed address, a request from the private page); its page
confirms with a button, once, for the address it was sent to. Imports and
changes of address confirm nothing.
"""

from __future__ import annotations

import copy
import importlib
import re
from datetime import UTC, date, datetime, timedelta
from types import SimpleNamespace

import pytest
import time_machine
from django.apps import apps as global_apps
from django.contrib.auth import get_user_model
from django.core import mail

from championship import outbox
from championship.models import OutgoingMail
from interchange.export import export_document
from interchange.write import import_document
from registration import bulk, services
from registration.models import Person, Puzzler
from registration.validation import MemberData
from tests import factories
from tests.championship.test_admin import admin_url, change_form_data
from tests.factories import NEXT_YEAR
from tests.registration.test_views import management, member_data

pytestmark = pytest.mark.django_db

LINK = re.compile(r"https?://[^/\s]+(/[^\s]+/address/[^\s/]+/)")


@pytest.fixture(autouse=True)
def english(client, settings):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    settings.SITE_URL = ""


@pytest.fixture
def future(db):
    """A rogaland championship whose registration is open."""
    return factories.championship(
        slug=f"rm-{NEXT_YEAR}", starts_at=datetime(NEXT_YEAR, 3, 14, 9, tzinfo=UTC)
    )


@pytest.fixture
def kari(db):
    """Kari, who confirmed her address in an earlier championship: her puzzler."""
    earlier = factories.championship(name="Earlier Open")
    person = factories.person(earlier, name="Kari Nordmann", email="kari@example.org")
    return factories.confirm_address(person).puzzler


def register(client, championship, capture, *members, category="individual"):
    """Register through the public form; ``members``: (name, e-mail); return the private page."""
    data = management(len(members))
    for index, (name, email) in enumerate(members):
        data.update(member_data(index, name=name, email=email, publish_consent="on"))
    with capture(execute=True):
        response = client.post(f"/{championship.slug}/register/{category}/", data)
    assert response.status_code == 302, response.text[:3000]
    return response.url


def links_to(address: str) -> list[str]:
    """Return the paths of the links to confirm an address in the mail sent to ``address``."""
    return [
        path
        for message in mail.outbox
        if message.to == [address]
        for path in LINK.findall(message.body)
    ]


def person(championship, name) -> Person:
    return Person.objects.select_related("puzzler").get(championship=championship, name=name)


# The link --------------------------------------------------------------------------------------


def test_the_registration_mail_carries_the_link_whose_button_joins_the_puzzler(
    client, future, kari, django_capture_on_commit_callbacks
):
    register(
        client, future, django_capture_on_commit_callbacks, ("Kari Nordmann", "KARI@example.org")
    )
    registered = person(future, "Kari Nordmann")
    own = registered.puzzler
    assert own != kari and own.email_key is None
    (message,) = mail.outbox
    assert "Did you register yourself? Then confirm your e-mail address" in message.body
    (link,) = links_to("KARI@example.org")
    # The outbox holds no working link: the secret is made as the mail is sent.
    (queued,) = OutgoingMail.objects.all()
    assert outbox.SECRET in queued.body and link.split("/")[-2] not in queued.body

    page = client.get(link)
    assert page.status_code == 200
    assert "Confirm your e-mail address" in page.text
    assert "Kari Nordmann" in page.text and "KARI@example.org" in page.text
    assert page.headers["Referrer-Policy"] == "same-origin"
    # Opening the link joins nothing: the button does.
    assert person(future, "Kari Nordmann").puzzler == own

    done = client.post(link)
    assert done.status_code == 200
    assert "Your e-mail address is confirmed" in done.text
    assert f'href="{kari.get_absolute_url()}"' in done.text
    assert person(future, "Kari Nordmann").puzzler == kari
    assert not Puzzler.objects.filter(pk=own.pk).exists()


def test_the_first_to_confirm_an_address_keeps_their_page(
    client, future, django_capture_on_commit_callbacks
):
    register(client, future, django_capture_on_commit_callbacks, ("Ny Deltaker", "ny@example.org"))
    before = person(future, "Ny Deltaker").puzzler
    (link,) = links_to("ny@example.org")
    client.post(link)
    after = person(future, "Ny Deltaker").puzzler
    assert (after.pk, after.ref, after.email_key) == (before.pk, before.ref, "ny@example.org")


def test_a_used_forged_or_expired_link_is_refused_with_a_clear_message(
    client, future, kari, django_capture_on_commit_callbacks
):
    register(
        client, future, django_capture_on_commit_callbacks, ("Kari Nordmann", "kari@example.org")
    )
    (link,) = links_to("kari@example.org")
    token = link.split("/")[-2]

    forged = link.replace(token, token[:-3] + ("AAA" if not token.endswith("AAA") else "BBB"))
    for refused in (client.get(forged), client.post(forged)):
        assert refused.status_code == 404
        assert "This link does not work." in refused.text
    # Another person's id in the token breaks its signature.
    value, rest = token.split(".", 1)
    other = link.replace(token, f"{int(value) + 1}.{rest}")
    assert client.post(other).status_code == 404
    # The link is this championship's only.
    elsewhere = factories.championship(slug="elsewhere")
    assert client.post(f"/{elsewhere.slug}/address/{token}/").status_code == 404

    with time_machine.travel(datetime.now(UTC) + timedelta(days=31)):
        expired = client.post(link)
    assert expired.status_code == 410 and "This link has expired." in expired.text

    assert client.post(link).status_code == 200
    for used in (client.get(link), client.post(link)):
        assert used.status_code == 410
        assert "This e-mail address is confirmed already: the link has been used." in used.text
    assert person(future, "Kari Nordmann").puzzler == kari


def test_each_member_gets_the_link_to_their_own_address_and_it_confirms_only_them(
    client, kari, django_capture_on_commit_callbacks
):
    # In English: the members who did not register read the championship's language.
    championship = factories.championship(
        slug=f"pairs-{NEXT_YEAR}",
        starts_at=datetime(NEXT_YEAR, 3, 14, 9, tzinfo=UTC),
        language="en",
    )
    register(
        client,
        championship,
        django_capture_on_commit_callbacks,
        ("Ola Nordmann", "ola@example.org"),
        ("Kari Nordmann", "kari@example.org"),
        category="pair",
    )
    (ola_link,) = links_to("ola@example.org")
    (kari_link,) = links_to("kari@example.org")
    # Kari gets the entry's confirmation too, and her link in a mail of its own that names her.
    kari_mails = [message for message in mail.outbox if message.to == ["kari@example.org"]]
    assert sorted(message.subject for message in kari_mails) == [
        f"Confirm your e-mail address: {championship.name}",
        f"Your entry is confirmed: {championship.name}",
    ]
    (kari_mail,) = [message for message in kari_mails if "Confirm" in message.subject]
    assert "Hello Kari Nordmann," in kari_mail.body
    assert "If you are not Kari Nordmann, do not open it" in kari_mail.body
    assert client.post(kari_link).status_code == 200
    assert person(championship, "Kari Nordmann").puzzler == kari
    ola = person(championship, "Ola Nordmann")
    assert ola.puzzler != kari and ola.puzzler.email_key is None
    client.post(ola_link)
    assert person(championship, "Ola Nordmann").puzzler.email_key == "ola@example.org"


# A change of address -----------------------------------------------------------------------------


def test_an_address_changed_on_the_private_link_is_confirmed_again(
    client, future, kari, django_capture_on_commit_callbacks
):
    page = register(
        client, future, django_capture_on_commit_callbacks, ("Kari Nordmann", "kari@example.org")
    )
    (old_link,) = links_to("kari@example.org")
    client.post(old_link)
    assert person(future, "Kari Nordmann").puzzler == kari
    mail.outbox.clear()

    data = {
        **management(1, initial=1),
        **member_data(0, name="Kari Nordmann", email="kari.ny@example.org", publish_consent="on"),
    }
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post(page, data).status_code == 302
    changed = person(future, "Kari Nordmann")
    # Out of Kari's puzzler until the new address is confirmed: a page of their own.
    assert changed.puzzler != kari and changed.puzzler.email_key is None
    assert not changed.address_confirmed
    kari_page = client.get(kari.get_absolute_url()).text
    assert future.name not in kari_page
    # The private page says so, and a link went to the new address.
    assert "Send the link" in client.get(page).text
    (new_link,) = links_to("kari.ny@example.org")
    assert links_to("kari@example.org") == []
    # The link to the old address no longer confirms anything.
    stale = client.post(old_link)
    assert stale.status_code == 410
    assert "the e-mail address of the registration has changed since it was sent" in stale.text
    assert client.post(new_link).status_code == 200
    joined = person(future, "Kari Nordmann").puzzler
    assert joined != kari and joined.email_key == "kari.ny@example.org"


def test_an_address_changed_back_does_not_revive_a_used_link(
    client, future, django_capture_on_commit_callbacks
):
    page = register(
        client, future, django_capture_on_commit_callbacks, ("Kari Nordmann", "kari@example.org")
    )
    (link,) = links_to("kari@example.org")
    client.post(link)
    for email in ("kari.ny@example.org", "kari@example.org"):
        data = {**management(1, initial=1), **member_data(0, name="Kari Nordmann", email=email)}
        with django_capture_on_commit_callbacks(execute=True):
            client.post(page, data)
    assert client.post(link).status_code == 410
    assert not person(future, "Kari Nordmann").address_confirmed
    # The newest link to the address does confirm it again.
    assert client.post(links_to("kari@example.org")[-1]).status_code == 200
    assert person(future, "Kari Nordmann").address_confirmed


def test_an_address_changed_in_the_admin_is_confirmed_again(
    client, future, kari, django_capture_on_commit_callbacks
):
    changed = factories.person(future, name="Kari Nordmann", email="kari@example.org")
    factories.entry(future.categories.get(kind="individual"), members=[changed])
    assert factories.confirm_address(changed).puzzler == kari
    client.force_login(get_user_model().objects.create_superuser("root", "root@example.org", "x"))
    url = admin_url(Person, "change", changed.pk)
    data = change_form_data(client.get(url))
    data["email"] = "someone.else@example.org"
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post(url, data).status_code == 302
    changed = person(future, "Kari Nordmann")
    assert changed.puzzler != kari and not changed.address_confirmed
    (link,) = links_to("someone.else@example.org")
    assert client.post(link).status_code == 200


def test_the_private_page_sends_the_link_again_but_not_every_minute(
    client, future, django_capture_on_commit_callbacks
):
    page = register(
        client, future, django_capture_on_commit_callbacks, ("Kari Nordmann", "kari@example.org")
    )
    registered = person(future, "Kari Nordmann")
    text = client.get(page).text
    assert "Confirm your e-mail address" in text
    send = f"{page}address/{registered.pk}/"
    with django_capture_on_commit_callbacks(execute=True):
        again = client.post(send, follow=True)
    assert "The link is on its way to kari@example.org." in again.text
    assert len(links_to("kari@example.org")) == 2
    with django_capture_on_commit_callbacks(execute=True):
        soon = client.post(send, follow=True)
    assert "A link went to kari@example.org a few minutes ago" in soon.text
    assert len(links_to("kari@example.org")) == 2
    client.post(links_to("kari@example.org")[-1])
    assert "Send the link" not in client.get(page).text
    # A member of another entry is not this page's to mail.
    stranger = factories.person(future, email="x@example.org")
    assert client.post(f"{page}address/{stranger.pk}/").status_code == 404


def test_a_withdrawn_entry_asks_for_no_address(client, future, django_capture_on_commit_callbacks):
    page = register(
        client, future, django_capture_on_commit_callbacks, ("Kari Nordmann", "kari@example.org")
    )
    assert "Confirm your e-mail address" in client.get(page).text
    entry = person(future, "Kari Nordmann").entries.get()
    services.entry_withdraw(entry=entry)
    text = client.get(page).text
    assert "Withdrawn" in text
    assert "Confirm your e-mail address" not in text and "Send the link" not in text


# Imports ----------------------------------------------------------------------------------------


def test_an_interchange_import_merges_no_one_into_an_existing_puzzler(client, kari):
    source = factories.championship(slug="source")
    imposter = factories.person(source, name="Kari Nordmann cheats", email="KARI@example.org")
    factories.entry(
        source.categories.get(kind="individual"), members=[imposter], publish_consent=True
    )
    document = export_document(source)
    document["championship"]["slug"] = "imported"
    imported = import_document(document)
    (person_,) = Person.objects.filter(championship=imported)
    assert person_.puzzler != kari and person_.puzzler.email_key is None
    assert Person.objects.filter(puzzler=kari).count() == 1


def test_a_csv_import_merges_no_one_into_an_existing_puzzler(future, kari):
    row = SimpleNamespace(
        line=2,
        category=future.categories.get(kind="individual"),
        members=[
            MemberData(
                name="Kari Nordmann",
                email="kari@example.org",
                birth_date=date(1990, 1, 1),
                region="Rogaland",
            )
        ],
        name="",
        publish_consent=True,
        adult_name="",
        answers={},
        payment_status="",
        payment_reference=None,
    )
    done = bulk.entries_import(rows=[row], language="en")
    assert not done.refused
    imported = person(future, "Kari Nordmann")
    assert imported.puzzler != kari and imported.puzzler.email_key is None
    assert mail.outbox == []


def test_replacing_an_imported_championship_keeps_what_its_persons_confirmed():
    source = factories.championship(slug="archive")
    individual = source.categories.get(kind="individual")
    people = {
        name: factories.person(source, name=name, email=f"{name.lower()}@example.org")
        for name in ("Anna", "Bo", "Cara", "Dan")
    }
    for member in people.values():
        factories.entry(individual, members=[member])
    document = export_document(source)
    document["championship"]["slug"] = "archive-copy"
    copied = import_document(copy.deepcopy(document))
    anna = factories.confirm_address(person(copied, "Anna"))
    bo = person(copied, "Bo")
    cara = factories.confirm_address(person(copied, "Cara"))
    dan = person(copied, "Dan")

    # The same championship again: Bo's and Cara's addresses are corrected, Dan is gone.
    for person_doc in document["persons"]:
        if person_doc["name"] in ("Bo", "Cara"):
            person_doc["email"] = f"{person_doc['name'].lower()}.berg@example.org"
    document["persons"] = [p for p in document["persons"] if p["name"] != "Dan"]
    for competition in document["competitions"]:
        competition["entries"] = [
            e for e in competition["entries"] if e["members"] != [people["Dan"].ref]
        ]
    again = import_document(document, replace=True)
    # Anna (same id, same address) stays confirmed, with her page; Bo keeps his own puzzler
    # (unconfirmed, as a saved person would); Dan's own puzzler, left empty, is gone.
    assert person(again, "Anna").puzzler == anna.puzzler
    assert person(again, "Anna").address_confirmed
    assert person(again, "Bo").puzzler == bo.puzzler and not person(again, "Bo").address_confirmed
    # Cara confirmed another address than the one imported now: a puzzler of her own.
    assert person(again, "Cara").puzzler != cara.puzzler
    assert not person(again, "Cara").address_confirmed
    assert not Puzzler.objects.filter(pk=dan.puzzler_id).exists()


# Existing data -----------------------------------------------------------------------------------


def test_the_migration_keeps_a_puzzlers_persons_of_its_first_name_and_splits_the_others():
    module = importlib.import_module("registration.migrations.0010_puzzler_addresses_confirmed")
    first = factories.championship()
    later = factories.championship()
    ingrid = factories.confirm_address(
        factories.person(first, name="Ingrid Tjelta", email="ingrid@example.org")
    )
    # As migration 0005 and the old ``Person.save`` joined them: by the typed address.
    again = factories.person(later, name="  ingrid  TJELTA ", email="INGRID@example.org")
    cheat = factories.person(later, name="Ingrid Tjelta cheats", email="ingrid@example.org")
    alone = factories.person(later, name="Ola", email="")
    for typed in (again, cheat):
        own = typed.puzzler
        Person.objects.filter(pk=typed.pk).update(puzzler=ingrid.puzzler)
        own.delete()
    module.split_other_names(global_apps, None)
    again, cheat, alone = (person(p.championship, p.name) for p in (again, cheat, alone))
    assert again.puzzler == ingrid.puzzler and again.address_confirmed
    assert cheat.puzzler != ingrid.puzzler and cheat.puzzler.email_key is None
    assert not cheat.address_confirmed
    assert alone.puzzler.email_key is None
    # Undone, every person is the puzzler of their typed address again.
    module.join_by_typed_address(global_apps, None)
    assert person(later, "Ingrid Tjelta cheats").puzzler == ingrid.puzzler
    assert not Puzzler.objects.filter(pk=cheat.puzzler_id).exists()
