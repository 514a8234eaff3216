"""Write the championship's set-up: every function owns its transaction."""

from __future__ import annotations

import secrets
import zoneinfo
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import transaction
from django.db.models import F
from django.utils import timezone as django_timezone
from django.utils.translation import gettext as _

from championship import payees, presets, rulesets
from championship.models import (
    Category,
    Championship,
    ChampionshipRole,
    Round,
    Seat,
    Table,
    new_token,
    validate_timezone,
)
from championship.permissions import roles_forget

# The set-up of a new championship's categories and rounds; callers use them from here.
from championship.setups import (  # noqa: F401
    CategorySetUp,
    RoundSetUp,
    categories_of_preset,
    round_name,
    stages_of,
)


def _aware(starts_at: datetime, zone: str) -> datetime:
    """Return ``starts_at``; without an offset, as a wall-clock time in ``zone``."""
    if django_timezone.is_aware(starts_at):
        return starts_at
    return django_timezone.make_aware(starts_at, zoneinfo.ZoneInfo(zone))


def _prefixed(error: ValidationError, prefix: str) -> ValidationError:
    """Return ``error`` with its fields named ``<prefix>.<field>`` (``categories.0.fee``)."""
    if not hasattr(error, "error_dict"):
        return ValidationError({prefix: error.messages})
    return ValidationError(
        {
            prefix if field == NON_FIELD_ERRORS else f"{prefix}.{field}": messages
            for field, messages in error.message_dict.items()
        }
    )


@transaction.atomic
def championship_set_up(
    *,
    by=None,
    preset: str,
    name: str,
    slug: str,
    starts_at: datetime,
    timezone: str | None = None,
    venue: str = "",
    currency: str | None = None,
    language: str | None = None,
    categories: Sequence[CategorySetUp] | None = None,
    rule_overrides: dict | None = None,
    draft: bool = False,
    payment_instructions: str = "",
    registration_deadline: datetime | None = None,
    payment: Mapping[str, Any] | None = None,
) -> Championship:
    """Create a championship from a preset with the categories and rounds as edited.

    ``payment``: where and how entrants pay (``championship.payees.SETTINGS``), checked
    as the edit page checks it.

    Whatever is not given comes from the preset: time zone, currency, language,
    and the categories with their rounds (``categories_of_preset``). A
    ``starts_at`` without an offset is the wall-clock time in the championship's
    time zone. A category whose stages differ from the preset's records them as a
    rule override (``rounds_<kind>``), so that the rules and the rounds agree.
    ``by``, the user who creates it, becomes its organiser. A ``draft`` is not listed
    and takes no registrations until it is opened (``championship.drafts``).

    Refused input raises ``ValidationError`` naming the field, a category's as
    ``categories.<index>.<field>`` and a round's as
    ``categories.<index>.rounds.<index>.<field>``.
    """
    chosen = presets.get_preset(preset) if preset in presets.PRESETS else None
    overrides = dict(rule_overrides or {})
    zone = timezone or (chosen.timezone if chosen else "")
    errors: dict[str, list] = {}
    if chosen is None:
        errors["ruleset"] = [
            _("Choose one of the presets: %(presets)s.")
            % {"presets": ", ".join(presets.PRESET_KEYS)}
        ]
    try:
        validate_timezone(zone)
    except ValidationError as error:
        errors["timezone"] = error.messages
    if errors:
        raise ValidationError(errors)
    if categories is None:
        try:
            categories = categories_of_preset(preset, overrides)
        except rulesets.RulesetError as error:
            raise ValidationError({"rule_overrides": [error.message]}) from None
    kinds = [category.kind for category in categories]
    if len(set(kinds)) != len(kinds):
        raise ValidationError({"categories": [_("Each kind of category only once.")]})
    for index, category in enumerate(categories):
        errors.update(_category_errors(category, prefix=f"categories.{index}"))
        stages = stages_of(category)
        if category.kind in rulesets.CATEGORY_KINDS and stages != chosen.rules.rounds_for(
            category.kind
        ):
            overrides[f"rounds_{category.kind}"] = list(stages)
    if errors:
        raise ValidationError(errors)
    unknown = set(payment or {}) - set(payees.SETTINGS)
    if unknown:
        raise TypeError(f"not a payment setting: {', '.join(sorted(unknown))}")
    championship = Championship(
        slug=slug,
        name=name,
        ruleset=preset,
        rule_overrides=overrides,
        starts_at=_aware(starts_at, zone),
        venue=venue,
        timezone=zone,
        currency=currency or chosen.currency,
        language=language or chosen.language,
        member_changes_days_before=chosen.member_changes_days_before,
        second_count=chosen.second_count,
        draft=draft,
        payment_instructions=payment_instructions,
        registration_deadline=registration_deadline and _aware(registration_deadline, zone),
        **(payment or {}),
    )
    # Without a query per constraint (see the note before ``_category_errors``); the slug's
    # uniqueness is still checked.
    championship.full_clean(validate_constraints=False)
    championship.save()
    for index, setup in enumerate(categories):
        _category_create(championship, setup, order=index + 1, prefix=f"categories.{index}")
    if by is not None:
        role_grant(championship=championship, user=by, role=ChampionshipRole.Role.ORGANISER)
    return championship


# A new championship's categories and rounds are validated without a query per constraint (a
# championship set up from a preset took 85 queries, 72 of them these): each check constraint
# is repeated in Python, by the field's choices or validators (ruleset, currency, kind, pieces,
# fee, members, puzzles), the bounds of the time limits, ``Category.clean`` (the members'
# range) and ``Round.clean`` (the advancement's settings); ``_category_errors`` checks each
# kind once and the round keys unique within a category, so the keys are unique by
# construction (a category's is its kind, a round's starts with it). The database's
# constraints still stand behind them (tests/championship/test_constraints_in_python.py
# holds each check in Python to its constraint).


def _category_errors(setup: CategorySetUp, *, prefix: str) -> dict[str, list]:
    """Return what is wrong with a category's members and rounds, by field."""
    errors = {}
    if setup.kind not in rulesets.CATEGORY_KINDS:
        errors[f"{prefix}.kind"] = [_("Choose individual, pair or team.")]
    if setup.max_members < setup.min_members:
        errors[f"{prefix}.max_members"] = [_("At least as many as the minimum.")]
    stages = [round_.stage for round_ in setup.rounds]
    # A stage's rounds are its groups, each with a key of its own; a stage without
    # groups is one round.
    keys = [round_.key_suffix for round_ in setup.rounds]
    if (
        not stages
        or stages[-1] != "final"
        or stages.count("final") != 1
        or len(set(keys)) != len(keys)
        or any(stage not in rulesets.STAGES for stage in stages)
        or stages != sorted(stages, key=rulesets.STAGES.index)
    ):
        errors[f"{prefix}.rounds"] = [
            _("The rounds go in the order prelim, semifinal, final, and end in the final.")
        ]
    elif any(
        round_.into and round_.into not in keys[index + 1 :]
        for index, round_ in enumerate(setup.rounds)
    ):
        errors[f"{prefix}.rounds"] = [_("A round's qualifiers go to a later round.")]
    return errors


def _category_create(
    championship: Championship, setup: CategorySetUp, *, order: int, prefix: str
) -> Category:
    category = Category(
        championship=championship,
        key=setup.kind,
        kind=setup.kind,
        name=setup.name,
        order=order,
        min_members=setup.min_members,
        max_members=setup.max_members,
        pieces=setup.pieces,
        time_limit_minutes=setup.time_limit_minutes,
        capacity=setup.capacity,
        fee=setup.fee,
    )
    try:
        category.full_clean(exclude=["championship"], validate_constraints=False)
    except ValidationError as error:
        raise _prefixed(error, prefix) from None
    category.save()
    created: dict[str, Round] = {}
    for number, round_setup in enumerate(setup.rounds, start=1):
        last = number == len(setup.rounds)
        # Nobody advances from the final.
        advance = Round.Advance.NONE if last else round_setup.advance
        country = advance == Round.Advance.COUNTRY
        round_ = Round(
            category=category,
            key=f"{category.key}-{round_setup.key_suffix}",
            name=round_name(round_setup, championship.language),
            order=number,
            stage=round_setup.stage,
            pieces=round_setup.pieces,
            puzzles=round_setup.puzzles,
            time_limit_minutes=round_setup.time_limit_minutes,
            advance=advance,
            advance_count=None if last else round_setup.advance_count,
            advance_best_remaining=None if last else round_setup.advance_best_remaining,
            advance_country_places=round_setup.advance_country_places if country else None,
            advance_country_requires_completion=(
                country and round_setup.advance_country_requires_completion
            ),
            advance_per_country=round_setup.advance_per_country if country else 1,
            advance_only_countries_without_qualifier=(
                country and round_setup.advance_only_countries_without_qualifier
            ),
        )
        round_.championship = championship
        try:
            round_.full_clean(exclude=["category", "into"], validate_constraints=False)
        except ValidationError as error:
            raise _prefixed(error, f"{prefix}.rounds.{number - 1}") from None
        round_.save()
        created[round_setup.key_suffix] = round_
    for round_setup in setup.rounds:
        if round_setup.into:
            # A layout's groups feed a round of the next stage (checked: a later one).
            round_ = created[round_setup.key_suffix]
            round_.into = created[round_setup.into]
            round_.save(update_fields=["into"])
    return category


def championship_create(
    *,
    slug: str,
    name: str,
    ruleset: str,
    starts_at: datetime,
    venue: str = "",
    rule_overrides: dict | None = None,
    timezone: str | None = None,
    currency: str | None = None,
    language: str | None = None,
    with_categories: bool = True,
    draft: bool = False,
) -> Championship:
    """Create a championship from a preset, with its three categories and their rounds.

    The preset supplies the time zone, currency, language and each category's
    members, pieces, time limit, capacity and fee; the rounds follow the preset's
    stages (one final, or preliminaries and a final).
    """
    return championship_set_up(
        preset=ruleset,
        name=name,
        slug=slug,
        starts_at=starts_at,
        timezone=timezone,
        venue=venue,
        currency=currency,
        language=language,
        categories=None if with_categories else [],
        rule_overrides=rule_overrides,
        draft=draft,
    )


def rounds_create_for_stages(*, category: Category, stages: tuple[str, ...]) -> list[Round]:
    """Create a category's rounds, one per stage, keyed ``<category>-<stage>``."""
    created = []
    with transaction.atomic():
        for order, stage in enumerate(stages, start=1):
            round_ = Round(
                category=category,
                key=f"{category.key}-{stage}",
                order=order,
                stage=stage,
            )
            round_.championship = category.championship
            round_.full_clean()
            round_.save()
            created.append(round_)
    return created


def _table_group(group: str) -> str:
    """Return a table's group as stored: without surrounding spaces, at most 50 characters."""
    group = group.strip()
    if len(group) > Table._meta.get_field("group").max_length:
        raise ValidationError({"group": _("A group's name has at most 50 characters.")})
    return group


@transaction.atomic
def tables_create(
    *,
    championship: Championship,
    count: int,
    seats: int = 1,
    first_number: int | None = None,
    group: str = "",
) -> list[Table]:
    """Add ``count`` numbered tables after the championship's last one, each with a new token.

    ``group``: where the new tables stand (``Table.group``), empty for none.
    """
    if count < 1:
        raise ValidationError({"count": _("Add at least one table.")})
    if seats not in (1, 2):
        raise ValidationError({"seats": _("A table seats one or two entrants.")})
    group = _table_group(group)
    # Locked, so that two organisers adding tables at once number them one after the other.
    Championship.objects.select_for_update().get(pk=championship.pk)
    if first_number is None:
        last = championship.tables.order_by("-number").values_list("number", flat=True).first()
        first_number = (last or 0) + 1
    numbers = range(first_number, first_number + count)
    taken = championship.tables.filter(number__in=numbers).values_list("number", flat=True)
    if taken:
        raise ValidationError(
            {"first_number": [_("Table %(number)s exists already.") % {"number": min(taken)}]}
        )
    tables = [
        Table(championship=championship, number=number, seats=seats, group=group)
        for number in range(first_number, first_number + count)
    ]
    return Table.objects.bulk_create(tables)


@transaction.atomic
def role_grant(*, championship: Championship, user, role: str) -> ChampionshipRole:
    """Give ``user`` a role in ``championship`` (idempotent)."""
    granted, _created = ChampionshipRole.objects.get_or_create(
        championship=championship, user=user, role=role
    )
    roles_forget(user)
    return granted


@transaction.atomic
def table_update(
    *,
    table: Table,
    label: str,
    seats: int,
    reserved_for_guests: bool,
    group: str | None = None,
) -> Table:
    """Change a table's label, seats, guest reservation and (unless ``None``) group.

    A table cannot go down to one seat while an entry sits at its second seat
    in a heat where time is not yet up.
    """
    locked = Table.objects.select_for_update().get(pk=table.pk)
    if (
        seats < 2
        and Seat.objects.filter(table=locked, position=2, heat__ended_at__isnull=True).exists()
    ):
        raise ValidationError(
            {"seats": _("An entry sits at this table's second seat: move it first.")}
        )
    locked.label, locked.seats, locked.reserved_for_guests = label, seats, reserved_for_guests
    fields = ["label", "seats", "reserved_for_guests"]
    if group is not None:
        locked.group = _table_group(group)
        fields.append("group")
    locked.full_clean()
    locked.save(update_fields=fields)
    return locked


@transaction.atomic
def tables_set_group(*, championship: Championship, first: int, last: int, group: str) -> int:
    """Put the tables numbered ``first`` to ``last`` in ``group`` (empty: in none).

    Return how many tables there are in that range; numbers without a table are
    passed over.
    """
    if first < 1 or last < first:
        raise ValidationError(
            {"last": _("Give the first table's number, then a number not below it.")}
        )
    group = _table_group(group)
    return Table.objects.filter(championship=championship, number__range=(first, last)).update(
        group=group
    )


# Organisers -------------------------------------------------------------------------------

ORGANISERS_GROUP = "Organisers"
CREATE_PERMISSION = "championship.add_championship"
# What the group's members may do in the admin, always limited to the championships they
# organise: everything but deleting a championship and changing judges' captures.
ORGANISER_APPS = ("championship", "registration", "judging", "results")
ORGANISER_EXCLUDED = ("delete_championship", "change_capture", "delete_capture")


def organisers_group() -> Group:
    """Return the group "Organisers", with its permissions complete.

    Its members may create championships (``championship.add_championship``) and
    use the admin for the championships they organise. The migration that
    creates the group can give only the first: the others exist once every
    migration has run.
    """
    group, _created = Group.objects.get_or_create(name=ORGANISERS_GROUP)
    permissions = Permission.objects.filter(content_type__app_label__in=ORGANISER_APPS).exclude(
        codename__in=ORGANISER_EXCLUDED
    )
    group.permissions.add(*permissions)
    return group


@transaction.atomic
def organiser_account_set(
    *, username: str, email: str = "", password: str | None = None
) -> tuple[object, str]:
    """Create or update an organiser's account; return it with its password.

    The account may log in to the site and the admin, is no superuser, and is in
    the group "Organisers": it may create championships and becomes the
    organiser of each one it creates. Without ``password`` a new one is made.
    """
    User = get_user_model()
    user = User.objects.filter(username=username).first()
    if user is not None and user.is_superuser:
        raise ValidationError(
            {"username": [_("“%(username)s” is a superuser already.") % {"username": username}]}
        )
    if user is None:
        user = User(username=username)
        try:
            user.full_clean(exclude=["password"])
        except ValidationError as error:
            raise ValidationError(
                {key: value for key, value in error.message_dict.items() if key != "password"}
            ) from None
    password = password or secrets.token_urlsafe(12)
    user.set_password(password)
    if email:
        user.email = email
    user.is_staff = True
    user.is_active = True
    user.save()
    user.groups.add(organisers_group())
    return user, password


# Editing ------------------------------------------------------------------------------------

# What a round's results pages show of the championship (the printed list's header).
SHOWN_WITH_RESULTS = ("name", "venue", "starts_at")
# In the order the edit page shows them.
CHAMPIONSHIP_EDITABLE = (
    "name",
    "starts_at",
    "registration_deadline",
    "venue",
    "address",
    "payment_instructions",
    *payees.SETTINGS,
    "protest_window_minutes",
    "member_changes_days_before",
    "offer_hours",
    "payment_hours",
    "release_unpaid",
    "second_count",
    "is_public",
    "mail_seating",
    "mail_advanced",
    "mail_results",
)


@transaction.atomic
def championship_update(*, championship: Championship, **changes) -> Championship:
    """Change a championship's name, dates, place, payment, protest window, mails or public
    listing (``CHAMPIONSHIP_EDITABLE``)."""
    unknown = set(changes) - set(CHAMPIONSHIP_EDITABLE)
    if unknown:
        raise TypeError(f"not editable here: {', '.join(sorted(unknown))}")
    locked = Championship.objects.select_for_update().get(pk=championship.pk)
    shown = [getattr(locked, name) for name in SHOWN_WITH_RESULTS]
    for name, value in changes.items():
        setattr(locked, name, value)
    locked.full_clean()
    locked.save(update_fields=[*changes, "updated_at"])
    if [getattr(locked, name) for name in SHOWN_WITH_RESULTS] != shown:
        # A printed result list is headed by the championship's name, venue and day.
        Round.objects.filter(championship=locked).update(version=F("version") + 1)
    return locked


@transaction.atomic
def championship_cancel(*, championship: Championship, now=None) -> Championship:
    """Call the championship off: registration closes, its page says so, and every fee paid is
    owed back (``payments.refunds``). Cancelling again changes nothing."""
    locked = Championship.objects.select_for_update().get(pk=championship.pk)
    if locked.cancelled_at is None:
        locked.cancelled_at = now or django_timezone.now()
        locked.save(update_fields=["cancelled_at", "updated_at"])
    return locked


@transaction.atomic
def table_rotate_token(*, table: Table) -> Table:
    """Give a table a new QR token; the old one stops working at once."""
    table = Table.objects.select_for_update().get(pk=table.pk)
    table.token = new_token()
    table.save(update_fields=["token"])
    return table
