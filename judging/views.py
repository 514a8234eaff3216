"""The judges' pages: what a table's QR code opens, a later start, and the round dashboard.

Times themselves are recorded by the phone through the capture API
(``POST /api/v1/championships/<slug>/captures/``, see ``static/judging/judge.js``):
the page only shows the table and gives the phone what it needs.
"""

import uuid

from django import forms
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from championship import rounds
from championship.middleware import activate
from championship.models import ChampionshipRole, Round
from championship.permissions import has_role, role_required
from judging import selectors
from judging.models import Capture
from judging.services import CaptureConflict, CaptureForbidden, CaptureInput, capture_record

Role = ChampionshipRole.Role

# The parameters of the ruleset that the phone needs to show a final time.
PHONE_RULES = (
    "penalty_seconds_per_piece",
    "penalty_charges",
    "pieces_found_later",
    "adjacent_missing_waives_penalty",
    "late_last_piece_seconds",
    "max_lost_pieces",
    "misplaced_finish_is_unfinished",
    "counted_cluster_min_pieces",
    "individual_start_times",
)


def phone_strings() -> dict:
    """Return the phone's messages, translated here so the script stays free of text."""
    return {
        "saving": _("saving…"),
        "saved": _("saved"),
        "queued": _("waiting for network — kept on this phone"),
        "refused": _("Not recorded:"),
        "loginAgain": _("Log in again — kept on this phone"),
        "allSaved": _("Everything is saved."),
        "waitingOne": _("1 capture waiting for network — kept on this phone"),
        "waitingMany": _("%(count)s captures waiting for network — kept on this phone"),
        "noStorage": _("This phone cannot keep captures: do not reload until saved."),
        "confirmed": _("Confirmed"),
        "time": _("Time"),
        "finalTime": _("Final time"),
        "countedPieces": _("Pieces placed"),
        "penalty": _("penalty"),
        "piecesFound": _("%(count)s found later × %(seconds)s s"),
        "piecesCharged": _("%(count)s missing × %(seconds)s s"),
        "noPenaltyAdjacent": _("%(count)s adjacent pieces lost: no penalty for them."),
        "lastPieceAt": _("Last piece placed at %(time)s"),
        "lastPieceStands": _("Last piece placed at %(time)s: the actual finish stands."),
        "lastPieceLate": _("Last piece placed at %(time)s: the time plus the penalty counts."),
        "invalid": _("More than %(count)s pieces missing: the attempt is invalid."),
        "afterLimit": _("TIME after the time limit: not completed. Count the pieces instead."),
        "problems": {
            # %(least)s, %(most)s, %(total)s, %(remaining)s are filled in on the phone.
            "pieces_implausible": _(
                "Pieces placed must be 0 or from %(least)s to %(most)s: pieces count in "
                "clusters of at least %(least)s, and an unfinished puzzle has a piece left."
            ),
            "remaining_implausible": _(
                "Pieces remaining must be %(total)s or from 1 to %(remaining)s: pieces count in "
                "clusters of at least %(least)s, and an unfinished puzzle has a piece left."
            ),
            "adjacent_over_lost": _(
                "More adjacent pieces than pieces lost: adjacent pieces are among the lost ones."
            ),
            "adjacent_alone": _(
                "Adjacent pieces are two or more side by side: give 0 or at least 2."
            ),
            "pieces_out_of_range": _("More pieces missing than the puzzle has."),
            "other": _("These counts cannot be right: check them."),
        },
        "placedOf": _("%(placed)s of %(total)s placed"),
        "misplacedUnfinished": _("TIME with misplaced pieces: not completed."),
        "misplaced": _("TIME with misplaced pieces"),
        "fromServer": _("as saved"),
        "fromPhone": _("computed on this phone"),
        "timeUp": _("Time is up"),
        "notStarted": _("Not started"),
        "badTime": _("Give the time as H:MM:SS."),
        "reasonNeeded": _("Give a reason."),
        "countNeeded": _("Give the pieces placed or remaining."),
        "clockOffset": _("clock ±%(ms)s ms"),
        "clockUnknown": _("clock not checked"),
        "error": _("The server answered %(status)s."),
    }


def _unknown_table(request):
    return render(request, "judging/unknown_table.html", status=404)


@require_GET
def table(request, token):
    """Show a judge the table behind a QR code: who sits there now, their clock, the TIME button."""
    table = selectors.table_for_token(token)
    if table is None:
        return _unknown_table(request)
    championship = table.championship
    activate(request, championship)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not has_role(request.user, championship, Role.JUDGE):
        return render(request, "judging/no_access.html", {"championship": championship}, status=403)
    head = has_role(request.user, championship, Role.HEAD_JUDGE)
    screen = selectors.table_screen(table, now=timezone.now(), head_judge=head)
    rules = championship.rules
    dashboard_round = screen.seats[0].heat.round if screen.seats else None
    return render(
        request,
        "judging/table.html",
        {
            "table": table,
            "championship": championship,
            "screen": screen,
            "rules": rules,
            "head_judge": head,
            "later_start": head and rules.individual_start_times,
            "dashboard_round": dashboard_round,
            "phone_rules": {"preset": championship.ruleset}
            | {name: getattr(rules, name) for name in PHONE_RULES},
            "phone_strings": phone_strings(),
            "phone_config": {
                "captureUrl": reverse(
                    "api:captures", kwargs={"championship_slug": championship.slug}
                ),
                "timeUrl": reverse("api:time"),
                "queueKey": f"judging-queue:{championship.slug}",
                "headJudge": head,
                "seats": [seat.state(request.user) for seat in screen.seats],
            },
        },
    )


@require_POST
def start_now(request, token):
    """Give one entry at the table its own start, now (a taped bag cut open by a judge)."""
    table = selectors.table_for_token(token)
    if table is None:
        return _unknown_table(request)
    activate(request, table.championship)
    if not request.user.is_authenticated:
        return redirect_to_login(reverse("judging:table", kwargs={"token": token}))
    if not has_role(request.user, table.championship, Role.HEAD_JUDGE):
        return render(
            request, "judging/no_access.html", {"championship": table.championship}, status=403
        )
    if not table.championship.rules.individual_start_times:
        messages.error(request, _("These rules give no entry a start of its own."))
        return redirect(table)
    seat = selectors.seat_at_table(table, request.POST.get("seat", "").strip() or None)
    if seat is None:
        raise Http404
    try:
        seat = rounds.seat_set_start(seat=seat, at=timezone.now())
    except rounds.RoundStateError as error:
        messages.error(request, error.message)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(
            request,
            _("%(entry)s started at %(time)s.")
            % {
                "entry": seat.entry.name,
                "time": timezone.localtime(seat.started_at).strftime("%H:%M:%S"),
            },
        )
    return redirect(table)


# The round dashboard --------------------------------------------------------------------------

MARK_KINDS = [
    (Capture.Kind.DNS, gettext_lazy("Did not start")),
    (Capture.Kind.DSQ, gettext_lazy("Disqualified")),
]


class MarkForm(forms.Form):
    """Mark an entry as not started or disqualified, with the reason."""

    entry = forms.ModelChoiceField(label=gettext_lazy("Entry"), queryset=None)
    kind = forms.ChoiceField(label=gettext_lazy("Mark as"), choices=MARK_KINDS)
    reason = forms.CharField(label=gettext_lazy("Reason"), max_length=2000)

    def __init__(self, *args, round_: Round, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["entry"].queryset = selectors.seated_entries(round_)


def _round(championship, key) -> Round:
    return get_object_or_404(
        Round.objects.select_related("category"), championship=championship, key=key
    )


@require_GET
@role_required(Role.HEAD_JUDGE)
def dashboard(request, championship, round):
    """Show a round's judging per heat: confirmed, awaited, still puzzling; every capture."""
    round_ = _round(championship, round)
    now = timezone.now()
    context = {
        "round": round_,
        "board": selectors.round_dashboard(round_, now=now),
        "mark_form": MarkForm(round_=round_),
        "now": now,
    }
    template = "judging/dashboard.html"
    if request.htmx:
        template += "#dashboard-live"
    return render(request, template, context)


@require_POST
@role_required(Role.HEAD_JUDGE)
def mark(request, championship, round):
    """Record that an entry did not start, or is disqualified, with the reason."""
    round_ = _round(championship, round)
    form = MarkForm(request.POST, round_=round_)
    back = redirect("judging:dashboard", slug=championship.slug, round=round_.key)
    if not form.is_valid():
        for errors in form.errors.values():
            for error in errors:
                messages.error(request, error)
        return back
    entry, kind = form.cleaned_data["entry"], form.cleaned_data["kind"]
    try:
        capture_record(
            round_=round_,
            entry=entry,
            judge=request.user,
            data=CaptureInput(
                client_id=uuid.uuid4(), kind=kind, reason=form.cleaned_data["reason"]
            ),
        )
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    except CaptureConflict as error:
        messages.error(request, error.message)
    except CaptureForbidden:
        messages.error(request, _("Only a head judge may record this."))
    else:
        label = dict(MARK_KINDS)[kind]
        messages.success(request, f"{entry.name}: {label}")
    return back
