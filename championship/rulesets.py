"""Rulesets: every parameter a championship's rules have, how each is checked, and what it means.

The presets themselves (the three national rulebooks, the world championship's and a
neutral one) are in ``championship.presets``.

A championship picks a *preset* (``rogaland``, ``sm`` or ``dm``, ``wjpc`` for the
World Jigsaw Puzzle Championship, or ``neutral`` for a championship under none of
those rulebooks) and may override
any *parameter* of it. Its *effective rules* are the preset with the overrides
applied, checked parameter by parameter.

Terms, as in ``RULES.md``:

eligible
    A person who may take part officially: who lives in the region, or earlier
    lived there continuously for more than the minimum years (rogaland); who is a
    citizen (sm); anyone (dm).
official
    An entry that can win places and prizes. A pair or team is official when at
    least the preset's number of its members are eligible (``None``: all of them).
penalty
    Seconds added per missing piece the preset charges for: only the pieces found
    later (``"found"``) or every piece missing at "TIME" (``"all"``).

This module imports nothing from Django, so it can be read as the rulebook and
tested on its own.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from types import MappingProxyType
from typing import Any

from championship.layouts import Layout

INDIVIDUAL = "individual"
PAIR = "pair"
TEAM = "team"
CATEGORY_KINDS = (INDIVIDUAL, PAIR, TEAM)

# Stages a category's rounds run through, in order.
STAGES = ("prelim", "semifinal", "final")

ELIGIBILITY_KINDS = ("region_residence", "citizenship", "everyone")
PENALTY_CHARGES = ("found", "all")
SEATING_FIRST_ROUND = ("organiser", "prior_ranking")
SEATING_LATER_ROUNDS = ("previous_placement",)
HEAT_SPLITS = ("organiser", "equal")
PUBLISHABLE_FIELDS = ("name", "city", "nationality", "age")


class RuleError(ValueError):
    """Input the rules cannot apply: ``field`` names it, ``code`` is a stable reason.

    The codes are translated at the edge; ``message`` explains in English.
    """

    def __init__(self, field: str, code: str, message: str):
        super().__init__(f"{field}: {message}")
        self.field = field
        self.code = code
        self.message = message


class RulesetError(RuleError):
    """A preset or an override is unknown or has a bad value.

    ``parameter`` names the offending parameter (or ``"ruleset"`` for the preset).
    """

    @property
    def parameter(self) -> str:
        return self.field


@dataclass(frozen=True)
class CategoryDefaults:
    """What a new category of a championship starts with under a preset."""

    min_members: int
    max_members: int
    pieces: int
    time_limit_minutes: int
    capacity: int | None
    fee: Decimal


@dataclass(frozen=True)
class Ruleset:
    """The effective rules of a championship: one attribute per parameter."""

    # Who is official.
    eligibility: str
    eligibility_region: str
    eligibility_region_min_years: int
    eligibility_citizenship: str
    unofficial_allowed: bool
    pair_official_min_eligible: int | None
    team_official_min_eligible: int | None

    # Age, registration.
    min_age_individual: int | None
    min_age_pair: int | None
    min_age_team: int | None
    adult_required_below: int | None
    registration_closes_days_before: int | None
    one_entry_per_person_per_category: bool
    entries_represent_country: bool
    neutral_flag_allowed: bool
    check_in_required: bool
    late_arrival_disqualify_minutes: int | None

    # Rounds, heats, seating, tables.
    rounds_individual: tuple[str, ...]
    rounds_pair: tuple[str, ...]
    rounds_team: tuple[str, ...]
    seating_first_round: str
    seating_later_rounds: str | None
    heat_split: str
    table_sharing_above: int | None
    reserved_guest_tables_max: int
    individual_start_times: bool

    # Timing, penalties, validity.
    penalty_seconds_per_piece: int
    penalty_charges: str
    max_lost_pieces: int | None
    invalid_attempts_placed: bool
    pieces_found_later: bool
    adjacent_missing_waives_penalty: bool
    late_last_piece_seconds: int | None
    misplaced_finish_is_unfinished: bool
    counted_cluster_min_pieces: int

    # Advancement, prizes, publication.
    unofficial_advance_only_if_better: bool
    prize_places: int
    title_to_best_official: bool
    published_fields: tuple[str, ...]

    def rounds_for(self, kind: str) -> tuple[str, ...]:
        """Return the stages of a category's rounds."""
        return getattr(self, f"rounds_{kind}")

    def min_age_for(self, kind: str) -> int | None:
        """Return the minimum age in a category, or ``None`` when there is none."""
        return getattr(self, f"min_age_{kind}")

    def as_dict(self) -> dict[str, Any]:
        """Return the parameters as JSON-ready values."""
        return {
            name: list(value) if isinstance(value, tuple) else value
            for name, value in dataclasses.asdict(self).items()
        }


@dataclass(frozen=True)
class Preset:
    """A national rulebook: its rules and what a new championship starts with."""

    key: str
    title: str
    country: str
    currency: str
    language: str
    timezone: str
    rules: Ruleset
    categories: Mapping[str, CategoryDefaults] = field(default_factory=dict)
    # Pairs and teams may change members until this many days before the start (None:
    # until registration closes). Not a rule of the rulebook: the federation's practice.
    member_changes_days_before: int | None = None
    # Two judges count an unfinished puzzle at time-up (``Championship.second_count``).
    second_count: bool = False
    # Stages of parallel groups by category kind (``championship.layouts``), where the
    # preset lays its rounds out so; used while the rules' stages are the layout's. A kind
    # without one gets one round per stage.
    layouts: Mapping[str, Layout] = field(default_factory=dict)


def gettext_noop(message: str) -> str:
    """Mark ``message`` for translation and return it unchanged (the page translates it).

    This module imports nothing from Django; ``makemessages`` finds the marked
    strings by this name all the same.
    """
    return message


PARAMETERS = tuple(f.name for f in dataclasses.fields(Ruleset))


# How each parameter's value is checked: (kind, allowed values or minimum).
_CHOICES = {
    "eligibility": ELIGIBILITY_KINDS,
    "penalty_charges": PENALTY_CHARGES,
    "seating_first_round": SEATING_FIRST_ROUND,
    "seating_later_rounds": SEATING_LATER_ROUNDS,
    "heat_split": HEAT_SPLITS,
}
_OPTIONAL_CHOICES = {"seating_later_rounds"}
_STRINGS = {"eligibility_region", "eligibility_citizenship"}
_BOOLEANS = {
    "unofficial_allowed",
    "one_entry_per_person_per_category",
    "entries_represent_country",
    "neutral_flag_allowed",
    "check_in_required",
    "individual_start_times",
    "pieces_found_later",
    "adjacent_missing_waives_penalty",
    "misplaced_finish_is_unfinished",
    "invalid_attempts_placed",
    "unofficial_advance_only_if_better",
    "title_to_best_official",
}
# Whole numbers, with their least value; optional ones may also be None.
_INTEGERS = {
    "eligibility_region_min_years": 0,
    "reserved_guest_tables_max": 0,
    "penalty_seconds_per_piece": 0,
    "counted_cluster_min_pieces": 1,
    "prize_places": 0,
}
_OPTIONAL_INTEGERS = {
    "pair_official_min_eligible": 0,
    "team_official_min_eligible": 0,
    "min_age_individual": 0,
    "min_age_pair": 0,
    "min_age_team": 0,
    "adult_required_below": 0,
    "registration_closes_days_before": 0,
    "late_arrival_disqualify_minutes": 0,
    "table_sharing_above": 0,
    "max_lost_pieces": 0,
    "late_last_piece_seconds": 0,
}
# Prizes are 1st, 2nd and 3rd at most.
_MAXIMA = {"prize_places": 3}
_STAGE_LISTS = {"rounds_individual", "rounds_pair", "rounds_team"}
_FIELD_LISTS = {"published_fields": PUBLISHABLE_FIELDS}

assert set(PARAMETERS) == (
    set(_CHOICES)
    | _STRINGS
    | _BOOLEANS
    | set(_INTEGERS)
    | set(_OPTIONAL_INTEGERS)
    | _STAGE_LISTS
    | set(_FIELD_LISTS)
), "every parameter needs a check"


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_parameter(name: str, value: Any) -> Any:
    """Return ``value`` as the parameter ``name`` holds it, or raise ``RulesetError``."""

    def bad(message: str) -> RulesetError:
        return RulesetError(name, "invalid_value", message)

    if name in _CHOICES:
        if value is None and name in _OPTIONAL_CHOICES:
            return None
        if value not in _CHOICES[name]:
            raise bad(f"must be one of {', '.join(_CHOICES[name])}, not {value!r}")
        return value
    if name in _STRINGS:
        if not isinstance(value, str):
            raise bad(f"must be text, not {value!r}")
        return value
    if name in _BOOLEANS:
        if not isinstance(value, bool):
            raise bad(f"must be true or false, not {value!r}")
        return value
    if name in _INTEGERS or name in _OPTIONAL_INTEGERS:
        if value is None and name in _OPTIONAL_INTEGERS:
            return None
        least = _INTEGERS.get(name, _OPTIONAL_INTEGERS.get(name))
        most = _MAXIMA.get(name)
        if not _is_int(value) or value < least or (most is not None and value > most):
            span = f"from {least} to {most}" if most is not None else f"of at least {least}"
            raise bad(f"must be a whole number {span}, not {value!r}")
        return value
    if name in _STAGE_LISTS:
        if (
            not isinstance(value, list | tuple)
            or not value
            or any(stage not in STAGES for stage in value)
            or list(value) != sorted(value, key=STAGES.index)
            or len(set(value)) != len(value)
            or value[-1] != "final"
        ):
            raise bad(f"must be a list of stages in order from {', '.join(STAGES)} ending in final")
        return tuple(value)
    allowed = _FIELD_LISTS[name]
    if not isinstance(value, list | tuple) or any(item not in allowed for item in value):
        raise bad(f"must be a list of fields from {', '.join(allowed)}")
    return tuple(value)


# What each parameter means, in one line: the page that edits the rules shows it beside
# the value, and docs/rulesets.md's table starts each parameter's meaning with it.
PARAMETER_HELP: Mapping[str, str] = MappingProxyType(
    {
        "eligibility": gettext_noop("who is eligible to take part officially"),
        "eligibility_region": gettext_noop(
            "the region required when eligibility is region_residence"
        ),
        "eligibility_region_min_years": gettext_noop(
            "earlier continuous residence must be more than this many years"
        ),
        "eligibility_citizenship": gettext_noop(
            "the country of citizenship required when eligibility is citizenship"
        ),
        "unofficial_allowed": gettext_noop(
            "the not-eligible may take part unofficially (hors concours)"
        ),
        "pair_official_min_eligible": gettext_noop("eligible members a pair needs to be official"),
        "team_official_min_eligible": gettext_noop("eligible members a team needs to be official"),
        "min_age_individual": gettext_noop(
            "minimum age in the individual category, on the championship's date"
        ),
        "min_age_pair": gettext_noop("minimum age in pairs and teams"),
        "min_age_team": gettext_noop("minimum age in pairs and teams"),
        "adult_required_below": gettext_noop("below this age an accompanying adult is required"),
        "registration_closes_days_before": gettext_noop(
            "calendar days before the start registration closes"
        ),
        "one_entry_per_person_per_category": gettext_noop(
            "nobody in two entries of a category (withdrawn ones aside)"
        ),
        "entries_represent_country": gettext_noop(
            "each entry represents a country, chosen at registration (country places go by it)"
        ),
        "neutral_flag_allowed": gettext_noop(
            "an entry may represent the neutral flag instead of a country"
        ),
        "check_in_required": gettext_noop(
            "a category's first round seats only checked-in confirmed entries"
        ),
        "late_arrival_disqualify_minutes": gettext_noop(
            "the judges' dashboard flags a seated entry not checked in, with nothing "
            "recorded at its table, this many minutes after its start"
        ),
        "rounds_individual": gettext_noop("the stages of each category's rounds"),
        "rounds_pair": gettext_noop("the stages of each category's rounds"),
        "rounds_team": gettext_noop("the stages of each category's rounds"),
        "seating_first_round": gettext_noop(
            "prior_ranking: the first round is seated by prior ranking, then registration "
            "time, and no other order is accepted; organiser: the organiser chooses prior "
            "ranking (the default), registration time or random"
        ),
        "seating_later_rounds": gettext_noop(
            "previous_placement: later rounds are seated by placement in the previous round "
            "only; none (null in the API and the interchange): the organiser chooses"
        ),
        "heat_split": gettext_noop(
            "entrants are dealt to heats in serpentine order; equal: sizes differ by at most "
            "one (total / heats) and sizes cannot be given; organiser: the organiser may give "
            "each heat's size"
        ),
        "table_sharing_above": gettext_noop(
            "above this many individual entrants, two may share an ordinary table"
        ),
        "reserved_guest_tables_max": gettext_noop(
            'how many tables marked "reserved for guests" take unofficial entries first, '
            "in each heat"
        ),
        "individual_start_times": gettext_noop(
            "an entrant may get a later start of their own (taped bag)"
        ),
        "penalty_seconds_per_piece": gettext_noop("seconds per charged missing piece"),
        "penalty_charges": gettext_noop(
            'which missing pieces are charged: only those found later, or all missing at "TIME"'
        ),
        "max_lost_pieces": gettext_noop("more missing pieces than this make the attempt invalid"),
        "invalid_attempts_placed": gettext_noop(
            "invalid attempts share one place after every valid one; otherwise they are "
            "listed without a place"
        ),
        "pieces_found_later": gettext_noop(
            'a piece missing at "TIME" may turn up later (bag, floor)'
        ),
        "adjacent_missing_waives_penalty": gettext_noop(
            "the judge records how many of the lost pieces were adjacent (2 or more side by "
            "side, never found): those cost nothing (a manufacturing fault)"
        ),
        "late_last_piece_seconds": gettext_noop(
            "the late-last-piece rule's search window, in seconds"
        ),
        "misplaced_finish_is_unfinished": gettext_noop(
            '"TIME" with misplaced pieces is not a completion'
        ),
        "counted_cluster_min_pieces": gettext_noop(
            "pieces count in clusters of at least this many"
        ),
        "unofficial_advance_only_if_better": gettext_noop(
            "an unofficial entrant advances only if better than the last official qualifier"
        ),
        "prize_places": gettext_noop("prizes for official places 1..N"),
        "title_to_best_official": gettext_noop("the title goes to the best official entry"),
        "published_fields": gettext_noop("what result lists may publish, with consent"),
    }
)


@dataclass(frozen=True)
class ParameterSpec:
    """What values a parameter takes, for a form that edits it.

    ``kind`` is ``choice``, ``text``, ``boolean``, ``integer``, ``stages`` or
    ``fields``; ``choices`` the allowed values (choice, fields); ``least`` and
    ``most`` bound an integer; ``optional``: ``None`` is allowed too.
    """

    name: str
    kind: str
    choices: tuple[str, ...] = ()
    least: int | None = None
    most: int | None = None
    optional: bool = False


def parameter_spec(name: str) -> ParameterSpec:
    """Return how the parameter ``name`` is checked, as a form needs to offer it."""
    if name in _CHOICES:
        return ParameterSpec(name, "choice", _CHOICES[name], optional=name in _OPTIONAL_CHOICES)
    if name in _STRINGS:
        return ParameterSpec(name, "text")
    if name in _BOOLEANS:
        return ParameterSpec(name, "boolean")
    if name in _INTEGERS or name in _OPTIONAL_INTEGERS:
        least = _INTEGERS.get(name, _OPTIONAL_INTEGERS.get(name))
        return ParameterSpec(
            name,
            "integer",
            least=least,
            most=_MAXIMA.get(name),
            optional=name in _OPTIONAL_INTEGERS,
        )
    if name in _STAGE_LISTS:
        return ParameterSpec(name, "stages", STAGES)
    if name in _FIELD_LISTS:
        return ParameterSpec(name, "fields", _FIELD_LISTS[name])
    raise RulesetError(name, "unknown_parameter", f'unknown parameter "{name}"')
