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
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.db.models import F
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from championship.errors import RoundStateError
from championship.models import Round
from results.services import results_missing, round_lock


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
    until = round_.protests_until()
    if until is not None and (now or timezone.now()) < until:
        local = timezone.localtime(until, round_.championship.tzinfo)
        return _("Entrants may protest until %(time)s: sign the results off after that.") % {
            "time": formats.time_format(local, "H:i")
        }
    return None


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
