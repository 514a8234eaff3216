"""Diplomas: a PDF page per placed entry of an official round, and the page its QR code opens."""

from __future__ import annotations

import io
from datetime import timedelta

import numpy as np
import pypdfium2
import pytest
from django.urls import reverse
from django.utils import formats, timezone, translation
from django.utils.translation import gettext

from championship.models import Category, ChampionshipRole, Round
from championship.services import tables_create
from control import rounds
from results import diplomas, official
from results.models import Result
from results.services import standings_recompute
from tests import factories
from tests.control.test_cards import decode

pytestmark = pytest.mark.django_db

A4 = (595, 842)
A5 = (420, 595)
MOTIF = "Fjord ved solnedgang"
# In registration order: name, minutes to finish (None: not finished), region, consent.
ENTRANTS = [
    ("Åse Øvrebø Ærø", 40, "Rogaland", True),
    ("Bjørn Hemmelig", 41, "Rogaland", False),
    ("Cecilie Ås", 42, "Rogaland", True),
    ("Dag Østlending", 43, "Oslo", True),
    ("Eirik Uferdig", None, "Rogaland", True),
    ("Frida Borte", "dns", "Rogaland", True),
]


def signed_off(round_: Round) -> Round:
    official.round_sign_off(round_=round_, by=None)
    round_.refresh_from_db()
    return round_


def run(championship, *, entrants=ENTRANTS, sign_off=True) -> Round:
    """Run the individual final of ``championship``: seat, start, time up, results, sign-off.

    Bjørn finishes with two pieces found later (10 s penalty under rogaland's rules),
    Dag is unofficial (from Oslo), Eirik places 320 pieces, Frida does not start.
    """
    individual = championship.categories.get(kind="individual")
    Category.objects.filter(pk=individual.pk).update(
        puzzle_brand="Ravensburger", puzzle_motif=MOTIF, pieces=500
    )
    final = individual.rounds.get()
    tables_create(championship=championship, count=len(entrants))
    start = factories.START
    for number, (name, _minutes, region, consent) in enumerate(entrants):
        factories.entry(
            individual,
            members=[factories.person(championship, name=name, region=region)],
            name=name,
            publish_consent=consent,
            registered_at=start + timedelta(minutes=number),
        )
    rounds.round_seat(round_=final)
    rounds.round_start(round_=final)
    rounds.round_close(round_=final)
    factories.ran_earlier(final)
    results = Result.objects.filter(round=final).select_related("entry")
    by_name = {result.entry.name: result for result in results}
    for name, minutes, _region, _consent in entrants:
        result = by_name[name]
        if minutes == "dns":
            result.status = "dns"
        elif minutes is None:
            result.status, result.pieces_placed = "unfinished", 320
        else:
            result.status, result.time_ms = "finished", minutes * 60_000
            if name.startswith("Bjørn"):
                result.missing_found = 2
        result.save()
    standings_recompute(round_=final)
    final.refresh_from_db()
    return signed_off(final) if sign_off else final


@pytest.fixture
def final(championship, organiser):
    """Rogalandsmesterskapet's individual final (in Norwegian), signed off."""
    return run(championship)


def entry_of(round_: Round, name: str):
    return round_.category.entries.get(name=name)


def diplomas_url(round_: Round, **query) -> str:
    url = reverse("manage:round_diplomas", args=[round_.championship.slug, round_.key])
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def detail_url(round_: Round, entry) -> str:
    return reverse("results:result_detail", args=[round_.championship.slug, round_.key, entry.ref])


def pages(pdf: bytes) -> pypdfium2.PdfDocument:
    assert pdf.startswith(b"%PDF-")
    return pypdfium2.PdfDocument(pdf)


def text_of(page) -> str:
    return page.get_textpage().get_text_range()


def texts(pdf: bytes) -> list[str]:
    return [text_of(page) for page in pages(pdf)]


def qr_of(page, dpis: tuple[int, ...] = (200, 300, 150)) -> str:
    """Return what the page's QR code reads, rendered as a printer or a camera would see it.

    OpenCV's detectors now and then miss a perfect code at one resolution (the
    code's content, an entry's random id, changes from run to run); another
    resolution reads it. A code that is not there reads nothing at any.
    """
    for dpi in dpis:
        image = page.render(scale=dpi / 72, grayscale=True).to_pil().convert("L")
        text = decode(np.array(image))
        if text:
            return text
    return ""


def size_of(page) -> tuple[int, int]:
    width, height = page.get_size()
    return round(width), round(height)


def organiser_pdf(client, round_, **query):
    client.force_login(round_.championship.roles.get(role="organiser").user)
    return client.get(diplomas_url(round_, **query))


# The organiser's PDF ---------------------------------------------------------------------------


def test_the_organiser_gets_a_page_per_placed_entry_in_standing_order(client, english, final):
    response = organiser_pdf(client, final)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"] == (
        f'attachment; filename="rm-2026-{final.key}-diplomas.pdf"'
    )
    pdf = pages(response.content)
    # Frida did not start: no place, no diploma.
    assert len(pdf) == 5
    assert all(size_of(page) == A4 for page in pdf)
    names = [name for name, *_rest in ENTRANTS[:5]]
    order = [next(name for name in names if name in text_of(page)) for page in pdf]
    assert order == names
    assert "Frida Borte" not in "".join(text_of(page) for page in pdf)


def test_a_diploma_says_it_all_in_the_championships_language(client, english, final):
    first, second, third, unofficial, unfinished = texts(organiser_pdf(client, final).content)
    # The organiser reads English; the diploma is in the championship's Norwegian.
    assert "Rogalandsmesterskapet 2026" in first
    assert "Åse Øvrebø Ærø" in first
    assert "PLASSERING" in first and "\n1\n" in f"\n{first}\n".replace("\r", "")
    assert "40:00" in first
    assert "12,5 brikker/min" in first  # 500 pieces in 40 minutes
    assert MOTIF in first and "Ravensburger" in first and "500 brikker" in first
    assert "Individuell" in first and "Finale" in first
    assert "Offisielle resultater" in first
    # The day the heat started in Oslo, the championship's time zone, not in UTC: a
    # start at 23:30 UTC is on the next day's diploma.
    started = timezone.localtime(final.heats.get().started_at, final.championship.tzinfo)
    with translation.override("nb"):
        day = formats.date_format(started.date(), "DATE_FORMAT")
    assert day in first
    # The time with its penalty, the unofficial entrant, the pieces of an unfinished puzzle.
    assert "Bjørn Hemmelig" in second and "41:10" in second and "10 s straff" in second
    assert "Cecilie Ås" in third
    assert "Deltar uoffisielt" in unofficial
    assert "320 brikker" in unfinished and "brikker/min" not in unfinished


def test_the_official_place_shows_where_it_differs_from_the_place(championship, organiser):
    entrants = [
        ("Oslo Først", 39, "Oslo", True),
        ("Rogaland Andre", 40, "Rogaland", True),
    ]
    final = run(championship, entrants=entrants)
    results = diplomas.diploma_results(final)
    assert [(r.place, r.official_place) for r in results] == [(1, None), (2, 1)]
    first, second = texts(diplomas.diplomas_pdf(results, url_for=lambda r: "https://x.test/r/"))
    assert "Deltar uoffisielt" in first and "Offisiell plassering" not in first
    assert "Offisiell plassering: 1" in second


def test_a5_is_a4_scaled(client, english, final):
    pdf = pages(organiser_pdf(client, final, size="a5").content)
    assert len(pdf) == 5 and all(size_of(page) == A5 for page in pdf)
    assert "Åse Øvrebø Ærø" in text_of(pdf[0])
    # An unknown size is A4.
    pdf = pages(client.get(diplomas_url(final, size="letter")).content)
    assert size_of(pdf[0]) == A4


@pytest.mark.parametrize("size", ["a4", "a5"])
def test_the_qr_code_opens_the_results_page_of_the_entry(client, english, final, size):
    pdf = pages(organiser_pdf(client, final, size=size).content)
    for page, (name, *_rest) in zip(pdf, ENTRANTS[:2], strict=False):
        expected = "http://testserver" + detail_url(final, entry_of(final, name))
        assert qr_of(page) == expected
        # Printed too, for whoever cannot scan it.
        assert expected in text_of(page)


def test_the_qr_code_carries_site_url_when_it_is_set(client, english, final, settings):
    settings.SITE_URL = "https://puzzle.example.org/"
    pdf = pages(organiser_pdf(client, final, podium="1").content)
    expected = "https://puzzle.example.org" + detail_url(final, entry_of(final, "Åse Øvrebø Ærø"))
    assert qr_of(pdf[0]) == expected


def test_podium_diplomas_are_places_one_to_three(client, english, final):
    response = organiser_pdf(client, final, podium="1")
    assert response["Content-Disposition"].endswith('-diplomas-podium.pdf"')
    pdf = texts(response.content)
    assert len(pdf) == 3
    assert [name for name, *_rest in ENTRANTS[:3]] == [
        next(name for name, *_r in ENTRANTS if name in text) for text in pdf
    ]


def test_podium_diplomas_include_ties(championship, organiser):
    times = [("Først", 40), ("Andre", 41), ("Tredje", 42), ("Også tredje", 42), ("Femte", 44)]
    final = run(championship, entrants=[(name, t, "Rogaland", True) for name, t in times])
    podium = diplomas.diploma_results(final, podium=True)
    assert [result.place for result in podium] == [1, 2, 3, 3]


def test_long_names_and_motifs_stay_on_the_page_and_clear_the_qr_code(championship, organiser):
    long_name = "Anne-Marthe Kristine Sofie Østgaard-Wilhelmsen Bjørnstad Ødegård " * 2
    championship.name = "Det åpne norgesmesterskapet i lagpuslespill for klubber og foreninger 2026"
    championship.venue = "Stavanger Forum, hall C, inngang fra Gunnar Warebergs gate"
    championship.save()
    final = run(championship, entrants=[(long_name.strip(), 40, "Rogaland", True)])
    Category.objects.filter(pk=final.category_id).update(
        puzzle_motif="Et svært langt motiv med fjorder, fjell, fosser og fiskebåter " * 3
    )
    result = diplomas.diploma_results(final)[0]
    result.official, result.official_place = True, 104  # one line more
    result.penalty_ms = 15_000  # and one more
    url = "https://puzzle.example.org" + detail_url(final, result.entry)
    for size, (width, height) in (("a4", A4), ("a5", A5)):
        (page,) = pages(diplomas.diplomas_pdf([result], size=size, url_for=lambda r: url))
        scale = width / A4[0]
        qr_left, qr_top = diplomas.QR_X * scale, (diplomas.QR_Y + diplomas.QR_SIZE) * scale
        text = page.get_textpage()
        chars = [
            (text.get_text_range(index, 1), *text.get_charbox(index))
            for index in range(text.count_chars())
        ]
        for _char, left, bottom, right, top in chars:
            assert 0 <= left <= right <= width and 0 <= bottom <= top <= height
        # Nothing runs into the QR code: beside and under it is only what belongs there.
        beside = "".join(
            char for char, _l, bottom, right, _t in chars if bottom < qr_top and right > qr_left
        )
        with translation.override(championship.language):
            note = "".join(gettext("Scan to verify the official result").split())
        assert "".join(beside.split()) in note, f"{size}: {beside!r} runs into the QR code"
        # Wrapped, not cut: every word of the name is on the page.
        words = " ".join(text.get_text_range().split())
        assert all(word in words for word in long_name.split())


def test_letters_beyond_the_standard_fonts_are_set_in_an_embedded_font(championship, organiser):
    final = run(championship, entrants=[("Antonín Dvořák Łukasz", 40, "Rogaland", True)])
    (text,) = texts(diplomas.diplomas_pdf(diplomas.diploma_results(final), url_for=lambda r: "u"))
    assert "Antonín Dvořák Łukasz" in text


# Refusals --------------------------------------------------------------------------------------


def test_a_round_not_yet_official_prints_no_diplomas(client, english, championship, organiser):
    final = run(championship, sign_off=False)
    assert diplomas.diploma_results(final) == []
    client.force_login(organiser)
    response = client.get(diplomas_url(final), follow=True)
    control = reverse("manage:round_control", args=[championship.slug, final.key])
    assert response.redirect_chain == [(control, 302)]
    assert "Diplomas are printed once the round&#x27;s results are official." in (
        response.content.decode()
    )
    assert "Diplomas (A4)" not in response.content.decode()
    with pytest.raises(ValueError):
        diplomas.diplomas_pdf(Result.objects.filter(round=final), url_for=str)


def test_only_organisers_get_the_diplomas(client, english, final):
    url = diplomas_url(final)
    response = client.get(url)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    judge = factories.role(final.championship, ChampionshipRole.Role.JUDGE, username="judy")
    client.force_login(judge)
    assert client.get(url).status_code == 403
    other = factories.championship(slug="other-2026")
    stranger = factories.role(other, ChampionshipRole.Role.ORGANISER, username="stranger")
    client.force_login(stranger)
    assert client.get(url).status_code == 403
    assert organiser_pdf(client, final, podium="1").status_code == 200
    assert client.get(url.replace(final.key, "no-such-round")).status_code == 404


def test_the_control_page_links_the_diplomas_once_official(client, english, championship):
    organiser = factories.role(championship, ChampionshipRole.Role.ORGANISER, username="orga")
    final = run(championship, sign_off=False)
    client.force_login(organiser)
    control = reverse("manage:round_control", args=[championship.slug, final.key])
    assert "Diplomas (A4)" not in client.get(control).content.decode()
    signed_off(final)
    page = client.get(control).content.decode()
    url = diplomas_url(final)
    assert f'href="{url}">Diplomas (A4)' in page
    assert f'href="{url}?size=a5">Diplomas (A5)' in page
    assert f'href="{url}?podium=1">Podium diplomas' in page


# The entrant's diploma -------------------------------------------------------------------------


def entrant_url(round_, entry, token=None) -> str:
    return reverse(
        "results:entry_diploma",
        args=[round_.championship.slug, token or entry.manage_token, round_.key],
    )


def test_an_entrant_gets_their_own_diploma_through_their_private_link(client, final):
    entry = entry_of(final, "Bjørn Hemmelig")
    response = client.get(entrant_url(final, entry))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"] == (
        f'attachment; filename="rm-2026-{final.key}-diploma.pdf"'
    )
    (page,) = pages(response.content)
    assert size_of(page) == A4
    # Handed to the entrant: the diploma names them, consent or not.
    assert "Bjørn Hemmelig" in text_of(page)
    assert qr_of(page) == "http://testserver" + detail_url(final, entry)
    (page,) = pages(client.get(entrant_url(final, entry) + "?size=a5").content)
    assert size_of(page) == A5


def test_an_entrants_diploma_is_refused_otherwise(client, championship, organiser):
    final = run(championship, sign_off=False)
    entry = entry_of(final, "Åse Øvrebø Ærø")
    # Provisional: no diploma yet.
    assert client.get(entrant_url(final, entry)).status_code == 404
    manage = reverse("results:entry_page", args=[championship.slug, entry.manage_token])
    assert "Diploma (PDF)" not in client.get(manage).content.decode()
    signed_off(final)
    assert client.get(entrant_url(final, entry)).status_code == 200
    # A wrong token, another championship's slug, an unknown round, no place.
    assert client.get(entrant_url(final, entry, token="x" * 43)).status_code == 404
    assert client.get(entrant_url(final, entry, token="not a token")).status_code == 404
    wrong_slug = entrant_url(final, entry).replace("/rm-2026/", "/other/")
    assert client.get(wrong_slug).status_code == 404
    assert client.get(entrant_url(final, entry).replace(final.key, "nope")).status_code == 404
    assert client.get(entrant_url(final, entry_of(final, "Frida Borte"))).status_code == 404


def test_the_entrants_page_links_the_diploma_of_an_official_round(client, english, final):
    entry = entry_of(final, "Åse Øvrebø Ærø")
    Result.objects.filter(entry=entry).update(confirmed_at=final.official_at)
    manage = reverse("results:entry_page", args=[final.championship.slug, entry.manage_token])
    page = client.get(manage).content.decode()
    assert f'href="{entrant_url(final, entry)}" data-diploma>Diploma (PDF)</a>' in page
    # Frida did not start: her result shows, without a diploma.
    frida = entry_of(final, "Frida Borte")
    page = client.get(
        reverse("results:entry_page", args=[final.championship.slug, frida.manage_token])
    ).content.decode()
    assert "Did not start" in page and "Diploma (PDF)" not in page


# The page the QR code opens --------------------------------------------------------------------


def test_the_results_page_of_an_entry_says_official_with_the_result(client, english, final):
    entry = entry_of(final, "Åse Øvrebø Ærø")
    response = client.get(detail_url(final, entry))
    assert response.status_code == 200
    page = response.content.decode()
    assert 'data-results-state="official"' in page and "Official results" in page
    assert "signed off on" in page
    assert "Åse Øvrebø Ærø" in page
    assert "<strong data-place>1</strong>" in page
    assert "40:00" in page and "12.5 pieces/min" in page
    assert MOTIF in page
    round_page = reverse("results:round", args=[final.championship.slug, final.key])
    assert f'href="{round_page}"' in page
    assert "corrected" not in page.lower()


def test_the_results_page_of_an_entry_says_provisional_before_the_sign_off(
    client, english, championship, organiser
):
    final = run(championship, sign_off=False)
    page = client.get(detail_url(final, entry_of(final, "Cecilie Ås"))).content.decode()
    assert 'data-results-state="provisional"' in page
    assert "Official results" not in page
    assert "Provisional results" in page


def test_the_results_page_of_an_entry_names_only_with_consent(client, english, final):
    entry = entry_of(final, "Bjørn Hemmelig")
    page = client.get(detail_url(final, entry)).content.decode()
    assert "Bjørn" not in page and "Hemmelig" not in page
    assert "Name withheld" in page
    assert "41:10" in page and "10 s penalty" in page


def test_the_results_page_of_an_entry_shows_the_unofficial_and_the_unfinished(
    client, english, final
):
    page = client.get(detail_url(final, entry_of(final, "Dag Østlending"))).content.decode()
    assert "Takes part unofficially (hors concours)" in page
    page = client.get(detail_url(final, entry_of(final, "Eirik Uferdig"))).content.decode()
    assert "320 pieces" in page and "pieces/min" not in page


def test_the_results_page_of_an_entry_shows_corrections(client, english, final):
    Round.objects.filter(pk=final.pk).update(
        corrections=[{"at": "2026-03-14T12:00:00+00:00", "reason": "Clock misread"}]
    )
    page = client.get(detail_url(final, entry_of(final, "Cecilie Ås"))).content.decode()
    assert "Corrected after the sign-off:" in page and "Clock misread" in page


def test_the_results_page_of_an_entry_speaks_the_visitors_language(client, final):
    page = client.get(detail_url(final, entry_of(final, "Åse Øvrebø Ærø"))).content.decode()
    assert "Offisielle resultater" in page and "12,5 brikker/min" in page


def test_the_results_page_of_an_unknown_entry_or_round_is_not_found(client, english, final):
    entry = entry_of(final, "Åse Øvrebø Ærø")
    url = detail_url(final, entry)
    assert client.get(url.replace(entry.ref, "no-such-entry")).status_code == 404
    # A NUL, or an id longer than any: no entry, not a database error.
    assert client.get(url.replace(entry.ref, "%00")).status_code == 404
    assert client.get(url.replace(entry.ref, "x" * 41)).status_code == 404
    assert client.get(url.replace(final.key, "no-such-round")).status_code == 404
    assert client.get(url.replace("/rm-2026/", "/nope-2026/")).status_code == 404
    # An entry of the championship with no result in this round.
    late = factories.entry(final.category, name="Sen Påmelding")
    assert client.get(detail_url(final, late)).status_code == 404
    # The round's CSV is still the CSV.
    csv = client.get(reverse("results:round_csv", args=[final.championship.slug, final.key]))
    assert csv.status_code == 200 and csv["Content-Type"].startswith("text/csv")


def test_the_pdf_is_a_real_pdf_that_reads_back(final):
    results = diplomas.diploma_results(final)
    pdf = diplomas.diplomas_pdf(results, size="a4", url_for=lambda r: "https://x.test/")
    document = pypdfium2.PdfDocument(io.BytesIO(pdf))
    assert len(document) == len(results) == 5
