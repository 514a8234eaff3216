"""How entries advance from a round: the mode and numbers, country places, and where they go."""

from __future__ import annotations

from dataclasses import asdict, dataclass

from django.db import transaction
from django.utils.translation import gettext as _

from championship.errors import RoundStateError
from championship.models import Round
from results.services import round_lock, round_recompute


@dataclass(frozen=True)
class CountrySettings:
    """The settings of country places (``Round.Advance.COUNTRY``), as the model's fields."""

    advance_country_places: int | None = None
    advance_country_requires_completion: bool = False
    advance_per_country: int = 1
    advance_only_countries_without_qualifier: bool = False


# Keep the round's ``into`` as it is (``round_set_advance``).
KEEP = object()


@transaction.atomic
def round_set_advance(
    *,
    round_: Round,
    advance: str,
    count: int | None,
    best_remaining: int | None,
    country: CountrySettings | None = None,
    into: Round | object | None = KEEP,
) -> Round:
    """Set how entries advance from a round, and mark the qualified anew.

    ``country``: the country places' settings (``None``: those the round has;
    a round of another mode gets the defaults); ``into``: the round the
    qualifiers go to (``None``: the category's next round), or ``KEEP``.
    Allowed until the round they go to is seated: an organiser who forgot to
    set it before the round can still do it when the results are in.
    """
    locked = round_lock(round_)
    following = locked.next_round()
    if following is not None and following.seats.exists():
        raise RoundStateError(
            _("The next round is seated: advancement from this round can no longer change.")
        )
    fields = {"advance": advance, "advance_count": count, "advance_best_remaining": best_remaining}
    if advance != Round.Advance.COUNTRY:
        fields |= asdict(CountrySettings())
    elif country is not None:
        fields |= asdict(country)
    if into is not KEEP:
        if into is not None and into.seats.exists():
            raise RoundStateError(
                _("%(round)s is seated: choose a round not seated yet.")
                % {"round": into.display_name}
            )
        fields["into"] = into
    for name, value in fields.items():
        setattr(locked, name, value)
    locked.full_clean()
    locked.save(update_fields=[*fields, "updated_at"])
    round_recompute(locked)
    return locked
