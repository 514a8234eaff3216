"""The pages "New championship" and "Edit championship", over HTTP."""

from datetime import UTC, date, datetime, timedelta
from decimal import Decimal

import pytest
from django.conf import settings
from django.contrib.auth.models import Permission
from django.urls import reverse
from django.utils import timezone

from championship import services
from championship.models import Championship, ChampionshipRole, Round
from championship.services import tables_create
from control import rounds
from registration.models import Entry
from results.models import Result
from tests import factories

pytestmark = pytest.mark.usefixtures("english")

NEW = reverse("new")


def next_january(day: int) -> date:
    """Return a winter day of next year (Stockholm is UTC+1 then)."""
    return date(timezone.now().year + 1, 1, day)


def may_create(user):
    user.user_permissions.add(Permission.objects.get(codename="add_championship"))
    return user


@pytest.fixture
def creator(db):
    """A user in the group Organisers, no superuser."""
    user = factories.user(username="creator")
    user.groups.add(services.organisers_group())
    return user


def sm_post(**changes) -> dict:
    """Return what the page posts for an sm championship as the preset fills it in."""
    start = next_january(20)
    data = {
        "preset": "sm",
        "name": "Pussel-SM",
        "slug": "pussel-sm",
        "starts_at": f"{start:%Y-%m-%d}T10:00",
        "venue": "Stadsbiblioteket, Uppsala",
        "currency": "SEK",
        "language": "sv",
        "timezone": "Europe/Stockholm",
        "category-TOTAL_FORMS": "3",
        "category-INITIAL_FORMS": "3",
        "category-MIN_NUM_FORMS": "1",
        "category-MAX_NUM_FORMS": "3",
    }
    rows = [("individual", 1, 1, 500), ("pair", 2, 2, 500), ("team", 3, 4, 1000)]
    for index, (kind, low, high, pieces) in enumerate(rows):
        prefix = f"category-{index}-"
        data.update(
            {
                f"{prefix}kind": kind,
                f"{prefix}include": "on",
                f"{prefix}name": "",
                f"{prefix}min_members": str(low),
                f"{prefix}max_members": str(high),
                f"{prefix}pieces": str(pieces),
                f"{prefix}time_limit_minutes": "120",
                f"{prefix}capacity": "",
                f"{prefix}fee": "0",
                f"{prefix}stages": "prelim final",
                f"{prefix}prelim_advance": "",
                f"{prefix}semifinal_advance": "",
            }
        )
    data.update(changes)
    return data


# Who may create ---------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_user_without_the_permission_gets_403_and_no_button(client):
    user = factories.user(username="plain", is_staff=True)
    client.force_login(user)
    assert client.get(NEW).status_code == 403
    assert client.post(NEW, sm_post()).status_code == 403
    assert not Championship.objects.exists()
    home = client.get(reverse("home")).content.decode()
    assert NEW not in home


@pytest.mark.django_db
def test_an_anonymous_visitor_is_sent_to_log_in(client):
    response = client.get(NEW)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


@pytest.mark.django_db
def test_an_organiser_sees_the_button_on_the_home_page(client, creator):
    client.force_login(creator)
    home = client.get(reverse("home")).content.decode()
    assert f'href="{NEW}"' in home
    assert "New championship" in home
    assert client.get(NEW).status_code == 200


@pytest.mark.django_db
def test_the_permission_given_directly_also_lets_in(client):
    client.force_login(may_create(factories.user(username="direct")))
    assert client.get(NEW).status_code == 200


# Step two: what the preset fills in ------------------------------------------------------


@pytest.mark.django_db
def test_choosing_a_preset_fills_in_its_categories_rounds_and_zone(client, creator):
    client.force_login(creator)
    response = client.get(NEW, {"preset": "sm"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="preset-fields"')
    form = response.context["form"]
    assert form["currency"].value() == "SEK"
    assert form["language"].value() == "sv"
    assert form["timezone"].value() == "Europe/Stockholm"
    rows = [f.initial for f in response.context["formset"].forms]
    assert [row["kind"] for row in rows] == ["individual", "pair", "team"]
    assert [row["stages"] for row in rows] == ["prelim final"] * 3
    assert [(row["min_members"], row["max_members"]) for row in rows] == [(1, 1), (2, 2), (3, 4)]


@pytest.mark.django_db
def test_rogaland_fills_in_capacities_and_fees(client, creator):
    client.force_login(creator)
    response = client.get(NEW, {"preset": "rogaland"}, HTTP_HX_REQUEST="true")
    rows = [f.initial for f in response.context["formset"].forms]
    assert [row["capacity"] for row in rows] == [50, 30, 15]
    assert [row["fee"] for row in rows] == [Decimal("200"), Decimal("300"), Decimal("400")]
    assert [row["stages"] for row in rows] == ["final"] * 3
    assert response.context["form"]["timezone"].value() == "Europe/Oslo"


@pytest.mark.django_db
def test_without_javascript_a_button_fills_in_the_preset_and_keeps_step_one(client, creator):
    client.force_login(creator)
    response = client.post(NEW, {"preset": "dm", "name": "DM 2027", "slug": "dm-2027", "fill": "1"})
    assert response.status_code == 200
    assert not Championship.objects.exists()
    form = response.context["form"]
    assert (form["name"].value(), form["slug"].value()) == ("DM 2027", "dm-2027")
    assert form["currency"].value() == "DKK"
    rows = [f.initial for f in response.context["formset"].forms]
    assert [row["stages"] for row in rows] == ["prelim final", "prelim final", "final"]


# Saving ---------------------------------------------------------------------------------


@pytest.mark.django_db
def test_saving_creates_the_championship_and_makes_the_creator_its_organiser(client, creator):
    client.force_login(creator)
    response = client.post(NEW, sm_post())
    assert response.status_code == 302
    assert response["Location"] == reverse(
        "manage:control_room", kwargs={"championship_slug": "pussel-sm"}
    )
    championship = Championship.objects.get(slug="pussel-sm")
    assert (championship.ruleset, championship.currency, championship.language) == (
        "sm",
        "SEK",
        "sv",
    )
    assert championship.timezone == "Europe/Stockholm"
    # 10:00 in Stockholm in winter is 09:00 UTC.
    start = next_january(20)
    assert championship.starts_at == datetime(start.year, 1, 20, 9, 0, tzinfo=UTC)
    assert championship.venue == "Stadsbiblioteket, Uppsala"
    assert ChampionshipRole.objects.filter(
        championship=championship, user=creator, role="organiser"
    ).exists()
    assert [c.kind for c in championship.categories.order_by("order")] == [
        "individual",
        "pair",
        "team",
    ]
    ordered = championship.rounds.order_by("category__order", "order")
    keys = list(ordered.values_list("key", "stage"))
    assert keys == [
        ("individual-prelim", "prelim"),
        ("individual-final", "final"),
        ("pair-prelim", "prelim"),
        ("pair-final", "final"),
        ("team-prelim", "prelim"),
        ("team-final", "final"),
    ]
    assert championship.rule_overrides == {}
    assert not creator.is_superuser


@pytest.mark.parametrize(
    ("cookie", "expected"),
    [(None, "”Pussel-SM 2027” är skapat som utkast"), ("en", "“Pussel-SM 2027” is created")],
)
def test_the_control_rooms_greeting_is_in_the_control_rooms_language(
    client, creator, cookie, expected
):
    """With no language chosen, the control room speaks the championship's; so does its greeting."""
    del client.cookies[settings.LANGUAGE_COOKIE_NAME]  # this module's tests read in English
    if cookie:
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = cookie
    client.force_login(creator)
    response = client.post(NEW, sm_post(name="Pussel-SM 2027"), follow=True)
    (message,) = [str(m) for m in response.context["messages"]]
    assert message.startswith(expected)
    assert response.context["LANGUAGE_CODE"] == (cookie or "sv")


@pytest.mark.django_db
def test_what_the_organiser_edits_before_saving_is_what_is_created(client, creator):
    client.force_login(creator)
    data = sm_post(
        **{
            "category-0-capacity": "40",
            "category-0-fee": "150",
            "category-0-prelim_advance": "12",
            "category-0-time_limit_minutes": "90",
            "category-0-name": "Solo",
            "category-1-stages": "final",
            "category-2-include": "",
        }
    )
    response = client.post(NEW, data)
    assert response.status_code == 302, response.context["formset"].errors
    championship = Championship.objects.get(slug="pussel-sm")
    individual = championship.categories.get(kind="individual")
    assert (individual.capacity, individual.fee, individual.time_limit_minutes) == (
        40,
        Decimal("150"),
        90,
    )
    assert individual.display_name == "Solo"
    prelim = individual.rounds.get(stage="prelim")
    assert (prelim.advance, prelim.advance_count) == ("overall", 12)
    assert individual.rounds.get(stage="final").advance == "none"
    assert list(championship.categories.values_list("kind", flat=True)) == ["individual", "pair"]
    pair = championship.categories.get(kind="pair")
    assert list(pair.rounds.values_list("stage", flat=True)) == ["final"]
    # The rules and the rounds agree: the pair's stages are recorded as an override.
    assert championship.rule_overrides == {"rounds_pair": ["final"]}
    assert championship.rules.rounds_pair == ("final",)


@pytest.mark.django_db
def test_the_neutral_preset_asks_for_the_time_zone(client, creator):
    client.force_login(creator)
    response = client.get(NEW, {"preset": "neutral"}, HTTP_HX_REQUEST="true")
    assert response.context["form"]["timezone"].value() == ""
    data = sm_post(preset="neutral", slug="helsinki-open", currency="EUR", language="en")
    data["timezone"] = ""
    for index in range(3):
        data[f"category-{index}-stages"] = "final"
    response = client.post(NEW, data)
    assert response.status_code == 200
    assert "timezone" in response.context["form"].errors
    data["timezone"] = "Europe/Helsinki"
    assert client.post(NEW, data).status_code == 302
    championship = Championship.objects.get(slug="helsinki-open")
    assert championship.ruleset == "neutral"
    assert championship.rules.eligibility == "everyone"
    assert championship.rules.penalty_seconds_per_piece == 0
    assert championship.rounds.count() == 3
    # 10:00 in Helsinki in winter is 08:00 UTC.
    assert championship.starts_at.astimezone(UTC).hour == 8


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"slug": "Not a slug!"}, "slug"),
        ({"slug": "new"}, "slug"),
        ({"slug": "admin"}, "slug"),
        ({"name": ""}, "name"),
        ({"starts_at": ""}, "starts_at"),
        ({"starts_at": "tomorrow"}, "starts_at"),
        ({"timezone": "Mars/Olympus"}, "timezone"),
        ({"slug": ""}, "slug"),
    ],
)
def test_the_form_refuses_bad_input_naming_the_field(client, creator, changes, field):
    client.force_login(creator)
    response = client.post(NEW, sm_post(**changes))
    assert response.status_code == 200
    assert field in response.context["form"].errors
    assert not Championship.objects.exists()
    assert 'role="alert"' in response.content.decode()


@pytest.mark.django_db
def test_an_existing_slug_is_refused(client, creator):
    factories.championship(slug="pussel-sm")
    client.force_login(creator)
    response = client.post(NEW, sm_post())
    assert response.status_code == 200
    assert response.context["form"].errors["slug"] == [
        "A championship with this address exists already."
    ]
    assert Championship.objects.count() == 1


@pytest.mark.django_db
def test_a_missing_preset_is_refused(client, creator):
    client.force_login(creator)
    data = sm_post()
    del data["preset"]
    response = client.post(NEW, data)
    assert response.status_code == 200
    assert "preset" in response.context["form"].errors
    assert not Championship.objects.exists()


@pytest.mark.django_db
def test_a_category_with_more_minimum_than_maximum_members_is_refused(client, creator):
    client.force_login(creator)
    response = client.post(NEW, sm_post(**{"category-2-min_members": "5"}))
    assert response.status_code == 200
    assert "max_members" in response.context["formset"].forms[2].errors
    assert not Championship.objects.exists()


@pytest.mark.django_db
def test_at_least_one_category_is_needed(client, creator):
    client.force_login(creator)
    data = sm_post(**{f"category-{index}-include": "" for index in range(3)})
    response = client.post(NEW, data)
    assert response.status_code == 200
    assert response.context["formset"].non_form_errors() == ["Include at least one category."]
    assert not Championship.objects.exists()


def test_new_is_a_reserved_slug():
    from championship.models import RESERVED_SLUGS

    assert "new" in RESERVED_SLUGS


# Edit championship ----------------------------------------------------------------------


@pytest.fixture
def sm_championship(db, creator):
    start = datetime.combine(next_january(20), datetime.min.time(), tzinfo=UTC)
    championship = services.championship_set_up(
        by=creator,
        preset="sm",
        name="Pussel-SM",
        slug="pussel-sm",
        starts_at=start.replace(hour=9),
    )
    return championship


def edit_url(championship) -> str:
    return reverse("manage:edit", kwargs={"championship_slug": championship.slug})


@pytest.mark.django_db
def test_only_organisers_open_the_edit_page(client, sm_championship, creator):
    url = edit_url(sm_championship)
    assert client.get(url).status_code == 302
    client.force_login(may_create(factories.user(username="other")))
    assert client.get(url).status_code == 403
    client.force_login(creator)
    response = client.get(url)
    assert response.status_code == 200
    manage = client.get(reverse("manage:control_room", kwargs={"championship_slug": "pussel-sm"}))
    assert f'href="{url}"' in manage.content.decode()


@pytest.mark.django_db
def test_dates_are_entered_and_shown_in_the_championships_zone(client, sm_championship, creator):
    client.force_login(creator)
    day, deadline_day = next_january(20), next_january(10)
    response = client.post(
        edit_url(sm_championship),
        {
            "section": "championship",
            "name": "Pussel-SM",
            "starts_at": f"{day:%Y-%m-%d}T10:00",
            "registration_deadline": f"{deadline_day:%Y-%m-%d}T23:59",
            "venue": "Uppsala",
            "address": "Svartbäcksgatan 17",
            "payment_instructions": "Swish {fee} till 123 45",
            "is_public": "on",
        },
    )
    assert response.status_code == 302
    sm_championship.refresh_from_db()
    assert sm_championship.starts_at == datetime(day.year, 1, 20, 9, 0, tzinfo=UTC)
    assert sm_championship.registration_deadline == datetime(
        deadline_day.year, 1, 10, 22, 59, tzinfo=UTC
    )
    form = client.get(edit_url(sm_championship)).content.decode()
    assert f'value="{day:%Y-%m-%d}T10:00"' in form
    assert f'value="{deadline_day:%Y-%m-%d}T23:59"' in form
    public = client.get(sm_championship.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="en")
    html = public.content.decode()
    assert "10:00" in html
    assert "23:59" in html


@pytest.mark.django_db
def test_raising_the_capacity_promotes_from_the_waiting_list(client, sm_championship, creator):
    individual = sm_championship.categories.get(kind="individual")
    factories.entry(individual, status=Entry.Status.CONFIRMED)
    waiting = factories.entry(individual, status=Entry.Status.WAITLISTED)
    individual.capacity = 1
    individual.save()
    client.force_login(creator)
    response = client.post(
        edit_url(sm_championship),
        {
            "section": "category",
            "key": "individual",
            "category-individual-capacity": "2",
            "category-individual-fee": "100",
            "category-individual-pieces": "500",
            "category-individual-time_limit_minutes": "120",
            "category-individual-puzzle_brand": "Ravensburger",
            "category-individual-puzzle_motif": "Lighthouse",
            "category-individual-registration_opens_at": "",
        },
        follow=True,
    )
    assert response.status_code == 200
    waiting.refresh_from_db()
    assert waiting.status == Entry.Status.CONFIRMED
    individual.refresh_from_db()
    assert (individual.capacity, individual.fee, individual.puzzle_brand) == (
        2,
        Decimal("100"),
        "Ravensburger",
    )
    assert "1 entry moved from the waiting list to confirmed." in response.content.decode()


@pytest.mark.django_db
def test_pieces_stay_once_a_heat_has_started(client, creator):
    championship = factories.championship(slug="started", ruleset="rogaland")
    services.role_grant(championship=championship, user=creator, role="organiser")
    individual = championship.categories.get(kind="individual")
    tables_create(championship=championship, count=2)
    factories.entry(individual)
    final = individual.rounds.get()
    rounds.round_seat(round_=final)
    rounds.round_start(round_=final)
    client.force_login(creator)
    response = client.post(
        edit_url(championship),
        {
            "section": "category",
            "key": "individual",
            "category-individual-capacity": "50",
            "category-individual-fee": "200",
            "category-individual-pieces": "1000",
            "category-individual-time_limit_minutes": "120",
        },
    )
    assert response.status_code == 200
    assert "its pieces and time limit stay as they are" in response.content.decode()
    individual.refresh_from_db()
    assert individual.pieces == 500


@pytest.mark.django_db
def test_a_rounds_advancement_and_time_limit_are_saved(client, sm_championship, creator):
    client.force_login(creator)
    response = client.post(
        edit_url(sm_championship),
        {
            "section": "round",
            "key": "individual-prelim",
            "round-individual-prelim-puzzles": "1",
            "round-individual-prelim-time_limit_minutes": "90",
            "round-individual-prelim-advance": "overall",
            "round-individual-prelim-advance_count": "10",
            "round-individual-prelim-advance_best_remaining": "",
        },
    )
    assert response.status_code == 302
    prelim = Round.objects.get(championship=sm_championship, key="individual-prelim")
    assert (prelim.time_limit_minutes, prelim.advance, prelim.advance_count) == (
        90,
        "overall",
        10,
    )


@pytest.mark.django_db
def test_the_rules_form_shows_every_parameter_with_its_explanation(
    client, sm_championship, creator
):
    from championship import rulesets

    client.force_login(creator)
    html = client.get(edit_url(sm_championship)).content.decode()
    for name in rulesets.PARAMETERS:
        assert f"<code>{name}</code>" in html, name
    # Each parameter by its meaning, each value in words (the codes only beside them).
    assert (
        '<label for="id_rules-eligibility">Who is eligible to take part officially</label>' in html
    )
    assert ">by prior ranking</option>" in html
    assert ">prior_ranking</option>" not in html


@pytest.mark.django_db
def test_the_rules_read_in_the_organisers_language(client, sm_championship, creator):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "sv"
    client.force_login(creator)
    html = client.get(edit_url(sm_championship)).content.decode()
    assert ">efter tidigare ranking</option>" in html
    assert ">bor eller har bott i regionen</option>" in html
    assert ">Vem som har tävlingsrätt (får delta officiellt)</label>" in html


@pytest.mark.django_db
def test_changing_a_rule_re_ranks_the_rounds_with_results(client, creator):
    championship = factories.championship(slug="rules", ruleset="rogaland")
    services.role_grant(championship=championship, user=creator, role="organiser")
    individual = championship.categories.get(kind="individual")
    final = individual.rounds.get()
    entry = factories.entry(individual)
    heat = factories.heat(final)
    result = Result.objects.create(
        round=final, heat=heat, entry=entry, status="finished", time_ms=3_600_000, missing_found=2
    )
    from results.services import standings_recompute

    standings_recompute(round_=final)
    result.refresh_from_db()
    assert result.penalty_ms == 10_000  # rogaland: 5 s per piece found later
    version = Round.objects.get(pk=final.pk).version
    client.force_login(creator)
    page = client.get(edit_url(championship))
    data = {"section": "rules"}
    for field, _preset, _changed in page.context["rules_form"].parameters():
        value = field.value()
        if value is not None:
            data[field.html_name] = value
    data["rules-penalty_seconds_per_piece"] = "20"
    response = client.post(edit_url(championship), data, follow=True)
    assert response.status_code == 200
    assert "1 round with results is ranked anew." in response.content.decode()
    championship.refresh_from_db()
    assert championship.rule_overrides == {"penalty_seconds_per_piece": 20}
    result.refresh_from_db()
    assert result.penalty_ms == 40_000
    assert Round.objects.get(pk=final.pk).version > version


@pytest.mark.django_db
def test_an_unknown_section_saves_nothing(client, sm_championship, creator):
    client.force_login(creator)
    response = client.post(edit_url(sm_championship), {"section": "nothing"})
    assert response.status_code == 302


def test_next_january_is_in_winter():
    assert next_january(20) - timedelta(days=19) == next_january(1)


@pytest.mark.django_db
def test_the_last_round_offers_only_its_time_limit(client, sm_championship, creator):
    client.force_login(creator)
    page = client.get(edit_url(sm_championship)).content.decode()
    assert 'name="round-individual-final-advance"' not in page
    assert 'name="round-individual-prelim-advance"' in page
    response = client.post(
        edit_url(sm_championship),
        {
            "section": "round",
            "key": "individual-final",
            "round-individual-final-puzzles": "1",
            "round-individual-final-time_limit_minutes": "150",
        },
    )
    assert response.status_code == 302
    final = Round.objects.get(championship=sm_championship, key="individual-final")
    assert (final.time_limit_minutes, final.advance) == (150, "none")
