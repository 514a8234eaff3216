"""An entrant's private link: only its hash is stored, the links sent before keep working."""

from __future__ import annotations

import hashlib
from unittest import mock

import pytest
from django.core import mail
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test.utils import CaptureQueriesContext

from championship import outbox
from championship.models import OutgoingMail
from core import tokens
from registration import services
from registration.models import Entry, entry_for_manage_token
from tests import factories

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]

BEFORE = ("registration", "0010_puzzler_addresses_confirmed")
AFTER = ("registration", "0011_entry_private_link_hashed")
# A link as the site made them before: 128 random bits in URL-safe base64, stored as it is.
OLD_TOKEN = "Qk9x3-rTj0Yh_aZ1c2V3bA"


@pytest.fixture
def entry(championship):
    individual = championship.categories.get(kind="individual")
    return factories.entry(individual, contact_email="kari@example.org")


def page(client, championship, token):
    return client.get(f"/{championship.slug}/entries/{token}/")


def row_values(entry) -> list[str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT * FROM registration_entry WHERE id = %s", [entry.pk])
        return [str(value) for value in cursor.fetchone()]


def test_the_stored_row_holds_no_plain_token(client, championship, entry):
    token = entry.manage_token
    assert tokens.is_derived_token(token)
    assert page(client, championship, token).status_code == 200
    values = row_values(entry)
    assert not any(token in value for value in values)
    assert hashlib.sha256(token.encode()).hexdigest() in values
    assert not hasattr(Entry, "manage_token_id") and "manage_token" not in {
        field.name for field in Entry._meta.concrete_fields
    }


def test_the_outbox_holds_no_plain_token_and_sends_the_link(client, championship, entry):
    entry = services.entry_rotate_manage_link(entry=entry)
    token = entry.manage_token
    (row,) = OutgoingMail.objects.filter(kind=OutgoingMail.Kind.NEW_LINK)
    assert token not in row.body and outbox.PRIVATE_LINK in row.body
    mail.outbox.clear()
    outbox.send_due()
    (message,) = mail.outbox
    assert f"/{championship.slug}/entries/{token}/" in message.body
    assert outbox.PRIVATE_LINK not in message.body
    # What was sent is not written back.
    row.refresh_from_db()
    assert row.state == OutgoingMail.State.SENT and token not in row.body


@pytest.mark.django_db(transaction=True)
def test_the_migration_keeps_the_links_sent_before(client):
    """Run the real migration over rows stored the old way, and open their links."""
    executor = MigrationExecutor(connection)
    executor.migrate([BEFORE])
    executor.loader.build_graph()
    old = executor.loader.project_state([BEFORE]).apps
    Championship = old.get_model("championship", "Championship")
    Category = old.get_model("championship", "Category")
    OldEntry = old.get_model("registration", "Entry")
    championship = factories.championship(slug="old-links")
    category = Category.objects.get(championship_id=championship.pk, kind="individual")
    assert Championship.objects.filter(pk=championship.pk).exists()
    first = OldEntry.objects.create(category=category, name="Ola", manage_token=OLD_TOKEN)
    second = OldEntry.objects.create(category=category, name="Kari", manage_token="a" * 22)

    # Up to the newest migration, through AFTER: the model read below is today's.
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())

    migrated = Entry.objects.get(pk=first.pk)
    assert migrated.legacy_token_hash == tokens.token_hash(OLD_TOKEN)
    assert migrated.manage_nonce and migrated.manage_token_hash
    assert not any(OLD_TOKEN in value for value in row_values(migrated))
    other = Entry.objects.get(pk=second.pk)
    assert other.manage_nonce != migrated.manage_nonce
    # The link sent before, and the entry's derived link, open the same page.
    for token in (OLD_TOKEN, migrated.manage_token):
        response = page(client, championship, token)
        assert response.status_code == 200 and "Ola" in response.text
    assert page(client, championship, "a" * 22).status_code == 200
    assert migrated.manage_token != OLD_TOKEN

    # Backwards, the plain column holds each entry's derived link; then forwards again.
    derived = migrated.manage_token
    executor = MigrationExecutor(connection)
    executor.migrate([BEFORE])
    reverted = MigrationExecutor(connection).loader.project_state([BEFORE]).apps
    assert reverted.get_model("registration", "Entry").objects.get(pk=first.pk).manage_token == (
        derived
    )
    MigrationExecutor(connection).migrate(executor.loader.graph.leaf_nodes())
    assert entry_for_manage_token(derived, championship_slug=championship.slug).pk == first.pk


def test_a_new_link_stops_the_old_one_and_the_legacy_one(client, championship, entry):
    Entry.objects.filter(pk=entry.pk).update(legacy_token_hash=tokens.token_hash(OLD_TOKEN))
    old = entry.manage_token
    assert page(client, championship, OLD_TOKEN).status_code == 200
    assert page(client, championship, old).status_code == 200

    renewed = services.entry_rotate_manage_link(entry=entry)
    renewed.refresh_from_db()
    assert renewed.legacy_token_hash is None
    assert renewed.manage_token != old
    assert page(client, championship, OLD_TOKEN).status_code == 404
    assert page(client, championship, old).status_code == 404
    assert page(client, championship, renewed.manage_token).status_code == 200


def test_a_wrong_token_of_the_right_shape_is_not_found_for_the_cost_of_a_lookup(
    client, championship, entry
):
    wrong = "x" * 22
    assert tokens.is_derived_token(wrong)
    assert page(client, championship, wrong).status_code == 404
    # One indexed query, the same for a right and a wrong token; no key is tried.
    right = entry.manage_token
    with mock.patch.object(tokens, "derived_token", side_effect=AssertionError("derived")):
        for token, expected in ((right, entry.pk), (wrong, None)):
            with CaptureQueriesContext(connection) as queries:
                found = entry_for_manage_token(token, championship_slug=championship.slug)
            assert (found.pk if found else None) == expected
            assert len(queries) == 1
            assert tokens.token_hash(token) in queries[0]["sql"]
    # Another championship's slug finds nothing.
    assert entry_for_manage_token(entry.manage_token, championship_slug="elsewhere") is None


def test_links_survive_a_key_change_while_the_old_key_is_a_fallback(
    client, championship, entry, settings
):
    token = entry.manage_token
    old_key = settings.SECRET_KEY
    settings.SECRET_KEY = "a-brand-new-key-" + "k" * 40
    settings.SECRET_KEY_FALLBACKS = [old_key]
    entry.refresh_from_db()
    # Shown again as it was, and it opens the page.
    assert entry.manage_token == token
    assert page(client, championship, token).status_code == 200
    # A new link is made under the new key.
    renewed = services.entry_rotate_manage_link(entry=entry)
    settings.SECRET_KEY_FALLBACKS = []
    assert renewed.manage_token is not None
    assert page(client, championship, renewed.manage_token).status_code == 200


def test_a_link_keeps_opening_its_page_after_its_key_is_dropped(
    client, championship, entry, settings
):
    token = entry.manage_token
    settings.SECRET_KEY = "a-brand-new-key-" + "k" * 40
    settings.SECRET_KEY_FALLBACKS = []
    entry.refresh_from_db()
    # It can no longer be shown from the database alone, but it opens the page it leads to,
    # whose forms carry it.
    assert entry.manage_token is None
    response = page(client, championship, token)
    assert response.status_code == 200 and f"/entries/{token}/withdraw/" in response.text


def test_a_link_sent_before_hashing_serves_its_pages_after_the_key_changed(
    client, championship, entry, settings
):
    """The legacy link's holder may withdraw with it, whatever key now derives the current one."""
    Entry.objects.filter(pk=entry.pk).update(legacy_token_hash=tokens.token_hash(OLD_TOKEN))
    settings.SECRET_KEY = "a-brand-new-key-" + "k" * 40
    settings.SECRET_KEY_FALLBACKS = []
    response = page(client, championship, OLD_TOKEN)
    assert response.status_code == 200
    assert f"/entries/{OLD_TOKEN}/withdraw/" in response.text
    withdraw = client.post(
        f"/{championship.slug}/entries/{OLD_TOKEN}/withdraw/", {"confirm": "yes"}, follow=True
    )
    assert withdraw.status_code == 200
    entry.refresh_from_db()
    assert entry.status == Entry.Status.WITHDRAWN
