"""The organiser's Payments pages: upload a statement, map a new CSV layout, review and apply.

Every view is for the championship's organisers (``organiser_required``); what they
change goes through ``payments.services``.
"""

from __future__ import annotations

import re
import secrets

from django.contrib import messages
from django.core.cache import cache
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from championship import services as championship_services
from championship.permissions import organiser_required
from core import csvfile
from payments import readers, refunds, selectors, services
from payments.forms import MappingForm, StatementForm
from payments.models import Refund, Statement

# A CSV file of a new layout waits here while the organiser maps its columns.
PENDING_SECONDS = 60 * 60
# What secrets.token_urlsafe(16) gives; any other token in the address is no upload's, and
# is not made into a cache key (a Redis key would take it, a memcached one would not).
PENDING_TOKEN = re.compile(r"[A-Za-z0-9_-]{22}")


def _pending_key(championship, token: str) -> str:
    return f"payments:pending:{championship.pk}:{token}"


def _review(championship, statement):
    return redirect(
        "manage:payments_statement", championship_slug=championship.slug, statement_id=statement.pk
    )


def _read(request, championship, data: bytes, file_name: str, form):
    """Read the file; go to its review, to its mapping, or back to the form with the reason."""
    try:
        outcome = services.statement_read(
            championship=championship, data=data, file_name=file_name, by=request.user
        )
    except services.Refused as error:
        form.add_error("file", error.message)
        return None
    except services.NeedsMapping:
        token = secrets.token_urlsafe(16)
        cache.set(
            _pending_key(championship, token), {"data": data, "name": file_name}, PENDING_SECONDS
        )
        return redirect("manage:payments_map", championship_slug=championship.slug, token=token)
    if outcome.again:
        messages.info(
            request,
            _("This file was read before (%(when)s): nothing changes.")
            % {"when": outcome.statement.uploaded_at.strftime("%Y-%m-%d %H:%M")},
        )
    return _review(championship, outcome.statement)


@never_cache
@require_http_methods(["GET", "POST"])
@organiser_required
def statements(request, championship):
    """The statements read so far, and a form to upload the next."""
    form = StatementForm()
    if request.method == "POST":
        form = StatementForm(request.POST, request.FILES)
        if form.is_valid():
            upload = form.cleaned_data["file"]
            answer = _read(request, championship, upload.read(), upload.name, form)
            if answer is not None:
                return answer
    return render(
        request,
        "payments/statements.html",
        {
            "championship": championship,
            "form": form,
            "statements": selectors.statements(championship),
            "layouts": [layout.name for layout in readers.LAYOUTS],
        },
    )


@never_cache
@require_http_methods(["GET", "POST"])
@organiser_required
def map_layout(request, championship, token):
    """Say once which column of a new CSV layout holds what; then the file is read."""
    pending = None
    if PENDING_TOKEN.fullmatch(token):
        pending = cache.get(_pending_key(championship, token))
    if pending is None:
        raise Http404(_("This upload has expired: upload the file again."))
    table = readers.read_table(pending["data"])
    form = MappingForm(request.POST or None, header=table.header)
    if request.method == "POST" and form.is_valid():
        try:
            services.layout_save(
                table=table,
                columns=form.columns(),
                decimal_comma=form.cleaned_data["decimal_comma"],
                by=request.user,
            )
        except services.Refused as error:
            form.add_error(None, error.message)
        else:
            upload = StatementForm()
            answer = _read(request, championship, pending["data"], pending["name"], upload)
            if answer is not None:
                cache.delete(_pending_key(championship, token))
                return answer
            for error in upload.errors.get("file", []):
                form.add_error(None, error)
    return render(
        request,
        "payments/map.html",
        {
            "championship": championship,
            "form": form,
            "file_name": pending["name"],
            "sample": table.rows[:3],
            "header": table.header,
        },
    )


@never_cache
@require_http_methods(["GET"])
@organiser_required
def statement(request, championship, statement_id):
    """A statement's credits with their match; apply it from here."""
    found = get_object_or_404(Statement, pk=statement_id, championship=championship)
    lines = selectors.lines(found)
    return render(
        request,
        "payments/statement.html",
        {
            "championship": championship,
            "statement": found,
            "lines": lines,
            "suggestions": [line for line in lines if line.suggested_id and not line.entry_id],
        },
    )


@require_POST
@organiser_required
def apply(request, championship, statement_id):
    """Mark the entries the statement pays paid, with the suggestions the organiser ticked."""
    found = get_object_or_404(Statement, pk=statement_id, championship=championship)
    confirm = [int(value) for value in request.POST.getlist("confirm") if value.isdigit()]
    try:
        became = services.statement_apply(statement=found, by=request.user, confirm=confirm)
    except services.Refused as error:
        messages.error(request, error.message)
    else:
        messages.success(
            request,
            ngettext(
                "The statement is applied: %(count)s entry became paid.",
                "The statement is applied: %(count)s entries became paid.",
                became,
            )
            % {"count": became},
        )
    return _review(championship, found)


@never_cache
@require_http_methods(["GET"])
@organiser_required
def refunds_page(request, championship):
    """Who is owed what, with their reference; mark each refund done. ``?format=csv``: as CSV."""
    due = refunds.owed(championship)
    if request.GET.get("format") == "csv":
        return csvfile.response(
            f"{championship.slug}-refunds.csv",
            [
                [
                    pgettext("csv header", "entry"),
                    pgettext("csv header", "name"),
                    pgettext("csv header", "email"),
                    pgettext("csv header", "reason"),
                    pgettext("csv header", "amount"),
                    pgettext("csv header", "currency"),
                    pgettext("csv header", "payment_reference"),
                ],
                *(
                    [
                        owed.entry.ref,
                        owed.entry.name,
                        owed.entry.contact_email,
                        owed.reason_label,
                        owed.amount,
                        championship.currency,
                        owed.reference,
                    ]
                    for owed in due
                ),
            ],
            language=championship.language,
        )
    return render(
        request,
        "payments/refunds.html",
        {
            "championship": championship,
            "owed": due,
            "deadline": refunds.deadline(championship),
            "done": Refund.objects.filter(entry__category__championship=championship)
            .select_related("entry", "done_by")
            .order_by("-done_at"),
        },
    )


@require_POST
@organiser_required
def refund_done(request, championship):
    """Record that an entry was paid back what it is owed."""
    entry_id = request.POST.get("entry", "")
    reason = request.POST.get("reason", "")
    try:
        if not entry_id.isdigit():
            raise services.Refused(_("Nothing is owed to this entry for this reason (any more)."))
        refund = refunds.refund_record(
            championship=championship, entry_id=int(entry_id), reason=reason, by=request.user
        )
    except services.Refused as error:
        messages.error(request, error.message)
    else:
        messages.success(
            request, _("The refund to %(name)s is recorded.") % {"name": refund.entry.name}
        )
    return redirect("manage:payments_refunds", championship_slug=championship.slug)


@require_POST
@organiser_required
def cancel(request, championship):
    """Call the championship off (a ticked confirmation is needed): every fee paid is owed back."""
    if request.POST.get("confirm") != "yes":
        messages.error(request, _("Tick the box to confirm that the championship is cancelled."))
    else:
        championship_services.championship_cancel(championship=championship)
        messages.success(
            request,
            _("The championship is cancelled: registration is closed, and every fee paid is owed."),
        )
    return redirect("manage:payments_refunds", championship_slug=championship.slug)
