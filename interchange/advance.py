"""Check a round's advancement: its mode and numbers, and the round its qualifiers go to.

``{}`` (nobody advances), ``{"overall": N}``, ``{"per_heat": N, "best_remaining": M}``
(``championship.rules.advancement``), or country places: ``{"overall": T,
"country_places": K or "all", "country_place_requires_completion": true, ...}``
(``championship.rules.country_places``, the model's ``Round.Advance.COUNTRY``).
Any of them may carry ``into``: the key of a later round of the same competition
(several rounds may feed one; omitted, the competition's next round, as before
version 3). The schema has bounded the numbers and said which keys go together.
"""

from __future__ import annotations

from championship.models import Round
from championship.rules import country_places
from championship.rules.advancement import Advance, AdvancementError
from interchange.format import InterchangeError
from interchange.plan import _Competition
from interchange.values import _value

# The settings of country places, as the document names them; each needs country_places.
COUNTRY_KEYS = (
    "country_places",
    "country_place_requires_completion",
    "per_country",
    "only_countries_without_qualifier",
)
# The model's fields of country places, at their defaults (a round of another mode).
NO_COUNTRY_PLACES = {
    "advance_country_places": None,
    "advance_country_requires_completion": False,
    "advance_per_country": 1,
    "advance_only_countries_without_qualifier": False,
}


def _advance(raw: dict, path: str) -> tuple[dict, str | None]:
    """Return a round's advancement as the model's fields, and the key of ``into`` (or None)."""
    value = dict(_value(raw, "advance", {}))
    where = f"{path}.advance"
    into = value.pop("into", None)
    if not value:
        fields = {"advance": Round.Advance.NONE, "advance_count": None}
        return {**fields, "advance_best_remaining": None, **NO_COUNTRY_PLACES}, into
    if any(key in value for key in COUNTRY_KEYS):
        return _country(value, where), into
    try:
        advance = Advance.from_dict(value)
    except AdvancementError as error:
        message = (
            error.message
            if error.code in ("one_mode", "unknown")
            else f"{error.field} {error.message}"
        )
        raise InterchangeError(where, message) from None
    if advance.overall is not None:
        fields = {
            "advance": Round.Advance.OVERALL,
            "advance_count": advance.overall,
            "advance_best_remaining": None,
        }
    else:
        fields = {
            "advance": Round.Advance.PER_HEAT,
            "advance_count": advance.per_heat,
            "advance_best_remaining": advance.best_remaining,
        }
    return {**fields, **NO_COUNTRY_PLACES}, into


def _country(value: dict, where: str) -> dict:
    """Return country places (``overall`` T with ``country_places`` K) as the model's fields."""
    given = value["country_places"]
    try:
        settings = country_places.CountryPlaces(
            places=value["overall"],
            country_places=None if given == country_places.ALL else given,
            requires_completion=value.get("country_place_requires_completion", False),
            per_country=value.get("per_country", 1),
            only_countries_without_qualifier=value.get("only_countries_without_qualifier", False),
        )
    except AdvancementError as error:
        raise InterchangeError(f"{where}.{error.field}", error.message) from None
    return {
        "advance": Round.Advance.COUNTRY,
        "advance_count": settings.places,
        "advance_best_remaining": None,
        "advance_country_places": settings.country_places,
        "advance_country_requires_completion": settings.requires_completion,
        "advance_per_country": settings.per_country,
        "advance_only_countries_without_qualifier": settings.only_countries_without_qualifier,
    }


def _check_into(competitions: list[_Competition], round_keys: dict[str, str]) -> None:
    """Refuse an ``into`` that names no later round of its own competition.

    Checked once every competition's rounds are read: ``round_keys`` holds the path
    of every round of the document by its key (unique in the document).
    """
    for competition in competitions:
        orders = {round_.fields["key"]: round_.fields["order"] for round_ in competition.rounds}
        for round_ in competition.rounds:
            key = round_.into
            if key is None:
                continue
            where = f"{round_.path}.advance.into"
            if key not in round_keys:
                raise InterchangeError(where, f'unknown round "{key}"')
            if key not in orders:
                raise InterchangeError(
                    where,
                    f'round "{key}" is not in this competition (it is {round_keys[key]}); '
                    "qualifiers go to a round of their own competition",
                )
            if orders[key] <= round_.fields["order"]:
                what = "this round itself" if key == round_.fields["key"] else round_keys[key]
                raise InterchangeError(
                    where,
                    f'round "{key}" is not after this one (it is {what}); '
                    "qualifiers go to a later round",
                )


def _advance_document(round_: Round, keys: dict[int, str]) -> dict:
    """Return a round's ``advance`` as the document writes it (``keys``: round keys by pk)."""
    if round_.advance == Round.Advance.COUNTRY:
        written = round_.country_places_settings().to_dict()
        document = {"overall": written.pop("places"), **written}
    else:
        document = dict(round_.advance_settings)
    if round_.into_id is not None:
        document["into"] = keys[round_.into_id]
    return document
