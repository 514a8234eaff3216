"""A championship's draft state: the checklist before it opens, and opening it.

A championship made in the browser or through the API starts as a draft: not
listed, registration closed, its public pages shown only to its staff. The
checklist says what it still lacks; ``championship_open`` publishes it and opens
registration once nothing it needs is missing.

The checklist's items, in the order the control room shows them. Those marked
``needed`` must hold before registration opens (the API answers 409 with their
keys in ``missing``); tables and judges are needed on the day, not to take
registrations, so they are shown but do not hold the opening back.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from championship.models import Championship, ChampionshipRole, Round, Table
from core import l10n

CATEGORIES = "categories"
FEES = "fees"
PAYMENT_INSTRUCTIONS = "payment_instructions"
DEADLINE = "deadline"
ROUNDS = "rounds"
TABLES = "tables"
JUDGES = "judges"
# The items that hold the opening back, in the checklist's order.
NEEDED = (CATEGORIES, FEES, PAYMENT_INSTRUCTIONS, DEADLINE, ROUNDS)


@dataclass(frozen=True)
class Item:
    """One line of the checklist: whether it holds, and what it says."""

    key: str
    done: bool
    needed: bool
    title: str
    detail: str


def checklist(championship: Championship, *, now=None) -> list[Item]:
    """Return the championship's checklist, in the order the control room shows it."""
    now = now or timezone.now()
    categories = list(championship.categories.order_by("order"))
    with_rounds = set(
        Round.objects.filter(championship=championship)
        .order_by()
        .values_list("category_id", flat=True)
        .distinct()
    )
    tables = Table.objects.filter(championship=championship).count()
    judges = (
        ChampionshipRole.objects.filter(
            championship=championship,
            role__in=[ChampionshipRole.Role.JUDGE, ChampionshipRole.Role.HEAD_JUDGE],
        )
        .values("user")
        .distinct()
        .count()
    )
    charged = [category for category in categories if category.fee > 0]
    deadline = championship.effective_registration_deadline()
    without_rounds = [c.display_name for c in categories if c.pk not in with_rounds]
    return [
        Item(
            CATEGORIES,
            done=bool(categories),
            needed=True,
            title=_("Categories"),
            detail=", ".join(c.display_name for c in categories) or _("Add at least one category."),
        ),
        Item(
            FEES,
            done=bool(categories) and bool(championship.currency),
            needed=True,
            title=_("Fees and currency"),
            detail=", ".join(
                f"{c.display_name}: {l10n.money(c.fee, championship.currency)}" for c in categories
            )
            or _("Fees are set per category."),
        ),
        Item(
            PAYMENT_INSTRUCTIONS,
            done=not charged or bool(championship.payment_instructions.strip()),
            needed=True,
            title=_("Payment instructions"),
            detail=(
                _("Entrants are told how to pay.")
                if championship.payment_instructions.strip()
                else _("No fee is charged.")
                if not charged
                else _("Say how entrants pay the fee (account, Vipps, Swish or MobilePay).")
            ),
        ),
        Item(
            DEADLINE,
            done=now < deadline,
            needed=True,
            title=_("Registration deadline"),
            detail=(
                _("Registration closes %(deadline)s.") % {"deadline": _when(deadline, championship)}
                if now < deadline
                else _("The deadline (%(deadline)s) has passed: set a later one.")
                % {"deadline": _when(deadline, championship)}
            ),
        ),
        Item(
            ROUNDS,
            done=bool(categories) and not without_rounds,
            needed=True,
            title=_("Rounds"),
            detail=(
                _("Without rounds: %(categories)s.") % {"categories": ", ".join(without_rounds)}
                if without_rounds
                else _("Every category has its rounds.")
            ),
        ),
        Item(
            TABLES,
            done=tables > 0,
            needed=False,
            title=_("Tables"),
            detail=ngettext("%(count)d table.", "%(count)d tables.", tables) % {"count": tables}
            if tables
            else _("Needed for seating, not to open registration."),
        ),
        Item(
            JUDGES,
            done=judges > 0,
            needed=False,
            title=_("Judges"),
            detail=ngettext("%(count)d judge.", "%(count)d judges.", judges) % {"count": judges}
            if judges
            else _("Needed on the day, not to open registration."),
        ),
    ]


def _when(moment, championship: Championship) -> str:
    """Return a moment as the championship's wall clock shows it, in the active language."""
    return formats.date_format(timezone.localtime(moment, championship.tzinfo), "DATETIME_FORMAT")


def missing(championship: Championship, *, now=None) -> list[str]:
    """Return the keys of the checklist's items that still hold the opening back."""
    return [item.key for item in checklist(championship, now=now) if item.needed and not item.done]


@transaction.atomic
def championship_open(*, championship: Championship, now=None) -> Championship:
    """Publish a draft and open its registration; refuse, naming what is missing.

    Opening an open championship changes nothing. The refusal is a ``ValidationError``
    whose ``params["missing"]`` lists the checklist's keys (the API's 409 answer).
    """
    championship = Championship.objects.select_for_update().get(pk=championship.pk)
    if not championship.draft:
        return championship
    lacking = [item for item in checklist(championship, now=now) if item.needed and not item.done]
    if lacking:
        raise ValidationError(
            _("Registration cannot open yet: %(missing)s.")
            % {"missing": ", ".join(item.title for item in lacking)},
            code="missing",
            params={"missing": [item.key for item in lacking]},
        )
    championship.draft = False
    championship.save(update_fields=["draft", "updated_at"])
    return championship
