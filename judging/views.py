"""The judges' pages: what a table's QR code opens, a later start, and the round dashboard.

The table page's phone polls its table's state (``table_state``) to follow the
heat, and a service worker (``service_worker``) keeps the page for a reload while
the venue's network is down.

Times themselves are recorded by the phone through the capture API
(``POST /api/v1/championships/<slug>/captures/``, see ``static/judging/judge/queue.js``):
the page only shows the table and gives the phone what it needs.
"""

import json
import uuid

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponseBadRequest, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import get_conditional_response, patch_cache_control
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from championship.errors import RoundStateError
from championship.middleware import activate
from championship.models import ChampionshipRole, Round
from championship.permissions import has_role, role_required
from core import actions
from judging import selectors, services
from judging.capture_kinds import CaptureConflict, CaptureForbidden, CaptureInput
from judging.dashboard import round_dashboard
from judging.forms import CORRECTION_STATUSES, MARK_KINDS, CorrectionForm, MarkForm
from judging.services import capture_record
from results import official
from results.models import Result
from results.services import results_missing

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


def counted_forms(singular: str, plural: str) -> dict:
    """Return a counted message's forms for one and for more; the phone picks one by the count.

    Norwegian, Swedish, Danish and English all have these two forms (one, and any
    other number), so the phone needs no plural rule of its own.
    """
    return {"one": ngettext(singular, plural, 1), "other": ngettext(singular, plural, 2)}


def phone_strings() -> dict:
    """Return the phone's messages, translated here so the script stays free of text."""
    return {
        "saving": _("saving…"),
        "saved": _("saved"),
        "queued": _("waiting for network — kept on this phone"),
        "refused": _("Not recorded:"),
        "loginAgain": _("Log in again — kept on this phone"),
        "allSaved": _("Everything is saved."),
        "waiting": counted_forms(
            "%(count)s capture waiting for network — kept on this phone",
            "%(count)s captures waiting for network — kept on this phone",
        ),
        "noStorage": _("This phone cannot keep captures: do not reload until saved."),
        "confirmed": _("Confirmed"),
        "confirmPending": _("Confirmation not saved yet"),
        "refusedNext": _("The screen shows what is saved. If that is not right, ask a head judge."),
        "awaiting": _("awaiting confirmation"),
        "countPieces": _("Count the pieces"),
        "secondCount": _("Second count"),
        "countWaits": _("waiting for a second count"),
        "countsDiffer": _("counts differ: head judge"),
        "timeAtTime": _("Time at “TIME”"),
        "time": _("Time"),
        "finalTime": _("Final time"),
        "countedPieces": _("Pieces placed"),
        "penalty": _("penalty"),
        "piecesFound": counted_forms(
            "%(count)s found later × %(seconds)s s", "%(count)s found later × %(seconds)s s"
        ),
        "piecesCharged": counted_forms(
            "%(count)s missing × %(seconds)s s", "%(count)s missing × %(seconds)s s"
        ),
        "noPenaltyAdjacent": counted_forms(
            "%(count)s adjacent piece lost: no penalty for it.",
            "%(count)s adjacent pieces lost: no penalty for them.",
        ),
        "lastPieceAt": _("Last piece placed at %(time)s"),
        "lastPieceStands": _("Last piece placed at %(time)s: the actual finish stands."),
        "lastPieceLate": _("Last piece placed at %(time)s: the time plus the penalty counts."),
        "invalid": counted_forms(
            "More than %(count)s piece missing: the attempt is invalid.",
            "More than %(count)s pieces missing: the attempt is invalid.",
        ),
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
            "last_piece_not_missing": _(
                "A last piece is a piece missing at TIME that turned up: give at least one "
                "piece missing and found later."
            ),
            "other": _("These counts cannot be right: check them."),
        },
        # Counted by the pieces placed: "placed" agrees with them in Swedish.
        "placedOf": counted_forms("%(count)s of %(total)s placed", "%(count)s of %(total)s placed"),
        "misplacedUnfinished": _("TIME with misplaced pieces: not completed."),
        "misplaced": _("TIME with misplaced pieces"),
        "otherJudge": _(
            "Recorded by another judge: they, or a head judge, have the entrant confirm it."
        ),
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


def _table_version(request, table, head: bool) -> str:
    """Return the version of a table's page for this judge, in this language."""
    return selectors.fingerprint(
        (selectors.table_version(table), request.user.pk, head, get_language())
    )


def _phone_state(request, table, screen, version: str) -> dict:
    """Return what the phone knows of the table: the version, the layout, each seat's state."""
    return {
        "version": version,
        "layout": selectors.table_layout(screen),
        "atMs": selectors.epoch_ms(timezone.now()),
        "seats": [seat.state(request.user) for seat in screen.seats],
    }


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
    version = _table_version(request, table, head)
    screen = selectors.table_screen(table, now=timezone.now(), head_judge=head, judge=request.user)
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
            "own_start_offered": head and rules.individual_start_times,
            "dashboard_round": dashboard_round,
            "phone_rules": {"preset": championship.ruleset}
            | {name: getattr(rules, name) for name in PHONE_RULES},
            "phone_strings": phone_strings(),
            "phone_config": {
                "captureUrl": reverse(
                    "api:captures", kwargs={"championship_slug": championship.slug}
                ),
                "timeUrl": reverse("api:time"),
                "stateUrl": reverse("judging:table_state", kwargs={"token": token}),
                "serviceWorkerUrl": reverse("judging:service_worker"),
                "queueKey": f"judging-queue:{championship.slug}",
                "headJudge": head,
                "secondCount": championship.second_count,
                **_phone_state(request, table, screen, version),
            },
        },
    )


@require_GET
def table_state(request, token):
    """Answer a table page's poll: its seats' state now, or 304 when nothing changed.

    The same judges as the page's may ask. The version is read with one query
    before anything else, so an unchanged table costs little however many
    phones poll it.
    """
    table = selectors.table_for_token(token)
    if table is None:
        return JsonResponse({"error": "unknown_table"}, status=404)
    championship = table.championship
    activate(request, championship)
    if not request.user.is_authenticated:
        return JsonResponse({"error": "login"}, status=401)
    if not has_role(request.user, championship, Role.JUDGE):
        return JsonResponse({"error": "forbidden"}, status=403)
    head = has_role(request.user, championship, Role.HEAD_JUDGE)
    version = _table_version(request, table, head)
    etag = f'"{version}"'
    response = get_conditional_response(request, etag=etag)
    if response is None:
        screen = selectors.table_screen(
            table, now=timezone.now(), head_judge=head, judge=request.user
        )
        response = JsonResponse(_phone_state(request, table, screen, version))
    response["ETag"] = etag
    patch_cache_control(response, private=True, no_cache=True)
    return response


# The judge's pages are kept for when the venue's network is down; these static files with them.
PHONE_ASSETS = (
    "js/server_clock.js",
    "judging/judge/main.js",
    "judging/judge/queue.js",
    "judging/judge/merge.js",
    "judging/judge/render.js",
    "judging/judge/text.js",
    "judging/rules.js",
    "css/app.css",
    "js/app.js",
    "django_htmx/htmx-2.min.js",
    "favicon.svg",
)


@require_GET
def service_worker(request):
    """Serve the service worker that keeps the table pages and their assets on the phone.

    Served from ``/t/`` so that its scope covers every table page; the list of
    assets (hashed names in production) makes a new release a new worker.
    """
    assets = [static(name) for name in PHONE_ASSETS]
    response = render(
        request,
        "judging/sw.js",
        {
            "assets": json.dumps(assets),
            "static_url": json.dumps(settings.STATIC_URL),
            "version": selectors.fingerprint(assets),
        },
        content_type="text/javascript; charset=utf-8",
    )
    response["Service-Worker-Allowed"] = reverse("judging:service_worker").rsplit("/", 1)[0] + "/"
    patch_cache_control(response, no_cache=True)
    return response


def is_id(text: str) -> bool:
    """Return whether ``text`` can be a row's id: ASCII digits, within the database's integers."""
    return text.isascii() and text.isdigit() and len(text) <= 18


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
    seat_id = request.POST.get("seat", "").strip()
    if not is_id(seat_id):
        return HttpResponseBadRequest(
            _("This seat is not at this table: open the table's page again."),
            content_type="text/plain; charset=utf-8",
        )
    seat = selectors.seat_at_table(table, int(seat_id))
    if seat is None:
        raise Http404

    def action():
        started = services.seat_set_start(seat=seat, at=timezone.now())
        return _("%(entry)s started at %(time)s.") % {
            "entry": started.entry.name,
            "time": timezone.localtime(started.started_at).strftime("%H:%M:%S"),
        }

    actions.run(request, action, refusals=(RoundStateError, ValidationError))
    return redirect(table)


# The round dashboard --------------------------------------------------------------------------

# What the capture service refuses with.
CAPTURE_REFUSALS = (ValidationError, CaptureConflict, CaptureForbidden)


def capture_refusal(error: Exception) -> str:
    """Return what to tell a head judge about a capture the service refused."""
    if isinstance(error, CaptureForbidden):
        return _("Only a head judge may record this.")
    return actions.refusal_text(error)


def _round(championship, key) -> Round:
    round_ = get_object_or_404(
        Round.objects.select_related("category"), championship=championship, key=key
    )
    round_.championship = championship
    return round_


def _dashboard_context(request, round_: Round, *, failed: dict | None = None) -> dict:
    now = timezone.now()
    complete = round_.state == Round.State.CLOSED and not results_missing(round_)
    return {
        "results_complete": complete,
        "sign_off_refusal": official.sign_off_refusal(round_, now) if complete else None,
        "round": round_,
        "organiser": has_role(request.user, round_.championship, Role.ORGANISER),
        "board": round_dashboard(round_, now=now),
        "mark_form": MarkForm(round_=round_),
        "rules": round_.championship.rules,
        "correction_statuses": CORRECTION_STATUSES,
        "failed": failed,
        "now": now,
    }


@require_GET
@role_required(Role.HEAD_JUDGE)
def dashboard(request, championship, round_key):
    """Show a round's judging per heat: confirmed, awaited, still puzzling; every capture."""
    round_ = _round(championship, round_key)
    template = "judging/dashboard.html"
    if request.htmx:
        template += "#dashboard-live"
    return render(request, template, _dashboard_context(request, round_))


@require_POST
@role_required(Role.HEAD_JUDGE)
def mark(request, championship, round_key):
    """Record that an entry did not start, or is disqualified, with the reason."""
    round_ = _round(championship, round_key)
    form = MarkForm(request.POST, round_=round_)
    back = redirect("manage:dashboard", championship_slug=championship.slug, round_key=round_.key)
    if not form.is_valid():
        for errors in form.errors.values():
            for error in errors:
                messages.error(request, error)
        return back
    entry, kind = form.cleaned_data["entry"], form.cleaned_data["kind"]

    def action():
        capture_record(
            round_=round_,
            entry=entry,
            judge=request.user,
            data=CaptureInput(
                client_id=uuid.uuid4(), kind=kind, reason=form.cleaned_data["reason"]
            ),
        )
        return f"{entry.name}: {dict(MARK_KINDS)[kind]}"

    actions.run(request, action, refusals=CAPTURE_REFUSALS, say=capture_refusal)
    return back


@require_POST
@role_required(Role.HEAD_JUDGE)
def correct(request, championship, round_key):
    """Record a head judge's correction of one result, with the reason; or show the refusal."""
    round_ = _round(championship, round_key)
    form = CorrectionForm(request.POST, round_=round_)
    if form.is_valid():
        entry = form.cleaned_data["entry"]
        result = Result.objects.filter(round=round_, entry=entry).first()

        def action():
            try:
                capture_record(
                    round_=round_,
                    entry=entry,
                    judge=request.user,
                    data=form.capture(rules=championship.rules, result=result),
                )
            except (CaptureConflict, CaptureForbidden) as error:
                # Said at the entry's row, with the form's other errors.
                raise ValidationError(capture_refusal(error)) from None
            return _("The correction of %(entry)s is recorded.") % {"entry": entry.name}

        if actions.run(request, action, form=form):
            url = reverse(
                "manage:dashboard",
                kwargs={"championship_slug": championship.slug, "round_key": round_.key},
            )
            return redirect(f"{url}#result-{entry.pk}")
    entry_id = request.POST.get("entry", "")
    failed = {
        "entry": int(entry_id) if is_id(entry_id) else None,
        "values": request.POST,
        "errors": {name: errors for name, errors in form.errors.items() if name != "__all__"},
        "refusals": form.non_field_errors(),
    }
    if failed["entry"] is None or "entry" in failed["errors"]:
        # No row to show the refusal at: say it above the dashboard.
        for errors in form.errors.values():
            for error in errors:
                messages.error(request, error)
    context = _dashboard_context(request, round_, failed=failed)
    return render(request, "judging/dashboard.html", context)
