"""Private pages are private: no browser or proxy keeps a copy of them.

An entrant's private link, the organiser's lists and exports, and the staff page
with its working sign-in links answer ``Cache-Control: no-store``, so that
neither the browser's cache on a shared computer nor a cache between the site
and the visitor keeps personal data or a working link.
"""

import re
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from championship import staff_links
from championship.models import ChampionshipRole
from registration import checkin
from registration.models import Entry
from tests.results.test_diplomas import run

pytestmark = pytest.mark.django_db

Role = ChampionshipRole.Role
NGINX = Path(__file__).resolve().parents[2] / "docs" / "nginx"


@pytest.fixture
def final(championship, organiser):
    """Rogalandsmesterskapet's individual final, signed off, with confirmed entries."""
    return run(championship)


@pytest.fixture
def entry(final):
    return (
        Entry.objects.filter(category=final.category, status=Entry.Status.CONFIRMED)
        .order_by("pk")
        .first()
    )


@pytest.fixture
def organiser_client(client, organiser):
    client.force_login(organiser)
    return client


def private(response) -> None:
    """Assert that ``response`` may be kept by no cache, the browser's or a proxy's."""
    directives = {part.strip() for part in response.get("Cache-Control", "").split(",")}
    assert "no-store" in directives, (response.status_code, directives)


def entrant_paths(entry, final) -> list[tuple[str, str]]:
    slug, token = final.championship.slug, entry.manage_token
    manage = reverse("results:entry_page", kwargs={"championship_slug": slug, "token": token})
    api = f"/api/v1/championships/{slug}/entries/{token}/"
    diploma = reverse(
        "results:entry_diploma",
        kwargs={"championship_slug": slug, "token": token, "round_key": final.key},
    )
    return [
        ("get", manage),
        ("post", manage + "judge-note/"),
        ("post", manage + "accept/"),
        ("post", manage + "withdraw/"),
        ("get", diploma),
        ("get", api),
        ("post", api + "accept/"),
        ("post", api + "withdraw/"),
    ]


def test_the_entrants_private_link_and_its_api_are_kept_by_no_cache(final, entry):
    browser = Client()
    for method, path in entrant_paths(entry, final):
        response = getattr(browser, method)(path)
        assert response.status_code < 500, path
        private(response)


def organiser_paths(final, entry) -> list[str]:
    slug, key = final.championship.slug, final.key
    return [
        reverse("manage:entries", kwargs={"championship_slug": slug}),
        reverse("manage:entries_export", kwargs={"championship_slug": slug}),
        reverse("manage:checkin", kwargs={"championship_slug": slug}),
        checkin.checkin_path(entry),
        reverse("manage:round_report_csv", kwargs={"championship_slug": slug, "round_key": key}),
        reverse("manage:round_diplomas", kwargs={"championship_slug": slug, "round_key": key}),
        reverse("manage:staff", kwargs={"championship_slug": slug}),
        reverse("manage:staff_badges", kwargs={"championship_slug": slug}),
        f"/api/v1/championships/{slug}/export/",
    ]


def test_the_organisers_lists_and_exports_are_kept_by_no_cache(organiser_client, final, entry):
    staff_links.link_create(championship=final.championship, name="Kari", role=Role.JUDGE, by=None)
    for path in organiser_paths(final, entry):
        response = organiser_client.get(path)
        assert response.status_code == 200, path
        private(response)


def test_the_check_in_of_an_entry_is_kept_by_no_cache(organiser_client, final, entry):
    path = reverse(
        "manage:checkin_entry",
        kwargs={"championship_slug": final.championship.slug, "pk": entry.pk},
    )
    private(organiser_client.post(path, HTTP_HX_REQUEST="true"))


def test_an_imports_preview_is_kept_by_no_cache(organiser_client, final):
    slug = final.championship.slug
    data = b"name,email,birth_date,region\nKari Nordmann,kari@example.org,1980-01-01,Rogaland\n"
    uploaded = organiser_client.post(
        f"/{slug}/manage/entries/import/",
        {"file": SimpleUploadedFile("list.csv", data), "category": "individual"},
    )
    assert uploaded.status_code == 302
    private(organiser_client.get(uploaded.url))


def test_the_public_results_stay_cacheable(final):
    """The live results are what the proxy keeps: they must not say no-store."""
    slug = final.championship.slug
    response = Client().get(f"/{slug}/results/{final.key}/")
    assert response.status_code == 200
    assert "no-store" not in response.get("Cache-Control", "")


def nginx_cached_locations() -> list[re.Pattern]:
    """Return the locations where the shipped nginx configuration keeps answers."""
    text = (NGINX / "live-cache.conf").read_text()
    return [re.compile(pattern) for pattern in re.findall(r"location ~ (\S+) \{", text)]


def test_the_proxy_caches_no_private_page(final, entry):
    """The nginx cache ignores Cache-Control where it caches, so no private path may lead there."""
    locations = nginx_cached_locations()
    assert len(locations) == 2
    slug, key = final.championship.slug, final.key
    assert any(location.match(f"/{slug}/results/{key}/") for location in locations)
    link = staff_links.link_create(
        championship=final.championship, name="Kari", role=Role.JUDGE, by=None
    )
    paths = [path for _method, path in entrant_paths(entry, final)]
    paths += [*organiser_paths(final, entry), staff_links.sign_in_path(link)]
    for path in paths:
        assert not any(location.match(path) for location in locations), path
