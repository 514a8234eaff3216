"""What the native readers of 2026-12-01 found, each checked where it shows.

``../shared/reviews/2026-12-01-translations.md`` gives the replacement texts; these
tests hold the points a later change of a catalogue or a page could undo: capitals
after the greeting, one word for a thing, today's country names, and "missing"
rather than "lost" where the rules know no piece found later.
"""

import pytest
from django.utils import translation
from django_countries import countries

from judging.dashboard import capture_values
from judging.models import Capture

NORDIC = ("nb", "sv", "da")

# The sentence after "Hei X!" / "Hej X!" in four mails to entrants (templates/registration/email/).
MAIL_OPENINGS = [
    "a place has become free in the category %(category)s of %(championship)s, and it is "
    "offered to you.",
    "the place offered to you in the category %(category)s of %(championship)s was not accepted "
    "in time, so it has gone to the next on the waiting list, and your entry is withdrawn.",
    "your entry in the category %(category)s of %(championship)s was not paid by its deadline, "
    "so it is withdrawn and the place has gone to the waiting list. If you have paid, please "
    "contact the organiser.",
    "your entry in the category %(category)s of %(championship)s is not paid yet. Please pay by "
    "%(until)s, or the place may go to the waiting list.",
]


@pytest.mark.parametrize("language", NORDIC)
@pytest.mark.parametrize("msgid", MAIL_OPENINGS)
def test_a_mails_first_sentence_begins_with_a_capital(language, msgid):
    with translation.override(language):
        sentence = translation.gettext(msgid)
    assert sentence != msgid, "not translated"
    assert sentence[0].isupper(), sentence


@pytest.mark.parametrize("language", NORDIC)
def test_categories_are_kategori_never_klasse(language):
    for msgid in ("A category's podium", "Choose one of this championship's categories."):
        with translation.override(language):
            text = translation.gettext(msgid).lower()
        assert "kategori" in text and "klass" not in text, text


@pytest.mark.parametrize(
    ("language", "code", "name"),
    [
        ("sv", "PS", "Palestina"),
        ("sv", "MK", "Nordmakedonien"),
        ("sv", "SZ", "Eswatini"),
        ("da", "SZ", "Eswatini"),
        ("sv", "HM", "Heard- och McDonaldöarna"),
        ("nb", "MK", "Nord-Makedonia"),
    ],
)
def test_country_names_are_todays(language, code, name):
    with translation.override(language):
        assert str(countries.name(code)) == name


def test_the_sign_off_sentence_reads_in_the_languages_order():
    msgid = (
        "Sign the results off? From then on only a head judge’s correction, with a reason, "
        "changes them."
    )
    for language in NORDIC:
        with translation.override(language):
            sentence = translation.gettext(msgid)
        assert sentence != msgid
        # The calque kept the English order: "…, med begrunnelse, dem."
        assert not sentence.endswith("dem."), sentence


def test_pieces_missing_at_time_are_missing_where_none_is_found_later():
    capture = Capture(kind="finish", elapsed_ms=6000, missing_lost=1, payload={})
    with translation.override("sv"):
        assert "1 saknad" in capture_values(capture, found_later=False)
        assert "1 förlorad" in capture_values(capture, found_later=True)
