"""Each check constraint of a championship, a category and a round is refused in Python too.

A new championship's categories and rounds are validated without a query per
constraint (``championship.services``, the note before ``_category_errors``):
``full_clean(validate_constraints=False)`` must refuse whatever a check
constraint would, with the field's message. A constraint added without its
check in Python fails here until it has one.
"""

from datetime import UTC, datetime
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.db import models

from championship.models import Category, Championship, Round

pytestmark = pytest.mark.django_db

# Per model: each check constraint, and values that break it (on an otherwise valid instance).
VIOLATIONS = {
    Championship: {
        "championship_ruleset_known": {"ruleset": "fifa"},
        "championship_currency_known": {"currency": "XXX"},
    },
    Category: {
        "category_kind_known": {"kind": "relay"},
        "category_members_range": {"min_members": 0},
        "category_members_range (max below min)": {"min_members": 3, "max_members": 2},
        "category_pieces_positive": {"pieces": 0},
        "category_time_limit_positive": {"time_limit_minutes": 0},
        "category_fee_not_negative": {"fee": Decimal("-1.00")},
    },
    Round: {
        "round_advance_settings": {"advance": "overall", "advance_count": None},
        "round_advance_settings (none with a count)": {"advance": "none", "advance_count": 3},
        "round_advance_settings (overall with M)": {
            "advance": "overall",
            "advance_count": 3,
            "advance_best_remaining": 2,
        },
        "round_advance_settings (per heat without M)": {
            "advance": "per_heat",
            "advance_count": 3,
        },
        "round_advance_settings (country without N)": {"advance": "country"},
        "round_counts_positive": {"puzzles": 0},
        "round_counts_positive (pieces)": {"pieces": 0},
        "round_counts_positive (per country)": {"advance_per_country": 0},
    },
}


def check_constraints(model) -> set[str]:
    return {c.name for c in model._meta.constraints if isinstance(c, models.CheckConstraint)}


@pytest.mark.parametrize("model", list(VIOLATIONS), ids=lambda m: m.__name__)
def test_every_check_constraint_has_a_violation_here(model):
    named = {name.split(" (")[0] for name in VIOLATIONS[model]}
    assert named == check_constraints(model)


def valid(model):
    championship = Championship(
        slug="constraints",
        name="Constraints",
        ruleset="rogaland",
        starts_at=datetime(datetime.now(UTC).year + 1, 3, 14, 9, tzinfo=UTC),
        timezone="Europe/Oslo",
        currency="NOK",
        language="nb",
    )
    if model is Championship:
        return championship
    championship.save()
    category = Category(championship=championship, key="individual", kind="individual")
    if model is Category:
        return category
    category.save()
    round_ = Round(category=category, key="individual-final", order=1, stage="final")
    round_.championship = championship
    return round_


@pytest.mark.parametrize(
    ("model", "name"),
    [(model, name) for model, cases in VIOLATIONS.items() for name in cases],
    ids=lambda value: value.__name__ if isinstance(value, type) else value,
)
def test_full_clean_without_the_constraints_queries_refuses_what_they_would(model, name):
    instance = valid(model)
    instance.full_clean(validate_constraints=False)
    for field, value in VIOLATIONS[model][name].items():
        setattr(instance, field, value)
    # The database's check agrees that this breaks the constraint ...
    with pytest.raises(ValidationError):
        instance.validate_constraints()
    # ... and Python refuses it without asking the database.
    with pytest.raises(ValidationError):
        instance.full_clean(validate_constraints=False)
