"""The check-in desk on a phone: search by name, or scan an entrant's check-in code.

The entries are listed a page at a time (``selectors.checkin_page``), confirmed
ones first, by name.

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
from core import actions
from registration import paging, selectors, services
from registration.checkin import entry_pk_of
from registration.organiser import entry_or_404

CHECKIN = "registration/organiser_checkin.html"


def _checkin_context(championship, **extra) -> dict:
    return {"counts": list(selectors.checkin_counts(championship)), **extra}


def _found(championship, query: str, number: int, *, leaving_out=None) -> dict:
    """Return the context of a page of the entries found for ``query`` (every entry if empty)."""
    page = selectors.checkin_page(championship, query, number, leaving_out=leaving_out)
    path = reverse("manage:checkin", kwargs={"championship_slug": championship.slug})
    filters = urlencode({"q": query}) if query else ""
    return {
        "rows": page.object_list,
        "pages": paging.page_links(page, path, filters),
        "page_number": page.number,
    }


@never_cache
@require_GET
@organiser_required
def checkin(request, championship):
    """Find an entry at the check-in desk and check it in, from a phone.

    The entries found come a page at a time (``?page=``); an HTMX request (the
    search field, a page's link) gets the results alone with the counts.
    """
    query = request.GET.get("q", "").strip()[:100]
    context = _checkin_context(
        championship,
        query=query,
        **_found(championship, query, paging.page_number(request.GET)),
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
        return redirect("manage:checkin", championship_slug=championship.slug)
    context = _checkin_context(championship, row=row, scanned=True, query="")
    if request.GET.get("scanned"):
        return render(request, f"{CHECKIN}#checkin-scanned", context)
    # The entry is on top: the list below does not show it twice.
    context.update(_found(championship, "", 1, leaving_out=pk))
    return render(request, CHECKIN, context)


@never_cache
@require_POST
@organiser_required
def checkin_entry(request, championship, pk):
    """Check an entry in (or take the check-in back)."""
    entry = entry_or_404(championship, pk)
    undo = request.POST.get("undo") == "1"

    def action():
        services.entry_check_in(entry=entry, undo=undo)
        if undo:
            return _("The check-in of %(name)s is taken back.") % {"name": entry.name}
        return _("%(name)s is checked in.") % {"name": entry.name}

    if request.htmx:
        # The answer shows the entry's row with the refusal, if any: no message waits for
        # the next page.
        error = ""
        try:
            action()
        except ValidationError as refused:
            error = actions.refusal_text(refused)
        context = _checkin_context(
            championship,
            row=selectors.entry_row(championship, entry.pk),
            error=error,
            query=request.POST.get("q", ""),
            page_number=paging.page_number(request.POST),
        )
        return render(request, f"{CHECKIN}#checkin-answer", context)
    actions.run(request, action)
    # Back to the page of the list the entry was checked in from.
    path = reverse("manage:checkin", kwargs={"championship_slug": championship.slug})
    query = request.POST.get("q", "").strip()[:100]
    back = paging.with_page(
        urlencode({"q": query}) if query else "", paging.page_number(request.POST)
    )
    return redirect(f"{path}?{back}" if back else path)
