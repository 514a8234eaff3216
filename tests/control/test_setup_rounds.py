"""A round's own puzzle on "Edit championship": pieces per puzzle, puzzles counted together."""

import pytest
from django.urls import reverse

from championship.services import tables_create
from control import rounds
from tests import factories


def edit_url(championship) -> str:
    return reverse("manage:edit", kwargs={"championship_slug": championship.slug})


def round_post(round_, **fields) -> dict:
    """Return what the round's form posts, its current values changed by ``fields``."""
    values = {
        "pieces": round_.pieces or "",
        "puzzles": round_.puzzles,
        "time_limit_minutes": round_.time_limit_minutes or "",
    }
    values.update(fields)
    data = {"section": "round", "key": round_.key}
    data.update({f"round-{round_.key}-{name}": str(value) for name, value in values.items()})
    return data


@pytest.mark.django_db
def test_the_edit_page_shows_a_rounds_pieces_and_puzzles(org, rm, final):
    page = org.get(edit_url(rm)).content.decode()
    assert f'name="round-{final.key}-pieces"' in page
    assert f'name="round-{final.key}-puzzles"' in page


@pytest.mark.django_db
def test_a_teams_two_puzzles_are_counted_together(org, rm):
    team_final = rm.categories.get(kind="team").rounds.get()
    response = org.post(edit_url(rm), round_post(team_final, pieces=1000, puzzles=2))
    assert response.status_code == 302
    team_final.refresh_from_db()
    assert (team_final.pieces, team_final.puzzles, team_final.total_pieces) == (1000, 2, 2000)


@pytest.mark.django_db
def test_an_empty_pieces_field_takes_the_categorys(org, rm, individual, final):
    final.pieces = 1000
    final.save(update_fields=["pieces"])
    response = org.post(edit_url(rm), round_post(final, pieces=""))
    assert response.status_code == 302
    final.refresh_from_db()
    assert final.pieces is None
    assert final.pieces_per_puzzle == individual.pieces


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("fields", "field", "message"),
    [
        ({"puzzles": 0}, "puzzles", "greater than or equal to 1"),
        ({"puzzles": ""}, "puzzles", "This field is required."),
        ({"pieces": 0}, "pieces", "greater than or equal to 1"),
        ({"pieces": "many"}, "pieces", "Enter a whole number."),
    ],
)
def test_a_wrong_puzzle_is_refused_and_changes_nothing(org, rm, final, fields, field, message):
    before = (final.pieces, final.puzzles, final.version)
    response = org.post(edit_url(rm), round_post(final, **fields))
    assert response.status_code == 200
    form = response.context["categories"][0].round_list[0].form
    assert message in " ".join(form.errors[field])
    final.refresh_from_db()
    assert (final.pieces, final.puzzles, final.version) == before


@pytest.mark.django_db
def test_the_puzzle_stays_once_a_heat_has_started(org, rm, individual, final):
    tables_create(championship=rm, count=2)
    factories.entry(individual)
    rounds.round_seat(round_=final)
    rounds.round_start(round_=final)
    response = org.post(edit_url(rm), round_post(final, pieces=1000, puzzles=2))
    assert response.status_code == 200
    assert "its puzzle and time limit stay as they are" in response.content.decode()
    final.refresh_from_db()
    assert (final.pieces, final.puzzles) == (None, 1)


@pytest.mark.django_db
def test_a_changed_puzzle_reaches_the_judges_pages(org, rm, final):
    before = final.version
    org.post(edit_url(rm), round_post(final, pieces=750))
    final.refresh_from_db()
    assert final.version == before + 1
    assert final.total_pieces == 750
