"""One page per round: its state, advancement, seating, and the buttons that publish the seating,
start heats, call time-up and advance the qualified.

Every button is a POST that calls a service of ``control.rounds`` through
``core.actions.run``; a refusal (``ValidationError``, ``RoundStateError``,
``SeatingError``) becomes an error message and changes nothing."""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime, time, timedelta

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_POST

from championship import bounds, submissions
from championship.errors import RoundStateError
from championship.models import ChampionshipRole, Heat, Round, Seat
from championship.permissions import has_role, organiser_required, role_required
from control import rounds
from control.forms import MAX_HEATS, SEED_MAX, AdvanceForm, MoveForm, OwnStartForm, SeatForm
from control.views import groups as stage_views
from control.views.common import (
    CONTROL,
    REFUSALS,
    SESSION_SEATING,
    START_CONFIRM,
    error_message,
    local_time,
    round_or_404,
    round_seating,
)
from core import actions
from judging import services as judging_services
from results import official
from results.services import results_missing

# The round's control page ---------------------------------------------------------------------


def control_url(round_: Round) -> str:
    return reverse(
        "manage:round_control",
        kwargs={"championship_slug": round_.championship.slug, "round_key": round_.key},
    )


def _last_seating(request, round_: Round) -> dict:
    return request.session.get(SESSION_SEATING, {}).get(str(round_.pk), {})


def _seat_form_initial(request, round_: Round, heats: list[Heat]) -> dict:
    last = _last_seating(request, round_)
    initial = {
        "heats": len(heats) or last.get("heats") or 1,
        "order": last.get("order", "seeding"),
        "seed": last.get("seed") or random.randint(1, SEED_MAX),
        "checked_in_only": last.get("checked_in_only", False),
        "heat_sizes": ", ".join(str(size) for size in last.get("heat_sizes") or ()),
    }
    for number, heat in enumerate(heats, start=1):
        if heat.scheduled_start and number <= MAX_HEATS:
            initial[f"start_{number}"] = timezone.localtime(heat.scheduled_start)
    return initial


def _checked_in_not_seated(round_: Round) -> int:
    """Return how many checked-in entries of a seated first round have no seat (came late)."""
    if not rounds.check_in_required(round_):
        return 0
    seated = set(Seat.objects.filter(round=round_).values_list("entry_id", flat=True))
    return sum(entry.pk not in seated for entry in rounds.round_entries(round_))


def _control_context(
    request, round_: Round, *, seat_form=None, advance_form=None, deal_form=None
) -> dict:
    heats = round_seating(round_, with_official=True)
    started = any(heat.started_at for heat in heats)
    feeding = round_.previous_rounds()
    before, after = (feeding[0] if feeding else None), round_.next_round()
    first_round = before is None
    stage_views.seat_origins(round_, heats)
    if seat_form is None:
        seat_form = SeatForm(
            round_=round_,
            first_round=first_round,
            feeding=len(feeding),
            initial=_seat_form_initial(request, round_, heats),
        )
    if advance_form is None:
        advance_form = AdvanceForm(
            round_=round_,
            initial={
                "advance": round_.advance,
                "advance_count": round_.advance_count,
                "advance_best_remaining": round_.advance_best_remaining,
                "advance_country_places": round_.advance_country_places,
                "advance_country_requires_completion": round_.advance_country_requires_completion,
                "advance_per_country": round_.advance_per_country,
                "advance_only_countries_without_qualifier": (
                    round_.advance_only_countries_without_qualifier
                ),
                "into": round_.into_id,
            },
        )
    stage_views.rounds_fed(advance_form, round_)
    closed = round_.state in (Round.State.CLOSED, Round.State.PUBLISHED)
    final = closed and rounds.results_final(round_)
    now = timezone.now()
    for heat in heats:
        heat.running = heat.started_at is not None and heat.ended_at is None
    return {
        "round": round_,
        "heats": heats,
        "seated": any(heat.seat_list for heat in heats),
        "started": started,
        "all_started": bool(heats) and all(heat.started_at for heat in heats),
        "any_running": any(heat.running for heat in heats),
        "first_round": first_round,
        "previous_round": before,
        "fed_by": [before.display_name for before in feeding],
        "next_round": after,
        "advance_locked": after is not None and after.seats.exists(),
        "closed": closed,
        "results_missing": results_missing(round_) if closed else None,
        "results_final": final,
        "sign_off_refusal": (
            official.sign_off_refusal(round_, now) if final and not round_.is_official else None
        ),
        "entry_count": len(rounds.round_entries(round_)),
        "check_in_required": rounds.check_in_required(round_),
        "not_checked_in": len(rounds.entries_not_checked_in(round_)) if not started else 0,
        "checked_in_not_seated": (
            _checked_in_not_seated(round_) if heats and not started and first_round else 0
        ),
        "table_count": round_.championship.tables.count(),
        "seat_form": seat_form,
        "advance_form": advance_form,
        "advance_submission": submissions.new_token(),
        "last_seating": _last_seating(request, round_),
        "time_limit_ms": round_.time_limit_ms,
        "now": now,
        "heat_keys": [(heat.key, heat.label) for heat in heats],
        **stage_views.page_context(round_, following=after, closed=closed, deal_form=deal_form),
    }


@require_GET
@organiser_required
def round_control(request, championship, round_key):
    """Show a round's control page; with HTMX only its status region (polled)."""
    round_ = round_or_404(championship, round_key)
    context = _control_context(request, round_)
    template = f"{CONTROL}#status" if request.htmx else CONTROL
    return render(request, template, context)


@require_POST
@organiser_required
def round_advancement(request, championship, round_key):
    """Save how entries advance from the round (before it starts)."""
    round_ = round_or_404(championship, round_key)
    form = AdvanceForm(request.POST, round_=round_)
    stage_views.rounds_fed(form, round_)
    if form.is_valid():
        data = form.cleaned_data

        def action():
            rounds.round_set_advance(
                round_=round_,
                advance=data["advance"],
                count=data["advance_count"],
                best_remaining=data["advance_best_remaining"],
                country=form.country_settings(),
                into=Round.objects.get(pk=data["into"]) if data["into"] else None,
            )
            return _("The advancement is saved.")

        # Values the round refuses are shown on the form; a round whose next round is
        # seated refuses above the page, which no longer offers the form.
        saved = actions.run(request, action, refusals=(ValidationError, RoundStateError), form=form)
        if saved or not form.errors:
            return redirect(control_url(round_))
    messages.error(request, _("The advancement is not saved: see the form."))
    return render(request, CONTROL, _control_context(request, round_, advance_form=form))


@require_POST
@organiser_required
def seat(request, championship, round_key):
    """Form the round's heats and seat its entries (again, until a heat starts)."""
    round_ = round_or_404(championship, round_key)
    feeding = round_.previous_rounds()
    form = SeatForm(request.POST, round_=round_, first_round=not feeding, feeding=len(feeding))
    if form.is_valid():
        plan = form.plan()

        def action():
            heats = rounds.round_seat(round_=round_, plan=plan)
            remembered = request.session.get(SESSION_SEATING, {})
            remembered[str(round_.pk)] = {
                "heats": plan.heats,
                "order": plan.order,
                "seed": plan.seed,
                "checked_in_only": plan.checked_in_only,
                "heat_sizes": list(plan.heat_sizes),
            }
            request.session[SESSION_SEATING] = remembered
            message = ngettext(
                "The round is seated in %(count)s heat.",
                "The round is seated in %(count)s heats.",
                len(heats),
            ) % {"count": len(heats)}
            if plan.order == "random":
                message += " " + _("Random order, seed %(seed)s.") % {"seed": plan.seed}
            return message

        if actions.run(request, action, refusals=REFUSALS, say=error_message):
            return redirect(control_url(round_))
    else:
        messages.error(request, _("The round is not seated: see the form."))
    return render(request, CONTROL, _control_context(request, round_, seat_form=form))


@require_POST
@organiser_required
def publish(request, championship, round_key):
    """Publish the round's seating: entrants see their heat and table."""
    round_ = round_or_404(championship, round_key)

    def action():
        rounds.seating_publish(round_=round_)
        return _("The seating is published: entrants see their heat and table.")

    actions.run(request, action, refusals=REFUSALS, say=error_message)
    return redirect(control_url(round_))


# Starting a heat at tables still in use ---------------------------------------------------------


@dataclass(frozen=True)
class TablesInUse:
    """A running heat whose entrants still puzzle at tables a heat about to start needs."""

    heat: Heat
    tables: list[int]
    until: datetime | None

    @property
    def name(self) -> str:
        round_ = self.heat.round
        return f"{round_.category.display_name}: {round_.display_name}, {self.heat.label}"

    @property
    def table_list(self) -> str:
        """Return the table numbers as people read them, runs joined: 1-12, 15."""
        runs: list[list[int]] = []
        for number in self.tables:
            if runs and number == runs[-1][-1] + 1:
                runs[-1].append(number)
            else:
                runs.append([number])
        return ", ".join(str(run[0]) if len(run) == 1 else f"{run[0]}–{run[-1]}" for run in runs)


def tables_in_use(heats: list[Heat], *, now: datetime) -> list[TablesInUse]:
    """Return the running heats at the tables of ``heats`` where time is not yet up.

    A running heat of any round or category counts while one of its entrants at
    those tables is still within the time (their own start and limit, or the
    heat's time-up). The heats about to start do not count against each other.
    """
    starting = [heat.pk for heat in heats]
    wanted = Seat.objects.filter(heat__in=starting).values("table_id")
    seats = (
        Seat.objects.filter(table__in=wanted, heat__state=Heat.State.RUNNING)
        .exclude(heat__in=starting)
        .select_related("heat__round__category", "table")
        .order_by("heat__started_at", "heat__pk", "table__number")
    )
    found: dict[int, tuple[Heat, set[int], datetime | None]] = {}
    for seat in seats:
        time_up = seat.time_up_at
        if time_up is not None and now >= time_up:
            continue
        heat, numbers, until = found.get(seat.heat_id, (seat.heat, set(), None))
        numbers.add(seat.table.number)
        if time_up is not None and (until is None or time_up > until):
            until = time_up
        found[seat.heat_id] = (heat, numbers, until)
    return [
        TablesInUse(heat=heat, tables=sorted(numbers), until=until)
        for heat, numbers, until in found.values()
    ]


# Starting earlier than the day before the championship's date asks first: results and
# diplomas then carry a date months before the championship's.
EARLY_START_DAYS = 1


def _start_or_ask(request, round_: Round, heats: list[Heat], action) -> HttpResponse:
    """Start, unless tables the heats need are still in use, or the championship is days
    away: then ask first (``confirm=1``)."""
    if request.POST.get("confirm") != "1":
        now = timezone.now()
        waiting = [heat for heat in heats if heat.started_at is None]
        busy = tables_in_use(waiting, now=now)
        early = bool(waiting) and round_.championship.days_ahead(now) > EARLY_START_DAYS
        if busy or early:
            context = {"round": round_, "heats": heats, "busy": busy, "early": early}
            today = timezone.localtime(now, round_.championship.tzinfo).date()
            context.update(action_url=request.path, today=today)
            return render(request, START_CONFIRM, context)
    actions.run(request, action, refusals=REFUSALS, say=error_message)
    return redirect(control_url(round_))


@require_POST
@organiser_required
def start(request, championship, round_key):
    """Start every heat of the round not yet started; ask first if their tables are in use."""
    round_ = round_or_404(championship, round_key)

    def action():
        started = rounds.round_start(round_=round_)
        return ngettext(
            "%(count)s heat started at %(time)s.",
            "%(count)s heats started at %(time)s.",
            len(started),
        ) % {"count": len(started), "time": local_time(started[0].started_at)}

    waiting = list(round_.heats.filter(started_at__isnull=True).order_by("order", "key"))
    return _start_or_ask(request, round_, waiting, action)


@require_POST
@organiser_required
def close(request, championship, round_key):
    """Call time-up in every running heat of the round."""
    round_ = round_or_404(championship, round_key)

    def action():
        closed = rounds.round_close(round_=round_)
        return ngettext(
            "Time is up in %(count)s heat.", "Time is up in %(count)s heats.", len(closed)
        ) % {"count": len(closed)}

    actions.run(request, action, refusals=REFUSALS, say=error_message)
    return redirect(control_url(round_))


@require_POST
@role_required(ChampionshipRole.Role.HEAD_JUDGE)
def sign_off(request, championship, round_key):
    """Sign the round's results off: from now on they are official.

    Head judges sign off from the judging dashboard, organisers from here: each
    goes back to the page they came from (``next``).
    """
    round_ = round_or_404(championship, round_key)

    def action():
        signed = rounds.round_sign_off(round_=round_, by=request.user)
        return _("The results are official since %(time)s.") % {
            "time": local_time(signed.official_at)
        }

    back = request.POST.get("next", "")
    if not (
        back.startswith("/")
        and url_has_allowed_host_and_scheme(
            back, allowed_hosts={request.get_host()}, require_https=request.is_secure()
        )
    ):
        organiser = has_role(request.user, championship, ChampionshipRole.Role.ORGANISER)
        back = (
            control_url(round_)
            if organiser
            else reverse(
                "manage:dashboard",
                kwargs={"championship_slug": championship.slug, "round_key": round_.key},
            )
        )
    actions.run(request, action, refusals=REFUSALS, say=error_message)
    return redirect(back)


@require_POST
@organiser_required
def advance(request, championship, round_key):
    """Seat the qualified of the round in the next round, by placement.

    From results that are still provisional only when the organiser says so: a
    protest or a correction may still change who qualifies.
    """
    round_ = round_or_404(championship, round_key)
    provisional = not round_.is_official and rounds.results_final(round_)
    if provisional and request.POST.get("provisional") != "yes":
        messages.error(
            request,
            _(
                "The results are provisional: sign them off first, or confirm that the "
                "qualified advance from provisional results."
            ),
        )
        return redirect(control_url(round_))

    def action():
        try:
            following = rounds.round_advance(
                round_=round_, submission=request.POST.get("submission") or None
            )
        except submissions.SubmittedBefore:
            # The same form again (a double click): answered as the first, nobody seated anew.
            following = round_.next_round()
            return _("The qualified are already seated in %(round)s.") % {
                "round": following.display_name
            }
        return _("The qualified are seated in %(round)s.") % {"round": following.display_name}

    actions.run(request, action, refusals=REFUSALS, say=error_message)
    return redirect(control_url(round_))


def _heat(round_: Round, key: str) -> Heat:
    heat = get_object_or_404(Heat, round=round_, key=key)
    heat.round = round_
    return heat


@require_POST
@organiser_required
def start_heat(request, championship, round_key, heat_key):
    """Start one heat's clock; ask first if its tables are still in use by a running heat."""
    round_ = round_or_404(championship, round_key)
    heat_ = _heat(round_, heat_key)

    def action():
        started = rounds.heat_start(heat=heat_)
        return _("%(heat)s started at %(time)s.") % {
            "heat": started.label,
            "time": local_time(started.started_at),
        }

    return _start_or_ask(request, round_, [heat_], action)


@require_POST
@organiser_required
def close_heat(request, championship, round_key, heat_key):
    """Call time-up in one heat."""
    round_ = round_or_404(championship, round_key)
    heat_ = _heat(round_, heat_key)

    def action():
        closed = rounds.heat_close(heat=heat_)
        return _("Time is up in %(heat)s (%(time)s).") % {
            "heat": closed.label,
            "time": local_time(closed.ended_at),
        }

    actions.run(request, action, refusals=REFUSALS, say=error_message)
    return redirect(control_url(round_))


def _seat(round_: Round, pk: int) -> Seat:
    seat = get_object_or_404(
        Seat.objects.select_related("heat", "table", "entry"), round=round_, pk=pk
    )
    seat.round = round_
    return seat


@require_POST
@organiser_required
def move_seat(request, championship, round_key, seat):
    """Move an entry to another heat, table or position (until the seating is published)."""
    round_ = round_or_404(championship, round_key)
    seat_ = _seat(round_, seat)
    form = MoveForm(request.POST)

    def action():
        if not form.is_valid():
            raise actions.form_refusal(form)
        data = form.cleaned_data
        heat = Heat.objects.filter(round=round_, key=data["heat"]).first()
        table = championship.tables.filter(number=data["table"]).first()
        if heat is None:
            raise ValidationError(_("This round has no such heat."))
        if table is None:
            raise ValidationError(
                _("There is no table %(number)s at this venue.") % {"number": data["table"]}
            )
        moved = rounds.seat_move(
            seat=seat_, heat=heat, table=table, position=data["position"], swap=data["swap"]
        )
        place = {
            "name": seat_.entry.name,
            "table": table.number,
            "letter": moved.seat.position_letter if table.seats > 1 else "",
            "heat": heat.label,
        }
        if moved.swapped is None:
            return _("%(name)s moves to table %(table)s%(letter)s in %(heat)s.") % place
        return _(
            "%(name)s moves to table %(table)s%(letter)s in %(heat)s; %(other)s takes their place."
        ) % {**place, "other": moved.swapped.entry.name}

    actions.run(request, action, refusals=REFUSALS, say=error_message)
    return redirect(control_url(round_))


def _own_start(heat: Heat, at: time) -> datetime:
    """Return the moment of a clock time ``at`` on the day of the heat's start (local time).

    A time well before the heat's start (by more than twelve hours) is the next day's.
    """
    started = timezone.localtime(heat.started_at)
    moment = timezone.make_aware(datetime.combine(started.date(), at), started.tzinfo)
    if heat.started_at - moment > timedelta(hours=12):
        moment = timezone.make_aware(
            datetime.combine(started.date() + timedelta(days=1), at), started.tzinfo
        )
    return moment


@require_POST
@organiser_required
def start_seat(request, championship, round_key, seat):
    """Give one entry its own start, at a clock time of the championship's zone."""
    round_ = round_or_404(championship, round_key)
    seat_ = _seat(round_, seat)
    form = OwnStartForm(request.POST)

    def action():
        if not form.is_valid():
            raise ValidationError(_("Give the own start as a time, e.g. 10:07:30."))
        if seat_.heat.started_at is None:
            raise RoundStateError(_("The heat has not started yet."))
        at = _own_start(seat_.heat, form.cleaned_data["at"])
        window = bounds.own_start_window(seat_.heat.started_at, round_.effective_time_limit_minutes)
        # Before the heat's start the service refuses, saying why; here, too late a start.
        if at > window.latest:
            raise ValidationError(bounds.own_start_message(window, championship.tzinfo))
        moved = judging_services.seat_set_start(seat=seat_, at=at)
        return _("%(name)s starts at %(time)s.") % {
            "name": seat_.entry.name,
            "time": local_time(moved.started_at),
        }

    actions.run(request, action, refusals=REFUSALS, say=error_message)
    return redirect(control_url(round_))
