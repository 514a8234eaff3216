"""Write the championship's set-up: every function owns its transaction."""

from __future__ import annotations

from datetime import datetime

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from championship import rulesets
from championship.models import Category, Championship, ChampionshipRole, Round, Seat, Table


@transaction.atomic
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
) -> Championship:
    """Create a championship from a preset, with its three categories and their rounds.

    The preset supplies the time zone, currency, language and each category's
    members, pieces, time limit, capacity and fee; the rounds follow the preset's
    stages (one final, or preliminaries and a final).
    """
    preset = rulesets.get_preset(ruleset)
    championship = Championship(
        slug=slug,
        name=name,
        ruleset=ruleset,
        rule_overrides=rule_overrides or {},
        starts_at=starts_at,
        venue=venue,
        timezone=timezone or preset.timezone,
        currency=currency or preset.currency,
        language=language or preset.language,
    )
    championship.full_clean()
    championship.save()
    if with_categories:
        rules = championship.rules
        for order, kind in enumerate(rulesets.CATEGORY_KINDS, start=1):
            defaults = preset.categories[kind]
            category = Category(
                championship=championship,
                key=kind,
                kind=kind,
                order=order,
                min_members=defaults.min_members,
                max_members=defaults.max_members,
                pieces=defaults.pieces,
                time_limit_minutes=defaults.time_limit_minutes,
                capacity=defaults.capacity,
                fee=defaults.fee,
            )
            category.full_clean()
            category.save()
            rounds_create_for_stages(category=category, stages=rules.rounds_for(kind))
    return championship


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


@transaction.atomic
def tables_create(
    *, championship: Championship, count: int, seats: int = 1, first_number: int | None = None
) -> list[Table]:
    """Add ``count`` numbered tables after the championship's last one, each with a new token."""
    if count < 1:
        raise ValidationError({"count": _("Add at least one table.")})
    if seats not in (1, 2):
        raise ValidationError({"seats": _("A table seats one or two entrants.")})
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
        Table(championship=championship, number=number, seats=seats)
        for number in range(first_number, first_number + count)
    ]
    return Table.objects.bulk_create(tables)


@transaction.atomic
def role_grant(*, championship: Championship, user, role: str) -> ChampionshipRole:
    """Give ``user`` a role in ``championship`` (idempotent)."""
    granted, _created = ChampionshipRole.objects.get_or_create(
        championship=championship, user=user, role=role
    )
    return granted


@transaction.atomic
def table_update(*, table: Table, label: str, seats: int, reserved_for_guests: bool) -> Table:
    """Change a table's label, seats and guest reservation.

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
    locked.full_clean()
    locked.save(update_fields=["label", "seats", "reserved_for_guests"])
    return locked
