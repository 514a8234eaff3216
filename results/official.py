"""Signing a round's results off: provisional after time-up, official once signed.

provisional
    From time-up until the sign-off: the results pages, the projector, the API
    and the CSV say the results may still change (a protest, a correction).
official
    A head judge or an organiser signs the round off once every entry has a
    result and the championship's protest window after time-up has passed. From
    then on only a head judge's correction, with its reason, changes a result;
    each such correction is listed on the round (``Round.corrections``) and the
    round shows as corrected, with the reasons.
the next round's seating
    Where the category's next round is seated (from provisional results, say),
    the sign-off is refused while the entries seated there are not the entries
    that qualified here: a withdrawal, a walk-over or a member's corrected
    details re-ranked the round since. The refusal names who qualified but is
    not seated, and who is seated but no longer qualifies; seating the next
    round again settles it. An entry seated there that is withdrawn or a
    walk-over takes no part and is not counted against the seating (the entry
    that qualifies in its stead is named). Once a heat of the next round has
    started its seating can no longer change and the check no longer applies:
    the sign-off is never blocked for good.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.db.models import F
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from championship.errors import RoundStateError
from championship.models import Round, Seat
from registration.models import Entry
from results.models import Result
from results.services import results_missing, round_lock, standings_ensure


def sign_off_refusal(round_: Round, now: datetime | None = None) -> str | None:
    """Return why ``round_`` cannot be signed off now, or ``None`` when it can."""
    if round_.is_official:
        return _("The results of this round are already official.")
    if round_.state != Round.State.CLOSED:
        return _("Time is not up in every heat of this round yet.")
    missing = results_missing(round_)
    if missing:
        return ngettext(
            "%(count)s entry has no result yet.",
            "%(count)s entries have no result yet.",
            missing,
        ) % {"count": missing}
    mismatch = next_round_mismatch(round_)
    if mismatch:
        return mismatch
    until = round_.protests_until()
    if until is not None and (now or timezone.now()) < until:
        local = timezone.localtime(until, round_.championship.tzinfo)
        return _("Entrants may protest until %(time)s: sign the results off after that.") % {
            "time": formats.time_format(local, "H:i")
        }
    return None


def next_round_mismatch(round_: Round) -> str | None:
    """Return how the next round's seating differs from who qualified in ``round_``, or ``None``.

    ``None`` too where the next round is not seated, or has started (its seating
    can no longer change). Entries seated there that are withdrawn or walk-overs
    are not counted: they take no part.
    """
    following = round_.next_round()
    if following is None:
        return None
    seated = set(Seat.objects.filter(round=following).values_list("entry_id", flat=True))
    if not seated or following.heats.filter(started_at__isnull=False).exists():
        return None
    standings_ensure(round_)
    qualified = set(
        Result.objects.filter(round=round_, qualified=True).values_list("entry_id", flat=True)
    )
    not_seated = qualified - seated
    no_longer = set(
        Entry.objects.filter(pk__in=seated - qualified, walkover_at__isnull=True)
        .exclude(status=Entry.Status.WITHDRAWN)
        .values_list("pk", flat=True)
    )
    if not not_seated and not no_longer:
        return None
    names = _names_in_standing_order(round_, not_seated | no_longer)
    parts = [
        _(
            "The seating of %(round)s no longer matches who qualified in this round: seat "
            "%(round)s again, then sign the results off."
        )
        % {"round": following.display_name}
    ]
    if not_seated:
        listed = [name for pk, name in names if pk in not_seated]
        parts.append(
            ngettext(
                "%(names)s qualified but is not seated there.",
                "%(names)s qualified but are not seated there.",
                len(listed),
            )
            % {"names": ", ".join(listed)}
        )
    if no_longer:
        listed = [name for pk, name in names if pk in no_longer]
        parts.append(
            ngettext(
                "%(names)s is seated there but no longer qualifies.",
                "%(names)s are seated there but no longer qualify.",
                len(listed),
            )
            % {"names": ", ".join(listed)}
        )
    return " ".join(parts)


def _names_in_standing_order(round_: Round, entry_ids: set[int]) -> list[tuple[int, str]]:
    """Return the entries' (id, name) in ``round_``'s standing order, those without a place last."""
    places = dict(
        Result.objects.filter(round=round_, entry__in=entry_ids).values_list("entry_id", "place")
    )
    entries = Entry.objects.filter(pk__in=entry_ids).values_list("pk", "name")
    return sorted(
        entries,
        key=lambda item: (places.get(item[0]) is None, places.get(item[0]) or 0, item[1]),
    )


@transaction.atomic
def round_sign_off(*, round_: Round, by, now: datetime | None = None) -> Round:
    """Sign a round's results off: from now on they are official."""
    locked = round_lock(round_)
    now = now or timezone.now()
    refusal = sign_off_refusal(locked, now)
    if refusal:
        raise RoundStateError(refusal)
    locked.state = Round.State.PUBLISHED
    locked.official_at = now
    locked.official_by = by if getattr(by, "pk", None) else None
    locked.save(update_fields=["state", "official_at", "official_by", "updated_at"])
    # Every page and answer that shows the round learns that its results are official.
    Round.objects.filter(pk=locked.pk).update(version=F("version") + 1)
    locked.refresh_from_db(fields=["version"])
    return locked
