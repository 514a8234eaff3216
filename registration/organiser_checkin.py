"""The check-in desk on a phone: search by name, or scan an entrant's check-in code.

Every view is for the organisers of the championship (``organiser_required``);
check-ins go through ``registration.services``.
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from championship.permissions import organiser_required
from registration import selectors, services
from registration.checkin import entry_pk_of
from registration.organiser import entry_or_404

CHECKIN = "registration/organiser_checkin.html"


def _checkin_context(championship, **extra) -> dict:
    return {"counts": list(selectors.checkin_counts(championship)), **extra}


@never_cache
@require_GET
@organiser_required
def checkin(request, championship):
    """Find an entry at the check-in desk and check it in, from a phone."""
    query = request.GET.get("q", "").strip()[:100]
    context = _checkin_context(
        championship, rows=selectors.checkin_rows(championship, query), query=query
    )
    template = f"{CHECKIN}#checkin-search" if request.htmx else CHECKIN
    return render(request, template, context)


@never_cache
@require_GET
@organiser_required
def checkin_code(request, championship, code):
    """Show the entry a scanned check-in code names, to check it in with one tap.

    The check-in page's scanner asks for the entry alone (``?scanned=1``); a phone's
    camera app opens the whole page with the entry on top.
    """
    pk = entry_pk_of(championship, code)
    row = selectors.entry_row(championship, pk) if pk is not None else None
    if row is None:
        error = _("This code is not a check-in code of this championship.")
        if request.GET.get("scanned"):
            return render(request, f"{CHECKIN}#checkin-unknown", {"error": error}, status=404)
        messages.error(request, error)
        return redirect("registration:organiser_checkin", slug=championship.slug)
    context = _checkin_context(championship, row=row, scanned=True, query="")
    if request.GET.get("scanned"):
        return render(request, f"{CHECKIN}#checkin-scanned", context)
    # The entry is on top: the list below does not show it twice.
    context["rows"] = [r for r in selectors.checkin_rows(championship, "") if r.entry.pk != pk]
    return render(request, CHECKIN, context)


@never_cache
@require_POST
@organiser_required
def checkin_entry(request, championship, pk):
    """Check an entry in (or take the check-in back)."""
    entry = entry_or_404(championship, pk)
    undo = request.POST.get("undo") == "1"
    error = ""
    try:
        services.entry_check_in(entry=entry, undo=undo)
    except ValidationError as refused:
        error = " ".join(refused.messages)
    if request.htmx:
        context = _checkin_context(
            championship,
            row=selectors.entry_row(championship, entry.pk),
            error=error,
            query=request.POST.get("q", ""),
        )
        return render(request, f"{CHECKIN}#checkin-answer", context)
    if error:
        messages.error(request, error)
    elif undo:
        message = _("The check-in of %(name)s is taken back.") % {"name": entry.name}
        messages.success(request, message)
    else:
        messages.success(request, _("%(name)s is checked in.") % {"name": entry.name})
    path = reverse("registration:organiser_checkin", kwargs={"slug": championship.slug})
    query = request.POST.get("q", "").strip()[:100]
    return redirect(f"{path}?{urlencode({'q': query})}" if query else path)
