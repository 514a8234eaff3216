"""The round page's stage actions: dealing a first stage's entrants to its parallel groups, and
withdrawing a qualifier who does not start the next round.

Both are POSTs wired as the round page's other buttons (``control.views.round``):
the service is called through ``core.actions.run``, a refusal becomes an error
message in the organiser's language and changes nothing. Withdrawing goes in two
steps: the first POST shows the service's offer (who takes the place, by which
route, and why) on a page of its own; the second, with ``confirm``, applies it.
"""

from __future__ import annotations

from django.contrib import messages
from django.db.models import Count
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from championship.models import Heat, Round, Seat
from championship.permissions import organiser_required
from control import groups as stage
from control.forms import GroupsDealForm, WithdrawForm
from control.views.common import CONTROL, REFUSALS, error_message, round_or_404
from control.withdrawals import COUNTRY, qualifier_withdraw
from core import actions
from registration.models import Entry
from results.models import Result
from results.services import standings_ensure

WITHDRAW_CONFIRM = "control/withdraw_confirm.html"

# What the round page shows ------------------------------------------------------------------------


def groups_label(groups: list[Round]) -> str:
    """Name a stage's groups together: "A" en dash "F" for Group A to Group F, else their names.

    The words the groups' display names share at the start ("Group") are left
    out; more than two groups are given as a range.
    """
    names = [group.display_name.split() for group in groups]
    shared = 0
    while all(len(words) > shared + 1 for words in names) and (
        len({words[shared] for words in names}) == 1
    ):
        shared += 1
    short = [" ".join(words[shared:]) for words in names]
    if len(short) > 2:
        return f"{short[0]}–{short[-1]}"
    return ", ".join(short)


def _groups_context(round_: Round, deal_form) -> dict:
    groups = stage.stage_groups(round_)
    if not groups:
        return {"stage_groups": []}
    seated = dict(
        Seat.objects.filter(round__in=groups)
        .values("round")
        .annotate(count=Count("pk"))
        .values_list("round", "count")
    )
    for group in groups:
        group.seated_count = seated.get(group.pk, 0)
    return {
        "stage_groups": groups,
        "groups_label": groups_label(groups),
        "groups_started": Heat.objects.filter(round__in=groups, started_at__isnull=False).exists(),
        "deal_form": deal_form or GroupsDealForm(),
    }


def _qualifiers_context(round_: Round, following: Round | None, closed: bool) -> dict:
    if following is None or round_.advance == Round.Advance.NONE or not closed:
        return {"qualifiers": None}
    standings_ensure(round_)
    results = Result.objects.filter(round=round_).select_related("entry")
    qualifiers = list(results.filter(qualified=True).order_by("place", "entry__name"))
    withdrawn = list(
        results.filter(withdrawal__isnull=False)
        .select_related("withdrawal__withdrawn_by")
        .order_by("withdrawal__withdrawn_at")
    )
    return {
        "qualifiers": qualifiers,
        "withdrawn_qualifiers": withdrawn,
        "country_qualifiers": sum(result.qualified_by == COUNTRY for result in qualifiers),
        "following_started": following.heats.filter(started_at__isnull=False).exists(),
        "withdraw_form": WithdrawForm(),
    }


def rounds_fed(form, round_: Round) -> None:
    """Offer in ``form``'s "Qualifiers go to" only rounds of a later stage (and the one set).

    A group does not feed a parallel group of its own stage; the empty choice
    names the round it stands for (the next round by order).
    """
    field = form.fields.get("into")
    if field is None:
        return
    later = Round.objects.filter(category=round_.category_id, order__gt=round_.order)
    by_order = later.order_by("order").first()
    offered = later.exclude(stage=round_.stage)
    if round_.into_id is not None:
        offered = offered | later.filter(pk=round_.into_id)
    empty = _("The next round")
    if by_order is not None:
        empty = _("The next round by order: %(round)s") % {"round": by_order.display_name}
    field.choices = [("", empty), *((r.pk, r.display_name) for r in offered.order_by("order"))]


def seat_origins(round_: Round, heats) -> None:
    """Mark each seat of a round fed by several groups with its group and place there."""
    feeding = round_.previous_rounds()
    if len(feeding) < 2:
        return
    names = {before.pk: before.display_name for before in feeding}
    origin = {
        entry: (names[round_id], place)
        for entry, round_id, place in Result.objects.filter(
            round__in=feeding, qualified=True
        ).values_list("entry", "round", "place")
    }
    for heat in heats:
        for seat in heat.seat_list:
            seat.origin = origin.get(seat.entry_id)


def page_context(round_: Round, *, following: Round | None, closed: bool, deal_form=None) -> dict:
    """Return what the round page shows of the stage: its groups, and the qualifiers."""
    return {
        **_groups_context(round_, deal_form),
        **_qualifiers_context(round_, following, closed),
    }


# Dealing the entrants to the groups -------------------------------------------------------------


@require_POST
@organiser_required
def deal(request, championship, round_key):
    """Deal the stage's entrants to its parallel groups and seat each group (until one starts)."""
    from control.views.round import _control_context, control_url

    round_ = round_or_404(championship, round_key)
    form = GroupsDealForm(request.POST)
    if form.is_valid():
        sizes = form.cleaned_data["group_sizes"]

        def action():
            dealt = stage.groups_deal(round_=round_, group_sizes=sizes)
            count = sum(len(share) for share in dealt.values())
            shares = ", ".join(
                f"{group.display_name} {len(share)}" for group, share in dealt.items()
            )
            return ngettext(
                "%(count)s entry is dealt to the groups: %(shares)s.",
                "%(count)s entries are dealt to the groups: %(shares)s.",
                count,
            ) % {"count": count, "shares": shares}

        if actions.run(request, action, refusals=REFUSALS, say=error_message, form=form):
            return redirect(control_url(round_))
        if form.errors:
            messages.error(request, _("The entries are not dealt: see the form."))
    else:
        messages.error(request, _("The entries are not dealt: see the form."))
    return render(request, CONTROL, _control_context(request, round_, deal_form=form))


# A qualifier who does not start -----------------------------------------------------------------


def _place_of(round_: Round, entries) -> dict[int, Result]:
    return {
        result.entry_id: result
        for result in Result.objects.filter(round=round_, entry__in=[e.pk for e in entries])
    }


def _names(entries) -> str:
    return ", ".join(entry.name for entry in entries)


@require_POST
@organiser_required
def withdraw(request, championship, round_key):
    """Withdraw a qualifier from the next round: show the offer, then (``confirm``) apply it."""
    from control.views.round import control_url

    round_ = round_or_404(championship, round_key)
    form = WithdrawForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose the qualifier who does not start the next round."))
        return redirect(control_url(round_))
    entry = get_object_or_404(Entry, pk=form.cleaned_data["entry"], category=round_.category_id)
    confirm = form.cleaned_data["confirm"]
    offered = []

    def action():
        taken = qualifier_withdraw(round_=round_, entry=entry, by=request.user, confirm=confirm)
        offered.append(taken)
        if not confirm:
            return None
        names = {"name": entry.name, "round": taken.following.display_name}
        if not taken.entries:
            return _("%(name)s does not start %(round)s; nobody is left to take the place.") % names
        return ngettext(
            "%(name)s does not start %(round)s; %(others)s takes the place.",
            "%(name)s does not start %(round)s; %(others)s take the place.",
            len(taken.entries),
        ) % {**names, "others": _names(taken.entries)}

    if not actions.run(request, action, refusals=REFUSALS, say=error_message) or confirm:
        return redirect(control_url(round_))
    (offer,) = offered
    places = _place_of(round_, [entry, *offer.entries, *offer.promoted])
    return render(
        request,
        WITHDRAW_CONFIRM,
        {
            "round": round_,
            "offer": offer,
            "withdrawn": places.get(entry.pk),
            "replacements": [(e, places.get(e.pk)) for e in offer.entries],
            "promoted": [(e, places.get(e.pk)) for e in offer.promoted],
            "next_seated": offer.following.seats.exists(),
            "back_url": control_url(round_),
        },
    )
