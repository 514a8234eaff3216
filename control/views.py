"""The organiser's round control room, the venue's tables, prior rankings and table cards.

round control
    One page per round: its state, the advancement settings, the seating form,
    the seating per heat with a move control per seat, and the buttons that
    publish the seating, start heats, call time-up and advance the qualified.
    Every button is a POST that calls a service of ``control.rounds``; a
    refusal (``ValidationError``, ``RoundStateError``) becomes an error message
    and changes nothing.
tables
    The venue's tables: add, edit, rotate a QR token, download a QR code.
prior ranking
    A CSV file of ``name or e-mail, rank`` for the first round's seeding,
    previewed before anything is saved.
cards
    Printable table cards: one per seated table per heat, with the QR code.
public seating
    Who sits where in each heat, once the round's seating is published.

Every organiser page is behind ``organiser_required``; every write goes through
a service (``control.rounds``, ``championship.services``,
``registration.services``).
"""

from __future__ import annotations

import csv
import io
import random
import re
import unicodedata
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime, time, timedelta

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.formats import time_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from championship import bounds, cards, services
from championship import selectors as championship_selectors
from championship import services as championship_services
from championship.errors import RoundStateError
from championship.models import Category, Championship, Heat, Round, Seat, Table
from championship.permissions import get_championship, organiser_required
from championship.rules.seating import SEEDING, SeatingError, allowed_orders
from control import rounds
from control.rounds import SeatingPlan
from judging import services as judging_services
from registration import places
from registration import services as registration_services
from registration.models import Entry
from results.services import entry_is_official

CONTROL = "championship/control_round.html"
TABLES = "championship/control_tables.html"
ROTATE = "championship/control_table_rotate.html"
RANKING = "championship/control_ranking.html"
CARDS = "championship/cards.html"
SEATING = "championship/seating.html"
START_CONFIRM = "championship/control_start_confirm.html"

# More heats than letters of the alphabet would not fit a venue's day.
MAX_HEATS = 26
SEED_MAX = 999_999
SESSION_SEATING = "control.views.seating"
SESSION_RANKING = "control.views.ranking"
MAX_RANKING_BYTES = 1_000_000
MAX_RANKING_ROWS = 5000
CARD_SIZES = ("a4", "a5")


@require_GET
@organiser_required
def manage(request, championship):
    """Show the organiser's control room of a championship."""
    return render(
        request,
        "championship/manage.html",
        {
            "categories": places.categories_with_counts(championship),
            "rounds": championship_selectors.rounds_with_heats(championship),
            "table_count": championship.tables.count(),
            "roles": championship.roles.select_related("user").order_by("role", "user__username"),
        },
    )


# Reading ---------------------------------------------------------------------------------------


def _round(championship: Championship, key: str) -> Round:
    round_ = get_object_or_404(
        Round.objects.select_related("category"), championship=championship, key=key
    )
    round_.category.championship = championship
    round_.championship = championship
    return round_


def position_letter(seat: Seat) -> str:
    """Return A or B, the seat's position at a table for two."""
    return "AB"[seat.position - 1]


def round_seating(round_: Round, *, with_official: bool = False) -> list[Heat]:
    """Return a round's heats in order, each with its seats and its tables.

    Each heat gets ``seat_list`` (by table number and position) and
    ``tables`` (a list of ``(table, seats)``); each seat gets ``letter`` (A or B
    where the table is shared in the heat, else empty) and, with
    ``with_official``, ``official``.
    """
    heats = list(round_.heats.order_by("order", "key"))
    seats = (
        Seat.objects.filter(round=round_)
        .select_related("table", "entry")
        .prefetch_related("entry__members")
        .order_by("heat__order", "table__number", "position")
    )
    rules, kind = round_.championship.rules, round_.category.kind
    by_heat: dict[int, list[Seat]] = defaultdict(list)
    for seat in seats:
        if with_official:
            seat.official = entry_is_official(seat.entry, rules, kind)
        by_heat[seat.heat_id].append(seat)
    for heat in heats:
        heat.round = round_
        heat.seat_list = by_heat[heat.pk]
        tables: dict[int, tuple[Table, list[Seat]]] = {}
        for seat in heat.seat_list:
            tables.setdefault(seat.table_id, (seat.table, []))[1].append(seat)
        heat.tables = list(tables.values())
        for _table, at_table in heat.tables:
            shared = len(at_table) > 1 or at_table[0].position > 1
            for seat in at_table:
                seat.letter = position_letter(seat) if shared else ""
    return heats


# Forms -----------------------------------------------------------------------------------------


DATETIME_LOCAL = "%Y-%m-%dT%H:%M"


class AdvanceForm(forms.Form):
    """How entries advance from a round, as ``Round.clean`` checks it."""

    advance = forms.ChoiceField(label=gettext_lazy("Who advances"), choices=Round.Advance.choices)
    advance_count = forms.IntegerField(
        label=gettext_lazy("N"),
        required=False,
        min_value=0,
        max_value=10_000,
        help_text=gettext_lazy("How many advance overall, or per heat."),
    )
    advance_best_remaining = forms.IntegerField(
        label=gettext_lazy("M"),
        required=False,
        min_value=0,
        max_value=10_000,
        help_text=gettext_lazy("With “per heat”: how many of the best remaining advance."),
    )

    def clean(self):
        data = super().clean()
        # The numbers that do not apply to the chosen kind are dropped, not refused.
        if data.get("advance") == Round.Advance.NONE:
            data["advance_count"] = data["advance_best_remaining"] = None
        elif data.get("advance") == Round.Advance.OVERALL:
            data["advance_best_remaining"] = None
        return data


class SeatForm(forms.Form):
    """How to seat a round: heats, order, a seed for the random order, scheduled starts.

    The championship's rules shape it: where they fix the order
    (``seating_first_round``, ``seating_later_rounds``) no other order is offered
    (``order_fixed`` says why); where they require check-in, only checked-in
    entries are seated (``check_in_required``); where they leave the heat split
    to the organiser, heat sizes may be given.
    """

    heats = forms.IntegerField(
        label=gettext_lazy("Number of heats"), min_value=1, max_value=MAX_HEATS, initial=1
    )
    order = forms.ChoiceField(
        label=gettext_lazy("Order"),
        widget=forms.RadioSelect,
        choices=[
            ("seeding", gettext_lazy("By prior ranking, then by registration time")),
            ("registration", gettext_lazy("By registration time")),
            ("random", gettext_lazy("At random")),
        ],
        initial="seeding",
    )
    seed = forms.IntegerField(
        label=gettext_lazy("Random seed"),
        required=False,
        min_value=0,
        max_value=SEED_MAX,
        help_text=gettext_lazy("The same seed gives the same random order again."),
    )
    checked_in_only = forms.BooleanField(
        label=gettext_lazy("Only checked-in entries"), required=False
    )
    heat_sizes = forms.CharField(
        label=gettext_lazy("Heat sizes (e.g. 20, 14)"),
        required=False,
        max_length=400,
        help_text=gettext_lazy(
            "One size per heat, adding up to the entries to seat. Empty: heat sizes "
            "differ by at most one."
        ),
    )

    def __init__(self, *args, round_: Round, first_round: bool, **kwargs):
        super().__init__(*args, **kwargs)
        self.round = round_
        rules = round_.category.championship.rules
        if not first_round:
            self.fields["order"].choices = [
                (SEEDING, _("By placement in the previous round")),
                *self.fields["order"].choices[1:],
            ]
        allowed = allowed_orders(
            first_round=first_round,
            seating_first_round=rules.seating_first_round,
            seating_later_rounds=rules.seating_later_rounds,
        )
        self.order_fixed = None
        if allowed == (SEEDING,):
            # Not offered; an order sent anyway reaches the service, which says why not.
            self.order_fixed = rounds.fixed_order_reason(first_round=first_round)
            self.fields["order"].widget = forms.HiddenInput()
            self.fields["order"].required = False
            self.initial["order"] = SEEDING
        self.check_in_required = rounds.check_in_required(round_)
        if rules.heat_split != "organiser":
            del self.fields["heat_sizes"]
        self.start_fields = []
        for number in range(1, MAX_HEATS + 1):
            name = f"start_{number}"
            self.fields[name] = forms.DateTimeField(
                label=Heat(key=rounds.heat_key(number - 1)).label,
                required=False,
                input_formats=[DATETIME_LOCAL, "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M:%S"],
                widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format=DATETIME_LOCAL),
            )
            self.start_fields.append(name)
        if not first_round or self.check_in_required:
            # A later round seats the qualified of the round before, checked in or not;
            # where the rules require check-in, there is nothing to choose.
            del self.fields["checked_in_only"]

    def clean_order(self):
        return self.cleaned_data.get("order") or SEEDING

    def clean_heat_sizes(self):
        text = self.cleaned_data.get("heat_sizes", "").strip()
        if not text:
            return ()
        parts = [part for part in re.split(r"[\s,;+]+", text) if part]
        if not all(part.isascii() and part.isdigit() for part in parts):
            raise ValidationError(
                _("Give the heat sizes as whole numbers separated by commas, e.g. 20, 14.")
            )
        return tuple(int(part) for part in parts)

    def start_inputs(self):
        """Return ``(heat number, bound field)`` of every scheduled start input."""
        return [(number, self[name]) for number, name in enumerate(self.start_fields, start=1)]

    def shown_heats(self) -> int:
        """Return for how many heats a start input is shown (the number of heats asked for)."""
        try:
            return max(1, min(int(self["heats"].value()), MAX_HEATS))
        except (TypeError, ValueError):
            return 1

    def clean(self):
        data = super().clean()
        if data.get("order") == "random" and data.get("seed") is None:
            data["seed"] = random.randint(1, SEED_MAX)
        heats = data.get("heats")
        if heats:
            self._check_starts(heats)
            entries = len(
                rounds.round_entries(self.round, checked_in_only=data.get("checked_in_only", False))
            )
            if entries and heats > entries:
                self.add_error(
                    "heats",
                    ngettext(
                        "There is %(count)s entry to seat: at most %(count)s heat.",
                        "There are %(count)s entries to seat: at most %(count)s heats.",
                        entries,
                    )
                    % {"count": entries},
                )
        return data

    def _check_starts(self, heats: int) -> None:
        """Refuse a scheduled start outside the championship's days (the heats asked for only)."""
        championship = self.round.category.championship
        days = bounds.championship_days(championship.starts_at)
        for name in self.start_fields[:heats]:
            start = self.cleaned_data.get(name)
            if start is not None and start not in days:
                self.add_error(name, bounds.days_message(championship))

    def plan(self) -> SeatingPlan:
        data = self.cleaned_data
        heats = data["heats"]
        return SeatingPlan(
            heats=heats,
            order=data["order"],
            seed=data["seed"] if data["order"] == "random" else None,
            checked_in_only=data.get("checked_in_only", False) or self.check_in_required,
            scheduled_starts=[data.get(f"start_{number}") for number in range(1, heats + 1)],
            heat_sizes=data.get("heat_sizes") or (),
        )


class MoveForm(forms.Form):
    heat = forms.CharField(max_length=30)
    table = forms.IntegerField(min_value=1)
    position = forms.TypedChoiceField(choices=[(1, "A"), (2, "B")], coerce=int, initial=1)
    swap = forms.BooleanField(required=False)


class OwnStartForm(forms.Form):
    at = forms.TimeField(input_formats=["%H:%M:%S", "%H:%M"])


class TablesAddForm(forms.Form):
    count = forms.IntegerField(
        label=gettext_lazy("Number of tables"), min_value=1, max_value=500, initial=10
    )
    seats = forms.TypedChoiceField(
        label=gettext_lazy("Seats at each"),
        choices=[(1, 1), (2, 2)],
        coerce=int,
        initial=1,
    )


class TableForm(forms.Form):
    label = forms.CharField(label=gettext_lazy("Label"), max_length=100, required=False)
    seats = forms.TypedChoiceField(
        label=gettext_lazy("Seats"), choices=[(1, 1), (2, 2)], coerce=int
    )
    reserved_for_guests = forms.BooleanField(
        label=gettext_lazy("Reserved for guests"), required=False
    )


class RankingUploadForm(forms.Form):
    file = forms.FileField(
        label=gettext_lazy("CSV file"),
        help_text=gettext_lazy(
            "A header row with the columns “email” or “name”, and “rank”; "
            "UTF-8 or Windows-1252, separated by commas or semicolons."
        ),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["file"].widget.attrs["accept"] = ".csv,.txt,text/csv,text/plain"

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > MAX_RANKING_BYTES:
            raise ValidationError(
                _("The file is larger than %(size)s MB.") % {"size": MAX_RANKING_BYTES // 1_000_000}
            )
        return upload


# Messages --------------------------------------------------------------------------------------

SEATING_ERRORS = {
    "no_previous_place": gettext_lazy(
        "An entry has no place in the previous round: its results must be complete first."
    ),
    "at_least_one": gettext_lazy("A round needs at least one heat."),
}


def error_message(error: Exception) -> str:
    """Return what to tell the organiser about a refused action."""
    if isinstance(error, ValidationError):
        return " ".join(error.messages)
    if isinstance(error, SeatingError):
        return str(SEATING_ERRORS.get(error.code, error.message))
    return getattr(error, "message", str(error))


REFUSALS = (ValidationError, RoundStateError, SeatingError)


def _local_time(moment: datetime) -> str:
    return time_format(timezone.localtime(moment), "H:i:s")


# The round's control page ---------------------------------------------------------------------


def _control_url(round_: Round) -> str:
    return reverse(
        "control:round_control",
        kwargs={"slug": round_.championship.slug, "round": round_.key},
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


def _control_context(request, round_: Round, *, seat_form=None, advance_form=None) -> dict:
    heats = round_seating(round_, with_official=True)
    started = any(heat.started_at for heat in heats)
    before, after = rounds.previous_round(round_), rounds.next_round(round_)
    first_round = before is None
    if seat_form is None:
        seat_form = SeatForm(
            round_=round_,
            first_round=first_round,
            initial=_seat_form_initial(request, round_, heats),
        )
    if advance_form is None:
        advance_form = AdvanceForm(
            initial={
                "advance": round_.advance,
                "advance_count": round_.advance_count,
                "advance_best_remaining": round_.advance_best_remaining,
            }
        )
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
        "next_round": after,
        "advance_locked": after is not None and after.seats.exists(),
        "closed": closed,
        "results_missing": rounds.results_missing(round_) if closed else None,
        "results_final": final,
        "entry_count": len(rounds.round_entries(round_)),
        "check_in_required": rounds.check_in_required(round_),
        "not_checked_in": len(rounds.entries_not_checked_in(round_)) if not started else 0,
        "checked_in_not_seated": (
            _checked_in_not_seated(round_) if heats and not started and first_round else 0
        ),
        "table_count": round_.championship.tables.count(),
        "seat_form": seat_form,
        "advance_form": advance_form,
        "last_seating": _last_seating(request, round_),
        "time_limit_ms": round_.effective_time_limit_minutes * 60_000,
        "now": now,
        "heat_keys": [(heat.key, heat.label) for heat in heats],
    }


@require_GET
@organiser_required
def round_control(request, championship, round):
    """Show a round's control page; with HTMX only its status region (polled)."""
    round_ = _round(championship, round)
    context = _control_context(request, round_)
    template = f"{CONTROL}#status" if request.htmx else CONTROL
    return render(request, template, context)


def _act(request, round_: Round, action) -> HttpResponse:
    """Run ``action``; tell the organiser its message, or why it was refused; back to the page."""
    try:
        message = action()
    except REFUSALS as error:
        messages.error(request, error_message(error))
    else:
        messages.success(request, message)
    return redirect(_control_url(round_))


@require_POST
@organiser_required
def round_advancement(request, championship, round):
    """Save how entries advance from the round (before it starts)."""
    round_ = _round(championship, round)
    form = AdvanceForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            rounds.round_set_advance(
                round_=round_,
                advance=data["advance"],
                count=data["advance_count"],
                best_remaining=data["advance_best_remaining"],
            )
        except ValidationError as error:
            form.add_error(None, error)
        except RoundStateError as error:
            messages.error(request, error.message)
            return redirect(_control_url(round_))
        else:
            messages.success(request, _("The advancement is saved."))
            return redirect(_control_url(round_))
    messages.error(request, _("The advancement is not saved: see the form."))
    return render(request, CONTROL, _control_context(request, round_, advance_form=form))


@require_POST
@organiser_required
def round_seat(request, championship, round):
    """Form the round's heats and seat its entries (again, until a heat starts)."""
    round_ = _round(championship, round)
    form = SeatForm(request.POST, round_=round_, first_round=rounds.previous_round(round_) is None)
    if form.is_valid():
        plan = form.plan()
        try:
            heats = rounds.round_seat(round_=round_, plan=plan)
        except REFUSALS as error:
            messages.error(request, error_message(error))
        else:
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
            messages.success(request, message)
            return redirect(_control_url(round_))
    else:
        messages.error(request, _("The round is not seated: see the form."))
    return render(request, CONTROL, _control_context(request, round_, seat_form=form))


@require_POST
@organiser_required
def round_publish(request, championship, round):
    """Publish the round's seating: entrants see their heat and table."""
    round_ = _round(championship, round)

    def action():
        rounds.seating_publish(round_=round_)
        return _("The seating is published: entrants see their heat and table.")

    return _act(request, round_, action)


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


def _start_or_ask(request, round_: Round, heats: list[Heat], action) -> HttpResponse:
    """Start, unless tables the heats need are still in use: then ask first (``confirm=1``)."""
    if request.POST.get("confirm") != "1":
        busy = tables_in_use(
            [heat for heat in heats if heat.started_at is None], now=timezone.now()
        )
        if busy:
            return render(
                request,
                START_CONFIRM,
                {"round": round_, "heats": heats, "busy": busy, "action_url": request.path},
            )
    return _act(request, round_, action)


@require_POST
@organiser_required
def round_start(request, championship, round):
    """Start every heat of the round not yet started; ask first if their tables are in use."""
    round_ = _round(championship, round)

    def action():
        started = rounds.round_start(round_=round_)
        return ngettext(
            "%(count)s heat started at %(time)s.",
            "%(count)s heats started at %(time)s.",
            len(started),
        ) % {"count": len(started), "time": _local_time(started[0].started_at)}

    waiting = list(round_.heats.filter(started_at__isnull=True).order_by("order", "key"))
    return _start_or_ask(request, round_, waiting, action)


@require_POST
@organiser_required
def round_close(request, championship, round):
    """Call time-up in every running heat of the round."""
    round_ = _round(championship, round)

    def action():
        closed = rounds.round_close(round_=round_)
        return ngettext(
            "Time is up in %(count)s heat.", "Time is up in %(count)s heats.", len(closed)
        ) % {"count": len(closed)}

    return _act(request, round_, action)


@require_POST
@organiser_required
def round_advance(request, championship, round):
    """Seat the qualified of the round in the next round, by placement."""
    round_ = _round(championship, round)

    def action():
        following = rounds.round_advance(round_=round_)
        return _("The qualified are seated in %(round)s.") % {"round": following.display_name}

    return _act(request, round_, action)


def _heat(round_: Round, key: str) -> Heat:
    heat = get_object_or_404(Heat, round=round_, key=key)
    heat.round = round_
    return heat


@require_POST
@organiser_required
def heat_start(request, championship, round, heat):
    """Start one heat's clock; ask first if its tables are still in use by a running heat."""
    round_ = _round(championship, round)
    heat_ = _heat(round_, heat)

    def action():
        started = rounds.heat_start(heat=heat_)
        return _("%(heat)s started at %(time)s.") % {
            "heat": started.label,
            "time": _local_time(started.started_at),
        }

    return _start_or_ask(request, round_, [heat_], action)


@require_POST
@organiser_required
def heat_close(request, championship, round, heat):
    """Call time-up in one heat."""
    round_ = _round(championship, round)
    heat_ = _heat(round_, heat)

    def action():
        closed = rounds.heat_close(heat=heat_)
        return _("Time is up in %(heat)s (%(time)s).") % {
            "heat": closed.label,
            "time": _local_time(closed.ended_at),
        }

    return _act(request, round_, action)


def _seat(round_: Round, pk: int) -> Seat:
    seat = get_object_or_404(
        Seat.objects.select_related("heat", "table", "entry"), round=round_, pk=pk
    )
    seat.round = round_
    return seat


def _form_refusal(form: forms.Form) -> ValidationError:
    return ValidationError([message for errors in form.errors.values() for message in errors])


@require_POST
@organiser_required
def seat_move(request, championship, round, seat):
    """Move an entry to another heat, table or position (until the seating is published)."""
    round_ = _round(championship, round)
    seat_ = _seat(round_, seat)
    form = MoveForm(request.POST)

    def action():
        if not form.is_valid():
            raise _form_refusal(form)
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
            "letter": position_letter(moved.seat) if table.seats > 1 else "",
            "heat": heat.label,
        }
        if moved.swapped is None:
            return _("%(name)s moves to table %(table)s%(letter)s in %(heat)s.") % place
        return _(
            "%(name)s moves to table %(table)s%(letter)s in %(heat)s; %(other)s takes their place."
        ) % {**place, "other": moved.swapped.entry.name}

    return _act(request, round_, action)


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
def seat_start(request, championship, round, seat):
    """Give one entry its own start, at a clock time of the championship's zone."""
    round_ = _round(championship, round)
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
            "time": _local_time(moved.started_at),
        }

    return _act(request, round_, action)


# Tables ----------------------------------------------------------------------------------------


def _tables_url(championship: Championship) -> str:
    return reverse("control:tables", kwargs={"slug": championship.slug})


def _table(championship: Championship, number: int) -> Table:
    table = get_object_or_404(Table, championship=championship, number=number)
    table.championship = championship
    return table


@require_http_methods(["GET", "POST"])
@organiser_required
def tables(request, championship):
    """List the venue's tables; add some."""
    form = TablesAddForm(request.POST or None)
    if request.method == "POST":
        if form.is_valid():
            try:
                added = services.tables_create(
                    championship=championship,
                    count=form.cleaned_data["count"],
                    seats=form.cleaned_data["seats"],
                )
            except ValidationError as error:
                messages.error(request, error_message(error))
            else:
                messages.success(
                    request,
                    ngettext(
                        "%(count)s table added (%(first)s).",
                        "%(count)s tables added (%(first)s–%(last)s).",
                        len(added),
                    )
                    % {"count": len(added), "first": added[0].number, "last": added[-1].number},
                )
                return redirect(_tables_url(championship))
        else:
            messages.error(request, _("No table added: see the form."))
    listed = list(championship.tables.order_by("number"))
    for table in listed:
        table.form = TableForm(
            initial={
                "label": table.label,
                "seats": table.seats,
                "reserved_for_guests": table.reserved_for_guests,
            },
            prefix=f"table-{table.number}",
        )
    return render(request, TABLES, {"tables": listed, "form": form})


@require_POST
@organiser_required
def table_edit(request, championship, number):
    """Change a table's label, seats or guest reservation."""
    table = _table(championship, number)
    form = TableForm(request.POST, prefix=f"table-{number}")
    try:
        if not form.is_valid():
            raise _form_refusal(form)
        services.table_update(
            table=table,
            label=form.cleaned_data["label"].strip(),
            seats=form.cleaned_data["seats"],
            reserved_for_guests=form.cleaned_data["reserved_for_guests"],
        )
    except ValidationError as error:
        messages.error(request, error_message(error))
    else:
        messages.success(request, _("Table %(number)s is saved.") % {"number": number})
    return redirect(_tables_url(championship))


@require_http_methods(["GET", "POST"])
@organiser_required
def table_rotate(request, championship, number):
    """Ask, then give a table a new QR token: its printed card stops working."""
    table = _table(championship, number)
    if request.method == "POST":
        if request.POST.get("confirm") != "yes":
            messages.error(request, _("Tick the box to confirm the new QR code."))
            return redirect("control:table_rotate", slug=championship.slug, number=table.number)
        rotated = championship_services.table_rotate_token(table=table)
        messages.success(
            request,
            _(
                "Table %(number)s has a new QR code (…%(token)s): print its card again; "
                "the old one no longer opens the table."
            )
            % {"number": number, "token": rotated.token[-6:]},
        )
        return redirect(_tables_url(championship))
    return render(request, ROTATE, {"table": table})


@require_GET
@organiser_required
def table_qr(request, championship, number):
    """Download a table's QR code as a PNG."""
    table = _table(championship, number)
    response = HttpResponse(cards.qr_png(cards.table_url(table)), content_type="image/png")
    response["Content-Disposition"] = f'attachment; filename="table-{table.number}.png"'
    response["Cache-Control"] = "private, no-store"
    return response


# Prior ranking ---------------------------------------------------------------------------------

EMAIL_COLUMNS = {"email", "e-mail", "e-post", "epost", "mail"}
NAME_COLUMNS = {"name", "navn", "namn"}
RANK_COLUMNS = {"rank", "ranking", "place", "plass", "placering", "rangering"}


class RankingFileError(Exception):
    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


@dataclass
class RankingRow:
    line: int
    value: str
    rank: int | None = None
    entry: Entry | None = None
    problem: str = ""


@dataclass
class RankingPreview:
    matched: list[RankingRow] = field(default_factory=list)
    unmatched: list[RankingRow] = field(default_factory=list)
    not_in_file: list[Entry] = field(default_factory=list)

    def ranks(self) -> dict[int, int]:
        return {row.entry.pk: row.rank for row in self.matched}


def decode_csv(data: bytes) -> str:
    """Return the text of a CSV file: UTF-8 (strictly, with or without BOM), else Windows-1252."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    try:
        return data.decode("cp1252")
    except UnicodeDecodeError:
        raise RankingFileError(
            _("The file is not text in UTF-8 or Windows-1252: save it as CSV.")
        ) from None


def sniff_delimiter(text: str) -> str:
    """Return the file's delimiter, a comma or a semicolon (by its header, else by its rows)."""
    header = text.lstrip().split("\n", 1)[0]
    commas, semicolons = header.count(","), header.count(";")
    if bool(commas) != bool(semicolons):
        return "," if commas else ";"
    try:
        return csv.Sniffer().sniff(text[:8192], delimiters=",;").delimiter
    except csv.Error:
        return ";" if semicolons > commas else ","


def _key(text: str) -> str:
    return " ".join(unicodedata.normalize("NFC", text).split()).casefold()


def _column(header: list[str], names: set[str]) -> int | None:
    for index, title in enumerate(header):
        if _key(title) in names:
            return index
    return None


def ranking_preview(text: str, category: Category) -> RankingPreview:
    """Match the rows of a ranking file to the category's confirmed entries; save nothing.

    A row names an entry by a member's e-mail (any case) or by the entry's or a
    member's exact name (any case); the e-mail is tried first.
    """
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=sniff_delimiter(text))
    try:
        lines = [(reader.line_num, row) for row in reader]
    except csv.Error as error:
        raise RankingFileError(
            _("The file is not valid CSV: %(error)s") % {"error": error}
        ) from None
    lines = [(number, row) for number, row in lines if any(cell.strip() for cell in row)]
    if not lines:
        raise RankingFileError(_("The file is empty."))
    if len(lines) > MAX_RANKING_ROWS + 1:
        raise RankingFileError(
            ngettext(
                "The file has more than %(count)s row.",
                "The file has more than %(count)s rows.",
                MAX_RANKING_ROWS,
            )
            % {"count": MAX_RANKING_ROWS}
        )
    header = lines[0][1]
    email_column = _column(header, EMAIL_COLUMNS)
    name_column = _column(header, NAME_COLUMNS)
    rank_column = _column(header, RANK_COLUMNS)
    if rank_column is None or (email_column is None and name_column is None):
        raise RankingFileError(
            _("The first row must name the columns: “email” or “name”, and “rank”.")
        )
    entries = list(
        Entry.objects.filter(category=category, status=Entry.Status.CONFIRMED)
        .prefetch_related("members")
        .order_by("registered_at", "id")
    )
    by_email: dict[str, set[int]] = defaultdict(set)
    by_name: dict[str, set[int]] = defaultdict(set)
    by_pk = {entry.pk: entry for entry in entries}
    for entry in entries:
        by_name[_key(entry.name)].add(entry.pk)
        for member in entry.members.all():
            by_name[_key(member.name)].add(entry.pk)
            if member.email:
                by_email[member.email.strip().casefold()].add(entry.pk)

    def cell(row: list[str], column: int | None) -> str:
        return row[column].strip() if column is not None and column < len(row) else ""

    preview = RankingPreview()
    ranked_at: dict[int, int] = {}
    for line, row in lines[1:]:
        email, name, rank_text = (
            cell(row, email_column),
            cell(row, name_column),
            cell(row, rank_column),
        )
        result = RankingRow(line=line, value=email or name)
        try:
            result.rank = int(rank_text)
        except ValueError:
            result.rank = None
        if not (email or name):
            result.problem = _("No e-mail and no name.")
        elif result.rank is None or result.rank < 1:
            result.problem = _("“%(rank)s” is not a rank (a whole number from 1).") % {
                "rank": rank_text
            }
        else:
            found = by_email.get(email.casefold(), set()) if email else set()
            if not found and name:
                found = by_name.get(_key(name), set())
                result.value = name if not email else f"{email} / {name}"
            if not found:
                result.problem = _("No confirmed entry of this category has this e-mail or name.")
            elif len(found) > 1:
                result.problem = _("Several entries match: give the e-mail instead.")
            else:
                (pk,) = found
                if pk in ranked_at:
                    result.problem = _("Row %(line)s already ranks %(name)s.") % {
                        "line": ranked_at[pk],
                        "name": by_pk[pk].name,
                    }
                else:
                    ranked_at[pk] = line
                    result.entry = by_pk[pk]
        (preview.unmatched if result.problem else preview.matched).append(result)
    preview.not_in_file = [entry for entry in entries if entry.pk not in ranked_at]
    return preview


def _ranking_url(round_: Round) -> str:
    return reverse(
        "control:round_ranking",
        kwargs={"slug": round_.championship.slug, "round": round_.key},
    )


def _stored_ranking(request, round_: Round) -> dict | None:
    return request.session.get(SESSION_RANKING, {}).get(str(round_.pk))


def _store_ranking(request, round_: Round, data: dict | None) -> None:
    stored = request.session.get(SESSION_RANKING, {})
    if data is None:
        stored.pop(str(round_.pk), None)
    else:
        stored = {str(round_.pk): data}  # one file at a time is enough
    request.session[SESSION_RANKING] = stored


@require_http_methods(["GET", "POST"])
@organiser_required
def round_ranking(request, championship, round):
    """Import the prior ranking of a first round's entries from CSV: upload, preview, confirm."""
    round_ = _round(championship, round)
    if rounds.previous_round(round_) is not None:
        raise Http404(_("Prior rankings seed only a category's first round."))
    form = RankingUploadForm()
    stored = _stored_ranking(request, round_)
    if request.method == "POST":
        action = request.POST.get("action", "upload")
        if action == "cancel":
            _store_ranking(request, round_, None)
            return redirect(_ranking_url(round_))
        if action == "confirm":
            if stored is None:
                messages.error(request, _("Upload the file again: its preview has expired."))
                return redirect(_ranking_url(round_))
            try:
                preview = ranking_preview(stored["text"], round_.category)
            except RankingFileError as error:
                messages.error(request, error.message)
                return redirect(_ranking_url(round_))
            count = registration_services.ranking_apply(
                category=round_.category,
                ranks=preview.ranks(),
                clear_others=request.POST.get("clear_others") == "yes",
            )
            _store_ranking(request, round_, None)
            message = ngettext(
                "The prior ranking of %(count)s entry is saved.",
                "The prior ranking of %(count)s entries is saved.",
                count,
            ) % {"count": count}
            if round_.heats.exists():
                message += " " + _("Seat the round again (by seeding) for it to take effect.")
            messages.success(request, message)
            return redirect(_control_url(round_))
        form = RankingUploadForm(request.POST, request.FILES)
        if form.is_valid():
            upload = form.cleaned_data["file"]
            try:
                text = decode_csv(upload.read())
                ranking_preview(text, round_.category)
            except RankingFileError as error:
                form.add_error("file", error.message)
            else:
                _store_ranking(request, round_, {"text": text, "filename": upload.name})
                return redirect(_ranking_url(round_))
    preview = None
    if stored is not None and not form.is_bound:
        try:
            preview = ranking_preview(stored["text"], round_.category)
        except RankingFileError as error:
            messages.error(request, error.message)
            _store_ranking(request, round_, None)
            stored = None
    return render(
        request,
        RANKING,
        {"round": round_, "form": form, "preview": preview, "stored": stored},
    )


# Table cards -----------------------------------------------------------------------------------


@require_GET
@organiser_required
def table_cards(request, championship, round):
    """Show the round's printable table cards: one per seated table per heat.

    The cards are read at the venue, so they speak the championship's language
    (the template renders them in it too); the toolbar above them speaks the
    organiser's.
    """
    round_ = _round(championship, round)
    size = request.GET.get("size", "a4")
    if size not in CARD_SIZES:
        size = "a4"
    with translation.override(championship.language):
        heats = round_seating(round_)
        codes: dict[int, str] = {}
        card_list = []
        for heat in heats:
            for table, seats in heat.tables:
                if table.pk not in codes:
                    codes[table.pk] = cards.qr_svg(
                        cards.table_url(table),
                        label=_("QR code of table %(number)s") % {"number": table.number},
                    )
                card_list.append(
                    {"heat": heat, "table": table, "seats": seats, "qr": codes[table.pk]}
                )
    return render(
        request,
        CARDS,
        {"round": round_, "heats": heats, "cards": card_list, "size": size, "sizes": CARD_SIZES},
    )


# Public seating --------------------------------------------------------------------------------


@require_GET
def seating(request, slug, round):
    """Show who sits where in each heat of a round, once its seating is published."""
    championship = get_championship(request, slug)
    round_ = _round(championship, round)
    published = round_.seating_published_at is not None
    heats = round_seating(round_) if published else []
    return render(
        request,
        SEATING,
        {"round": round_, "published": published, "heats": heats},
    )
